#include "ptx/lexer.hpp"

#include <bit>
#include <cerrno>
#include <cstdlib>
#include <string>

#include "common/error.hpp"

namespace warpscope::ptx {

std::string_view to_string(TokenKind k) {
  switch (k) {
    case TokenKind::kEnd: return "end of input";
    case TokenKind::kDirective: return "directive";
    case TokenKind::kIdent: return "identifier";
    case TokenKind::kInt: return "integer";
    case TokenKind::kF32: return "f32 literal";
    case TokenKind::kF64: return "f64 literal";
    case TokenKind::kString: return "string";
    case TokenKind::kComma: return "','";
    case TokenKind::kSemicolon: return "';'";
    case TokenKind::kColon: return "':'";
    case TokenKind::kLParen: return "'('";
    case TokenKind::kRParen: return "')'";
    case TokenKind::kLBracket: return "'['";
    case TokenKind::kRBracket: return "']'";
    case TokenKind::kLBrace: return "'{'";
    case TokenKind::kRBrace: return "'}'";
    case TokenKind::kLess: return "'<'";
    case TokenKind::kGreater: return "'>'";
    case TokenKind::kPlus: return "'+'";
    case TokenKind::kMinus: return "'-'";
    case TokenKind::kBang: return "'!'";
    case TokenKind::kAt: return "'@'";
    case TokenKind::kPipe: return "'|'";
    case TokenKind::kEquals: return "'='";
    case TokenKind::kStar: return "'*'";
  }
  return "?";
}

namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_hex(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
bool is_name_char(char c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '$'; }
unsigned hex_value(char c) {
  if (is_digit(c)) return static_cast<unsigned>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<unsigned>(c - 'a' + 10);
  return static_cast<unsigned>(c - 'A' + 10);
}

class Lexer {
 public:
  Lexer(std::string_view text, std::string_view origin) : s_(text), origin_(origin) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      skip_space_and_comments();
      Token t;
      t.pos = PtxPos{line_, col()};
      if (i_ >= s_.size()) {
        out.push_back(std::move(t));
        return out;
      }
      std::size_t start = i_;
      char c = s_[i_];
      if (c == '.' && i_ + 1 < s_.size() && (is_alpha(s_[i_ + 1]) || s_[i_ + 1] == '_')) {
        ++i_;
        scan_name_tail(false);
        t.kind = TokenKind::kDirective;
      } else if (is_alpha(c) || c == '_' || c == '$' || c == '%') {
        ++i_;
        scan_name_tail(true);
        t.kind = TokenKind::kIdent;
      } else if (is_digit(c)) {
        scan_number(t);
      } else if (c == '"') {
        scan_string(t);
      } else {
        t.kind = punct(c);
        if (t.kind == TokenKind::kEnd) error(t.pos, describe_char(c));
        ++i_;
      }
      t.text = s_.substr(start, i_ - start);
      out.push_back(std::move(t));
    }
  }

 private:
  std::uint32_t col() const { return static_cast<std::uint32_t>(i_ - line_start_ + 1); }

  [[noreturn]] void error(PtxPos p, const std::string& what) const {
    fail(ErrorKind::kParse, "{}:{}:{}: {}", origin_, p.line, p.column, what);
  }

