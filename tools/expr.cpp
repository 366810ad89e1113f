#include "expr.hpp"

#include <cctype>
#include <limits>

#include "common/error.hpp"

namespace warpscope::cli {

struct IndexExpr::Node {
  enum class Kind { kNumber, kLane, kNeg, kNot, kBinary } kind = Kind::kNumber;
  char op = 0;  // for kBinary: + - * / % & | ^ and '<' for <<, '>' for >>
  std::int64_t value = 0;
  std::size_t column = 0;  // of the operator, for evaluation errors
  std::shared_ptr<const Node> lhs, rhs;
};

namespace {

using Node = IndexExpr::Node;
using NodePtr = std::shared_ptr<const Node>;

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  NodePtr parse() {
    NodePtr n = binary(0);
    skip_space();
    if (pos_ != text_.size()) error("unexpected '" + std::string(1, text_[pos_]) + "'");
    return n;
  }

 private:
  // Binary operators by precedence level, lowest first.
  static constexpr std::string_view kLevels[] = {"|", "^", "&", "<>", "+-", "*/%"};
  static constexpr std::size_t kLevelCount = std::size(kLevels);

  [[noreturn]] void error(const std::string& what) const {
    std::size_t col = pos_ + 1;
    fail(ErrorKind::kParse, "bad index expression at column {}: {}\n  {}\n  {}^", col, what, text_,
         std::string(pos_, ' '));
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }

  // Returns the operator at the cursor if it belongs to `level` (without consuming it).
  char peek_op(std::size_t level) {
    skip_space();
    if (pos_ >= text_.size()) return 0;
    char c = text_[pos_];
    if (level == 3) {
      if ((c == '<' || c == '>') && pos_ + 1 < text_.size() && text_[pos_ + 1] == c) return c;
      return 0;
    }
    return kLevels[level].find(c) != std::string_view::npos ? c : 0;
  }

  NodePtr binary(std::size_t level) {
    if (level == kLevelCount) return unary();
    NodePtr lhs = binary(level + 1);
    while (char op = peek_op(level)) {
      std::size_t col = pos_;
      pos_ += (op == '<' || op == '>') ? 2 : 1;
      NodePtr rhs = binary(level + 1);
      auto n = std::make_shared<Node>();
      n->kind = Node::Kind::kBinary;
      n->op = op;
      n->column = col + 1;
      n->lhs = std::move(lhs);
      n->rhs = std::move(rhs);
      lhs = std::move(n);
    }
    return lhs;
  }

  NodePtr unary() {
    skip_space();
    if (++depth_ > 200) error("expression nested too deeply");
    NodePtr result;
    if (pos_ < text_.size() && (text_[pos_] == '-' || text_[pos_] == '~' || text_[pos_] == '+')) {
      char c = text_[pos_++];
      NodePtr operand = unary();
      if (c == '+') {
        result = operand;
      } else {
        auto n = std::make_shared<Node>();
        n->kind = c == '-' ? Node::Kind::kNeg : Node::Kind::kNot;
        n->lhs = std::move(operand);
        result = std::move(n);
      }
    } else {
      result = primary();
    }
    --depth_;
    return result;
  }

  NodePtr primary() {
    skip_space();
    if (pos_ >= text_.size()) error("expected a number, 'lane' or '(' but the expression ended");
    char c = text_[pos_];
    if (c == '(') {
      ++pos_;
      NodePtr inner = binary(0);
      skip_space();
      if (pos_ >= text_.size() || text_[pos_] != ')') error("expected ')'");
      ++pos_;
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) return number();
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
        ++pos_;
      std::string_view word = text_.substr(start, pos_ - start);
      if (word != "lane") {
        pos_ = start;
        error("unknown name '" + std::string(word) + "' (only 'lane' is defined)");
      }
      auto n = std::make_shared<Node>();
      n->kind = Node::Kind::kLane;
      return n;
    }
    error("expected a number, 'lane' or '('");
  }

  NodePtr number() {
    std::size_t start = pos_;
    int base = 10;
    if (text_[pos_] == '0' && pos_ + 1 < text_.size() && (text_[pos_ + 1] == 'x' || text_[pos_ + 1] == 'X')) {
      base = 16;
      pos_ += 2;
    }
    std::uint64_t v = 0;
    std::size_t digits = 0;
    while (pos_ < text_.size()) {
      int d;
      char c = static_cast<char>(std::tolower(static_cast<unsigned char>(text_[pos_])));
      if (c >= '0' && c <= '9') d = c - '0';
      else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
      else break;
      if (v > (static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) - d) / base) {
        pos_ = start;
        error("number too large");
      }
      v = v * base + d;
      ++pos_;
      ++digits;
    }
    if (digits == 0) error("expected hexadecimal digits");
    if (pos_ < text_.size() && (std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
      error("unexpected '" + std::string(1, text_[pos_]) + "' after a number");
    auto n = std::make_shared<Node>();
    n->kind = Node::Kind::kNumber;
    n->value = static_cast<std::int64_t>(v);
    return n;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
  int depth_ = 0;
};

std::int64_t eval_node(const Node& n, std::int64_t lane, std::string_view text) {
  switch (n.kind) {
    case Node::Kind::kNumber: return n.value;
    case Node::Kind::kLane: return lane;
    case Node::Kind::kNeg: return static_cast<std::int64_t>(0ull - static_cast<std::uint64_t>(eval_node(*n.lhs, lane, text)));
    case Node::Kind::kNot: return ~eval_node(*n.lhs, lane, text);
    case Node::Kind::kBinary: break;
  }
  std::int64_t a = eval_node(*n.lhs, lane, text), b = eval_node(*n.rhs, lane, text);
  auto ua = static_cast<std::uint64_t>(a), ub = static_cast<std::uint64_t>(b);
  switch (n.op) {
    // Wrapping arithmetic, as the GPU's 64-bit integer units do.
    case '+': return static_cast<std::int64_t>(ua + ub);
    case '-': return static_cast<std::int64_t>(ua - ub);
    case '*': return static_cast<std::int64_t>(ua * ub);
    case '/':
    case '%':
      if (b == 0)
        fail(ErrorKind::kUsage, "index expression '{}': division by zero at column {} for lane {}", text,
             n.column, lane);
      if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return n.op == '/' ? a : 0;
      return n.op == '/' ? a / b : a % b;
    case '&': return a & b;
    case '|': return a | b;
    case '^': return a ^ b;
    case '<':
    case '>':
      if (b < 0 || b > 63)
        fail(ErrorKind::kUsage, "index expression '{}': shift by {} at column {} for lane {}", text, b,
             n.column, lane);
      return n.op == '<' ? static_cast<std::int64_t>(ua << b) : (a >> b);
  }
  fail(ErrorKind::kInternal, "bad operator in index expression");
}

}  // namespace

IndexExpr IndexExpr::parse(std::string_view text) {
  IndexExpr e;
  e.text_ = std::string(text);
  e.root_ = Parser(e.text_).parse();
  return e;
}

std::int64_t IndexExpr::eval(std::int64_t lane) const { return eval_node(*root_, lane, text_); }

}  // namespace warpscope::cli
