#include "mem/sector_cache.hpp"

#include <bit>

#include "common/error.hpp"

namespace warpscope::mem {
namespace {

std::uint32_t popcount(std::uint32_t x) { return static_cast<std::uint32_t>(std::popcount(x)); }

}  // namespace

SectorCache::SectorCache(const arch::CacheGeometry& g) : geometry_(g) {
  if (g.sector_bytes == 0 || g.line_bytes == 0 || g.line_bytes % g.sector_bytes != 0 ||
      g.line_bytes / g.sector_bytes > 32)
    fail(ErrorKind::kProfile, "cache geometry: {}-byte lines must hold 1 to 32 sectors of {} bytes", g.line_bytes,
         g.sector_bytes);
  sectors_per_line_ = g.line_bytes / g.sector_bytes;
  if (g.bytes == 0) return;
  if (g.associativity == 0) fail(ErrorKind::kProfile, "cache geometry: {} bytes with associativity 0", g.bytes);
  ways_ = g.associativity;
  sets_ = g.bytes / (std::uint64_t{g.line_bytes} * g.associativity);
  if (sets_ == 0)
    fail(ErrorKind::kProfile, "cache geometry: {} bytes cannot hold one set of {} ways of {} bytes", g.bytes,
         g.associativity, g.line_bytes);
  if (std::has_single_bit(sets_)) set_shift_ = static_cast<std::uint32_t>(std::countr_zero(sets_));
  storage_.resize(sets_ * ways_);
}

std::uint64_t SectorCache::set_of(std::uint64_t line) const {
  if (geometry_.set_index == arch::SetIndex::kModulo) return line % sets_;
  if (set_shift_ != 0) return (line ^ (line >> set_shift_) ^ (line >> (2 * set_shift_))) & (sets_ - 1);
  return (line ^ (line / sets_) ^ (line / sets_ / sets_)) % sets_;
}

LineSectors SectorCache::span(std::uint64_t addr, std::uint32_t bytes) const {
  const std::uint32_t offset = static_cast<std::uint32_t>(addr % geometry_.line_bytes);
  const std::uint32_t first = offset / geometry_.sector_bytes;
  const std::uint32_t last = (offset + bytes - 1) / geometry_.sector_bytes;
  const std::uint32_t count = last - first + 1;
  return LineSectors{addr / geometry_.line_bytes, (count >= 32 ? ~0u : ((1u << count) - 1u)) << first};
}

SectorCache::Way* SectorCache::find(std::uint64_t line) {
  Way* set = &storage_[set_of(line) * ways_];
  for (std::uint32_t i = 0; i < ways_; ++i)
    if (set[i].valid != 0 && set[i].line == line) return &set[i];
  return nullptr;
}

const SectorCache::Way* SectorCache::find(std::uint64_t line) const {
  return const_cast<SectorCache*>(this)->find(line);
}

SectorCache::Way& SectorCache::find_or_allocate(std::uint64_t line, CacheOutcome& outcome) {
  Way* set = &storage_[set_of(line) * ways_];
  Way* victim = nullptr;
  for (std::uint32_t i = 0; i < ways_; ++i) {
    Way& w = set[i];
    if (w.valid != 0 && w.line == line) return w;
    if (victim == nullptr || (victim->valid != 0 && (w.valid == 0 || w.last_use < victim->last_use))) victim = &w;
  }
  outcome.writeback_sectors += popcount(victim->dirty);
  *victim = Way{line, 0, 0, 0};
  return *victim;
}

CacheOutcome SectorCache::read(std::uint64_t line, std::uint32_t sectors) {
  CacheOutcome o;
  if (!enabled()) {
    o.miss_mask = sectors;
    return o;
  }
  Way& w = find_or_allocate(line, o);
  o.hit_mask = w.valid & sectors;
  o.miss_mask = sectors & ~w.valid;
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
    Way* w = find(line);
    o.hit_mask = w == nullptr ? 0 : w->valid & sectors;
    o.miss_mask = sectors & ~o.hit_mask;
    if (o.hit_mask != 0) w->last_use = ++clock_;
    return o;
  }
  Way& w = find_or_allocate(line, o);
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
  if (Way* w = find(line)) {
    o.hit_mask = w->valid;
    o.writeback_sectors = popcount(w->dirty);
    *w = Way{};
  }
  return o;
}

std::uint64_t SectorCache::flush() {
  std::uint64_t n = 0;
  for (Way& w : storage_) {
    n += popcount(w.dirty);
    w.dirty = 0;
  }
  return n;
}

std::uint32_t SectorCache::valid_sectors(std::uint64_t line) const {
  if (!enabled()) return 0;
  const Way* w = find(line);
  return w == nullptr ? 0 : w->valid;
}

std::uint32_t SectorCache::dirty_sectors(std::uint64_t line) const {
  if (!enabled()) return 0;
  const Way* w = find(line);
  return w == nullptr ? 0 : w->dirty;
}

}  // namespace warpscope::mem
