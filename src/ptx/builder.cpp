#include "ptx/builder.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "common/error.hpp"
#include "ptx/opcodes.hpp"

namespace warpscope::ptx {

namespace {

// Resource bounds, so that hostile input cannot make the builder allocate without limit.
constexpr std::uint64_t kWarpSize = 32;  // WARP_SZ
constexpr std::uint64_t kMaxRegistersPerModule = 1u << 20;
constexpr std::uint64_t kMaxInitBytesPerModule = 64u << 20;

using SynOperand = syntax::Operand;
using SynKind = syntax::Operand::Kind;

struct SpecialName {
  std::string_view name;
  SpecialReg reg;
  bool xyz;  // takes .x/.y/.z
};

constexpr SpecialName kSpecials[] = {
    {"tid", SpecialReg::kTid, true},
    {"ntid", SpecialReg::kNtid, true},
    {"ctaid", SpecialReg::kCtaid, true},
    {"nctaid", SpecialReg::kNctaid, true},
    {"laneid", SpecialReg::kLaneid, false},
    {"warpid", SpecialReg::kWarpid, false},
    {"nwarpid", SpecialReg::kNwarpid, false},
    {"smid", SpecialReg::kSmid, false},
    {"nsmid", SpecialReg::kNsmid, false},
    {"gridid", SpecialReg::kGridid, false},
    {"lanemask_eq", SpecialReg::kLanemaskEq, false},
    {"lanemask_lt", SpecialReg::kLanemaskLt, false},
    {"lanemask_le", SpecialReg::kLanemaskLe, false},
    {"lanemask_gt", SpecialReg::kLanemaskGt, false},
    {"lanemask_ge", SpecialReg::kLanemaskGe, false},
    {"clock", SpecialReg::kClock, false},
    {"clock64", SpecialReg::kClock64, false},
    {"clock_hi", SpecialReg::kClockHi, false},
    {"globaltimer", SpecialReg::kGlobaltimer, false},
    {"globaltimer_lo", SpecialReg::kGlobaltimerLo, false},
    {"globaltimer_hi", SpecialReg::kGlobaltimerHi, false},
    {"dynamic_smem_size", SpecialReg::kDynamicSmemSize, false},
    {"total_smem_size", SpecialReg::kTotalSmemSize, false},
    {"aggr_smem_size", SpecialReg::kAggrSmemSize, false},
    {"clusterid", SpecialReg::kClusterid, true},
    {"nclusterid", SpecialReg::kNclusterid, true},
    {"cluster_ctaid", SpecialReg::kClusterCtaid, true},
    {"cluster_nctaid", SpecialReg::kClusterNctaid, true},
    {"cluster_ctarank", SpecialReg::kClusterCtarank, false},
    {"cluster_nctarank", SpecialReg::kClusterNctarank, false},
    {"is_explicit_cluster", SpecialReg::kIsExplicitCluster, false},
    {"reserved_smem_offset_begin", SpecialReg::kReservedSmemOffsetBegin, false},
    {"reserved_smem_offset_end", SpecialReg::kReservedSmemOffsetEnd, false},
    {"reserved_smem_offset_cap", SpecialReg::kReservedSmemOffsetCap, false},
    {"current_graph_exec", SpecialReg::kCurrentGraphExec, false},
};

/// Parses `%tid.x`, `%laneid`, `%envreg3`, `%pm0`; nullopt if the name is no special register.
std::optional<std::pair<SpecialReg, std::uint8_t>> special_register(std::string_view name) {
  if (!name.starts_with('%')) return std::nullopt;
  name.remove_prefix(1);
  std::string_view base = name, comp;
  if (auto dot = name.find('.'); dot != std::string_view::npos) {
    base = name.substr(0, dot);
    comp = name.substr(dot + 1);
  }
  for (const auto& s : kSpecials) {
    if (s.name != base) continue;
    if (!s.xyz) {
      if (!comp.empty()) return std::nullopt;
      return std::pair{s.reg, std::uint8_t{0}};
    }
    if (comp == "x") return std::pair{s.reg, std::uint8_t{0}};
    if (comp == "y") return std::pair{s.reg, std::uint8_t{1}};
    if (comp == "z") return std::pair{s.reg, std::uint8_t{2}};
    return std::nullopt;
  }
  auto numbered = [&](std::string_view prefix, SpecialReg r, unsigned limit)
      -> std::optional<std::pair<SpecialReg, std::uint8_t>> {
    if (!comp.empty() || !base.starts_with(prefix) || base.size() == prefix.size() ||
        base.size() > prefix.size() + 2)
      return std::nullopt;
    unsigned n = 0;
    for (char c : base.substr(prefix.size())) {
      if (c < '0' || c > '9') return std::nullopt;
      n = n * 10 + static_cast<unsigned>(c - '0');
    }
    if (n >= limit) return std::nullopt;
    return std::pair{r, static_cast<std::uint8_t>(n)};
  };
  if (auto r = numbered("envreg", SpecialReg::kEnvreg, 32)) return r;
  if (auto r = numbered("pm", SpecialReg::kPm, 8)) return r;
  if (base.ends_with("_64")) {  // %pm0_64 .. %pm7_64
    const std::string_view pm = base.substr(0, base.size() - 3);
    base = pm;
    if (auto r = numbered("pm", SpecialReg::kPm64, 8)) return r;
  }
  if (auto r = numbered("reserved_smem_offset_", SpecialReg::kReservedSmemOffset, 2)) return r;
  return std::nullopt;
}

std::uint64_t product(const std::vector<std::uint64_t>& dims) {
  std::uint64_t n = 1;
  for (auto d : dims) n *= d;
  return n;
}

class Builder {
 public:
  Builder(const syntax::Module& syn, std::string_view origin) : syn_(syn), origin_(origin) {}

