#include "mem/coalescer.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>

#include "common/error.hpp"
#include "mem/access_check.hpp"
#include "mem/local_layout.hpp"
#include "mem/shared_banks.hpp"
#include "mem/warp_kernel.hpp"

// The portable build of the whole-warp kernel.
#define WARPSCOPE_KERNEL_NS portable
#include "mem/warp_kernel.inl"
#undef WARPSCOPE_KERNEL_NS

namespace warpscope::mem {

static_assert(sizeof(LaneMask) == 4 && sizeof(PerLane<std::uint64_t>) == 8 * kMaxWarpSize &&
                  sizeof(CoalesceResult::transactions) == sizeof(Transaction) * CoalesceResult::kMaxTransactions,
              "warp_kernel.inl reads the lane mask, addresses and transactions as raw memory");
static_assert(sizeof(Transaction) == 16 && offsetof(Transaction, lanes) == 8 && offsetof(Transaction, bytes) == 12 &&
                  offsetof(Transaction, request) == 14,
              "warp_kernel.inl writes transactions as two 8-byte words");

namespace {

constexpr std::uint32_t kFullWarp = 0xffffffffu;

unsigned log2_of(std::uint32_t x) { return static_cast<unsigned>(std::countr_zero(x)); }

/// Lanes [first, first + count) as a mask.
constexpr std::uint32_t lane_range(unsigned first, unsigned count) {
  return (count >= 32 ? kFullWarp : ((1u << count) - 1u)) << first;
}

/// Distinct naturally aligned words of `width` bytes among the lanes `active`.
std::uint64_t distinct_bytes(const std::uint64_t* addr, std::uint32_t active, std::uint32_t width) {
  return std::uint64_t{portable::distinct_words(addr, active, log2_of(width))} * width;
}

void push(CoalesceResult& out, std::uint64_t addr, std::uint32_t bytes, std::uint32_t request, std::uint32_t lanes) {
  if (out.transaction_count >= CoalesceResult::kMaxTransactions)
    fail(ErrorKind::kInternal, "coalescer: more than {} transactions", CoalesceResult::kMaxTransactions);
  Transaction& t = out.transactions[out.transaction_count++];
  t.addr = addr;
  t.lanes = LaneMask(lanes);
  t.bytes = static_cast<std::uint16_t>(bytes);
  t.request = static_cast<std::uint16_t>(request);
  out.bytes_moved += bytes;
  out.transaction_bytes = std::max(out.transaction_bytes, bytes);
}

// ---- cc 1.x -------------------------------------------------------------------------------

// cc 1.2/1.3: Programming Guide 3.x, G.3.2.2.
void coalesce_cc12(const std::uint64_t* addr, std::uint32_t active, std::uint32_t width, std::uint32_t& request,
                   CoalesceResult& out) {
  const std::uint32_t segment = width == 1 ? 32 : width == 2 ? 64 : 128;
  for (unsigned half = 0; half < 2; ++half) {
    std::uint32_t todo = active & lane_range(16 * half, 16);
    if (todo == 0) continue;
    while (todo != 0) {
      const std::uint64_t seg = addr[std::countr_zero(todo)] & ~std::uint64_t{segment - 1};
      std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
      std::uint32_t served = 0;
      for (std::uint32_t b = todo; b != 0; b &= b - 1) {
        const unsigned lane = static_cast<unsigned>(std::countr_zero(b));
        if ((addr[lane] & ~std::uint64_t{segment - 1}) != seg) continue;
        lo = std::min(lo, addr[lane]);
        hi = std::max(hi, addr[lane] + width - 1);
        served |= 1u << lane;
      }
      todo &= ~served;
      // Halve while only one half is used: 128 -> 64 -> 32.
      std::uint64_t base = seg;
      std::uint32_t size = segment;
      while (size > 32) {
        const std::uint32_t h = size / 2;
        if (hi < base + h) {
          size = h;
        } else if (lo >= base + h) {
          base += h;
          size = h;
        } else {
          break;
        }
      }
      push(out, base, size, request, served);
    }
    ++request;
  }
}

// cc 1.0/1.1: Programming Guide 3.x, G.3.2.1.
void coalesce_cc10(const std::uint64_t* addr, std::uint32_t active, std::uint32_t width, std::uint32_t& request,
                   CoalesceResult& out) {
  for (unsigned half = 0; half < 2; ++half) {
    const std::uint32_t lanes = active & lane_range(16 * half, 16);
    if (lanes == 0) continue;
    const std::uint64_t segment = 16ull * width;
    const unsigned first = static_cast<unsigned>(std::countr_zero(lanes));
    const std::uint64_t k0 = std::uint64_t{first % 16} * width;
    bool coalesced = width >= 4 && addr[first] >= k0 && (addr[first] - k0) % segment == 0;
    const std::uint64_t seg = addr[first] - k0;
    for (std::uint32_t b = lanes; coalesced && b != 0; b &= b - 1) {
      const unsigned lane = static_cast<unsigned>(std::countr_zero(b));
      coalesced = addr[lane] == seg + std::uint64_t{lane % 16} * width;
    }
    if (coalesced && width == 16) {
      const std::uint32_t low = lanes & lane_range(16 * half, 8), high = lanes & lane_range(16 * half + 8, 8);
      push(out, seg, 128, request, low);
      push(out, seg + 128, 128, request, high);
    } else if (coalesced) {
      push(out, seg, static_cast<std::uint32_t>(segment), request, lanes);
    } else {
      for (std::uint32_t b = lanes; b != 0; b &= b - 1) {
        const unsigned lane = static_cast<unsigned>(std::countr_zero(b));
        push(out, addr[lane] & ~std::uint64_t{31}, 32, request, 1u << lane);
      }
    }
    ++request;
  }
}

bool simd_available() {
#if defined(WARPSCOPE_MEM_AVX2)
  static const bool ok = [] {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("popcnt");
  }();
  return ok;
#else
  return false;
#endif
}

}  // namespace

/// One request over the whole warp through the kernel; false when a lane is misaligned.
bool Coalescer::warp_request(const std::uint64_t* addr, std::uint32_t active, unsigned shift, std::uint32_t width,
                             std::uint32_t request, CoalesceResult& out, std::uint64_t& requested) const {
  const int n = kernel_(addr, active, kernel_params(shift, width, request),
                        out.transactions.data() + out.transaction_count, &requested);
  if (n < 0) return false;
  out.transaction_count += static_cast<std::uint32_t>(n);
  out.bytes_moved += static_cast<std::uint64_t>(n) << shift;
  return true;
}

Coalescer::Coalescer(const arch::Profile& profile, bool use_simd)
    : profile_(profile),
      sector_shift_(log2_of(profile.sector_bytes)),
      line_shift_(log2_of(profile.line_bytes)),
      kernel_(&portable::warp_request),
      global_(&portable::global_request),
      global_path_{std::uint64_t{profile.sector_bytes} << 32, sector_shift_, profile.sector_bytes,
                   (profile.l1.bytes != 0 && profile.global_loads_cached_in_l1 ? 1u : 0u) |
                       (profile.l1.bytes != 0 ? 2u : 0u)},
      global_widths_(profile.coalescing == arch::Coalescing::kSectors ? 0x10116u : 0u) {
  static_assert(static_cast<int>(CacheOp::kDefault) == 0 && static_cast<int>(CacheOp::kCa) == 1 &&
                static_cast<int>(CacheOp::kCg) == 2);
  for (unsigned i = 0; i < kMaxWarpSize; ++i) {
    const unsigned lane = (i & ~3u) | ((i & 1u) << 1) | ((i >> 1) & 1u);  // the order 0 2 1 3 of each four
    global_path_.lane_rest[0][i] = global_path_.lane_rest[1][i] = (std::uint64_t{1} << lane) | global_path_.tail;
  }
#if defined(WARPSCOPE_MEM_AVX2)
  if (use_simd && simd_available()) {
    kernel_ = &avx2::warp_request;
    global_ = &avx2::global_request;
  }
#else
  (void)use_simd;
#endif
  if (!std::has_single_bit(profile.sector_bytes) || !std::has_single_bit(profile.line_bytes) ||
      profile.sector_bytes < 16 || profile.line_bytes < profile.sector_bytes || profile.line_bytes > 32768)
    fail(ErrorKind::kProfile,
         "profile '{}': sector_bytes {} and line_bytes {} must be powers of two, 16 <= sector <= line <= 32768",
         profile.name, profile.sector_bytes, profile.line_bytes);
  if (profile.warp_size != kMaxWarpSize)
    fail(ErrorKind::kUnsupported, "profile '{}': warp size {} (the memory model handles 32-lane warps)", profile.name,
         profile.warp_size);
}

namespace {

bool l1_load(const arch::Profile& p, const WarpAccess& a) {
  if ((a.op != Op::kLoad && a.op != Op::kLdgsts) || p.l1.bytes == 0) return false;
  if (a.space == Space::kLocal) return p.local_cached_in_l1;
  if (a.space != Space::kGlobal) return false;
  if (a.cache == CacheOp::kCa) return true;
  if (a.cache == CacheOp::kCg) return false;
  return p.global_loads_cached_in_l1;
}

}  // namespace

bool Coalescer::cached_in_l1(const WarpAccess& a) const { return l1_load(profile_, a); }

void Coalescer::misaligned(const WarpAccess& a) const {
  check_access(a);  // throws the misaligned-word error
  fail(ErrorKind::kInternal, "coalescer: misaligned access not found");
}

namespace {

/// Numbers up to 32 distinct 64-bit values 0, 1, 2, ... in the order they are first seen (an
/// open-addressing table of 64 slots: no clearing, no allocation).
class SmallIds {
 public:
  unsigned get(std::uint64_t k) {
    unsigned h = static_cast<unsigned>((k * 0x9E3779B97F4A7C15ull) >> 58);
    while ((used_ >> h) & 1u) {
      if (key_[h] == k) return id_[h];
      h = (h + 1) & 63u;
    }
    used_ |= std::uint64_t{1} << h;
    key_[h] = k;
    id_[h] = static_cast<std::uint8_t>(n_);
    return n_++;
  }
  unsigned size() const { return n_; }

