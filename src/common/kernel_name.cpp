#include "common/kernel_name.hpp"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <optional>
#include <vector>

// A demangler for the subset of the Itanium C++ ABI that kernel symbols use (names in
// namespaces, templates with type and integer arguments, builtin, class, pointer, reference and
// cv-qualified types, template parameters, substitutions), printing as Nsight Compute does.
// The substitution table follows the ABI's "Compression" rules (the same candidates, in the same
// order, as LLVM's ItaniumDemangle): every prefix of a nested name but the whole name, a
// template's name before its arguments, every non-builtin type (cv-qualified builtins included)
// and every template parameter used as a type. Anything else throws Unsupported, and
// kernel_names() falls back to libstdc++'s demangling.

namespace warpscope {
namespace {

struct Unsupported {};

/// A type as ncu prints it: [const ][volatile ]base[ declarator], e.g. "const float *",
/// "unsigned int *const *", "Container<int> **".
struct Type {
  std::string base;
  bool is_const = false, is_volatile = false;  // on the base (no declarator yet)
  std::string decl;                            // "*", "**", "*const *", "&", ...

  std::string str() const {
    std::string s;
    if (is_const) s += "const ";
    if (is_volatile) s += "volatile ";
    s += base;
    if (!decl.empty()) s += " " + decl;
    return s;
  }
  void add_declarator(const char* d) {
    if (!decl.empty() && std::isalpha(static_cast<unsigned char>(decl.back()))) decl += ' ';
    decl += d;
  }
  void qualify(bool c, bool v) {
    if (decl.empty()) {
      is_const = is_const || c;
      is_volatile = is_volatile || v;
      return;
    }
    if (c) decl += "const";
    if (v) decl += c ? " volatile" : "volatile";
  }
};

struct Name {
  std::string qualified;  // with scope and template arguments
  std::string function;   // the last identifier
  bool is_template = false;
};

class Demangler {
 public:
  explicit Demangler(const std::string& s) : s_(s) {}

  KernelNames run() {
    KernelNames out;
    out.mangled = s_;
    expect("_Z");
    const Name name = parse_name();
    out.function = name.function;
    function_ = name.function;
    std::string result;
    if (name.is_template) result = parse_type().str() + " ";  // the return type
    result += name.qualified + "(";
    std::vector<std::string> params;
    while (pos_ < s_.size() && s_[pos_] != '.') params.push_back(parse_type().str());
    if (params.empty()) throw Unsupported{};
    if (!(params.size() == 1 && params[0] == "void")) {
      for (std::size_t i = 0; i < params.size(); ++i) result += (i ? ", " : "") + params[i];
    }
    out.demangled = result + ")";
    return out;
  }

  /// The function name read so far (valid after parse_name, even when the parameters fail).
  const std::string& function() const { return function_; }

 private:
  char peek(std::size_t ahead = 0) const { return pos_ + ahead < s_.size() ? s_[pos_ + ahead] : '\0'; }
  bool consume(const char* lit) {
    const std::string_view l(lit);
    if (s_.compare(pos_, l.size(), l) != 0) return false;
    pos_ += l.size();
    return true;
  }
  void expect(const char* lit) {
    if (!consume(lit)) throw Unsupported{};
  }

  std::size_t number() {
    if (!std::isdigit(static_cast<unsigned char>(peek()))) throw Unsupported{};
    std::size_t n = 0;
    while (std::isdigit(static_cast<unsigned char>(peek()))) n = n * 10 + static_cast<std::size_t>(s_[pos_++] - '0');
    return n;
  }

  std::string source_name() {
    const std::size_t n = number();
    if (n == 0 || pos_ + n > s_.size()) throw Unsupported{};
    std::string id = s_.substr(pos_, n);
    pos_ += n;
    if (id.rfind("_GLOBAL__N", 0) == 0) return "<unnamed>";
    return id;
  }

