// The hierarchy between mock neighbours: hand-made warp accesses in, exact counters out.
#include "mem/hierarchy.hpp"

#include <gtest/gtest.h>

#include "access_builder.hpp"
#include "warpscope/error.hpp"

namespace warpscope::mem {
namespace {

struct Rig {
  explicit Rig(const char* arch, unsigned sms = 2) : Rig(arch::builtin_profile(arch), sms) {}
  Rig(const arch::Profile& p, unsigned sms) : profile(p), coalescer(profile), h(profile, sms) {}
  void run(unsigned sm, WarpAccess a) { h.access(sm, a, coalescer.coalesce(a)); }
  const HierarchyCounters& c() const { return h.counters(); }
  const arch::Profile& profile;
  Coalescer coalescer;
  MemoryHierarchy h;
};

auto words_from = [](std::int64_t first) { return [first](unsigned lane) { return first + lane; }; };

TEST(Hierarchy, MisalignedReadSharesASectorWithTheNextWarpInL1) {
  Rig r("hopper");
  r.run(0, test::global_load(4, words_from(1)));  // bytes 4..131: sectors 0..4
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).requests, 1u);
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sectors, 5u);
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sector_hits, 0u);  // 5 L1 misses
  EXPECT_EQ(r.c().l2_read_sectors, 5u);
  EXPECT_EQ(r.c().l2_read_hits, 0u);  // 5 L2 misses
  // DRAM reads 64-byte sector pairs (hopper): sectors 0-3 are two pairs, sector 4 a third
  // whose partner (sector 5) is filled too: 3 pairs.
  EXPECT_EQ(r.c().dram_read_bytes, 3u * 64);
  EXPECT_EQ(r.c().dram_write_bytes, 0u);
  r.run(0, test::global_load(4, words_from(33)));  // bytes 132..259: sectors 4..8
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).requests, 2u);
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sectors, 10u);
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sector_hits, 1u);  // design.md: the shared sector
  EXPECT_EQ(r.c().l2_read_sectors, 9u);
  EXPECT_EQ(r.c().l2_read_hits, 1u);  // sector 5, filled as sector 4's partner
  EXPECT_EQ(r.c().dram_read_bytes, 5u * 64);  // + the pairs of sectors 6-7 and 8-9
}

TEST(Hierarchy, OtherSmsAndNonCachingLoadsMeetInL2) {
  Rig r("hopper");
  r.run(0, test::global_load(4, words_from(1)));
  r.run(1, test::global_load(4, words_from(33)));  // another SM: its own L1
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sector_hits, 0u);
  EXPECT_EQ(r.c().l2_read_sectors, 10u);
  EXPECT_EQ(r.c().l2_read_hits, 2u);  // sector 4, and sector 5 (filled as its partner)
  Rig cg("hopper");
  cg.run(0, test::global_load(4, words_from(1), CacheOp::kCg));
  cg.run(0, test::global_load(4, words_from(33), CacheOp::kCg));
  EXPECT_EQ(cg.c().at(Space::kGlobal, Op::kLoad).sector_hits, 0u);
  EXPECT_EQ(cg.c().l2_read_sectors, 10u);
  EXPECT_EQ(cg.c().l2_read_hits, 2u);
}

TEST(Hierarchy, FermiStoresInvalidateL1) {
  Rig r("fermi");
  auto load = test::global_load(4, words_from(0), CacheOp::kCa);
  r.run(0, load);  // one 128-byte line into L1
  EXPECT_EQ(r.c().l2_read_sectors, 4u);
  r.run(0, test::make_access(Space::kGlobal, Op::kStore, 4, 0, words_from(0)));
  EXPECT_EQ(r.c().l2_write_sectors, 4u);
  r.run(0, load);  // L1 lost it; L2 has it
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
  // One lane: one sector.
  r.run(0, test::make_access(Space::kGlobal, Op::kAtomic, 4, 0, [](unsigned) { return 0; }, 0x1u));
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kAtomic).requests, 1u);
  EXPECT_EQ(r.c().l2_atom_sectors, 1u);
  EXPECT_EQ(r.c().l2_atom_hits, 0u);
  EXPECT_EQ(r.c().dram_read_bytes, 64u);  // the miss reads its sector pair
  r.run(1, test::make_access(Space::kGlobal, Op::kAtomic, 4, 0, [](unsigned) { return 1; }, 0x1u));
  EXPECT_EQ(r.c().l2_atom_hits, 1u);
  r.run(1, test::make_access(Space::kGlobal, Op::kAtomic, 4, 0, [](unsigned) { return 8; }, 0x1u));  // sector 1
  EXPECT_EQ(r.c().l2_atom_hits, 2u);  // filled with sector 0
  EXPECT_EQ(r.c().dram_read_bytes, 64u);
  // 32 lanes on one word are 32 updates of its sector (not merged): 32 sectors, all hits now.
  r.run(1, test::make_access(Space::kGlobal, Op::kAtomic, 4, 0, [](unsigned) { return 8; }));
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kAtomic).requests, 4u);
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kAtomic).sectors, 35u);
  EXPECT_EQ(r.c().l2_atom_sectors, 35u);
  EXPECT_EQ(r.c().l2_atom_hits, 34u);
  EXPECT_EQ(r.c().dram_read_bytes, 64u);
}

