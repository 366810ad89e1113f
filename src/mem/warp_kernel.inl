// The whole-warp coalescing kernel (contract: warp_kernel.hpp). Included once by coalescer.cpp
// (WARPSCOPE_KERNEL_NS = portable) and once by warp_kernel_avx2.cpp (WARPSCOPE_KERNEL_NS = avx2,
// compiled with -mavx2 -mbmi -mbmi2 -mpopcnt), so it has no include guard; its helpers live in an
// unnamed namespace to stay private to each translation unit.
//
// Method, for a whole warp (every lane active):
//  - affine(): lane i at a0 + i * stride (coalesced, offset, strided, wide words, one word for
//    all) is recognised in one pass; the transactions are computed, not searched: one block for
//    stride 0, one block per lane for strides of at least a block, runs of block / stride lanes
//    for smaller power-of-two strides.
//  - scatter() (AVX2 only): the 32 blocks are proved distinct by comparing every pair of their
//    low 16 bits; each lane is then a transaction of its own.
// Otherwise, and for partial warps, general(): every lane's block number and its comparison with
// the previous lane's are computed for the warp at once (4 lanes per instruction with AVX2),
// inactive lanes first taking the previous active lane's address so that they add no block.
// Non-decreasing blocks give one transaction per run of equal blocks; others go through a
// 256-slot open-addressing hash table of at most 32 blocks, filled in lane order.
// Distinct bytes: affine and distinct-block warps know them; elsewhere, where addresses do not
// decrease, words are distinct where the address changes; otherwise they come from the byte masks
// of each 32-byte block, or from hashing the words.
//
// The AVX2 build must not define out-of-line copies of functions other translation units share
// (an inline function compiled with -mavx2 could be picked by the linker for the portable code),
// so this file calls compiler builtins and intrinsics only, and writes transactions through a
// raw pointer.
#ifndef WARPSCOPE_KERNEL_NS
#error "define WARPSCOPE_KERNEL_NS before including warp_kernel.inl"
#endif

#include "mem/warp_kernel.hpp"

#if defined(__AVX2__)
#include <immintrin.h>
#endif

namespace warpscope::mem::WARPSCOPE_KERNEL_NS {
namespace {

constexpr std::uint32_t kFull = 0xffffffffu;
constexpr std::uint64_t kHashMul = 0x9E3779B97F4A7C15ull;

inline unsigned ctz(std::uint32_t x) { return static_cast<unsigned>(__builtin_ctz(x)); }  // x != 0
#if defined(__POPCNT__)
inline unsigned popcnt(std::uint32_t x) { return static_cast<unsigned>(__builtin_popcount(x)); }
#else
inline unsigned popcnt(std::uint32_t x) {  // without the instruction, libgcc's call is slow
  x = x - ((x >> 1) & 0x55555555u);
  x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
  return (((x + (x >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}
#endif
inline unsigned slot(std::uint64_t key) { return static_cast<unsigned>((key * kHashMul) >> 58); }
inline unsigned slot256(std::uint64_t key) { return static_cast<unsigned>((key * kHashMul) >> 56); }

/// Writes one transaction: 8 bytes of address, then lanes | bytes << 32 | request << 48.
inline void put(Transaction* t, std::uint64_t addr, std::uint32_t lanes, std::uint64_t tail) {
  const std::uint64_t rest = lanes | tail;
  __builtin_memcpy(reinterpret_cast<unsigned char*>(t), &addr, sizeof addr);
  __builtin_memcpy(reinterpret_cast<unsigned char*>(t) + 8, &rest, sizeof rest);
}

inline std::uint64_t addr_of(const Transaction* t) {
  std::uint64_t addr;
  __builtin_memcpy(&addr, reinterpret_cast<const unsigned char*>(t), sizeof addr);
  return addr;
}

inline void add_lane(Transaction* t, unsigned lane) {
  std::uint32_t lanes;
  __builtin_memcpy(&lanes, reinterpret_cast<const unsigned char*>(t) + 8, sizeof lanes);
  lanes |= 1u << lane;
  __builtin_memcpy(reinterpret_cast<unsigned char*>(t) + 8, &lanes, sizeof lanes);
}

/// The lanes of a transaction written by put().
inline std::uint32_t lanes_of(const Transaction* t) {
  std::uint32_t lanes;
  __builtin_memcpy(&lanes, reinterpret_cast<const unsigned char*>(t) + 8, sizeof lanes);
  return lanes;
}

struct Scan {
  alignas(32) std::uint64_t block[kMaxWarpSize];
  std::uint32_t same_block = 0;  // bit i (i > 0): lane i's block equals lane i-1's
  std::uint32_t same_addr = 0;   // bit i (i > 0): lane i's address equals lane i-1's
  bool lower_block = false;      // some lane's block is below the previous lane's
  bool lower_addr = false;       // some lane's address is below the previous lane's
  std::uint64_t ored = 0;        // OR of all addresses
};

#if defined(__AVX2__)
/// Writes transactions 0-3 from addresses and the rest (lanes | tail), both given in the lane
/// order 0 2 1 3 (so that one unpack per pair of transactions puts them in place).
inline void store4(Transaction* t, __m256i addr, __m256i rest) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t), _mm256_unpacklo_epi64(addr, rest));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t + 2), _mm256_unpackhi_epi64(addr, rest));
}
constexpr int k0213 = 0xd8;  // _mm256_permute4x64_epi64 selector for the lane order 0 2 1 3

inline std::uint32_t mask4(__m256i v) { return static_cast<std::uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(v))); }

