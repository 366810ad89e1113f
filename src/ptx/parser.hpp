// PTX parser: tokens -> syntax tree (syntax.hpp). Checks the grammar only; names, opcodes and
// operand shapes are checked by the builder and verifier.
#pragma once

#include <string_view>

#include "ptx/syntax.hpp"

namespace warpscope::ptx {

/// Parses a whole module. Throws Error(kParse) "origin:line:col: ..." on the first syntax error.
/// Nesting (`{ }` scopes, initializer braces) is bounded, so hostile input cannot exhaust the
/// stack.
syntax::Module parse(std::string_view text, std::string_view origin);

}  // namespace warpscope::ptx