// DRAM fetch granularity (profile dram_fetch_bytes; H100: 64 bytes, tests/hw/data/h100: a
// pattern with one 32-byte sector per 64 bytes or more reads twice its sectors from DRAM).
WarpAccess one_word_load(std::int64_t word) {
  return test::global_load(4, [word](unsigned) { return word; });
}

TEST(Hierarchy, ASingleSectorMissReadsItsSectorPairFromDram) {
  Rig r("hopper");
  EXPECT_EQ(r.profile.dram_fetch_bytes, 64u);
  r.run(0, one_word_load(8));  // bytes 32..35: sector 1 of line 0
  EXPECT_EQ(r.c().l2_read_sectors, 1u);  // the partner is not an L2 lookup
  EXPECT_EQ(r.c().l2_read_hits, 0u);
  EXPECT_EQ(r.c().dram_read_bytes, 64u);
  EXPECT_EQ(r.h.l2().valid_sectors(0), 0b0011u);  // sector 0 filled as its partner
  r.run(1, one_word_load(0));  // sector 0 from another SM: an L2 hit, no DRAM read
  EXPECT_EQ(r.c().l2_read_sectors, 2u);
  EXPECT_EQ(r.c().l2_read_hits, 1u);
  EXPECT_EQ(r.c().dram_read_bytes, 64u);
  r.run(1, one_word_load(16));  // sector 2: the pair of sectors 2-3
  EXPECT_EQ(r.c().dram_read_bytes, 128u);
  EXPECT_EQ(r.h.l2().valid_sectors(0), 0b1111u);
}

TEST(Hierarchy, TwoMissesOfOnePairInOneAccessReadItOnce) {
  Rig r("hopper");
  // Lanes 0-15 read sector 0, lanes 16-31 sector 1 of line 0 (bytes 0..63): both are looked up
  // in L2 and miss, and the pair is read once: 64 bytes, not 128.
  r.run(0, test::global_load(4, [](unsigned lane) { return std::int64_t{lane < 16 ? 0 : 8}; }));
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sectors, 2u);
  EXPECT_EQ(r.c().l2_read_sectors, 2u);
  EXPECT_EQ(r.c().l2_read_hits, 0u);
  EXPECT_EQ(r.c().dram_read_bytes, 64u);
  // The same with the sectors in the order 1, 0 (lane 0 reads sector 1).
  Rig s("hopper");
  s.run(0, test::global_load(4, [](unsigned lane) { return std::int64_t{lane < 16 ? 8 : 0}; }));
  EXPECT_EQ(s.c().l2_read_sectors, 2u);
  EXPECT_EQ(s.c().l2_read_hits, 0u);
  EXPECT_EQ(s.c().dram_read_bytes, 64u);
  // Sectors 1 and 2 are in two pairs: 128 bytes.
  Rig t("hopper");
  t.run(0, test::global_load(4, [](unsigned lane) { return std::int64_t{lane < 16 ? 8 : 16}; }));
  EXPECT_EQ(t.c().l2_read_sectors, 2u);
  EXPECT_EQ(t.c().dram_read_bytes, 128u);
}

