#include "exec/wgmma_fp8.hpp"

#include <algorithm>
#include <bit>
#include <climits>

namespace warpscope::exec::mma_math {
namespace {

using ptx::MmaType;

struct Format {
  int exp_bits, man_bits, bias;
  bool has_inf;  // e4m3: no infinity, S.1111.111 is NaN (its other all-ones-exponent values are finite)
};
Format format_of(MmaType t) {
  switch (t) {
    case MmaType::kE4M3: return {4, 3, 7, false};
    case MmaType::kE5M2: return {5, 2, 15, true};
    case MmaType::kF16: return {5, 10, 15, true};
    default: return {8, 23, 127, true};  // .f32
  }
}

/// value = (neg ? -1 : 1) * sig * 2^exp; lead = floor(log2 |value|).
struct Num {
  enum Cls : std::uint8_t { kZero, kFinite, kInf, kNaN } cls = kZero;
  bool neg = false;
  std::uint32_t sig = 0;
  int exp = 0;
  int lead = 0;
};

Num decode(MmaType t, std::uint32_t bits) {
  const Format f = format_of(t);
  Num n;
  const std::uint32_t man = bits & ((1u << f.man_bits) - 1);
  const std::uint32_t be = (bits >> f.man_bits) & ((1u << f.exp_bits) - 1);
  n.neg = ((bits >> (f.exp_bits + f.man_bits)) & 1) != 0;
  if (be == (1u << f.exp_bits) - 1) {
    if (f.has_inf) {
      n.cls = man == 0 ? Num::kInf : Num::kNaN;
      return n;
    }
    if (man == (1u << f.man_bits) - 1) {
      n.cls = Num::kNaN;
      return n;
    }
  }
  if (be == 0) {
    if (man == 0) return n;  // zero
    n.cls = Num::kFinite;
    n.sig = man;
    n.exp = 1 - f.bias - f.man_bits;
  } else {
    n.cls = Num::kFinite;
    n.sig = man | (1u << f.man_bits);
    n.exp = static_cast<int>(be) - f.bias - f.man_bits;
  }
  n.lead = n.exp + static_cast<int>(std::bit_width(n.sig)) - 1;
  return n;
}

/// neg * mag * 2^e2 as .f32 (toward zero) or .f16 (to nearest even), subnormals included.
std::uint32_t encode(MmaType t, bool neg, std::uint64_t mag, int e2) {
  const Format f = format_of(t);
  const bool nearest = t == MmaType::kF16;
  const std::uint32_t sign = neg ? 1u << (f.exp_bits + f.man_bits) : 0;
  const std::uint32_t inf = ((1u << f.exp_bits) - 1) << f.man_bits;
  if (mag == 0) return sign;
  const int emin = 1 - f.bias, emax = (1 << f.exp_bits) - 2 - f.bias;
  int e = std::max(e2 + static_cast<int>(std::bit_width(mag)) - 1, emin);
  const int shift = e - f.man_bits - e2;  // bits of mag below the result's last bit
  std::uint64_t q;
  if (shift <= 0) {
    q = mag << -shift;  // mag has at most 14 significant bits here
  } else if (shift >= 64) {
    q = 0;  // far below the smallest subnormal (not even half of it)
  } else {
    q = mag >> shift;
    if (nearest) {
      const std::uint64_t rem = mag & ((std::uint64_t{1} << shift) - 1), half = std::uint64_t{1} << (shift - 1);
      if (rem > half || (rem == half && (q & 1))) ++q;
    }
  }
  if (q >> (f.man_bits + 1)) {  // rounded up into the next binade
    q >>= 1;
    ++e;
  }
  if (e > emax) return sign | (nearest ? inf : inf - 1);
  const auto qq = static_cast<std::uint32_t>(q);
  if (qq < (1u << f.man_bits)) return sign | qq;  // subnormal (e == emin), or zero
  return sign | (static_cast<std::uint32_t>(e + f.bias) << f.man_bits) | (qq - (1u << f.man_bits));
}

}  // namespace

std::uint32_t qgmma_dot(MmaType ta, MmaType tb, const std::uint32_t* a, const std::uint32_t* b, unsigned k,
                        std::uint32_t c, MmaType td) {
  const std::uint32_t canonical_nan = td == MmaType::kF16 ? 0x7fffu : 0x7fffffffu;
  Num na[32], nb[32];
  k = std::min(k, 32u);
  for (unsigned i = 0; i < k; ++i) {
    na[i] = decode(ta, a[i]);
    nb[i] = decode(tb, b[i]);
  }
  const Num nc = decode(td, c);

  // NaN in, 0 x inf, inf - inf: the canonical NaN; otherwise an infinite term gives itself.
  bool nan = nc.cls == Num::kNaN, pos_inf = false, neg_inf = false;
  if (nc.cls == Num::kInf) (nc.neg ? neg_inf : pos_inf) = true;
  for (unsigned i = 0; i < k; ++i) {
    if (na[i].cls == Num::kNaN || nb[i].cls == Num::kNaN) nan = true;
    const bool ai = na[i].cls == Num::kInf, bi = nb[i].cls == Num::kInf;
    if (ai || bi) {
      if ((ai && nb[i].cls == Num::kZero) || (bi && na[i].cls == Num::kZero)) nan = true;
      (na[i].neg != nb[i].neg ? neg_inf : pos_inf) = true;
    }
  }
  if (nan || (pos_inf && neg_inf)) return canonical_nan;
  if (pos_inf || neg_inf) {
    const Format f = format_of(td);
    const std::uint32_t inf = ((1u << f.exp_bits) - 1) << f.man_bits;
    return neg_inf ? inf | (1u << (f.exp_bits + f.man_bits)) : inf;
  }

  // 1. Align to the largest exponent; truncate each term's magnitude to 2^(emax - 13).
  int emax = nc.cls == Num::kFinite ? nc.lead : INT_MIN;
  for (unsigned i = 0; i < k; ++i)
    if (na[i].cls == Num::kFinite && nb[i].cls == Num::kFinite) emax = std::max(emax, na[i].lead + nb[i].lead);
  if (emax == INT_MIN) {  // every term is zero: -0 only when every one is -0
    bool all_neg = nc.neg;
    for (unsigned i = 0; i < k; ++i) all_neg = all_neg && (na[i].neg != nb[i].neg);
    const Format f = format_of(td);
    return all_neg ? 1u << (f.exp_bits + f.man_bits) : 0u;
  }
  const int grid = emax - 13;
  std::int64_t sum = 0;  // terms are below 2^38 on this grid (C: 24 bits shifted left by at most 13)
  auto add = [&](bool neg, std::uint64_t sig, int exp) {
    const int shift = exp - grid;
    const std::uint64_t v = shift >= 0 ? sig << shift : (shift > -64 ? sig >> -shift : 0);
    sum += neg ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
  };
  if (nc.cls == Num::kFinite) add(nc.neg, nc.sig, nc.exp);
  for (unsigned i = 0; i < k; ++i)
    if (na[i].cls == Num::kFinite && nb[i].cls == Num::kFinite)
      add(na[i].neg != nb[i].neg, std::uint64_t{na[i].sig} * nb[i].sig, na[i].exp + nb[i].exp);
  const bool neg = sum < 0;
  std::uint64_t mag = neg ? static_cast<std::uint64_t>(-sum) : static_cast<std::uint64_t>(sum);
  if (mag == 0) return 0;  // exact cancellation: +0 (as the H100 gives)

  // 2. .f16: to nearest even. .f32: the sum keeps 14 significant bits (toward zero).
  int e2 = grid;
  if (td != MmaType::kF16) {
    const int drop = static_cast<int>(std::bit_width(mag)) - 14;
    if (drop > 0) {
      mag >>= drop;
      e2 += drop;
    }
  }
  return encode(td, neg, mag, e2);
}

}  // namespace warpscope::exec::mma_math
