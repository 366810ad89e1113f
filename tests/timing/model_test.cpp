// The time model (src/timing, docs/time.md): mean value analysis, the instruction classes, waves
// and tails, bandwidth bounds. Expected values are worked out by hand from the equations of
// docs/time.md and the H100 constants of src/timing/constants.cpp.
#include <gtest/gtest.h>

#include "arch/profile.hpp"
#include "common/error.hpp"
#include "timing/inputs.hpp"

namespace warpscope::timing {
namespace {

TEST(Mva, OneCustomerSumsDemandsAndDelay) {
  const double d[] = {2, 3};
  EXPECT_DOUBLE_EQ(mva_cycle_time(1, d, 2, 5), 10);
}

TEST(Mva, TwoCustomersQueueAtTheStation) {
  // k=1: R=4, cycle 8, X=1/8, Q=0.5; k=2: R=4*1.5=6, cycle 6+4=10.
  const double d[] = {4};
  EXPECT_DOUBLE_EQ(mva_cycle_time(2, d, 1, 4), 10);
}

TEST(Mva, ManyCustomersApproachTheBottleneck) {
  // 64 customers, a station of demand 1 and delay 3: the station saturates (throughput 1), so the
  // cycle is at least n * 1 and at most n * 1 + 3.
  const double d[] = {1};
  const double c = mva_cycle_time(64, d, 1, 3);
  EXPECT_GE(c, 64.0);
  EXPECT_LT(c, 64.0 + 3.0 + 1e-9);
}

TEST(Mix, PtxClassesAndExpansions) {
  InstructionMix m;
  add_ptx_instruction(m, "fma.rn.f32 %f1, %f2, %f3, %f4;", 1);
  EXPECT_DOUBLE_EQ(m.fp32, 1);
  add_ptx_instruction(m, "@%p1 bra $L__BB0_2;", 1);
  add_ptx_instruction(m, "ld.global.nc.f32 %f5, [%rd1];", 1);
  add_ptx_instruction(m, "ld.shared.u32 %r1, [%r2];", 1);
  add_ptx_instruction(m, "ld.local.u32 %r1, [%rd2];", 1);
  add_ptx_instruction(m, "st.global.f32 [%rd1], %f1;", 1);
  add_ptx_instruction(m, "atom.global.add.u32 %r3, [%rd1], 1;", 1);
  add_ptx_instruction(m, "add.s32 %r4, %r5, %r6;", 1);
  add_ptx_instruction(m, "add.f64 %fd1, %fd2, %fd3;", 1);
  EXPECT_DOUBLE_EQ(m.total, 9);
  EXPECT_DOUBLE_EQ(m.global_loads, 1);
  EXPECT_DOUBLE_EQ(m.shared_loads, 1);
  EXPECT_DOUBLE_EQ(m.local_loads, 1);
  EXPECT_DOUBLE_EQ(m.stores, 1);
  EXPECT_DOUBLE_EQ(m.atomics, 1);
  EXPECT_DOUBLE_EQ(m.integer, 1);
  EXPECT_DOUBLE_EQ(m.fp64, 1);
  // IEEE division: MUFU.RCP, 2 FFMA, IADD3 + ISETP, and the slow-path branch (BSSY, BRA, BSYNC).
  InstructionMix d;
  add_ptx_instruction(d, "div.rn.f32 %f1, %f2, %f3;", 10);
  EXPECT_DOUBLE_EQ(d.total, 80);
  EXPECT_DOUBLE_EQ(d.mufu, 10);
  EXPECT_DOUBLE_EQ(d.fp32, 20);
  EXPECT_DOUBLE_EQ(d.integer, 20);
  // rsqrt.approx.f32 is MUFU.RSQ with FSETP and two FMULs (microbench.sass.txt); .ftz is the MUFU alone.
  InstructionMix r;
  add_ptx_instruction(r, "rsqrt.approx.f32 %f1, %f2;", 1);
  EXPECT_DOUBLE_EQ(r.total, 4);
  add_ptx_instruction(r, "rsqrt.approx.ftz.f32 %f1, %f2;", 1);
  EXPECT_DOUBLE_EQ(r.total, 5);
  EXPECT_DOUBLE_EQ(r.mufu, 2);
}

const TimeConstants& h100() { return *constants_for(arch::builtin_profile("hopper")); }

LaunchShape shape(std::uint64_t ctas, std::uint32_t warps, std::uint32_t per_sm) {
  return LaunchShape{ctas, warps, per_sm, 132, 64};
}

InstructionMix fp32_only(double warps, double per_warp) {
  InstructionMix m;
  m.total = m.fp32 = warps * per_warp;
  return m;
}

// Machine-code classes (docs/time.md, "Machine-code classes"): each opcode's pipe.
TEST(Mix, MachineCodeClassesAndPipes) {
  InstructionMix m;
  add_machine_instruction(m, "FFMA", "fp32", 10);
  add_machine_instruction(m, "HFMA2", "fp16", 1);
  add_machine_instruction(m, "DFMA", "fp64", 2);
  add_machine_instruction(m, "MUFU", "mufu", 3);
  add_machine_instruction(m, "F2I", "conversion", 4);    // the XU, with MUFU
  add_machine_instruction(m, "I2FP", "conversion", 5);   // fixed latency: the integer pipe
  add_machine_instruction(m, "IMAD", "integer", 6);
  add_machine_instruction(m, "MOV", "move", 7);
  add_machine_instruction(m, "S2R", "move", 1);          // issue only
  add_machine_instruction(m, "LDC", "move", 8);
  add_machine_instruction(m, "ULDC", "uniform", 9);
  add_machine_instruction(m, "SHFL", "inter_thread", 2); // issue only
  add_machine_instruction(m, "VOTE", "inter_thread", 1);
  add_machine_instruction(m, "LDG", "global_ld", 11);
  add_machine_instruction(m, "LDL", "local_ld", 12);
  add_machine_instruction(m, "LDS", "shared_ld", 13);
  add_machine_instruction(m, "STG", "global_st", 14);
  add_machine_instruction(m, "STL", "local_st", 15);
  add_machine_instruction(m, "ATOMS", "shared_atom", 16);
  add_machine_instruction(m, "REDG", "global_atom", 17);
  add_machine_instruction(m, "HMMA", "tensor", 18);
  add_machine_instruction(m, "BRA", "control", 19);
  EXPECT_TRUE(m.from_machine_code);
  EXPECT_DOUBLE_EQ(m.total, 10 + 1 + 2 + 3 + 4 + 5 + 6 + 7 + 1 + 8 + 9 + 2 + 1 + 11 + 12 + 13 + 14 + 15 + 16 + 17 + 18 + 19);
  EXPECT_DOUBLE_EQ(m.fp32, 11);
  EXPECT_DOUBLE_EQ(m.fp64, 2);
  EXPECT_DOUBLE_EQ(m.mufu, 7);
  EXPECT_DOUBLE_EQ(m.integer, 5 + 6 + 7 + 1);
  EXPECT_DOUBLE_EQ(m.constant_loads, 8);
  EXPECT_DOUBLE_EQ(m.uniform, 9);
  EXPECT_DOUBLE_EQ(m.global_loads, 11);
  EXPECT_DOUBLE_EQ(m.local_loads, 12);
  EXPECT_DOUBLE_EQ(m.shared_loads, 13);
  EXPECT_DOUBLE_EQ(m.stores, 29);
  EXPECT_DOUBLE_EQ(m.atomics, 33);
  EXPECT_DOUBLE_EQ(m.tensor, 18);
}

// Latencies of scoreboarded machine instructions: the H100's measured constants
// (tests/hw/data/h100/timing/latency_chains.txt, microbench.txt).
TEST(Mix, MachineLatencies) {
  const TimeConstants& c = *constants_for(arch::builtin_profile("hopper"));
  MemoryCounts mem;
  mem.global_load_sectors = 100;
  mem.l1_hit_sectors = 50;  // half L1 hits; of the rest, L2 lookups hit 3 in 4
  mem.l2_sectors = 60;  // writes among them do not count for the loads
  mem.l2_hit_sectors = 50;
  mem.l2_read_sectors = 40;
  mem.l2_read_hit_sectors = 30;
  mem.dram_read_bytes = 10 * 32;  // the 10 read misses, no pair partner
  EXPECT_DOUBLE_EQ(machine_latency(c, mem, "LDG", "global_ld"), 0.5 * 32.0 + 0.5 * (0.75 * 268.6 + 0.25 * 681.2));
  EXPECT_DOUBLE_EQ(machine_latency(c, mem, "LDL", "local_ld"), 32.0);
  EXPECT_DOUBLE_EQ(machine_latency(c, mem, "LDS", "shared_ld"), 23.1);
  EXPECT_DOUBLE_EQ(machine_latency(c, mem, "LDC", "move"), 28.0);
  EXPECT_DOUBLE_EQ(machine_latency(c, mem, "MUFU", "mufu"), 17.0);
  EXPECT_DOUBLE_EQ(machine_latency(c, mem, "F2I", "conversion"), 17.0);
  EXPECT_DOUBLE_EQ(machine_latency(c, mem, "SHFL", "inter_thread"), 24.0);
  EXPECT_DOUBLE_EQ(machine_latency(c, mem, "ATOMG", "global_atom"), 268.6);
}

// docs/mem.md "DRAM fetch": a miss reads the 64-byte sector pair. A read hit on a partner that
// came in that way is no hit for the time model (the warps asking for both halves run at once).
TEST(Mix, PartnerHitsWaitForDram) {
  const TimeConstants& c = *constants_for(arch::builtin_profile("hopper"));
  MemoryCounts mem;
  mem.global_load_sectors = 100;  // no L1 hit
  mem.l2_read_sectors = 100;      // 50 misses, each fetching its pair partner, which the next
  mem.l2_read_hit_sectors = 50;   // request finds: 50 hits, 100 sectors read from DRAM
  mem.dram_read_bytes = 100 * 32;
  EXPECT_DOUBLE_EQ(global_load_latency(c, mem), 681.2);
  mem.dram_read_bytes = 75 * 32;  // 25 partners: 25 of the 50 hits are real
  EXPECT_DOUBLE_EQ(global_load_latency(c, mem), 0.25 * 268.6 + 0.75 * 681.2);
  mem.l2_atomic_sectors = 25;     // misses of atomics read DRAM too: no partner left
  EXPECT_DOUBLE_EQ(global_load_latency(c, mem), 0.5 * 268.6 + 0.5 * 681.2);
}

// tests/hw/data/h100/timing/load_width.txt: L1-hit chases of LDG.64 and LDG.128 take 5.3 and 11.7
// cycles a load more than LDG.32's (against the walk of the same kernels).
TEST(Mix, WiderLoadsReturnFromL1Later) {
  const TimeConstants& c = *constants_for(arch::builtin_profile("hopper"));
  EXPECT_DOUBLE_EQ(l1_width_extra(c, 4), 0.0);
  EXPECT_DOUBLE_EQ(l1_width_extra(c, 8), 5.3);
  EXPECT_DOUBLE_EQ(l1_width_extra(c, 16), 11.7);
}

// docs/time.md "Shared misses" (tests/hw/data/h100/timing/shared_stream.txt, nbody_source_*.csv):
// an L1 hit on another warp's fill of the same instruction waits as that instruction's misses do,
// and a broadcast load in a burst of the SM's warps waits its mean position at the L1's data stage.
TEST(Mix, ForeignHitsWaitForTheMissAndBurstsQueue) {
  const TimeConstants& c = *constants_for(arch::builtin_profile("hopper"));
  MemoryCounts mem;
  // 100 sectors: 50 L1 hits, 50 misses that hit L2; 40 of the hits are foreign.
  EXPECT_DOUBLE_EQ(instruction_load_latency(c, mem, 100, 50, 50, 4), 0.5 * 32.0 + 0.5 * 268.6);
  EXPECT_DOUBLE_EQ(instruction_load_latency(c, mem, 100, 50, 50, 4, 40), 0.1 * 32.0 + 0.9 * 268.6);
  // Every sector a foreign hit and no miss of its own: the L2's latency.
  EXPECT_DOUBLE_EQ(instruction_load_latency(c, mem, 100, 100, 0, 4, 100), 268.6);
  // 32 warps per SM: LDG.32 broadcasts (128 bytes a warp) wait 15.5 cycles, LDG.128 ones (512
  // bytes, 4 cycles of the 128-byte data path) 62; one warp alone none.
  EXPECT_DOUBLE_EQ(convoy_burst_cycles(32, 32 * 4), 15.5);
  EXPECT_DOUBLE_EQ(convoy_burst_cycles(32, 32 * 16), 62.0);
  EXPECT_DOUBLE_EQ(convoy_burst_cycles(1, 32 * 16), 0.0);
  // Half the hits in a burst of 62 cycles: 31 more.
  EXPECT_DOUBLE_EQ(instruction_load_latency(c, mem, 100, 100, 0, 16, 0, 50, 62), 32.0 + 11.7 + 31.0);
}

TEST(Predict, OneWarpPerSmIsLatencyBound) {
  // 100 dependent FFMA per warp: 100 x 4.07 cycles; issue 100 and FP32 100 x 4 / 3.89 cycles are
  // part of it. 407 cycles at 1.98 GHz plus the 2192 ns launch overhead.
  const Prediction p = predict(h100(), shape(132, 1, 1), fp32_only(132, 100), MemoryCounts{});
  EXPECT_DOUBLE_EQ(p.sm_cycles, 407.0);
  EXPECT_DOUBLE_EQ(p.duration_ns, 407.0 / 1.98 + 2192.0);
  EXPECT_EQ(p.limiter, "latency");
  EXPECT_DOUBLE_EQ(p.waves, 1.0);
}

// docs/time.md "Constant data": the first reads of constant lines stall the warp making them, on
// the H100 66.9 cycles per parameter line and 231.5 per __constant__ line (const_launch.cu,
// const_cache.cu). One warp alone on its SM: its 407 cycles of FFMA chain, plus 10 parameter lines
// and 4 constant lines.
// docs/time.md "The busiest CTA": 132 one-warp CTAs, one per SM, where one CTA does 8 times the
// mean CTA's work (the others less): the launch lasts as long as that CTA's 8 x 407 cycles.
// docs/time.md "CTA launch rate": the H100 starts 0.601 ns worth of CTAs apart
// (tests/hw/data/h100/timing/cta_rate_ncu.csv); 264000 one-warp CTAs that each do one FFMA take
// 264000 x 0.601 ns plus the launch overhead (the H100: 160832 ns for CTAs of one store).
TEST(Predict, ManyTinyCtasAreBoundByTheLaunchRate) {
  SerialCounts s;
  s.ctas = 264000;
  const Prediction p =
      predict(h100(), shape(264000, 1, 32), fp32_only(264000, 1), MemoryCounts{}, s, serial_constants_for("hopper"));
  EXPECT_DOUBLE_EQ(p.duration_ns, 264000 * 0.601 + 2192.0);
  EXPECT_EQ(p.limiter, "cta_launch");
}

TEST(Predict, TheBusiestCtaHoldsItsSm) {
  LaunchShape sh = shape(132, 1, 1);
  sh.cta_imbalance = 8;
  const Prediction p = predict(h100(), sh, fp32_only(132, 100), MemoryCounts{});
  EXPECT_DOUBLE_EQ(p.sm_cycles, 8 * 407.0);
  EXPECT_DOUBLE_EQ(p.components["busiest_cta_cycles"].get<double>(), 8 * 407.0);
  sh.cta_imbalance = 1;  // even work: the mean warp's 407 cycles
  EXPECT_DOUBLE_EQ(predict(h100(), sh, fp32_only(132, 100), MemoryCounts{}).sm_cycles, 407.0);
}

TEST(Predict, FirstReadsOfConstantLinesDelayTheWarp) {
  SerialCounts s;
  s.param_lines = 10;
  s.const_lines = 4;
  const SerialConstants* sc = serial_constants_for("hopper");
  ASSERT_NE(sc, nullptr);
  const Prediction p = predict(h100(), shape(1, 1, 1), fp32_only(1, 100), MemoryCounts{}, s, sc);
  EXPECT_DOUBLE_EQ(p.sm_cycles, 407.0 + 10 * 66.9 + 4 * 231.5);
  EXPECT_EQ(p.limiter, "constant");
  // Spread over 132 warps on 132 SMs (one each), each warp waits its share.
  const Prediction q = predict(h100(), shape(132, 1, 1), fp32_only(132, 100), MemoryCounts{}, s, sc);
  EXPECT_DOUBLE_EQ(q.sm_cycles, 407.0 + (10 * 66.9 + 4 * 231.5) / 132);
  EXPECT_EQ(q.limiter, "latency");
}

TEST(Predict, MachineCodeLatencyReplacesTheDependentChain) {
  // The same 100 FFMA per warp, with the warps' own time from the control words given: 132 warps
  // of 250 cycles each (e.g. 100 FFMA at stall 2, 50 cycles of waits). One warp per scheduler:
  // the cycle is that latency, 250 cycles.
  InstructionMix m = fp32_only(132, 100);
  m.latency_cycles = 132 * 250.0;
  const Prediction p = predict(h100(), shape(132, 1, 1), m, MemoryCounts{});
  EXPECT_DOUBLE_EQ(p.components["warp_latency_cycles"].get<double>(), 250.0);
  EXPECT_DOUBLE_EQ(p.sm_cycles, 250.0);
  EXPECT_EQ(p.limiter, "latency");
}

TEST(Predict, TheLastWaveCostsAWholeWave) {
  // 133 CTAs of one warp on 132 SMs with one CTA each: a full wave and a tail of one CTA.
  const Prediction full = predict(h100(), shape(264, 1, 1), fp32_only(264, 100), MemoryCounts{});
  const Prediction tail = predict(h100(), shape(133, 1, 1), fp32_only(133, 100), MemoryCounts{});
  EXPECT_DOUBLE_EQ(full.sm_cycles, 814.0);
  EXPECT_DOUBLE_EQ(tail.sm_cycles, 814.0);
}

TEST(Predict, ManyWarpsHideLatencyUntilFp32IsTheLimit) {
  // 64 warps per SM (16 per scheduler), 100 FFMA each: FP32 needs 100 x 4 / 3.89 = 102.8 cycles a
  // warp; 16 of them keep the pipe busy (1645 cycles) longer than one warp's 407-cycle chain.
  const Prediction p = predict(h100(), shape(132 * 2, 32, 2), fp32_only(132 * 64, 100), MemoryCounts{});
  EXPECT_EQ(p.limiter, "fp32");
  EXPECT_GT(p.sm_cycles, 16 * 100 * 4 / 3.89);
  EXPECT_LT(p.sm_cycles, 16 * 100 * 4 / 3.89 + 407);
}

TEST(Predict, DramBandwidthBoundsTheLaunch) {
  MemoryCounts mem;
  mem.dram_read_bytes = 3073.9e6;  // 1 ms at the measured 3073.9 GB/s
  const Prediction p = predict(h100(), shape(132, 1, 1), fp32_only(132, 1), mem);
  EXPECT_EQ(p.limiter, "dram");
  // One warp per SM: its share of the bandwidth is its SM's, and its one FFMA's issue and FP32
  // slots come on top (the network's stations are visited one after another).
  EXPECT_NEAR(p.duration_ns, 1e6 + (1 + 4 / 3.89) / 1.98 + 2192.0, 1e-6);
  EXPECT_NEAR(p.dram_pct, 100.0, 1e-3);
}

TEST(Predict, ACtaThatDoesNotFitIsAnError) {
  EXPECT_THROW(predict(h100(), shape(1, 1, 0), fp32_only(1, 1), MemoryCounts{}), Error);
}

TEST(Constants, ProfilesWithoutATableHaveNoModel) {
  EXPECT_NE(constants_for(arch::builtin_profile("hopper")), nullptr);
  EXPECT_NE(constants_for(arch::builtin_profile("kepler")), nullptr);
  EXPECT_EQ(constants_for(arch::builtin_profile("g80")), nullptr);
}

TEST(Metrics, PredictionIsRecordedAsEstimated) {
  const Prediction p = predict(h100(), shape(132, 1, 1), fp32_only(132, 100), MemoryCounts{});
  nlohmann::json metrics = nlohmann::json::object(), estimated = nlohmann::json::array();
  const nlohmann::json t = add_prediction(p, h100(), fp32_only(132, 100), metrics, estimated);
  EXPECT_DOUBLE_EQ(metrics["gpu__time_duration.sum"].get<double>(), 407.0 / 1.98 + 2192.0);
  EXPECT_EQ(estimated.size(), 7u);
  EXPECT_EQ(t["limiter"], "latency");
  EXPECT_TRUE(t["estimated"].get<bool>());
}

}  // namespace
}  // namespace warpscope::timing

