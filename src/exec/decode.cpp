#include "exec/decode.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exec/cfg.hpp"
#include "exec/fault.hpp"
#include "exec/segments.hpp"
#include "exec/smallfloat.hpp"
#include "ptx/link.hpp"
#include "ptx/ptx.hpp"

namespace warpscope::exec {

using ptx::Opcode;
using ptx::OperandKind;
using ptx::StateSpace;
using ptx::SymbolKind;
using ptx::Type;

void DecodeCtx::unsupported(const std::string& what) const {
  const ptx::Instruction& ins = *inst_;
  const ptx::SourceLoc loc = module_->outermost(ins.loc);
  std::string where = fmt::format("{}:{}", module_->text_origin(*function_), ins.ptx.line);
  std::string cuda;
  if (loc.valid()) cuda = fmt::format(" ({}:{})", module_->file_path(loc), loc.line);
  fail(ErrorKind::kUnsupported, "{}: unsupported instruction `{}` in {}{}: {}", where,
       ptx::format_instruction(*module_, *function_, ins), pretty_kernel(function_->name), cuda, what);
}

std::uint64_t immediate_bits(const ptx::Operand& o, Type t) {
  const std::uint64_t v = o.imm;
  switch (t) {
    case Type::kF32:
      if (o.imm_kind == ptx::ImmKind::kF32) return v & 0xffffffffu;
      if (o.imm_kind == ptx::ImmKind::kF64) return std::bit_cast<std::uint32_t>(static_cast<float>(std::bit_cast<double>(v)));
      return std::bit_cast<std::uint32_t>(static_cast<float>(static_cast<std::int64_t>(v)));
    case Type::kF64:
      if (o.imm_kind == ptx::ImmKind::kF64) return v;
      if (o.imm_kind == ptx::ImmKind::kF32) return std::bit_cast<std::uint64_t>(static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(v))));
      return std::bit_cast<std::uint64_t>(static_cast<double>(static_cast<std::int64_t>(v)));
    case Type::kPred: return v != 0 ? 1 : 0;
    case Type::kF16:
    case Type::kBF16:
      // A float literal for a half type is its value; an integer literal its bits.
      if (o.imm_kind != ptx::ImmKind::kInt) {
        const double d = o.imm_kind == ptx::ImmKind::kF64 ? std::bit_cast<double>(v)
                                                           : double(std::bit_cast<float>(static_cast<std::uint32_t>(v)));
        return encode_small(d, t == Type::kF16 ? kF16 : kBF16, Round::kNearestEven);
      }
      return v & 0xffffu;
    default: break;
  }
  const unsigned bits = ptx::type_bits(t);
  if (bits == 0 || bits >= 64) return v;
  const std::uint64_t mask = (1ull << bits) - 1;
  // Signed types keep their sign extension so that a 64-bit read of the slot sees the value.
  if (ptx::is_signed_int(t)) {
    const std::int64_t sv = static_cast<std::int64_t>(v << (64 - bits)) >> (64 - bits);
    return static_cast<std::uint64_t>(sv);
  }
  return v & mask;
}

namespace {

inline std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

std::uint64_t var_align(const ptx::Variable& v) {
  if (v.align) return v.align;
  const std::uint64_t e = ptx::type_bytes(v.type) * std::max<std::uint32_t>(1, v.vec);
  return e ? e : 1;
}
std::uint64_t param_align(const ptx::Param& p) {
  if (p.align) return p.align;
  const std::uint64_t e = ptx::type_bytes(p.type);
  return e ? e : 1;
}

constexpr std::uint64_t kRecursiveStackBytes = 16 * 1024;

class KernelDecoder final : public DecodeCtx {
 public:
  KernelDecoder(const ptx::Module& m, std::uint32_t kernel, const std::vector<std::uint64_t>& var_addr)
      : var_addr_(var_addr), kernel_(kernel) {
    module_ = &m;
  }

  std::unique_ptr<KernelImage> run() {
    img_ = std::make_unique<KernelImage>();
    img_->jit = std::make_shared<JitSlot>();
    img_->module = module_;
    img_->ir_index = kernel_;
    img_->name = module_->functions[kernel_].name;
    discover();
    layout_shared();
    layout_frames();
    next_slot_ = reg_end_;
    for (std::uint32_t f = 0; f < img_->funcs.size(); ++f) decode_function(f);
    finish();
    return std::move(img_);
  }

  // --- DecodeCtx -------------------------------------------------------------------------------

  std::uint32_t src(const ptx::Operand& o, Type t) override {
    switch (o.kind) {
      case OperandKind::kReg: return reg_slot(o.reg);
      case OperandKind::kImm: return constant(immediate_bits(o, t));
      case OperandKind::kSpecial: return sreg_slot(o);
      case OperandKind::kSymbol: {
        std::uint32_t slot = kNoSlot;
        std::int64_t off = 0;
        if (!symbol_value(o, slot, off)) unsupported("the address of a local or parameter symbol as an operand");
        return slot;
      }
      default: unsupported("this kind of source operand");
    }
  }