  Module run() {
    mod_.origin = std::string(origin_);
    mod_.version_major = syn_.version_major;
    mod_.version_minor = syn_.version_minor;
    mod_.target = syn_.target;
    mod_.address_size = syn_.address_size;
    files();
    // Declare every module variable and function first, so that initializers and calls may
    // name symbols defined later in the text.
    for (const auto& d : syn_.variables) declare_module_variable(d);
    for (const auto& f : syn_.functions) declare_function(f);
    for (std::size_t i = 0; i < syn_.variables.size(); ++i)
      fill_init(mod_.variables[i], syn_.variables[i]);
    for (std::size_t i = 0; i < syn_.functions.size(); ++i)
      if (syn_.functions[i].has_body) body(mod_.functions[i], syn_.functions[i]);
    return std::move(mod_);
  }

 private:
  template <class... Args>
  [[noreturn]] void error(PtxPos p, fmt::format_string<Args...> f, Args&&... args) const {
    fail(ErrorKind::kParse, "{}:{}:{}: {}", origin_, p.line, p.column,
         fmt::format(f, std::forward<Args>(args)...));
  }
  template <class... Args>
  [[noreturn]] void unsupported(PtxPos p, fmt::format_string<Args...> f, Args&&... args) const {
    fail(ErrorKind::kUnsupported, "{}:{}:{}: {}", origin_, p.line, p.column,
         fmt::format(f, std::forward<Args>(args)...));
  }

  // ---- module level
  void files() {
    std::vector<syntax::File> sorted = syn_.files;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const auto& a, const auto& b) { return a.number < b.number; });
    for (const auto& f : sorted) {
      if (file_index_.contains(f.number)) error(f.pos, "file {} declared twice", f.number);
      file_index_[f.number] = static_cast<std::uint32_t>(mod_.files.size());
      mod_.files.push_back(SourceFile{f.number, f.path, f.timestamp, f.size});
    }
  }

  Variable make_variable(const syntax::Declaration& d) {
    Variable v;
    v.name = d.name;
    v.space = d.space;
    v.type = d.type;
    v.vec = d.vec;
    v.align = d.align;
    v.dims = d.dims;
    v.unsized = d.unsized;
    v.linkage = d.linkage;
    v.managed = d.managed;
    v.pos = d.pos;
    if (d.type == Type::kPred) error(d.pos, "variables of type .pred are not addressable");
    if (d.is_range) error(d.pos, "register ranges are only allowed for .reg");
    if (d.unsized && d.has_init && d.init_is_list) {
      // `.b8 x[] = {...}`: the first dimension comes from the initializer.
      std::uint64_t inner = product(d.dims) * d.vec;
      std::uint64_t n = inner == 0 ? 0 : (d.init.size() + inner - 1) / inner;
      v.dims.insert(v.dims.begin(), n);
      v.unsized = false;
    }
    v.size = v.unsized ? 0 : type_bytes(d.type) * d.vec * product(v.dims);
    return v;
  }

