// cvt: every conversion between the integer types, f16, bf16, f32, f64 (and f32 -> tf32), with
// the PTX rounding modifiers, .ftz, .sat, .relu and .satfinite; the packing forms
// cvt.f16x2.f32 / cvt.bf16x2.f32; cvt.pack.sat.{u16,s16}.s32 and .{u8,s8}.s32.b32 (the .u4/.s4/
// .u2/.s2 forms are refused by the front end: it has no such types).
//
// - integer -> integer: truncation (or .sat clamping); the result is sign- or zero-extended to the
//   destination register as the destination type says.
// - float -> integer: rounded to an integral value (.rni/.rzi/.rmi/.rpi), then clamped to the
//   destination range; NaN converts to 0 (PTX: float-to-integer conversions saturate).
// - integer/float -> float: rounded once (bit-exact round-to-nearest-even by default); .sat clamps
//   to [0, 1]; .relu clamps negative results to 0.
// - the 8-bit floats: cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a to the upper byte)
//   and .f16x2 d, a; cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a (smallfloat.hpp encode_fp8 /
//   fp8_to_f16, measured on every f16 and 2^20 floats: tests/hw/data/h100/fp8).
#include <cfenv>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "exec/ops_common.hpp"
#include "exec/segments.hpp"
#include "exec/smallfloat.hpp"