  std::uint32_t dst(const ptx::Operand& o) override {
    if (o.kind == OperandKind::kReg) return reg_slot(o.reg);
    if (o.kind == OperandKind::kSink) {
      if (scratch_ == kNoSlot) scratch_ = next_slot_++;
      return scratch_;
    }
    unsupported("this kind of destination operand");
  }

  AddrOperand address(const ptx::Operand& o, StateSpace space) override {
    AddrOperand a;
    if (o.kind == OperandKind::kAddress && o.addr_base == ptx::AddressBase::kReg) {
      a.slot = reg_slot(o.reg);
      a.imm = o.offset;
      a.reg32 = ptx::type_bits(function_->registers[o.reg].type) == 32;
      if (space == StateSpace::kParam && in_kernel_) a.mode = AddrOperand::Mode::kKparam;
      return a;
    }
    if ((o.kind == OperandKind::kAddress && o.addr_base == ptx::AddressBase::kSymbol) ||
        o.kind == OperandKind::kSymbol) {
      a.slot = constant(0);
      const Resolved r = resolve(o.symbol);
      a.imm = static_cast<std::int64_t>(r.value) + o.offset;
      a.mode = r.mode;
      return a;
    }
    if (o.kind == OperandKind::kAddress) {  // [imm]: an absolute address
      a.slot = constant(0);
      a.imm = o.offset;
      return a;
    }
    if (o.kind == OperandKind::kReg) {
      a.slot = reg_slot(o.reg);
      a.reg32 = ptx::type_bits(function_->registers[o.reg].type) == 32;
      return a;
    }
    unsupported("this kind of address operand");
  }

  bool symbol_value(const ptx::Operand& o, std::uint32_t& slot, std::int64_t& frame_off) override {
    const Resolved r = resolve(o.symbol);
    const std::uint64_t v = r.value + static_cast<std::uint64_t>(o.offset);
    if (r.mode == AddrOperand::Mode::kFrame) {
      frame_off = static_cast<std::int64_t>(v);
      return false;
    }
    slot = constant(v);
    return true;
  }

  std::uint32_t cc_slot() override {
    if (img_->cc_slot == kNoSlot) img_->cc_slot = next_slot_++;
    return img_->cc_slot;
  }

  std::uint32_t sp_slot() override {
    if (img_->sp_slot == kNoSlot) img_->sp_slot = next_slot_++;
    return img_->sp_slot;
  }

  std::uint32_t constant(std::uint64_t value) override {
    auto it = consts_.find(value);
    if (it != consts_.end()) return it->second;
    const std::uint32_t s = next_slot_++;
    consts_.emplace(value, s);
    img_->consts.emplace_back(s, value);
    return s;
  }

  std::uint32_t add_call(CallInfo info) override {
    img_->calls.push_back(std::move(info));
    return static_cast<std::uint32_t>(img_->calls.size() - 1);
  }
  std::uint32_t add_operand_list(const std::vector<std::uint32_t>& words) override {
    const auto at = static_cast<std::uint32_t>(img_->operand_lists.size());
    img_->operand_lists.insert(img_->operand_lists.end(), words.begin(), words.end());
    return at;
  }

  std::uint32_t callee(std::uint32_t ir) override {
    auto it = func_of_ir_.find(ir);
    if (it == func_of_ir_.end()) unsupported("call to a function outside the kernel's call graph");
    return it->second;
  }

  ParamRef param_ref(const ptx::Operand& o) override {
    ParamRef p;
    if (o.kind == OperandKind::kReg) {
      p.slot = reg_slot(o.reg);
      p.bytes = std::max<std::uint32_t>(1, ptx::type_bytes(function_->registers[o.reg].type));
      return p;
    }
    if (o.kind != OperandKind::kSymbol && !(o.kind == OperandKind::kAddress && o.addr_base == ptx::AddressBase::kSymbol)) {
      unsupported("a call argument that is neither a parameter variable nor a register");
    }
    const Resolved r = resolve(o.symbol);
    if (r.mode != AddrOperand::Mode::kFrame) unsupported("a call argument outside the caller's frame");
    p.frame_off = r.value + static_cast<std::uint64_t>(o.offset);
    p.bytes = static_cast<std::uint32_t>(r.bytes);
    return p;
  }

  ParamRef callee_param(std::uint32_t func, bool is_return, std::uint32_t index) override {
    const FuncImage& fi = img_->funcs[func];
    const ptx::Function& fn = module_->functions[fi.ir_index];
    const auto& list = is_return ? fn.returns : fn.params;
    if (index >= list.size()) unsupported("more call arguments than the callee has parameters");
    ParamRef p;
    const ptx::Param& prm = list[index];
    p.bytes = static_cast<std::uint32_t>(prm.size);
    if (prm.space == StateSpace::kReg) {
      p.slot = fi.reg_base + prm.reg;
    } else {
      p.frame_off = is_return ? fi.return_offsets[index] : fi.param_offsets[index];
    }
    return p;
  }

