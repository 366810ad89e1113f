// The sectored cache on its own, with a tiny geometry: 2 sets x 2 ways of 128-byte lines of
// four 32-byte sectors. Lines 0, 2, 4 map to set 0; odd lines to set 1.
#include "mem/sector_cache.hpp"

#include <gtest/gtest.h>

#include "warpscope/error.hpp"

namespace warpscope::mem {
namespace {

arch::CacheGeometry tiny() { return arch::CacheGeometry{512, 128, 32, 2}; }

TEST(SectorCache, Geometry) {
  SectorCache c(tiny());
  EXPECT_TRUE(c.enabled());
  EXPECT_EQ(c.sets(), 2u);
  EXPECT_EQ(c.sectors_per_line(), 4u);
  // The H100's L1 in the hopper profile: 256 KB, 4 ways of 128 B = 512 sets.
  EXPECT_EQ(SectorCache(arch::builtin_profile("hopper").l1).sets(), 512u);
}

TEST(SectorCache, SpanNamesTheLineAndItsSectors) {
  SectorCache c(tiny());
  LineSectors s = c.span(0x1000 + 32, 64);
  EXPECT_EQ(s.line, 0x20u);
  EXPECT_EQ(s.mask, 0b0110u);
  s = c.span(0x1000, 128);
  EXPECT_EQ(s.mask, 0b1111u);
  s = c.span(0x1000 + 100, 4);  // inside sector 3
  EXPECT_EQ(s.mask, 0b1000u);
}

TEST(SectorCache, ColdFillThenHit) {
  SectorCache c(tiny());
  CacheOutcome o = c.read(0, 0b1111);
  EXPECT_EQ(o.hit_mask, 0u);
  EXPECT_EQ(o.miss_mask, 0b1111u);
  EXPECT_EQ(o.writeback_sectors, 0u);
  o = c.read(0, 0b1111);
  EXPECT_EQ(o.hit_mask, 0b1111u);
  EXPECT_EQ(o.miss_mask, 0u);
}

// docs/time.md "Shared misses": a sector remembers who read it since its fill and which
// instruction filled it. Reader bits 1 and 2 are two warps; pc 7 the loop's load, pc 3 an earlier one.
TEST(SectorCache, ForeignHitsAreAnotherWarpsFillsOfTheSameInstruction) {
  SectorCache c(tiny());
  CacheOutcome o = c.read(0, 0b0001, CacheReader{1, 7, 0});  // warp 1 misses sector 0
  EXPECT_EQ(o.miss_mask, 0b0001u);
  EXPECT_EQ(o.foreign_hit_mask, 0u);
  o = c.read(0, 0b0001, CacheReader{1, 7, 0});  // its own fill: a plain hit
  EXPECT_EQ(o.hit_mask, 0b0001u);
  EXPECT_EQ(o.foreign_hit_mask, 0u);
  o = c.read(0, 0b0011, CacheReader{2, 7, 0});  // warp 2: sector 0 is warp 1's fill, sector 1 its own miss
  EXPECT_EQ(o.hit_mask, 0b0001u);
  EXPECT_EQ(o.miss_mask, 0b0010u);
  EXPECT_EQ(o.foreign_hit_mask, 0b0001u);
  o = c.read(0, 0b0001, CacheReader{2, 7, 0});  // read again by warp 2: no longer foreign
  EXPECT_EQ(o.foreign_hit_mask, 0u);
  o = c.read(0, 0b0010, CacheReader{1, 5, 0});  // warp 1 on warp 2's sector 1 through another instruction: not foreign
  EXPECT_EQ(o.hit_mask, 0b0010u);
  EXPECT_EQ(o.foreign_hit_mask, 0u);
  // A later instruction's fill that an earlier one reads is taken as the earlier one's (the
  // warps' earlier instruction runs first on a GPU): warp 4's pc 7 then finds no foreign hit.
  c.read(1, 0b0001, CacheReader{1, 7, 0});
  c.read(1, 0b0001, CacheReader{2, 3, 0});
  o = c.read(1, 0b0001, CacheReader{4, 7, 0});
  EXPECT_EQ(o.foreign_hit_mask, 0u);
  // Without a reader nothing is tracked.
  o = c.read(0, 0b0001);
  EXPECT_EQ(o.foreign_hit_mask, 0u);
  // Another CTA (group 1) finds warp 1's fill of line 2 a plain hit, and so do its other warps:
  // the data came before that CTA ran.
  c.read(2, 0b0001, CacheReader{1, 7, 0});
  o = c.read(2, 0b0001, CacheReader{2, 7, 1});
  EXPECT_EQ(o.hit_mask, 0b0001u);
  EXPECT_EQ(o.foreign_hit_mask, 0u);
  o = c.read(2, 0b0001, CacheReader{4, 7, 1});
  EXPECT_EQ(o.foreign_hit_mask, 0u);
  // Those hits leave the sector to CTA 0 (resident CTAs are served interleaved): warp 2 of CTA 0
  // still finds warp 1's fill of the same instruction.
  o = c.read(2, 0b0001, CacheReader{2, 7, 0});
  EXPECT_EQ(o.foreign_hit_mask, 0b0001u);
}

TEST(SectorCache, AMissFillsOnlyTheMissingSectors) {
  SectorCache c(tiny());
  c.read(0, 0b0011);
  EXPECT_EQ(c.valid_sectors(0), 0b0011u);
  // 2 old sectors and 2 new ones: 2 hits, 2 misses.
  CacheOutcome o = c.read(0, 0b1111);
  EXPECT_EQ(o.hit_mask, 0b0011u);
  EXPECT_EQ(o.miss_mask, 0b1100u);
  EXPECT_EQ(c.valid_sectors(0), 0b1111u);
  SectorCache d(tiny());
  d.read(0, 0b0011);
  o = d.read(0, 0b0110);
  EXPECT_EQ(o.hit_mask, 0b0010u);
  EXPECT_EQ(o.miss_mask, 0b0100u);
}

TEST(SectorCache, EvictsTheLeastRecentlyUsedWay) {
  SectorCache c(tiny());
  c.read(0, 1);
  c.read(2, 1);
  c.read(4, 1);  // set 0 is full: line 0 (oldest) goes
  EXPECT_EQ(c.valid_sectors(0), 0u);
  EXPECT_EQ(c.valid_sectors(2), 1u);
  EXPECT_EQ(c.valid_sectors(4), 1u);
  EXPECT_EQ(c.read(2, 1).hit_mask, 1u);   // still there
  EXPECT_EQ(c.read(0, 1).miss_mask, 1u);  // evicted; refilling it evicts line 4
  EXPECT_EQ(c.read(4, 1).miss_mask, 1u);
  EXPECT_EQ(c.read(1, 1).miss_mask, 1u);  // set 1 is independent
  EXPECT_EQ(c.valid_sectors(0), 1u);      // line 4 took line 2's way, not line 0's
}

TEST(SectorCache, HitsRefreshRecency) {
  SectorCache c(tiny());
  c.read(0, 1);
  c.read(2, 1);
  c.read(0, 1);  // line 0 is now the most recent
  c.read(4, 1);  // so line 2 goes
  EXPECT_EQ(c.read(0, 1).hit_mask, 1u);
  EXPECT_EQ(c.read(2, 1).miss_mask, 1u);
}

TEST(SectorCache, FreeWaysAreUsedBeforeEvicting) {
  SectorCache c(tiny());
  c.read(0, 1);
  c.read(2, 1);
  c.invalidate(0);  // frees a way
  c.read(4, 1);     // takes the free way: line 2 stays
  EXPECT_EQ(c.valid_sectors(2), 1u);
  EXPECT_EQ(c.valid_sectors(4), 1u);
}

TEST(SectorCache, DirtySectorsAreWrittenBackOnEvictionAndFlush) {
  SectorCache c(tiny());
  CacheOutcome o = c.write(0, 0b0101, WritePolicy::kAllocateNoFetch);
  EXPECT_EQ(o.miss_mask, 0b0101u);
  EXPECT_EQ(c.valid_sectors(0), 0b0101u);  // no fetch: the other sectors stay invalid
  EXPECT_EQ(c.dirty_sectors(0), 0b0101u);
  c.read(2, 1);
  o = c.read(4, 1);  // evicts line 0 with its 2 dirty sectors
  EXPECT_EQ(o.writeback_sectors, 2u);
  c.write(2, 0b1111, WritePolicy::kAllocateNoFetch);
  c.write(3, 0b0001, WritePolicy::kAllocateNoFetch);
  EXPECT_EQ(c.flush(), 5u);
  EXPECT_EQ(c.flush(), 0u);                // clean now
  EXPECT_EQ(c.valid_sectors(2), 0b1111u);  // and still there
  EXPECT_EQ(c.dirty_sectors(2), 0u);
}

TEST(SectorCache, WriteAllocateReportsWhatWasPresent) {
  SectorCache c(tiny());
  c.read(0, 0b0011);
  const CacheOutcome o = c.write(0, 0b0110, WritePolicy::kAllocateNoFetch);
  EXPECT_EQ(o.hit_mask, 0b0010u);
  EXPECT_EQ(o.miss_mask, 0b0100u);
  EXPECT_EQ(c.dirty_sectors(0), 0b0110u);
}

TEST(SectorCache, WriteThroughUpdateDoesNotAllocate) {
  SectorCache c(tiny());
  EXPECT_EQ(c.write(0, 0b0011, WritePolicy::kUpdateIfPresent).miss_mask, 0b0011u);
  EXPECT_EQ(c.valid_sectors(0), 0u);
  EXPECT_EQ(c.read(0, 0b0011).miss_mask, 0b0011u);  // the update left nothing behind
  const CacheOutcome o = c.write(0, 0b0111, WritePolicy::kUpdateIfPresent);
  EXPECT_EQ(o.hit_mask, 0b0011u);
  EXPECT_EQ(o.miss_mask, 0b0100u);
  EXPECT_EQ(c.valid_sectors(0), 0b0011u);  // sector 2 not allocated
  EXPECT_EQ(c.dirty_sectors(0), 0u);       // write-through: never dirty
}

TEST(SectorCache, UpdateHitsRefreshRecency) {
  SectorCache c(tiny());
  c.read(0, 1);
  c.read(2, 1);
  c.write(0, 1, WritePolicy::kUpdateIfPresent);  // line 0 most recent
  c.read(4, 1);                                  // line 2 goes
  EXPECT_EQ(c.valid_sectors(0), 1u);
  EXPECT_EQ(c.valid_sectors(2), 0u);
}

TEST(SectorCache, WriteThroughAllocateIsValidButClean) {
  SectorCache c(tiny());
  const CacheOutcome o = c.write(1, 0b1111, WritePolicy::kAllocateWriteThrough);
  EXPECT_EQ(o.miss_mask, 0b1111u);
  EXPECT_EQ(c.valid_sectors(1), 0b1111u);
  EXPECT_EQ(c.dirty_sectors(1), 0u);
  EXPECT_EQ(c.read(1, 0b1111).hit_mask, 0b1111u);
  EXPECT_EQ(c.flush(), 0u);
}

TEST(SectorCache, Invalidate) {
  SectorCache c(tiny());
  c.read(0, 0b1111);
  CacheOutcome o = c.invalidate(0);
  EXPECT_EQ(o.hit_mask, 0b1111u);
  EXPECT_EQ(o.writeback_sectors, 0u);
  EXPECT_EQ(c.valid_sectors(0), 0u);
  EXPECT_EQ(c.read(0, 0b1111).miss_mask, 0b1111u);
  // Invalidating an absent line does nothing; a dirty line reports its dirty sectors.
  EXPECT_EQ(c.invalidate(5).hit_mask, 0u);
  c.write(2, 0b1001, WritePolicy::kAllocateNoFetch);
  EXPECT_EQ(c.invalidate(2).writeback_sectors, 2u);
  EXPECT_EQ(c.flush(), 0u);
}

TEST(SectorCache, ZeroCapacityHoldsNothing) {
  SectorCache c(arch::CacheGeometry{0, 128, 32, 1});
  EXPECT_FALSE(c.enabled());
  c.read(0, 1);
  EXPECT_EQ(c.read(0, 1).miss_mask, 1u);
  EXPECT_EQ(c.write(0, 1, WritePolicy::kAllocateNoFetch).miss_mask, 1u);
  EXPECT_EQ(c.valid_sectors(0), 0u);
  EXPECT_EQ(c.invalidate(0).writeback_sectors, 0u);
  EXPECT_EQ(c.flush(), 0u);
  EXPECT_EQ(c.span(0x80, 32).mask, 1u);  // still knows its line geometry
}

TEST(SectorCache, ModuloSetIndexIsTheLineModSets) {
  SectorCache c(arch::CacheGeometry{512, 128, 32, 1});  // 4 sets of 1 way
  EXPECT_EQ(c.set_of(0), 0u);
  EXPECT_EQ(c.set_of(4), 0u);
  EXPECT_EQ(c.set_of(7), 3u);
  EXPECT_EQ(c.set_of(16), 0u);
  c.read(0, 1);
  c.read(4, 1);  // same set, one way: evicts line 0
  EXPECT_EQ(c.valid_sectors(0), 0u);
}

TEST(SectorCache, ModuloOfASetCountThatIsNotAPowerOfTwo) {
  // The H100's L2 in the hopper profile: 50 MB, 16 ways of 128 B = 25600 sets.
  SectorCache c(arch::builtin_profile("hopper").l2);
  ASSERT_EQ(c.sets(), 25600u);
  for (std::uint64_t line : {0ull, 1ull, 25599ull, 25600ull, 25601ull, 123456789ull, (1ull << 40) + 7,
                             (1ull << 53) + 12345, ~0ull, ~0ull - 25600})
    EXPECT_EQ(c.set_of(line), line % 25600) << line;
  SectorCache three(arch::CacheGeometry{384, 128, 32, 1});  // 3 sets
  for (std::uint64_t line = 0; line < 1000; ++line) EXPECT_EQ(three.set_of(line), line % 3) << line;
  EXPECT_EQ(three.set_of(~0ull), ~0ull % 3);
}

TEST(SectorCache, XorSetIndexFoldsTheHigherLineBits) {
  // 4 sets (a power of two): set = (line ^ line / 4 ^ line / 16) mod 4.
  SectorCache c(arch::CacheGeometry{512, 128, 32, 1, arch::SetIndex::kXor});
  EXPECT_EQ(c.set_of(0), 0u);
  EXPECT_EQ(c.set_of(4), 1u);   // 4 ^ 1 ^ 0 = 5
  EXPECT_EQ(c.set_of(8), 2u);   // 8 ^ 2 ^ 0 = 10
  EXPECT_EQ(c.set_of(12), 3u);  // 12 ^ 3 ^ 0 = 15
  EXPECT_EQ(c.set_of(16), 1u);  // 16 ^ 4 ^ 1 = 21
  EXPECT_EQ(c.set_of(7), 2u);   // 7 ^ 1 ^ 0 = 6
  // Lines 0, 4, 8, 12 (a multiple of the sets apart) share one set with modulo, and each has
  // its own with xor: all four stay.
  for (std::uint64_t line : {0u, 4u, 8u, 12u}) c.read(line, 1);
  for (std::uint64_t line : {0u, 4u, 8u, 12u}) EXPECT_EQ(c.read(line, 1).hit_mask, 1u) << line;
  c.read(16, 1);  // set 1: evicts line 4
  EXPECT_EQ(c.valid_sectors(4), 0u);
  EXPECT_EQ(c.valid_sectors(0), 1u);
  // 3 sets (not a power of two): (line ^ line / 3 ^ line / 9) mod 3.
  SectorCache d(arch::CacheGeometry{384, 128, 32, 1, arch::SetIndex::kXor});
  EXPECT_EQ(d.set_of(3), 2u);  // 3 ^ 1 ^ 0 = 2
  EXPECT_EQ(d.set_of(5), 1u);  // 5 ^ 1 ^ 0 = 4
  EXPECT_EQ(d.set_of(9), 2u);  // 9 ^ 3 ^ 1 = 11
}

TEST(SectorCache, InvalidGeometryIsAProfileError) {
  for (const arch::CacheGeometry& g :
       {arch::CacheGeometry{512, 128, 48, 2}, arch::CacheGeometry{512, 128, 0, 2}, arch::CacheGeometry{512, 128, 32, 0},
        arch::CacheGeometry{128, 128, 32, 2}, arch::CacheGeometry{4096, 4096, 32, 1}}) {
    try {
      SectorCache c(g);
      FAIL() << g.bytes << " " << g.line_bytes << " " << g.sector_bytes << " " << g.associativity;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kProfile);
    }
  }
}

}  // namespace
}  // namespace warpscope::mem
