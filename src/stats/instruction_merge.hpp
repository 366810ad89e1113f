// Combining one instruction's statistics from two parts of a launch (collector.cpp merges the
// parts of consecutive CTAs in CTA order).
#pragma once

#include <cstdint>

#include "stats/collector.hpp"

namespace warpscope::stats {

/// Adds `from` (a later part of the launch, whose first_seen counts from `seq_base`) to `into`,
/// with the result that one pass over both parts' records in order would have had.
void merge_row(InstructionStats& into, InstructionStats&& from, std::uint64_t seq_base);

}  // namespace warpscope::stats
