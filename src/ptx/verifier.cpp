#include "ptx/verifier.hpp"

#include <algorithm>
#include <functional>
#include <string>

#include "common/error.hpp"
#include "ptx/mma.hpp"

namespace warpscope::ptx {

namespace {

// Operand classes used by the shape table.
//   D  destination register (or `_`)
//   V  register or vector (ld/st/atom data, mov pack/unpack)
//   S  source: register, immediate or special register
//   X  mov/cvta source: S, a symbol's address, or a vector (pack)
//   A  address `[...]`
//   P  predicate register (may be negated when a source)
//   Q  predicate destination
//   L  label
//   I  immediate
//   T  texture/surface address `[h, {coords}]` (h a 64-bit register; coordinates per geometry)
//   H  texture/surface handle `[h]` without coordinates (txq, suq)
//   W  data of tex/tld4/suld/sust: a register or a vector of .vN elements (`{%r1}` for N = 1)
//   G  tex.grad gradients / txq.level LOD: a vector or a source
//   M  address, or a tensor map with coordinates `[tmap, {c0, ...}]` (bulk copies)
//   Z  address or source (a bulk copy's optional mbarrier / cache policy)
//   F  matrix fragment: a vector of registers (or one register), counted by mma_form (mma.hpp)
//   B  a .branchtargets list (brx.idx): the builder made it a vector of labels
// A '?' makes the remaining positions optional.
struct Shape {
  Opcode op;
  const char* pattern;
  bool needs_type;
};

constexpr Shape kShapes[] = {
    {Opcode::kMov, "VX", true},
    {Opcode::kLd, "VA?S", true},
    {Opcode::kLdu, "VA", true},
    {Opcode::kSt, "AV?S", true},
    {Opcode::kCvta, "DX", true},
    {Opcode::kCvt, "DS?S", true},
    {Opcode::kCvtPack, "DSS?S", true},
    {Opcode::kPrefetch, "A", false},
    {Opcode::kPrefetchu, "A", false},
    {Opcode::kIsspacep, "QS", false},
    {Opcode::kAdd, "DSS", true},
    {Opcode::kSub, "DSS", true},
    {Opcode::kAddc, "DSS", true},
    {Opcode::kSubc, "DSS", true},
    {Opcode::kMul, "DSS", true},
    {Opcode::kMad, "DSSS", true},
    {Opcode::kMadc, "DSSS", true},
    {Opcode::kMul24, "DSS", true},
    {Opcode::kMad24, "DSSS", true},
    {Opcode::kSad, "DSSS", true},
    {Opcode::kDiv, "DSS", true},
    {Opcode::kRem, "DSS", true},
    {Opcode::kAbs, "DS", true},
    {Opcode::kNeg, "DS", true},
    {Opcode::kMin, "DSS", true},
    {Opcode::kMax, "DSS", true},
    {Opcode::kPopc, "DS", true},
    {Opcode::kClz, "DS", true},
    {Opcode::kBrev, "DS", true},
    {Opcode::kBfind, "DS", true},
    {Opcode::kBfe, "DSSS", true},
    {Opcode::kBfi, "DSSSS", true},
    {Opcode::kPrmt, "DSSS", true},
    {Opcode::kDp4a, "DSSS", true},
    {Opcode::kDp2a, "DSSS", true},
    {Opcode::kFns, "DSSS", true},
    {Opcode::kBmsk, "DSS", true},
    {Opcode::kSzext, "DSS", true},
    {Opcode::kAnd, "DSS", true},
    {Opcode::kOr, "DSS", true},
    {Opcode::kXor, "DSS", true},
    {Opcode::kNot, "DS", true},
    {Opcode::kCnot, "DS", true},
    {Opcode::kLop3, "DSSSI", true},
    {Opcode::kShl, "DSS", true},
    {Opcode::kShr, "DSS", true},
    {Opcode::kShf, "DSSS", true},
    {Opcode::kFma, "DSSS", true},
    {Opcode::kRcp, "DS", true},
    {Opcode::kSqrt, "DS", true},
    {Opcode::kRsqrt, "DS", true},
    {Opcode::kSin, "DS", true},
    {Opcode::kCos, "DS", true},
    {Opcode::kLg2, "DS", true},
    {Opcode::kEx2, "DS", true},
    {Opcode::kTanh, "DS", true},
    {Opcode::kCopysign, "DSS", true},
    {Opcode::kTestp, "QS", true},
    {Opcode::kSetp, "QSS?P", true},
    {Opcode::kSet, "DSS?P", true},
    {Opcode::kSelp, "DSSP", true},
    {Opcode::kSlct, "DSSS", true},
    {Opcode::kBra, "L", false},
    {Opcode::kBrxIdx, "SB", false},
    {Opcode::kCall, "S", false},  // the callee; checked separately
    {Opcode::kRet, "", false},
    {Opcode::kExit, "", false},
    {Opcode::kTrap, "", false},
    {Opcode::kBrkpt, "", false},
    {Opcode::kBarSync, "S?S", false},
    {Opcode::kBarArrive, "SS", false},
    {Opcode::kBarRed, "DSS?P", true},
    {Opcode::kBarWarpSync, "S", false},
    {Opcode::kMembar, "", false},
    {Opcode::kFence, "?AS", false},
    {Opcode::kAtom, "VAS?S", true},
    {Opcode::kRed, "AV", true},
    {Opcode::kNanosleep, "S", true},
    {Opcode::kShfl, "DSSS?S", true},
    {Opcode::kVote, "DP?S", true},
    {Opcode::kActivemask, "D", true},
    {Opcode::kMatch, "DSS", true},
    {Opcode::kRedux, "DSS", true},
    {Opcode::kElect, "DS", false},
    {Opcode::kBarrierClusterArrive, "", false},
    {Opcode::kBarrierClusterWait, "", false},
    {Opcode::kMapa, "DSS", true},
    {Opcode::kSetmaxnregInc, "I", true},
    {Opcode::kSetmaxnregDec, "I", true},
    {Opcode::kGriddepLaunchDependents, "", false},
    {Opcode::kGriddepWait, "", false},
    {Opcode::kStacksave, "D", true},
    {Opcode::kStackrestore, "S", true},
    {Opcode::kAlloca, "DS?S", true},
    {Opcode::kPmevent, "I", false},
    {Opcode::kCreatepolicy, "D?ZSS", true},
    {Opcode::kGetctarank, "DS", true},
    {Opcode::kStAsync, "AVA", true},
    {Opcode::kRedAsync, "AVA", true},
    {Opcode::kApplypriority, "AS", false},
    {Opcode::kDiscard, "AS", false},
    {Opcode::kTex, "WT?GG", true},
    {Opcode::kTld4, "WT", true},
    {Opcode::kTxq, "DH?S", true},
    {Opcode::kSuld, "WT", true},
    {Opcode::kSust, "TW", true},
    {Opcode::kSured, "TS", true},
    {Opcode::kSuq, "DH", true},
    {Opcode::kIstypep, "QS", false},
    {Opcode::kCpAsync, "AAI?SS", false},
    {Opcode::kCpAsyncCommitGroup, "", false},
    {Opcode::kCpAsyncWaitGroup, "I", false},
    {Opcode::kCpAsyncWaitAll, "", false},
    {Opcode::kCpAsyncMbarrierArrive, "A", false},
    {Opcode::kCpAsyncBulk, "AAS?ZS", false},
    {Opcode::kCpAsyncBulkTensor, "MM?ZGS", false},
    {Opcode::kCpAsyncBulkCommitGroup, "", false},
    {Opcode::kCpAsyncBulkWaitGroup, "I", false},
    {Opcode::kCpReduceAsyncBulk, "MM?SZS", false},
    {Opcode::kCpAsyncBulkPrefetch, "M?GS", false},
    {Opcode::kMbarrierInit, "AS", false},
    {Opcode::kMbarrierArrive, "DA?S", false},
    {Opcode::kMbarrierArriveDrop, "DA?S", false},
    {Opcode::kMbarrierExpectTx, "AS", false},
    {Opcode::kMbarrierCompleteTx, "AS", false},
    {Opcode::kMbarrierTestWait, "QAS", false},
    {Opcode::kMbarrierTryWait, "QAS?S", false},
    {Opcode::kMbarrierPendingCount, "DS", false},
    {Opcode::kMbarrierInval, "A", false},
    {Opcode::kWmmaLoad, "FA?S", false},
    {Opcode::kWmmaStore, "AF?S", false},
    {Opcode::kWmmaMma, "FFFF", false},
    {Opcode::kMma, "FFFF", false},
    {Opcode::kLdmatrix, "FA", false},
    {Opcode::kStmatrix, "AF", false},
    {Opcode::kMovmatrix, "DS", false},
    {Opcode::kWgmmaMma, "FFSS?IIII", false},
    {Opcode::kWgmmaFence, "", false},
    {Opcode::kWgmmaCommit, "", false},
    {Opcode::kWgmmaWait, "I", false},
    {Opcode::kVadd, "DSS?S", true}, {Opcode::kVsub, "DSS?S", true}, {Opcode::kVabsdiff, "DSS?S", true},
    {Opcode::kVmin, "DSS?S", true}, {Opcode::kVmax, "DSS?S", true}, {Opcode::kVshl, "DSS?S", true},
    {Opcode::kVshr, "DSS?S", true}, {Opcode::kVmad, "DSSS", true},  {Opcode::kVset, "DSS?S", true},
    {Opcode::kVadd2, "DSSS", true}, {Opcode::kVsub2, "DSSS", true}, {Opcode::kVavrg2, "DSSS", true},
    {Opcode::kVabsdiff2, "DSSS", true}, {Opcode::kVmin2, "DSSS", true}, {Opcode::kVmax2, "DSSS", true},
    {Opcode::kVset2, "DSSS", true},
    {Opcode::kVadd4, "DSSS", true}, {Opcode::kVsub4, "DSSS", true}, {Opcode::kVavrg4, "DSSS", true},
    {Opcode::kVabsdiff4, "DSSS", true}, {Opcode::kVmin4, "DSSS", true}, {Opcode::kVmax4, "DSSS", true},
    {Opcode::kVset4, "DSSS", true},
};

const Shape* shape_of(Opcode op) {
  for (const auto& s : kShapes)
    if (s.op == op) return &s;
  return nullptr;
}

class Verifier {
 public:
  explicit Verifier(const Module& m) : m_(m) {}

