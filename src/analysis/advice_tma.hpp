// tma_swizzle advice (issue 18): shared-memory reads (ld.shared, ldmatrix) with bank conflicts
// whose bytes a tensor copy (cp.async.bulk.tensor) wrote without swizzle. The TMA lays box row r
// at r * pitch; with rows a multiple of 128 bytes apart, chunk c of every row falls in the same
// 16-byte bank group, so threads that read a chunk column (a transposed or ldmatrix/wgmma-style
// access) conflict up to 8 ways. The tensor map's swizzle moves chunk c of row r to c ^ (r % 8)
// (128-byte swizzle: tests/hw/data/h100/wgmma_tma, tma_banks: 2048 wavefronts and 1792
// conflicts without it, 256 and 0 with it). The reads must then address the swizzled layout.
//
// Found from the statistics: the conflicting instruction's sample (its worst warp access) has
// every active address inside the rows of one tensor load's first box (stats::TmaBox) whose
// tensor map has no swizzle. Such an instruction gets this item instead of bank_conflict.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/collector.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::analysis {

/// The tma_swizzle items of a launch, each with its weight (the excess wavefronts), in pc order;
/// `covered` receives their pcs (no bank_conflict item for them).
std::vector<std::pair<std::uint64_t, nlohmann::json>> tma_swizzle_advice(const stats::ModelResult& model,
                                                                         const std::vector<InstructionInfo>& code,
                                                                         std::vector<std::uint32_t>& covered);

}  // namespace warpscope::analysis