namespace warpscope::exec {
namespace {

using ptx::Type;

enum class FK : std::uint8_t { kF16, kBF16, kF32, kF64, kTF32 };

// Modifier bits in Inst::aux.
enum : std::uint32_t {
  kSat = 1, kFtz = 2, kRelu = 4, kSatFinite = 8,
  kIntRoundShift = 8,   // bits 8..11: 0 none, 1 rni, 2 rzi, 3 rmi, 4 rpi
  kFloatRoundShift = 12 // bits 12..15: Round + 1 (0 = default .rn)
};

inline Round float_round(std::uint32_t aux) {
  const std::uint32_t r = (aux >> kFloatRoundShift) & 0xf;
  return r == 0 ? Round::kNearestEven : static_cast<Round>(r - 1);
}

inline double round_integral(double v, std::uint32_t aux) {
  switch ((aux >> kIntRoundShift) & 0xf) {
    case 1: return std::nearbyint(v);  // host default mode: ties to even
    case 2: return std::trunc(v);
    case 3: return std::floor(v);
    case 4: return std::ceil(v);
    default: return v;
  }
}

template <FK K>
inline double read_float(std::uint64_t bits, bool ftz) {
  if constexpr (K == FK::kF16) return decode_small(static_cast<std::uint32_t>(bits) & 0xffff, kF16);
  if constexpr (K == FK::kBF16) return decode_small(static_cast<std::uint32_t>(bits) & 0xffff, kBF16);
  if constexpr (K == FK::kF32 || K == FK::kTF32) {
    float f = get<float>(bits);
    if (ftz) f = exec::ftz(f);
    return f;
  }
  if constexpr (K == FK::kF64) return get<double>(bits);
  return 0;
}

template <FK K>
inline std::uint64_t write_float(double v, std::uint32_t aux) {
  const Round r = float_round(aux);
  if (aux & kSat) v = std::isnan(v) ? 0.0 : (v > 0 ? (v < 1 ? v : 1.0) : 0.0);
  if ((aux & kRelu) && !std::isnan(v) && v < 0) v = 0.0;
  const bool satfinite = aux & kSatFinite;
  if constexpr (K == FK::kF16) return encode_small(v, kF16, r, satfinite);
  if constexpr (K == FK::kBF16) return encode_small(v, kBF16, r, satfinite);
  if constexpr (K == FK::kTF32) return put<float>(f32_to_tf32(static_cast<float>(v), r, satfinite));
  if constexpr (K == FK::kF32) {
    float f = std::isnan(v) ? std::bit_cast<float>(0x7fffffffu) : f64_to_f32(v, r);
    if (aux & kFtz) f = exec::ftz(f);
    return put<float>(f);
  }
  if constexpr (K == FK::kF64) return put<double>(std::isnan(v) ? std::bit_cast<double>(0x7fffffffffffffffull) : v);
  return 0;
}

/// float -> float
template <FK S, FK D>
void cvt_ff(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint32_t aux = in.aux;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  for_lanes(m, [&](unsigned l) {
    const double v = round_integral(read_float<S>(a[l], aux & kFtz), aux);
    d[l] = write_float<D>(v, aux);
  });
}

/// float -> integer (saturating; NaN -> 0)
template <FK S, class D>
void cvt_fi(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint32_t aux = in.aux;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  for_lanes(m, [&](unsigned l) {
    const double v = round_integral(read_float<S>(a[l], aux & kFtz), aux);
    D r;
    if (std::isnan(v)) r = 0;
    else if (v <= static_cast<double>(std::numeric_limits<D>::min())) r = std::numeric_limits<D>::min();
    else if (v >= static_cast<double>(std::numeric_limits<D>::max())) r = std::numeric_limits<D>::max();
    else r = static_cast<D>(v);
    if constexpr (std::is_signed_v<D>) d[l] = static_cast<std::uint64_t>(static_cast<std::int64_t>(r));
    else d[l] = static_cast<std::uint64_t>(r);
  });
}

/// integer -> float
template <class S, FK D>
void cvt_if(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint32_t aux = in.aux;
  const Round r = float_round(aux);
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  if constexpr (D == FK::kF32 || D == FK::kF64) {
    // Convert directly with the host rounding mode set: one rounding even for 64-bit integers.
    using F = std::conditional_t<D == FK::kF32, float, double>;
    const int mode = r == Round::kZero ? FE_TOWARDZERO : r == Round::kDown ? FE_DOWNWARD
                   : r == Round::kUp ? FE_UPWARD : FE_TONEAREST;
    if (mode != FE_TONEAREST) std::fesetround(mode);
    for_lanes(m, [&](unsigned l) {
      F f = static_cast<F>(get<S>(a[l]));
      if (aux & kSat) f = f > 0 ? (f < 1 ? f : F(1)) : F(0);
      if constexpr (D == FK::kF32) {
        if (aux & kFtz) f = exec::ftz(f);
      }
      d[l] = put<F>(f);
    });
    if (mode != FE_TONEAREST) std::fesetround(FE_TONEAREST);
  } else {
    for_lanes(m, [&](unsigned l) { d[l] = write_float<D>(static_cast<double>(get<S>(a[l])), aux); });
  }
}

/// integer -> integer
template <class S, class D, bool Sat>
void cvt_ii(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  for_lanes(m, [&](unsigned l) {
    const S v = get<S>(a[l]);
    D r;
    if constexpr (Sat) {
      const i128 w = static_cast<i128>(v);
      const i128 lo = std::numeric_limits<D>::min(), hi = std::numeric_limits<D>::max();
      r = w < lo ? static_cast<D>(lo) : w > hi ? static_cast<D>(hi) : static_cast<D>(w);
    } else {
      r = static_cast<D>(v);
    }
    if constexpr (std::is_signed_v<D>) d[l] = static_cast<std::uint64_t>(static_cast<std::int64_t>(r));
    else d[l] = static_cast<std::uint64_t>(r);
  });
}

/// cvt.rn{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a to the upper half, b to the lower.
template <bool BF>
void cvt_pack2(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint32_t aux = in.aux;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t hi = write_float<BF ? FK::kBF16 : FK::kF16>(get<float>(a[l]), aux);
    const std::uint64_t lo = write_float<BF ? FK::kBF16 : FK::kF16>(get<float>(b[l]), aux);
    d[l] = (hi << 16) | lo;
  });
}

/// cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.f32 d, a, b (a to the upper byte) and .f16x2 d, a.
template <bool E4M3, bool FromF32>
void cvt_to_fp8x2(const Inst& in, Ctx& x, std::uint32_t m) {
  const bool relu = (in.aux & kRelu) != 0;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = FromF32 ? x.reg(in.b) : nullptr;
  for_lanes(m, [&](unsigned l) {
    double hi, lo;
    if constexpr (FromF32) {
      hi = get<float>(a[l]);
      lo = get<float>(b[l]);
    } else {
      hi = decode_small(static_cast<std::uint32_t>(a[l] >> 16) & 0xffff, kF16);
      lo = decode_small(static_cast<std::uint32_t>(a[l]) & 0xffff, kF16);
    }
    d[l] = (std::uint64_t{encode_fp8(hi, E4M3, relu)} << 8) | encode_fp8(lo, E4M3, relu);
  });
}

/// cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2} d, a: each byte of a to the half at its position.
template <bool E4M3>
void cvt_from_fp8x2(const Inst& in, Ctx& x, std::uint32_t m) {
  const bool relu = (in.aux & kRelu) != 0;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  for_lanes(m, [&](unsigned l) {
    const auto hi = fp8_to_f16(static_cast<std::uint8_t>(a[l] >> 8), E4M3, relu);
    const auto lo = fp8_to_f16(static_cast<std::uint8_t>(a[l]), E4M3, relu);
    d[l] = (std::uint64_t{hi} << 16) | lo;
  });
}

/// cvt.pack.sat.{u16,s16}.s32 d, a, b and cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c (PTX
/// ISA, "cvt.pack"): a and b saturated to the destination type of `Bits` bits, a into the upper and b
/// into the lower element; the forms with c put c shifted left by 2 x Bits above them (d = c << 2n |
/// a << n | b; the H200 agrees: tests/hw/data/h200/ptxops).
template <unsigned Bits, bool Signed, bool WithC>
void cvt_pack_int(const Inst& in, Ctx& x, std::uint32_t m) {
  constexpr unsigned bits = Bits;
  constexpr std::int64_t lo = Signed ? -(std::int64_t{1} << (Bits - 1)) : 0;
  constexpr std::int64_t hi = Signed ? (std::int64_t{1} << (Bits - 1)) - 1 : (std::int64_t{1} << Bits) - 1;
  constexpr std::uint32_t mask = (1u << bits) - 1u;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = WithC ? x.reg(in.c) : nullptr;
  for_lanes(m, [&](unsigned l) {
    auto sat = [&](std::uint64_t v) {
      const std::int64_t s = static_cast<std::int32_t>(v);
      return static_cast<std::uint32_t>(s < lo ? lo : s > hi ? hi : s) & mask;
    };
    std::uint32_t r = (sat(a[l]) << bits) | sat(b[l]);
    if constexpr (WithC) r |= static_cast<std::uint32_t>(c[l]) << (2 * bits);
    d[l] = r;
  });
}

bool float_kind(Type t, FK& k) {
  switch (t) {
    case Type::kF16: k = FK::kF16; return true;
    case Type::kBF16: k = FK::kBF16; return true;
    case Type::kF32: k = FK::kF32; return true;
    case Type::kF64: k = FK::kF64; return true;
    case Type::kTF32: k = FK::kTF32; return true;
    default: return false;
  }
}

template <FK S>
ExecFn pick_ff_dst(FK d) {
  switch (d) {
    case FK::kF16: return &cvt_ff<S, FK::kF16>;
    case FK::kBF16: return &cvt_ff<S, FK::kBF16>;
    case FK::kF32: return &cvt_ff<S, FK::kF32>;
    case FK::kF64: return &cvt_ff<S, FK::kF64>;
    case FK::kTF32: return &cvt_ff<S, FK::kTF32>;
  }
  return nullptr;
}
ExecFn pick_ff(FK s, FK d) {
  switch (s) {
    case FK::kF16: return pick_ff_dst<FK::kF16>(d);
    case FK::kBF16: return pick_ff_dst<FK::kBF16>(d);
    case FK::kF32: case FK::kTF32: return pick_ff_dst<FK::kF32>(d);
    case FK::kF64: return pick_ff_dst<FK::kF64>(d);
  }
  return nullptr;
}

#define WS_INTS(X)                                                                    \
  X(Type::kU8, std::uint8_t) X(Type::kS8, std::int8_t) X(Type::kU16, std::uint16_t)   \
  X(Type::kS16, std::int16_t) X(Type::kU32, std::uint32_t) X(Type::kS32, std::int32_t) \
  X(Type::kU64, std::uint64_t) X(Type::kS64, std::int64_t)                             \
  X(Type::kB8, std::uint8_t) X(Type::kB16, std::uint16_t) X(Type::kB32, std::uint32_t)  \
  X(Type::kB64, std::uint64_t)