 private:
  struct Resolved {
    std::uint64_t value = 0;
    AddrOperand::Mode mode = AddrOperand::Mode::kPlain;
    std::uint64_t bytes = 0;
  };

  std::uint32_t reg_slot(ptx::RegId r) const {
    return img_->funcs[cur_].reg_base + r;
  }

  std::uint32_t sreg_slot(const ptx::Operand& o) {
    switch (o.sreg) {
      case ptx::SpecialReg::kClock: case ptx::SpecialReg::kClock64: case ptx::SpecialReg::kClockHi:
      case ptx::SpecialReg::kGlobaltimer:
      case ptx::SpecialReg::kGlobaltimerLo: case ptx::SpecialReg::kGlobaltimerHi:
        unsupported("a clock register outside mov");
      default: break;
    }
    if (o.sreg == ptx::SpecialReg::kEnvreg && (o.component == 1 || o.component == 2)) img_->reads_workspace = true;
    const auto key = std::make_pair(static_cast<int>(o.sreg), static_cast<int>(o.component));
    auto it = sregs_.find(key);
    if (it != sregs_.end()) return it->second;
    const std::uint32_t s = next_slot_++;
    sregs_.emplace(key, s);
    img_->sregs.push_back(SregSlot{s, o.sreg, o.component});
    return s;
  }

  Resolved resolve(const ptx::SymbolRef& sym) {
    Resolved r;
    const ptx::Function& fn = *function_;
    const FuncImage& fi = img_->funcs[cur_];
    switch (sym.kind) {
      case SymbolKind::kModuleVar: {
        const ptx::Variable& v = module_->variables[sym.index];
        r.bytes = v.size;
        if (v.space == StateSpace::kShared) {
          r.value = v.unsized ? img_->dynamic_shared_offset : shared_off_.at(&v);
        } else if (v.space == StateSpace::kGlobal || v.space == StateSpace::kConst) {
          r.value = var_addr_.at(sym.index);
        } else {
          unsupported(fmt::format("a module variable in .{}", ptx::to_string(v.space)));
        }
        return r;
      }
      case SymbolKind::kFunctionVar: {
        const ptx::Variable& v = fn.variables[sym.index];
        r.bytes = v.size;
        if (v.space == StateSpace::kShared) {
          r.value = v.unsized ? img_->dynamic_shared_offset : shared_off_.at(&v);
        } else if (v.space == StateSpace::kLocal || v.space == StateSpace::kParam) {
          r.value = frame_var_off_[cur_].at(sym.index);
          r.mode = AddrOperand::Mode::kFrame;
        } else {
          unsupported(fmt::format("a function variable in .{}", ptx::to_string(v.space)));
        }
        return r;
      }
      case SymbolKind::kParam: {
        const ptx::Param& p = fn.params[sym.index];
        r.bytes = p.size;
        if (in_kernel_) {
          r.value = p.offset;
          r.mode = AddrOperand::Mode::kKparam;
        } else {
          if (p.space == StateSpace::kReg) unsupported("the address of a .reg parameter");
          r.value = fi.param_offsets.at(sym.index);
          r.mode = AddrOperand::Mode::kFrame;
        }
        return r;
      }
      case SymbolKind::kReturn: {
        const ptx::Param& p = fn.returns[sym.index];
        r.bytes = p.size;
        if (p.space == StateSpace::kReg) unsupported("the address of a .reg return value");
        r.value = fi.return_offsets.at(sym.index);
        r.mode = AddrOperand::Mode::kFrame;
        return r;
      }
      case SymbolKind::kFunction:
        r.value = kFunctionAddressBase + std::uint64_t(sym.index) * 16;
        return r;
      case SymbolKind::kNone: break;
    }
    unsupported("an unresolved symbol");
  }

  // --- pass 1: the call graph and the shared variables it uses ---------------------------------

  void note_symbol(const ptx::Function& fn, const ptx::SymbolRef& s) {
    if (s.kind == SymbolKind::kModuleVar) {
      const ptx::Variable& v = module_->variables[s.index];
      if (v.space == StateSpace::kShared) add_shared(&v);
    } else if (s.kind == SymbolKind::kFunctionVar) {
      const ptx::Variable& v = fn.variables[s.index];
      if (v.space == StateSpace::kShared) add_shared(&v);
    }
  }
  void add_shared(const ptx::Variable* v) {
    if (std::find(shared_vars_.begin(), shared_vars_.end(), v) == shared_vars_.end()) shared_vars_.push_back(v);
  }
  void note_operand(const ptx::Function& fn, const ptx::Operand& o) {
    if (o.kind == OperandKind::kSymbol || (o.kind == OperandKind::kAddress && o.addr_base == ptx::AddressBase::kSymbol)) {
      note_symbol(fn, o.symbol);
    }
    for (const auto& e : o.elements) note_operand(fn, e);
  }

