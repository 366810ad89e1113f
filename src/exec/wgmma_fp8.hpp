// The arithmetic of wgmma.mma_async with .e4m3/.e5m2 operands (SASS QGMMA), as the H100 does it.
// The PTX ISA leaves the accumulation order and rounding unspecified; this rule reproduces every
// element of the H100's results on the probe's tests (configurations 82-87 of
// tests/hw/wgmma/wgmma_probe.cu, tests/hw/data/h100/wgmma/wgmma_fp8.txt.gz, README there):
//
//  1. C and the K products (a product's exponent is the sum of its factors', so it is exact) are
//     aligned to the largest exponent e among them: each is truncated toward zero (its
//     magnitude) to a multiple of 2^(e-13), and the truncated terms are summed exactly.
//  2. .f32 D: the sum is truncated toward zero to 14 significant bits (13 fraction bits), then
//     written as f32 (exact). .f16 D: the sum is rounded to nearest even f16 (overflow: infinity),
//     without the 14-bit step.
//
// That is fused_dot's rule (mma_numerics.hpp) with the grid at 2^(e-13) instead of 2^(e-25),
// over the whole K = 32 of the instruction, plus the 13-fraction-bit f32 result. NaN inputs,
// 0 x inf and inf - inf give the canonical NaN; an infinite input otherwise gives itself. e4m3
// has no infinity (S.1111.111 is NaN).
#pragma once

#include <cstdint>

#include "ptx/ir.hpp"

namespace warpscope::exec::mma_math {

/// d = sum over kk of a[kk] * b[kk] + c, one output element. a and b are raw .e4m3/.e5m2 element
/// bits (ta, tb), c and the result raw bits of td (.f32 or .f16), k at most 32.
std::uint32_t qgmma_dot(ptx::MmaType ta, ptx::MmaType tb, const std::uint32_t* a, const std::uint32_t* b, unsigned k,
                        std::uint32_t c, ptx::MmaType td);

}  // namespace warpscope::exec::mma_math
