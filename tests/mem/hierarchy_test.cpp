// The hierarchy between mock neighbours: hand-made warp accesses in, exact counters out.
#include <gtest/gtest.h>

#include "access_builder.hpp"
#include "mem/hierarchy.hpp"

namespace warpscope::mem {
namespace {

struct Rig {
  explicit Rig(const char* arch, unsigned sms = 2) : profile(arch::builtin_profile(arch)), coalescer(profile), h(profile, sms) {}
  void run(unsigned sm, WarpAccess a) { h.access(sm, a, coalescer.coalesce(a)); }
  const HierarchyCounters& c() const { return h.counters(); }
  const arch::Profile& profile;
  Coalescer coalescer;
  MemoryHierarchy h;
};

auto words_from = [](std::int64_t first) { return [first](unsigned lane) { return first + lane; }; };

TEST(Hierarchy, MisalignedReadSharesASectorWithTheNextWarpInL1) {
  Rig r("hopper");
  r.run(0, test::global_load(4, words_from(1)));   // bytes 4..131: sectors 0..4
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sectors, 5u);
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sector_hits, 0u);
  EXPECT_EQ(r.c().l2_read_sectors, 5u);
  EXPECT_EQ(r.c().dram_read_bytes, 160u);
  r.run(0, test::global_load(4, words_from(33)));  // bytes 132..259: sectors 4..8
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sector_hits, 1u);
  EXPECT_EQ(r.c().l2_read_sectors, 9u);
  EXPECT_EQ(r.c().dram_read_bytes, 9u * 32);
}

TEST(Hierarchy, OtherSmsAndNonCachingLoadsMeetInL2) {
  Rig r("hopper");
  r.run(0, test::global_load(4, words_from(1)));
  r.run(1, test::global_load(4, words_from(33)));  // another SM: its own L1
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sector_hits, 0u);
  EXPECT_EQ(r.c().l2_read_sectors, 10u);
  EXPECT_EQ(r.c().l2_read_hits, 1u);
  Rig cg("hopper");
  cg.run(0, test::global_load(4, words_from(1), CacheOp::kCg));
  cg.run(0, test::global_load(4, words_from(33), CacheOp::kCg));
  EXPECT_EQ(cg.c().at(Space::kGlobal, Op::kLoad).sector_hits, 0u);
  EXPECT_EQ(cg.c().l2_read_sectors, 10u);
  EXPECT_EQ(cg.c().l2_read_hits, 1u);
}

TEST(Hierarchy, FermiStoresInvalidateL1) {
  Rig r("fermi");
  auto load = test::global_load(4, words_from(0), CacheOp::kCa);
  r.run(0, load);                                                   // one 128-byte line into L1
  EXPECT_EQ(r.c().l2_read_sectors, 4u);
  r.run(0, test::make_access(Space::kGlobal, Op::kStore, 4, 0, words_from(0)));
  EXPECT_EQ(r.c().l2_write_sectors, 4u);
  r.run(0, load);                                                   // L1 lost it; L2 has it
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sector_hits, 0u);
  EXPECT_EQ(r.c().l2_read_sectors, 8u);
  EXPECT_EQ(r.c().l2_read_hits, 4u);
}

TEST(Hierarchy, HopperStoresUpdateL1WithoutAllocating) {
  Rig r("hopper");
  auto store = test::make_access(Space::kGlobal, Op::kStore, 4, 0, words_from(0));
  r.run(0, store);
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kStore).sector_hits, 0u);
  r.run(0, test::global_load(4, words_from(0)));
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sector_hits, 0u);  // the store did not allocate
  r.run(0, store);
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kStore).sector_hits, 4u);  // now present: updated
  r.run(0, test::global_load(4, words_from(0)));
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sector_hits, 4u);
}

TEST(Hierarchy, DirtyL2SectorsReachDramOnFlush) {
  Rig r("hopper");
  r.run(0, test::make_access(Space::kGlobal, Op::kStore, 4, 0, words_from(0)));
  EXPECT_EQ(r.c().l2_write_sectors, 4u);
  EXPECT_EQ(r.c().l2_write_hits, 4u);
  EXPECT_EQ(r.c().dram_write_bytes, 0u);
  r.h.flush_l2();
  EXPECT_EQ(r.c().dram_write_bytes, 128u);
  r.h.flush_l2();
  EXPECT_EQ(r.c().dram_write_bytes, 128u);
}

TEST(Hierarchy, AtomicsAreReadModifyWriteInL2) {
  Rig r("hopper");
  r.run(0, test::make_access(Space::kGlobal, Op::kAtomic, 4, 0, [](unsigned) { return 0; }));
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kAtomic).requests, 1u);
  EXPECT_EQ(r.c().l2_atom_sectors, 1u);
  EXPECT_EQ(r.c().l2_atom_hits, 0u);
  EXPECT_EQ(r.c().dram_read_bytes, 32u);
  r.run(1, test::make_access(Space::kGlobal, Op::kAtomic, 4, 0, [](unsigned) { return 1; }));
  EXPECT_EQ(r.c().l2_atom_hits, 1u);
}

TEST(Hierarchy, LocalFramesOfDifferentWarpsDoNotOverlap) {
  Rig r("hopper");
  for (std::uint32_t warp = 0; warp < 2; ++warp) {
    auto st = test::make_access(Space::kLocal, Op::kStore, 16, 0, [](unsigned) { return 0; });
    st.warp = warp;
    r.run(0, st);
  }
  EXPECT_EQ(r.c().at(Space::kLocal, Op::kStore).requests, 8u);
  EXPECT_EQ(r.c().at(Space::kLocal, Op::kStore).sectors, 32u);
  EXPECT_EQ(r.c().at(Space::kLocal, Op::kStore).sector_hits, 0u);
  EXPECT_EQ(r.c().l2_write_sectors, 32u);
  auto ld = test::make_access(Space::kLocal, Op::kLoad, 16, 0, [](unsigned) { return 0; });
  ld.warp = 1;
  r.run(0, ld);  // warp 1 reads back what it stored: all in L1
  EXPECT_EQ(r.c().at(Space::kLocal, Op::kLoad).sector_hits, 16u);
  EXPECT_EQ(r.c().l2_read_sectors, 0u);
}

TEST(Hierarchy, TeslaGoesStraightToDram) {
  Rig r("tesla");
  r.run(0, test::global_load(4, words_from(1)));  // 128 + 64 + 32 bytes of transactions
  EXPECT_EQ(r.c().dram_read_bytes, 224u);
  EXPECT_EQ(r.c().l2_read_sectors, 0u);
  r.run(0, test::make_access(Space::kGlobal, Op::kStore, 4, 0, words_from(0)));
  EXPECT_EQ(r.c().dram_write_bytes, 128u);
}

}  // namespace
}  // namespace warpscope::mem
