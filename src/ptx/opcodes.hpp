// Opcode decoding: a dotted PTX opcode (`ld.global.nc.v4.f32`) -> Opcode and modifier fields of
// an Instruction. Which modifiers each opcode accepts is a table in opcodes.cpp.
#pragma once

#include <string_view>

#include "ptx/ir.hpp"

namespace warpscope::ptx {

/// Fills `inst.op` and the modifier fields from `text`. Throws Error(kUnsupported) naming the
/// opcode, the modifier and "origin:line:col" when the opcode or a modifier is unknown or not
/// accepted by that opcode.
void decode_opcode(std::string_view text, Instruction& inst, std::string_view origin, PtxPos pos);

}  // namespace warpscope::ptx
