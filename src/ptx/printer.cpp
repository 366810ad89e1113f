// format_instruction: IR -> PTX-like text, for diagnostics and tests.
#include <string>

#include <fmt/format.h>

#include "ptx/ptx.hpp"

namespace warpscope::ptx {

namespace {

std::string symbol_name(const Module& m, const Function& fn, const SymbolRef& s) {
  auto pick = [](const auto& vec, std::uint32_t i) -> std::string {
    return i < vec.size() ? vec[i].name : std::string("<bad symbol>");
  };
  switch (s.kind) {
    case SymbolKind::kModuleVar: return pick(m.variables, s.index);
    case SymbolKind::kFunctionVar: return pick(fn.variables, s.index);
    case SymbolKind::kParam: return pick(fn.params, s.index);
    case SymbolKind::kReturn: return pick(fn.returns, s.index);
    case SymbolKind::kFunction: return pick(m.functions, s.index);
    case SymbolKind::kNone: break;
  }
  return "<no symbol>";
}

std::string reg_name(const Function& fn, RegId r) {
  return r < fn.registers.size() ? fn.registers[r].name : std::string("<bad reg>");
}

std::string offset_suffix(std::int64_t off) {
  if (off == 0) return "";
  if (off < 0) return fmt::format("+{}", off);  // PTX spells negative offsets `+-8`
  return fmt::format("+{}", off);
}

std::string operand(const Module& m, const Function& fn, const Operand& o) {
  switch (o.kind) {
    case OperandKind::kNone: return "<none>";
    case OperandKind::kReg:
      if (!o.sel.empty() || (o.negate && fn.registers[o.reg].type != Type::kPred))  // a video operand
        return (o.negate ? "-" : "") + reg_name(fn, o.reg) + (o.sel.empty() ? "" : "." + o.sel);
      return (o.negate ? "!" : "") + reg_name(fn, o.reg);
    case OperandKind::kImm:
      switch (o.imm_kind) {
        case ImmKind::kInt: return fmt::format("{}", static_cast<std::int64_t>(o.imm));
        case ImmKind::kF32: return fmt::format("0f{:08X}", o.imm & 0xffffffffu);
        case ImmKind::kF64: return fmt::format("0d{:016X}", o.imm);
      }
      return "?";
    case OperandKind::kAddress: {
      std::string base;
      if (o.addr_base == AddressBase::kReg) base = reg_name(fn, o.reg);
      if (o.addr_base == AddressBase::kSymbol) base = symbol_name(m, fn, o.symbol);
      if (base.empty()) return fmt::format("[{}]", o.offset);
      if (!o.elements.empty()) {
        Operand v;
        v.kind = OperandKind::kVector;
        v.elements = o.elements;
        return fmt::format("[{}{}, {}]", base, offset_suffix(o.offset), operand(m, fn, v));
      }
      return fmt::format("[{}{}]", base, offset_suffix(o.offset));
    }
    case OperandKind::kVector: {
      std::string s = "{";
      for (std::size_t i = 0; i < o.elements.size(); ++i) {
        if (i) s += ", ";
        s += operand(m, fn, o.elements[i]);
      }
      return s + "}";
    }
    case OperandKind::kLabel:
      return o.label < fn.labels.size() ? fn.labels[o.label].name : std::string("<bad label>");
    case OperandKind::kSymbol: return symbol_name(m, fn, o.symbol) + offset_suffix(o.offset);
    case OperandKind::kSpecial: {
      std::string s = "%" + std::string(to_string(o.sreg));
      switch (o.sreg) {
        case SpecialReg::kTid: case SpecialReg::kNtid: case SpecialReg::kCtaid:
        case SpecialReg::kNctaid: case SpecialReg::kClusterid: case SpecialReg::kNclusterid:
        case SpecialReg::kClusterCtaid: case SpecialReg::kClusterNctaid:
          return s + "." + std::string(1, "xyz"[o.component % 3]);
        case SpecialReg::kEnvreg: case SpecialReg::kPm: case SpecialReg::kReservedSmemOffset:
          return s + std::to_string(o.component);
        case SpecialReg::kPm64: return s + std::to_string(o.component) + "_64";
        default: return s;
      }
    }
    case OperandKind::kSink: return "_";
  }
  return "?";
}

std::string list(const Module& m, const Function& fn, const std::vector<Operand>& ops) {
  std::string s = "(";
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (i) s += ", ";
    s += operand(m, fn, ops[i]);
  }
  return s + ")";
}

}  // namespace

std::string format_instruction(const Module& m, const Function& fn, const Instruction& in) {
  std::string s;
  if (in.guard) s += fmt::format("@{}{} ", in.guard->negated ? "!" : "", reg_name(fn, in.guard->reg));
  s += in.text;
  if (in.op == Opcode::kCall) {
    s += " ";
    if (!in.call_results.empty()) s += list(m, fn, in.call_results) + ", ";
    s += in.operands.empty() ? std::string("<none>") : operand(m, fn, in.operands[0]);
    if (!in.call_args.empty()) s += ", " + list(m, fn, in.call_args);
    return s + ";";
  }
  for (std::size_t i = 0; i < in.operands.size(); ++i) {
    s += i == 0 ? " " : ", ";
    s += operand(m, fn, in.operands[i]);
    if (i == 0 && in.dest2.kind != OperandKind::kNone) s += "|" + operand(m, fn, in.dest2);
  }
  return s + ";";
}

}  // namespace warpscope::ptx
