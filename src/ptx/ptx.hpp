// The PTX front end's entry point: text in, verified IR (ir.hpp) out.
#pragma once

#include <string>
#include <string_view>

#include "ptx/ir.hpp"

namespace warpscope::ptx {

/// Lexes, parses, builds and verifies one PTX module. `origin` names the text in diagnostics
/// (a file name, or e.g. "app.fatbin:ptx#0").
///
/// Throws warpscope::Error:
/// - kParse for malformed text (message "origin:line:col: ..."), undefined registers, symbols or
///   labels, and operand lists that do not fit the opcode;
/// - kUnsupported for an opcode, or an opcode+modifier combination, the front end does not know
///   (message names the opcode and the line).
/// Never crashes or recurses without bound on hostile input.
Module load_module(std::string_view text, std::string_view origin);

/// Renders one instruction back to PTX-like text (`@%p1 ld.global.f32 %f2, [%rd6];`), with
/// register and symbol names taken from `fn` and `module`. For diagnostics and tests.
std::string format_instruction(const Module& module, const Function& fn, const Instruction& inst);

}  // namespace warpscope::ptx
