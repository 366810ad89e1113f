#include "analysis/local_index.hpp"

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>

namespace warpscope::analysis {
namespace {

struct Parsed {
  std::string opcode;
  std::vector<std::string> operands;
};

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == ';')) s.remove_suffix(1);
  return std::string(s);
}

Parsed parse(std::string_view text) {
  Parsed p;
  std::string s = trim(text);
  if (!s.empty() && s.front() == '@') {  // guard
    const auto sp = s.find(' ');
    s = sp == std::string::npos ? "" : trim(std::string_view(s).substr(sp));
  }
  const auto sp = s.find_first_of(" \t");
  p.opcode = s.substr(0, sp);
  if (sp == std::string::npos) return p;
  int depth = 0;
  std::string cur;
  for (char c : s.substr(sp)) {
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      p.operands.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty()) p.operands.push_back(trim(cur));
  return p;
}

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool is_immediate(const std::string& s) {
  if (s.empty()) return false;
  std::size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
  return i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]));
}

bool is_frame_base(const std::string& s) { return s == "%SP" || s == "%SPL" || starts_with(s, "__local_depot"); }

/// The register of an address operand: "[%rd17+-8]" -> "%rd17"; "" when it is not [reg(+imm)].
std::string address_register(const std::string& op) {
  if (op.size() < 3 || op.front() != '[' || op.back() != ']') return "";
  std::string in = op.substr(1, op.size() - 2);
  const auto plus = in.find('+');
  if (plus != std::string::npos) {
    if (!is_immediate(trim(std::string_view(in).substr(plus + 1)))) return "";
    in = trim(std::string_view(in).substr(0, plus));
  }
  return in;
}

class Function {
 public:
  void define(const std::string& reg, Parsed p) { defs_[reg].push_back(std::move(p)); }

  bool constant_offset(const std::string& reg) {
    if (is_frame_base(reg)) return true;
    if (auto it = memo_.find(reg); it != memo_.end()) return it->second;
    if (!visiting_.insert(reg).second) return false;  // a cycle: not a constant
    bool ok = false;
    if (auto it = defs_.find(reg); it != defs_.end()) {
      ok = true;
      for (const Parsed& d : it->second) {
        if (!def_is_constant(d)) {
          ok = false;
          break;
        }
      }
    }
    visiting_.erase(reg);
    memo_[reg] = ok;
    return ok;
  }

 private:
  bool def_is_constant(const Parsed& d) {
    const auto& o = d.operands;
    if (starts_with(d.opcode, "mov.") || starts_with(d.opcode, "cvta.")) {
      return o.size() == 2 && (is_frame_base(o[1]) || (!is_immediate(o[1]) && constant_offset(o[1])));
    }
    if (starts_with(d.opcode, "add.") || starts_with(d.opcode, "sub.")) {
      if (o.size() != 3) return false;
      if (is_immediate(o[2])) return constant_offset(o[1]);
      if (starts_with(d.opcode, "add.") && is_immediate(o[1])) return constant_offset(o[2]);
      return false;
    }
    return false;
  }

  std::map<std::string, std::vector<Parsed>> defs_;
  std::map<std::string, bool> memo_;
  std::set<std::string> visiting_;
};

}  // namespace

std::vector<bool> dynamic_local_index(const std::vector<InstructionInfo>& code) {
  std::map<std::string, Function> functions;
  std::vector<Parsed> parsed(code.size());
  for (std::size_t pc = 0; pc < code.size(); ++pc) {
    parsed[pc] = parse(code[pc].text);
    const Parsed& p = parsed[pc];
    if (p.operands.empty() || starts_with(p.opcode, "st.") || starts_with(p.opcode, "bra") ||
        starts_with(p.opcode, "ret") || starts_with(p.opcode, "call"))
      continue;
    const std::string& dst = p.operands[0];
    if (!dst.empty() && dst[0] == '%') functions[code[pc].function].define(dst, p);
  }
  std::vector<bool> out(code.size(), false);
  for (std::size_t pc = 0; pc < code.size(); ++pc) {
    const Parsed& p = parsed[pc];
    const bool load = starts_with(p.opcode, "ld.local");
    const bool store = starts_with(p.opcode, "st.local");
    if (!load && !store) continue;
    const std::string& addr = load ? (p.operands.size() > 1 ? p.operands[1] : std::string())
                                   : (p.operands.empty() ? std::string() : p.operands[0]);
    const std::string reg = address_register(addr);
    if (reg.empty()) {
      out[pc] = !(addr.size() > 2 && is_frame_base(trim(std::string_view(addr).substr(1, addr.find_first_of("+]") - 1))));
      continue;
    }
    out[pc] = !functions[code[pc].function].constant_offset(reg);
  }
  return out;
}

}  // namespace warpscope::analysis