  void discover() {
    std::deque<std::uint32_t> queue{kernel_};
    add_function(kernel_);
    std::map<std::uint32_t, std::set<std::uint32_t>> edges;
    while (!queue.empty()) {
      const std::uint32_t ir = queue.front();
      queue.pop_front();
      const ptx::Function& fn = module_->functions[ir];
      for (const auto& v : fn.variables) {
        if (v.space == StateSpace::kShared) add_shared(&v);
      }
      for (const auto& ins : fn.instructions) {
        for (const auto& o : ins.operands) note_operand(fn, o);
        if (ins.op != Opcode::kCall || ins.operands.empty()) continue;
        const ptx::Operand& c = ins.operands[0];
        if (c.kind == OperandKind::kReg) {
          // An indirect call may reach any function whose address the module takes.
          for (std::uint32_t f : address_taken()) {
            edges[ir].insert(f);
            if (!func_of_ir_.count(f)) {
              add_function(f);
              queue.push_back(f);
            }
          }
          continue;
        }
        if (c.kind != OperandKind::kSymbol || c.symbol.kind != SymbolKind::kFunction) continue;
        const ptx::Function& callee = module_->functions[c.symbol.index];
        if (callee.is_declaration) continue;
        edges[ir].insert(c.symbol.index);
        if (!func_of_ir_.count(c.symbol.index)) {
          add_function(c.symbol.index);
          queue.push_back(c.symbol.index);
        }
      }
    }
    // Recursion: a cycle in the call graph.
    std::map<std::uint32_t, int> color;
    std::function<bool(std::uint32_t)> cyclic = [&](std::uint32_t f) {
      color[f] = 1;
      for (std::uint32_t g : edges[f]) {
        if (color[g] == 1) return true;
        if (color[g] == 0 && cyclic(g)) return true;
      }
      color[f] = 2;
      return false;
    };
    img_->recursive = cyclic(kernel_);
    edges_ = std::move(edges);
  }

  /// Functions with a body whose address the module takes: in a variable's initializer (a
  /// vtable) or as an operand other than a call's target.
  const std::vector<std::uint32_t>& address_taken() {
    if (address_taken_) return *address_taken_;
    std::set<std::uint32_t> found;
    for (const ptx::Variable& v : module_->variables) {
      for (const ptx::Relocation& r : v.relocations) {
        if (r.symbol.kind == SymbolKind::kFunction) found.insert(r.symbol.index);
      }
    }
    for (const ptx::Function& fn : module_->functions) {
      for (const ptx::Instruction& ins : fn.instructions) {
        for (std::size_t i = 0; i < ins.operands.size(); ++i) {
          const ptx::Operand& o = ins.operands[i];
          if (ins.op == Opcode::kCall && i == 0) continue;
          if (o.kind == OperandKind::kSymbol && o.symbol.kind == SymbolKind::kFunction) found.insert(o.symbol.index);
        }
      }
    }
    std::vector<std::uint32_t> out;
    for (std::uint32_t f : found) {
      if (f < module_->functions.size() && !module_->functions[f].is_declaration &&
          module_->functions[f].kind == ptx::FunctionKind::kFunc) {
        out.push_back(f);
      }
    }
    address_taken_ = std::move(out);
    return *address_taken_;
  }

  void add_function(std::uint32_t ir) {
    FuncImage fi;
    fi.name = module_->functions[ir].name;
    fi.ir_index = ir;
    fi.reg_base = reg_end_;
    fi.reg_count = static_cast<std::uint32_t>(module_->functions[ir].registers.size());
    reg_end_ += fi.reg_count;
    func_of_ir_[ir] = static_cast<std::uint32_t>(img_->funcs.size());
    img_->funcs.push_back(std::move(fi));
  }

  void layout_shared() {
    std::uint64_t off = 0;
    std::uint64_t dyn_align = 16;
    for (const ptx::Variable* v : shared_vars_) {
      if (v->unsized || v->linkage == ptx::Linkage::kExtern) {
        dyn_align = std::max(dyn_align, var_align(*v));
        if (v->unsized) continue;
      }
      off = align_up(off, var_align(*v));
      shared_off_[v] = off;
      off += v->size;
    }
    img_->static_shared = off;
    img_->dynamic_shared_offset = align_up(off, dyn_align);
  }