  void declare_module_variable(const syntax::Declaration& d) {
    if (d.space == StateSpace::kSharedCluster || d.space == StateSpace::kTex)
      unsupported(d.pos, "'{}' variables are not supported", to_string(d.space));
    if (d.has_init && d.space != StateSpace::kGlobal && d.space != StateSpace::kConst)
      error(d.pos, "initializer not allowed for .{} variables", to_string(d.space));
    if (d.unsized && !d.has_init && !(d.space == StateSpace::kShared && d.linkage == Linkage::kExtern))
      error(d.pos, "array '{}' has no size", d.name);
    if (d.opaque == OpaqueKind::kSamplerRef)
      unsupported(d.pos, "'.samplerref' variables (separate samplers: the independent texturing mode) are not supported");
    if (d.opaque != OpaqueKind::kNone) {
      const char* what = d.opaque == OpaqueKind::kTexRef ? ".texref" : ".surfref";
      if (d.space != StateSpace::kGlobal) error(d.pos, "'{}' variables must be .global", what);
      if (d.has_init) unsupported(d.pos, "initializers of '{}' variables are not supported", what);
      if (!d.dims.empty() || d.unsized || d.vec != 1) unsupported(d.pos, "arrays of '{}' variables are not supported", what);
      if (d.linkage == Linkage::kExtern) unsupported(d.pos, "'.extern {}' variables are not supported", what);
    }
    Variable v = make_variable(d);
    v.opaque = d.opaque;
    if (module_vars_.contains(d.name)) error(d.pos, "'{}' declared twice", d.name);
    module_vars_[d.name] = static_cast<std::uint32_t>(mod_.variables.size());
    mod_.variables.push_back(std::move(v));
  }

  Param make_param(const syntax::Declaration& d, std::uint64_t& offset) {
    Param p;
    p.name = d.name;
    p.space = d.space;
    p.type = d.type;
    p.align = d.align;
    p.dims = d.dims;
    p.ptr_space = d.ptr_space;
    p.ptr_align = d.ptr_align;
    p.pos = d.pos;
    if (d.unsized) error(d.pos, "parameter '{}' has no size", d.name);
    if (d.vec != 1) unsupported(d.pos, "vector parameters are not supported");
    p.size = type_bytes(d.type) * product(d.dims);
    std::uint64_t align = p.align != 0 ? p.align : std::max<std::uint32_t>(type_bytes(d.type), 1);
    offset = (offset + align - 1) / align * align;
    p.offset = offset;
    offset += p.size;
    return p;
  }

  void declare_function(const syntax::Function& sf) {
    Function f;
    f.name = sf.name;
    f.kind = sf.kind;
    f.linkage = sf.linkage;
    f.is_declaration = !sf.has_body;
    f.maxntid = sf.maxntid;
    f.reqntid = sf.reqntid;
    f.reqnctapercluster = sf.reqnctapercluster;
    f.minnctapersm = sf.minnctapersm;
    f.maxnctapersm = sf.maxnctapersm;
    f.maxnreg = sf.maxnreg;
    f.maxclusterrank = sf.maxclusterrank;
    f.noreturn = sf.noreturn;
    f.explicitcluster = sf.explicitcluster;
    f.pragmas = sf.pragmas;
    f.pos = sf.pos;
    if (sf.kind == FunctionKind::kEntry && !sf.returns.empty())
      error(sf.pos, "kernels have no return values");
    std::uint64_t roff = 0;
    for (const auto& d : sf.returns) f.returns.push_back(make_param(d, roff));
    std::uint64_t off = 0;
    for (const auto& d : sf.params) f.params.push_back(make_param(d, off));
    f.param_bytes = off;
    auto idx = static_cast<std::uint32_t>(mod_.functions.size());
    auto it = functions_.find(sf.name);
    if (it == functions_.end()) {
      functions_[sf.name] = idx;
    } else if (sf.has_body) {
      if (!mod_.functions[it->second].is_declaration) error(sf.pos, "function '{}' defined twice", sf.name);
      it->second = idx;
    }
    if (module_vars_.contains(sf.name)) error(sf.pos, "'{}' is both a variable and a function", sf.name);
    mod_.functions.push_back(std::move(f));
  }

  // ---- initializers
  std::optional<SymbolRef> module_symbol(const std::string& name) const {
    if (auto it = module_vars_.find(name); it != module_vars_.end())
      return SymbolRef{SymbolKind::kModuleVar, it->second};
    if (auto it = functions_.find(name); it != functions_.end())
      return SymbolRef{SymbolKind::kFunction, it->second};
    return std::nullopt;
  }

  void store(std::vector<std::uint8_t>& bytes, std::uint64_t offset, std::uint64_t value,
             std::uint32_t n) {
    for (std::uint32_t k = 0; k < n && k < 8; ++k)
      bytes[offset + k] = static_cast<std::uint8_t>(value >> (8 * k));
  }