TEST(Hierarchy, APartnerAlreadyInL2IsNotReadAgain) {
  Rig r("hopper");
  r.run(0, test::make_access(Space::kGlobal, Op::kStore, 4, 0, [](unsigned) { return 0; }));  // sector 0, dirty
  r.run(0, one_word_load(8));  // sector 1 misses; its partner is valid (written)
  EXPECT_EQ(r.c().l2_read_hits, 0u);
  EXPECT_EQ(r.c().dram_read_bytes, 32u);
  EXPECT_EQ(r.h.l2().dirty_sectors(0), 0b0001u);  // the written data is kept
  r.h.flush_l2();
  EXPECT_EQ(r.c().dram_write_bytes, 32u);  // the filled sector is clean
}

TEST(Hierarchy, DramFetchBytesComeFromTheProfile) {
  Rig m("maxwell");  // 32 bytes: a miss reads its sector
  EXPECT_EQ(m.profile.dram_fetch_bytes, 32u);
  m.run(0, one_word_load(8));
  EXPECT_EQ(m.c().dram_read_bytes, 32u);
  EXPECT_EQ(m.h.l2().valid_sectors(0), 0b0010u);
  arch::Profile p = arch::builtin_profile("hopper");
  p.dram_fetch_bytes = 128;  // the whole line
  Rig r(p, 1);
  r.run(0, one_word_load(8));
  EXPECT_EQ(r.c().l2_read_sectors, 1u);
  EXPECT_EQ(r.c().dram_read_bytes, 128u);
  EXPECT_EQ(r.h.l2().valid_sectors(0), 0b1111u);
  p.dram_fetch_bytes = 48;  // not a multiple of the sector
  EXPECT_THROW(MemoryHierarchy(p, 1), Error);
  p.dram_fetch_bytes = 256;  // more than a line
  EXPECT_THROW(MemoryHierarchy(p, 1), Error);
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

TEST(Hierarchy, FermiLinesCoverFourSectorsAndStoresReachDramOnFlush) {
  Rig r("fermi");
  r.run(0, test::global_load(4, [](unsigned) { return 1; }));  // one word: one 128-byte line
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).requests, 1u);
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sectors, 4u);
  EXPECT_EQ(r.c().l2_read_sectors, 4u);
  EXPECT_EQ(r.c().dram_read_bytes, 128u);
  r.run(0, test::make_access(Space::kGlobal, Op::kStore, 4, 0, words_from(0)));
  EXPECT_EQ(r.c().l2_write_sectors, 4u);
  EXPECT_EQ(r.c().dram_write_bytes, 0u);
  r.h.flush_l2();
  EXPECT_EQ(r.c().dram_write_bytes, 128u);
  // Kepler's default global load skips L1: 4 segments to L2, no L1 lookup.
  Rig k("kepler");
  k.run(0, test::global_load(4, words_from(0)));
  k.run(0, test::global_load(4, words_from(0)));
  EXPECT_EQ(k.c().at(Space::kGlobal, Op::kLoad).sectors, 8u);
  EXPECT_EQ(k.c().at(Space::kGlobal, Op::kLoad).sector_hits, 0u);
  EXPECT_EQ(k.c().l2_read_sectors, 8u);
  EXPECT_EQ(k.c().l2_read_hits, 4u);
}

TEST(Hierarchy, L2EvictsDirtySectorsToDram) {
  // One set of 2 ways: the third line written evicts the first, with its 4 dirty sectors.
  arch::Profile p = arch::builtin_profile("hopper");
  p.l2 = arch::CacheGeometry{256, 128, 32, 2};
  Rig r(p, 1);
  for (std::int64_t line = 0; line < 3; ++line)
    r.run(0, test::make_access(Space::kGlobal, Op::kStore, 4, 0, words_from(32 * line)));
  EXPECT_EQ(r.c().l2_write_sectors, 12u);
  EXPECT_EQ(r.c().dram_write_bytes, 128u);
  r.h.flush_l2();
  EXPECT_EQ(r.c().dram_write_bytes, 384u);
  // A read of the evicted line misses L1 and L2, and evicts another dirty-free line.
  r.run(0, test::global_load(4, words_from(0)));
  EXPECT_EQ(r.c().l2_read_hits, 0u);
  EXPECT_EQ(r.c().dram_read_bytes, 128u);
}