 private:
  std::uint64_t used_ = 0;
  unsigned n_ = 0;
  std::array<std::uint64_t, 64> key_;
  std::array<std::uint8_t, 64> id_;
};

}  // namespace

void Coalescer::reduction_passes(const WarpAccess& a, CoalesceResult& out) const {
  const std::uint32_t active = a.active.bits();
  const std::vector<std::uint64_t>& masks = profile_.reduction_line_classes;
  const std::uint64_t in_line = (std::uint64_t{1} << line_shift_) - 1;
  const auto lanes = static_cast<unsigned>(std::popcount(active));
  if (out.bytes_requested == std::uint64_t{lanes} * a.width) {
    // Every lane on its own word: only two lines of one class can share a position.
    if (masks.empty()) return;
    const std::uint64_t first = a.addr[static_cast<unsigned>(std::countr_zero(active))] >> line_shift_;
    bool one_line = true;
    for (std::uint32_t rest = active; rest != 0 && one_line; rest &= rest - 1)
      one_line = (a.addr[static_cast<unsigned>(std::countr_zero(rest))] >> line_shift_) == first;
    if (one_line) return;
  }
  // Per lane: its word position (the line's class and the offset in the line), numbered.
  std::array<std::uint8_t, kMaxWarpSize> pos{}, line{}, cls{}, sector{};
  std::array<std::uint64_t, kMaxWarpSize> cls_value{};
  SmallIds positions;
  for (std::uint32_t rest = active; rest != 0; rest &= rest - 1) {
    const unsigned l = static_cast<unsigned>(std::countr_zero(rest));
    std::uint64_t c = a.addr[l] >> line_shift_;
    if (!masks.empty()) {
      c = 0;
      for (std::size_t m = 0; m < masks.size(); ++m) c |= std::uint64_t(std::popcount(a.addr[l] & masks[m]) & 1) << m;
    }
    cls_value[l] = c;
    pos[l] = static_cast<std::uint8_t>(positions.get(masks.empty() ? a.addr[l] : (c << 32) | (a.addr[l] & in_line)));
  }
  if (positions.size() == lanes) return;  // one pass
  SmallIds lines, classes, sectors;
  for (std::uint32_t rest = active; rest != 0; rest &= rest - 1) {
    const unsigned l = static_cast<unsigned>(std::countr_zero(rest));
    line[l] = static_cast<std::uint8_t>(lines.get(a.addr[l] >> line_shift_));
    cls[l] = static_cast<std::uint8_t>(classes.get(cls_value[l]));
    sector[l] = static_cast<std::uint8_t>(sectors.get(a.addr[l] >> sector_shift_));
  }
  // Passes over the lanes left. In each, a position belongs to the lowest lane on it, and a line
  // is contested when another line of its class uses one of its positions. A lane is served when
  // it owns its position and its line is not contested or is its class's leader (the line of the
  // class's lowest lane); every other lane waits for the next pass. The lowest lane is always
  // served.
  // The transactions are rewritten in place, pass by pass (the sector path's list is not needed).
  std::uint32_t count = 0;
  auto& made = out.transactions;
  for (std::uint32_t remaining = active; remaining != 0;) {
    std::array<std::uint8_t, kMaxWarpSize> lead, owner;
    std::array<std::uint32_t, kMaxWarpSize> users{};  // per position: the lines using it
    lead.fill(0xff);
    std::uint32_t owned = 0;
    for (std::uint32_t rest = remaining; rest != 0; rest &= rest - 1) {
      const unsigned l = static_cast<unsigned>(std::countr_zero(rest));
      if (lead[cls[l]] == 0xff) lead[cls[l]] = line[l];
      if (!((owned >> pos[l]) & 1u)) owned |= 1u << pos[l], owner[pos[l]] = static_cast<std::uint8_t>(l);
      users[pos[l]] |= 1u << line[l];
    }
    std::uint32_t contested = 0;
    for (std::uint32_t p = owned; p != 0; p &= p - 1) {
      const std::uint32_t u = users[static_cast<unsigned>(std::countr_zero(p))];
      if (u & (u - 1)) contested |= u;
    }
    std::uint32_t taken = 0;
    for (std::uint32_t rest = remaining; rest != 0; rest &= rest - 1) {
      const unsigned l = static_cast<unsigned>(std::countr_zero(rest));
      if (owner[pos[l]] == l && (lead[cls[l]] == line[l] || !((contested >> line[l]) & 1u))) taken |= 1u << l;
    }
    // This pass's sectors, in the order of the lowest lane each serves.
    std::uint32_t seen = 0;
    std::array<std::uint8_t, kMaxWarpSize> tx{};
    for (std::uint32_t rest = taken; rest != 0; rest &= rest - 1) {
      const unsigned l = static_cast<unsigned>(std::countr_zero(rest));
      const unsigned sid = sector[l];
      if (!((seen >> sid) & 1u)) {
        seen |= 1u << sid;
        tx[sid] = static_cast<std::uint8_t>(count);
        made[count++] = Transaction{a.addr[l] >> sector_shift_ << sector_shift_, LaneMask(0),
                                    static_cast<std::uint16_t>(out.transaction_bytes), 0};
      }
      Transaction& t = made[tx[sid]];
      t.lanes = LaneMask(t.lanes.bits() | (1u << l));
    }
    remaining &= ~taken;
  }
  out.transaction_count = count;
  out.bytes_moved = std::uint64_t{count} * out.transaction_bytes;
}

void Coalescer::coalesce_other(const WarpAccess& a, CoalesceResult& out) const {
  out.requests = 0;
  out.transaction_count = 0;
  out.transaction_bytes = 0;
  out.bytes_requested = 0;
  out.bytes_moved = 0;
  out.cached_in_l1 = l1_load(profile_, a);
  check_access(a);
  if (a.space == Space::kShared) {
    coalesce_shared(a, out);
    return;
  }
  switch (profile_.coalescing) {
    case arch::Coalescing::kSectors:
      out.transaction_bytes = profile_.sector_bytes;
      break;
    case arch::Coalescing::kLines:
      out.transaction_bytes = out.cached_in_l1 ? profile_.line_bytes : profile_.sector_bytes;
      break;
    case arch::Coalescing::kCc10:
    case arch::Coalescing::kCc12:
      break;
  }
  if (a.active.none()) return;
  switch (profile_.coalescing) {
    case arch::Coalescing::kSectors:
      coalesce_sectors(a, out);
      break;
    case arch::Coalescing::kLines:
      coalesce_lines(a, out);
      break;
    case arch::Coalescing::kCc10:
    case arch::Coalescing::kCc12:
      coalesce_cc1x(a, out);
      break;
  }
}

namespace {

/// Physical addresses (warp base 0) of piece k of a local access, for every lane.
void local_piece(const WarpAccess& a, std::uint32_t k, std::uint64_t* phys) {
  const LocalLayout layout(kMaxWarpSize);
  for (unsigned lane = 0; lane < kMaxWarpSize; ++lane)
    phys[lane] = layout.physical(0, lane, LocalLayout::piece_offset(a.addr[lane], k));
}

}  // namespace

void Coalescer::coalesce_sectors(const WarpAccess& a, CoalesceResult& out) const {
  // Local accesses (global ones take the hot path in coalesce()): one request per 32-bit piece.
  const std::uint32_t active = a.active.bits();
  const std::uint32_t pieces = LocalLayout::pieces(a.width);
  const std::uint32_t piece_width = LocalLayout::piece_bytes(a.width);
  alignas(32) std::uint64_t phys[kMaxWarpSize];
  for (std::uint32_t k = 0; k < pieces; ++k) {
    local_piece(a, k, phys);
    if (!warp_request(phys, active, sector_shift_, piece_width, k, out, out.bytes_requested))
      fail(ErrorKind::kInternal, "coalescer: misaligned local piece");
  }
  out.requests = pieces;
}

void Coalescer::coalesce_lines(const WarpAccess& a, CoalesceResult& out) const {
  const std::uint32_t active = a.active.bits();
  const unsigned shift = out.cached_in_l1 ? line_shift_ : sector_shift_;
  const bool local = a.space == Space::kLocal;
  const std::uint32_t pieces = local ? LocalLayout::pieces(a.width) : 1;
  const std::uint32_t width = local ? LocalLayout::piece_bytes(a.width) : a.width;
  // Lanes served by one request: the warp for words up to 4 bytes, half-warps for 8-byte words,
  // quarter-warps for 16-byte words (Programming Guide, compute capability 2.x).
  const unsigned group = width == 16 ? 8 : width == 8 ? 16 : 32;
  alignas(32) std::uint64_t phys[kMaxWarpSize];
  std::uint32_t request = 0;
  for (std::uint32_t k = 0; k < pieces; ++k) {
    const std::uint64_t* addr = a.addr.data();
    if (local) {
      local_piece(a, k, phys);
      addr = phys;
    }
    for (unsigned first = 0; first < kMaxWarpSize; first += group) {
      const std::uint32_t lanes = active & lane_range(first, group);
      if (lanes == 0) continue;  // requests without an active lane are not issued
      std::uint64_t bytes = 0;
      if (!warp_request(addr, lanes, shift, width, request++, out, bytes))
        fail(ErrorKind::kInternal, "coalescer: misaligned words after the check");
      if (group == 32 && !local) out.bytes_requested = bytes;
    }
  }
  out.requests = request;
  // Distinct bytes over the whole access (requests may share words; local frames never overlap).
  if (local)
    out.bytes_requested = std::uint64_t{a.active.count()} * a.width;
  else if (group != 32)
    out.bytes_requested = distinct_bytes(a.addr.data(), active, a.width);
}

void Coalescer::coalesce_cc1x(const WarpAccess& a, CoalesceResult& out) const {
  const std::uint32_t active = a.active.bits();
  const bool local = a.space == Space::kLocal;
  const std::uint32_t pieces = local ? LocalLayout::pieces(a.width) : 1;
  const std::uint32_t width = local ? LocalLayout::piece_bytes(a.width) : a.width;
  alignas(32) std::uint64_t phys[kMaxWarpSize];
  std::uint32_t request = 0;
  for (std::uint32_t k = 0; k < pieces; ++k) {
    const std::uint64_t* addr = a.addr.data();
    if (local) {
      local_piece(a, k, phys);
      addr = phys;
    }
    if (profile_.coalescing == arch::Coalescing::kCc12)
      coalesce_cc12(addr, active, width, request, out);
    else
      coalesce_cc10(addr, active, width, request, out);
  }
  out.requests = request;
  out.bytes_requested =
      local ? std::uint64_t{a.active.count()} * a.width : distinct_bytes(a.addr.data(), active, a.width);
}

void Coalescer::coalesce_shared(const WarpAccess& a, CoalesceResult& out) const {
  out.transaction_bytes = profile_.shared_banks * profile_.shared_bank_bytes;
  if (a.active.none()) return;
  const SharedBankResult s = shared_access(profile_, a);
  out.requests = 1;
  for (std::uint32_t p = 0; p < s.phase_count; ++p) {
    const SharedPhase& ph = s.phases[p];
    for (std::uint32_t w = 0; w < ph.wavefronts; ++w)
      push(out, ph.first_addr, out.transaction_bytes, 0, ph.lanes.bits());
  }
  out.bytes_requested = s.bytes_requested;
}

unsigned texture_request_lanes(const WarpAccess& a) {
  if (a.space == Space::kSurface) return 8;
  if (a.texel_fetch) return a.width >= 16 ? 4 : 8;
  return 4;
}

}  // namespace warpscope::mem
