// Data movement and selection: mov (registers, immediates, special registers, symbol addresses,
// vector pack/unpack), setp, set, selp, slct, cvta, isspacep.
#include <cmath>

#include "exec/ops_common.hpp"
#include "exec/segments.hpp"

namespace warpscope::exec {
namespace {

using ptx::CmpOp;
using ptx::Opcode;
using ptx::Type;

template <unsigned Bits>
void mov(const Inst& in, Ctx& x, std::uint32_t m) {
  constexpr std::uint64_t mask = Bits >= 64 ? ~0ull : ((1ull << Bits) - 1);
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  for_lanes(m, [&](unsigned l) { d[l] = a[l] & mask; });
}

/// mov of a frame-relative address (a .local variable such as __local_depot0, or a .func param).
void mov_frame(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t v = x.frame_base + static_cast<std::uint64_t>(in.imm);
  for_lanes(m, [&](unsigned l) { d[l] = v; });
}

/// %clock, %clock64 (%clock_hi its upper half): the warp's instruction count plus its skew (ClockState); %globaltimer: a
/// deterministic nanosecond count derived from it (4 ns per cycle, 1 s apart per launch).
///
/// A read at the same instruction as the warp's previous read, at most kPollGap instructions
/// after it, is a poll (a loop spinning until the clock has advanced). After kPollStreak
/// consecutive polls, each poll adds 1/kPollStep of the time elapsed since the streak's first read
/// to the skew: a loop that spins until N cycles have passed ends after about kPollStreak +
/// 64 ln(N / c0) polls (c0 the clock at the streak's start) and reads at most about N * 65/64
/// cycles (the time model takes the skew as time the warp spun, so the overshoot is an error of
/// the prediction), while the clock difference across code that does work between its reads (or
/// reads at different instructions) stays its instruction count.
constexpr std::uint64_t kPollGap = 32;
constexpr std::uint32_t kPollStreak = 256;
constexpr std::uint64_t kPollStep = 64;

template <int Which>
void mov_clock(const Inst& in, Ctx& x, std::uint32_t m) {
  ClockState& c = *x.clock_state;
  const std::uint64_t count = *x.clock;
  const std::uint32_t pc = x.pc_of(in);
  if (pc == c.last_pc && count - c.last_count <= kPollGap) {
    if (c.streak == 0) c.streak_start = c.last_count + c.skew;
    if (c.streak < kPollStreak) {
      ++c.streak;
    } else {
      c.skew += (count + c.skew - c.streak_start) / kPollStep;
    }
  } else {
    c.streak = 0;
  }
  c.last_pc = pc;
  c.last_count = count;
  std::uint64_t v = count + c.skew;
  const std::uint64_t ns = std::uint64_t(x.launch_id) * 1000000000ull + v * 4;
  if constexpr (Which == 1) v &= 0xffffffffu;
  if constexpr (Which == 2) v = ns;
  if constexpr (Which == 3) v = ns & 0xffffffffu;
  if constexpr (Which == 4) v = ns >> 32;
  if constexpr (Which == 5) v >>= 32;
  std::uint64_t* d = x.reg(in.d);
  for_lanes(m, [&](unsigned l) { d[l] = v; });
}

/// mov.bN {e0, e1[, e2, e3]}, a: element i gets bits [i*EB, (i+1)*EB).
template <unsigned N, unsigned EB>
void unpack(const Inst& in, Ctx& x, std::uint32_t m) {
  constexpr std::uint64_t mask = EB >= 64 ? ~0ull : ((1ull << EB) - 1);
  const std::uint64_t* a = x.reg(in.a);
  // Read the source first: a destination element may be the source register.
  std::uint64_t src[kLanes];
  for_lanes(m, [&](unsigned l) { src[l] = a[l]; });
  for (unsigned i = 0; i < N; ++i) {
    std::uint64_t* d = x.reg(in.v[i]);
    for_lanes(m, [&](unsigned l) { d[l] = (src[l] >> (i * EB)) & mask; });
  }
}
template <unsigned N, unsigned EB>
void pack(const Inst& in, Ctx& x, std::uint32_t m) {
  constexpr std::uint64_t mask = EB >= 64 ? ~0ull : ((1ull << EB) - 1);
  std::uint64_t tmp[kLanes] = {};
  for (unsigned i = 0; i < N; ++i) {
    const std::uint64_t* e = x.reg(in.v[i]);
    for_lanes(m, [&](unsigned l) { tmp[l] |= (e[l] & mask) << (i * EB); });
  }
  std::uint64_t* d = x.reg(in.d);
  for_lanes(m, [&](unsigned l) { d[l] = tmp[l]; });
}

// --- comparisons --------------------------------------------------------------------------------

template <class T, CmpOp C>
inline bool cmp(T a, T b) {
  constexpr bool f = std::is_floating_point_v<T>;
  if constexpr (f) {
    const bool nan = a != a || b != b;
    switch (C) {
      case CmpOp::kEq: return !nan && a == b;
      case CmpOp::kNe: return !nan && a != b;
      case CmpOp::kLt: return !nan && a < b;
      case CmpOp::kLe: return !nan && a <= b;
      case CmpOp::kGt: return !nan && a > b;
      case CmpOp::kGe: return !nan && a >= b;
      case CmpOp::kEqu: return nan || a == b;
      case CmpOp::kNeu: return nan || a != b;
      case CmpOp::kLtu: return nan || a < b;
      case CmpOp::kLeu: return nan || a <= b;
      case CmpOp::kGtu: return nan || a > b;
      case CmpOp::kGeu: return nan || a >= b;
      case CmpOp::kNum: return !nan;
      case CmpOp::kNan: return nan;
      default: return false;
    }
  } else {
    using UT = std::make_unsigned_t<T>;
    switch (C) {
      case CmpOp::kEq: return a == b;
      case CmpOp::kNe: return a != b;
      case CmpOp::kLt: return a < b;
      case CmpOp::kLe: return a <= b;
      case CmpOp::kGt: return a > b;
      case CmpOp::kGe: return a >= b;
      case CmpOp::kLo: return static_cast<UT>(a) < static_cast<UT>(b);
      case CmpOp::kLs: return static_cast<UT>(a) <= static_cast<UT>(b);
      case CmpOp::kHi: return static_cast<UT>(a) > static_cast<UT>(b);
      case CmpOp::kHs: return static_cast<UT>(a) >= static_cast<UT>(b);
      default: return false;
    }
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

template <class T>
inline T read_cmp(std::uint64_t v, bool ftz) {
  T t = get<T>(v);
  if constexpr (std::is_same_v<T, float>) {
    if (ftz) t = exec::ftz(t);
  }
  return t;
}

/// setp.C.T p[|q], a, b[, {!}c]: aux2 = bool op | ftz << 8.
template <class T, CmpOp C>
void setp(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const bool ftz = (in.aux2 >> 8) & 1;
  if (in.c == kNoSlot && in.d2 == kNoSlot && !ftz) {
    for_lanes(m, [&](unsigned l) { d[l] = cmp<T, C>(get<T>(a[l]), get<T>(b[l])) ? 1 : 0; });
    return;
  }
  const auto bop = static_cast<ptx::BoolOp>(in.aux2 & 0xff);
  std::uint64_t* d2 = in.d2 == kNoSlot ? nullptr : x.reg(in.d2);
  const std::uint64_t* c = in.c == kNoSlot ? nullptr : x.reg(in.c);
  const bool negc = in.flags & kFlagNegC;
  for_lanes(m, [&](unsigned l) {
    const bool r = cmp<T, C>(read_cmp<T>(a[l], ftz), read_cmp<T>(b[l], ftz));
    const bool pc = c ? (((c[l] & 1) != 0) != negc) : false;
    d[l] = combine(bop, r, pc) ? 1 : 0;
    if (d2) d2[l] = combine(bop, !r, pc) ? 1 : 0;
  });
}

/// set.C.D.T d, a, b[, {!}c]: d = "one" when true, 0 when false; imm = one (set_true_value).
template <class T, CmpOp C>
void set(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = in.c == kNoSlot ? nullptr : x.reg(in.c);
  const bool ftz = (in.aux2 >> 8) & 1;
  const auto bop = static_cast<ptx::BoolOp>(in.aux2 & 0xff);
  const bool negc = in.flags & kFlagNegC;
  const auto one = static_cast<std::uint64_t>(in.imm);
  for_lanes(m, [&](unsigned l) {
    bool r = cmp<T, C>(read_cmp<T>(a[l], ftz), read_cmp<T>(b[l], ftz));
    if (c) r = combine(bop, r, ((c[l] & 1) != 0) != negc);
    d[l] = r ? one : 0;
  });
}

void selp(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = x.reg(in.c);
  for_lanes(m, [&](unsigned l) { d[l] = (c[l] & 1) ? a[l] : b[l]; });
}

template <bool FloatC>
void slct(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = x.reg(in.c);
  const bool ftz = in.aux2 & 0x100;
  for_lanes(m, [&](unsigned l) {
    bool ge;
    if constexpr (FloatC) ge = read_cmp<float>(c[l], ftz) >= 0.0f;
    else ge = get<std::int32_t>(c[l]) >= 0;
    d[l] = ge ? a[l] : b[l];
  });
}

// --- address conversion -------------------------------------------------------------------------

/// cvta.space: d = a + window (0 for global); cvta.to.space: d = a - window. aux = result mask
/// width (32 or 64).
template <std::uint64_t Window, bool To>
void cvta(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t mask = in.aux == 32 ? 0xffffffffull : ~0ull;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  for_lanes(m, [&](unsigned l) { d[l] = (To ? a[l] - Window : a[l] + Window) & mask; });
}
/// cvta.local of a frame-relative symbol.
void cvta_frame(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t v = kLocalWindow + x.frame_base + static_cast<std::uint64_t>(in.imm);
  for_lanes(m, [&](unsigned l) { d[l] = v; });
}

template <GenericSpace S>
void isspacep(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  for_lanes(m, [&](unsigned l) {
    std::uint64_t off;
    d[l] = classify_generic(a[l], off) == S ? 1 : 0;
  });
}
/// isspacep.const: the address lies in a module's .const variable (they live in the global
/// window, where cvta.const leaves their addresses).
void isspacep_const(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  for_lanes(m, [&](unsigned l) {
    std::uint64_t off;
    const Region* r = classify_generic(a[l], off) == GenericSpace::kGlobal ? x.global->find(a[l], 1) : nullptr;
    d[l] = r != nullptr && r->constant ? 1 : 0;
  });
}
/// isspacep.param: generic addresses of kernel parameters are never made (cvta.param is refused).
void isspacep_false(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  for_lanes(m, [&](unsigned l) { d[l] = 0; });
}

// --- dispatch -----------------------------------------------------------------------------------

template <class T>
ExecFn pick_cmp_fn(CmpOp c, bool is_set) {
#define WS_C(OP) \
  case CmpOp::OP: return is_set ? &set<T, CmpOp::OP> : &setp<T, CmpOp::OP>;
  if constexpr (std::is_floating_point_v<T>) {
    switch (c) {
      WS_C(kEq) WS_C(kNe) WS_C(kLt) WS_C(kLe) WS_C(kGt) WS_C(kGe) WS_C(kEqu) WS_C(kNeu)
      WS_C(kLtu) WS_C(kLeu) WS_C(kGtu) WS_C(kGeu) WS_C(kNum) WS_C(kNan)
      default: return nullptr;
    }
  } else {
    switch (c) {
      WS_C(kEq) WS_C(kNe) WS_C(kLt) WS_C(kLe) WS_C(kGt) WS_C(kGe) WS_C(kLo) WS_C(kLs)
      WS_C(kHi) WS_C(kHs)
      default: return nullptr;
    }
  }
#undef WS_C
}

/// What set writes for "true" in each element of its destination type (the PTX ISA: 1.0 of a
/// floating-point type, all ones of an integer one); 0 for a type set cannot write.
std::uint64_t set_true_value(Type dtype) {
  switch (dtype) {
    case Type::kF32: return 0x3f800000u;
    case Type::kF16: case Type::kF16x2: return 0x3c00u;
    case Type::kBF16: case Type::kBF16x2: return 0x3f80u;
    case Type::kU16: case Type::kS16: case Type::kB16: return 0xffffu;
    case Type::kU32: case Type::kS32: case Type::kB32: return 0xffffffffu;
    default: return 0;
  }
}

ExecFn pick_cmp(Type t, CmpOp c, bool is_set) {
  switch (t) {
    case Type::kB16: case Type::kU16: return pick_cmp_fn<std::uint16_t>(c, is_set);
    case Type::kS16: return pick_cmp_fn<std::int16_t>(c, is_set);
    case Type::kB32: case Type::kU32: return pick_cmp_fn<std::uint32_t>(c, is_set);
    case Type::kS32: return pick_cmp_fn<std::int32_t>(c, is_set);
    case Type::kB64: case Type::kU64: return pick_cmp_fn<std::uint64_t>(c, is_set);
    case Type::kS64: return pick_cmp_fn<std::int64_t>(c, is_set);
    case Type::kF32: return pick_cmp_fn<float>(c, is_set);
    case Type::kF64: return pick_cmp_fn<double>(c, is_set);
    default: return nullptr;
  }
}

ExecFn pick_mov(Type t) {
  switch (ptx::type_bits(t)) {
    case 1: return &mov<1>;
    case 8: return &mov<8>;
    case 16: return &mov<16>;
    case 32: return &mov<32>;
    case 64: return &mov<64>;
    default: return nullptr;
  }
}

template <unsigned N>
ExecFn pick_vec(bool is_pack, unsigned eb) {
  switch (eb) {
    case 8: return is_pack ? &pack<N, 8> : &unpack<N, 8>;
    case 16: return is_pack ? &pack<N, 16> : &unpack<N, 16>;
    case 32: return is_pack ? &pack<N, 32> : &unpack<N, 32>;
    default: return nullptr;
  }
}

bool is_dynamic_sreg(ptx::SpecialReg r) {
  switch (r) {
    case ptx::SpecialReg::kClock: case ptx::SpecialReg::kClock64: case ptx::SpecialReg::kClockHi:
    case ptx::SpecialReg::kGlobaltimer: case ptx::SpecialReg::kGlobaltimerLo:
    case ptx::SpecialReg::kGlobaltimerHi: return true;
    default: return false;
  }
}

}  // namespace

bool decode_move(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const auto& ops = ins.operands;
  const Type t = ins.type;
  switch (ins.op) {
    case Opcode::kMov: {
      const ptx::Operand& d = ops[0];
      const ptx::Operand& a = ops[1];
      if (d.kind == ptx::OperandKind::kVector || a.kind == ptx::OperandKind::kVector) {
        const bool is_pack = a.kind == ptx::OperandKind::kVector;
        const ptx::Operand& v = is_pack ? a : d;
        const unsigned n = static_cast<unsigned>(v.elements.size());
        if (n != 2 && n != 4) dc.unsupported("mov with a vector of other than 2 or 4 elements");
        const unsigned eb = ptx::type_bits(t) / n;
        const Type et = eb == 8 ? Type::kB8 : eb == 16 ? Type::kB16 : eb == 32 ? Type::kB32 : Type::kNone;
        for (unsigned i = 0; i < n; ++i) out.v[i] = is_pack ? dc.src(v.elements[i], et) : dc.dst(v.elements[i]);
        if (is_pack) out.d = dc.dst(d); else out.a = dc.src(a, t);
        out.fn = n == 2 ? pick_vec<2>(is_pack, eb) : pick_vec<4>(is_pack, eb);
        if (out.fn == nullptr) dc.unsupported("mov pack/unpack of this width");
        return true;
      }
      out.d = dc.dst(d);
      if (a.kind == ptx::OperandKind::kSpecial && is_dynamic_sreg(a.sreg)) {
        switch (a.sreg) {
          case ptx::SpecialReg::kClock: out.fn = &mov_clock<1>; break;
          case ptx::SpecialReg::kClock64: out.fn = &mov_clock<0>; break;
          case ptx::SpecialReg::kClockHi: out.fn = &mov_clock<5>; break;
          case ptx::SpecialReg::kGlobaltimer: out.fn = &mov_clock<2>; break;
          case ptx::SpecialReg::kGlobaltimerLo: out.fn = &mov_clock<3>; break;
          default: out.fn = &mov_clock<4>; break;
        }
        return true;
      }
      if (a.kind == ptx::OperandKind::kSymbol) {
        std::uint32_t slot = kNoSlot;
        std::int64_t off = 0;
        if (!dc.symbol_value(a, slot, off)) {
          out.imm = off;
          out.fn = &mov_frame;
          return true;
        }
        out.a = slot;
        out.fn = pick_mov(t);
        return true;
      }
      out.a = dc.src(a, t);
      out.fn = pick_mov(t);
      if (out.fn == nullptr) dc.unsupported(fmt::format("mov.{}", ptx::to_string(t)));
      return true;
    }
    case Opcode::kSetp:
    case Opcode::kSet: {
      const bool is_set = ins.op == Opcode::kSet;
      const Type ct = is_set ? ins.src_type : t;
      out.d = dc.dst(ops[0]);
      if (!is_set && ins.dest2.kind != ptx::OperandKind::kNone) out.d2 = dc.dst(ins.dest2);
      out.a = dc.src(ops[1], ct);
      out.b = dc.src(ops[2], ct);
      if (ops.size() > 3) {
        out.c = dc.src(ops[3], Type::kPred);
        if (ops[3].negate) out.flags |= kFlagNegC;
      }
      if (is_set) {
        // The destination's "true": 1.0 / all ones per element (an x2 destination: per half).
        const bool pair_dst = t == Type::kF16x2 || t == Type::kBF16x2;
        const bool pair_src = ct == Type::kF16x2 || ct == Type::kBF16x2;
        std::uint64_t one = set_true_value(t);
        if (pair_src && (t == Type::kU32 || t == Type::kS32)) one = 0xffffu;  // each half all ones
        const bool pair_ok = pair_src ? pair_dst || t == Type::kU32 || t == Type::kS32 : !pair_dst;
        if (one == 0 || !pair_ok)
          dc.unsupported(fmt::format("set.{}.{}.{}", ptx::to_string(ins.cmp), ptx::to_string(t), ptx::to_string(ct)));
        out.imm = static_cast<std::int64_t>(one);
        if (ExecFn half = half_set_fn(ct)) {
          out.aux = static_cast<std::uint32_t>(ins.cmp);
          out.aux2 = static_cast<std::uint32_t>(ins.bool_op) | (ins.ftz ? 0x100u : 0u);
          out.fn = half;
          return true;
        }
      }
      out.aux2 = static_cast<std::uint32_t>(ins.bool_op) | ((ins.ftz && ct == Type::kF32) ? 0x100u : 0u);
      out.fn = pick_cmp(ct, ins.cmp, is_set);
      if (out.fn == nullptr) {
        dc.unsupported(fmt::format("{}.{}.{}", is_set ? "set" : "setp", ptx::to_string(ins.cmp), ptx::to_string(ct)));
      }
      return true;
    }
    case Opcode::kSelp:
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], t);
      out.b = dc.src(ops[2], t);
      out.c = dc.src(ops[3], Type::kPred);
      if (ops[3].negate) dc.unsupported("selp with a negated predicate");
      out.fn = &selp;
      return true;
    case Opcode::kSlct:
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], t);
      out.b = dc.src(ops[2], t);
      out.c = dc.src(ops[3], ins.src_type);
      out.aux2 = ins.ftz ? 0x100u : 0u;
      out.fn = ins.src_type == Type::kF32 ? &slct<true> : &slct<false>;
      return true;
    case Opcode::kCvta: {
      out.d = dc.dst(ops[0]);
      out.aux = ptx::type_bits(t) == 32 ? 32 : 64;
      const ptx::StateSpace s = ins.space;
      if (ops[1].kind == ptx::OperandKind::kSymbol) {
        std::uint32_t slot = kNoSlot;
        std::int64_t off = 0;
        if (!dc.symbol_value(ops[1], slot, off)) {
          if (s != ptx::StateSpace::kLocal || ins.to_space) dc.unsupported("cvta of a frame symbol outside .local");
          out.imm = off;
          out.fn = &cvta_frame;
          return true;
        }
        out.a = slot;
      } else {
        out.a = dc.src(ops[1], t);
      }
      switch (s) {
        case ptx::StateSpace::kGlobal:
        case ptx::StateSpace::kConst:
          out.fn = ins.to_space ? &cvta<0, true> : &cvta<0, false>;
          return true;
        case ptx::StateSpace::kShared:
        case ptx::StateSpace::kSharedCluster:  // a cluster of one CTA: the same window
          out.fn = ins.to_space ? &cvta<kSharedWindow, true> : &cvta<kSharedWindow, false>;
          return true;
        case ptx::StateSpace::kLocal:
          out.fn = ins.to_space ? &cvta<kLocalWindow, true> : &cvta<kLocalWindow, false>;
          return true;
        case ptx::StateSpace::kParam:
          // A kernel parameter's generic address, for the tensor-map operand of the TMA
          // instructions (a __grid_constant__ CUtensorMap; memory.hpp, kParamWindow).
          if (!dc.in_kernel()) dc.unsupported("cvta.param outside a kernel");
          out.fn = ins.to_space ? &cvta<kParamWindow, true> : &cvta<kParamWindow, false>;
          return true;
        default:
          dc.unsupported(fmt::format("cvta{}.{}", ins.to_space ? ".to" : "", ptx::to_string(s)));
      }
    }
    case Opcode::kIsspacep:
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], Type::kU64);
      switch (ins.space) {
        case ptx::StateSpace::kGlobal: out.fn = &isspacep<GenericSpace::kGlobal>; break;
        // A CTA launched without a cluster is a cluster of one: its .shared::cluster window holds
        // its own shared memory only, the .shared::cta window.
        case ptx::StateSpace::kShared:
        case ptx::StateSpace::kSharedCluster: out.fn = &isspacep<GenericSpace::kShared>; break;
        case ptx::StateSpace::kLocal: out.fn = &isspacep<GenericSpace::kLocal>; break;
        case ptx::StateSpace::kConst: out.fn = &isspacep_const; break;
        case ptx::StateSpace::kParam: out.fn = &isspacep_false; break;
        default: dc.unsupported(fmt::format("isspacep.{}", ptx::to_string(ins.space)));
      }
      return true;
    default: return false;
  }
}

