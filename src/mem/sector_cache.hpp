// A sectored, set-associative cache with LRU replacement, parameterised by arch::CacheGeometry:
// lines of line_bytes split into sectors of sector_bytes, each sector with its own valid and
// dirty bit (design.md: "Lines are 128 bytes made of 4 sectors; a miss fills only the missing
// sectors").
//
// Contract:
//  - Lines are named by line number (byte address / line_bytes), sectors by a mask (bit i =
//    sector i of the line; span() computes both for a byte range inside one line).
//    sets = bytes / (line_bytes * associativity); the set of a line follows geometry.set_index:
//    kModulo: line mod sets; kXor: (line ^ line / sets ^ line / sets^2) mod sets (a modelling
//    choice: lines a multiple of sets apart, e.g. the rows of a matrix whose pitch is a power of
//    two, spread over the sets instead of sharing one).
//  - read(line, sectors): sectors present are hits; the missing ones are filled (only they). A
//    line not present is allocated in a free way of its set, else in the least recently used
//    one; the victim's dirty sectors are reported as write-backs.
//  - write(line, sectors, kAllocateNoFetch): write-back, write-allocate without fetch (an L2):
//    the line is allocated as by read(), the sectors become valid and dirty; hit_mask says which
//    were present before.
//  - write(line, sectors, kUpdateIfPresent): write-through without allocation (an L1): the
//    sectors present are updated (hit_mask); nothing is allocated or made dirty.
//  - write(line, sectors, kAllocateWriteThrough): write-through with allocation (local memory in
//    an L1): allocated as by read(), the sectors become valid but not dirty.
//  - invalidate(line): drops the line; its dirty sectors are reported as write-backs (callers
//    with write-through caches never have any).
//  - flush(): cleans every dirty sector and returns how many there were; lines stay valid.
//  - Every access that finds its line (read, write, an update that hits) or allocates it makes
//    it the most recently used of its set. valid_sectors()/dirty_sectors() only look.
//  - A capacity of 0 means no cache: every sector misses, nothing is kept or written back.
// Storage is allocated once, in the constructor; accesses never allocate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#include "arch/profile.hpp"

namespace warpscope::mem {

/// An allocator of storage aligned to the host CPU's 64-byte cache lines: a cache's set of ways
/// (and one way's sector readers) then lies in as few host lines as its size allows, where
/// malloc's large blocks start 16 bytes into a page and split every 64-byte group in two.
template <class T>
struct HostLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlign{64};
  HostLineAllocator() = default;
  template <class U>
  HostLineAllocator(const HostLineAllocator<U>&) {}  // NOLINT(google-explicit-constructor)
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlign)); }
  void deallocate(T* p, std::size_t) { ::operator delete(p, kAlign); }
  template <class U>
  bool operator==(const HostLineAllocator<U>&) const { return true; }
};

enum class WritePolicy {
  kAllocateNoFetch,       // write-back, write-allocate without fetch: sectors valid and dirty
  kUpdateIfPresent,       // write-through, no allocation: update the sectors that are present
  kAllocateWriteThrough,  // write-through with allocation: sectors valid, not dirty
};

struct CacheOutcome {
  std::uint32_t hit_mask = 0;           // sectors that were present
  std::uint32_t foreign_hit_mask = 0;   // of those, sectors `reader` had not read since their fill
  std::uint32_t miss_mask = 0;          // sectors that were not
  std::uint32_t writeback_sectors = 0;  // dirty sectors of an evicted or invalidated line
};

/// Who reads, for foreign hits (SectorCache::read): a warp's bit among its CTA's warps (0: no
/// tracking), the instruction, and the CTA.
struct CacheReader {
  std::uint64_t bit = 0;
  std::uint32_t pc = 0;
  std::uint32_t group = 0;
};

/// A line and the sectors of it that a byte range covers.
struct LineSectors {
  std::uint64_t line = 0;
  std::uint32_t mask = 0;
};

class SectorCache {
 public:
  /// Throws Error(kProfile) unless sector_bytes divides line_bytes into 1 to 32 sectors and,
  /// for a non-zero capacity, at least one set of `associativity` (>= 1) ways fits.
  explicit SectorCache(const arch::CacheGeometry& geometry);