  void layout_frames() {
    frame_var_off_.resize(img_->funcs.size());
    for (std::uint32_t f = 0; f < img_->funcs.size(); ++f) {
      FuncImage& fi = img_->funcs[f];
      const ptx::Function& fn = module_->functions[fi.ir_index];
      std::uint64_t off = 0;
      // .local variables first (so a kernel's __local_depot0 starts at local offset 0), then the
      // call-site .param variables, then the function's own parameters and return values.
      for (int pass = 0; pass < 2; ++pass) {
        for (std::uint32_t i = 0; i < fn.variables.size(); ++i) {
          const ptx::Variable& v = fn.variables[i];
          const StateSpace want = pass == 0 ? StateSpace::kLocal : StateSpace::kParam;
          if (v.space != want) continue;
          off = align_up(off, var_align(v));
          frame_var_off_[f][i] = off;
          off += std::max<std::uint64_t>(v.size, 1);
        }
      }
      if (f != 0) {
        for (const auto& p : fn.params) {
          off = align_up(off, param_align(p));
          fi.param_offsets.push_back(off);
          off += p.size;
        }
        for (const auto& p : fn.returns) {
          off = align_up(off, param_align(p));
          fi.return_offsets.push_back(off);
          off += p.size;
        }
      }
      fi.frame_bytes = align_up(off, 16);
    }
    // The deepest call chain's frames (a fixed budget when the kernel is recursive).
    std::map<std::uint32_t, std::uint64_t> memo;
    std::function<std::uint64_t(std::uint32_t, int)> depth = [&](std::uint32_t ir, int guard) -> std::uint64_t {
      if (guard > 64) return 0;
      auto it = memo.find(ir);
      if (it != memo.end()) return it->second;
      std::uint64_t best = 0;
      for (std::uint32_t g : edges_[ir]) best = std::max(best, depth(g, guard + 1));
      const std::uint64_t v = img_->funcs[func_of_ir_[ir]].frame_bytes + best;
      memo[ir] = v;
      return v;
    };
    img_->local_bytes = img_->recursive ? std::max<std::uint64_t>(kRecursiveStackBytes, depth(kernel_, 0))
                                        : depth(kernel_, 0);
  }

  // --- pass 2: instructions --------------------------------------------------------------------

  void decode_function(std::uint32_t f) {
    cur_ = f;
    FuncImage& fi = img_->funcs[f];
    const ptx::Function& fn = module_->functions[fi.ir_index];
    function_ = &fn;
    in_kernel_ = f == 0;
    fi.begin = static_cast<std::uint32_t>(img_->code.size());
    const std::uint32_t n = static_cast<std::uint32_t>(fn.instructions.size());

    std::vector<CfgInst> cfg(n);
    for (std::uint32_t i = 0; i < n; ++i) {
      const ptx::Instruction& ins = fn.instructions[i];
      cfg[i].guarded = ins.guard.has_value();
      if (ins.op == Opcode::kBra && !ins.operands.empty() && ins.operands[0].kind == OperandKind::kLabel) {
        cfg[i].kind = CfgInst::Kind::kBranch;
        cfg[i].target = ins.operands[0].target;
      } else if (ins.op == Opcode::kBrxIdx && ins.operands.size() == 2 && !ins.operands[1].elements.empty()) {
        cfg[i].kind = CfgInst::Kind::kBranch;
        cfg[i].target = ins.operands[1].elements[0].target;
        for (std::size_t k = 1; k < ins.operands[1].elements.size(); ++k)
          cfg[i].more.push_back(ins.operands[1].elements[k].target);
      } else if (ins.op == Opcode::kRet || ins.op == Opcode::kExit || ins.op == Opcode::kTrap) {
        cfg[i].kind = CfgInst::Kind::kExit;
      }
    }
    const std::vector<std::uint32_t> ipdom = immediate_postdominators(cfg);

    for (std::uint32_t i = 0; i < n; ++i) {
      const ptx::Instruction& ins = fn.instructions[i];
      inst_ = &ins;
      Inst out;
      if (ins.guard) {
        out.guard = reg_slot(ins.guard->reg);
        out.guard_neg = ins.guard->negated ? 1 : 0;
      }
      decode_one(ins, out, fi.begin, ipdom[i]);
      mark_poll(ins, out);
      note_order_dependence(ins);
      img_->code.push_back(out);
      img_->source.push_back(InstSource{f, i});
    }
    // A function that falls off its end returns, and a label after the last instruction names
    // this implicit ret.
    Inst ret;
    ret.ctl = Ctl::kRet;
    img_->code.push_back(ret);
    img_->source.push_back(InstSource{f, n == 0 ? 0 : n - 1});
    fi.end = static_cast<std::uint32_t>(img_->code.size());
  }

