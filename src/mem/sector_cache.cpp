#include "mem/sector_cache.hpp"

#include <bit>

namespace warpscope::mem {

SectorCache::SectorCache(const arch::CacheGeometry& g) : geometry_(g) {
  sectors_per_line_ = g.line_bytes / g.sector_bytes;
  ways_ = g.associativity;
  sets_ = g.bytes == 0 ? 0 : g.bytes / (std::uint64_t{g.line_bytes} * g.associativity);
  ways_storage_.resize(sets_ * ways_);
}

SectorCache::Way* SectorCache::find(std::uint64_t line) {
  Way* set = &ways_storage_[(line % sets_) * ways_];
  for (std::uint32_t i = 0; i < ways_; ++i)
    if (set[i].valid != 0 && set[i].line == line) return &set[i];
  return nullptr;
}

SectorCache::Way& SectorCache::allocate(std::uint64_t line, CacheOutcome& outcome) {
  Way* set = &ways_storage_[(line % sets_) * ways_];
  Way* victim = &set[0];
  for (std::uint32_t i = 0; i < ways_; ++i) {
    if (set[i].valid == 0) {
      victim = &set[i];
      break;
    }
    if (set[i].last_use < victim->last_use) victim = &set[i];
  }
  outcome.writeback_sectors += static_cast<std::uint32_t>(std::popcount(victim->dirty));
  *victim = Way{line, 0, 0, 0};
  return *victim;
}

CacheOutcome SectorCache::read(std::uint64_t line, std::uint32_t sectors) {
  CacheOutcome o;
  if (!enabled()) {
    o.miss_mask = sectors;
    return o;
  }
  Way* w = find(line);
  if (w == nullptr) w = &allocate(line, o);
  o.hit_mask = w->valid & sectors;
  o.miss_mask = sectors & ~w->valid;
  w->valid |= sectors;
  w->last_use = ++clock_;
  return o;
}

CacheOutcome SectorCache::write_allocate(std::uint64_t line, std::uint32_t sectors) {
  CacheOutcome o;
  if (!enabled()) {
    o.miss_mask = sectors;
    return o;
  }
  Way* w = find(line);
  if (w == nullptr) w = &allocate(line, o);
  o.hit_mask = w->valid & sectors;
  o.miss_mask = sectors & ~w->valid;
  w->valid |= sectors;
  w->dirty |= sectors;
  w->last_use = ++clock_;
  return o;
}

CacheOutcome SectorCache::update_if_present(std::uint64_t line, std::uint32_t sectors) {
  CacheOutcome o;
  Way* w = enabled() ? find(line) : nullptr;
  if (w == nullptr) {
    o.miss_mask = sectors;
    return o;
  }
  o.hit_mask = w->valid & sectors;
  o.miss_mask = sectors & ~w->valid;
  if (o.hit_mask != 0) w->last_use = ++clock_;
  return o;
}

void SectorCache::invalidate(std::uint64_t line) {
  if (!enabled()) return;
  if (Way* w = find(line)) *w = Way{};
}

std::uint64_t SectorCache::flush() {
  std::uint64_t n = 0;
  for (Way& w : ways_storage_) {
    n += static_cast<std::uint64_t>(std::popcount(w.dirty));
    w.dirty = 0;
  }
  return n;
}

}  // namespace warpscope::mem
