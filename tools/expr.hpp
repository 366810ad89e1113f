// Integer expressions over the lane number, as `warpscope pattern --index` takes them:
//   lane+1   lane*32   (lane*7+3)%32   0   lane/2*4   lane^1   (lane<16 ? ...) is not supported
// Grammar (C precedence and associativity, 64-bit signed arithmetic):
//   expr   := or
//   or     := xor ('|' xor)*      xor := and ('^' and)*      and := shift ('&' shift)*
//   shift  := sum (('<<'|'>>') sum)*
//   sum    := term (('+'|'-') term)*
//   term   := unary (('*'|'/'|'%') unary)*
//   unary  := ('-'|'+'|'~') unary | primary
//   primary:= NUMBER (decimal or 0x hex) | 'lane' | '(' expr ')'
// Errors are warpscope::Error(kParse) that give the 1-based column of the problem and show it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace warpscope::cli {

class IndexExpr {
 public:
  /// Parses `text`; throws Error(kParse) naming the column on a syntax error.
  static IndexExpr parse(std::string_view text);
  /// Value for one lane; throws Error(kUsage) on division by zero or an out-of-range shift.
  std::int64_t eval(std::int64_t lane) const;
  const std::string& text() const { return text_; }

  struct Node;

 private:
  std::string text_;
  std::shared_ptr<const Node> root_;
};

}  // namespace warpscope::cli