  /// <seq-id>_ after 'S': S_ is entry 0, S0_ entry 1, S1_ entry 2 (base 36).
  const std::string& substitution() {
    std::size_t index = 0;
    if (!consume("_")) {
      std::size_t v = 0;
      while (peek() != '_') {
        const char c = peek();
        if (std::isdigit(static_cast<unsigned char>(c))) v = v * 36 + static_cast<std::size_t>(c - '0');
        else if (c >= 'A' && c <= 'Z') v = v * 36 + static_cast<std::size_t>(c - 'A' + 10);
        else throw Unsupported{};
        ++pos_;
      }
      ++pos_;
      index = v + 1;
    }
    if (index >= subs_.size()) throw Unsupported{};
    return subs_[index];
  }

  /// T_ is the first template parameter; ncu writes it T1 (T0_ is T2, ...).
  std::string template_param() {
    expect("T");
    std::size_t index = 0;
    if (!consume("_")) {
      index = number() + 1;
      expect("_");
    }
    return "T" + std::to_string(index + 1);
  }

  std::string template_args() {
    expect("I");
    std::string out = "<";
    bool first = true;
    while (!consume("E")) {
      if (pos_ >= s_.size()) throw Unsupported{};
      out += first ? "" : ", ";
      first = false;
      if (peek() == 'L') {
        out += literal();
      } else {
        out += parse_type().str();
      }
    }
    return out + ">";
  }

  /// L <type> <value> E: integer and bool template arguments print as plain numbers
  /// ("reduce7<int, 256, 1>" for <int, 256u, true>).
  std::string literal() {
    expect("L");
    const char t = peek();
    if (std::string_view("bcahstijlmxy").find(t) == std::string_view::npos) throw Unsupported{};
    ++pos_;
    std::string v;
    if (consume("n")) v = "-";
    if (!std::isdigit(static_cast<unsigned char>(peek()))) throw Unsupported{};
    while (std::isdigit(static_cast<unsigned char>(peek()))) v += s_[pos_++];
    expect("E");
    return v;
  }

  Name parse_name() {
    Name n;
    if (consume("N")) {
      if (peek() == 'r' || peek() == 'V' || peek() == 'K' || peek() == 'R' || peek() == 'O') throw Unsupported{};
      std::string so_far;
      bool any = false;
      while (!consume("E")) {
        if (pos_ >= s_.size()) throw Unsupported{};
        if (peek() == 'I') {
          if (!any) throw Unsupported{};
          so_far += template_args();
          n.is_template = true;
        } else if (peek() == 'S' && !any) {
          if (consume("St")) {
            so_far = "std::";
            n.function = source_name();
            so_far += n.function;
          } else {
            ++pos_;
            so_far = reparse_substitution(substitution()).str();
            n.function = so_far.substr(so_far.rfind(':') == std::string::npos ? 0 : so_far.rfind(':') + 1);
          }
          n.is_template = false;
        } else {
          n.function = source_name();
          so_far += (any ? "::" : "") + n.function;
          n.is_template = false;
        }
        any = true;
        subs_.push_back(so_far);
      }
      if (!any) throw Unsupported{};
      subs_.pop_back();  // the whole name is not a candidate
      n.qualified = so_far;
      return n;
    }
    if (consume("St")) {
      n.function = source_name();
      n.qualified = "std::" + n.function;
    } else if (std::isdigit(static_cast<unsigned char>(peek()))) {
      n.function = source_name();
      n.qualified = n.function;
    } else {
      throw Unsupported{};  // local names, substitutions as names, operators, ...
    }
    if (peek() == 'I') {
      subs_.push_back(n.qualified);  // <unscoped-template-name>
      n.qualified += template_args();
      n.is_template = true;
    }
    return n;
  }