/// One group of 4 lanes: v = their addresses, p = the previous lanes' addresses.
#define WARPSCOPE_SCAN4(j, v, p)                                                                               \
  do {                                                                                                         \
    const __m256i b = _mm256_srl_epi64(v, count);                                                              \
    const __m256i pb = _mm256_srl_epi64(p, count);                                                             \
    _mm256_store_si256(reinterpret_cast<__m256i*>(s.block + 4 * (j)), b);                                      \
    ored = _mm256_or_si256(ored, v);                                                                           \
    same_block |= mask4(_mm256_cmpeq_epi64(b, pb)) << (4 * (j));                                               \
    same_addr |= mask4(_mm256_cmpeq_epi64(v, p)) << (4 * (j));                                                 \
    lower_block = _mm256_or_si256(lower_block, _mm256_cmpgt_epi64(pb, b));                                     \
    lower_addr =                                                                                               \
        _mm256_or_si256(lower_addr, _mm256_cmpgt_epi64(_mm256_xor_si256(p, sign), _mm256_xor_si256(v, sign))); \
  } while (false)

inline void scan(const std::uint64_t* a, unsigned shift, Scan& s) {
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  // Blocks are below 2^59 (shift >= 5): the signed comparison is exact for them. Addresses are
  // compared with their sign bits flipped.
  const __m256i sign = _mm256_set1_epi64x(static_cast<long long>(0x8000000000000000ull));
  __m256i ored = _mm256_setzero_si256(), lower_block = ored, lower_addr = ored;
  std::uint32_t same_block = 0, same_addr = 0;
  const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a));
  WARPSCOPE_SCAN4(0, v0, _mm256_permute4x64_epi64(v0, 0x90));  // lane 0 compares with itself
#pragma GCC unroll 8
  for (unsigned j = 1; j < kMaxWarpSize / 4; ++j) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 4 * j));
    const __m256i p = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 4 * j - 1));
    WARPSCOPE_SCAN4(j, v, p);
  }
  s.same_block = same_block & ~1u;
  s.same_addr = same_addr & ~1u;
  s.lower_block = !_mm256_testz_si256(lower_block, lower_block);
  s.lower_addr = !_mm256_testz_si256(lower_addr, lower_addr);
  const __m128i o = _mm_or_si128(_mm256_castsi256_si128(ored), _mm256_extracti128_si256(ored, 1));
  s.ored = static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_or_si128(o, _mm_unpackhi_epi64(o, o))));
}
#undef WARPSCOPE_SCAN4

