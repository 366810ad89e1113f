// The whole-warp coalescing kernel (contract: warp_kernel.hpp). Included once by coalescer.cpp
// (WARPSCOPE_KERNEL_NS = portable) and once by warp_kernel_avx2.cpp (WARPSCOPE_KERNEL_NS = avx2,
// compiled with -mavx2 -mbmi -mbmi2 -mpopcnt), so it has no include guard; its helpers live in an
// unnamed namespace to stay private to each translation unit.
//
// Method, for a whole warp (every lane active):
//  - affine(): lane i at a0 + i * stride (coalesced, offset, strided, wide words, one word for
//    all) is recognised in one pass; the transactions are computed, not searched: one block for
//    stride 0, one block per lane for strides of at least a block, runs of block / stride lanes
//    for smaller power-of-two strides (AVX2: their lane masks come from a table, kAffineMasks,
//    indexed by lanes per block and lanes in the first block).
//  - scatter() (AVX2 only): the 32 blocks are proved distinct by comparing every pair of their
//    low 16 bits; each lane is then a transaction of its own.
// global_request() is the coalescer's hot path (global accesses on the sector family): it fills
// in the whole CoalesceResult, and its cases are functions of their own (global_affine,
// global_scatter, global_general) reached by tail calls, so that none pays for another's
// registers.
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

/// Transaction i of a warp whose every lane is a block of its own serves lane i: 1 << i, in the
/// lane order 0 2 1 3 of each group of four (store4).
struct LaneBits {
  alignas(32) std::uint64_t bits[kMaxWarpSize];
  constexpr LaneBits() : bits{} {
    for (unsigned i = 0; i < kMaxWarpSize; ++i) bits[i] = std::uint64_t{1} << ((i & ~3u) | ((i & 1u) << 1) | ((i >> 1) & 1u));
  }
};
constexpr LaneBits kLaneBits;

/// The lane masks of an affine whole warp with a power-of-two stride below the block size, whose
/// blocks hold `per` = 2, 4, 8, 16 or 32 lanes (more: as 32) and whose first block holds c0 of
/// them (1 <= c0 <= per): block 0 serves lanes [0, c0), block k > 0 lanes [c0 + (k-1) per,
/// min(32, c0 + k per)). Entry per + c0 - 3 gives where its masks start in `masks` (in the lane
/// order 0 2 1 3 of each group of four, padded with zeros to a multiple of four) and how many
/// blocks there are.
struct AffineMasks {
  static constexpr unsigned kEntries = 2 + 4 + 8 + 16 + 32;
  static constexpr unsigned kMasks = 332;  // the padded counts, summed (checked below)
  std::uint16_t start[kEntries];
  std::uint8_t count[kEntries];
  alignas(16) std::uint32_t masks[kMasks];
  unsigned used = 0;
  constexpr AffineMasks() : start{}, count{}, masks{} {
    for (unsigned per = 2; per <= kMaxWarpSize; per *= 2) {
      for (unsigned c0 = 1; c0 <= per; ++c0) {
        const unsigned e = per + c0 - 3;
        const unsigned n = c0 >= kMaxWarpSize ? 1 : 1 + (kMaxWarpSize - c0 + per - 1) / per;
        start[e] = static_cast<std::uint16_t>(used);
        count[e] = static_cast<std::uint8_t>(n);
        for (unsigned k = 0; k < n; ++k) {
          const unsigned lo = k == 0 ? 0 : c0 + (k - 1) * per;
          const unsigned hi = c0 + k * per < kMaxWarpSize ? c0 + k * per : kMaxWarpSize;
          const std::uint32_t m = static_cast<std::uint32_t>(((std::uint64_t{1} << hi) - 1) & ~((std::uint64_t{1} << lo) - 1));
          masks[used + ((k & ~3u) | ((k & 1u) << 1) | ((k >> 1) & 1u))] = m;
        }
        used += (n + 3) & ~3u;
      }
    }
  }
};
constexpr AffineMasks kAffineMasks;
static_assert(kAffineMasks.used == AffineMasks::kMasks);

