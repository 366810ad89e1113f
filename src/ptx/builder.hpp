// IR builder: syntax tree (syntax.hpp) -> IR (ir.hpp). Resolves names (registers through nested
// scopes, variables, params, functions, labels, special registers), decodes opcodes
// (opcodes.hpp), lays out parameters, turns initializers into bytes and relocations, and attaches
// source locations (`.loc` resolved through `.file`, inlined_at chains).
#pragma once

#include <string_view>

#include "ptx/ir.hpp"
#include "ptx/syntax.hpp"

namespace warpscope::ptx {

/// Builds the IR. Throws Error(kParse) "origin:line:col: ..." for undefined or duplicate names
/// and bad declarations, Error(kUnsupported) for unknown opcodes or modifiers. The result still
/// needs verify() (verifier.hpp) before an interpreter may rely on it.
Module build_module(const syntax::Module& syn, std::string_view origin);

}  // namespace warpscope::ptx