/// Every lane its own block: transaction i = {block[i] << shift, lane i}.
inline void put_each_lane(const std::uint64_t* block, unsigned shift, std::uint64_t tail, Transaction* t) {
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  const __m256i tails = _mm256_set1_epi64x(static_cast<long long>(tail));
  __m256i lane_bits = _mm256_setr_epi64x(1, 4, 2, 8);  // lanes 0 2 1 3
#pragma GCC unroll 8
  for (unsigned j = 0; j < kMaxWarpSize / 4; ++j) {
    const __m256i addr = _mm256_sll_epi64(_mm256_load_si256(reinterpret_cast<const __m256i*>(block + 4 * j)), count);
    store4(t + 4 * j, _mm256_permute4x64_epi64(addr, k0213), _mm256_or_si256(lane_bits, tails));
    lane_bits = _mm256_slli_epi64(lane_bits, 4);
  }
}
#else
inline void scan(const std::uint64_t* a, unsigned shift, Scan& s) {
  std::uint32_t same_block = 0, same_addr = 0;
  bool lower_block = false, lower_addr = false;
  std::uint64_t ored = 0;
  for (unsigned i = 0; i < kMaxWarpSize; ++i) {
    const std::uint64_t v = a[i], p = a[i == 0 ? 0 : i - 1];
    const std::uint64_t b = v >> shift, pb = p >> shift;
    s.block[i] = b;
    ored |= v;
    same_block |= static_cast<std::uint32_t>(b == pb) << i;
    same_addr |= static_cast<std::uint32_t>(v == p) << i;
    lower_block |= b < pb;
    lower_addr |= v < p;
  }
  s.same_block = same_block & ~1u;
  s.same_addr = same_addr & ~1u;
  s.lower_block = lower_block;
  s.lower_addr = lower_addr;
  s.ored = ored;
}

inline void put_each_lane(const std::uint64_t* block, unsigned shift, std::uint64_t tail, Transaction* t) {
  for (unsigned i = 0; i < kMaxWarpSize; ++i) put(t + i, block[i] << shift, 1u << i, tail);
}
#endif

/// Distinct words of 2^wshift bytes among the active lanes.
inline unsigned distinct_words(const std::uint64_t* addr, std::uint32_t active, unsigned wshift) {
  std::uint8_t table[64];
  __builtin_memset(table, 0, sizeof table);
  std::uint64_t keys[kMaxWarpSize];
  unsigned n = 0;
  for (std::uint32_t b = active; b != 0; b &= b - 1) {
    const std::uint64_t key = addr[ctz(b)] >> wshift;
    for (unsigned h = slot(key);; h = (h + 1) & 63) {
      if (table[h] == 0) {
        keys[n++] = key;
        table[h] = static_cast<std::uint8_t>(n);
        break;
      }
      if (keys[table[h] - 1] == key) break;
    }
  }
  return n;
}

