#include "exec/mma_numerics.hpp"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstring>

#include "exec/mma_float.hpp"
#include "exec/smallfloat.hpp"
#include "ptx/mma.hpp"

namespace warpscope::exec::mma_math {

using namespace detail;

std::uint32_t fused_dot(MmaType ab, const std::uint32_t* a, const std::uint32_t* b, unsigned k, unsigned group,
                        MmaType tc, std::uint32_t c, MmaType td) {
  Num na[32], nb[32];
  for (unsigned i = 0; i < k; ++i) {
    na[i] = decode(ab, a[i]);
    nb[i] = decode(ab, b[i]);
  }
  Num acc = decode(tc, c);
  std::uint64_t out = c;
  for (unsigned g0 = 0; g0 < k; g0 += group) {
    const unsigned n = std::min(group, k - g0);
    bool nan = false, neg_inf = false;
    if (special(na + g0, nb + g0, n, acc, nan, neg_inf)) {
      if (nan) return static_cast<std::uint32_t>(canonical_nan(td));
      out = infinity(td, neg_inf);  // the next group (wmma .tf32) may still make it NaN
      acc = decode(td, out);
      continue;
    }
    int emax = acc.cls == Num::kFinite ? acc.lead : INT32_MIN;
    for (unsigned i = g0; i < g0 + n; ++i)
      if (na[i].cls == Num::kFinite && nb[i].cls == Num::kFinite) emax = std::max(emax, na[i].lead + nb[i].lead);
    if (emax == INT32_MIN) {  // every term is zero
      bool all_neg = acc.neg;
      for (unsigned i = g0; i < g0 + n; ++i) all_neg = all_neg && (na[i].neg != nb[i].neg);
      const Format f = format_of(td);
      out = all_neg ? std::uint64_t{1} << (f.exp_bits + f.man_bits) : 0;  // -0 only when every term is -0
      acc = decode(td, out);
      continue;
    }
    const int grid = emax - 25;
    std::int64_t sum = 0;
    auto add = [&](bool neg, std::uint64_t sig, int exp) {
      const int shift = exp - grid;
      const std::uint64_t v = shift >= 0 ? sig << shift : (shift > -64 ? sig >> -shift : 0);
      sum += neg ? -static_cast<std::int64_t>(v) : static_cast<std::int64_t>(v);
    };
    if (acc.cls == Num::kFinite) add(acc.neg, acc.sig, acc.exp);
    for (unsigned i = g0; i < g0 + n; ++i)
      if (na[i].cls == Num::kFinite && nb[i].cls == Num::kFinite)
        add(na[i].neg != nb[i].neg, na[i].sig * nb[i].sig, na[i].exp + nb[i].exp);
    const bool neg = sum < 0;
    const std::uint64_t mag = neg ? static_cast<std::uint64_t>(-sum) : static_cast<std::uint64_t>(sum);
    out = round_to(td, neg, mag, grid, td == MmaType::kF16);
    acc = decode(td, out);
  }
  return static_cast<std::uint32_t>(out);
}

namespace {

/// x + y rounded to nearest even, as FADD (.f32) or HADD2 (.f16) give it: a NaN is the canonical
/// NaN, an exact zero sum is +0 unless both are -0, overflow is infinity.
std::uint32_t add_rn(MmaType t, std::uint32_t x, std::uint32_t y) {
  if (t == MmaType::kF32) {
    float fx, fy;
    std::memcpy(&fx, &x, 4);
    std::memcpy(&fy, &y, 4);
    const float s = fx + fy;  // the host's default rounding: to nearest even, subnormals kept
    std::uint32_t bits;
    std::memcpy(&bits, &s, 4);
    return (bits & 0x7fffffffu) > 0x7f800000u ? 0x7fffffffu : bits;
  }
  const Num a = decode(MmaType::kF16, x), b = decode(MmaType::kF16, y);
  if (a.cls == Num::kNaN || b.cls == Num::kNaN || (a.cls == Num::kInf && b.cls == Num::kInf && a.neg != b.neg))
    return 0x7fffu;
  if (a.cls == Num::kInf || b.cls == Num::kInf)
    return static_cast<std::uint32_t>(infinity(MmaType::kF16, a.cls == Num::kInf ? a.neg : b.neg));
  // Both finite: multiples of 2^-24 below 2^16, so the sum is exact in 64 bits.
  std::int64_t sum = 0;
  for (const Num* v : {&a, &b})
    if (v->cls == Num::kFinite) sum += (v->neg ? -1 : 1) * static_cast<std::int64_t>(v->sig << (v->exp + 24));
  if (sum == 0) return a.neg && b.neg && a.cls == Num::kZero && b.cls == Num::kZero ? 0x8000u : 0u;
  const bool neg = sum < 0;
  return static_cast<std::uint32_t>(round_to(MmaType::kF16, neg, static_cast<u128>(neg ? -sum : sum), -24, true));
}

}  // namespace

std::uint32_t fp8_dot(MmaType ta, MmaType tb, const std::uint32_t* a, const std::uint32_t* b, unsigned k,
                      std::uint32_t c, MmaType td) {
  // ptxas's sm_90 code for mma.sync .e4m3/.e5m2: F2FP unpacks each register's low and high
  // element pairs to .f16x2; one HMMA (C = 0) takes the low pairs (k % 4 = 0, 1), a second HMMA
  // the high pairs (k % 4 = 2, 3) with the first's result as C; then FADD/HADD2 adds C.
  std::uint32_t a16[2][16], b16[2][16];
  unsigned n[2] = {0, 0};
  for (unsigned i = 0; i < k && i < 32; ++i) {
    const unsigned h = (i % 4) >= 2 ? 1 : 0;
    // F2FP's unpacking (exact), as the cvt to .f16x2 does it (smallfloat.hpp).
    a16[h][n[h]] = exec::fp8_to_f16(static_cast<std::uint8_t>(a[i]), ta == MmaType::kE4M3, false);
    b16[h][n[h]++] = exec::fp8_to_f16(static_cast<std::uint8_t>(b[i]), tb == MmaType::kE4M3, false);
  }
  std::uint32_t p = fused_dot(MmaType::kF16, a16[0], b16[0], n[0], n[0], td, 0u, td);
  p = fused_dot(MmaType::kF16, a16[1], b16[1], n[1], n[1], td, p, td);
  return add_rn(td, p, c);
}

std::uint32_t chain_884(const std::uint32_t* a, const std::uint32_t* b, MmaType tc, std::uint32_t c, MmaType td) {
  Num na[4], nb[4];
  for (unsigned i = 0; i < 4; ++i) {
    na[i] = decode(MmaType::kF16, a[i]);
    nb[i] = decode(MmaType::kF16, b[i]);
  }
  const Num nc = decode(tc, c);
  bool nan = false, neg_inf = false;
  if (special(na, nb, 4, nc, nan, neg_inf))
    return static_cast<std::uint32_t>(nan ? canonical_nan(td) : infinity(td, neg_inf));
  if (td == MmaType::kF16) {
    // The exact sum: every term is a multiple of 2^-48 (subnormal f16 squared) and below 2^33.
    i128 sum = 0;
    auto add = [&](bool neg, std::uint64_t sig, int exp) {
      const i128 v = static_cast<i128>(sig) << (exp + 48);
      sum += neg ? -v : v;
    };
    if (nc.cls == Num::kFinite) add(nc.neg, nc.sig, nc.exp);
    for (unsigned i = 0; i < 4; ++i)
      if (na[i].cls == Num::kFinite && nb[i].cls == Num::kFinite) add(na[i].neg != nb[i].neg, na[i].sig * nb[i].sig, na[i].exp + nb[i].exp);
    const bool neg = sum < 0;
    return static_cast<std::uint32_t>(round_to(MmaType::kF16, neg, static_cast<u128>(neg ? -sum : sum), -48, true));
  }
  // .f32 D: fused multiply-adds in k order (each rounded to nearest f32), C added last.
  auto value = [](const Num& x) {
    return x.cls == Num::kZero ? (x.neg ? -0.0f : 0.0f) : (x.neg ? -1.0f : 1.0f) * std::ldexp(static_cast<float>(x.sig), x.exp);
  };
  float acc = value(na[0]) * value(nb[0]);  // exact: 22 significant bits
  for (unsigned i = 1; i < 4; ++i) acc = std::fmaf(value(na[i]), value(nb[i]), acc);
  acc = acc + value(nc);
  std::uint32_t bits;
  std::memcpy(&bits, &acc, 4);
  if ((bits & 0x7fffffffu) > 0x7f800000u) bits = 0x7fffffffu;
  return bits;
}

std::uint64_t fma_chain_f64(const std::uint64_t* a, const std::uint64_t* b, unsigned k, std::uint64_t c, ptx::Rounding rnd) {
  const int mode = rnd == ptx::Rounding::kRz ? FE_TOWARDZERO
                   : rnd == ptx::Rounding::kRm ? FE_DOWNWARD
                   : rnd == ptx::Rounding::kRp ? FE_UPWARD
                                               : FE_TONEAREST;
  double acc;
  std::memcpy(&acc, &c, 8);
  const int saved = std::fegetround();
  if (mode != FE_TONEAREST) std::fesetround(mode);
  // NaNs as the H100's DMMA gives them (tests/hw/data/h100/tensor): at each step a NaN in B's
  // element wins, then a NaN accumulator, then a NaN in A's element (each passed on quieted); an
  // invalid operation (inf - inf, 0 x inf) makes 0xfff8000000000000.
  auto is_nan = [](std::uint64_t v) { return (v & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; };
  std::uint64_t bits = c;
  for (unsigned i = 0; i < k; ++i) {
    if (is_nan(b[i])) {
      bits = b[i] | 0x0008000000000000ull;
      continue;
    }
    if (is_nan(bits)) continue;
    if (is_nan(a[i])) {
      bits = a[i] | 0x0008000000000000ull;
      continue;
    }
    double x, y;
    std::memcpy(&x, &a[i], 8);
    std::memcpy(&y, &b[i], 8);
    std::memcpy(&acc, &bits, 8);
    acc = std::fma(x, y, acc);
    std::memcpy(&bits, &acc, 8);
    if (is_nan(bits)) bits = 0xfff8000000000000ull;
  }
  if (mode != FE_TONEAREST) std::fesetround(saved);
  return bits;
}

std::uint32_t int_dot(MmaType ta, MmaType tb, const std::uint32_t* a, const std::uint32_t* b, unsigned k,
                      std::uint32_t c, bool satfinite, unsigned bitop) {
  auto value = [](MmaType t, std::uint32_t v) -> std::int64_t {
    switch (t) {
      case MmaType::kS8: return static_cast<std::int8_t>(v & 0xff);
      case MmaType::kU8: return v & 0xff;
      case MmaType::kS4: return static_cast<std::int64_t>(static_cast<std::int32_t>(v << 28) >> 28);
      case MmaType::kU4: return v & 0xf;
      default: return v & 1;
    }
  };
  std::int64_t sum = static_cast<std::int32_t>(c);
  for (unsigned i = 0; i < k; ++i) {
    if (ta == MmaType::kB1) sum += bitop == 1 ? ((a[i] ^ b[i]) & 1) : ((a[i] & b[i]) & 1);
    else sum += value(ta, a[i]) * value(tb, b[i]);
  }
  if (satfinite) sum = std::clamp<std::int64_t>(sum, INT32_MIN, INT32_MAX);
  return static_cast<std::uint32_t>(sum);
}

}  // namespace warpscope::exec::mma_math