TEST(Hierarchy, AtomicResultsReachDramOnFlushAndEvictL1) {
  Rig r("hopper");
  r.run(0, test::global_load(4, words_from(0)));  // line 0 in SM 0's L1
  r.run(0, test::make_access(Space::kGlobal, Op::kAtomic, 4, 0, words_from(0)));
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kAtomic).sectors, 4u);
  EXPECT_EQ(r.c().l2_atom_sectors, 4u);
  EXPECT_EQ(r.c().l2_atom_hits, 4u);  // the load brought them to L2
  r.run(0, test::make_access(Space::kGlobal, Op::kReduction, 4, 0, [](unsigned) { return 0; }, 0x1u));
  EXPECT_EQ(r.c().l2_red_sectors, 1u);
  EXPECT_EQ(r.c().l2_red_hits, 1u);
  r.run(0, test::global_load(4, words_from(0)));  // the atomic evicted the line from L1
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).sector_hits, 0u);
  EXPECT_EQ(r.c().l2_read_hits, 4u);
  EXPECT_EQ(r.c().dram_read_bytes, 128u);
  r.h.flush_l2();
  EXPECT_EQ(r.c().dram_write_bytes, 128u);
}

TEST(Hierarchy, LocalBasesAreDistinctPerCtaAndWarp) {
  const arch::Profile& p = arch::builtin_profile("hopper");
  MemoryHierarchy h(p, 1);
  EXPECT_EQ(h.local_base(0, 0), 1ull << 60);
  EXPECT_EQ(h.local_base(0, 1), (1ull << 60) + 32 * 1024);       // 1024 B per thread x 32 lanes
  EXPECT_EQ(h.local_base(1, 0), (1ull << 60) + 64 * 32 * 1024);  // 64 warp slots per CTA
  h.set_local_frame_bytes(256);
  EXPECT_EQ(h.local_base(0, 1), (1ull << 60) + 32 * 256);
  EXPECT_THROW(h.set_local_frame_bytes(0), Error);
  EXPECT_THROW(h.local_base(0, 64), Error);
}

TEST(Hierarchy, LocalStoresThenLoadsHitL1WhereLocalIsCached) {
  // H100 (tests/hw/data/h100): local loads after local stores all hit L1.
  Rig r("hopper");
  auto st = test::make_access(Space::kLocal, Op::kStore, 4, 0, [](unsigned) { return 2; });
  auto ld = test::make_access(Space::kLocal, Op::kLoad, 4, 0, [](unsigned) { return 2; });
  r.run(0, st);
  r.run(0, ld);
  EXPECT_EQ(r.c().at(Space::kLocal, Op::kStore).sectors, 4u);
  EXPECT_EQ(r.c().at(Space::kLocal, Op::kLoad).sectors, 4u);
  EXPECT_EQ(r.c().at(Space::kLocal, Op::kLoad).sector_hits, 4u);
  EXPECT_EQ(r.c().l2_write_sectors, 4u);  // written through
  EXPECT_EQ(r.c().l2_read_sectors, 0u);
  ld.cta = 1;  // another CTA's frame: nothing there
  r.run(0, ld);
  EXPECT_EQ(r.c().at(Space::kLocal, Op::kLoad).sector_hits, 4u);
  EXPECT_EQ(r.c().l2_read_sectors, 4u);
  EXPECT_EQ(r.c().l2_read_hits, 0u);
  // Maxwell does not cache local memory in L1: the reload goes to L2 (and hits there).
  Rig m("maxwell");
  m.run(0, st);
  m.run(0, test::make_access(Space::kLocal, Op::kLoad, 4, 0, [](unsigned) { return 2; }));
  EXPECT_EQ(m.c().at(Space::kLocal, Op::kLoad).sector_hits, 0u);
  EXPECT_EQ(m.c().l2_read_sectors, 4u);
  EXPECT_EQ(m.c().l2_read_hits, 4u);
  EXPECT_EQ(m.c().dram_read_bytes, 0u);
}

TEST(Hierarchy, SharedAccessesNeverReachTheCaches) {
  Rig r("hopper");
  r.run(0, test::make_access(Space::kShared, Op::kLoad, 4, 0, words_from(0)));
  EXPECT_EQ(r.c().at(Space::kGlobal, Op::kLoad).requests, 0u);
  EXPECT_EQ(r.c().l2_read_sectors, 0u);
  EXPECT_EQ(r.c().dram_read_bytes, 0u);
}

TEST(Hierarchy, UsageErrors) {
  const arch::Profile& p = arch::builtin_profile("hopper");
  EXPECT_THROW(MemoryHierarchy(p, 0), Error);
  Rig r("hopper", 2);
  try {
    r.run(2, test::global_load(4, words_from(0)));
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
  }
}

}  // namespace
}  // namespace warpscope::mem
