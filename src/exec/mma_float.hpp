// The float formats of the tensor-core arithmetic (mma_numerics.cpp, wgmma_fp8.cpp): decoding raw
// element bits into sign, significand and exponent, rounding an exact scaled integer back into a
// format (toward zero or to nearest even), and the special cases of a dot product.
#pragma once

#include <bit>
#include <cstdint>

#include "ptx/mma.hpp"

namespace warpscope::exec::mma_math::detail {

using ptx::MmaType;
__extension__ typedef unsigned __int128 u128;
__extension__ typedef __int128 i128;

struct Format {
  int exp_bits, man_bits, bias;
};
inline Format format_of(MmaType t) {
  switch (t) {
    case MmaType::kF16: return {5, 10, 15};
    case MmaType::kBF16: return {8, 7, 127};
    case MmaType::kTF32: case MmaType::kF32: return {8, 23, 127};
    case MmaType::kF64: return {11, 52, 1023};
    case MmaType::kE4M3: return {4, 3, 7};   // no infinity; S.1111.111 is NaN
    case MmaType::kE5M2: return {5, 2, 15};  // infinities and NaNs as .f16
    default: return {0, 0, 0};
  }
}

/// A float operand: value = (neg ? -1 : 1) * sig * 2^exp; lead = floor(log2 |value|).
struct Num {
  enum Cls : std::uint8_t { kZero, kFinite, kInf, kNaN } cls = kZero;
  bool neg = false;
  std::uint64_t sig = 0;
  int exp = 0;
  int lead = 0;
};

inline Num decode(MmaType t, std::uint64_t bits) {
  if (t == MmaType::kTF32) bits &= 0xffffe000u;  // the tensor cores read 10 mantissa bits
  const Format f = format_of(t);
  Num n;
  const std::uint64_t man = bits & ((std::uint64_t{1} << f.man_bits) - 1);
  const std::uint64_t be = (bits >> f.man_bits) & ((std::uint64_t{1} << f.exp_bits) - 1);
  n.neg = ((bits >> (f.exp_bits + f.man_bits)) & 1) != 0;
  const bool top = be == (std::uint64_t{1} << f.exp_bits) - 1;
  if (top && t == MmaType::kE4M3 && man == 7) {
    n.cls = Num::kNaN;
    return n;
  }
  if (top && t != MmaType::kE4M3) {
    n.cls = man == 0 ? Num::kInf : Num::kNaN;
    return n;
  }
  if (be == 0) {
    if (man == 0) return n;  // zero
    n.cls = Num::kFinite;
    n.sig = man;
    n.exp = 1 - f.bias - f.man_bits;
  } else {
    n.cls = Num::kFinite;
    n.sig = man | (std::uint64_t{1} << f.man_bits);
    n.exp = static_cast<int>(be) - f.bias - f.man_bits;
  }
  n.lead = n.exp + static_cast<int>(std::bit_width(n.sig)) - 1;
  return n;
}

inline std::uint64_t canonical_nan(MmaType t) {
  return t == MmaType::kF16 ? 0x7fffu : t == MmaType::kF64 ? 0x7fffffffffffffffull : 0x7fffffffu;
}
inline std::uint64_t infinity(MmaType t, bool neg) {
  const Format f = format_of(t);
  const std::uint64_t inf = ((std::uint64_t{1} << f.exp_bits) - 1) << f.man_bits;
  return neg ? inf | (std::uint64_t{1} << (f.exp_bits + f.man_bits)) : inf;
}

/// Rounds neg * mag * 2^e2 to format t (toward zero or to nearest even).
inline std::uint64_t round_to(MmaType t, bool neg, u128 mag, int e2, bool nearest) {
  const Format f = format_of(t);
  const std::uint64_t sign = neg ? std::uint64_t{1} << (f.exp_bits + f.man_bits) : 0;
  if (mag == 0) return sign;
  const int width = 128 - static_cast<int>(mag >> 64 ? std::countl_zero(static_cast<std::uint64_t>(mag >> 64))
                                                    : 64 + std::countl_zero(static_cast<std::uint64_t>(mag)));
  const int emin = 1 - f.bias, emax = (1 << f.exp_bits) - 2 - f.bias;
  int e = e2 + width - 1;
  if (e < emin) e = emin;
  const int lsb = e - f.man_bits;  // exponent of the result's last bit
  u128 q;
  const int shift = lsb - e2;
  if (shift <= 0) {
    q = mag << -shift;
  } else if (shift >= 128) {
    q = 0;
    if (nearest && shift == 128 && (mag >> 127)) q = 1;  // unreachable for the sizes used
  } else {
    q = mag >> shift;
    if (nearest) {
      const u128 rem = mag & ((u128{1} << shift) - 1);
      const u128 half = u128{1} << (shift - 1);
      if (rem > half || (rem == half && (q & 1))) ++q;
    }
  }
  if (q >> (f.man_bits + 1)) {  // rounded up to the next binade
    q >>= 1;
    ++e;
  }
  if (e > emax) {
    if (nearest) return infinity(t, neg);
    return sign | (static_cast<std::uint64_t>(emax + f.bias) << f.man_bits) | ((std::uint64_t{1} << f.man_bits) - 1);
  }
  const auto qq = static_cast<std::uint64_t>(q);
  if (qq < (std::uint64_t{1} << f.man_bits)) return sign | qq;  // subnormal (e == emin)
  return sign | (static_cast<std::uint64_t>(e + f.bias) << f.man_bits) | (qq - (std::uint64_t{1} << f.man_bits));
}

/// Special cases of a dot product: NaN, or an infinity; false when every operand is finite.
inline bool special(const Num* a, const Num* b, unsigned k, const Num& c, bool& nan, bool& neg_inf) {
  bool pos = false, negv = false, any = false;
  nan = false;
  if (c.cls == Num::kNaN) nan = true;
  if (c.cls == Num::kInf) (c.neg ? negv : pos) = true;
  for (unsigned i = 0; i < k; ++i) {
    if (a[i].cls == Num::kNaN || b[i].cls == Num::kNaN) nan = true;
    const bool ai = a[i].cls == Num::kInf, bi = b[i].cls == Num::kInf;
    if (ai || bi) {
      if ((ai && b[i].cls == Num::kZero) || (bi && a[i].cls == Num::kZero)) nan = true;
      (a[i].neg != b[i].neg ? negv : pos) = true;
    }
  }
  any = nan || pos || negv;
  if (pos && negv) nan = true;
  neg_inf = negv;
  return any;
}

}  // namespace warpscope::exec::mma_math::detail