  /// A load or atomic that may observe what other CTAs write while the kernel runs: a strong or
  /// volatile load (ld.volatile/.relaxed/.acquire, or .cv) of global memory, or an atomic with a
  /// result. Spin loops poll with these; a weak ld.global may be hoisted by the compiler.
  static void mark_poll(const ptx::Instruction& ins, Inst& out) {
    if (out.ctl != Ctl::kNone || out.fn == nullptr) return;
    const bool global = ins.space == StateSpace::kGlobal || ins.space == StateSpace::kGeneric;
    if (!global) return;
    if (ins.op == Opcode::kLd || ins.op == Opcode::kLdu) {
      const bool strong = ins.order == ptx::MemOrder::kVolatile || ins.order == ptx::MemOrder::kRelaxed ||
                          ins.order == ptx::MemOrder::kAcquire || ins.order == ptx::MemOrder::kSc ||
                          ins.cache == ptx::CacheOperator::kCv;
      if (strong) out.ctl = Ctl::kPoll;
    } else if (ins.op == Opcode::kAtom && out.mem_op == Op::kAtomic && out.d != kNoSlot) {
      out.ctl = Ctl::kPoll;
    }
  }

  /// Global atomics whose outcome depends on the order CTAs run in: an atom (its returned value:
  /// a slot taken from a counter, an exchange, a compare-and-swap) or a floating-point reduction
  /// (its rounding). Such a kernel's CTAs run on one host thread, in CTA order, so that the
  /// program's output is the same in every run and for every --threads (docs/exec.md).
  void note_order_dependence(const ptx::Instruction& ins) {
    const bool global = ins.space == StateSpace::kGlobal || ins.space == StateSpace::kGeneric;
    if (!global) return;
    if (ins.op == Opcode::kAtom || (ins.op == Opcode::kRed && ptx::is_float(ins.type)))
      img_->order_dependent_atomics = true;
  }

  void decode_one(const ptx::Instruction& ins, Inst& out, std::uint32_t base, std::uint32_t ipdom) {
    const auto& ops = ins.operands;
    switch (ins.op) {
      case Opcode::kBra:
        if (ops.empty() || ops[0].kind != OperandKind::kLabel) unsupported("an indirect branch");
        out.ctl = Ctl::kBra;
        out.target = base + ops[0].target;
        out.aux = ipdom == kNoIpdom ? kNoPc : base + ipdom;
        return;
      case Opcode::kBrxIdx: {
        // brx.idx index, tlist: a branch whose target is each lane's tlist[index]; target kNoPc
        // marks it, the targets are an operand list (imm: its offset << 32 | its length).
        std::vector<std::uint32_t> targets;
        for (const ptx::Operand& e : ops[1].elements) targets.push_back(base + e.target);
        out.ctl = Ctl::kBra;
        out.target = kNoPc;
        out.a = src(ops[0], ptx::Type::kU32);
        out.imm = static_cast<std::int64_t>(std::uint64_t{add_operand_list(targets)} << 32 | targets.size());
        out.aux = ipdom == kNoIpdom ? kNoPc : base + ipdom;
        return;
      }
      case Opcode::kRet: out.ctl = Ctl::kRet; return;
      case Opcode::kExit: out.ctl = Ctl::kExit; return;
      case Opcode::kTrap: out.ctl = Ctl::kTrap; return;
      case Opcode::kNanosleep: out.ctl = Ctl::kYield; return;
      case Opcode::kBrkpt:
        // A breakpoint suspends the thread for a debugger; there is none, so the launch stops here.
        out.fn = [](const Inst& in, Ctx& x, std::uint32_t m) {
          if (m == 0) return;
          lane_fault(x, x.pc_of(in), ErrorKind::kTrap, static_cast<unsigned>(std::countr_zero(m)),
                     "brkpt: the thread reached a breakpoint (no debugger is attached: the launch stops)");
        };
        return;
      case Opcode::kPmevent:  // a performance-monitor event: no effect on the program's state
        out.fn = [](const Inst&, Ctx&, std::uint32_t) {};
        return;
      case Opcode::kCall: decode_call(ins, out); return;
      case Opcode::kBarSync:
      case Opcode::kBarArrive:
      case Opcode::kBarRed: decode_barrier(ins, out); return;
      default: break;
    }
    if (decode_half(*this, ins, out) || decode_float(*this, ins, out) || decode_int(*this, ins, out) ||
        decode_cvt(*this, ins, out) || decode_move(*this, ins, out) || decode_mem(*this, ins, out) ||
        decode_atom(*this, ins, out) || decode_warp(*this, ins, out) || decode_tex(*this, ins, out) ||
        decode_async(*this, ins, out) || decode_tma(*this, ins, out) || decode_mma(*this, ins, out) ||
        decode_wgmma(*this, ins, out) || decode_cluster(*this, ins, out) || decode_video(*this, ins, out) ||
        decode_stack(*this, ins, out) || decode_hint(*this, ins, out) ||
        decode_dsmem_async(*this, ins, out)) {
      if (out.fn == nullptr && out.ctl == Ctl::kNone) unsupported("no implementation for these types");
      return;
    }
    unsupported(fmt::format("the interpreter does not implement `{}`", ins.text));
  }

