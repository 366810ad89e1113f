// The time model's constants per architecture profile (docs/time.md lists each one's source).
// Hopper's come from microbenchmarks run on an H100 (tests/hw/data/h100/timing); the others from
// published specifications. A profile without a table (a user's profile file) has no time model.
#pragma once

#include <string>

#include "arch/profile.hpp"

namespace warpscope::timing {

/// Throughputs are warp instructions (or L1 wavefronts) per SM per cycle; latencies are cycles
/// from issue to a dependent instruction's issue; bandwidths are bytes per second.
struct TimeConstants {
  double clock_ghz = 0;          // SM clock while kernels run
  int schedulers_per_sm = 4;     // warp schedulers: each issues one warp instruction per cycle
  // Issue rate per SM per cycle, by pipe.
  double rate_fp32 = 0, rate_fp64 = 0, rate_mufu = 0, rate_int = 0;
  double rate_lsu = 0;           // L1 tag stage: memory requests (global, local, shared) per cycle
  double rate_l1_wavefronts = 0; // L1 data stage: 128-byte wavefronts (global/local/shared) per cycle
  // Tensor cores (mma.sync's HMMA/IMMA, and DMMA); 0: not measured, tensor instructions take
  // issue slots only.
  double rate_tensor = 0, rate_tensor_fp64 = 0;
  // Latencies.
  double lat_alu = 0, lat_fp64 = 0, lat_mufu = 0;
  double lat_l1 = 0, lat_l2 = 0, lat_dram = 0, lat_shared = 0;
  // An L1 hit of an 8- or 16-byte load (LDG.64, LDG.128) beyond a 4-byte one's lat_l1.
  double lat_l1_extra_64 = 0, lat_l1_extra_128 = 0;
  // Machine-code latencies (instructions that release a scoreboard; 0: not measured, the model
  // falls back on lat_mufu, lat_l1 and lat_shared): the XU (MUFU alone, F2I), a constant-cache
  // hit (LDC), a shuffle.
  double lat_xu = 0, lat_const = 0, lat_shfl = 0;
  // Cycles a BSYNC (the reconvergence after a branch that could diverge) holds the warp beyond its
  // control word's stall; 0: not measured.
  double bsync_cycles = 0;
  // Cycles a BAR.SYNC holds the warp beyond its control word's stall when all the CTA's warps
  // arrive together: bar_cycles + bar_cycles_per_warp x the CTA's warps; 0: not measured.
  double bar_cycles = 0, bar_cycles_per_warp = 0;
  // Bandwidths of the device.
  double l2_bytes_per_s = 0, dram_read_bytes_per_s = 0, dram_mixed_bytes_per_s = 0;
  double launch_overhead_ns = 0;  // gpu__time_duration of an empty kernel
  std::string source;             // one line: where these numbers come from
};

/// The constants of `profile` (by its name), or nullptr when the model has none.
const TimeConstants* constants_for(const arch::Profile& profile);

}  // namespace warpscope::timing
