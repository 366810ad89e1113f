// Advice for atomics (issue 35): the textbook fixes of the two histogram patterns.
//
//  - global_atomic_contention: a launch's global atomics and reductions land on few addresses
//    (stats::AtomicContention::addresses, at most kMaxPrivateAddresses) and each block hits each
//    of them several times (lane operations / (addresses x CTAs) >= kMinOpsPerAddressPerCta).
//    The L2 performs the operations on one address one after another (docs/mem.md "Atomic
//    contention"); privatising the values in shared memory per block (shared atomics, then one
//    global atomic per address and block) leaves at most addresses x CTAs global operations.
//    A block that already merges a private copy (one operation per address and block) does not
//    trigger it.
//  - shared_atomic_conflict: a shared atomic or reduction with bank conflicts whose addresses do
//    not follow a constant stride (the data picks them, as a histogram's bins): no padding moves
//    bins the data chooses apart. Its worst warp access (the sample) says which fix leads: lanes
//    on the same word -> aggregate per warp first (__match_any_sync on the bin, one lane adds the
//    count); else per-warp copies of the bins. It replaces bank_conflict for that instruction.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "arch/profile.hpp"
#include "stats/collector.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::analysis {

inline constexpr std::uint64_t kMaxPrivateAddresses = 4096;  // 16 KB of 4-byte counters per block
inline constexpr std::uint64_t kMinOpsPerAddressPerCta = 4;

/// The global_atomic_contention items (one per global atomic or reduction instruction that ran),
/// each with its weight (the lane operations privatisation saves, in proportion to the
/// instruction's share), in pc order; `covered` receives their pcs (no coalescing item for them).
/// `ctas`: the CTAs the statistics saw (0: unknown, taken as 1).
std::vector<std::pair<std::uint64_t, nlohmann::json>> global_atomic_advice(const stats::ModelResult& model,
                                                                           const std::vector<InstructionInfo>& code,
                                                                           std::uint64_t ctas,
                                                                           std::vector<std::uint32_t>& covered);

/// The shared_atomic_conflict item of one shared atomic or reduction, or nothing when it has no
/// excess wavefronts or its addresses follow one constant stride (bank_conflict's padding then
/// applies).
std::optional<nlohmann::json> shared_atomic_advice(const stats::InstructionStats& s, std::uint32_t pc,
                                                   const InstructionInfo* info, const arch::Profile& profile);

}  // namespace warpscope::analysis
