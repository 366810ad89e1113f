// synchronous_copy advice (issue 18): a global load whose registers feed nothing but one shared
// store — a tile staged through registers. On cc 8.0 and later cp.async copies global to shared
// memory without the registers and, with two buffers, lets the next tile's copy overlap the
// computation on this one.
//
// Found in the PTX text of Module::instructions: `ld.global[.nc]... D, [a]` and a later
// `st.shared... [b], D` of the same function whose value operand is exactly D (one register or a
// vector {..} of them, in the same order), where every register of D appears in no other
// instruction of the function (nvcc's PTX gives each value its own register, so the load's value
// has no other use). Both instructions must have run in the launch, and the load must lie in a
// tile loop: a loop (backward branch) whose body holds a barrier (issue 35: a tile loaded once,
// as a transpose's, has no computation for the copy to overlap; cp.async gains it nothing).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "arch/profile.hpp"
#include "stats/collector.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::analysis {

/// The synchronous_copy items of a launch, each with its weight (the load's warp executions:
/// cp.async saves that many register round trips), in pc order. None before cc 8.0.
std::vector<std::pair<std::uint64_t, nlohmann::json>> staging_copy_advice(const stats::ModelResult& model,
                                                                          const std::vector<InstructionInfo>& code);

/// Whether the kernel only moves data: no atomic or reduction ran, at least one global store ran,
/// and every store that ran (any space) stores registers some `ld` of its function wrote, unchanged
/// (a copy, a transpose through shared memory). Its math-to-memory ratio says nothing: there is no
/// math to add, so the low_math_ratio advice does not apply.
bool moves_data_only(const stats::ModelResult& model, const std::vector<InstructionInfo>& code);

}  // namespace warpscope::analysis
