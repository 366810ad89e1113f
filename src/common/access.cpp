#include "common/access.hpp"

#include <algorithm>
#include <bit>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace warpscope {

std::string_view to_string(Space s) {
  switch (s) {
    case Space::kGlobal: return "global";
    case Space::kLocal: return "local";
    case Space::kShared: return "shared";
    case Space::kConst: return "const";
    case Space::kTexture: return "texture";
    case Space::kSurface: return "surface";
    case Space::kDsmem: return "dsmem";
  }
  return "?";
}

std::string_view to_string(Op o) {
  switch (o) {
    case Op::kLoad: return "load";
    case Op::kStore: return "store";
    case Op::kAtomic: return "atomic";
    case Op::kReduction: return "reduction";
    case Op::kLdgsts: return "ldgsts";
    case Op::kBulkCopy: return "bulk_copy";
    case Op::kBulkStore: return "bulk_store";
    case Op::kGmma: return "gmma";
    case Op::kBulkRed: return "bulk_red";
  }
  return "?";
}

std::string_view describe(Op o) {
  switch (o) {
    case Op::kLoad: return "load";
    case Op::kStore: return "store";
    case Op::kAtomic: return "atomic";
    case Op::kReduction: return "reduction";
    case Op::kLdgsts: return "asynchronous copy";
    case Op::kBulkCopy: return "bulk copy";
    case Op::kBulkStore: return "bulk store";
    case Op::kGmma: return "wgmma operand read";
    case Op::kBulkRed: return "bulk reduction";
  }
  return "access";
}

std::string_view to_string(CacheOp c) {
  switch (c) {
    case CacheOp::kDefault: return "default";
    case CacheOp::kCa: return "ca";
    case CacheOp::kCg: return "cg";
  }
  return "?";
}

namespace {

#if defined(__x86_64__)
// Unsigned compares as signed ones on values with the top bit flipped (AVX2 has only signed
// 64-bit compares).
[[gnu::target("avx2")]] void minmax32_avx2_impl(const std::uint64_t* v, std::uint64_t off, std::uint64_t& lo,
                                                std::uint64_t& hi) {
  const __m256i flip = _mm256_set1_epi64x(static_cast<long long>(0x8000000000000000ull));
  const __m256i o = _mm256_set1_epi64x(static_cast<long long>(off));
  __m256i mn = _mm256_set1_epi64x(0x7fffffffffffffffll);  // ~0 flipped
  __m256i mx = flip;                                      // 0 flipped
  for (unsigned l = 0; l < 32; l += 4) {
    const __m256i x = _mm256_xor_si256(
        _mm256_add_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + l)), o), flip);
    mn = _mm256_blendv_epi8(mn, x, _mm256_cmpgt_epi64(mn, x));
    mx = _mm256_blendv_epi8(mx, x, _mm256_cmpgt_epi64(x, mx));
  }
  alignas(32) std::uint64_t a[4], b[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(a), mn);
  _mm256_store_si256(reinterpret_cast<__m256i*>(b), mx);
  const std::uint64_t f = 0x8000000000000000ull;
  lo = std::min(std::min(a[0] ^ f, a[1] ^ f), std::min(a[2] ^ f, a[3] ^ f));
  hi = std::max(std::max(b[0] ^ f, b[1] ^ f), std::max(b[2] ^ f, b[3] ^ f));
}
// GCC 12's AVX-512 intrinsics pass _mm512_undefined_epi32() as the unused merge operand, which
// -Wuninitialized reports where they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// AVX-512F has unsigned 64-bit min and max: the 32 values as four vectors of 8, reduced as a
// tree (two steps deep, where the AVX2 loop's compare-and-blend chain is eight).
[[gnu::target("avx512f")]] void minmax32_avx512_impl(const std::uint64_t* v, std::uint64_t off, std::uint64_t& lo,
                                                     std::uint64_t& hi) {
  const __m512i o = _mm512_set1_epi64(static_cast<long long>(off));
  const __m512i a = _mm512_add_epi64(_mm512_loadu_si512(v), o);
  const __m512i b = _mm512_add_epi64(_mm512_loadu_si512(v + 8), o);
  const __m512i c = _mm512_add_epi64(_mm512_loadu_si512(v + 16), o);
  const __m512i d = _mm512_add_epi64(_mm512_loadu_si512(v + 24), o);
  const __m512i mn = _mm512_min_epu64(_mm512_min_epu64(a, b), _mm512_min_epu64(c, d));
  const __m512i mx = _mm512_max_epu64(_mm512_max_epu64(a, b), _mm512_max_epu64(c, d));
  lo = _mm512_reduce_min_epu64(mn);
  hi = _mm512_reduce_max_epu64(mx);
}
#pragma GCC diagnostic pop
#endif