  static std::string describe_char(char c) {
    auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) return fmt::format("unexpected character '{}'", c);
    return fmt::format("unexpected byte 0x{:02x}", u);
  }

  static TokenKind punct(char c) {
    switch (c) {
      case ',': return TokenKind::kComma;
      case ';': return TokenKind::kSemicolon;
      case ':': return TokenKind::kColon;
      case '(': return TokenKind::kLParen;
      case ')': return TokenKind::kRParen;
      case '[': return TokenKind::kLBracket;
      case ']': return TokenKind::kRBracket;
      case '{': return TokenKind::kLBrace;
      case '}': return TokenKind::kRBrace;
      case '<': return TokenKind::kLess;
      case '>': return TokenKind::kGreater;
      case '+': return TokenKind::kPlus;
      case '-': return TokenKind::kMinus;
      case '!': return TokenKind::kBang;
      case '@': return TokenKind::kAt;
      case '|': return TokenKind::kPipe;
      case '=': return TokenKind::kEquals;
      case '*': return TokenKind::kStar;
      default: return TokenKind::kEnd;
    }
  }

  void newline() {
    ++line_;
    line_start_ = i_ + 1;
  }

  void skip_space_and_comments() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        newline();
        ++i_;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
        ++i_;
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
        PtxPos start{line_, col()};
        i_ += 2;
        for (;;) {
          if (i_ + 1 >= s_.size()) error(start, "unterminated /* comment");
          if (s_[i_] == '*' && s_[i_ + 1] == '/') {
            i_ += 2;
            break;
          }
          if (s_[i_] == '\n') newline();
          ++i_;
        }
      } else {
        return;
      }
    }
  }

  // Continues a name after its first character: name characters, and `.` or `::` followed by a
  // name character (only `::` for directives' first part is the same rule).
  void scan_name_tail(bool dots) {
    for (;;) {
      while (i_ < s_.size() && is_name_char(s_[i_])) ++i_;
      if (dots && i_ + 1 < s_.size() && s_[i_] == '.' && is_name_char(s_[i_ + 1])) {
        ++i_;
        continue;
      }
      if (i_ + 2 < s_.size() && s_[i_] == ':' && s_[i_ + 1] == ':' && is_name_char(s_[i_ + 2])) {
        i_ += 2;
        continue;
      }
      return;
    }
  }

  void scan_number(Token& t) {
    PtxPos p = t.pos;
    auto rest = [&](std::size_t k) { return i_ + k < s_.size() ? s_[i_ + k] : '\0'; };
    char c1 = rest(1);
    if (s_[i_] == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
      unsigned digits = (c1 == 'f' || c1 == 'F') ? 8 : 16;
      i_ += 2;
      std::uint64_t v = 0;
      unsigned n = 0;
      while (i_ < s_.size() && is_hex(s_[i_])) {
        if (n == digits) error(p, "too many hex digits in float literal");
        v = (v << 4) | hex_value(s_[i_]);
        ++n;
        ++i_;
      }
      if (n != digits) error(p, fmt::format("float literal needs exactly {} hex digits", digits));
      if (i_ < s_.size() && is_name_char(s_[i_])) error(p, "malformed float literal");
      t.kind = digits == 8 ? TokenKind::kF32 : TokenKind::kF64;
      t.u = v;
      return;
    }
    if (s_[i_] == '0' && (c1 == 'x' || c1 == 'X')) {
      i_ += 2;
      scan_radix(t, 16, p);
    } else if (s_[i_] == '0' && (c1 == 'b' || c1 == 'B')) {
      i_ += 2;
      scan_radix(t, 2, p);
    } else {
      // decimal integer, octal integer or decimal float
      std::size_t start = i_;
      while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
      bool is_float = false;
      if (i_ < s_.size() && s_[i_] == '.' && i_ + 1 < s_.size() && is_digit(s_[i_ + 1])) {
        is_float = true;
        ++i_;
        while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
      }
      if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
        std::size_t k = i_ + 1;
        if (k < s_.size() && (s_[k] == '+' || s_[k] == '-')) ++k;
        if (k < s_.size() && is_digit(s_[k])) {
          is_float = true;
          i_ = k;
          while (i_ < s_.size() && is_digit(s_[i_])) ++i_;
        }
      }
      if (is_float) {
        std::string text(s_.substr(start, i_ - start));
        errno = 0;
        double d = std::strtod(text.c_str(), nullptr);
        if (errno == ERANGE && (d > 1.0 || d < -1.0)) error(p, "float literal out of range");
        t.kind = TokenKind::kF64;
        t.u = std::bit_cast<std::uint64_t>(d);
        if (i_ < s_.size() && is_name_char(s_[i_])) error(p, "malformed number");
        return;
      }
      i_ = start;
      if (s_[i_] == '0' && i_ + 1 < s_.size() && is_digit(s_[i_ + 1])) {
        ++i_;
        scan_radix(t, 8, p);
      } else {
        scan_radix(t, 10, p);
      }
    }
  }

  void scan_radix(Token& t, unsigned radix, PtxPos p) {
    std::uint64_t v = 0;
    unsigned n = 0;
    while (i_ < s_.size()) {
      char c = s_[i_];
      unsigned d;
      if (is_digit(c)) {
        d = static_cast<unsigned>(c - '0');
      } else if (radix == 16 && is_hex(c)) {
        d = hex_value(c);
      } else {
        break;
      }
      if (d >= radix) error(p, fmt::format("digit '{}' out of range for base {}", c, radix));
      if (v > (~std::uint64_t{0} - d) / radix) error(p, "integer literal does not fit in 64 bits");
      v = v * radix + d;
      ++n;
      ++i_;
    }
    if (n == 0) error(p, "malformed integer literal");
    if (i_ < s_.size() && (s_[i_] == 'U' || s_[i_] == 'u')) ++i_;
    if (i_ < s_.size() && is_name_char(s_[i_])) error(p, "malformed number");
    t.kind = TokenKind::kInt;
    t.u = v;
  }

  void scan_string(Token& t) {
    PtxPos p = t.pos;
    ++i_;
    std::string out;
    for (;;) {
      if (i_ >= s_.size() || s_[i_] == '\n') error(p, "unterminated string");
      char c = s_[i_++];
      if (c == '"') break;
      if (c == '\\') {
        if (i_ >= s_.size()) error(p, "unterminated string");
        char e = s_[i_++];
        switch (e) {
          case 'n': out.push_back('\n'); break;
          case 't': out.push_back('\t'); break;
          case 'r': out.push_back('\r'); break;
          case '0': out.push_back('\0'); break;
          case '\n':
            ++line_;
            line_start_ = i_;
            break;
          default: out.push_back(e); break;
        }
        continue;
      }
      out.push_back(c);
    }
    t.kind = TokenKind::kString;
    t.text_value = std::move(out);
  }

  std::string_view s_;
  std::string_view origin_;
  std::size_t i_ = 0;
  std::size_t line_start_ = 0;
  std::uint32_t line_ = 1;
};

}  // namespace

std::vector<Token> lex(std::string_view text, std::string_view origin) {
  return Lexer(text, origin).run();
}

}  // namespace warpscope::ptx