template <FK S>
ExecFn pick_fi(Type d) {
  switch (d) {
#define X(T, C) case T: return &cvt_fi<S, C>;
    WS_INTS(X)
#undef X
    default: return nullptr;
  }
}
ExecFn pick_fi(FK s, Type d) {
  switch (s) {
    case FK::kF16: return pick_fi<FK::kF16>(d);
    case FK::kBF16: return pick_fi<FK::kBF16>(d);
    case FK::kF32: case FK::kTF32: return pick_fi<FK::kF32>(d);
    case FK::kF64: return pick_fi<FK::kF64>(d);
  }
  return nullptr;
}

template <class S>
ExecFn pick_if_dst(FK d) {
  switch (d) {
    case FK::kF16: return &cvt_if<S, FK::kF16>;
    case FK::kBF16: return &cvt_if<S, FK::kBF16>;
    case FK::kF32: return &cvt_if<S, FK::kF32>;
    case FK::kF64: return &cvt_if<S, FK::kF64>;
    case FK::kTF32: return nullptr;
  }
  return nullptr;
}
ExecFn pick_if(Type s, FK d) {
  switch (s) {
#define X(T, C) case T: return pick_if_dst<C>(d);
    WS_INTS(X)
#undef X
    default: return nullptr;
  }
}

template <class S, bool Sat>
ExecFn pick_ii_dst(Type d) {
  switch (d) {
#define X(T, C) case T: return &cvt_ii<S, C, Sat>;
    WS_INTS(X)
#undef X
    default: return nullptr;
  }
}
ExecFn pick_ii(Type s, Type d, bool sat) {
  switch (s) {
#define X(T, C) case T: return sat ? pick_ii_dst<C, true>(d) : pick_ii_dst<C, false>(d);
    WS_INTS(X)
#undef X
    default: return nullptr;
  }
}

bool int_type(Type t) {
  return ptx::is_signed_int(t) || ptx::is_unsigned_int(t) ||
         (ptx::is_bits(t) && t != Type::kB128);
}

}  // namespace