/// (1 << lane) | tail for lanes 4j .. 4j+3, in the lane order 0 2 1 3.
__attribute__((always_inline)) inline __m256i lane_rest4(__m256i tails, unsigned j) {
  return _mm256_or_si256(_mm256_load_si256(reinterpret_cast<const __m256i*>(kLaneBits.bits + 4 * j)), tails);
}

/// Transactions 4j .. 4j+3 serving one lane each: addresses in the lane order 0 2 1 3, the rest
/// from `rest` (Coalescer::GlobalPath::lane_rest: two copies of the 32 values, so that each
/// unpack reads its own and takes it as a memory operand) or, without it, computed from tails.
__attribute__((always_inline)) inline void store4_lanes(Transaction* t, unsigned j, __m256i addr,
                                                        const std::uint64_t* rest, __m256i tails) {
  if (rest == nullptr) {
    store4(t + 4 * j, addr, lane_rest4(tails, j));
    return;
  }
  const __m256i lo =
      _mm256_unpacklo_epi64(addr, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rest + 4 * j)));
  const __m256i hi =
      _mm256_unpackhi_epi64(addr, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(rest + kMaxWarpSize + 4 * j)));
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t + 4 * j), lo);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(t + 4 * j + 2), hi);
}

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
#pragma GCC unroll 8
  for (unsigned j = 0; j < kMaxWarpSize / 4; ++j) {
    const __m256i addr = _mm256_sll_epi64(_mm256_load_si256(reinterpret_cast<const __m256i*>(block + 4 * j)), count);
    const __m256i bits = _mm256_load_si256(reinterpret_cast<const __m256i*>(kLaneBits.bits + 4 * j));
    store4(t + 4 * j, _mm256_permute4x64_epi64(addr, k0213), _mm256_or_si256(bits, tails));
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
constexpr int kTryScatter = -3;  // not affine: try scatter(), then general()

/// A whole warp whose lane i reads a0 + i * stride. Blocks never decrease (stride >= 0 and no
/// wrap-around), words are distinct unless the stride is 0.
__attribute__((always_inline)) inline int affine(std::uint64_t a0, std::uint64_t stride, unsigned shift,
                                                 std::uint32_t width, std::uint64_t tail, const std::uint64_t* rest,
                                                 Transaction* t, std::uint64_t& requested) {
  // Negative and huge strides, and warps that wrap around, go to the general path (stride < 2^58:
  // 31 * stride does not overflow).
  if ((stride >> 58) != 0 || a0 + 31 * stride < a0) return kNotHandled;
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
    const __m256i tails = _mm256_set1_epi64x(static_cast<long long>(tail));
    if (((a0 | stride) & (bs - 1)) == 0) {  // block-aligned: the addresses are the blocks
#pragma GCC unroll 8
      for (unsigned j = 0; j < kMaxWarpSize / 4; ++j) {
        store4_lanes(t, j, e, rest, tails);
        e = _mm256_add_epi64(e, step);
      }
    } else {
      const __m256i align = _mm256_set1_epi64x(static_cast<long long>(~(bs - 1)));
#pragma GCC unroll 8
      for (unsigned j = 0; j < kMaxWarpSize / 4; ++j) {
        store4_lanes(t, j, _mm256_and_si256(e, align), rest, tails);
        e = _mm256_add_epi64(e, step);
      }
    }
#else
    (void)rest;
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
#if defined(__AVX2__)
  // The lane masks come from kAffineMasks (per and c0 above 32 act as 32).
  const unsigned per_full = 1u << (shift - ls);                                     // bs / stride
  const unsigned c0_full = per_full - static_cast<unsigned>((a0 & (bs - 1)) >> ls);  // ceil((bs - offset) / stride)
  const unsigned per = per_full < kMaxWarpSize ? per_full : kMaxWarpSize;
  const unsigned c0 = c0_full < kMaxWarpSize ? c0_full : kMaxWarpSize;
  const unsigned entry = per + c0 - 3;
  const std::uint32_t* masks = kAffineMasks.masks + kAffineMasks.start[entry];
  const unsigned n = kAffineMasks.count[entry];
  const __m256i tails = _mm256_set1_epi64x(static_cast<long long>(tail));
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  const __m256i step = _mm256_sll_epi64(_mm256_set1_epi64x(4), count);
  __m256i blk = _mm256_add_epi64(_mm256_set1_epi64x(static_cast<long long>(a0 & ~(bs - 1))),
                                 _mm256_sll_epi64(_mm256_setr_epi64x(0, 2, 1, 3), count));  // lane order 0 2 1 3
  unsigned i = 0;
  do {  // n >= 1
    const __m256i mask = _mm256_cvtepu32_epi64(_mm_load_si128(reinterpret_cast<const __m128i*>(masks + i)));
    store4(t + i, blk, _mm256_or_si256(mask, tails));
    blk = _mm256_add_epi64(blk, step);
    i += 4;
  } while (i < n);
#else
  const unsigned per = static_cast<unsigned>(bs >> ls);
  const unsigned c0 = static_cast<unsigned>((bs - (a0 & (bs - 1)) + stride - 1) >> ls);
  const unsigned n = c0 >= kMaxWarpSize ? 1 : 1 + ((kMaxWarpSize - c0 + per - 1) >> (shift - ls));
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
/// Whether lanes 0-3 are affine (cheap, and enough to turn most scattered warps away).
inline bool affine4(const std::uint64_t* addr) {
  const std::uint64_t stride = addr[1] - addr[0];
  return addr[2] - addr[1] == stride && addr[3] - addr[2] == stride;
}

/// Affine whole warps; kTryScatter where lanes 0-3 are not affine (unless `known4`: the caller
/// checked them), kNotHandled otherwise.
template <bool known4 = false>
__attribute__((always_inline)) inline int full_warp(const std::uint64_t* addr, unsigned shift, std::uint32_t width,
                                                    std::uint64_t tail, const std::uint64_t* rest, Transaction* t,
                                                    std::uint64_t& requested) {
  const std::uint64_t a0 = addr[0], stride = addr[1] - a0;
  if (known4 || affine4(addr)) {
    // Lanes 4j .. 4j+3 against lanes 0-3 plus j steps: differences ORed together.
    const __m256i step = _mm256_set1_epi64x(static_cast<long long>(4 * stride));
    __m256i e = _mm256_add_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr)), step);
    __m256i diff = _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 4)), e);
