// Which local-memory instructions of a kernel index their array with a value the compiler could
// not resolve. ptxas keeps a private array in registers only when every index is a constant
// (seed 000); in the PTX, such an access addresses the frame as the depot base plus a constant
// (`[%rd1+8]` with `add.u64 %rd1, %SPL, 0`), while a run-time index shows up as an address
// computed from other values (`mul.wide.s32`, `add.s64 %rd7, %rd1, %rd6`).
//
// The rule, per function, on the PTX text of Module::instructions(): an address register is
// constant-offset when every instruction that writes it is `mov` of the depot, %SP or %SPL or of
// a constant-offset register, `add`/`sub` of such a register and an immediate, or `cvta` of one.
// Anything else (another operation, an add of two registers, no definition found) makes it
// dynamic. Loops in the definitions are cut (treated as dynamic).
#pragma once

#include <vector>

#include "warpscope/warpscope.hpp"

namespace warpscope::analysis {

/// For every pc of `code`: true when the instruction is a local load/store (ld.local, st.local)
/// whose address is not the frame base plus a constant.
std::vector<bool> dynamic_local_index(const std::vector<InstructionInfo>& code);

}  // namespace warpscope::analysis