/// Any warp: runs of non-decreasing blocks, else a hash table.
__attribute__((noinline)) int general(const std::uint64_t* addr, std::uint32_t active, unsigned shift,
                                      std::uint32_t width, std::uint32_t request, Transaction* t,
                                      std::uint64_t& requested) {
  const std::uint64_t* lanes_addr = addr;
  alignas(32) std::uint64_t filled[kMaxWarpSize];
  if (active != kFull) {
    // Inactive lanes take the previous active lane's address (leading ones the first's).
    std::uint64_t last = addr[ctz(active)];
    for (unsigned i = 0; i < kMaxWarpSize; ++i) {
      last = ((active >> i) & 1u) != 0 ? addr[i] : last;
      filled[i] = last;
    }
    lanes_addr = filled;
  }
  Scan s;
  scan(lanes_addr, shift, s);
  if ((s.ored & (width - 1)) != 0) return -1;

  const std::uint64_t tail = (std::uint64_t{1} << (32 + shift)) | (std::uint64_t{request} << 48);
  const std::uint32_t wmask = (1u << width) - 1u;  // bytes of a word, for 32-byte blocks
  unsigned n = 0;
  std::uint64_t bytes = 0;
  if (!s.lower_block) {
    // Runs of equal blocks, in lane order.
    const std::uint32_t starts = ~s.same_block;  // bit 0 always set
    if (starts == kFull) {                       // every lane a block of its own (so every lane is active)
      put_each_lane(s.block, shift, tail, t);
      n = kMaxWarpSize;
    } else {
      for (std::uint32_t st = starts; st != 0;) {
        const unsigned first = ctz(st);
        st &= st - 1;
        const std::uint32_t lanes = ((st & (0u - st)) - 1u) & (kFull << first) & active;
        if (lanes != 0) put(t + n++, s.block[first] << shift, lanes, tail);
      }
    }
    if (!s.lower_addr) {
      bytes = std::uint64_t{kMaxWarpSize - popcnt(s.same_addr)} * width;
    } else if (shift == 5) {
      for (unsigned i = 0; i < n; ++i) {
        std::uint32_t bm = 0;
        for (std::uint32_t b = lanes_of(t + i); b != 0; b &= b - 1) bm |= wmask << (addr[ctz(b)] & 31);
        bytes += popcnt(bm);
      }
    } else {
      bytes = std::uint64_t{distinct_words(addr, active, ctz(width))} * width;
    }
  } else {
    // A hash table of the blocks (at most 32 in 256 slots, so probes rarely collide), filled in
    // lane order; transactions are written as they are found.
    std::uint8_t table[256];
    __builtin_memset(table, 0, sizeof table);
    bool shared = false;  // some block serves several lanes
    for (std::uint32_t b = active; b != 0; b &= b - 1) {
      const unsigned lane = ctz(b);
      const std::uint64_t block_addr = s.block[lane] << shift;
      for (unsigned h = slot256(s.block[lane]);; h = (h + 1) & 255) {
        const unsigned e = table[h];
        if (e == 0) {
          put(t + n, block_addr, 1u << lane, tail);
          table[h] = static_cast<std::uint8_t>(++n);
          break;
        }
        if (addr_of(t + e - 1) == block_addr) {
          add_lane(t + e - 1, lane);
          shared = true;
          break;
        }
      }
    }
    if (!shared) {
      bytes = std::uint64_t{n} * width;  // every lane its own block, so its own word
    } else if (shift == 5) {
      for (unsigned i = 0; i < n; ++i) {
        std::uint32_t bm = 0;
        for (std::uint32_t b = lanes_of(t + i); b != 0; b &= b - 1) bm |= wmask << (addr[ctz(b)] & 31);
        bytes += popcnt(bm);
      }
    } else {
      bytes = std::uint64_t{distinct_words(addr, active, ctz(width))} * width;
    }
  }
  requested += bytes;
  return static_cast<int>(n);
}

constexpr int kNotHandled = -2;