  Type parse_type() {
    static const std::pair<char, const char*> kBuiltins[] = {
        {'v', "void"},          {'w', "wchar_t"},           {'b', "bool"},
        {'c', "char"},          {'a', "signed char"},       {'h', "unsigned char"},
        {'s', "short"},         {'t', "unsigned short"},    {'i', "int"},
        {'j', "unsigned int"},  {'l', "long"},              {'m', "unsigned long"},
        {'x', "long long"},     {'y', "unsigned long long"}, {'n', "__int128"},
        {'o', "unsigned __int128"}, {'f', "float"},         {'d', "double"},
        {'e', "long double"},   {'g', "__float128"}};
    const char c = peek();
    for (const auto& [code, name] : kBuiltins) {
      if (c == code) {
        ++pos_;
        Type b;
        b.base = name;
        return b;
      }
    }
    Type t;
    switch (c) {
      case 'P':
      case 'R':
      case 'O': {
        ++pos_;
        t = parse_type();
        t.add_declarator(c == 'P' ? "*" : c == 'R' ? "&" : "&&");
        break;
      }
      case 'K':
      case 'V': {
        bool is_v = consume("V");
        const bool is_c = consume("K");
        if (!is_v && !is_c) throw Unsupported{};
        t = parse_type();
        t.qualify(is_c, is_v);
        break;
      }
      case 'T':
        t.base = template_param();
        if (peek() == 'I') throw Unsupported{};  // template template parameter
        break;
      case 'S': {
        if (peek(1) == 't') {
          t.base = parse_name().qualified;
          break;
        }
        ++pos_;
        const std::string sub = substitution();
        if (peek() == 'I') throw Unsupported{};
        return reparse_substitution(sub);
      }
      case 'N':
        t.base = parse_name().qualified;
        break;
      default:
        if (!std::isdigit(static_cast<unsigned char>(c))) throw Unsupported{};
        t.base = parse_name().qualified;
        break;
    }
    subs_.push_back(encode(t));
    return t;
  }

  // The substitution table holds types as strings; a type keeps its structure through an
  // encoding that reparse_substitution() reads back ("\x01" separates the fields).
  static std::string encode(const Type& t) {
    return std::string("\x01") + (t.is_const ? "c" : "-") + (t.is_volatile ? "v" : "-") + "\x01" + t.base + "\x01" +
           t.decl;
  }
  static Type reparse_substitution(const std::string& s) {
    Type t;
    if (s.empty() || s[0] != '\x01') {  // a name prefix used as a type
      t.base = s;
      return t;
    }
    const std::size_t a = s.find('\x01', 1), b = s.find('\x01', a + 1);
    t.is_const = s[1] == 'c';
    t.is_volatile = s[2] == 'v';
    t.base = s.substr(a + 1, b - a - 1);
    t.decl = s.substr(b + 1);
    return t;
  }

  const std::string& s_;
  std::size_t pos_ = 0;
  std::vector<std::string> subs_;
  std::string function_;
};

std::string cxa_demangle(const std::string& symbol) {
  int status = 0;
  char* d = abi::__cxa_demangle(symbol.c_str(), nullptr, nullptr, &status);
  if (status != 0 || d == nullptr) return symbol;
  std::string out(d);
  std::free(d);
  return out;
}

/// The function name in libstdc++'s demangling: the identifier before the parameters (and
/// before template arguments), after the last scope.
std::string function_from(const std::string& demangled) {
  std::size_t end = demangled.size();
  int depth = 0;
  // The parameter list is the last top-level "(...)"; strip it, then template arguments.
  for (std::size_t i = demangled.size(); i-- > 0;) {
    if (demangled[i] == ')') ++depth;
    if (demangled[i] == '(' && --depth == 0) {
      end = i;
      break;
    }
  }
  std::string head = demangled.substr(0, end);
  if (!head.empty() && head.back() == '>') {
    depth = 0;
    for (std::size_t i = head.size(); i-- > 0;) {
      if (head[i] == '>') ++depth;
      if (head[i] == '<' && --depth == 0) {
        head.resize(i);
        break;
      }
    }
  }
  const std::size_t scope = head.rfind("::");
  if (scope != std::string::npos) head = head.substr(scope + 2);
  const std::size_t space = head.rfind(' ');
  if (space != std::string::npos) head = head.substr(space + 1);
  return head;
}

}  // namespace

KernelNames kernel_names(const std::string& symbol) {
  if (symbol.rfind("_Z", 0) != 0) return KernelNames{symbol, symbol, symbol, true};
  Demangler d(symbol);
  try {
    return d.run();
  } catch (const Unsupported&) {
    KernelNames k;
    k.mangled = symbol;
    k.demangled = cxa_demangle(symbol);
    k.function = !d.function().empty() ? d.function() : function_from(k.demangled);
    k.ncu_form = false;
    return k;
  }
}

}  // namespace warpscope
