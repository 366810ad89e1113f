// Checks of the modifier combinations of some opcodes, apart from the decoder's table
// (opcodes.cpp): each calls `refuse(modifier, why)`, which throws kUnsupported, for a form the
// PTX ISA 9.0 does not give on sm_90.
#pragma once

#include <functional>
#include <string_view>

#include "ptx/ir.hpp"

namespace warpscope::ptx {

using Refuse = std::function<void(std::string_view modifier, std::string_view why)>;

/// createpolicy, applypriority and discard (their operands: the verifier).
void check_cache_hint(const Instruction& inst, const Refuse& refuse);
/// st.async and red.async: the .mbarrier::complete_tx::bytes forms into .shared::cluster.
void check_async_store(const Instruction& inst, const Refuse& refuse);

}  // namespace warpscope::ptx