  void run() {
    for (const auto& v : m_.variables)
      for (const auto& r : v.relocations) check_module_symbol(r.symbol, v.pos);
    for (const auto& f : m_.functions) function(f);
  }

 private:
  template <class... Args>
  [[noreturn]] void error(PtxPos p, fmt::format_string<Args...> f, Args&&... args) const {
    if (inst_ != nullptr) {
      fail(ErrorKind::kParse, "{}:{}:{}: '{}': {}", m_.origin, p.line, p.column, inst_->text,
           fmt::format(f, std::forward<Args>(args)...));
    }
    fail(ErrorKind::kParse, "{}:{}:{}: {}", m_.origin, p.line, p.column,
         fmt::format(f, std::forward<Args>(args)...));
  }

  void check_module_symbol(const SymbolRef& s, PtxPos pos) const {
    bool ok = (s.kind == SymbolKind::kModuleVar && s.index < m_.variables.size()) ||
              (s.kind == SymbolKind::kFunction && s.index < m_.functions.size());
    if (!ok) error(pos, "invalid symbol reference");
  }

  void function(const Function& f) {
    fn_ = &f;
    inst_ = nullptr;
    for (const auto& p : f.params)
      if (p.space == StateSpace::kReg && p.reg >= f.registers.size()) error(p.pos, "bad register parameter");
    if (f.is_declaration) {
      if (!f.instructions.empty()) error(f.pos, "a declaration has no body");
      return;
    }
    for (const auto& l : f.labels)
      if (l.target == kNone32 || l.target > f.instructions.size()) error(l.pos, "undefined label '{}'", l.name);
    for (const auto& in : f.instructions) instruction(in);
    inst_ = nullptr;
  }

