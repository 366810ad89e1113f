// f32 and f64 arithmetic (PTX ISA "Floating-Point Instructions"): add, sub, mul, fma/mad, div,
// rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh, abs, neg, min, max, copysign, testp.
//
// Rounding: .rn (the default) is the host's default mode; .rz/.rm/.rp switch the host rounding
// mode around the lane loop (this file is compiled with -frounding-math). .ftz flushes subnormal
// f32 inputs and results to sign-preserving zero; .sat clamps f32 results to [0, 1] (NaN -> 0).
// NaN results are the GPU's canonical NaN. Approximate instructions (.approx, sin, cos, lg2, ex2,
// tanh, rsqrt) use the correctly rounded or libm value, which is inside the PTX ISA's error
// bounds for them.
#include <bit>
#include <cfenv>
#include <cmath>

#include "exec/ops_common.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;
using ptx::Type;

enum Rnd { kRN, kRZ, kRM, kRP };

template <int R>
struct RoundScope {
  RoundScope() {
    if constexpr (R == kRZ) std::fesetround(FE_TOWARDZERO);
    if constexpr (R == kRM) std::fesetround(FE_DOWNWARD);
    if constexpr (R == kRP) std::fesetround(FE_UPWARD);
  }
  ~RoundScope() {
    if constexpr (R != kRN) std::fesetround(FE_TONEAREST);
  }
  RoundScope(const RoundScope&) = delete;
  RoundScope& operator=(const RoundScope&) = delete;
};

