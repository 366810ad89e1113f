// PTX lexer: text -> tokens. Knows nothing about PTX's grammar beyond the shape of its tokens.
//
// Token shapes:
// - kDirective: `.version`, `.f32`, `.shared::cta`, `.L2::256B` (a dot, a letter or `_`, then
//   letters, digits, `_`, `$` and `::` groups).
// - kIdent: names, registers and dotted opcodes: `ld.global.nc.v4.f32`, `%tid.x`, `$L__BB0_2`,
//   `__local_depot0`, `L2::cache_hint` inside an opcode (`.` and `::` continue a name).
// - kInt: decimal, 0x hex, 0b binary, octal (leading 0), optional `U` suffix; value in `u`.
// - kF32 / kF64: `0f` + 8 hex digits / `0d` + 16 hex digits (bits in `u`); kF64 also for decimal
//   float literals (`1.5`, `2e10`), whose double's bits are stored in `u`.
// - kString: "..." with C escapes; the decoded text in `text_value`.
// - punctuation: one character each.
// Comments (`//`, `/* */`) and whitespace are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/ir.hpp"

namespace warpscope::ptx {

enum class TokenKind : std::uint8_t {
  kEnd,
  kDirective,
  kIdent,
  kInt,
  kF32,
  kF64,
  kString,
  kComma, kSemicolon, kColon,
  kLParen, kRParen, kLBracket, kRBracket, kLBrace, kRBrace,
  kLess, kGreater, kPlus, kMinus, kBang, kAt, kPipe, kEquals, kStar,
};
std::string_view to_string(TokenKind k);

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;   // the characters as written (a view into the lexed text)
  std::uint64_t u = 0;     // kInt value / kF32, kF64 bits
  std::string text_value;  // kString: the decoded string
  PtxPos pos;
};

/// Splits `text` into tokens, ending with one kEnd token. Throws Error(kParse) naming
/// "origin:line:col" for characters that start no token, unterminated strings or comments and
/// out-of-range numbers. The tokens view into `text`, which must outlive them.
std::vector<Token> lex(std::string_view text, std::string_view origin);

}  // namespace warpscope::ptx