#pragma GCC unroll 6
    for (unsigned j = 2; j < kMaxWarpSize / 4; ++j) {
      e = _mm256_add_epi64(e, step);
      diff = _mm256_or_si256(diff,
                             _mm256_xor_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 4 * j)), e));
    }
    if (_mm256_testz_si256(diff, diff)) return affine(a0, stride, shift, width, tail, rest, t, requested);
    return kNotHandled;  // affine in part: leave it to the general path
  }
  return kTryScatter;
}

/// 32 distinct blocks: transaction i = {lane i's block, lane i}. kNotHandled otherwise.
__attribute__((always_inline)) inline int scatter(const std::uint64_t* addr, unsigned shift, std::uint32_t width,
                                                  std::uint64_t tail, const std::uint64_t* rest, Transaction* t,
                                                  std::uint64_t& requested) {
  // 32 distinct blocks? Compare the low 16 bits of every pair of block numbers (equal low bits
  // of different blocks only send the warp to the general path; for blocks spread at random
  // over a gigabyte that is under 1 % of warps).
  const __m128i count = _mm_cvtsi32_si128(static_cast<int>(shift));
  const __m256i m16 = _mm256_set1_epi32(0xffff);
  __m256i low_or = _mm256_setzero_si256();
  const auto keys8 = [&](unsigned k) {
    // The low 32 bits of 8 addresses (in the order 0 1 4 5 2 3 6 7: the order does not matter)
    // hold their alignment and bits [shift, shift + 16), the key (shift <= 15).
    const __m256i low = _mm256_castps_si256(
        _mm256_shuffle_ps(_mm256_loadu_ps(reinterpret_cast<const float*>(addr + 8 * k)),
                          _mm256_loadu_ps(reinterpret_cast<const float*>(addr + 8 * k + 4)), 0x88));
    low_or = _mm256_or_si256(low_or, low);
    return _mm256_and_si256(_mm256_srl_epi32(low, count), m16);
  };
  const __m256i k0 = keys8(0), k1 = keys8(1), k2 = keys8(2), k3 = keys8(3);
  if (!_mm256_testz_si256(low_or, _mm256_set1_epi32(static_cast<int>(width - 1)))) return -1;
  // Two registers of 16 keys of 16 bits. Every pair of keys meets in one comparison: keys in
  // the same 32-bit slot through the half swap S, other slots through a rotation R^k of the
  // slots (k = 1..4 inside a register, 0..7 across), with or without S. (x against S(y) meets
  // the same pairs as S(x) against y, so S is applied to ka and kb once.)
  const __m256i ka = _mm256_packus_epi32(k0, k1), kb = _mm256_packus_epi32(k2, k3);
  const __m256i swap = _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13, 2, 3, 0, 1, 6, 7, 4, 5,
                                        10, 11, 8, 9, 14, 15, 12, 13);
  const __m256i sa = _mm256_shuffle_epi8(ka, swap), sb = _mm256_shuffle_epi8(kb, swap);
  const __m256i rot1 = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 0);
  const auto R = [&](__m256i x) { return _mm256_permutevar8x32_epi32(x, rot1); };
  __m256i dup = _mm256_or_si256(_mm256_cmpeq_epi16(ka, sa), _mm256_cmpeq_epi16(kb, sb));
  const auto both = [&](__m256i x, __m256i sx, __m256i y) {  // x against y and S(y)
    dup = _mm256_or_si256(dup, _mm256_or_si256(_mm256_cmpeq_epi16(x, y), _mm256_cmpeq_epi16(sx, y)));
    // Keeps the compiler from regrouping the ORs (it would then hold every rotation at once and
    // spill them).
    __asm__("" : "+x"(dup));
  };
  __m256i ra = ka, rb = kb;
  for (unsigned k = 1; k <= 4; ++k) {
    ra = R(ra);
    rb = R(rb);
    both(ka, sa, ra);
    both(kb, sb, rb);
  }
  __m256i rc = kb;  // rb = R^4(kb)
  both(ka, sa, rc);
  both(ka, sa, rb);
  for (unsigned k = 1; k <= 3; ++k) {
    rc = R(rc);
    rb = R(rb);
    both(ka, sa, rc);
    both(ka, sa, rb);
  }
  if (!_mm256_testz_si256(dup, dup)) return kNotHandled;
  // Every lane its own block (and word): transaction i = {lane i's block, lane i}.
  const __m256i align = _mm256_set1_epi64x(-(static_cast<long long>(1) << shift));
  const __m256i tails = _mm256_set1_epi64x(static_cast<long long>(tail));
