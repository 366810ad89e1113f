// Half-precision arithmetic: .f16, .bf16 and their packed pairs .f16x2/.bf16x2 (add, sub, mul,
// fma, neg, abs, min, max, ex2/tanh approximations, setp). Each element is computed exactly (or
// once-rounded) in double and rounded to the narrow format bit-exactly (smallfloat.hpp).
#include <cmath>

#include "exec/ops_common.hpp"
#include "exec/smallfloat.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;
using ptx::Type;

struct HalfMode {
  FloatFormat fmt;
  bool ftz, sat, relu;
};

template <bool BF>
constexpr FloatFormat fmt_of() { return BF ? kBF16 : kF16; }

template <bool BF>
inline double dec(std::uint32_t h, bool ftz) {
  const double v = decode_small(h & 0xffffu, fmt_of<BF>());
  if (ftz && v != 0 && std::fabs(v) < std::ldexp(1.0, BF ? -126 : -14)) return std::copysign(0.0, v);
  return v;
}
template <bool BF>
inline std::uint32_t enc(double v, bool ftz, bool sat, bool relu) {
  if (sat) v = std::isnan(v) ? 0.0 : (v > 0 ? (v < 1 ? v : 1.0) : 0.0);
  if (relu && !std::isnan(v) && v < 0) v = 0.0;
  std::uint32_t r = encode_small(v, fmt_of<BF>(), Round::kNearestEven);
  if (ftz && (r & (BF ? 0x7f80u : 0x7c00u)) == 0) r &= 0x8000u;
  return r;
}

enum class HOp : std::uint8_t { kAdd, kSub, kMul, kFma, kMin, kMax, kMinNaN, kMaxNaN, kNeg, kAbs, kEx2, kTanh };