bool decode_cvt(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  if (ins.op == ptx::Opcode::kCvtPack) {
    const Type dt = ins.type;
    if (!ins.sat || ins.src_type != Type::kS32) dc.unsupported("cvt.pack other than cvt.pack.sat.<type>.s32");
    const bool with_c = dt == Type::kU8 || dt == Type::kS8;
    if (!with_c && dt != Type::kU16 && dt != Type::kS16) dc.unsupported(fmt::format("cvt.pack to .{}", ptx::to_string(dt)));
    if (with_c != (ins.operands.size() == 4) || (with_c && ins.src2_type != Type::kB32))
      dc.unsupported("cvt.pack: the 8-, 4- and 2-bit forms take .s32.b32 and a third source c, the 16-bit forms .s32 and none");
    out.d = dc.dst(ins.operands[0]);
    out.a = dc.src(ins.operands[1], Type::kS32);
    out.b = dc.src(ins.operands[2], Type::kS32);
    if (with_c) out.c = dc.src(ins.operands[3], Type::kB32);
    const bool sgn = dt == Type::kS16 || dt == Type::kS8;
    switch (dt == Type::kU16 || dt == Type::kS16 ? 16 : ins.pack_bits == 0 ? 8 : ins.pack_bits) {
      case 16: out.fn = sgn ? &cvt_pack_int<16, true, false> : &cvt_pack_int<16, false, false>; break;
      case 8: out.fn = sgn ? &cvt_pack_int<8, true, true> : &cvt_pack_int<8, false, true>; break;
      case 4: out.fn = sgn ? &cvt_pack_int<4, true, true> : &cvt_pack_int<4, false, true>; break;
      default: out.fn = sgn ? &cvt_pack_int<2, true, true> : &cvt_pack_int<2, false, true>; break;
    }
    return true;
  }
  if (ins.op != ptx::Opcode::kCvt) return false;
  const Type dt = ins.type, st = ins.src_type;
  const auto& ops = ins.operands;
  std::uint32_t aux = 0;
  if (ins.sat) aux |= kSat;
  if (ins.ftz) aux |= kFtz;
  if (ins.relu) aux |= kRelu;
  if (ins.satfinite) aux |= kSatFinite;
  switch (ins.rounding) {
    case ptx::Rounding::kRni: aux |= 1u << kIntRoundShift; break;
    case ptx::Rounding::kRzi: aux |= 2u << kIntRoundShift; break;
    case ptx::Rounding::kRmi: aux |= 3u << kIntRoundShift; break;
    case ptx::Rounding::kRpi: aux |= 4u << kIntRoundShift; break;
    case ptx::Rounding::kRz: aux |= (static_cast<std::uint32_t>(Round::kZero) + 1) << kFloatRoundShift; break;
    case ptx::Rounding::kRm: aux |= (static_cast<std::uint32_t>(Round::kDown) + 1) << kFloatRoundShift; break;
    case ptx::Rounding::kRp: aux |= (static_cast<std::uint32_t>(Round::kUp) + 1) << kFloatRoundShift; break;
    case ptx::Rounding::kRna: aux |= (static_cast<std::uint32_t>(Round::kNearestAway) + 1) << kFloatRoundShift; break;
    case ptx::Rounding::kRs: dc.unsupported("cvt.rs (stochastic rounding)");
    default: break;
  }
  out.aux = aux;
  out.d = dc.dst(ops[0]);

  // Packing conversions: two f32 sources.
  if ((dt == Type::kF16x2 || dt == Type::kBF16x2) && st == Type::kF32) {
    if (ops.size() < 3) dc.unsupported("cvt to a packed pair from one source");
    out.a = dc.src(ops[1], Type::kF32);
    out.b = dc.src(ops[2], Type::kF32);
    out.fn = dt == Type::kBF16x2 ? &cvt_pack2<true> : &cvt_pack2<false>;
    return true;
  }
  // The 8-bit float pairs: .rn only; .satfinite required into them (the PTX ISA's forms).
  const bool to_fp8 = dt == Type::kE4M3x2 || dt == Type::kE5M2x2, from_fp8 = st == Type::kE4M3x2 || st == Type::kE5M2x2;
  if (to_fp8 || from_fp8) {
    if (ins.rounding != ptx::Rounding::kRn) dc.unsupported(fmt::format("cvt.{}.{} without .rn", ptx::to_string(dt), ptx::to_string(st)));
    if (ins.sat || ins.ftz) dc.unsupported(fmt::format("cvt.{}.{} with .sat or .ftz", ptx::to_string(dt), ptx::to_string(st)));
    if (to_fp8 && !ins.satfinite) dc.unsupported(fmt::format("cvt.{}.{} without .satfinite", ptx::to_string(dt), ptx::to_string(st)));
    const bool e4m3 = to_fp8 ? dt == Type::kE4M3x2 : st == Type::kE4M3x2;
    if (to_fp8 && st == Type::kF32) {
      if (ops.size() < 3) dc.unsupported("cvt to an 8-bit float pair from one .f32 source");
      out.a = dc.src(ops[1], Type::kF32);
      out.b = dc.src(ops[2], Type::kF32);
      out.fn = e4m3 ? &cvt_to_fp8x2<true, true> : &cvt_to_fp8x2<false, true>;
    } else if (to_fp8 && st == Type::kF16x2) {
      out.a = dc.src(ops[1], Type::kB32);
      out.fn = e4m3 ? &cvt_to_fp8x2<true, false> : &cvt_to_fp8x2<false, false>;
    } else if (from_fp8 && dt == Type::kF16x2) {
      out.a = dc.src(ops[1], Type::kB16);
      out.fn = e4m3 ? &cvt_from_fp8x2<true> : &cvt_from_fp8x2<false>;
    } else {
      dc.unsupported(fmt::format("cvt.{}.{}", ptx::to_string(dt), ptx::to_string(st)));
    }
    return true;
  }
  out.a = dc.src(ops[1], st);
  FK dk{}, sk{};
  const bool df = float_kind(dt, dk), sf = float_kind(st, sk);
  if (df && sf) {
    out.fn = pick_ff(sk, dk);
  } else if (sf && int_type(dt)) {
    if (((aux >> kIntRoundShift) & 0xf) == 0) out.aux |= 2u << kIntRoundShift;  // default: truncate
    out.fn = pick_fi(sk, dt);
  } else if (int_type(st) && df) {
    out.fn = pick_if(st, dk);
  } else if (int_type(st) && int_type(dt)) {
    out.fn = pick_ii(st, dt, ins.sat);
  }
  if (out.fn == nullptr) {
    dc.unsupported(fmt::format("cvt.{}.{}", ptx::to_string(dt), ptx::to_string(st)));
  }
  return true;
}