inline float sat01(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

/// The rare case of fma_rn_f32: the double sum s = RN(p + c) is exactly halfway between two
/// floats, or lies in the f32 subnormal range. The two-sum error term says on which side of s
/// the exact sum lies.
[[gnu::noinline, gnu::cold]] float fma_rn_f32_slow(double p, double c, double s) {
  const double bb = s - p;
  const double err = (p - (s - bb)) + (c - bb);  // p + c == s + err exactly
  if (err == 0.0) return static_cast<float>(s);
  // Move s one double ulp towards the exact sum: on the same side of every f32 rounding
  // boundary as the exact sum, so it rounds to the same float.
  return static_cast<float>(std::nextafter(s, err > 0 ? INFINITY : -INFINITY));
}

/// f32 fused multiply-add, round to nearest even, without an FMA instruction: the product is
/// exact in double, the sum is rounded once to double, and rounding that to float is correct
/// unless the double sum is exactly an f32 midpoint (or an f32 subnormal), checked on its bits.
inline float fma_rn_f32(float a, float b, float c) {
  const double p = double(a) * double(b);
  const double s = p + double(c);
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(s);
  const std::uint64_t exp = (bits >> 52) & 0x7ff;
  if ((bits & 0x1fffffffu) == 0x10000000u || (exp < 1023 - 126 && (bits << 1) != 0)) [[unlikely]] {
    return fma_rn_f32_slow(p, double(c), s);
  }
  return static_cast<float>(s);
}

struct FAdd { template <class T> static T f(T a, T b) { return a + b; } };
struct FSub { template <class T> static T f(T a, T b) { return a - b; } };
struct FMul { template <class T> static T f(T a, T b) { return a * b; } };
struct FDiv { template <class T> static T f(T a, T b) { return a / b; } };

struct FMin {
  template <class T> static T f(T a, T b) {
    if (a != a) return b;
    if (b != b) return a;
    if (a == b) return std::signbit(a) ? a : b;  // -0 < +0
    return a < b ? a : b;
  }
};
struct FMax {
  template <class T> static T f(T a, T b) {
    if (a != a) return b;
    if (b != b) return a;
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
  }
};
struct FMinNaN {
  template <class T> static T f(T a, T b) { return (a != a || b != b) ? a + b : FMin::f(a, b); }
};
struct FMaxNaN {
  template <class T> static T f(T a, T b) { return (a != a || b != b) ? a + b : FMax::f(a, b); }
};

template <class T, class Op, int R, bool Ftz, bool Sat>
void fbin(const Inst& in, Ctx& x, std::uint32_t m) {
  RoundScope<R> scope;
  lanes2<T, T, T>(in, x, m, [](T a, T b) {
    if constexpr (Ftz) { a = ftz(a); b = ftz(b); }
    T r = Op::f(a, b);
    if constexpr (Ftz) r = ftz(r);
    if constexpr (Sat) r = sat01(r);
    return canon(r);
  });
}

template <class T, int R, bool Ftz, bool Sat>
void ffma(const Inst& in, Ctx& x, std::uint32_t m) {
  RoundScope<R> scope;
  lanes3<T, T, T, T>(in, x, m, [](T a, T b, T c) {
    if constexpr (Ftz) { a = ftz(a); b = ftz(b); c = ftz(c); }
    T r;
    if constexpr (std::is_same_v<T, float> && R == kRN) r = fma_rn_f32(a, b, c);
    else r = std::fma(a, b, c);
    if constexpr (Ftz) r = ftz(r);
    if constexpr (Sat) r = sat01(r);
    return canon(r);
  });
}

/// The same with the host's FMA instruction (x86-64 with FMA3), chosen at decode time when the
/// CPU has one: std::fma compiles to one vfmadd, exact in every rounding mode.
template <class T, int R, bool Ftz, bool Sat>
[[gnu::target("avx2,fma")]] void ffma_hw(const Inst& in, Ctx& x, std::uint32_t m) {
  RoundScope<R> scope;
  lanes3<T, T, T, T>(in, x, m, [](T a, T b, T c) {
    if constexpr (Ftz) { a = ftz(a); b = ftz(b); c = ftz(c); }
    T r = std::fma(a, b, c);
    if constexpr (Ftz) r = ftz(r);
    if constexpr (Sat) r = sat01(r);
    return canon(r);
  });
}

bool host_has_fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

struct URcp { template <class T> static T f(T a) { return T(1) / a; } };
struct USqrt { template <class T> static T f(T a) { return std::sqrt(a); } };
struct URsqrt { template <class T> static T f(T a) { return T(1) / std::sqrt(a); } };
struct USin { template <class T> static T f(T a) { return std::sin(a); } };
struct UCos { template <class T> static T f(T a) { return std::cos(a); } };
struct ULg2 { template <class T> static T f(T a) { return std::log2(a); } };
struct UEx2 { template <class T> static T f(T a) { return std::exp2(a); } };
struct UTanh { template <class T> static T f(T a) { return std::tanh(a); } };

template <class T, class Op, int R, bool Ftz>
void funary(const Inst& in, Ctx& x, std::uint32_t m) {
  RoundScope<R> scope;
  lanes1<T, T>(in, x, m, [](T a) {
    if constexpr (Ftz) a = ftz(a);
    T r = Op::f(a);
    if constexpr (Ftz) r = ftz(r);
    return canon(r);
  });
}

/// rcp.approx.ftz.f64: the ftz applies to the double input and result.
void rcp_approx_ftz_f64(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<double, double>(in, x, m, [](double a) {
    if (std::fpclassify(a) == FP_SUBNORMAL) a = std::copysign(0.0, a);
    double r = 1.0 / a;
    if (std::fpclassify(r) == FP_SUBNORMAL) r = std::copysign(0.0, r);
    return canon(r);
  });
}

template <class T, bool Ftz> void fabs_(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<T, T>(in, x, m, [](T a) {
    if constexpr (Ftz) a = ftz(a);
    return std::fabs(a);
  });
}
template <class T, bool Ftz> void fneg(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<T, T>(in, x, m, [](T a) {
    if constexpr (Ftz) a = ftz(a);
    return -a;
  });
}
template <class T> void copysign_(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return std::copysign(b, a); });
}
template <class T, ptx::TestpOp Op> void testp(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<bool, T>(in, x, m, [](T a) {
    switch (Op) {
      case ptx::TestpOp::kFinite: return std::isfinite(a);
      case ptx::TestpOp::kInfinite: return std::isinf(a);
      case ptx::TestpOp::kNumber: return !std::isnan(a);
      case ptx::TestpOp::kNotANumber: return std::isnan(a);
      case ptx::TestpOp::kNormal: return std::isnormal(a);
      case ptx::TestpOp::kSubnormal: return std::fpclassify(a) == FP_SUBNORMAL;
      case ptx::TestpOp::kNone: break;
    }
    return false;
  });
}