  const Register& reg(RegId r, PtxPos pos) const {
    if (r >= fn_->registers.size()) error(pos, "undefined register");
    return fn_->registers[r];
  }

  /// `[name, ...]` of a texture or surface instruction: a module's .texref (tex, tld4, txq) or
  /// .surfref (suld, sust, sured, suq) variable itself (unified mode).
  void opaque_operand(const Instruction& in, const Operand& o) const {
    const bool surface = in.op == Opcode::kSuld || in.op == Opcode::kSust || in.op == Opcode::kSured || in.op == Opcode::kSuq;
    const OpaqueKind want = surface ? OpaqueKind::kSurfRef : OpaqueKind::kTexRef;
    if (o.symbol.kind != SymbolKind::kModuleVar || o.symbol.index >= m_.variables.size() ||
        m_.variables[o.symbol.index].opaque != want || o.offset != 0)
      error(o.pos, "'{}' needs a {} variable or a 64-bit register holding an object handle", to_string(in.op),
            surface ? ".surfref" : ".texref");
  }

  void symbol(const SymbolRef& s, PtxPos pos) const {
    bool ok = false;
    switch (s.kind) {
      case SymbolKind::kNone: break;
      case SymbolKind::kModuleVar: ok = s.index < m_.variables.size(); break;
      case SymbolKind::kFunctionVar: ok = s.index < fn_->variables.size(); break;
      case SymbolKind::kParam: ok = s.index < fn_->params.size(); break;
      case SymbolKind::kReturn: ok = s.index < fn_->returns.size(); break;
      case SymbolKind::kFunction: ok = s.index < m_.functions.size(); break;
    }
    if (!ok) error(pos, "undefined symbol");
  }

  bool is_pred(const Operand& o) const {
    return o.kind == OperandKind::kReg && reg(o.reg, o.pos).type == Type::kPred;
  }

  void check_pred(const Operand& o, const char* what) const {
    if (!is_pred(o)) error(o.pos, "{} must be a predicate register", what);
  }

  void source(const Operand& o, bool allow_symbol) const {
    switch (o.kind) {
      case OperandKind::kReg:
        reg(o.reg, o.pos);
        if (o.negate && !is_pred(o) && (inst_ == nullptr || inst_->op != Opcode::kVmad))
          error(o.pos, "only predicates can be negated");
        return;
      case OperandKind::kImm:
      case OperandKind::kSpecial: return;
      case OperandKind::kSymbol:
        if (!allow_symbol) error(o.pos, "a symbol is not allowed here");
        symbol(o.symbol, o.pos);
        return;
      default: error(o.pos, "expected a register or immediate");
    }
  }

  void dest(const Operand& o) const {
    if (o.kind == OperandKind::kSink) return;
    if (o.kind != OperandKind::kReg) error(o.pos, "destination must be a register");
    reg(o.reg, o.pos);
    if (o.negate) error(o.pos, "a destination cannot be negated");
  }

  void vector(const Operand& o, std::size_t want, bool is_dest) const {
    if (o.kind != OperandKind::kVector) error(o.pos, "expected a vector operand");
    if (want != 0 && o.elements.size() != want)
      error(o.pos, "vector has {} elements, the instruction moves {}", o.elements.size(), want);
    for (const auto& e : o.elements) {
      if (e.kind == OperandKind::kSink) continue;
      if (e.kind == OperandKind::kImm && !is_dest) continue;
      if (e.kind != OperandKind::kReg) error(e.pos, "vector elements must be registers");
      reg(e.reg, e.pos);
    }
  }

  void address(const Operand& o) const {
    if (o.kind != OperandKind::kAddress) error(o.pos, "expected an address [..]");
    if (o.addr_base == AddressBase::kReg) {
      const Register& r = reg(o.reg, o.pos);
      if (r.type == Type::kPred || type_bits(r.type) < 32)
        error(o.pos, "address register '{}' must be 32 or 64 bits wide", r.name);
    } else if (o.addr_base == AddressBase::kSymbol) {
      symbol(o.symbol, o.pos);
    }
  }