namespace warpscope::timing {
namespace {

TEST(Mix, ConsecutiveIndependentLoadsOverlap) {
  // x, y, z of one structure: three loads back to back, none using another's result.
  const std::vector<std::string> texts = {"ld.global.f32 %f1, [%rd4];", "ld.global.f32 %f2, [%rd4+4];",
                                          "ld.global.f32 %f3, [%rd4+8];", "ld.global.u64 %rd5, [%rd6];",
                                          "ld.global.u32 %r1, [%rd5];"};
  const InstructionMix m = mix_from_ptx(texts, {10, 10, 10, 10, 10});
  EXPECT_DOUBLE_EQ(m.global_loads, 50);
  // The 2nd and 3rd overlap the 1st; the 4th follows a load it does not use (overlaps too); the
  // 5th's address is the 4th's result (a pointer chase): it waits.
  EXPECT_DOUBLE_EQ(m.overlapped_loads, 30);
}

TEST(Predict, OverlappedLoadsWaitOnce) {
  // One warp, two L1-hitting loads: 2 x 32 cycles alone, 32 + 1 when the second overlaps.
  InstructionMix m;
  m.total = m.global_loads = 2;
  MemoryCounts mem;
  mem.global_load_sectors = mem.l1_hit_sectors = 2;
  const LaunchShape one{1, 1, 1, 132, 64};
  EXPECT_DOUBLE_EQ(predict(h100(), one, m, mem).sm_cycles, 64.0);
  m.overlapped_loads = 1;
  EXPECT_DOUBLE_EQ(predict(h100(), one, m, mem).sm_cycles, 33.0);
}

}  // namespace
}  // namespace warpscope::timing