/// A whole warp whose lane i reads a0 + i * stride. Blocks never decrease (stride >= 0 and no
/// wrap-around), words are distinct unless the stride is 0.
__attribute__((always_inline)) inline int affine(std::uint64_t a0, std::uint64_t stride, unsigned shift,
                                                 std::uint32_t width, std::uint64_t tail, Transaction* t,
                                                 std::uint64_t& requested) {
  std::uint64_t span, last;
  if ((stride >> 63) != 0 || __builtin_mul_overflow(stride, std::uint64_t{31}, &span) ||
      __builtin_add_overflow(a0, span, &last))
    return kNotHandled;
  if (((a0 | stride) & (width - 1)) != 0) return -1;
  const std::uint64_t bs = std::uint64_t{1} << shift;
  if (stride == 0) {  // one word for the whole warp
    put(t, a0 & ~(bs - 1), kFull, tail);
    requested += width;
    return 1;
  }
  if (stride >= bs) {  // every lane a block of its own
#if defined(__AVX2__)
    // Lane order 0 2 1 3 (store4).
    __m256i e = _mm256_setr_epi64x(static_cast<long long>(a0), static_cast<long long>(a0 + 2 * stride),
                                   static_cast<long long>(a0 + stride), static_cast<long long>(a0 + 3 * stride));
    const __m256i step = _mm256_set1_epi64x(static_cast<long long>(4 * stride));
    const __m256i align = _mm256_set1_epi64x(static_cast<long long>(~(bs - 1)));
    const __m256i tails = _mm256_set1_epi64x(static_cast<long long>(tail));
    __m256i lane_bits = _mm256_setr_epi64x(1, 4, 2, 8);
#pragma GCC unroll 8
    for (unsigned j = 0; j < kMaxWarpSize / 4; ++j) {
      store4(t + 4 * j, _mm256_and_si256(e, align), _mm256_or_si256(lane_bits, tails));
      lane_bits = _mm256_slli_epi64(lane_bits, 4);
      e = _mm256_add_epi64(e, step);
    }
#else
    for (unsigned i = 0; i < kMaxWarpSize; ++i) put(t + i, (a0 + i * stride) & ~(bs - 1), 1u << i, tail);
#endif
    requested += kMaxWarpSize * width;
    return kMaxWarpSize;
  }
  if ((stride & (stride - 1)) != 0) return kNotHandled;  // e.g. 12-byte structures
  // Power-of-two stride below the block size: block k (from the first) serves lanes
  // [max(0, c0 + (k-1) * per), min(32, c0 + k * per)), where per = bs / stride lanes fill a
  // block and c0 lanes fall in the first. Written four at a time (up to 3 slots past the last
  // transaction are overwritten, within the 32 the caller provides).
  const unsigned ls = ctz(static_cast<std::uint32_t>(stride));
  const unsigned per = static_cast<unsigned>(bs >> ls);
  const unsigned c0 = static_cast<unsigned>((bs - (a0 & (bs - 1)) + stride - 1) >> ls);
  const unsigned n = c0 >= kMaxWarpSize ? 1 : 1 + ((kMaxWarpSize - c0 + per - 1) >> (shift - ls));
#if defined(__AVX2__)
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  const __m256i one = _mm256_set1_epi64x(1), lanes32 = _mm256_set1_epi64x(32), zero = _mm256_setzero_si256();
  const __m256i pers = _mm256_set1_epi64x(per), tails = _mm256_set1_epi64x(static_cast<long long>(tail));
  const __m256i four = _mm256_set1_epi64x(4), step = _mm256_set1_epi64x(4 * static_cast<long long>(per));
  __m256i k = _mm256_setr_epi64x(0, 2, 1, 3);  // lane order 0 2 1 3 (store4)
  __m256i blk = _mm256_add_epi64(_mm256_set1_epi64x(static_cast<long long>(a0 >> shift)), k);
  __m256i hi = _mm256_add_epi64(_mm256_set1_epi64x(c0), _mm256_mul_epu32(k, pers));
  for (unsigned i = 0; i < n; i += 4) {
    // Lane counts are below 2^31: 32-bit min/max on the 64-bit lanes is exact.
    const __m256i h = _mm256_min_epi32(hi, lanes32);
    const __m256i l = _mm256_max_epi32(_mm256_sub_epi64(hi, pers), zero);
    const __m256i mask = _mm256_andnot_si256(_mm256_sub_epi64(_mm256_sllv_epi64(one, l), one),
                                             _mm256_sub_epi64(_mm256_sllv_epi64(one, h), one));
    store4(t + i, _mm256_sll_epi64(blk, count), _mm256_or_si256(mask, tails));
    blk = _mm256_add_epi64(blk, four);
    hi = _mm256_add_epi64(hi, step);
  }
#else
  const std::uint64_t first = a0 >> shift;
  for (unsigned k = 0, lo = 0, hi = c0; k < n; ++k, lo = hi, hi += per) {
    const unsigned h = hi < kMaxWarpSize ? hi : kMaxWarpSize;
    const auto mask = static_cast<std::uint32_t>(((std::uint64_t{1} << h) - 1) & ~((std::uint64_t{1} << lo) - 1));
    put(t + k, (first + k) << shift, mask, tail);
    if (h == kMaxWarpSize) hi = kMaxWarpSize;
  }
#endif
  requested += kMaxWarpSize * width;
  return static_cast<int>(n);
}