int rnd_of(ptx::Rounding r) {
  switch (r) {
    case ptx::Rounding::kRz: return kRZ;
    case ptx::Rounding::kRm: return kRM;
    case ptx::Rounding::kRp: return kRP;
    default: return kRN;
  }
}

template <class Op>
ExecFn pick_bin(Type t, int r, bool ftz, bool sat) {
  if (t == Type::kF64) {
    switch (r) {
      case kRZ: return &fbin<double, Op, kRZ, false, false>;
      case kRM: return &fbin<double, Op, kRM, false, false>;
      case kRP: return &fbin<double, Op, kRP, false, false>;
      default: return &fbin<double, Op, kRN, false, false>;
    }
  }
#define WS_F32(R)                                                                   \
  return ftz ? (sat ? &fbin<float, Op, R, true, true> : &fbin<float, Op, R, true, false>) \
             : (sat ? &fbin<float, Op, R, false, true> : &fbin<float, Op, R, false, false>)
  switch (r) {
    case kRZ: WS_F32(kRZ);
    case kRM: WS_F32(kRM);
    case kRP: WS_F32(kRP);
    default: WS_F32(kRN);
  }
#undef WS_F32
}

template <template <class, int, bool, bool> class F>
struct FmaTable {
  static ExecFn pick(Type t, int r, bool ftz, bool sat);
};

template <class T, int R, bool Ftz, bool Sat>
struct SoftFma {
  static void run(const Inst& in, Ctx& x, std::uint32_t m) { ffma<T, R, Ftz, Sat>(in, x, m); }
};
template <class T, int R, bool Ftz, bool Sat>
struct HwFma {
  static void run(const Inst& in, Ctx& x, std::uint32_t m) { ffma_hw<T, R, Ftz, Sat>(in, x, m); }
};

template <template <class, int, bool, bool> class F>
ExecFn FmaTable<F>::pick(Type t, int r, bool ftz, bool sat) {
  if (t == Type::kF64) {
    switch (r) {
      case kRZ: return &F<double, kRZ, false, false>::run;
      case kRM: return &F<double, kRM, false, false>::run;
      case kRP: return &F<double, kRP, false, false>::run;
      default: return &F<double, kRN, false, false>::run;
    }
  }
#define WS_F32(R)                                                                                         \
  return ftz ? (sat ? &F<float, R, true, true>::run : &F<float, R, true, false>::run)                     \
             : (sat ? &F<float, R, false, true>::run : &F<float, R, false, false>::run)
  switch (r) {
    case kRZ: WS_F32(kRZ);
    case kRM: WS_F32(kRM);
    case kRP: WS_F32(kRP);
    default: WS_F32(kRN);
  }
#undef WS_F32
}

ExecFn pick_fma(Type t, int r, bool ftz, bool sat) {
  return host_has_fma() ? FmaTable<HwFma>::pick(t, r, ftz, sat) : FmaTable<SoftFma>::pick(t, r, ftz, sat);
}

template <class Op>
ExecFn pick_unary(Type t, int r, bool ftz) {
  if (t == Type::kF64) {
    switch (r) {
      case kRZ: return &funary<double, Op, kRZ, false>;
      case kRM: return &funary<double, Op, kRM, false>;
      case kRP: return &funary<double, Op, kRP, false>;
      default: return &funary<double, Op, kRN, false>;
    }
  }
  switch (r) {
    case kRZ: return ftz ? &funary<float, Op, kRZ, true> : &funary<float, Op, kRZ, false>;
    case kRM: return ftz ? &funary<float, Op, kRM, true> : &funary<float, Op, kRM, false>;
    case kRP: return ftz ? &funary<float, Op, kRP, true> : &funary<float, Op, kRP, false>;
    default: return ftz ? &funary<float, Op, kRN, true> : &funary<float, Op, kRN, false>;
  }
}

template <ptx::TestpOp Op>
ExecFn pick_testp(Type t) {
  return t == Type::kF64 ? &testp<double, Op> : &testp<float, Op>;
}

}  // namespace