namespace {
template <class T>
bool describe_setp(ExecFn f, JitDesc& d, std::uint8_t bits, bool sgn, bool flt) {
  for (int c = 0; c <= static_cast<int>(CmpOp::kNan); ++c) {
    const ExecFn g = pick_cmp_fn<T>(static_cast<CmpOp>(c), false);
    if (g != nullptr && g == f) {
      d.op = JitOp::kSetp;
      d.bits = bits;
      d.sgn = sgn;
      d.flt = flt;
      d.cmp = static_cast<std::uint8_t>(c);
      return true;
    }
  }
  return false;
}
}  // namespace

bool describe_move(ExecFn f, JitDesc& d) {
  static const std::pair<ExecFn, std::uint8_t> movs[] = {{&mov<1>, 1}, {&mov<8>, 8}, {&mov<16>, 16}, {&mov<32>, 32}, {&mov<64>, 64}};
  for (const auto& [g, bits] : movs) {
    if (g == f) {
      d.op = JitOp::kMov;
      d.bits = bits;
      return true;
    }
  }
  if (f == &selp) {
    d.op = JitOp::kSelp;
    return true;
  }
  return describe_setp<std::uint16_t>(f, d, 16, false, false) || describe_setp<std::int16_t>(f, d, 16, true, false) ||
         describe_setp<std::uint32_t>(f, d, 32, false, false) || describe_setp<std::int32_t>(f, d, 32, true, false) ||
         describe_setp<std::uint64_t>(f, d, 64, false, false) || describe_setp<std::int64_t>(f, d, 64, true, false) ||
         describe_setp<float>(f, d, 32, false, true) || describe_setp<double>(f, d, 64, false, true);
}

}  // namespace warpscope::exec