  void instruction(const Instruction& in) {
    inst_ = &in;
    const Shape* shape = shape_of(in.op);
    if (shape == nullptr) error(in.ptx, "opcode without a verifier rule");
    if (in.guard) {
      Operand g;
      g.kind = OperandKind::kReg;
      g.reg = in.guard->reg;
      g.pos = in.ptx;
      check_pred(g, "a guard");
    }
    if (shape->needs_type && in.type == Type::kNone) error(in.ptx, "missing type");
    if ((in.op == Opcode::kCvt || in.op == Opcode::kSet || in.op == Opcode::kSlct) &&
        in.src_type == Type::kNone)
      error(in.ptx, "needs two types");
    // operand count
    std::string_view pat = shape->pattern;
    std::size_t required = pat.find('?');
    if (required == std::string_view::npos) required = pat.size();
    std::size_t total = pat.size() - (pat.find('?') == std::string_view::npos ? 0 : 1);
    std::size_t n = in.operands.size();
    if (n < required || n > total) {
      if (required == total) error(in.ptx, "expected {} operands, found {}", required, n);
      error(in.ptx, "expected {} to {} operands, found {}", required, total, n);
    }
    std::size_t k = 0;
    for (char c : pat) {
      if (c == '?') continue;
      if (k >= n) break;
      operand(in, c, in.operands[k], k);
      ++k;
    }
    if (in.dest2.kind != OperandKind::kNone) {
      if (in.op != Opcode::kSetp && in.op != Opcode::kShfl && in.op != Opcode::kMatch &&
          in.op != Opcode::kElect)
        error(in.dest2.pos, "this instruction has no second destination");
      if (in.op == Opcode::kSetp || in.op == Opcode::kShfl || in.op == Opcode::kMatch ||
          in.op == Opcode::kElect)
        check_pred(in.dest2, "the second destination");
    }
    for (const Operand& o : in.operands)
      if (!o.sel.empty() && !is_video(in.op)) error(o.pos, "a selector '.{}' is only allowed in video instructions", o.sel);
    if (is_video(in.op)) video(in);
    specific(in);
  }

  // Video instructions: types .u32/.s32, the selectors each operand may take (PTX ISA "Scalar
  // Video Instructions", "SIMD Video Instructions").
  void video(const Instruction& in) {
    const auto& ops = in.operands;
    const bool simd2 = in.op >= Opcode::kVadd2 && in.op <= Opcode::kVset2;
    const bool simd4 = in.op >= Opcode::kVadd4 && in.op <= Opcode::kVset4;
    const bool vset = in.op == Opcode::kVset || in.op == Opcode::kVset2 || in.op == Opcode::kVset4;
    const bool shift = in.op == Opcode::kVshl || in.op == Opcode::kVshr;
    for (Type t : {in.type, in.src_type, vset ? Type::kU32 : in.src2_type}) {
      if (t != Type::kU32 && t != Type::kS32) error(in.ptx, "video instructions take {} types, each .u32 or .s32", vset ? 2 : 3);
    }
    if (vset && in.src2_type != Type::kNone) error(in.ptx, "vset takes two types");
    if (shift && in.src2_type != Type::kU32) error(in.ptx, "the shift amount's type must be .u32");
    for (std::size_t k = 0; k < ops.size(); ++k) {
      const Operand& o = ops[k];
      if (o.sel.empty()) continue;
      if (k == 3) error(o.pos, "c takes no selector");
      if (in.op == Opcode::kVmad && k == 0) error(o.pos, "vmad's destination takes no selector");
      const std::string& s = o.sel;
      bool ok = false;
      if (!simd2 && !simd4) {
        ok = s == "b0" || s == "b1" || s == "b2" || s == "b3" || s == "h0" || s == "h1";
      } else if (k == 0) {
        ok = simd2 ? (s == "h0" || s == "h1" || s == "h10")
                   : s[0] == 'b' && s.size() >= 2 && std::is_sorted(s.begin() + 1, s.end(), std::greater<>()) &&
                         s.find_first_not_of("0123", 1) == std::string::npos &&
                         std::adjacent_find(s.begin() + 1, s.end()) == s.end();
      } else {
        ok = simd2 ? s.size() == 3 && s[0] == 'h' && s.find_first_not_of("0123", 1) == std::string::npos
                   : s.size() == 5 && s[0] == 'b';
      }
      if (!ok) error(o.pos, "'.{}' is not a selector of this operand", s);
    }
    if (ops.size() == 3 && !ops[0].sel.empty()) error(in.ptx, "a merge (d.{}) needs the operand c", ops[0].sel);
    if (!simd2 && !simd4 && !ops[0].sel.empty() && in.reduce != ReduceOp::kNone)
      error(in.ptx, "a secondary operation and a merge (d.{}) exclude each other", ops[0].sel);
    if (in.op != Opcode::kVmad && !simd2 && !simd4 && ops.size() == 4 && ops[0].sel.empty() && in.reduce == ReduceOp::kNone)
      error(in.ptx, "the operand c needs a secondary operation or a merge");
    if ((simd2 || simd4) && in.sat && in.reduce != ReduceOp::kNone) error(in.ptx, ".sat cannot be used with the secondary accumulate operation");
    if (in.op == Opcode::kVmad) {
      if (in.po && (ops[1].negate || ops[2].negate || ops[3].negate)) error(in.ptx, "vmad.po takes no negated operand");
    }
  }