#if defined(__AVX2__)
inline bool all_ones(__m256i v) { return _mm256_testc_si256(v, _mm256_set1_epi64x(-1)) != 0; }
template <int R>
inline __m256i rotate(__m256i v) {  // 32-bit lanes: lane i takes lane (i + R) mod 8
  return _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(R & 7, (1 + R) & 7, (2 + R) & 7, (3 + R) & 7, (4 + R) & 7,
                                                          (5 + R) & 7, (6 + R) & 7, (7 + R) & 7));
}

int scatter(const std::uint64_t* addr, unsigned shift, std::uint32_t width, std::uint64_t tail, Transaction* t,
            std::uint64_t& requested);

/// Fast paths for a whole warp: affine addresses, or 32 distinct blocks. kNotHandled otherwise.
__attribute__((always_inline)) inline int full_warp(const std::uint64_t* addr, unsigned shift, std::uint32_t width,
                                                    std::uint64_t tail, Transaction* t, std::uint64_t& requested) {
  const std::uint64_t a0 = addr[0], stride = addr[1] - a0;
  // Affine? Lanes 2 and 3 first (cheap, and enough to turn most scattered warps away).
  if (addr[2] - addr[1] == stride && addr[3] - addr[2] == stride) {
    const __m256i step = _mm256_set1_epi64x(static_cast<long long>(4 * stride));
    __m256i e = _mm256_add_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr)), step);
    __m256i ok = _mm256_cmpeq_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 4)), e);
#pragma GCC unroll 6
    for (unsigned j = 2; j < kMaxWarpSize / 4; ++j) {
      e = _mm256_add_epi64(e, step);
      ok = _mm256_and_si256(ok,
                            _mm256_cmpeq_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 4 * j)), e));
    }
    if (all_ones(ok)) return affine(a0, stride, shift, width, tail, t, requested);
    return kNotHandled;  // affine in part: leave it to the general path
  }
  return scatter(addr, shift, width, tail, t, requested);
}