  /// With a reader (`reader.bit` != 0), each sector remembers the warps of one CTA (`group`) that
  /// read it since it was filled and the instruction (`pc`) that filled it; a hit on a sector that
  /// the same instruction of another warp of the same CTA filled, and this warp has not read, is
  /// also a foreign hit (data another warp's execution of that instruction brought, docs/time.md
  /// "Shared misses"). A hit by another CTA is a plain hit and changes nothing of this: the
  /// sector stays the filling CTA's (resident CTAs are served interleaved).
  CacheOutcome read(std::uint64_t line, std::uint32_t sectors, const CacheReader& reader = {});
  CacheOutcome write(std::uint64_t line, std::uint32_t sectors, WritePolicy policy);
  CacheOutcome invalidate(std::uint64_t line);
  std::uint64_t flush();

  /// Asks the host CPU to bring `line`'s set into its cache (a hint: no effect on the model).
  void prefetch(std::uint64_t line) const {
    if (sets_ == 0) return;
    const std::uint64_t first = set_of(line) * ways_;
    __builtin_prefetch(tags_.data() + first);
    if (ways_ > 8) __builtin_prefetch(tags_.data() + first + 8);  // a set's tags over two host lines
    __builtin_prefetch(meta_.data() + first);
    // The sectors' readers (one host line per way of 4 sectors): the way is not known yet, so
    // those of every way of a small set.
    if (!readers_.empty() && ways_ <= 4)
      for (std::uint32_t i = 0; i < ways_; ++i) __builtin_prefetch(readers_.data() + (first + i) * sectors_per_line_);
  }

  std::uint32_t valid_sectors(std::uint64_t line) const;
  std::uint32_t dirty_sectors(std::uint64_t line) const;

  /// The line holding byte `addr` and the sectors of [addr, addr + bytes); the range must not
  /// cross the line.
  LineSectors span(std::uint64_t addr, std::uint32_t bytes) const;

  bool enabled() const { return sets_ > 0; }
  /// The set that holds `line` (enabled caches only).
  std::uint64_t set_of(std::uint64_t line) const;
  std::uint64_t sets() const { return sets_; }
  std::uint32_t sectors_per_line() const { return sectors_per_line_; }
  const arch::CacheGeometry& geometry() const { return geometry_; }

 private:
  // Ways are stored set-major in two arrays: the tags alone (line + 1; 0 = a free way), which a
  // lookup scans, and the rest, which it touches only for the way it finds or evicts.
  struct Meta {
    std::uint64_t last_use = 0;
    std::uint32_t valid = 0;  // sector mask
    std::uint32_t dirty = 0;
  };
  /// The index of `line`'s way, or -1.
  std::int64_t find(std::uint64_t line) const;
  /// The index of `line`'s way, allocated (valid and dirty 0) in a free or the least recently
  /// used way of its set when missing; the victim's dirty sectors go to outcome.writeback_sectors.
  std::uint64_t find_or_allocate(std::uint64_t line, CacheOutcome& outcome);
  void drop(std::uint64_t way);

  arch::CacheGeometry geometry_;
  std::uint64_t sets_ = 0;
  std::uint32_t ways_ = 0;
  std::uint32_t sectors_per_line_ = 0;
  std::uint32_t set_shift_ = 0;  // log2(sets_) when sets_ is a power of two, else 0
  // line % sets_ for other set counts without a division (Lemire, Kaser and Kurz, "Faster
  // remainder by direct computation", 2019): M = ceil(2^128 / sets_), as two halves.
  std::uint64_t mod_m_hi_ = 0, mod_m_lo_ = 0;
  std::uint32_t line_shift_ = 0, sector_shift_ = 0;  // log2 of the sizes (powers of two), or 0
  std::uint64_t clock_ = 0;
  std::vector<std::uint64_t, HostLineAllocator<std::uint64_t>> tags_;  // sets_ * ways_
  std::vector<Meta, HostLineAllocator<Meta>> meta_;                     // sets_ * ways_
  // The reader bits of read() since each sector was filled, the filling pc and the CTA:
  // sets_ * ways_ * sectors_per_line_, allocated by the first read that names a reader.
  struct Readers {
    std::uint64_t readers = 0;
    std::uint32_t pc = 0;
    std::uint32_t group = 0;
  };
  std::vector<Readers, HostLineAllocator<Readers>> readers_;
};

}  // namespace warpscope::mem