  void operand(const Instruction& in, char c, const Operand& o, std::size_t k) {
    switch (c) {
      case 'D': dest(o); break;
      case 'Q':
        if (o.kind != OperandKind::kSink) check_pred(o, "the destination");
        break;
      case 'P':
        check_pred(o, "this operand");
        break;
      case 'S': source(o, in.op == Opcode::kCall); break;
      case 'X':
        if (o.kind == OperandKind::kVector) {
          vector(o, 0, false);
        } else {
          source(o, true);
        }
        break;
      case 'V': {
        bool is_dest = k == 0 && in.op != Opcode::kSt && in.op != Opcode::kRed;
        std::size_t want = (in.op == Opcode::kMov) ? 0 : in.vec;
        if (o.kind == OperandKind::kVector) {
          if (want == 1) error(o.pos, "vector operand without a .v2/.v4 modifier");
          vector(o, want, is_dest);
        } else if (want > 1) {
          error(o.pos, "expected a vector of {} elements", want);
        } else if (is_dest) {
          dest(o);
        } else {
          source(o, false);
        }
        break;
      }
      case 'A': address(o); break;
      case 'Z':  // an mbarrier address or a cache policy / mask register (bulk copies)
        if (o.kind == OperandKind::kAddress) {
          address(o);
        } else {
          source(o, false);
        }
        break;
      case 'M':  // an address, or a tensor map with coordinates `[tmap, {c0, ...}]` (bulk copies)
        address(o);
        for (const auto& e : o.elements) source(e, false);
        break;
      case 'T':
      case 'H': {
        address(o);
        if (o.addr_base == AddressBase::kSymbol) {
          opaque_operand(in, o);
        } else if (o.addr_base != AddressBase::kReg || type_bits(reg(o.reg, o.pos).type) != 64 || o.offset != 0) {
          error(o.pos, "a texture or surface must be a 64-bit register holding its object handle, or a .texref/.surfref variable");
        }
        if (c == 'H') {
          if (!o.elements.empty()) error(o.pos, "'{}' takes no coordinates", to_string(in.op));
          break;
        }
        if (in.tex_geom == TexGeom::kNone) error(in.ptx, "missing geometry (.1d, .2d, .3d, .a1d, .a2d, .cube, .acube)");
        const std::uint32_t want = tex_coord_count(in.tex_geom);
        if (o.elements.size() != want)
          error(o.pos, ".{} takes {} coordinates, found {}", to_string(in.tex_geom), want, o.elements.size());
        for (const auto& e : o.elements) source(e, false);
        break;
      }
      case 'W': {
        const bool is_dest = k == 0;
        if (o.kind == OperandKind::kVector) {
          vector(o, in.vec, is_dest);
        } else if (in.vec != 1) {
          error(o.pos, "expected a vector of {} elements", in.vec);
        } else if (is_dest) {
          dest(o);
        } else {
          source(o, false);
        }
        break;
      }
      case 'G':
        if (o.kind == OperandKind::kVector) {
          vector(o, 0, false);
        } else {
          source(o, false);
        }
        break;
      case 'F': {
        // wmma.store/stmatrix read their fragment (operand 1); every other fragment at k == 0 is
        // a destination; mma/wmma.mma's a, b, c are sources.
        const bool is_dest = k == 0 && in.op != Opcode::kWmmaStore && in.op != Opcode::kStmatrix;
        if (o.kind == OperandKind::kVector) {
          vector(o, 0, is_dest);
        } else if (is_dest) {
          dest(o);
        } else {
          source(o, false);
        }
        break;
      }
      case 'L':
        if (o.kind != OperandKind::kLabel || o.target >= fn_->instructions.size())
          error(o.pos, "branch target is not an instruction of this function");
        break;
      case 'B':
        if (o.kind != OperandKind::kVector || o.elements.empty()) error(o.pos, "expected a .branchtargets list");
        for (const Operand& e : o.elements)
          if (e.kind != OperandKind::kLabel || e.target >= fn_->instructions.size())
            error(e.pos, "branch target is not an instruction of this function");
        break;
      case 'I':
        if (o.kind != OperandKind::kImm) error(o.pos, "expected an immediate");
        break;
      default: error(o.pos, "internal: bad shape");
    }
  }