/// 32 distinct blocks: transaction i = {lane i's block, lane i}. kNotHandled otherwise.
__attribute__((noinline)) int scatter(const std::uint64_t* addr, unsigned shift, std::uint32_t width,
                                      std::uint64_t tail, Transaction* t, std::uint64_t& requested) {
  // 32 distinct blocks? Compare the low 16 bits of every pair of block numbers (equal low bits
  // of different blocks only send the warp to the general path; for blocks spread at random
  // over a gigabyte that is under 1 % of warps).
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  const __m256i m16 = _mm256_set1_epi32(0xffff);
  __m256i ored = _mm256_setzero_si256();
  const auto keys8 = [&](unsigned k) {
    const __m256i v0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 8 * k));
    const __m256i v1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 8 * k + 4));
    ored = _mm256_or_si256(ored, _mm256_or_si256(v0, v1));
    const __m256i b0 = _mm256_srl_epi64(v0, count), b1 = _mm256_srl_epi64(v1, count);
    // Low 16 bits of the 8 blocks (in the order 0 1 4 5 2 3 6 7: the order does not matter).
    return _mm256_and_si256(
        _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(b0), _mm256_castsi256_ps(b1), 0x88)), m16);
  };
  const __m256i k0 = keys8(0), k1 = keys8(1), k2 = keys8(2), k3 = keys8(3);
  const __m128i o = _mm_or_si128(_mm256_castsi256_si128(ored), _mm256_extracti128_si256(ored, 1));
  if ((static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_or_si128(o, _mm_unpackhi_epi64(o, o)))) & (width - 1)) != 0)
    return -1;
  // Two registers of 16 keys of 16 bits. Every pair of keys meets in one comparison: keys in
  // the same 32-bit slot through the half swap S, other slots through a rotation R<k> of the
  // slots, with or without S.
  const __m256i ka = _mm256_packus_epi32(k0, k1), kb = _mm256_packus_epi32(k2, k3);
  const __m256i swap = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5,
                                        10, 11, 8, 9, 14, 15, 12, 13);
  const auto S = [&](__m256i x) { return _mm256_shuffle_epi8(x, swap); };
  __m256i dup = _mm256_or_si256(_mm256_cmpeq_epi16(ka, S(ka)), _mm256_cmpeq_epi16(kb, S(kb)));
  const auto both = [&](__m256i x, __m256i y) {  // x against y and S(y)
    dup = _mm256_or_si256(dup, _mm256_or_si256(_mm256_cmpeq_epi16(x, y), _mm256_cmpeq_epi16(x, S(y))));
  };
  both(ka, rotate<1>(ka));
  both(kb, rotate<1>(kb));
  both(ka, rotate<2>(ka));
  both(kb, rotate<2>(kb));
  both(ka, rotate<3>(ka));
  both(kb, rotate<3>(kb));
  both(ka, rotate<4>(ka));
  both(kb, rotate<4>(kb));
  both(ka, kb);
  both(ka, rotate<1>(kb));
  both(ka, rotate<2>(kb));
  both(ka, rotate<3>(kb));
  both(ka, rotate<4>(kb));
  both(ka, rotate<5>(kb));
  both(ka, rotate<6>(kb));
  both(ka, rotate<7>(kb));
  if (!_mm256_testz_si256(dup, dup)) return kNotHandled;
  // Every lane its own block (and word): transaction i = {lane i's block, lane i}.
  const __m256i align = _mm256_set1_epi64x(-(static_cast<long long>(1) << shift));
  const __m256i tails = _mm256_set1_epi64x(static_cast<long long>(tail));
  __m256i lane_bits = _mm256_setr_epi64x(1, 4, 2, 8);  // lanes 0 2 1 3
#pragma GCC unroll 8
  for (unsigned j = 0; j < kMaxWarpSize / 4; ++j) {
    const __m256i blk = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 4 * j)), align);
    store4(t + 4 * j, _mm256_permute4x64_epi64(blk, k0213), _mm256_or_si256(lane_bits, tails));
    lane_bits = _mm256_slli_epi64(lane_bits, 4);
  }
  requested += kMaxWarpSize * width;
  return kMaxWarpSize;
}
#else
/// Affine whole warps; kNotHandled otherwise.
inline int full_warp(const std::uint64_t* addr, unsigned shift, std::uint32_t width, std::uint64_t tail, Transaction* t,
                     std::uint64_t& requested) {
  const std::uint64_t a0 = addr[0], stride = addr[1] - a0;
  std::uint64_t off = 0;
  for (unsigned i = 2; i < kMaxWarpSize; ++i) off |= (addr[i] - addr[i - 1]) ^ stride;
  if (off != 0) return kNotHandled;
  return affine(a0, stride, shift, width, tail, t, requested);
}
#endif

}  // namespace

int warp_request(const std::uint64_t* addr, std::uint32_t active, std::uint32_t params, Transaction* t,
                 std::uint64_t* requested) {
  const unsigned shift = params & 0xff;
  const std::uint32_t width = (params >> 8) & 0xff, request = params >> 16;
  if (active == kFull) {
    const std::uint64_t tail = (std::uint64_t{1} << (32 + shift)) | (std::uint64_t{request} << 48);
    const int n = full_warp(addr, shift, width, tail, t, *requested);
    if (n != kNotHandled) return n;
  }
  if (active == 0) return 0;
  return general(addr, active, shift, width, request, t, *requested);
}

}  // namespace warpscope::mem::WARPSCOPE_KERNEL_NS
