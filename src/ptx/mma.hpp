// The warp-level matrix instructions of the PTX ISA 9.0 ("9.7.14 Warp Level Matrix
// Multiply-Accumulate Instructions") as the front end sees them: their qualifiers
// (apply_mma_qualifier, used by the opcode decoder) and, once decoded, the forms sm_90 accepts
// with the number of registers each operand vector holds (mma_form, used by the verifier and by
// the interpreter, src/exec/ops_mma.cpp).
//
// Contract: mma_form() accepts exactly the shape/type/layout combinations the ISA lists for
// sm_90 (wmma.load/store/mma, mma.sync, ldmatrix/stmatrix .m8n8 .b16, movmatrix); anything
// else throws Error(kUnsupported) naming the qualifier that is not accepted. It does not look at
// the operands.
#pragma once

#include <cstdint>
#include <string_view>

#include "ptx/ir.hpp"

namespace warpscope::ptx {

/// Applies one dotted qualifier of a matrix instruction (`m16n8k16`, `row`, `a`, `x4`, `trans`,
/// `xor`, `popc`, an element type ...). Returns false when `word` is none of these (the decoder
/// then tries the other categories: .sync, .aligned, spaces, rounding, .satfinite).
bool apply_mma_qualifier(std::string_view word, Instruction& inst);

/// Bits of one element (0 for kNone).
std::uint32_t mma_type_bits(MmaType t);

/// What a matrix instruction does, decoded from its qualifiers.
struct MmaForm {
  std::uint16_t m = 0, n = 0, k = 0;
  MmaType a = MmaType::kNone, b = MmaType::kNone, c = MmaType::kNone, d = MmaType::kNone;
  /// Registers in each operand vector, in operand order (wmma.load: {dst}; wmma.store: {src};
  /// wmma.mma/mma: d, a, b, c; ldmatrix: {dst}; stmatrix: {src}; movmatrix: d, a = 1 each).
  std::uint8_t regs[4] = {0, 0, 0, 0};
  bool wide = false;  // .f64 fragments: 64-bit registers
  /// wgmma.mma_async: the immediates after scale-d with A from a descriptor (imm-scale-a/b,
  /// imm-trans-a/b: 4 for .f16/.bf16, 2 for .tf32 and the 8-bit floats, 0 for integers); with
  /// A from registers one fewer for .f16/.bf16 (no imm-trans-a).
  std::uint8_t imms = 0;
};

/// Throws Error(kUnsupported) (with `origin:line:col`) for a combination sm_90 does not have.
MmaForm mma_form(const Instruction& inst, std::string_view origin);

/// wgmma.mma_async (PTX ISA 9.0, 9.7.15.5.2): the shapes and types sm_90a has; regs = {D's
/// registers, 4 (A from registers; a descriptor is one 64-bit register), 1, 0}. Throws like
/// mma_form. (src/ptx/wgmma.cpp)
MmaForm wgmma_form(const Instruction& inst, std::string_view origin);

}  // namespace warpscope::ptx