  /// wgmma.mma_async: D is a vector of the form's 32-bit registers; A a 64-bit descriptor or four
  /// 32-bit registers; B a 64-bit descriptor; scale-d a predicate or an immediate; then the
  /// immediates of the form (imm-scale-a/b: 1 or -1; imm-trans-a/b: 0 or 1).
  void wgmma_operands(const Instruction& in, const MmaForm& f) {
    const auto& ops = in.operands;
    auto reg_bits = [&](const Operand& o, unsigned bits, const char* what) {
      if (o.kind != OperandKind::kReg || type_bits(fn_->registers[o.reg].type) != bits)
        error(o.pos, "{} of '{}' must be a {}-bit register", what, in.text, bits);
    };
    if (ops[0].kind != OperandKind::kVector || ops[0].elements.size() != f.regs[0])
      error(ops[0].pos, "the accumulator of '{}' is a vector of {} registers", in.text, f.regs[0]);
    for (const Operand& e : ops[0].elements) reg_bits(e, 32, "an accumulator register");
    const bool a_regs = ops[1].kind == OperandKind::kVector;
    if (a_regs) {
      if (ops[1].elements.size() != 4) error(ops[1].pos, "A of '{}' in registers is a vector of 4 registers", in.text);
      for (const Operand& e : ops[1].elements) reg_bits(e, 32, "an A register");
    } else {
      reg_bits(ops[1], 64, "the A descriptor");
    }
    reg_bits(ops[2], 64, "the B descriptor");
    const Operand& sd = ops[3];
    if (sd.kind != OperandKind::kImm && !(sd.kind == OperandKind::kReg && fn_->registers[sd.reg].type == Type::kPred))
      error(sd.pos, "scale-d of '{}' is a predicate or an immediate", in.text);
    const std::size_t imms = f.imms - (a_regs && f.imms == 4 ? 1 : 0);
    if (ops.size() != 4 + imms) error(in.ptx, "'{}' takes {} immediates after scale-d, found {}", in.text, imms, ops.size() - 4);
    for (std::size_t i = 4; i < ops.size(); ++i) {
      const bool scale = i < 6;
      const auto v = static_cast<std::int64_t>(ops[i].imm);
      if (scale ? (v != 1 && v != -1) : (v != 0 && v != 1))
        error(ops[i].pos, "{} of '{}' is {}", scale ? "imm-scale" : "imm-trans", in.text, scale ? "1 or -1" : "0 or 1");
    }
  }

  /// Matrix instructions: the form exists on sm_90 (mma_form throws kUnsupported otherwise) and
  /// each fragment has as many 32-bit (.f64: 64-bit) registers as the form holds.
  void matrix(const Instruction& in) {
    const MmaForm f = mma_form(in, m_.text_origin(*fn_));
    std::size_t first = 0, count = 0;
    switch (in.op) {
      case Opcode::kWmmaLoad: case Opcode::kLdmatrix: first = 0; count = 1; break;
      case Opcode::kWmmaStore: case Opcode::kStmatrix: first = 1; count = 1; break;
      case Opcode::kMovmatrix: return;
      case Opcode::kWgmmaMma: wgmma_operands(in, f); return;
      default: first = 0; count = 4; break;
    }
    static constexpr const char* kWhat[] = {"first", "second", "third", "fourth"};
    for (std::size_t i = 0; i < count; ++i) {
      const Operand& o = in.operands[first + i];
      const std::size_t got = o.kind == OperandKind::kVector ? o.elements.size() : 1;
      const std::uint32_t want = f.regs[count == 1 ? 0 : i];
      if (got != want)
        error(o.pos, "the {} fragment of '{}' holds {} registers, found {}", kWhat[count == 1 ? 0 : i], in.text, want, got);
      const auto regs = o.kind == OperandKind::kVector ? o.elements : std::vector<Operand>{o};
      for (const Operand& e : regs) {
        if (e.kind != OperandKind::kReg) error(e.pos, "a fragment element must be a register");
        const Type t = fn_->registers[e.reg].type;
        if (type_bits(t) != (f.wide ? 64u : 32u))
          error(e.pos, "fragment register '{}' is .{}, '{}' needs {}-bit registers", fn_->registers[e.reg].name,
                to_string(t), in.text, f.wide ? 64 : 32);
      }
    }
    if ((in.op == Opcode::kWmmaLoad || in.op == Opcode::kWmmaStore) && in.operands.size() == 3) {
      const Operand& s = in.operands[2];
      if (s.kind == OperandKind::kReg && type_bits(fn_->registers[s.reg].type) != 32)
        error(s.pos, "the stride of '{}' is a 32-bit integer", in.text);
    }
  }

  /// The bulk copies: a completion mechanism, and a tensor map's coordinates per dimensionality.
  void bulk(const Instruction& in) const {
    const auto& ops = in.operands;
    const bool tensor = in.op == Opcode::kCpAsyncBulkTensor || in.tensor;
    if (in.op != Opcode::kCpAsyncBulkPrefetch && in.complete_tx == in.bulk_group)
      error(in.ptx, "a bulk copy completes through .mbarrier::complete_tx::bytes or .bulk_group (one of them)");
    if (tensor) {
      if (in.tensor_dims == 0) error(in.ptx, "missing dimensionality (.1d ... .5d)");
      if (in.tensor_mode == TensorMode::kNone) error(in.ptx, "missing load mode (.tile, .im2col, ...)");
      // The tensor map operand: the source of loads and prefetches, the destination of stores.
      const std::size_t k = (in.op == Opcode::kCpAsyncBulkTensor && in.complete_tx) ? 1 : 0;
      if (ops.size() <= k || ops[k].kind != OperandKind::kAddress || ops[k].elements.empty())
        error(in.ptx, "a tensor copy names its tensor map and coordinates as [tmap, {{c0, ...}}]");
      if ((in.tensor_mode == TensorMode::kTile || in.tensor_mode == TensorMode::kIm2colNoOffs) &&
          ops[k].elements.size() != in.tensor_dims)
        error(ops[k].pos, ".{}d takes {} coordinates, found {}", in.tensor_dims, in.tensor_dims, ops[k].elements.size());
    } else {
      for (const auto& o : ops)
        if (o.kind == OperandKind::kAddress && !o.elements.empty()) error(o.pos, "coordinates on a bulk copy without .tensor");
      if (in.op != Opcode::kCpAsyncBulkPrefetch && ops.size() < 3) error(in.ptx, "a bulk copy takes [dst], [src], size");
    }
  }

