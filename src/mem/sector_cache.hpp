// A sectored, set-associative cache with LRU replacement: lines of line_bytes split into
// sectors of sector_bytes, each sector valid and dirty on its own.
//
// Contract:
//  - Lines are named by line number (byte address / line_bytes); sectors by a bit mask
//    (bit i = sector i of the line). Set index = line number mod sets, sets =
//    bytes / (line_bytes * associativity).
//  - read(): sectors present are hits; missing sectors are filled (a miss fills only the missing
//    sectors). A line not present is allocated in the least recently used way of its set; the
//    victim's dirty sectors are reported as write-backs.
//  - write_allocate(): write-back, write-allocate without fetch: the sectors become valid and
//    dirty; reports which were present before.
//  - update_if_present(): write-through without allocation: sectors present are updated (and
//    reported); nothing is allocated.
//  - invalidate(): drops the line (dirty data is discarded: callers use it for write-through
//    caches only).
//  - flush(): writes back every dirty sector and reports how many.
//  - A cache of 0 bytes holds nothing: every sector misses and nothing is ever written back.
// Any access (read, write, update hit) makes the line the most recently used of its set.
#pragma once

#include <cstdint>
#include <vector>

#include "arch/profile.hpp"

namespace warpscope::mem {

struct CacheOutcome {
  std::uint32_t hit_mask = 0;         // sectors that were present
  std::uint32_t miss_mask = 0;        // sectors that were not
  std::uint32_t writeback_sectors = 0;  // dirty sectors of an evicted victim
};

class SectorCache {
 public:
  explicit SectorCache(const arch::CacheGeometry& geometry);

  CacheOutcome read(std::uint64_t line, std::uint32_t sectors);
  CacheOutcome write_allocate(std::uint64_t line, std::uint32_t sectors);
  CacheOutcome update_if_present(std::uint64_t line, std::uint32_t sectors);
  void invalidate(std::uint64_t line);
  std::uint64_t flush();

  bool enabled() const { return sets_ > 0; }
  std::uint32_t sectors_per_line() const { return sectors_per_line_; }
  const arch::CacheGeometry& geometry() const { return geometry_; }

 private:
  struct Way {
    std::uint64_t line = 0;
    std::uint32_t valid = 0;  // sector mask; 0 = the way is free
    std::uint32_t dirty = 0;
    std::uint64_t last_use = 0;
  };
  Way* find(std::uint64_t line);
  Way& allocate(std::uint64_t line, CacheOutcome& outcome);

  arch::CacheGeometry geometry_;
  std::uint64_t sets_ = 0;
  std::uint32_t ways_ = 0;
  std::uint32_t sectors_per_line_ = 0;
  std::uint64_t clock_ = 0;
  std::vector<Way> ways_storage_;  // sets_ * ways_
};

}  // namespace warpscope::mem
