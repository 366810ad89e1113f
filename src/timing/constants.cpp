#include "timing/constants.hpp"

#include <map>
#include <string_view>

namespace warpscope::timing {
namespace {

// NVIDIA H100 SXM5: tests/hw/data/h100/timing/microbench.txt (measured) unless marked "spec".
TimeConstants hopper() {
  TimeConstants c;
  c.clock_ghz = 1.98;             // measured: clock64 against %globaltimer (= the 1980 MHz maximum)
  c.schedulers_per_sm = 4;        // spec (H100 whitepaper: 4 SM sub-partitions)
  c.rate_fp32 = 3.89;             // measured rate_fma
  c.rate_mufu = 0.498;            // measured rate_mufu_rsq (MUFU.RSQ)
  c.rate_int = 2.0;               // measured rate_imad (IMAD: 64 lanes per SM)
  c.rate_fp64 = 2.0;              // spec: 64 FP64 lanes per SM
  c.rate_lsu = 1.0;               // spec: one L1 tag lookup (request) per cycle; ncu's l1tex__throughput of the N-body
  c.rate_l1_wavefronts = 1.0;     // spec: 128 bytes per cycle per SM (L1 and shared memory)
  c.rate_tensor = 0.6557;         // measured tensor_rate.txt: HMMA.16816 (f16, bf16), HMMA.1688 (tf32), IMMA.16832 alike
  c.rate_tensor_fp64 = 0.2491;    // measured tensor_rate.txt: DMMA.8x8x4
  c.lat_alu = 4.07;               // measured latency_fma
  c.lat_fp64 = 8.0;               // measured latency_chains.txt: DFMA 8.04 (fixed latency, stall 8)
  c.lat_mufu = 39.1;              // measured latency_mufu_rsq (rsqrt.approx.f32: MUFU.RSQ with its scaling FMULs)
  c.lat_l1 = 32.0;                // measured latency_l1 (ld.global.ca chase, 8 KB)
  c.lat_l1_extra_64 = 5.3;        // measured load_width.txt: chases of LDG.32 / .64 / .128 L1 hits, 42.97 / 54.02 / 63.42
  c.lat_l1_extra_128 = 11.7;      //   cycles a step, the walk 38.40 / 44.11 / 47.14: 4.57 / 9.91 / 16.28 more, +5.3 / +11.7 beyond LDG.32's
  c.lat_l2 = 268.6;               // measured latency_l2 (ld.global.cg chase, 4 MB)
  c.lat_dram = 681.2;             // measured latency_dram.txt (1 GiB chase, 1 KB apart; microbench.txt's revisited L2)
  c.lat_shared = 23.1;            // measured latency_shared
  c.lat_xu = 17.0;                // measured latency_chains.txt: MUFU.RSQ alone 17.0, F2I 17.1
  c.lat_const = 28.0;             // measured latency_chains.txt: LDC, cached line (104 for a new line)
  c.lat_shfl = 24.0;              // measured latency_chains.txt: SHFL.BFLY
  c.bar_cycles = 4.0;             // measured barrier_cost.txt: back-to-back __syncthreads() of 1, 4, 8, 32 warps take
  c.bar_cycles_per_warp = 2.0;    //   14.02, 20.01, 28.00, 76.04 cycles, the walk 8.05: 4 + 2 x warps beyond it
  c.bsync_cycles = 13.2;          // measured branch_cost.txt: (136.32 - 110.10) / 2, 60.55 - 47.09, 81.30 - 68.09 (the walk's cycles)
  c.l2_bytes_per_s = 7212.9e9;    // measured bw_l2_read (16 MiB working set)
  c.dram_read_bytes_per_s = 3073.9e9;   // measured bw_dram_read
  c.dram_mixed_bytes_per_s = 2837.2e9;  // measured bw_dram_copy (reads + writes)
  c.launch_overhead_ns = 2192.0;  // measured: ncu gpu__time_duration of empty_kernel<<<1,32>>> (2,208 / 2,176 / 2,176)
  c.source = "H100 microbenchmarks (tests/hw/data/h100/timing) and the H100 whitepaper";
  return c;
}

// NVIDIA H200 SXM: the H100's SMs (the SM-side constants above, which the H200's microbench.txt
// repeats within 0.3 %: rate_fma 3.901, rate_imad 1.998, latency_fma 4.07, latency_shared 23.1)
// with its own memory system, measured: tests/hw/data/h200/profile (capture_h200_profile.sh).
TimeConstants h200() {
  TimeConstants c = hopper();
  c.lat_l2 = 275.8;               // measured latency_l2 (ld.global.cg chase, 4 MB)
  c.lat_dram = 650.3;             // measured latency_dram.txt (1 GiB chase, 1 KB apart, 4096 steps)
  c.l2_bytes_per_s = 8101.0e9;    // measured bw_l2_read (16 MiB working set)
  c.dram_read_bytes_per_s = 4361.1e9;   // measured bw_dram_read
  c.dram_mixed_bytes_per_s = 4000.4e9;  // measured bw_dram_copy (reads + writes)
  c.launch_overhead_ns = 1536.0;  // measured: ncu gpu__time_duration of empty_kernel<<<1,32>>> (1,632 / 1,472 / 1,504)
  c.source = "H200 microbenchmarks (tests/hw/data/h200/profile) over the H100's SM constants";
  return c;
}

// NVIDIA A100 SXM4: A100 whitepaper (108 SMs, 64 FP32 + 64 INT32 + 32 FP64 lanes and 16 SFU lanes
// per SM, 1410 MHz boost, 1555 GB/s); latencies from published microbenchmarks (Jia et al.,
// "Dissecting the Ampere GPU architecture", and NVIDIA's CUDA guides: ~4-cycle FMA).
TimeConstants ampere() {
  TimeConstants c;
  c.clock_ghz = 1.41;
  c.rate_fp32 = 2.0; c.rate_mufu = 0.5; c.rate_int = 2.0; c.rate_fp64 = 1.0;
  c.rate_lsu = 1.0; c.rate_l1_wavefronts = 1.0;
  c.lat_alu = 4.0; c.lat_fp64 = 8.0; c.lat_mufu = 20.0;
  c.lat_l1 = 33.0; c.lat_l2 = 200.0; c.lat_dram = 400.0; c.lat_shared = 23.0;
  c.l2_bytes_per_s = 4000e9;  // spec-level: ~2.3x V100's L2 (A100 whitepaper)
  c.dram_read_bytes_per_s = 0.9 * 1555e9; c.dram_mixed_bytes_per_s = 0.85 * 1555e9;
  c.launch_overhead_ns = 2500.0;
  c.source = "A100 whitepaper; published microbenchmark latencies (approximate)";
  return c;
}

// NVIDIA V100 SXM2: Volta whitepaper (80 SMs, 64 FP32/64 INT32/32 FP64/16 SFU lanes per SM,
// 1530 MHz, 900 GB/s); latencies from Jia et al. 2018, "Dissecting the NVIDIA Volta GPU
// architecture via microbenchmarking" (L1 28, L2 193, DRAM ~375 cycles, shared 19, FMA 4).
TimeConstants volta() {
  TimeConstants c;
  c.clock_ghz = 1.53;
  c.rate_fp32 = 2.0; c.rate_mufu = 0.5; c.rate_int = 2.0; c.rate_fp64 = 1.0;
  c.rate_lsu = 1.0; c.rate_l1_wavefronts = 1.0;
  c.lat_alu = 4.0; c.lat_fp64 = 8.0; c.lat_mufu = 20.0;
  c.lat_l1 = 28.0; c.lat_l2 = 193.0; c.lat_dram = 375.0; c.lat_shared = 19.0;
  c.l2_bytes_per_s = 2155e9;  // Jia et al. 2018 (measured L2 bandwidth)
  c.dram_read_bytes_per_s = 0.84 * 900e9; c.dram_mixed_bytes_per_s = 0.8 * 900e9;  // Jia et al.: ~750 GB/s
  c.launch_overhead_ns = 3000.0;
  c.source = "Volta whitepaper; Jia et al. 2018 microbenchmarks";
  return c;
}

// NVIDIA Tesla K20X (GK110): Kepler GK110 whitepaper (14 SMX, 192 FP32, 64 FP64, 32 SFU, 32 LD/ST
// lanes per SMX; 4 schedulers with 2 dispatch units; 732 MHz; 250 GB/s); latencies from Jia et
// al. 2018 (Kepler column: L1 35, L2 ~200, DRAM ~300 cycles, shared 26, FMA 9).
TimeConstants kepler() {
  TimeConstants c;
  c.clock_ghz = 0.732;
  c.rate_fp32 = 6.0; c.rate_mufu = 1.0; c.rate_int = 5.0; c.rate_fp64 = 2.0;
  c.rate_lsu = 1.0; c.rate_l1_wavefronts = 1.0;
  c.lat_alu = 9.0; c.lat_fp64 = 10.0; c.lat_mufu = 18.0;
  c.lat_l1 = 35.0; c.lat_l2 = 200.0; c.lat_dram = 300.0; c.lat_shared = 26.0;
  c.l2_bytes_per_s = 500e9;  // GK110 whitepaper: 512 B/clk L2 at ~0.73 GHz, measured lower
  c.dram_read_bytes_per_s = 0.75 * 250e9; c.dram_mixed_bytes_per_s = 0.7 * 250e9;
  c.launch_overhead_ns = 5000.0;
  c.source = "GK110 whitepaper; Jia et al. 2018 microbenchmarks (Kepler column)";
  return c;
}

}  // namespace

const TimeConstants* constants_for(const arch::Profile& profile) {
  // Never destroyed: programs launch kernels from their static destructors.
  static const auto& table = *new std::map<std::string_view, TimeConstants>{
      {"hopper", hopper()}, {"h200", h200()}, {"ampere", ampere()}, {"volta", volta()}, {"kepler", kepler()}};
  auto it = table.find(profile.name);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace warpscope::timing
