// Opcode decoding: a dotted PTX opcode (`ld.global.nc.v4.f32`) -> Opcode and modifier fields of
// an Instruction. Which modifiers each opcode accepts is a table in opcodes.cpp.
#pragma once

#include <string_view>
#include <vector>

#include "ptx/ir.hpp"

namespace warpscope::ptx {

/// Fills `inst.op` and the modifier fields from `text`. Throws Error(kUnsupported) naming the
/// opcode, the modifier and "origin:line:col" when the opcode or a modifier is unknown or not
/// accepted by that opcode.
void decode_opcode(std::string_view text, Instruction& inst, std::string_view origin, PtxPos pos);

/// Every opcode head the decoder's table knows ("ld", "bar.sync", "cp.async.bulk", ...), in table
/// order (docs/ptx_coverage.tsv must have a line for each; tests/ptx/coverage_test.cpp).
std::vector<std::string_view> opcode_heads();

}  // namespace warpscope::ptx