namespace {
struct CvtRow {
  ExecFn fn;
  JitOp op;
  std::uint8_t src_bits, bits;
  bool src_sgn, sgn;
};
template <class T>
constexpr std::uint8_t bits_of() {
  return std::uint8_t(sizeof(T) * 8);
}
template <class... Ds>
struct CvtDsts {
  template <class S>
  static void add(std::vector<CvtRow>& rows) {
    (rows.push_back(CvtRow{&cvt_ii<S, Ds, false>, JitOp::kCvtInt, bits_of<S>(), bits_of<Ds>(), std::is_signed_v<S>,
                           std::is_signed_v<Ds>}),
     ...);
  }
};
template <class... Is>
std::vector<CvtRow> cvt_rows() {
  std::vector<CvtRow> rows;
  (CvtDsts<Is...>::template add<Is>(rows), ...);
  (rows.push_back(CvtRow{&cvt_if<Is, FK::kF32>, JitOp::kCvtIF, bits_of<Is>(), 32, std::is_signed_v<Is>, false}), ...);
  (rows.push_back(CvtRow{&cvt_if<Is, FK::kF64>, JitOp::kCvtIF, bits_of<Is>(), 64, std::is_signed_v<Is>, false}), ...);
  (rows.push_back(CvtRow{&cvt_fi<FK::kF32, Is>, JitOp::kCvtFI, 32, bits_of<Is>(), false, std::is_signed_v<Is>}), ...);
  (rows.push_back(CvtRow{&cvt_fi<FK::kF64, Is>, JitOp::kCvtFI, 64, bits_of<Is>(), false, std::is_signed_v<Is>}), ...);
  rows.push_back(CvtRow{&cvt_ff<FK::kF32, FK::kF32>, JitOp::kCvtFF, 32, 32, false, false});
  rows.push_back(CvtRow{&cvt_ff<FK::kF32, FK::kF64>, JitOp::kCvtFF, 32, 64, false, false});
  rows.push_back(CvtRow{&cvt_ff<FK::kF64, FK::kF32>, JitOp::kCvtFF, 64, 32, false, false});
  rows.push_back(CvtRow{&cvt_ff<FK::kF64, FK::kF64>, JitOp::kCvtFF, 64, 64, false, false});
  return rows;
}
}  // namespace

bool describe_cvt(ExecFn f, std::uint32_t aux, JitDesc& d) {
  // integer -> integer without .sat (cvt_ii): every pair of the 8 integer types (the .b types
  // share the unsigned ones' functions); integer -> f32/f64 without a modifier (round to nearest);
  // f32/f64 -> f32/f64 and f32/f64 -> integer with at most an integer rounding (.rni/.rzi/.rmi/.rpi).
  static const std::vector<CvtRow> rows = cvt_rows<std::uint8_t, std::int8_t, std::uint16_t, std::int16_t, std::uint32_t,
                                                   std::int32_t, std::uint64_t, std::int64_t>();
  for (const CvtRow& r : rows) {
    if (r.fn != f) continue;
    const std::uint32_t rnd = (aux >> kIntRoundShift) & 0xf;
    if (r.op == JitOp::kCvtIF && aux != 0) return false;
    if ((r.op == JitOp::kCvtFF || r.op == JitOp::kCvtFI) && ((aux & ~(0xfu << kIntRoundShift)) != 0 || rnd > 4)) {
      return false;
    }
    if (r.op == JitOp::kCvtFI && rnd == 0) return false;
    d.op = r.op;
    d.bits = r.bits;
    d.sgn = r.sgn;
    d.src_bits = r.src_bits;
    d.src_sgn = r.src_sgn;
    d.rnd = r.op == JitOp::kCvtInt || r.op == JitOp::kCvtIF ? 0 : static_cast<std::uint8_t>(rnd);
    return true;
  }
  return false;
}

}  // namespace warpscope::exec
