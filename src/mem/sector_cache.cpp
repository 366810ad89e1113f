#include "mem/sector_cache.hpp"

#include <bit>

#include "common/error.hpp"

namespace warpscope::mem {
namespace {

std::uint32_t popcount(std::uint32_t x) { return static_cast<std::uint32_t>(std::popcount(x)); }

__extension__ using u128 = unsigned __int128;

/// a mod d from M = ceil(2^128 / d) (d >= 1): the high 64 bits of (M * a mod 2^128) * d.
std::uint64_t fast_mod(std::uint64_t a, u128 m, std::uint64_t d) {
  const u128 low = m * a;
  const u128 bottom = static_cast<u128>(static_cast<std::uint64_t>(low)) * d;
  const u128 top = static_cast<u128>(static_cast<std::uint64_t>(low >> 64)) * d;
  return static_cast<std::uint64_t>((top + (bottom >> 64)) >> 64);
}

}  // namespace

SectorCache::SectorCache(const arch::CacheGeometry& g) : geometry_(g) {
  if (g.sector_bytes == 0 || g.line_bytes == 0 || g.line_bytes % g.sector_bytes != 0 ||
      g.line_bytes / g.sector_bytes > 32)
    fail(ErrorKind::kProfile, "cache geometry: {}-byte lines must hold 1 to 32 sectors of {} bytes", g.line_bytes,
         g.sector_bytes);
  sectors_per_line_ = g.line_bytes / g.sector_bytes;
  if (std::has_single_bit(g.line_bytes) && std::has_single_bit(g.sector_bytes)) {
    line_shift_ = static_cast<std::uint32_t>(std::countr_zero(g.line_bytes));
    sector_shift_ = static_cast<std::uint32_t>(std::countr_zero(g.sector_bytes));
  }
  if (g.bytes == 0) return;
  if (g.associativity == 0) fail(ErrorKind::kProfile, "cache geometry: {} bytes with associativity 0", g.bytes);
  ways_ = g.associativity;
  sets_ = g.bytes / (std::uint64_t{g.line_bytes} * g.associativity);
  if (sets_ == 0)
    fail(ErrorKind::kProfile, "cache geometry: {} bytes cannot hold one set of {} ways of {} bytes", g.bytes,
         g.associativity, g.line_bytes);
  if (std::has_single_bit(sets_)) set_shift_ = static_cast<std::uint32_t>(std::countr_zero(sets_));
  const u128 m = ~u128{0} / sets_ + 1;
  mod_m_hi_ = static_cast<std::uint64_t>(m >> 64);
  mod_m_lo_ = static_cast<std::uint64_t>(m);
  tags_.assign(sets_ * ways_, 0);
  meta_.assign(sets_ * ways_, Meta{});
}

std::uint64_t SectorCache::set_of(std::uint64_t line) const {
  if (set_shift_ != 0) {
    if (geometry_.set_index == arch::SetIndex::kModulo) return line & (sets_ - 1);
    return (line ^ (line >> set_shift_) ^ (line >> (2 * set_shift_))) & (sets_ - 1);
  }
  if (sets_ == 1) return 0;
  const u128 m = (static_cast<u128>(mod_m_hi_) << 64) | mod_m_lo_;
  if (geometry_.set_index == arch::SetIndex::kModulo) return fast_mod(line, m, sets_);
  return fast_mod(line ^ (line / sets_) ^ (line / sets_ / sets_), m, sets_);
}

LineSectors SectorCache::span(std::uint64_t addr, std::uint32_t bytes) const {
  if (line_shift_ != 0) {
    const auto offset = static_cast<std::uint32_t>(addr & (geometry_.line_bytes - 1));
    const std::uint32_t first = offset >> sector_shift_;
    const std::uint32_t count = ((offset + bytes - 1) >> sector_shift_) - first + 1;
    return LineSectors{addr >> line_shift_, (count >= 32 ? ~0u : ((1u << count) - 1u)) << first};
  }
  const std::uint32_t offset = static_cast<std::uint32_t>(addr % geometry_.line_bytes);
  const std::uint32_t first = offset / geometry_.sector_bytes;
  const std::uint32_t last = (offset + bytes - 1) / geometry_.sector_bytes;
  const std::uint32_t count = last - first + 1;
  return LineSectors{addr / geometry_.line_bytes, (count >= 32 ? ~0u : ((1u << count) - 1u)) << first};
}

std::int64_t SectorCache::find(std::uint64_t line) const {
  const std::uint64_t first = set_of(line) * ways_;
  const std::uint64_t* tags = tags_.data() + first;
  for (std::uint32_t i = 0; i < ways_; ++i)
    if (tags[i] == line + 1) return static_cast<std::int64_t>(first + i);
  return -1;
}

std::uint64_t SectorCache::find_or_allocate(std::uint64_t line, CacheOutcome& outcome) {
  const std::uint64_t first = set_of(line) * ways_;
  const std::uint64_t* tags = tags_.data() + first;
  std::uint32_t free_way = ways_;
  for (std::uint32_t i = 0; i < ways_; ++i) {
    if (tags[i] == line + 1) return first + i;
    if (tags[i] == 0 && free_way == ways_) free_way = i;
  }
  std::uint32_t victim = free_way;
  if (victim == ways_) {
    victim = 0;
    for (std::uint32_t i = 1; i < ways_; ++i)
      if (meta_[first + i].last_use < meta_[first + victim].last_use) victim = i;
  }
  const std::uint64_t way = first + victim;
  outcome.writeback_sectors += popcount(meta_[way].dirty);
  tags_[way] = line + 1;
  meta_[way] = Meta{};
  return way;
}

void SectorCache::drop(std::uint64_t way) {
  tags_[way] = 0;
  meta_[way] = Meta{};
}

CacheOutcome SectorCache::read(std::uint64_t line, std::uint32_t sectors, const CacheReader& reader) {
  CacheOutcome o;
  if (!enabled()) {
    o.miss_mask = sectors;
    return o;
  }
  const std::uint64_t way = find_or_allocate(line, o);
  Meta& w = meta_[way];
  o.hit_mask = w.valid & sectors;
  o.miss_mask = sectors & ~w.valid;
  if (reader.bit != 0) {
    constexpr std::uint32_t kNoFill = ~std::uint32_t{0};
    if (readers_.empty()) readers_.assign(meta_.size() * sectors_per_line_, Readers{});
    Readers* r = readers_.data() + way * sectors_per_line_;
    for (std::uint32_t i = 0; i < sectors_per_line_; ++i) {
      if (((sectors >> i) & 1u) == 0) continue;
      if (((o.hit_mask >> i) & 1u) == 0) {
        r[i] = Readers{reader.bit, reader.pc, reader.group};  // filled now, for this reader
      } else if (r[i].group != reader.group) {
        // Another CTA's data: a plain hit, which leaves the sector to that CTA's warps (resident
        // CTAs' accesses come interleaved: the filling CTA's warps may read it next).
      } else {
        if ((r[i].readers & reader.bit) == 0 && r[i].pc == reader.pc) o.foreign_hit_mask |= 1u << i;
        r[i].readers |= reader.bit;
        // An earlier instruction (in program order) reading what a later one filled: the caller
        // ran one warp ahead of the others; on a GPU the warps' earlier instruction came first.
        if (reader.pc < r[i].pc && r[i].pc != kNoFill) r[i].pc = reader.pc;
      }
    }
  }
  w.valid |= sectors;
  w.last_use = ++clock_;
  return o;
}

CacheOutcome SectorCache::write(std::uint64_t line, std::uint32_t sectors, WritePolicy policy) {
  CacheOutcome o;
  if (!enabled()) {
    o.miss_mask = sectors;
    return o;
  }
  if (policy == WritePolicy::kUpdateIfPresent) {
    const std::int64_t way = find(line);
    o.hit_mask = way < 0 ? 0 : meta_[std::uint64_t(way)].valid & sectors;
    o.miss_mask = sectors & ~o.hit_mask;
    if (o.hit_mask != 0) meta_[std::uint64_t(way)].last_use = ++clock_;
    return o;
  }
  Meta& w = meta_[find_or_allocate(line, o)];
  o.hit_mask = w.valid & sectors;
  o.miss_mask = sectors & ~w.valid;
  w.valid |= sectors;
  if (policy == WritePolicy::kAllocateNoFetch) w.dirty |= sectors;
  w.last_use = ++clock_;
  return o;
}

CacheOutcome SectorCache::invalidate(std::uint64_t line) {
  CacheOutcome o;
  if (!enabled()) return o;
  if (const std::int64_t way = find(line); way >= 0) {
    o.hit_mask = meta_[std::uint64_t(way)].valid;
    o.writeback_sectors = popcount(meta_[std::uint64_t(way)].dirty);
    drop(std::uint64_t(way));
  }
  return o;
}

std::uint64_t SectorCache::flush() {
  std::uint64_t n = 0;
  for (Meta& w : meta_) {
    n += popcount(w.dirty);
    w.dirty = 0;
  }
  return n;
}

std::uint32_t SectorCache::valid_sectors(std::uint64_t line) const {
  if (!enabled()) return 0;
  const std::int64_t way = find(line);
  return way < 0 ? 0 : meta_[std::uint64_t(way)].valid;
}

std::uint32_t SectorCache::dirty_sectors(std::uint64_t line) const {
  if (!enabled()) return 0;
  const std::int64_t way = find(line);
  return way < 0 ? 0 : meta_[std::uint64_t(way)].dirty;
}

}  // namespace warpscope::mem