  CallInfo direct_call(const ptx::Instruction& ins, std::uint32_t callee_index) {
    CallInfo info;
    info.callee = callee_index;
    for (std::uint32_t i = 0; i < ins.call_args.size(); ++i) {
      const ParamRef from = param_ref(ins.call_args[i]);
      const ParamRef to = callee_param(info.callee, false, i);
      info.args.push_back(CallInfo::Copy{from.frame_off, from.slot, to.frame_off, to.slot, std::min(from.bytes, to.bytes)});
    }
    for (std::uint32_t i = 0; i < ins.call_results.size(); ++i) {
      const ParamRef into = param_ref(ins.call_results[i]);
      const ParamRef from = callee_param(info.callee, true, i);
      info.results.push_back(CallInfo::Copy{into.frame_off, into.slot, from.frame_off, from.slot, std::min(from.bytes, into.bytes)});
    }
    return info;
  }

  void decode_call(const ptx::Instruction& ins, Inst& out) {
    if (!ins.operands.empty() && ins.operands[0].kind == OperandKind::kReg) {
      // Indirect: one direct call per possible target with the call's parameter counts.
      CallInfo info;
      info.indirect = true;
      out.ctl = Ctl::kCall;
      out.a = src(ins.operands[0], Type::kU64);
      for (std::uint32_t f : address_taken()) {
        const ptx::Function& fn = module_->functions[f];
        if (fn.params.size() != ins.call_args.size() || fn.returns.size() != ins.call_results.size()) continue;
        info.targets.emplace_back(f, add_call(direct_call(ins, callee(f))));
      }
      out.aux = add_call(std::move(info));
      return;
    }
    if (ins.operands.empty() || ins.operands[0].kind != OperandKind::kSymbol ||
        ins.operands[0].symbol.kind != SymbolKind::kFunction) {
      unsupported("a call through something other than a function name or a register");
    }
    const ptx::Function& target = module_->functions[ins.operands[0].symbol.index];
    CallInfo info;
    out.ctl = Ctl::kCall;
    if (target.is_declaration) {
      switch (ptx::runtime_function(target.name)) {  // the one list, shared with the linker
        case ptx::RuntimeFunction::kVprintf: info.builtin = CallInfo::Builtin::kVprintf; break;
        case ptx::RuntimeFunction::kAssertFail: info.builtin = CallInfo::Builtin::kAssertFail; break;
        case ptx::RuntimeFunction::kMalloc: info.builtin = CallInfo::Builtin::kMalloc; break;
        case ptx::RuntimeFunction::kAlignedMalloc: info.builtin = CallInfo::Builtin::kAlignedMalloc; break;
        case ptx::RuntimeFunction::kFree: info.builtin = CallInfo::Builtin::kFree; break;
        case ptx::RuntimeFunction::kSetConditional: info.builtin = CallInfo::Builtin::kSetConditional; break;
        case ptx::RuntimeFunction::kCdpParamBuffer: info.builtin = CallInfo::Builtin::kCdpParamBuffer; break;
        case ptx::RuntimeFunction::kCdpParamBufferV1: info.builtin = CallInfo::Builtin::kCdpParamBufferV1; break;
        case ptx::RuntimeFunction::kCdpLaunch: info.builtin = CallInfo::Builtin::kCdpLaunch; break;
        case ptx::RuntimeFunction::kCdpLaunchV1: info.builtin = CallInfo::Builtin::kCdpLaunchV1; break;
        case ptx::RuntimeFunction::kCdpNoError: info.builtin = CallInfo::Builtin::kCdpNoError; break;
        case ptx::RuntimeFunction::kCdpStreamCreate: info.builtin = CallInfo::Builtin::kCdpStreamCreate; break;
        case ptx::RuntimeFunction::kCdpGetDevice: info.builtin = CallInfo::Builtin::kCdpGetDevice; break;
        case ptx::RuntimeFunction::kNone:
          if (ptx::device_runtime_name(target.name)) {
            unsupported(fmt::format("the device runtime call `{}` (dynamic parallelism): warpscope runs device-side "
                                    "kernel launches (cudaGetParameterBuffer, cudaLaunchDevice), "
                                    "cudaGetLastError, cudaPeekAtLastError, cudaStreamCreateWithFlags, cudaStreamDestroy "
                                    "and cudaGetDevice, not this one",
                                    target.name));
          }
          unsupported(fmt::format("a call to the undefined function `{}`", target.name));
      }
      // Parameter buffers come from the device heap (lane by lane, CTA order, one host thread).
      if (info.builtin == CallInfo::Builtin::kCdpParamBuffer || info.builtin == CallInfo::Builtin::kCdpParamBufferV1)
        img_->uses_heap = true;
      if (info.builtin == CallInfo::Builtin::kVprintf) img_->uses_printf = true;
      if (info.builtin == CallInfo::Builtin::kMalloc || info.builtin == CallInfo::Builtin::kAlignedMalloc ||
          info.builtin == CallInfo::Builtin::kFree) {
        img_->uses_heap = true;
      }
      for (const auto& a : ins.call_args) {
        const ParamRef r = param_ref(a);
        CallInfo::Copy c;
        c.caller_off = r.frame_off;
        c.caller_slot = r.slot;
        c.bytes = r.bytes;
        info.args.push_back(c);
      }
      for (const auto& a : ins.call_results) {
        const ParamRef r = param_ref(a);
        CallInfo::Copy c;
        c.caller_off = r.frame_off;
        c.caller_slot = r.slot;
        c.bytes = r.bytes;
        info.results.push_back(c);
      }
      out.aux = add_call(std::move(info));
      return;
    }
    out.aux = add_call(direct_call(ins, callee(ins.operands[0].symbol.index)));
  }

