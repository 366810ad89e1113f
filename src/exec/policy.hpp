// The 64-bit L2 cache policies createpolicy makes, bit for bit as the H200 makes them (measured:
// tests/hw/data/h200/ptxops/ptxops.txt; the formulas are those of ptxas's machine code for register
// operands, docs/exec.md "Cache policies and hints").
#pragma once

#include <cstdint>

namespace warpscope::exec {

/// createpolicy.fractional: `primary` is the priority's code (0 evict_unchanged, 1 evict_first,
/// 2 evict_last, 3 evict_normal), `secondary_first` a secondary .L2::evict_first; fraction in [0, 1].
std::uint64_t fractional_policy(unsigned primary, bool secondary_first, float fraction);

/// createpolicy.range{.global} [a], primary-size, total-size.
std::uint64_t range_policy(unsigned primary, bool secondary_first, std::uint64_t a, std::uint32_t primary_size,
                           std::uint32_t total_size);

}  // namespace warpscope::exec