  void specific(const Instruction& in) {
    const auto& ops = in.operands;
    switch (in.op) {
      case Opcode::kWmmaLoad: case Opcode::kWmmaStore: case Opcode::kWmmaMma: case Opcode::kMma:
      case Opcode::kLdmatrix: case Opcode::kStmatrix: case Opcode::kMovmatrix: case Opcode::kWgmmaMma:
        matrix(in);
        break;
      case Opcode::kMov: {
        // pack / unpack: element widths must add up to the instruction's width
        for (const Operand* v : {&ops[0], &ops[1]}) {
          if (v->kind != OperandKind::kVector) continue;
          if (v->elements.size() != 2 && v->elements.size() != 4)
            error(v->pos, "mov packs 2 or 4 elements");
          if (ops[0].kind == OperandKind::kVector && ops[1].kind == OperandKind::kVector)
            error(v->pos, "mov cannot move a vector to a vector");
          std::uint32_t bits = 0;
          for (const auto& e : v->elements) {
            if (e.kind != OperandKind::kReg) {
              bits = 0;
              break;
            }
            bits += type_bits(fn_->registers[e.reg].type);
          }
          if (bits != 0 && bits != type_bits(in.type))
            error(v->pos, "vector elements hold {} bits, mov.{} moves {}", bits, to_string(in.type),
                  type_bits(in.type));
        }
        break;
      }
      case Opcode::kCreatepolicy: {
        // .fractional: d{, fraction}; .range: d, [a], primary-size, total-size; .cvt: d, property
        const bool range = in.policy_kind == PolicyKind::kRange;
        const std::size_t want = range ? 4 : 2;
        if (ops.size() != want && !(in.policy_kind == PolicyKind::kFractional && ops.size() == 1))
          error(in.ptx, "createpolicy.{} takes {} operands", range ? "range" : in.policy_kind == PolicyKind::kCvt ? "cvt" : "fractional",
                range ? "4 (d, [a], primary-size, total-size)" : in.policy_kind == PolicyKind::kCvt ? "2 (d, access-property)" : "1 or 2 (d{, fraction})");
        if (ops.size() > 1 && (ops[1].kind == OperandKind::kAddress) != range)
          error(ops[1].pos, "{}", range ? "createpolicy.range needs an address [a]" : "createpolicy takes no address here");
        break;
      }
      case Opcode::kApplypriority:
      case Opcode::kDiscard:
        if (ops[1].kind != OperandKind::kImm || ops[1].imm != 128)
          error(ops[1].pos, "{} takes the size 128 (the only one the PTX ISA gives)", to_string(in.op));
        break;
      case Opcode::kLd:
      case Opcode::kSt:
        if (ops.size() == 3 && !in.l2_cache_hint) error(ops[2].pos, "extra operand without .L2::cache_hint");
        if (ops.size() == 2 && in.l2_cache_hint) error(in.ptx, ".L2::cache_hint needs a cache-policy operand");
        break;
      case Opcode::kAtom:
        if ((in.reduce == ReduceOp::kCas) != (ops.size() == 4))
          error(in.ptx, "atom.cas takes 4 operands, other atomics 3");
        if (in.reduce == ReduceOp::kNone) error(in.ptx, "atom needs an operation");
        break;
      case Opcode::kRed:
        if (in.reduce == ReduceOp::kNone || in.reduce == ReduceOp::kCas || in.reduce == ReduceOp::kExch)
          error(in.ptx, "red needs an operation other than cas/exch");
        break;
      case Opcode::kRedux:
        if (in.reduce == ReduceOp::kNone) error(in.ptx, "redux needs an operation");
        break;
      case Opcode::kSetp:
      case Opcode::kSet:
        if (in.cmp == CmpOp::kNone) error(in.ptx, "needs a comparison");
        if ((in.bool_op != BoolOp::kNone) != (ops.size() == 4))
          error(in.ptx, "a combining .and/.or/.xor needs a third, predicate source");
        break;
      case Opcode::kBarRed:
        if (in.reduce == ReduceOp::kNone) error(in.ptx, "bar.red needs .popc, .and or .or");
        check_pred(ops.back(), "the last operand");
        break;
      case Opcode::kShfl:
        if (in.shfl == ShflMode::kNone) error(in.ptx, "shfl needs a mode");
        if (in.sync != (ops.size() == 5)) error(in.ptx, "shfl.sync takes a member mask");
        break;
      case Opcode::kVote:
        if (in.vote == VoteMode::kNone) error(in.ptx, "vote needs a mode");
        if (in.sync != (ops.size() == 3)) error(in.ptx, "vote.sync takes a member mask");
        if (in.vote == VoteMode::kBallot) {
          dest(ops[0]);
        } else if (ops[0].kind != OperandKind::kSink) {
          check_pred(ops[0], "the destination");
        }
        break;
      case Opcode::kMatch:
        if (in.vote == VoteMode::kNone) error(in.ptx, "match needs .any or .all");
        break;
      case Opcode::kTestp:
        if (in.testp == TestpOp::kNone) error(in.ptx, "testp needs an operation");
        break;
      case Opcode::kCall: call(in); break;
      case Opcode::kTex:
      case Opcode::kTld4:
      case Opcode::kTxq:
      case Opcode::kSuld:
      case Opcode::kSust:
      case Opcode::kSured:
      case Opcode::kSuq:
      case Opcode::kIstypep: texture(in); break;
      default: async(in); break;
    }
  }

