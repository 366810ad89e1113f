// Bit-exact conversions between double and the narrow float formats PTX uses: f16 (1.5.10),
// bf16 (1.8.7), tf32 (1.8.10, kept in an f32 container) and f32 itself, with every PTX rounding
// mode. A float input converts exactly to double first, so each conversion rounds once.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

namespace warpscope::exec {

enum class Round : std::uint8_t { kNearestEven, kZero, kDown, kUp, kNearestAway };

struct FloatFormat {
  int exp_bits;
  int mant_bits;
  std::uint32_t canonical_nan;
};
inline constexpr FloatFormat kF16{5, 10, 0x7fffu};
inline constexpr FloatFormat kBF16{8, 7, 0x7fffu};

/// Rounds v to the format and returns its bits (sign in bit exp_bits + mant_bits). Overflow gives
/// infinity or the largest finite value as the rounding mode says; `satfinite` clamps to the
/// largest finite value (NaN stays NaN).
inline std::uint32_t encode_small(double v, FloatFormat f, Round mode, bool satfinite = false) {
  const std::uint32_t sign_bit = 1u << (f.exp_bits + f.mant_bits);
  const std::uint32_t exp_all = (1u << f.exp_bits) - 1;
  const std::uint32_t inf_bits = exp_all << f.mant_bits;
  const std::uint32_t max_bits = inf_bits - 1;
  if (std::isnan(v)) return f.canonical_nan;
  const bool neg = std::signbit(v);
  const std::uint32_t sign = neg ? sign_bit : 0;
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | (satfinite ? max_bits : inf_bits);
  if (a == 0) return sign;
  const int bias = (1 << (f.exp_bits - 1)) - 1;
  const int emin = 1 - bias;
  const int emax = bias;
  int e = std::ilogb(a);
  if (e < emin) e = emin;
  const double scaled = std::ldexp(a, f.mant_bits - e);  // exact: a power-of-two scaling
  double ip = std::floor(scaled);
  const double frac = scaled - ip;
  bool up = false;
  switch (mode) {
    case Round::kNearestEven: up = frac > 0.5 || (frac == 0.5 && std::fmod(ip, 2.0) != 0); break;
    case Round::kNearestAway: up = frac >= 0.5; break;
    case Round::kZero: up = false; break;
    case Round::kDown: up = neg && frac > 0; break;
    case Round::kUp: up = !neg && frac > 0; break;
  }
  std::uint64_t mant = static_cast<std::uint64_t>(ip) + (up ? 1 : 0);
  if (mant >> (f.mant_bits + 1)) {
    mant >>= 1;
    ++e;
  }
  if (e > emax) {
    bool to_inf = false;
    switch (mode) {
      case Round::kNearestEven: case Round::kNearestAway: to_inf = true; break;
      case Round::kZero: to_inf = false; break;
      case Round::kDown: to_inf = neg; break;
      case Round::kUp: to_inf = !neg; break;
    }
    return sign | ((to_inf && !satfinite) ? inf_bits : max_bits);
  }
  const std::uint64_t hidden = 1ull << f.mant_bits;
  if (mant < hidden) return sign | static_cast<std::uint32_t>(mant);  // subnormal (e == emin)
  return sign | (static_cast<std::uint32_t>(e + bias) << f.mant_bits) |
         static_cast<std::uint32_t>(mant - hidden);
}

/// The exact value of a narrow float.
inline double decode_small(std::uint32_t bits, FloatFormat f) {
  const std::uint32_t mant_mask = (1u << f.mant_bits) - 1;
  const std::uint32_t exp_all = (1u << f.exp_bits) - 1;
  const bool neg = (bits >> (f.exp_bits + f.mant_bits)) & 1;
  const std::uint32_t e = (bits >> f.mant_bits) & exp_all;
  const std::uint32_t mnt = bits & mant_mask;
  const int bias = (1 << (f.exp_bits - 1)) - 1;
  double v;
  if (e == exp_all) v = mnt ? NAN : INFINITY;
  else if (e == 0) v = std::ldexp(double(mnt), 1 - bias - f.mant_bits);
  else v = std::ldexp(double(mnt | (1u << f.mant_bits)), int(e) - bias - f.mant_bits);
  return neg ? -v : v;
}

inline float f16_to_f32(std::uint16_t h) { return static_cast<float>(decode_small(h, kF16)); }
inline float bf16_to_f32(std::uint16_t h) { return std::bit_cast<float>(std::uint32_t(h) << 16); }
inline std::uint16_t f32_to_f16(float v, Round r = Round::kNearestEven) {
  return static_cast<std::uint16_t>(encode_small(v, kF16, r));
}
inline std::uint16_t f32_to_bf16(float v, Round r = Round::kNearestEven) {
  return static_cast<std::uint16_t>(encode_small(v, kBF16, r));
}

/// f64 -> f32 with a rounding mode (the host conversion rounds to nearest only).
inline float f64_to_f32(double v, Round r) {
  if (r == Round::kNearestEven) return static_cast<float>(v);
  if (std::isnan(v)) return std::bit_cast<float>(0x7fffffffu);
  const std::uint32_t b = encode_small(v, FloatFormat{8, 23, 0x7fffffffu}, r);
  return std::bit_cast<float>(b);
}

/// f32 -> tf32 (the low 13 mantissa bits cleared after rounding).
inline float f32_to_tf32(float v, Round r, bool satfinite = false) {
  if (std::isnan(v)) return std::bit_cast<float>(0x7fffffffu);
  const std::uint32_t b = encode_small(v, FloatFormat{8, 10, 0x7ffffu}, r, satfinite);
  return std::bit_cast<float>(b << 13);
}

/// The 8-bit floats of cvt .e4m3x2 / .e5m2x2 (PTX ISA 9.0, section 5.2.5.3): e4m3 = 1.4.3, bias
/// 7, no infinity, S.1111.111 NaN, largest 448; e5m2 = 1.5.2, bias 15, IEEE-like, largest 57344.
/// `v` (a float or half, exactly representable in double) rounded to nearest even, as the H100's
/// F2FP.SATFINITE gives it on every input measured (tests/hw/data/h100/fp8): NaN -> 0x7f (no
/// sign), a finite value past the largest (after rounding) and infinity -> the signed largest,
/// subnormals kept; `relu`: NaN stays 0x7f, any other negative (-0 and -infinity too) -> +0.
inline std::uint8_t encode_fp8(double v, bool e4m3, bool relu) {
  if (std::isnan(v)) return 0x7f;
  const bool neg = std::signbit(v);
  if (relu && neg) return 0;
  const std::uint8_t sign = neg ? 0x80 : 0;
  const int mant_bits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15, emin = 1 - bias;
  const double largest = e4m3 ? 448.0 : 57344.0;
  const std::uint8_t largest_bits = e4m3 ? 0x7e : 0x7b;
  const double a = std::fabs(v);
  if (std::isinf(a)) return sign | largest_bits;
  if (a == 0) return sign;
  const int e = std::max(std::ilogb(a), emin);
  const double scaled = std::ldexp(a, mant_bits - e);  // exact
  double ip = std::floor(scaled);
  const double frac = scaled - ip;
  if (frac > 0.5 || (frac == 0.5 && std::fmod(ip, 2.0) != 0)) ip += 1;
  const double r = std::ldexp(ip, e - mant_bits);
  if (r > largest) return sign | largest_bits;
  if (r < std::ldexp(1.0, emin))  // subnormal (or rounded up to the smallest normal below)
    return sign | static_cast<std::uint8_t>(std::ldexp(r, mant_bits - emin));
  const int re = std::ilogb(r);
  const auto m = static_cast<std::uint8_t>(std::ldexp(r, mant_bits - re)) & ((1u << mant_bits) - 1);
  return sign | static_cast<std::uint8_t>((re + bias) << mant_bits) | m;
}

/// An 8-bit float as .f16 bits (exact for both formats), as F2FP.F16.E4M3/E5M2.UNPACK_B gives it
/// (tests/hw/data/h100/fp8): NaN -> 0x7fff, e5m2 infinities -> .f16 infinities; `relu`: NaN stays
/// 0x7fff, any other negative -> +0.
inline std::uint16_t fp8_to_f16(std::uint8_t b, bool e4m3, bool relu) {
  const bool neg = (b & 0x80) != 0;
  const unsigned mant_bits = e4m3 ? 3 : 2, exp_all = e4m3 ? 15 : 31;
  const unsigned e = (b >> mant_bits) & exp_all, m = b & ((1u << mant_bits) - 1);
  const bool nan = e4m3 ? (e == exp_all && m == 7) : (e == exp_all && m != 0);
  if (nan) return 0x7fff;
  if (relu && neg) return 0;
  const std::uint16_t sign = neg ? 0x8000 : 0;
  if (!e4m3 && e == exp_all) return sign | 0x7c00;
  const int bias = e4m3 ? 7 : 15;
  const double v = e == 0 ? std::ldexp(double(m), 1 - bias - int(mant_bits))
                          : std::ldexp(double(m | (1u << mant_bits)), int(e) - bias - int(mant_bits));
  return sign | static_cast<std::uint16_t>(encode_small(v, kF16, Round::kNearestEven));
}

}  // namespace warpscope::exec
