// One warp's own time through the sm_90 machine code, from the control words ptxas writes into
// every instruction (sass.hpp, Inst::stall ... wait_mask): the time model's per-warp latency L
// (docs/time.md, "Latency from the machine code").
//
// Contract:
//  - issue_costs() walks each basic block as one warp alone would run it: an instruction issues
//    when the previous one's stall cycles have passed and every scoreboard its wait mask names is
//    released; an instruction with a write barrier releases it `latency[i]` cycles after it
//    issues (variable-latency instructions: loads, LDC, MUFU, conversions, shuffles, atomics), one
//    with a read barrier `read_latency` cycles after. Fixed-latency instructions need no
//    scoreboard: ptxas's stall counts already space their consumers. A scoreboard still pending
//    at a block's end costs the block what a successor block would wait for it (the successor's
//    stall cycles before its first wait on it count against that).
//  - cost[i] is the cycles instruction i adds to the warp's time: its wait, then its stall (at
//    least 1). A block's time is the sum of its instructions' costs.
//  - warp_cycles() = sum over instructions of warp executions x cost: the warps' time summed over
//    the launch (the time model divides by the number of warps).
//  - Barriers a warp waits for at BAR.SYNC, DEPBAR counts, branch resolution and instruction
//    cache misses are not modelled; nor is contention with other warps (the queueing model's part).
#pragma once

#include <span>
#include <vector>

#include "analysis/sass.hpp"
#include "analysis/sass_counts.hpp"

namespace warpscope::analysis::sass {

/// Per instruction of `sass`: the cycles it adds to one warp's time. `latency` has one entry per
/// instruction (used where the instruction has a write barrier); `extra_stall` (empty, or one
/// entry per instruction) adds cycles the control word does not show to an instruction's stall
/// (the time model's reconvergence cost of BSYNC, docs/time.md "Branches").
std::vector<double> issue_costs(const Function& sass, std::span<const double> latency, double read_latency,
                                std::span<const double> extra_stall = {});

/// Sum over the instructions of `counts.instructions[i].warp * costs[i]`.
double warp_cycles(std::span<const double> costs, const LaunchSassCounts& counts);

}  // namespace warpscope::analysis::sass
