// Advice: what to change in a kernel, each item with the evidence the statistics give for it.
//
// Rules (seeds 000-003; CUDA C Best Practices Guide, "Coalesced Access to Global Memory",
// "Shared Memory and Memory Banks", "Local Memory"), applied per memory instruction:
//  - Global access that moves more than it uses (excessive sectors, or under 50 % of the bytes
//    moved used), by the first cause that fits most of its executions:
//      same_word   every active lane on one word;
//      divergence  on average under 3/4 of the lanes active while at least a quarter of the
//                  executions are partial: a branch split the warp's access;
//      misaligned  consecutive words whose run starts k bytes past a transaction boundary: the
//                  same k in every warp reads as a sub-allocation offset, varying k as unpadded
//                  2-D rows ("pad rows to a multiple of 128 bytes or use cudaMallocPitch");
//      aos         a constant stride s of at most 128 bytes that is a multiple of the word: a
//                  field of s-byte structures; for 8-16 byte structures whose fields together
//                  move more sectors than one aligned vector would, "__align__(8/16) and one
//                  vector load", else "consider a structure of arrays" (advice_aos.hpp);
//      stride      any other constant stride;
//      uncoalesced scattered addresses.
//    Global atomics on few addresses, each hit several times per block, get
//    global_atomic_contention instead (privatise in shared memory; advice_atomic.hpp); an atomic
//    whose lanes all update one word gets same_word with "combine the warp's values first".
//  - bank_conflict: a shared access with more wavefronts than ideal, with its stride in words
//    ("pad the row by one word"); a shared atomic whose addresses the data picks gets
//    shared_atomic_conflict instead (warp aggregation or per-warp copies; advice_atomic.hpp).
//  - local_memory: local traffic, saying whether the index was uniform across the warp (coalesced)
//    or per-thread.
//  - cp_async_width: cp.async of 4 or 8 bytes where groups of lanes copy consecutive 16 bytes.
//  - synchronous_copy (cc 8.0+): a global load in a tile loop whose registers only feed one shared
//    store, a tile staged through registers that cp.async would copy and overlap (advice_copy.hpp).
//  - shared_loads_per_fma (per kernel): shared-load wavefronts per FMA of at least 0.5 where FMAs
//    are a tenth of the instructions: register tiling (advice_fma.hpp).
//  - low_math_ratio (per kernel): under 4 other instructions per global or local memory
//    instruction (the seeds' 4:1 to 8:1 guidance to hide memory latency); not for a kernel that
//    only moves data (advice_copy.hpp, moves_data_only).
//  - no_lineinfo (per kernel): no instruction has a source line: rebuild with nvcc -lineinfo.
// The per-instruction items of one source line and rule are one item listing its instructions
// (`pcs`, evidence.instructions; additive evidence summed). Kernel-wide items come first
// (no_lineinfo, shared_loads_per_fma, low_math_ratio), then the others ordered by the sectors
// (or wavefronts, or atomic operations) they would save, largest first.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "stats/collector.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::analysis {

/// The advice array of a launch (docs/report.md "Advice"). `lines` is stats::lines_json's output
/// (for the source text); `code` is Module::instructions(kernel).
/// `ctas`: the CTAs the statistics saw (the global_atomic_contention rule's blocks; 0: unknown).
nlohmann::json advise(const stats::ModelResult& model, const LaunchStats& exec,
                      const std::vector<InstructionInfo>& code, const nlohmann::json& lines, std::uint64_t ctas = 0);

/// Math to memory per kernel and per loop (seed 000: keep 4:1 to 8:1 to hide local-memory
/// latency): {"kernel": {...}, "loops": [...]}. A loop is a backward branch (InstructionInfo::
/// branch_target <= its pc) and the instructions from its target to the branch; for each, warp
/// instructions executed, global and local memory instructions among them, and their ratio
/// (other instructions per memory instruction; null without memory instructions).
nlohmann::json math_to_memory(const stats::ModelResult& model, const LaunchStats& exec,
                              const std::vector<InstructionInfo>& code);

}  // namespace warpscope::analysis