#pragma GCC unroll 8
  for (unsigned j = 0; j < kMaxWarpSize / 4; ++j) {
    const __m256i blk = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 4 * j)), align);
    store4_lanes(t, j, _mm256_permute4x64_epi64(blk, k0213), rest, tails);
  }
  requested += kMaxWarpSize * width;
  return kMaxWarpSize;
}
#else
/// Affine whole warps; kNotHandled otherwise.
inline int full_warp(const std::uint64_t* addr, unsigned shift, std::uint32_t width, std::uint64_t tail,
                     const std::uint64_t* rest, Transaction* t, std::uint64_t& requested) {
  const std::uint64_t a0 = addr[0], stride = addr[1] - a0;
  std::uint64_t off = 0;
  for (unsigned i = 2; i < kMaxWarpSize; ++i) off |= (addr[i] - addr[i - 1]) ^ stride;
  if (off != 0) return kNotHandled;
  return affine(a0, stride, shift, width, tail, rest, t, requested);
}
#endif

}  // namespace

int warp_request(const std::uint64_t* addr, std::uint32_t active, std::uint32_t params, Transaction* t,
                 std::uint64_t* requested) {
  const unsigned shift = params & 0xff;
  const std::uint32_t width = (params >> 8) & 0xff, request = params >> 16;
  if (active == kFull) {
    const std::uint64_t tail = (std::uint64_t{1} << (32 + shift)) | (std::uint64_t{request} << 48);
    int n = full_warp(addr, shift, width, tail, nullptr, t, *requested);
#if defined(__AVX2__)
    if (n == kTryScatter) n = scatter(addr, shift, width, tail, nullptr, t, *requested);
#endif
    if (n != kNotHandled) return n;
  }
  if (active == 0) return 0;
  return general(addr, active, shift, width, request, t, *requested);
}