  void fill_init(Variable& v, const syntax::Declaration& d) {
    if (!d.has_init) return;
    std::uint32_t eb = type_bytes(d.type);
    if (eb == 0 || eb > 8) unsupported(d.pos, "initializers of type .{} are not supported", to_string(d.type));
    std::uint64_t count = v.size / eb;
    if (d.init.size() > count)
      error(d.pos, "initializer of '{}' has {} values for {} elements", d.name, d.init.size(), count);
    if (v.size > kMaxInitBytesPerModule - init_bytes_)
      unsupported(d.pos, "initialized data larger than {} bytes", kMaxInitBytesPerModule);
    init_bytes_ += v.size;
    v.has_init = true;
    v.init.assign(v.size, 0);
    bool f32 = d.type == Type::kF32, f64 = d.type == Type::kF64;
    bool half = d.type == Type::kF16 || d.type == Type::kBF16;
    for (std::size_t i = 0; i < d.init.size(); ++i) {
      const auto& iv = d.init[i];
      std::uint64_t off = i * eb;
      if (iv.kind != syntax::InitValue::Kind::kImm) {
        auto sym = module_symbol(iv.symbol);
        if (!sym) error(iv.pos, "undefined symbol '{}' in initializer", iv.symbol);
        if (eb != 4 && eb != 8) error(iv.pos, "an address needs a 4- or 8-byte element");
        v.relocations.push_back(Relocation{off, eb, *sym, iv.addend,
                                           iv.kind == syntax::InitValue::Kind::kGeneric});
        continue;
      }
      std::uint64_t bits = iv.imm;
      switch (iv.imm_kind) {
        case ImmKind::kInt:
          if (f32) {
            bits = std::bit_cast<std::uint32_t>(static_cast<float>(static_cast<std::int64_t>(iv.imm)));
          } else if (f64) {
            bits = std::bit_cast<std::uint64_t>(static_cast<double>(static_cast<std::int64_t>(iv.imm)));
          } else if (half && iv.imm != 0) {
            unsupported(iv.pos, "integer initializers for .{} are not supported", to_string(d.type));
          }
          break;
        case ImmKind::kF32:
          if (f64) {
            bits = std::bit_cast<std::uint64_t>(
                static_cast<double>(std::bit_cast<float>(static_cast<std::uint32_t>(iv.imm))));
          } else if (eb != 4) {
            error(iv.pos, "0f literal in a {}-byte initializer", eb);
          }
          break;
        case ImmKind::kF64:
          if (f32) {
            bits = std::bit_cast<std::uint32_t>(static_cast<float>(std::bit_cast<double>(iv.imm)));
          } else if (eb != 8) {
            error(iv.pos, "f64 literal in a {}-byte initializer", eb);
          }
          break;
      }
      store(v.init, off, bits, eb);
    }
  }

  // ---- function bodies
  struct Frame {
    std::unordered_map<std::string, RegId> regs;
    std::unordered_map<std::string, std::uint32_t> vars;
  };

  struct FnState {
    Function* fn = nullptr;
    std::vector<Frame> frames;
    // Labels are scoped like registers: a label defined inside `{ }` (an inline asm block, such as
    // an mbarrier wait loop nvcc inlines twice) is seen from that scope and the scopes inside it.
    // "scope id/name" -> Function::labels index; scopes are numbered in text order (root 0).
    std::unordered_map<std::string, std::uint32_t> labels;
    std::vector<PtxPos> first_use;                               // per label: first reference
    std::vector<std::uint32_t> scope_ids{0};                     // the open scopes, innermost last
    std::uint32_t next_scope = 1;
    std::unordered_map<std::string, std::vector<std::uint32_t>> defined_in;  // name -> scopes defining it
    std::unordered_set<std::string> prototypes;
    // `name: .branchtargets L0, L1, ...;` -> its labels (brx.idx's second operand names one).
    std::unordered_map<std::string, std::vector<std::string>> branch_lists;
    SourceLoc loc;
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, std::uint32_t> site_of_loc;
  };

  RegId add_register(FnState& st, const std::string& name, Type type, PtxPos pos) {
    if (++registers_ > kMaxRegistersPerModule)
      unsupported(pos, "more than {} registers in one module", kMaxRegistersPerModule);
    auto& frame = st.frames.back();
    auto id = static_cast<RegId>(st.fn->registers.size());
    if (!frame.regs.emplace(name, id).second) error(pos, "register '{}' declared twice", name);
    st.fn->registers.push_back(Register{name, type, static_cast<std::uint32_t>(st.frames.size() - 1), pos});
    return id;
  }

