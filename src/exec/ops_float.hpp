// The f32/f64 lane loops of ops_float.cpp, shared with ops_float_rn.cpp (internal to src/exec).
//
// ops_float.cpp is compiled with -frounding-math (it switches the host rounding mode for .rz,
// .rm, .rp), which also keeps GCC from vectorizing any floating-point loop. ops_float_rn.cpp
// instantiates the round-to-nearest f32 loops of the hot operations without it, so they
// vectorize; IEEE add, sub, mul, div, sqrt and fma are correctly rounded in vector and scalar
// form alike, so the results are the same bits. Everything here has internal linkage (an
// anonymous namespace): the two files' instantiations, compiled with different flags, never
// replace one another at link time.
#pragma once

#include <bit>
#include <cfenv>
#include <cmath>
#include <type_traits>

#include "exec/ops_common.hpp"

namespace warpscope::exec {

/// The operations that have a round-to-nearest f32 loop in ops_float_rn.cpp.
enum class RnOp { kAdd, kSub, kMul, kDiv, kFma, kRcp, kSqrt, kRsqrt };
/// That loop for `op` (.ftz and .sat as given; .sat is ignored by the unary ones). kFma needs
/// the host's FMA instruction (host_has_fma()).
ExecFn pick_f32_rn(RnOp op, bool ftz, bool sat);

namespace {

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
[[gnu::noinline, gnu::cold]] inline float fma_rn_f32_slow(double p, double c, double s) {
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

struct FAdd { static constexpr RnOp rn = RnOp::kAdd; template <class T> static T f(T a, T b) { return a + b; } };
struct FSub { static constexpr RnOp rn = RnOp::kSub; template <class T> static T f(T a, T b) { return a - b; } };
struct FMul { static constexpr RnOp rn = RnOp::kMul; template <class T> static T f(T a, T b) { return a * b; } };
struct FDiv { static constexpr RnOp rn = RnOp::kDiv; template <class T> static T f(T a, T b) { return a / b; } };

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

struct URcp { static constexpr RnOp rn = RnOp::kRcp; template <class T> static T f(T a) { return T(1) / a; } };
struct USqrt { static constexpr RnOp rn = RnOp::kSqrt; template <class T> static T f(T a) { return std::sqrt(a); } };
struct URsqrt { static constexpr RnOp rn = RnOp::kRsqrt; template <class T> static T f(T a) { return T(1) / std::sqrt(a); } };
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

}  // namespace
}  // namespace warpscope::exec