  // cp.async and mbarrier: the operand forms the PTX ISA gives (9.7.9.25, 9.7.13.15).
  void async(const Instruction& in) const {
    const auto& ops = in.operands;
    const bool mbar = in.op >= Opcode::kMbarrierInit && in.op <= Opcode::kMbarrierInval;
    if ((mbar || in.op == Opcode::kCpAsyncMbarrierArrive) && in.type != Type::kNone && in.type != Type::kB64)
      error(in.ptx, "an mbarrier object is .b64");
    switch (in.op) {
      case Opcode::kCpAsync: {
        if (in.cache != CacheOperator::kCa && in.cache != CacheOperator::kCg) error(in.ptx, "cp.async needs .ca or .cg");
        if (in.space != StateSpace::kShared || in.src_space != StateSpace::kGlobal)
          error(in.ptx, "cp.async copies .shared{{::cta}}.global");
        const std::uint64_t size = ops[2].imm;
        if (size != 4 && size != 8 && size != 16) error(ops[2].pos, "cp-size must be 4, 8 or 16");
        if (in.cache == CacheOperator::kCg && size != 16) error(ops[2].pos, "cp.async.cg copies 16 bytes");
        // The cache policy is the last operand when .L2::cache_hint is given.
        if (in.l2_cache_hint && ops.size() == 3) error(in.ptx, ".L2::cache_hint needs a cache-policy operand");
        if (!in.l2_cache_hint && ops.size() == 5) error(ops[4].pos, "extra operand without .L2::cache_hint");
        break;
      }
      case Opcode::kCpAsyncBulk:
      case Opcode::kCpAsyncBulkTensor:
      case Opcode::kCpReduceAsyncBulk:
      case Opcode::kCpAsyncBulkPrefetch:
        bulk(in);
        break;
      case Opcode::kMbarrierArrive:
      case Opcode::kMbarrierArriveDrop:
        if ((in.no_complete || in.expect_tx) && ops.size() != 3)
          error(in.ptx, ".noComplete and .expect_tx take a third operand");
        if (in.no_complete && in.expect_tx) error(in.ptx, ".noComplete and .expect_tx exclude each other");
        break;
      default: break;
    }
  }

  // Operand counts that depend on the modifiers of the texture and surface instructions.
  void texture(const Instruction& in) const {
    const auto& ops = in.operands;
    switch (in.op) {
      case Opcode::kTex: {
        const std::size_t want = in.tex_mode == TexMode::kLevel ? 3 : in.tex_mode == TexMode::kGrad ? 4 : 2;
        if (ops.size() != want)
          error(in.ptx, "tex{} takes {} operands, found {}", in.tex_mode == TexMode::kLevel ? ".level"
                : in.tex_mode == TexMode::kGrad ? ".grad" : "", want, ops.size());
        if (in.vec != 4) error(in.ptx, "tex returns a .v4 vector");
        if (in.src_type == Type::kNone) error(in.ptx, "tex needs a result and a coordinate type");
        break;
      }
      case Opcode::kTld4:
        if (in.vec != 4) error(in.ptx, "tld4 returns a .v4 vector");
        if (in.src_type == Type::kNone) error(in.ptx, "tld4 needs a result and a coordinate type");
        break;
      case Opcode::kTxq:
        if (in.tex_query == TexQuery::kNone || in.tex_query == TexQuery::kMemoryLayout)
          error(in.ptx, "txq needs a texture query");
        if ((in.tex_mode == TexMode::kLevel) != (ops.size() == 3)) error(in.ptx, "txq.level takes a level operand");
        break;
      case Opcode::kSuq:
        if (in.tex_query == TexQuery::kNone) error(in.ptx, "suq needs a query");
        break;
      case Opcode::kIstypep:
        if (in.opaque_type == OpaqueKind::kNone) error(in.ptx, "istypep needs .texref, .samplerref or .surfref");
        break;
      case Opcode::kSured:
        if (in.reduce == ReduceOp::kNone) error(in.ptx, "sured needs an operation");
        break;
      default: break;
    }
  }

  void call(const Instruction& in) {
    const Operand& t = in.operands[0];
    for (const auto& lst : {&in.call_results, &in.call_args})
      for (const auto& o : *lst) {
        if (o.kind == OperandKind::kSymbol) {
          symbol(o.symbol, o.pos);
        } else if (o.kind == OperandKind::kReg || o.kind == OperandKind::kImm) {
          source(o, false);
        } else {
          error(o.pos, "call arguments must be parameters, registers or immediates");
        }
      }
    if (t.kind == OperandKind::kReg) return;  // indirect: prototype not checked
    if (t.kind != OperandKind::kSymbol || t.symbol.kind != SymbolKind::kFunction)
      error(t.pos, "call target must be a function");
    const Function& callee = m_.functions[t.symbol.index];
    if (callee.kind == FunctionKind::kEntry) error(t.pos, "cannot call kernel '{}'", callee.name);
    if (in.call_args.size() != callee.params.size())
      error(t.pos, "'{}' takes {} arguments, call passes {}", callee.name, callee.params.size(),
            in.call_args.size());
    if (in.call_results.size() != callee.returns.size())
      error(t.pos, "'{}' returns {} values, call expects {}", callee.name, callee.returns.size(),
            in.call_results.size());
  }

  const Module& m_;
  const Function* fn_ = nullptr;
  const Instruction* inst_ = nullptr;
};

}  // namespace

void verify(const Module& module) { Verifier(module).run(); }

}  // namespace warpscope::ptx