namespace warpscope::timing {
namespace {

// wgmma (tests/hw/timing/wgmma_rate.cu, tests/hw/data/h100/timing/wgmma_rate.txt): with two
// warpgroups per SM each wgmma takes the SM's tensor pipe max(N / 2, 24) cycles, whatever the type:
// 128.13 for N = 256 (f16, bf16, tf32, e4m3, s8), 64.10 for 128, 32.09 for 64, 24.08 for 32.
TEST(Mix, WgmmaTakesTheTensorPipeByItsN) {
  InstructionMix m;
  add_wgmma(m, "wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16 {%f1, %f2}, %rd1, %rd2, p, 1, 1, 0, 0;", 8);
  EXPECT_DOUBLE_EQ(m.gmma_cycles, 2 * 128.0);  // 8 warp executions = 2 warpgroup instructions
  add_wgmma(m, "wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3 {%f1}, %rd1, %rd2, p, 1, 1;", 4);
  EXPECT_DOUBLE_EQ(m.gmma_cycles, 2 * 128.0 + 24.0);
  add_wgmma(m, "wgmma.fence.sync.aligned;", 4);
  add_wgmma(m, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1}, {%r1}, {%r2}, {%f1};", 4);
  EXPECT_DOUBLE_EQ(m.gmma_cycles, 2 * 128.0 + 24.0);
}

TEST(Predict, WgmmaThroughputAsMeasured) {
  // wgmma_rate.cu's first kernel with W = 2: 264 CTAs of one warpgroup, two per SM, each issuing
  // 2048 wgmma.m64n256k16 (512 iterations of 4): the H100 took 128.13 cycles per wgmma per SM,
  // 524,820 cycles for the SM's 4096. The model's tensor pipe: 4096 x 128 = 524,288 cycles.
  InstructionMix mix;
  const double warps = 264 * 4, per_warp = 2048 + 512 * 4;  // the wgmma and the fence/commit/wait around them
  mix.total = warps * per_warp;
  mix.integer = warps * 512 * 3;
  mix.gmma_cycles = 264 * 2048 * 128.0;
  const Prediction p = predict(h100(), shape(264, 4, 2), mix, MemoryCounts{});
  EXPECT_EQ(p.limiter, "tensor");
  EXPECT_NEAR(p.sm_cycles, 524820.0, 0.01 * 524820.0);
}

}  // namespace
}  // namespace warpscope::timing