  void decode_barrier(const ptx::Instruction& ins, Inst& out) {
    const auto& ops = ins.operands;
    out.ctl = Ctl::kBar;
    if (ins.op == Opcode::kBarSync) {
      out.aux = static_cast<std::uint32_t>(BarKind::kSync);
      out.a = src(ops[0], Type::kU32);
      if (ops.size() > 1) out.b = src(ops[1], Type::kU32);
      // bar.sync is barrier.sync.aligned; barrier.sync without .aligned is per thread.
      if (ins.aligned || ins.text.rfind("bar.", 0) == 0 || ins.text.rfind("bar ", 0) == 0) out.flags |= kFlagAligned;
    } else if (ins.op == Opcode::kBarArrive) {
      out.aux = static_cast<std::uint32_t>(BarKind::kArrive);
      out.a = src(ops[0], Type::kU32);
      if (ops.size() > 1) out.b = src(ops[1], Type::kU32);
      out.flags |= kFlagAligned;
    } else {
      out.aux = static_cast<std::uint32_t>(BarKind::kRed);
      out.d = dst(ops[0]);
      out.a = src(ops[1], Type::kU32);
      const ptx::Operand& p = ops.back();
      if (ops.size() > 3) out.b = src(ops[2], Type::kU32);
      out.c = src(p, Type::kPred);
      if (p.negate) out.flags |= kFlagNegC;
      out.aux2 = static_cast<std::uint32_t>(ins.reduce);
      if (ins.reduce != ptx::ReduceOp::kPopc && ins.reduce != ptx::ReduceOp::kAnd && ins.reduce != ptx::ReduceOp::kOr) {
        unsupported("bar.red with an operation other than popc, and, or");
      }
      out.flags |= kFlagAligned;
    }
  }

  void finish() {
    img_->num_slots = next_slot_;
    const ptx::Function& k = module_->functions[kernel_];
    for (const auto& p : k.params) {
      img_->params.push_back(ParamInfo{p.name, p.size, static_cast<std::size_t>(param_align(p))});
      img_->param_offsets.push_back(p.offset);
    }
    img_->param_bytes = k.param_bytes;
    // Every slot an operand names must exist: a final check of the decoder's own bookkeeping.
    for (const Inst& in : img_->code) {
      for (std::uint32_t s : {in.guard, in.d, in.d2, in.a, in.b, in.c, in.e, in.v[0], in.v[1], in.v[2], in.v[3]}) {
        if (s != kNoSlot && s >= img_->num_slots) fail(ErrorKind::kInternal, "decoder produced slot {} of {}", s, img_->num_slots);
      }
    }
  }

  const std::vector<std::uint64_t>& var_addr_;
  std::uint32_t kernel_;
  std::unique_ptr<KernelImage> img_;
  std::map<std::uint32_t, std::uint32_t> func_of_ir_;
  std::map<std::uint32_t, std::set<std::uint32_t>> edges_;
  std::optional<std::vector<std::uint32_t>> address_taken_;
  std::vector<const ptx::Variable*> shared_vars_;
  std::map<const ptx::Variable*, std::uint64_t> shared_off_;
  std::vector<std::map<std::uint32_t, std::uint64_t>> frame_var_off_;
  std::map<std::uint64_t, std::uint32_t> consts_;
  std::map<std::pair<int, int>, std::uint32_t> sregs_;
  std::uint32_t reg_end_ = 0;
  std::uint32_t next_slot_ = 0;
  std::uint32_t scratch_ = kNoSlot;
  std::uint32_t cur_ = 0;
};

}  // namespace

std::unique_ptr<KernelImage> decode_kernel(const ptx::Module& module, std::uint32_t function_index,
                                           const std::vector<std::uint64_t>& variable_addresses) {
  KernelDecoder d(module, function_index, variable_addresses);
  return d.run();
}

}  // namespace warpscope::exec