inline double hmin(double a, double b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
inline double hmax(double a, double b) {
  if (a != a) return b;
  if (b != b) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

template <bool BF, HOp Op>
inline std::uint32_t elem(std::uint32_t a, std::uint32_t b, std::uint32_t c, bool ftz, bool sat, bool relu) {
  const double va = dec<BF>(a, ftz);
  switch (Op) {
    case HOp::kNeg: return (a ^ 0x8000u) & 0xffffu;
    case HOp::kAbs: return a & 0x7fffu;
    case HOp::kEx2: return enc<BF>(std::exp2(va), ftz, false, false);
    case HOp::kTanh: return enc<BF>(std::tanh(va), ftz, false, false);
    default: break;
  }
  const double vb = dec<BF>(b, ftz);
  switch (Op) {
    case HOp::kAdd: return enc<BF>(va + vb, ftz, sat, relu);
    case HOp::kSub: return enc<BF>(va - vb, ftz, sat, relu);
    case HOp::kMul: return enc<BF>(va * vb, ftz, sat, relu);
    case HOp::kFma: return enc<BF>(std::fma(va, vb, dec<BF>(c, ftz)), ftz, sat, relu);
    case HOp::kMin: return enc<BF>(hmin(va, vb), ftz, false, relu);
    case HOp::kMax: return enc<BF>(hmax(va, vb), ftz, false, relu);
    case HOp::kMinNaN: return (va != va || vb != vb) ? fmt_of<BF>().canonical_nan : enc<BF>(hmin(va, vb), ftz, false, relu);
    case HOp::kMaxNaN: return (va != va || vb != vb) ? fmt_of<BF>().canonical_nan : enc<BF>(hmax(va, vb), ftz, false, relu);
    default: return 0;
  }
}

/// One instantiation per (format, pair?, op); the modifiers are bits of Inst::aux.
template <bool BF, bool Pair, HOp Op>
void half_op(const Inst& in, Ctx& x, std::uint32_t m) {
  const bool ftz = in.aux & 1, sat = in.aux & 2, relu = in.aux & 4;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = in.b == kNoSlot ? a : x.reg(in.b);
  const std::uint64_t* c = in.c == kNoSlot ? a : x.reg(in.c);
  for_lanes(m, [&](unsigned l) {
    const std::uint32_t va = static_cast<std::uint32_t>(a[l]), vb = static_cast<std::uint32_t>(b[l]),
                        vc = static_cast<std::uint32_t>(c[l]);
    std::uint32_t r = elem<BF, Op>(va, vb, vc, ftz, sat, relu);
    if constexpr (Pair) r |= elem<BF, Op>(va >> 16, vb >> 16, vc >> 16, ftz, sat, relu) << 16;
    d[l] = r;
  });
}

inline bool compare(ptx::CmpOp op, double a, double b) {
  const bool nan = a != a || b != b;
  switch (op) {
    case ptx::CmpOp::kEq: return !nan && a == b;
    case ptx::CmpOp::kNe: return !nan && a != b;
    case ptx::CmpOp::kLt: return !nan && a < b;
    case ptx::CmpOp::kLe: return !nan && a <= b;
    case ptx::CmpOp::kGt: return !nan && a > b;
    case ptx::CmpOp::kGe: return !nan && a >= b;
    case ptx::CmpOp::kEqu: return nan || a == b;
    case ptx::CmpOp::kNeu: return nan || a != b;
    case ptx::CmpOp::kLtu: return nan || a < b;
    case ptx::CmpOp::kLeu: return nan || a <= b;
    case ptx::CmpOp::kGtu: return nan || a > b;
    case ptx::CmpOp::kGeu: return nan || a >= b;
    case ptx::CmpOp::kNum: return !nan;
    case ptx::CmpOp::kNan: return nan;
    default: return false;
  }
}
inline bool combine(ptx::BoolOp op, bool r, bool c) {
  switch (op) {
    case ptx::BoolOp::kAnd: return r && c;
    case ptx::BoolOp::kOr: return r || c;
    case ptx::BoolOp::kXor: return r != c;
    case ptx::BoolOp::kNone: break;
  }
  return r;
}

/// setp.cmp[.bool].{f16,bf16,f16x2,bf16x2}: aux = cmp, aux2 = bool op | ftz << 8.
template <bool BF, bool Pair>
void half_setp(const Inst& in, Ctx& x, std::uint32_t m) {
  const auto cmp = static_cast<ptx::CmpOp>(in.aux);
  const auto bop = static_cast<ptx::BoolOp>(in.aux2 & 0xff);
  const bool ftz = (in.aux2 >> 8) & 1;
  std::uint64_t* d = x.reg(in.d);
  std::uint64_t* d2 = in.d2 == kNoSlot ? nullptr : x.reg(in.d2);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = in.c == kNoSlot ? nullptr : x.reg(in.c);
  const bool negc = in.flags & kFlagNegC;
  for_lanes(m, [&](unsigned l) {
    const bool pc = c ? (((c[l] & 1) != 0) != negc) : false;
    const std::uint32_t va = static_cast<std::uint32_t>(a[l]), vb = static_cast<std::uint32_t>(b[l]);
    const bool lo = compare(cmp, dec<BF>(va, ftz), dec<BF>(vb, ftz));
    if constexpr (Pair) {
      const bool hi = compare(cmp, dec<BF>(va >> 16, ftz), dec<BF>(vb >> 16, ftz));
      d[l] = combine(bop, lo, pc);
      if (d2) d2[l] = combine(bop, hi, pc);
    } else {
      d[l] = combine(bop, lo, pc);
      if (d2) d2[l] = combine(bop, !lo, pc);
    }
  });
}

/// set.cmp[.bool].dtype.{f16,bf16,f16x2,bf16x2} d, a, b[, {!}c]: each element (one, or two
/// halves for the x2 types) is imm when true (1.0 of a half dtype, all ones of an integer one:
/// the PTX ISA's set) and 0 when false; c combines with each.
template <bool BF, bool Pair>
void half_set(const Inst& in, Ctx& x, std::uint32_t m) {
  const auto cmp = static_cast<ptx::CmpOp>(in.aux);
  const auto bop = static_cast<ptx::BoolOp>(in.aux2 & 0xff);
  const bool ftz = (in.aux2 >> 8) & 1;
  const auto one = static_cast<std::uint64_t>(in.imm);
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = in.c == kNoSlot ? nullptr : x.reg(in.c);
  const bool negc = in.flags & kFlagNegC;
  for_lanes(m, [&](unsigned l) {
    const bool pc = c ? (((c[l] & 1) != 0) != negc) : false;
    const std::uint32_t va = static_cast<std::uint32_t>(a[l]), vb = static_cast<std::uint32_t>(b[l]);
    const bool lo = combine(bop, compare(cmp, dec<BF>(va, ftz), dec<BF>(vb, ftz)), pc);
    if constexpr (Pair) {
      const bool hi = combine(bop, compare(cmp, dec<BF>(va >> 16, ftz), dec<BF>(vb >> 16, ftz)), pc);
      d[l] = (lo ? one : 0) | (hi ? one << 16 : 0);
    } else {
      d[l] = lo ? one : 0;
    }
  });
}

template <bool BF, bool Pair>
ExecFn pick(Opcode op, bool nan_mode) {
  switch (op) {
    case Opcode::kAdd: return &half_op<BF, Pair, HOp::kAdd>;
    case Opcode::kSub: return &half_op<BF, Pair, HOp::kSub>;
    case Opcode::kMul: return &half_op<BF, Pair, HOp::kMul>;
    case Opcode::kFma: return &half_op<BF, Pair, HOp::kFma>;
    case Opcode::kMin: return nan_mode ? &half_op<BF, Pair, HOp::kMinNaN> : &half_op<BF, Pair, HOp::kMin>;
    case Opcode::kMax: return nan_mode ? &half_op<BF, Pair, HOp::kMaxNaN> : &half_op<BF, Pair, HOp::kMax>;
    case Opcode::kNeg: return &half_op<BF, Pair, HOp::kNeg>;
    case Opcode::kAbs: return &half_op<BF, Pair, HOp::kAbs>;
    case Opcode::kEx2: return &half_op<BF, Pair, HOp::kEx2>;
    case Opcode::kTanh: return &half_op<BF, Pair, HOp::kTanh>;
    case Opcode::kSetp: return &half_setp<BF, Pair>;
    default: return nullptr;
  }
}

}  // namespace

ExecFn half_set_fn(Type stype) {
  switch (stype) {
    case Type::kF16: return &half_set<false, false>;
    case Type::kBF16: return &half_set<true, false>;
    case Type::kF16x2: return &half_set<false, true>;
    case Type::kBF16x2: return &half_set<true, true>;
    default: return nullptr;
  }
}

bool decode_half(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const Type t = ins.type;
  const bool bf = t == Type::kBF16 || t == Type::kBF16x2;
  const bool pair = t == Type::kF16x2 || t == Type::kBF16x2;
  if (t != Type::kF16 && t != Type::kBF16 && !pair) return false;
  const auto& ops = ins.operands;
  ExecFn fn = bf ? (pair ? pick<true, true>(ins.op, ins.nan) : pick<true, false>(ins.op, ins.nan))
                 : (pair ? pick<false, true>(ins.op, ins.nan) : pick<false, false>(ins.op, ins.nan));
  if (fn == nullptr) return false;
  if (ins.rounding != ptx::Rounding::kNone && ins.rounding != ptx::Rounding::kRn) {
    dc.unsupported("half-precision arithmetic with a rounding mode other than .rn");
  }
  out.fn = fn;
  if (ins.op == Opcode::kSetp) {
    out.d = dc.dst(ops[0]);
    if (ins.dest2.kind != ptx::OperandKind::kNone) out.d2 = dc.dst(ins.dest2);
    out.a = dc.src(ops[1], t);
    out.b = dc.src(ops[2], t);
    if (ops.size() > 3) {
      out.c = dc.src(ops[3], Type::kPred);
      if (ops[3].negate) out.flags |= kFlagNegC;
    }
    out.aux = static_cast<std::uint32_t>(ins.cmp);
    out.aux2 = static_cast<std::uint32_t>(ins.bool_op) | (ins.ftz ? 0x100u : 0u);
    return true;
  }
  out.aux = (ins.ftz ? 1u : 0u) | (ins.sat ? 2u : 0u) | (ins.relu ? 4u : 0u);
  out.d = dc.dst(ops[0]);
  out.a = dc.src(ops[1], t);
  if (ops.size() > 2) out.b = dc.src(ops[2], t);
  if (ops.size() > 3) out.c = dc.src(ops[3], t);
  return true;
}

}  // namespace warpscope::exec
