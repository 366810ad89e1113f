// IR verifier: checks what the interpreter relies on (ir.hpp's contract): every register, symbol
// and label exists; operand counts and kinds fit the opcode; vector widths match; predicates are
// predicates; call argument lists match the callee.
#pragma once

#include "ptx/ir.hpp"

namespace warpscope::ptx {

/// Throws Error(kParse) "origin:line:col: ..." naming the instruction for the first violation.
void verify(const Module& module);

}  // namespace warpscope::ptx