bool decode_float(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const Type t = ins.type;
  if (t != Type::kF32 && t != Type::kF64) return false;
  const auto& ops = ins.operands;
  const int r = rnd_of(ins.rounding);
  const bool f32 = t == Type::kF32;
  const bool ftz = ins.ftz && f32;
  const bool sat = ins.sat && f32;
  if (ins.sat && !f32) dc.unsupported(".sat on .f64");
  auto un = [&] {
    out.d = dc.dst(ops[0]);
    out.a = dc.src(ops[1], t);
  };
  auto bin = [&] {
    un();
    out.b = dc.src(ops[2], t);
  };
  switch (ins.op) {
    case Opcode::kAdd: bin(); out.fn = pick_bin<FAdd>(t, r, ftz, sat); return true;
    case Opcode::kSub: bin(); out.fn = pick_bin<FSub>(t, r, ftz, sat); return true;
    case Opcode::kMul: bin(); out.fn = pick_bin<FMul>(t, r, ftz, sat); return true;
    case Opcode::kFma:
    case Opcode::kMad:
      bin();
      out.c = dc.src(ops[3], t);
      out.fn = pick_fma(t, r, ftz, sat);
      return true;
    case Opcode::kDiv:
      bin();
      // div.approx / div.full (f32) and div.rnd: the correctly rounded quotient.
      out.fn = pick_bin<FDiv>(t, ins.approx || ins.full ? kRN : r, ftz, sat);
      return true;
    case Opcode::kMin:
    case Opcode::kMax:
      bin();
      if (ins.xorsign_abs) dc.unsupported("min/max .xorsign.abs");
      if (ins.op == Opcode::kMin) out.fn = ins.nan ? pick_bin<FMinNaN>(t, kRN, ftz, false) : pick_bin<FMin>(t, kRN, ftz, false);
      else out.fn = ins.nan ? pick_bin<FMaxNaN>(t, kRN, ftz, false) : pick_bin<FMax>(t, kRN, ftz, false);
      return true;
    case Opcode::kRcp:
      un();
      if (!f32 && ins.approx && ins.ftz) out.fn = &rcp_approx_ftz_f64;
      else out.fn = pick_unary<URcp>(t, ins.approx ? kRN : r, ftz);
      return true;
    case Opcode::kSqrt: un(); out.fn = pick_unary<USqrt>(t, ins.approx ? kRN : r, ftz); return true;
    case Opcode::kRsqrt: un(); out.fn = pick_unary<URsqrt>(t, kRN, ftz || (ins.ftz && !f32)); return true;
    case Opcode::kSin: un(); out.fn = pick_unary<USin>(t, kRN, ftz); return true;
    case Opcode::kCos: un(); out.fn = pick_unary<UCos>(t, kRN, ftz); return true;
    case Opcode::kLg2: un(); out.fn = pick_unary<ULg2>(t, kRN, ftz); return true;
    case Opcode::kEx2: un(); out.fn = pick_unary<UEx2>(t, kRN, ftz); return true;
    case Opcode::kTanh: un(); out.fn = pick_unary<UTanh>(t, kRN, ftz); return true;
    case Opcode::kAbs:
      un();
      out.fn = f32 ? (ftz ? &fabs_<float, true> : &fabs_<float, false>) : &fabs_<double, false>;
      return true;
    case Opcode::kNeg:
      un();
      out.fn = f32 ? (ftz ? &fneg<float, true> : &fneg<float, false>) : &fneg<double, false>;
      return true;
    case Opcode::kCopysign:
      bin();
      out.fn = f32 ? &copysign_<float> : &copysign_<double>;
      return true;
    case Opcode::kTestp:
      un();
      switch (ins.testp) {
        case ptx::TestpOp::kFinite: out.fn = pick_testp<ptx::TestpOp::kFinite>(t); break;
        case ptx::TestpOp::kInfinite: out.fn = pick_testp<ptx::TestpOp::kInfinite>(t); break;
        case ptx::TestpOp::kNumber: out.fn = pick_testp<ptx::TestpOp::kNumber>(t); break;
        case ptx::TestpOp::kNotANumber: out.fn = pick_testp<ptx::TestpOp::kNotANumber>(t); break;
        case ptx::TestpOp::kNormal: out.fn = pick_testp<ptx::TestpOp::kNormal>(t); break;
        case ptx::TestpOp::kSubnormal: out.fn = pick_testp<ptx::TestpOp::kSubnormal>(t); break;
        case ptx::TestpOp::kNone: dc.unsupported("testp without an operation");
      }
      return true;
    default: return false;
  }
}

}  // namespace warpscope::exec
