// The arithmetic of the tensor-core instructions, as the H100 does it. The PTX ISA leaves the
// accumulation order and rounding of .f16/.bf16/.tf32 products unspecified ("9.7.14.5.14 mma",
// "Precision and rounding"); these rules reproduce every element of the H100's results on the
// probe's test inputs (tests/hw/data/h100/tensor/mma_numerics.txt, README there):
//  - fused_dot (HMMA: .f16/.bf16/.tf32 of mma m16n8k*, wmma): C and the products of one group
//    are aligned to the largest exponent e (a product's exponent being the sum of its factors'),
//    each truncated toward zero to a multiple of 2^(e-25), summed exactly, and the sum rounded
//    toward zero to .f32 or to nearest even to .f16 (overflow: infinity). .tf32 operands lose
//    their low 13 bits.
//  - fp8_dot (mma.sync .e4m3/.e5m2, which sm_90 has no tensor-core instruction for: ptxas
//    converts the elements to .f16 and runs two HMMA): the products of k % 4 = 0, 1 are one
//    fused_dot group with C = +0 (.f32 or .f16 accumulator as D), those of k % 4 = 2, 3 a second
//    group accumulating it, and C is added last, rounded to nearest (FADD, or HADD2 for .f16).
//  - chain_884_f32 (mma.m8n8k4 .f16 with .f32 D): p0 + p1 + p2 + p3, each step rounded to
//    nearest f32, then + C rounded; exact_f16 (.f16 D): the exact sum rounded to nearest f16.
//  - fma_chain_f64: C + p0 + p1 + ..., one fused multiply-add per product in the given rounding.
//  - Integers: exact, wrapping or saturating (.satfinite); .b1: popcount of xor/and.
// NaN in, 0 x inf or inf - inf: the canonical NaN; an infinite input otherwise gives itself.
// Except .f64: an invalid operation gives 0xfff8000000000000; a NaN operand passes on (quieted),
// at each step B's element before the accumulator before A's element.
#pragma once

#include <cstdint>

#include "ptx/ir.hpp"

namespace warpscope::exec::mma_math {

/// Element bits as stored in a register (the low `mma_type_bits` bits of each value).
/// d = sum over kk of a[kk] * b[kk] + c, for one output element; `group` products are fused
/// at a time (the rest of the sum carries over as the next group's C).
std::uint32_t fused_dot(ptx::MmaType ab, const std::uint32_t* a, const std::uint32_t* b, unsigned k, unsigned group,
                        ptx::MmaType tc, std::uint32_t c, ptx::MmaType td);

/// mma.sync .e4m3/.e5m2 (a of type ta, b of tb, k = 16 or 32): the sm_90 emulation: two
/// fused_dot HMMA groups of .f16-converted elements (k % 4 = 0, 1, then 2, 3; the first with
/// C = +0, the second accumulating it) in td, then + c rounded to nearest (FADD/HADD2).
std::uint32_t fp8_dot(ptx::MmaType ta, ptx::MmaType tb, const std::uint32_t* a, const std::uint32_t* b, unsigned k,
                      std::uint32_t c, ptx::MmaType td);

/// mma.m8n8k4 .f16: four products, f16 a and b bits.
std::uint32_t chain_884(const std::uint32_t* a, const std::uint32_t* b, ptx::MmaType tc, std::uint32_t c,
                        ptx::MmaType td);

/// .f64: rounding as PTX writes it (kNone = .rn).
std::uint64_t fma_chain_f64(const std::uint64_t* a, const std::uint64_t* b, unsigned k, std::uint64_t c,
                            ptx::Rounding rnd);

/// Integer and .b1 products: a and b as raw element bits; c and the result as s32 bits.
/// bitop: 1 xor, 2 and (for .b1).
std::uint32_t int_dot(ptx::MmaType ta, ptx::MmaType tb, const std::uint32_t* a, const std::uint32_t* b, unsigned k,
                      std::uint32_t c, bool satfinite, unsigned bitop);

}  // namespace warpscope::exec::mma_math