using MinMax32 = void (*)(const std::uint64_t*, std::uint64_t, std::uint64_t&, std::uint64_t&);

MinMax32 pick_minmax32() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return &minmax32_avx512_impl;
  if (__builtin_cpu_supports("avx2")) return &minmax32_avx2_impl;
#endif
  return &minmax32_portable;
}

}  // namespace

bool minmax32_avx512(const std::uint64_t* v, std::uint64_t off, std::uint64_t& lo, std::uint64_t& hi) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) {
    minmax32_avx512_impl(v, off, lo, hi);
    return true;
  }
#endif
  (void)v, (void)off, (void)lo, (void)hi;
  return false;
}

bool minmax32_avx2(const std::uint64_t* v, std::uint64_t off, std::uint64_t& lo, std::uint64_t& hi) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) {
    minmax32_avx2_impl(v, off, lo, hi);
    return true;
  }
#endif
  (void)v, (void)off, (void)lo, (void)hi;
  return false;
}

void minmax32_portable(const std::uint64_t* v, std::uint64_t off, std::uint64_t& lo, std::uint64_t& hi) {
  lo = ~std::uint64_t{0};
  hi = 0;
  for (unsigned l = 0; l < 32; ++l) {
    lo = std::min(lo, v[l] + off);
    hi = std::max(hi, v[l] + off);
  }
}

void minmax32(const std::uint64_t* v, std::uint64_t off, std::uint64_t& lo, std::uint64_t& hi) {
  static const MinMax32 impl = pick_minmax32();
  impl(v, off, lo, hi);
}

AddressSummary summarize_addresses(const WarpAccess& a) {
  const std::uint32_t m = a.active.bits();
  if (m == 0xffffffffu && kMaxWarpSize == 32) return summarize32(a.addr.data(), 0);
  AddressSummary s;
  s.active = static_cast<unsigned>(std::popcount(m));
  if (m == 0) return s;
  const unsigned first = static_cast<unsigned>(std::countr_zero(m));
  const std::uint64_t a0 = a.addr[first];
  std::uint64_t lo = ~std::uint64_t{0}, hi = 0, ored = 0;
  for (std::uint32_t b = m; b != 0; b &= b - 1) {
    const unsigned l = static_cast<unsigned>(std::countr_zero(b));
    lo = std::min(lo, a.addr[l]);
    hi = std::max(hi, a.addr[l]);
    ored |= a.addr[l];
  }
  s.lo = lo;
  s.hi = hi;
  s.ored = ored;
  if (s.active == 1) return s;
  // Affine: lane l at a0 + (l - first) * d for every active lane, d from the first two.
  const unsigned second = static_cast<unsigned>(std::countr_zero(m & (m - 1)));
  const unsigned last = 31u - static_cast<unsigned>(std::countl_zero(m));
  const auto diff = static_cast<std::int64_t>(a.addr[second] - a0);
  const std::int64_t gap = second - first;
  if (gap != 1 && diff % gap != 0) return s;
  const std::int64_t d = gap == 1 ? diff : diff / gap;
  for (std::uint32_t b = m; b != 0; b &= b - 1) {
    const unsigned l = static_cast<unsigned>(std::countr_zero(b));
    if (a.addr[l] != a0 + static_cast<std::uint64_t>(d) * (l - first)) return s;
  }
  // The ends must be the extremes (no wrap-around of 2^64 in between).
  const std::uint64_t an = a.addr[last];
  if ((d >= 0 ? lo != a0 || hi != an : lo != an || hi != a0)) return s;
  s.affine = true;
  s.stride = d;
  s.run_base = a0 - static_cast<std::uint64_t>(d) * first;
  return s;
}

}  // namespace warpscope
