#include "timing/contention.hpp"

#include <algorithm>

namespace warpscope::timing {

namespace {

// H100 SXM (tests/hw/data/h100/timing/contention_summary.txt: ncu's gpu__time_duration of
// tests/hw/timing/contention.cu, slope between 270336 and 1081344 operations on one address by
// 135168 threads): atomicAdd/RED on one int 0.7311 ns per added operation (ATOM 0.7313, one lane
// per warp 0.7247 and 0.7323), on one float 1.7549 ns (ATOM 1.7549, one lane per warp 1.7563).
// printf: 287.35 ns per added call (the mean of the slopes 304.5 and 293.6 with one int argument,
// 282.6 and 268.7 with four, between 32, 2048 and 16384 calls), and 23205 ns more per launch (32
// calls took 34112 and 35072 ns: their mean less 32 calls and the 2192-ns launch overhead).
// Heap (malloc + free pairs): a lone thread 14013.9 ns per added pair (1 -> 16 pairs), so
// 7006.95 ns per call, and 6930.1 ns more per launch (1 pair took 23136 ns); the 32 lanes of one
// warp 2435.3 ns per added pair of each (1217.65 per call); 16384 threads 315.4 (157.7 per call).
// Zero-copy (cudaHostAllocMapped): reading 2^20 -> 2^22 floats, 12582912 more bytes in 246560 ns
// more (51.03 bytes per ns); c = a + b, 37748736 more bytes in 527648 ns (71.54).
// Constant lines (tests/hw/timing/const_launch.cu and const_cache.cu, data in
// tests/hw/data/h100/timing/const_*): a kernel parameter's 64-byte line costs 66.9 cycles beyond
// the walk's 28-cycle LDC (ncu's duration of psum/usum <1024> and <4096>, less the launch overhead
// and the model's walk, per line: 65.7, 70.5, 65.2, 66.1); a __constant__ line rewritten before
// the launch and flushed from L2 (as ncu does) 231.5: the parameter's 66.9, plus 63.7 for data
// not yet in the SM (cimm against par, clock64, first launch: 51.5, 75.5, 64.2 per line), plus
// 100.9 for data in DRAM rather than L2 (csum under ncu against cidx's clock64: 130, 87.5, 85.2).
// CTA launch rate (tests/hw/timing/cta_rate.cu, cta_rate_ncu.csv): kernels whose CTAs store one
// int per thread take 0.601 ns per added CTA whatever the CTA's size up to 256 threads (slopes from
// 132000 to 264000 CTAs: 0.6007, 0.6010, 0.6019 ns for 32, 128, 256 threads; 13200 -> 132000
// CTAs of 32: 0.6001); 1024-thread CTAs are DRAM-bound instead (1.258 ns per 4-KB CTA).
constexpr SerialConstants kHopper{0.7311, 1.7549, 23204.8, 287.35, 6930.1, 7006.95, 1217.65, 157.7, 51.03, 71.54,
                                  231.5, 66.9, 0.601};

}  // namespace

const SerialConstants* serial_constants_for(const std::string& profile_name) {
  // The H200 has the H100's SMs and L2 design: the same serialised costs (measured on the H100).
  return profile_name == "hopper" || profile_name == "h200" ? &kHopper : nullptr;
}

SerialBounds serial_bounds(const SerialConstants* sc, const SerialCounts& s, double warp_latency) {
  SerialBounds b;
  if (s.clock_skew_max > 0) b.spin_cycles = s.clock_skew_max + warp_latency;
  if (sc != nullptr) {
    // The L2 serialises operations on one address (integer ones at atomic_op_ns, float adds at
    // atomic_float_op_ns), and within one 128-byte line it takes a request's sectors one after
    // another, each as many steps as its busiest address has lanes (the measured 2 ints 32 bytes
    // apart cost as much as 1 address; 2 ints 4 bytes apart half as much).
    b.atomic_ns = std::max({s.atomic_address_ops * sc->atomic_op_ns, s.atomic_address_float_ops * sc->atomic_float_op_ns,
                            s.atomic_line_steps * sc->atomic_op_ns});
  }
  if (sc != nullptr && s.printf_calls > 0) b.printf_ns = sc->printf_launch_ns + s.printf_calls * sc->printf_call_ns;
  if (sc != nullptr && s.heap_calls > 0) {
    // The calls of one thread wait for each other; a warp's lanes call one after another; the
    // whole device's calls share the allocator. Per thread and per warp: the launch's means.
    const double per_thread = s.threads > 0 ? s.heap_calls / s.threads : s.heap_calls;
    const double per_warp = s.warps > 0 ? s.heap_calls / s.warps : s.heap_calls;
    b.heap_ns = sc->heap_launch_ns + std::max({per_thread * sc->heap_alone_ns, per_warp * sc->heap_lane_ns,
                                               s.heap_calls * sc->heap_many_ns});
  }
  if (sc != nullptr) b.cta_ns = s.ctas * sc->cta_ns;
  if (sc != nullptr && s.host_read_bytes + s.host_written_bytes > 0) {
    b.host_ns = s.host_written_bytes > 0 ? (s.host_read_bytes + s.host_written_bytes) / sc->host_mixed_bytes_per_ns
                                         : s.host_read_bytes / sc->host_read_bytes_per_ns;
  }
  return b;
}

}  // namespace warpscope::timing
