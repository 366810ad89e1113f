#include "mem/coalescer.hpp"

#include <algorithm>
#include <bit>

#include "common/error.hpp"
#include "mem/local_layout.hpp"
#include "mem/shared_banks.hpp"

namespace warpscope::mem {
namespace {

unsigned log2_of(std::uint32_t x) { return static_cast<unsigned>(std::countr_zero(x)); }

/// Writes the distinct values of v[0..n) in increasing order to out; returns how many.
/// Fast paths for the common shapes: non-decreasing input (coalesced and strided accesses) and
/// values within a 64-wide window (permutations, small offsets); a sort otherwise.
unsigned distinct_sorted(const std::uint64_t* v, unsigned n, std::uint64_t* out) {
  if (n == 0) return 0;
  bool monotonic = true;
  std::uint64_t lo = v[0], hi = v[0];
  for (unsigned i = 1; i < n; ++i) {
    monotonic &= v[i] >= v[i - 1];
    lo = std::min(lo, v[i]);
    hi = std::max(hi, v[i]);
  }
  unsigned k = 0;
  if (monotonic) {
    out[k++] = v[0];
    for (unsigned i = 1; i < n; ++i)
      if (v[i] != v[i - 1]) out[k++] = v[i];
    return k;
  }
  if (hi - lo < 64) {
    std::uint64_t bits = 0;
    for (unsigned i = 0; i < n; ++i) bits |= 1ull << (v[i] - lo);
    for (; bits != 0; bits &= bits - 1) out[k++] = lo + static_cast<unsigned>(std::countr_zero(bits));
    return k;
  }
  std::uint64_t tmp[kMaxWarpSize * 4];
  std::copy(v, v + n, tmp);
  std::sort(tmp, tmp + n);
  out[k++] = tmp[0];
  for (unsigned i = 1; i < n; ++i)
    if (tmp[i] != tmp[i - 1]) out[k++] = tmp[i];
  return k;
}

unsigned distinct_count(const std::uint64_t* v, unsigned n) {
  std::uint64_t out[kMaxWarpSize * 4];
  return distinct_sorted(v, n, out);
}

void push(CoalesceResult& out, std::uint64_t addr, std::uint32_t bytes, std::uint32_t request) {
  if (out.transaction_count >= CoalesceResult::kMaxTransactions)
    fail(ErrorKind::kInternal, "coalescer: more than {} transactions", CoalesceResult::kMaxTransactions);
  out.transactions[out.transaction_count++] = Transaction{addr, bytes, request};
  out.bytes_moved += bytes;
  out.transaction_bytes = std::max(out.transaction_bytes, bytes);
}

/// One transaction per distinct aligned block of 2^shift bytes among the addresses.
void emit_blocks(CoalesceResult& out, const std::uint64_t* addrs, unsigned n, unsigned shift, std::uint32_t request) {
  std::uint64_t blocks[kMaxWarpSize];
  for (unsigned i = 0; i < n; ++i) blocks[i] = addrs[i] >> shift;
  std::uint64_t uniq[kMaxWarpSize];
  unsigned k = distinct_sorted(blocks, n, uniq);
  for (unsigned i = 0; i < k; ++i) push(out, uniq[i] << shift, 1u << shift, request);
}

// cc 1.2/1.3: Programming Guide 3.x, G.3.2.2.
void coalesce_cc12(CoalesceResult& out, const PerLane<std::uint64_t>& addr, LaneMask active, std::uint32_t width,
                   std::uint32_t& request) {
  const std::uint32_t segment = width == 1 ? 32 : width == 2 ? 64 : 128;
  for (unsigned half = 0; half < 2; ++half) {
    LaneMask todo = active & LaneMask(0xffffu << (16 * half));
    if (todo.none()) continue;
    while (todo.any()) {
      const std::uint64_t seg = addr[todo.first()] & ~std::uint64_t{segment - 1};
      std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
      todo.for_each([&](unsigned lane) {
        if ((addr[lane] & ~std::uint64_t{segment - 1}) == seg) {
          lo = std::min(lo, addr[lane]);
          hi = std::max(hi, addr[lane] + width - 1);
          todo.reset(lane);
        }
      });
      std::uint64_t base = seg;
      std::uint32_t size = segment;
      while (size > 32) {
        const std::uint32_t h = size / 2;
        if (hi < base + h) size = h;
        else if (lo >= base + h) base += h, size = h;
        else break;
      }
      push(out, base, size, request);
    }
    ++request;
  }
}

// cc 1.0/1.1: Programming Guide 3.x, G.3.2.1.
void coalesce_cc10(CoalesceResult& out, const PerLane<std::uint64_t>& addr, LaneMask active, std::uint32_t width,
                   std::uint32_t& request) {
  for (unsigned half = 0; half < 2; ++half) {
    const LaneMask lanes = active & LaneMask(0xffffu << (16 * half));
    if (lanes.none()) continue;
    bool coalesced = width >= 4;
    const unsigned first = lanes.first();
    const std::uint64_t seg = addr[first] - std::uint64_t{first % 16} * width;
    if (coalesced && (addr[first] < std::uint64_t{first % 16} * width || seg % (16ull * width) != 0)) coalesced = false;
    if (coalesced)
      lanes.for_each([&](unsigned lane) { coalesced &= addr[lane] == seg + std::uint64_t{lane % 16} * width; });
    if (coalesced) {
      if (width == 16) {
        push(out, seg, 128, request);
        push(out, seg + 128, 128, request);
      } else {
        push(out, seg, 16 * width, request);
      }
    } else {
      lanes.for_each([&](unsigned lane) { push(out, addr[lane] & ~std::uint64_t{31}, 32, request); });
    }
    ++request;
  }
}

}  // namespace

Coalescer::Coalescer(const arch::Profile& profile)
    : profile_(profile), sector_shift_(log2_of(profile.sector_bytes)), line_shift_(log2_of(profile.line_bytes)) {}

bool Coalescer::cached_in_l1(const WarpAccess& a) const {
  if (a.space == Space::kLocal) return profile_.local_cached_in_l1 && profile_.l1.bytes > 0;
  if (a.space != Space::kGlobal || a.op != Op::kLoad || profile_.l1.bytes == 0) return false;
  if (a.cache == CacheOp::kCa) return true;
  if (a.cache == CacheOp::kCg) return false;
  return profile_.global_loads_cached_in_l1;
}

void Coalescer::coalesce(const WarpAccess& a, CoalesceResult& out) const {
  out.requests = 0;
  out.transaction_count = 0;
  out.transaction_bytes = 0;
  out.bytes_requested = 0;
  out.bytes_moved = 0;
  const std::uint32_t w = a.width;
  if (w != 1 && w != 2 && w != 4 && w != 8 && w != 16)
    fail(ErrorKind::kUsage, "access width {} bytes: expected 1, 2, 4, 8 or 16", w);
  a.active.for_each([&](unsigned lane) {
    if (a.addr[lane] % w != 0)
      fail(ErrorKind::kMisaligned, "lane {} accesses {} {} bytes at 0x{:x}, which is not a multiple of {}", lane,
           to_string(a.space), w, a.addr[lane], w);
  });
  out.cached_in_l1 = cached_in_l1(a);
  if (a.active.none()) return;

  if (a.space == Space::kShared) {
    SharedBankResult s = shared_access(profile_, a);
    out.requests = 1;
    out.transaction_count = 0;
    out.transaction_bytes = profile_.shared_banks * profile_.shared_bank_bytes;
    out.bytes_moved = std::uint64_t{s.wavefronts} * out.transaction_bytes;
    out.bytes_requested = s.bytes_requested;
    return;
  }

  // The addresses to coalesce, per request group. Local: one group per 32-bit piece, laid out.
  const bool local = a.space == Space::kLocal;
  const std::uint32_t pieces = local ? LocalLayout::pieces(w) : 1;
  const std::uint32_t piece_w = local ? LocalLayout::piece_bytes(w) : w;
  const LocalLayout layout(profile_.warp_size);
  std::uint32_t request = 0;

  // Distinct bytes requested: naturally aligned words are identical or disjoint, and local
  // frames never overlap between lanes.
  if (local) {
    out.bytes_requested = std::uint64_t{a.active.count()} * w;
  } else {
    std::uint64_t words[kMaxWarpSize];
    unsigned n = 0;
    const unsigned wshift = log2_of(w);
    a.active.for_each([&](unsigned lane) { words[n++] = a.addr[lane] >> wshift; });
    out.bytes_requested = std::uint64_t{distinct_count(words, n)} * w;
  }

  for (std::uint32_t piece = 0; piece < pieces; ++piece) {
    PerLane<std::uint64_t> addr;
    if (local) {
      a.active.for_each([&](unsigned lane) { addr[lane] = layout.physical(0, lane, a.addr[lane] + 4ull * piece); });
    } else {
      addr = a.addr;
    }
    switch (profile_.coalescing) {
      case arch::Coalescing::kSectors:
      case arch::Coalescing::kLines: {
        // Lanes served by one request: the whole warp for words up to 4 bytes; half- and
        // quarter-warps for 8- and 16-byte words on the lines family.
        unsigned group = 32;
        if (profile_.coalescing == arch::Coalescing::kLines) group = piece_w == 16 ? 8 : piece_w == 8 ? 16 : 32;
        const unsigned shift =
            profile_.coalescing == arch::Coalescing::kLines && out.cached_in_l1 ? line_shift_ : sector_shift_;
        for (unsigned first = 0; first < 32; first += group) {
          const std::uint32_t bits = group == 32 ? 0xffffffffu : ((1u << group) - 1u) << first;
          const LaneMask lanes = a.active & LaneMask(bits);
          if (lanes.none()) continue;
          std::uint64_t list[kMaxWarpSize];
          unsigned n = 0;
          lanes.for_each([&](unsigned lane) { list[n++] = addr[lane]; });
          emit_blocks(out, list, n, shift, request++);
        }
        break;
      }
      case arch::Coalescing::kCc12: coalesce_cc12(out, addr, a.active, piece_w, request); break;
      case arch::Coalescing::kCc10: coalesce_cc10(out, addr, a.active, piece_w, request); break;
    }
  }
  out.requests = request;
}

}  // namespace warpscope::mem
