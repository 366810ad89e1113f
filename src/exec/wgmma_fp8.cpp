#include "exec/wgmma_fp8.hpp"

#include <algorithm>
#include <bit>
#include <climits>

#include "exec/mma_float.hpp"

namespace warpscope::exec::mma_math {

using namespace detail;

std::uint32_t qgmma_dot(MmaType ta, MmaType tb, const std::uint32_t* a, const std::uint32_t* b, unsigned k,
                        std::uint32_t c, MmaType td) {
  Num na[32], nb[32];
  k = std::min(k, 32u);
  for (unsigned i = 0; i < k; ++i) {
    na[i] = decode(ta, a[i]);
    nb[i] = decode(tb, b[i]);
  }
  const Num nc = decode(td, c);

  // NaN in, 0 x inf, inf - inf: the canonical NaN; otherwise an infinite term gives itself.
  bool nan = false, neg_inf = false;
  if (special(na, nb, k, nc, nan, neg_inf))
    return static_cast<std::uint32_t>(nan ? canonical_nan(td) : infinity(td, neg_inf));

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
  return static_cast<std::uint32_t>(round_to(td, neg, mag, e2, td == MmaType::kF16));
}

}  // namespace warpscope::exec::mma_math