  void body(Function& fn, const syntax::Function& sf) {
    FnState st;
    st.fn = &fn;
    st.frames.emplace_back();
    for (std::size_t i = 0; i < fn.returns.size(); ++i)
      if (fn.returns[i].space == StateSpace::kReg)
        fn.returns[i].reg = add_register(st, fn.returns[i].name, fn.returns[i].type, fn.returns[i].pos);
    for (std::size_t i = 0; i < fn.params.size(); ++i)
      if (fn.params[i].space == StateSpace::kReg)
        fn.params[i].reg = add_register(st, fn.params[i].name, fn.params[i].type, fn.params[i].pos);
    for (std::size_t i = 0; i < fn.params.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (fn.params[i].name == fn.params[j].name && fn.params[i].name != "_")
          error(fn.params[i].pos, "parameter '{}' declared twice", fn.params[i].name);
    site_of_loc_reset(st);
    // Which scopes define which labels (a reference may come before the definition).
    {
      std::vector<std::uint32_t> open{0};
      std::uint32_t next = 1;
      for (const auto& stmt : sf.body) {
        if (std::holds_alternative<syntax::OpenScope>(stmt)) open.push_back(next++);
        if (std::holds_alternative<syntax::CloseScope>(stmt) && open.size() > 1) open.pop_back();
        if (const auto* l = std::get_if<syntax::Label>(&stmt)) st.defined_in[l->name].push_back(open.back());
      }
    }
    for (const auto& stmt : sf.body) {
      std::visit([&](const auto& s) { statement(st, s); }, stmt);
    }
    // Every referenced label must be defined.
    for (std::size_t i = 0; i < fn.labels.size(); ++i)
      if (fn.labels[i].target == kNone32) error(st.first_use[i], "undefined label '{}'", fn.labels[i].name);
    for (auto& in : fn.instructions)
      for (auto& o : in.operands) {
        if (o.kind == OperandKind::kLabel) o.target = fn.labels[o.label].target;
        if (in.op == Opcode::kBrxIdx)  // the .branchtargets list, a vector of labels
          for (auto& e : o.elements)
            if (e.kind == OperandKind::kLabel) e.target = fn.labels[e.label].target;
      }
  }

  void site_of_loc_reset(FnState& st) { st.site_of_loc.clear(); }

  void statement(FnState& st, const syntax::OpenScope&) {
    st.frames.emplace_back();
    st.scope_ids.push_back(st.next_scope++);
  }
  void statement(FnState& st, const syntax::CloseScope& c) {
    if (st.frames.size() <= 1) error(c.pos, "unbalanced '}}'");
    st.frames.pop_back();
    st.scope_ids.pop_back();
  }

  /// The key of the label `name` as seen from the current scope: the innermost open scope that
  /// defines it, else the current scope (an undefined label, reported at the end).
  std::string label_key(const FnState& st, const std::string& name) const {
    auto it = st.defined_in.find(name);
    std::uint32_t scope = st.scope_ids.back();
    if (it != st.defined_in.end()) {
      for (auto s = st.scope_ids.rbegin(); s != st.scope_ids.rend(); ++s) {
        if (std::find(it->second.begin(), it->second.end(), *s) != it->second.end()) {
          scope = *s;
          break;
        }
      }
    }
    return std::to_string(scope) + "/" + name;
  }
  void statement(FnState& st, const syntax::Pragma& p) {
    for (const auto& v : p.values) st.fn->pragmas.push_back(v);
  }
  void statement(FnState& st, const syntax::Prototype& p) {
    if (p.branch_targets) {
      if (!st.branch_lists.emplace(p.name, p.targets).second) error(p.pos, "'.branchtargets' '{}' declared twice", p.name);
      return;
    }
    st.prototypes.insert(p.name);
  }

  void statement(FnState& st, const syntax::Label& l) {
    auto& fn = *st.fn;
    const std::string key = std::to_string(st.scope_ids.back()) + "/" + l.name;
    auto it = st.labels.find(key);
    auto here = static_cast<std::uint32_t>(fn.instructions.size());
    if (it == st.labels.end()) {
      st.labels[key] = static_cast<std::uint32_t>(fn.labels.size());
      fn.labels.push_back(Label{l.name, here, l.pos});
      st.first_use.push_back(l.pos);
      return;
    }
    Label& lab = fn.labels[it->second];
    if (lab.target != kNone32) error(l.pos, "label '{}' defined twice", l.name);
    lab.target = here;
    lab.pos = l.pos;
  }

  void statement(FnState& st, const syntax::Loc& l) {
    auto file_of = [&](std::uint32_t number, PtxPos pos) {
      auto it = file_index_.find(number);
      if (it == file_index_.end()) error(pos, "'.loc' names file {} which no '.file' declares", number);
      return it->second;
    };
    SourceLoc loc{file_of(l.file, l.pos), l.line, l.column, kNone32};
    if (l.inlined) {
      SourceLoc call{file_of(l.at_file, l.pos), l.at_line, l.at_column, kNone32};
      if (auto it = st.site_of_loc.find({call.file, call.line, call.column}); it != st.site_of_loc.end())
        call.inlined_at = it->second;
      auto key = std::tuple{call.file, call.line, call.column, call.inlined_at, l.function_name};
      auto found = sites_.find(key);
      if (found == sites_.end()) {
        InlineSite site;
        site.call_site = call;
        site.callee_label = l.function_name;
        if (auto s = syn_.debug_strings.find(l.function_name); s != syn_.debug_strings.end())
          site.callee = s->second;
        found = sites_.emplace(key, static_cast<std::uint32_t>(mod_.inline_sites.size())).first;
        mod_.inline_sites.push_back(std::move(site));
      }
      loc.inlined_at = found->second;
      st.site_of_loc[{loc.file, loc.line, loc.column}] = loc.inlined_at;
    } else {
      st.site_of_loc.erase({loc.file, loc.line, loc.column});
    }
    st.loc = loc;
    if (!st.fn->loc.valid()) st.fn->loc = loc;
  }

  void statement(FnState& st, const syntax::Declaration& d) {
    if (d.space == StateSpace::kReg) {
      if (d.vec != 1) unsupported(d.pos, "vector registers are not supported");
      if (d.has_init) error(d.pos, "registers cannot be initialized");
      if (!d.dims.empty() || d.unsized) error(d.pos, "registers cannot be arrays");
      if (d.is_range) {
        for (std::uint32_t k = 0; k < d.range; ++k) add_register(st, d.name + std::to_string(k), d.type, d.pos);
      } else {
        add_register(st, d.name, d.type, d.pos);
      }
      return;
    }
    if (d.space != StateSpace::kLocal && d.space != StateSpace::kShared && d.space != StateSpace::kParam)
      unsupported(d.pos, "'.{}' variables inside a function are not supported", to_string(d.space));
    if (d.has_init) error(d.pos, "initializer not allowed for .{} variables", to_string(d.space));
    if (d.unsized && !(d.space == StateSpace::kShared && d.linkage == Linkage::kExtern))
      error(d.pos, "array '{}' has no size", d.name);
    Variable v = make_variable(d);
    v.scope = static_cast<std::uint32_t>(st.frames.size() - 1);
    auto idx = static_cast<std::uint32_t>(st.fn->variables.size());
    if (!st.frames.back().vars.emplace(d.name, idx).second) error(d.pos, "'{}' declared twice", d.name);
    st.fn->variables.push_back(std::move(v));
  }

  // ---- operands
  RegId find_register(const FnState& st, const std::string& name) const {
    for (auto f = st.frames.rbegin(); f != st.frames.rend(); ++f)
      if (auto it = f->regs.find(name); it != f->regs.end()) return it->second;
    return kNoReg;
  }

  std::optional<SymbolRef> find_symbol(const FnState& st, const std::string& name) const {
    for (auto f = st.frames.rbegin(); f != st.frames.rend(); ++f)
      if (auto it = f->vars.find(name); it != f->vars.end()) return SymbolRef{SymbolKind::kFunctionVar, it->second};
    for (std::size_t i = 0; i < st.fn->params.size(); ++i)
      if (st.fn->params[i].name == name && st.fn->params[i].space == StateSpace::kParam)
        return SymbolRef{SymbolKind::kParam, static_cast<std::uint32_t>(i)};
    for (std::size_t i = 0; i < st.fn->returns.size(); ++i)
      if (st.fn->returns[i].name == name && st.fn->returns[i].space == StateSpace::kParam)
        return SymbolRef{SymbolKind::kReturn, static_cast<std::uint32_t>(i)};
    return module_symbol(name);
  }

  RegId need_register(const FnState& st, const std::string& name, PtxPos pos) const {
    RegId r = find_register(st, name);
    if (r == kNoReg) error(pos, "undefined register '{}'", name);
    return r;
  }

  /// The elements of a vector operand or of an address's coordinate list: a name is a register,
  /// anything else a value.
  void add_elements(const FnState& st, const SynOperand& s, Operand& o) {
    for (const auto& e : s.elements) {
      if (e.kind == SynKind::kName) {
        Operand r;
        r.kind = OperandKind::kReg;
        r.reg = need_register(st, e.name, e.pos);
        r.pos = e.pos;
        o.elements.push_back(r);
      } else {
        o.elements.push_back(value(st, e));
      }
    }
  }

  Operand value(const FnState& st, const SynOperand& s) {
    Operand o;
    o.pos = s.pos;
    switch (s.kind) {
      case SynKind::kSink: o.kind = OperandKind::kSink; return o;
      case SynKind::kImm:
        o.kind = OperandKind::kImm;
        o.imm_kind = s.imm_kind;
        o.imm = s.imm;
        return o;
      case SynKind::kList: error(s.pos, "a parenthesised list is only allowed in call");
      case SynKind::kVector:
        o.kind = OperandKind::kVector;
        add_elements(st, s, o);
        return o;
      case SynKind::kAddress: {
        o.kind = OperandKind::kAddress;
        o.offset = s.offset;
        add_elements(st, s, o);  // texture/surface coordinates
        if (s.name.empty()) return o;
        if (RegId r = find_register(st, s.name); r != kNoReg) {
          o.addr_base = AddressBase::kReg;
          o.reg = r;
          return o;
        }
        auto sym = find_symbol(st, s.name);
        if (!sym) {
          if (s.name.starts_with('%')) error(s.pos, "undefined register '{}'", s.name);
          error(s.pos, "undefined symbol '{}'", s.name);
        }
        o.addr_base = AddressBase::kSymbol;
        o.symbol = *sym;
        return o;
      }
      case SynKind::kName: break;
    }
    if (RegId r = find_register(st, s.name); r != kNoReg) {
      if (s.offset != 0) error(s.pos, "a register cannot take an offset outside brackets");
      o.kind = OperandKind::kReg;
      o.reg = r;
      o.negate = s.negate || s.minus;
      if (s.negate && st.fn->registers[r].type != Type::kPred) error(s.pos, "only predicates can be negated with '!'");
      if (s.minus && st.fn->registers[r].type == Type::kPred) error(s.pos, "a predicate cannot be negated with '-'");
      return o;
    }
    // A video instruction's selector: `%r1.b0`, `%r2.h10`, `%r3.b7654` (checked by the verifier).
    if (const auto dot = s.name.rfind('.'); dot != std::string::npos && dot + 2 < s.name.size() + 1) {
      const std::string sel = s.name.substr(dot + 1);
      const bool sel_form = sel.size() >= 2 && sel.size() <= 5 && (sel[0] == 'b' || sel[0] == 'h') &&
                            sel.find_first_not_of("01234567", 1) == std::string::npos;
      if (RegId r = find_register(st, s.name.substr(0, dot)); r != kNoReg && sel_form) {
        if (s.offset != 0 || s.negate) error(s.pos, "a register with a selector takes no offset or '!'");
        o.kind = OperandKind::kReg;
        o.reg = r;
        o.negate = s.minus;
        o.sel = sel;
        return o;
      }
    }
    if (s.negate || s.minus) error(s.pos, "undefined register '{}'", s.name);
    if (auto sp = special_register(s.name)) {
      if (s.offset != 0) error(s.pos, "a special register cannot take an offset");
      o.kind = OperandKind::kSpecial;
      o.sreg = sp->first;
      o.component = sp->second;
      return o;
    }
    if (s.name.starts_with('%')) error(s.pos, "undefined register '{}'", s.name);
    auto sym = find_symbol(st, s.name);
    if (!sym && s.name == "WARP_SZ") {
      // The predefined identifier WARP_SZ (the built-in warpSize): the warp size, a constant.
      if (s.offset != 0) error(s.pos, "WARP_SZ cannot take an offset");
      o.kind = OperandKind::kImm;
      o.imm_kind = ImmKind::kInt;
      o.imm = kWarpSize;
      return o;
    }
    if (!sym) error(s.pos, "undefined symbol '{}'", s.name);
    o.kind = OperandKind::kSymbol;
    o.symbol = *sym;
    o.offset = s.offset;
    return o;
  }

  Operand label(FnState& st, const SynOperand& s) {
    if (s.kind != SynKind::kName || s.negate || s.offset != 0 || !s.second.empty())
      error(s.pos, "expected a label");
    Operand o;
    o.kind = OperandKind::kLabel;
    o.pos = s.pos;
    const std::string key = label_key(st, s.name);
    auto it = st.labels.find(key);
    if (it == st.labels.end()) {
      it = st.labels.emplace(key, static_cast<std::uint32_t>(st.fn->labels.size())).first;
      st.fn->labels.push_back(Label{s.name, kNone32, s.pos});
      st.first_use.push_back(s.pos);
    }
    o.label = it->second;
    return o;
  }

  std::vector<Operand> call_list(const FnState& st, const SynOperand& s) {
    std::vector<Operand> out;
    for (const auto& e : s.elements) out.push_back(value(st, e));
    return out;
  }

  void call_operands(FnState& st, const syntax::Instruction& s, Instruction& in) {
    const auto& ops = s.operands;
    std::size_t k = 0;
    if (k < ops.size() && ops[k].kind == SynKind::kList) in.call_results = call_list(st, ops[k++]);
    if (k >= ops.size() || ops[k].kind != SynKind::kName || !ops[k].second.empty() || ops[k].negate ||
        ops[k].offset != 0)
      error(s.pos, "call needs a function name or register");
    const SynOperand& target = ops[k++];
    Operand t;
    t.pos = target.pos;
    if (auto it = functions_.find(target.name); it != functions_.end()) {
      t.kind = OperandKind::kSymbol;
      t.symbol = SymbolRef{SymbolKind::kFunction, it->second};
    } else if (RegId r = find_register(st, target.name); r != kNoReg) {
      t.kind = OperandKind::kReg;
      t.reg = r;
    } else {
      error(target.pos, "undefined function '{}'", target.name);
    }
    in.operands.push_back(t);
    if (k < ops.size() && ops[k].kind == SynKind::kList) in.call_args = call_list(st, ops[k++]);
    if (k < ops.size() && ops[k].kind == SynKind::kName && t.kind == OperandKind::kReg) {
      if (!st.prototypes.contains(ops[k].name)) error(ops[k].pos, "undefined prototype '{}'", ops[k].name);
      ++k;
    }
    if (k != ops.size()) error(ops[k].pos, "unexpected operand in call");
  }

  void statement(FnState& st, const syntax::Instruction& s) {
    Instruction in;
    in.text = s.opcode;
    in.ptx = s.pos;
    in.loc = st.loc;
    decode_opcode(s.opcode, in, origin_, s.pos);
    if (s.has_guard) {
      Guard g;
      g.reg = need_register(st, s.guard, s.guard_pos);
      g.negated = s.guard_negated;
      in.guard = g;
    }
    if (in.op == Opcode::kCall) {
      call_operands(st, s, in);
    } else {
      for (std::size_t k = 0; k < s.operands.size(); ++k) {
        const SynOperand& so = s.operands[k];
        if (in.op == Opcode::kBra && k == 0) {
          in.operands.push_back(label(st, so));
          continue;
        }
        if (in.op == Opcode::kBrxIdx && k == 1) {
          // brx.idx index, tlist: tlist names a .branchtargets declared before it.
          auto it = so.kind == SynKind::kName ? st.branch_lists.find(so.name) : st.branch_lists.end();
          if (it == st.branch_lists.end()) error(so.pos, "expected a .branchtargets list declared before brx.idx");
          Operand list;
          list.kind = OperandKind::kVector;
          list.pos = so.pos;
          for (const std::string& name : it->second) {
            SynOperand l = so;
            l.name = name;
            list.elements.push_back(label(st, l));
          }
          in.operands.push_back(std::move(list));
          continue;
        }
        if (!so.second.empty()) {
          if (k != 0) error(so.second_pos, "only the first operand may name a second destination");
          Operand d2;
          d2.kind = OperandKind::kReg;
          d2.reg = need_register(st, so.second, so.second_pos);
          d2.pos = so.second_pos;
          in.dest2 = d2;
        }
        in.operands.push_back(value(st, so));
      }
    }
    st.fn->instructions.push_back(std::move(in));
  }

  const syntax::Module& syn_;
  std::string_view origin_;
  Module mod_;
  std::unordered_map<std::string, std::uint32_t> module_vars_;
  std::unordered_map<std::string, std::uint32_t> functions_;
  std::map<std::uint32_t, std::uint32_t> file_index_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, std::string>, std::uint32_t> sites_;
  std::uint64_t registers_ = 0;
  std::uint64_t init_bytes_ = 0;
};

}  // namespace

Module build_module(const syntax::Module& syn, std::string_view origin) {
  return Builder(syn, origin).run();
}

}  // namespace warpscope::ptx
