// The sectored cache on its own, with a tiny geometry: 2 sets x 2 ways of 128-byte lines of
// four 32-byte sectors. Lines 0, 2, 4 map to set 0.
#include <gtest/gtest.h>

#include "mem/sector_cache.hpp"

namespace warpscope::mem {
namespace {

arch::CacheGeometry tiny() { return arch::CacheGeometry{512, 128, 32, 2}; }

TEST(SectorCache, ColdFillThenHit) {
  SectorCache c(tiny());
  CacheOutcome o = c.read(0, 0b0011);
  EXPECT_EQ(o.hit_mask, 0u);
  EXPECT_EQ(o.miss_mask, 0b0011u);
  o = c.read(0, 0b0011);
  EXPECT_EQ(o.hit_mask, 0b0011u);
  EXPECT_EQ(o.miss_mask, 0u);
}

TEST(SectorCache, AMissFillsOnlyTheMissingSectors) {
  SectorCache c(tiny());
  c.read(0, 0b0011);
  CacheOutcome o = c.read(0, 0b0110);
  EXPECT_EQ(o.hit_mask, 0b0010u);
  EXPECT_EQ(o.miss_mask, 0b0100u);
  EXPECT_EQ(c.read(0, 0b1111).miss_mask, 0b1000u);
}

TEST(SectorCache, EvictsTheLeastRecentlyUsedWay) {
  SectorCache c(tiny());
  c.read(0, 1);
  c.read(2, 1);
  c.read(4, 1);                            // set 0 is full: line 0 (oldest) goes
  EXPECT_EQ(c.read(2, 1).hit_mask, 1u);    // still there
  EXPECT_EQ(c.read(0, 1).miss_mask, 1u);   // evicted; refilling it evicts line 4
  EXPECT_EQ(c.read(4, 1).miss_mask, 1u);
  EXPECT_EQ(c.read(1, 1).miss_mask, 1u);   // set 1 is independent
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

TEST(SectorCache, DirtySectorsAreWrittenBackOnEvictionAndFlush) {
  SectorCache c(tiny());
  CacheOutcome o = c.write_allocate(0, 0b0101);
  EXPECT_EQ(o.miss_mask, 0b0101u);
  c.read(2, 1);
  o = c.read(4, 1);  // evicts line 0 with 2 dirty sectors
  EXPECT_EQ(o.writeback_sectors, 2u);
  c.write_allocate(2, 0b1111);
  EXPECT_EQ(c.flush(), 4u);
  EXPECT_EQ(c.flush(), 0u);  // clean now
}

TEST(SectorCache, WriteThroughUpdateDoesNotAllocate) {
  SectorCache c(tiny());
  EXPECT_EQ(c.update_if_present(0, 0b0011).miss_mask, 0b0011u);
  EXPECT_EQ(c.read(0, 0b0011).miss_mask, 0b0011u);  // the update left nothing behind
  EXPECT_EQ(c.update_if_present(0, 0b0111).hit_mask, 0b0011u);
}

TEST(SectorCache, Invalidate) {
  SectorCache c(tiny());
  c.read(0, 0b1111);
  c.invalidate(0);
  EXPECT_EQ(c.read(0, 0b1111).miss_mask, 0b1111u);
}

TEST(SectorCache, ZeroCapacityHoldsNothing) {
  SectorCache c(arch::CacheGeometry{0, 128, 32, 1});
  EXPECT_FALSE(c.enabled());
  c.read(0, 1);
  EXPECT_EQ(c.read(0, 1).miss_mask, 1u);
  EXPECT_EQ(c.write_allocate(0, 1).miss_mask, 1u);
  EXPECT_EQ(c.flush(), 0u);
}

}  // namespace
}  // namespace warpscope::mem