namespace {

// global_request's pieces. Fields are read as raw memory: no inline function of another header is
// called here.
inline std::uint32_t active_of(const WarpAccess& a) {
  std::uint32_t active;
  __builtin_memcpy(&active, &a.active, sizeof active);
  return active;
}
inline const std::uint64_t* addr_of(const WarpAccess& a) { return reinterpret_cast<const std::uint64_t*>(&a.addr); }
inline Transaction* transactions_of(CoalesceResult& out) { return reinterpret_cast<Transaction*>(&out.transactions); }

/// Fills in `out` around the n transactions written (n < 0: misaligned, `out` unspecified).
__attribute__((always_inline)) inline int finish(const WarpAccess& a, CoalesceResult& out,
                                                 const Coalescer::GlobalPath& path, std::uint32_t requests, int n,
                                                 std::uint64_t requested) {
  out.requests = requests;
  out.transaction_count = static_cast<std::uint32_t>(n);
  out.transaction_bytes = path.bytes;
  out.bytes_requested = requested;
  out.bytes_moved = static_cast<std::uint64_t>(static_cast<std::uint32_t>(n)) << path.shift;
  out.cached_in_l1 = ((a.op == Op::kLoad || a.op == Op::kLdgsts) & ((path.l1_loads >> (static_cast<unsigned>(a.cache) & 3u)) & 1u)) != 0;
  return n;
}

/// Partial warps, and whole warps the fast paths leave.
__attribute__((noinline)) int global_general(const WarpAccess& a, CoalesceResult& out,
                                             const Coalescer::GlobalPath& path) {
  const std::uint32_t active = active_of(a);
  std::uint64_t requested = 0;
  const int n =
      active == 0 ? 0 : general(addr_of(a), active, path.shift, a.width, 0, transactions_of(out), requested);
  return finish(a, out, path, active != 0 ? 1 : 0, n, requested);
}

#if defined(__AVX2__)
/// Whole warps that are not affine: 32 distinct blocks, else general().
__attribute__((noinline)) int global_scatter(const WarpAccess& a, CoalesceResult& out,
                                             const Coalescer::GlobalPath& path) {
  std::uint64_t requested = 0;
  const int n = scatter(addr_of(a), path.shift, a.width, path.tail, path.lane_rest[0], transactions_of(out),
                        requested);
  if (n == kNotHandled) return global_general(a, out, path);
  return finish(a, out, path, 1, n, requested);
}
#endif

/// Whole warps whose lanes 0-3 are affine (AVX2) or any whole warp (portable).
__attribute__((noinline)) int global_affine(const WarpAccess& a, CoalesceResult& out,
                                            const Coalescer::GlobalPath& path) {
  std::uint64_t requested = 0;
#if defined(__AVX2__)
  const int n = full_warp<true>(addr_of(a), path.shift, a.width, path.tail, path.lane_rest[0],
                                transactions_of(out), requested);
#else
  const int n = full_warp(addr_of(a), path.shift, a.width, path.tail, nullptr, transactions_of(out), requested);
#endif
  if (n == kNotHandled) return global_general(a, out, path);
  return finish(a, out, path, 1, n, requested);
}

}  // namespace

int global_request(const WarpAccess& a, CoalesceResult& out, const Coalescer::GlobalPath& path) {
  // Dispatch only: each path is a function of its own, so that none pays for another's registers.
  if (active_of(a) != kFull) return global_general(a, out, path);
#if defined(__AVX2__)
  if (!affine4(addr_of(a))) return global_scatter(a, out, path);
#endif
  return global_affine(a, out, path);
}

}  // namespace warpscope::mem::WARPSCOPE_KERNEL_NS
