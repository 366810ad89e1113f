// Coalescer tests. Expected values come from the rules (CUDA C Programming Guide compute
// capability sections, design.md), the seed 003 table and the H100 measurements quoted in
// design.md and tests/hw/data/h100/README.md. Every test runs on the vector path and on the
// portable path (the parameter).
#include "mem/coalescer.hpp"

#include <gtest/gtest.h>

#include <string>

#include "access_builder.hpp"
#include "warpscope/error.hpp"

namespace warpscope::mem {
namespace {

using test::access;
using test::kBase;
using test::load;
using test::store;

constexpr std::uint32_t kAll = 0xffffffffu;

/// Mask of lanes [first, last].
constexpr std::uint32_t lanes(unsigned first, unsigned last) {
  return (last - first + 1 >= 32 ? kAll : ((1u << (last - first + 1)) - 1u)) << first;
}

void expect_tx(const CoalesceResult& r, unsigned i, std::uint64_t addr, unsigned bytes, unsigned request,
               std::uint32_t lane_mask) {
  ASSERT_LT(i, r.transaction_count);
  const Transaction& t = r.transactions[i];
  EXPECT_EQ(t.addr, addr) << "transaction " << i;
  EXPECT_EQ(t.bytes, bytes) << "transaction " << i;
  EXPECT_EQ(t.request, request) << "transaction " << i;
  EXPECT_EQ(t.lanes.bits(), lane_mask) << "transaction " << i;
}

class CoalescerTest : public ::testing::TestWithParam<bool> {
 protected:
  CoalesceResult run(const char* arch, const WarpAccess& a) const {
    const Coalescer c(arch::builtin_profile(arch), GetParam());
    return c.coalesce(a);
  }
};

INSTANTIATE_TEST_SUITE_P(Paths, CoalescerTest, ::testing::Values(true, false),
                         [](const ::testing::TestParamInfo<bool>& param) {
                           return std::string(param.param ? "Vector" : "Portable");
                         });

// ---- cc 5.x and later: 32-byte sectors --------------------------------------------------------

// design.md (H100): a coalesced load of 1/2/4/8/16-byte words is 1 request of 1/2/4/8/16 sectors.
TEST_P(CoalescerTest, SectorsCoalescedWordsOfEveryWidth) {
  for (unsigned w : {1u, 2u, 4u, 8u, 16u}) {
    const CoalesceResult r = run("hopper", load(w, [&](unsigned l) { return kBase + l * w; }));
    EXPECT_EQ(r.requests, 1u) << w;
    EXPECT_EQ(r.transaction_count, w) << w;
    EXPECT_EQ(r.transaction_bytes, 32u);
    EXPECT_EQ(r.bytes_requested, 32u * w);
    EXPECT_EQ(r.bytes_moved, 32u * w);
    EXPECT_DOUBLE_EQ(r.efficiency(), 1.0);
    EXPECT_TRUE(r.cached_in_l1);
  }
}

TEST_P(CoalescerTest, SectorsListTheLanesOfEachSector) {
  const CoalesceResult r = run("hopper", load(4, [](unsigned l) { return kBase + 4 * l; }));
  ASSERT_EQ(r.transaction_count, 4u);
  for (unsigned k = 0; k < 4; ++k) expect_tx(r, k, kBase + 32 * k, 32, 0, lanes(8 * k, 8 * k + 7));
  const CoalesceResult r16 = run("hopper", load(16, [](unsigned l) { return kBase + 16 * l; }));
  ASSERT_EQ(r16.transaction_count, 16u);
  for (unsigned k = 0; k < 16; ++k) expect_tx(r16, k, kBase + 32 * k, 32, 0, lanes(2 * k, 2 * k + 1));
}

// H100 (tests/hw/data/h100/README.md): one element of offset costs 2/3/5/9/17 sectors.
TEST_P(CoalescerTest, SectorsOffsetByOneElement) {
  const unsigned expected[] = {2, 3, 5, 9, 17};
  unsigned i = 0;
  for (unsigned w : {1u, 2u, 4u, 8u, 16u}) {
    const CoalesceResult r = run("hopper", load(w, [&](unsigned l) { return kBase + (l + 1) * w; }));
    EXPECT_EQ(r.requests, 1u);
    EXPECT_EQ(r.transaction_count, expected[i++]) << w;
    EXPECT_EQ(r.bytes_requested, 32u * w);
  }
}

TEST_P(CoalescerTest, SectorsLanePlusOneFourBytes) {
  const CoalesceResult r = run("hopper", load(4, [](unsigned l) { return kBase + 4 * (l + 1); }));
  EXPECT_EQ(r.requests, 1u);
  ASSERT_EQ(r.transaction_count, 5u);
  EXPECT_EQ(r.bytes_requested, 128u);
  EXPECT_EQ(r.bytes_moved, 160u);
  EXPECT_DOUBLE_EQ(r.efficiency(), 0.8);
  // Bytes 4..131: lanes 0-6 in sector 0, 7-14, 15-22, 23-30, and lane 31 alone in sector 4.
  expect_tx(r, 0, kBase, 32, 0, lanes(0, 6));
  expect_tx(r, 1, kBase + 32, 32, 0, lanes(7, 14));
  expect_tx(r, 2, kBase + 64, 32, 0, lanes(15, 22));
  expect_tx(r, 3, kBase + 96, 32, 0, lanes(23, 30));
  expect_tx(r, 4, kBase + 128, 32, 0, lanes(31, 31));
}

// design.md: all lanes one word = 1 sector; 4 bytes of 32 requested (12.5 %).
TEST_P(CoalescerTest, SectorsAllLanesOneWord) {
  const CoalesceResult r = run("hopper", load(4, [](unsigned) { return kBase + 8; }));
  EXPECT_EQ(r.requests, 1u);
  ASSERT_EQ(r.transaction_count, 1u);
  expect_tx(r, 0, kBase, 32, 0, kAll);
  EXPECT_EQ(r.bytes_requested, 4u);
  EXPECT_EQ(r.bytes_moved, 32u);
  EXPECT_DOUBLE_EQ(r.efficiency(), 0.125);
}

// Atomics and reductions on the sector family: passes over the warp's updates, one lane per word
// position in each (the contract in coalescer.hpp; docs/accuracy.md, exception D); loads and
// stores of one word stay one sector.
TEST_P(CoalescerTest, SectorsAtomicsPassOncePerUpdateOfAWord) {
  auto at = [](Op op, auto index) { return access(Space::kGlobal, op, 4, [&](unsigned l) { return kBase + 4 * index(l); }); };
  // 32 lanes on one word: 32 passes of one lane each.
  CoalesceResult r = run("hopper", at(Op::kReduction, [](unsigned) { return 2; }));
  EXPECT_EQ(r.requests, 1u);
  ASSERT_EQ(r.transaction_count, 32u);
  for (unsigned t = 0; t < 32; ++t) expect_tx(r, t, kBase, 32, 0, 1u << t);
  EXPECT_EQ(r.bytes_requested, 4u);
  EXPECT_EQ(r.bytes_moved, 32u * 32u);
  // Lanes 0-15 on word 0; lanes 16-31 on words 8..23 (sectors 1 and 2, one lane per word): the
  // first pass takes lane 0 and lanes 16-31, then 15 passes take lanes 1..15 one at a time.
  r = run("hopper", at(Op::kAtomic, [](unsigned l) { return l < 16 ? 0u : l - 8; }));
  ASSERT_EQ(r.transaction_count, 18u);
  expect_tx(r, 0, kBase, 32, 0, 1u);
  expect_tx(r, 1, kBase + 32, 32, 0, lanes(16, 23));
  expect_tx(r, 2, kBase + 64, 32, 0, lanes(24, 31));
  for (unsigned t = 3; t < 18; ++t) expect_tx(r, t, kBase, 32, 0, 1u << (t - 2));
  // Two words of one sector, 20 and 12 lanes: 20 passes.
  r = run("hopper", at(Op::kAtomic, [](unsigned l) { return l < 20 ? 0u : 1u; }));
  EXPECT_EQ(r.transaction_count, 20u);
  // Distinct words: as a store.
  r = run("hopper", at(Op::kAtomic, [](unsigned l) { return l; }));
  EXPECT_EQ(r.transaction_count, 4u);
  // A store of one word is one sector.
  r = run("hopper", at(Op::kStore, [](unsigned) { return 2; }));
  EXPECT_EQ(r.transaction_count, 1u);
}

// Two lines of one class compete for a word position (the H100's hopper.json masks). red_classes.cu's
// `min` warp: lane 0 on word 0 of line A, lane 1 on word 5 of line B, lane 2 on word 5 of A. When A
// and B are of one class (A ^ B = 0x280: bits 7 and 9, even on both masks), lane 1 owns word
// position 5, so A's lane 2 waits, and B (contested, not the leader) waits too: three passes of one
// sector each, as the H100 measures (tests/hw/data/h100/red/red_classes.csv, min_a0_d280: 3). Of
// two classes (A ^ B = 0x380): 2.
// Without masks (ampere.json) every line is its own class: 2.
TEST_P(CoalescerTest, SectorsAtomicsLinesOfOneClassCompete) {
  auto warp = [](std::uint64_t distance) {
    const std::uint64_t addr[3] = {kBase, (kBase ^ distance) + 20, kBase + 20};
    return access(Space::kGlobal, Op::kReduction, 4, [&](unsigned l) { return l < 3 ? addr[l] : kBase; }, 0x7u);
  };
  CoalesceResult r = run("hopper", warp(0x280));
  ASSERT_EQ(r.transaction_count, 3u);
  expect_tx(r, 0, kBase, 32, 0, 1u);
  expect_tx(r, 1, kBase ^ 0x280, 32, 0, 2u);
  expect_tx(r, 2, kBase, 32, 0, 4u);
  EXPECT_EQ(run("hopper", warp(0x380)).transaction_count, 2u);
  EXPECT_EQ(run("ampere", warp(0x280)).transaction_count, 2u);
  // The other line first (lane 0 on B, word 0): B leads; A is contested (word position 0), so both
  // its lanes wait for the second pass, where A leads: 2 sectors.
  const std::uint64_t swapped[3] = {kBase ^ 0x280, kBase + 20, kBase + 0};
  EXPECT_EQ(run("hopper", access(Space::kGlobal, Op::kReduction, 4, [&](unsigned l) { return l < 3 ? swapped[l] : kBase; }, 0x7u))
                .transaction_count,
            2u);
}

// design.md: stride 32 words = 32 sectors.
TEST_P(CoalescerTest, SectorsStride32Words) {
  const CoalesceResult r = run("hopper", load(4, [](unsigned l) { return kBase + 128 * l; }));
  EXPECT_EQ(r.requests, 1u);
  ASSERT_EQ(r.transaction_count, 32u);
  for (unsigned l = 0; l < 32; ++l) expect_tx(r, l, kBase + 128 * l, 32, 0, 1u << l);
  EXPECT_EQ(r.bytes_requested, 128u);
  EXPECT_EQ(r.bytes_moved, 1024u);
  EXPECT_DOUBLE_EQ(r.efficiency(), 0.125);
}

// The probes' "permuted" pattern: element (7 * lane + 3) mod 32 stays inside one 128-byte line.
TEST_P(CoalescerTest, SectorsPermutedInsideALine) {
  const CoalesceResult r = run("hopper", load(4, [](unsigned l) { return kBase + 4 * ((7 * l + 3) % 32); }));
  ASSERT_EQ(r.transaction_count, 4u);
  EXPECT_EQ(r.bytes_requested, 128u);
  EXPECT_EQ(r.bytes_moved, 128u);
  // In the order of each sector's lowest lane: lane 0 (word 3), 1 (word 10), 2 (17), 3 (24).
  // Words 0-7 are read by lanes 27, 18, 9, 0, 23, 14, 5, 28.
  const std::uint32_t sector0 =
      (1u << 0) | (1u << 5) | (1u << 9) | (1u << 14) | (1u << 18) | (1u << 23) | (1u << 27) | (1u << 28);
  expect_tx(r, 0, kBase, 32, 0, sector0);
  EXPECT_EQ(r.transactions[1].addr, kBase + 32);
  EXPECT_EQ(r.transactions[2].addr, kBase + 64);
  EXPECT_EQ(r.transactions[3].addr, kBase + 96);
  std::uint32_t all = 0;
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(r.transactions[i].lanes.count(), 8u);
    all |= r.transactions[i].lanes.bits();
  }
  EXPECT_EQ(all, kAll);
}

TEST_P(CoalescerTest, SectorsScatteredOrderedByLowestLane) {
  // Lane l reads element 64 * ((13 * l) mod 32): 32 distinct sectors, not in address order.
  const CoalesceResult r = run("hopper", load(4, [](unsigned l) { return kBase + 256 * ((13 * l) % 32); }));
  ASSERT_EQ(r.transaction_count, 32u);
  for (unsigned l = 0; l < 32; ++l) expect_tx(r, l, kBase + 256 * ((13 * l) % 32), 32, 0, 1u << l);
  EXPECT_EQ(r.bytes_requested, 128u);
  // Four words, read in decreasing address order by lanes 0, 1, 2, 3, 0, 1, ...
  const CoalesceResult d = run("hopper", load(4, [](unsigned l) { return kBase + 4096 * (3 - l % 4); }));
  ASSERT_EQ(d.transaction_count, 4u);
  expect_tx(d, 0, kBase + 3 * 4096, 32, 0, 0x11111111u);
  expect_tx(d, 1, kBase + 2 * 4096, 32, 0, 0x22222222u);
  expect_tx(d, 2, kBase + 1 * 4096, 32, 0, 0x44444444u);
  expect_tx(d, 3, kBase, 32, 0, 0x88888888u);
  EXPECT_EQ(d.bytes_requested, 16u);
  EXPECT_EQ(d.bytes_moved, 128u);
}

TEST_P(CoalescerTest, SectorsPermutedWordsInsideSectorsCountDistinctBytes) {
  // Pairs of lanes swapped: sectors in order, addresses not; bytes requested still 128.
  const CoalesceResult r = run("hopper", load(4, [](unsigned l) { return kBase + 4 * (l ^ 1u); }));
  EXPECT_EQ(r.transaction_count, 4u);
  EXPECT_EQ(r.bytes_requested, 128u);
  // Two lanes per word, words swapped in pairs: 16 distinct words.
  const CoalesceResult h = run("hopper", load(4, [](unsigned l) { return kBase + 4 * ((l / 2) ^ 1u); }));
  EXPECT_EQ(h.transaction_count, 2u);
  EXPECT_EQ(h.bytes_requested, 64u);
}

// Seed 003: reading with only the even threads uses 50 % of the bus.
TEST_P(CoalescerTest, SectorsInactiveLanesDoNothing) {
  const CoalesceResult r =
      run("hopper", load(
                        4, [](unsigned l) { return kBase + 4 * l; }, CacheOp::kDefault, 0x55555555u));
  EXPECT_EQ(r.requests, 1u);
  ASSERT_EQ(r.transaction_count, 4u);
  for (unsigned k = 0; k < 4; ++k) expect_tx(r, k, kBase + 32 * k, 32, 0, 0x55u << (8 * k));
  EXPECT_EQ(r.bytes_requested, 64u);
  EXPECT_DOUBLE_EQ(r.efficiency(), 0.5);

  // Lanes 8-15 of a `lane+1` read: bytes 36..67, sectors 1 and 2.
  const CoalesceResult m =
      run("hopper", load(
                        4, [](unsigned l) { return kBase + 4 * (l + 1); }, CacheOp::kDefault, lanes(8, 15)));
  ASSERT_EQ(m.transaction_count, 2u);
  expect_tx(m, 0, kBase + 32, 32, 0, lanes(8, 14));
  expect_tx(m, 1, kBase + 64, 32, 0, lanes(15, 15));

  // Inactive lanes with wild addresses are ignored, whatever their value.
  const CoalesceResult w = run("hopper", load(
                                             4, [](unsigned l) { return l % 2 ? 0xdeadbeefull * l : kBase + 4 * l; },
                                             CacheOp::kDefault, 0x55555555u));
  EXPECT_EQ(w.transaction_count, 4u);
}

TEST_P(CoalescerTest, NoActiveLaneNoRequest) {
  const CoalesceResult r = run("hopper", load(
                                             4, [](unsigned l) { return kBase + 4 * l; }, CacheOp::kDefault, 0));
  EXPECT_EQ(r.requests, 0u);
  EXPECT_EQ(r.transaction_count, 0u);
  EXPECT_EQ(r.bytes_requested, 0u);
  EXPECT_EQ(r.bytes_moved, 0u);
  EXPECT_DOUBLE_EQ(r.efficiency(), 0.0);
  for (const char* arch : {"fermi", "tesla", "g80"}) {
    const CoalesceResult o = run(arch, load(
                                           4, [](unsigned l) { return kBase + 4 * l; }, CacheOp::kDefault, 0));
    EXPECT_EQ(o.requests, 0u) << arch;
    EXPECT_EQ(o.transaction_count, 0u) << arch;
  }
}

TEST_P(CoalescerTest, SectorsStoresAndCgAreCoalescedAlike) {
  // The H100 measures the same sectors for default loads, .cg loads and stores.
  for (const WarpAccess& a : {load(
                                  4, [](unsigned l) { return kBase + 4 * (l + 1); }, CacheOp::kCg),
                              store(4, [](unsigned l) { return kBase + 4 * (l + 1); })}) {
    const CoalesceResult r = run("hopper", a);
    EXPECT_EQ(r.requests, 1u);
    EXPECT_EQ(r.transaction_count, 5u);
    EXPECT_FALSE(r.cached_in_l1);
  }
}

TEST_P(CoalescerTest, ReusedResultIsReset) {
  const Coalescer c(arch::builtin_profile("hopper"), GetParam());
  CoalesceResult r;
  c.coalesce(load(4, [](unsigned l) { return kBase + 128 * l; }), r);
  EXPECT_EQ(r.transaction_count, 32u);
  c.coalesce(load(4, [](unsigned) { return kBase; }), r);
  EXPECT_EQ(r.transaction_count, 1u);
  EXPECT_EQ(r.bytes_moved, 32u);
  EXPECT_EQ(r.bytes_requested, 4u);
}

// Seed 003's array of structures: 12-byte structures, one 4-byte field per lane. Bytes 0..375:
// sectors 0-11, each read by the lanes whose field starts in it.
TEST_P(CoalescerTest, SectorsTwelveByteStructures) {
  const CoalesceResult r = run("hopper", load(4, [](unsigned l) { return kBase + 12 * l; }));
  ASSERT_EQ(r.transaction_count, 12u);
  EXPECT_EQ(r.bytes_requested, 128u);
  EXPECT_EQ(r.bytes_moved, 384u);
  expect_tx(r, 0, kBase, 32, 0, 0x7u);                // fields at 0, 12, 24
  expect_tx(r, 1, kBase + 32, 32, 0, 0x38u);          // 36, 48, 60
  expect_tx(r, 2, kBase + 64, 32, 0, 0xc0u);          // 72, 84
  expect_tx(r, 11, kBase + 352, 32, 0, 0xc0000000u);  // 360, 372 (348 is in sector 10)
}

// Blocks that agree in their low 16 bits (2 MB apart) but are different: the vector path's
// quick distinctness test cannot tell, so the warp goes the long way, with the same result.
TEST_P(CoalescerTest, SectorsScatteredTwoMegabytesApart) {
  const CoalesceResult r =
      run("hopper", load(4, [](unsigned l) { return kBase + (std::uint64_t{(7 * l) % 32} << 21); }));
  ASSERT_EQ(r.transaction_count, 32u);
  for (unsigned l = 0; l < 32; ++l) expect_tx(r, l, kBase + (std::uint64_t{(7 * l) % 32} << 21), 32, 0, 1u << l);
  EXPECT_EQ(r.bytes_requested, 128u);
}

// Reversed order (a negative stride) and a warp affine in part only.
TEST_P(CoalescerTest, SectorsReversedAndPartlyAffine) {
  const CoalesceResult r = run("hopper", load(4, [](unsigned l) { return kBase + 4 * (31 - l); }));
  ASSERT_EQ(r.transaction_count, 4u);
  for (unsigned k = 0; k < 4; ++k) expect_tx(r, k, kBase + 96 - 32 * k, 32, 0, lanes(8 * k, 8 * k + 7));
  EXPECT_EQ(r.bytes_requested, 128u);
  // Consecutive except lane 31, which reads 4 KB further.
  const CoalesceResult p = run("hopper", load(4, [](unsigned l) { return l == 31 ? kBase + 4096 : kBase + 4 * l; }));
  ASSERT_EQ(p.transaction_count, 5u);
  expect_tx(p, 3, kBase + 96, 32, 0, lanes(24, 30));
  expect_tx(p, 4, kBase + 4096, 32, 0, lanes(31, 31));
}

// ---- errors ---------------------------------------------------------------------------------

TEST_P(CoalescerTest, MisalignedWordNamesLaneAddressAndWidth) {
  try {
    run("hopper", load(4, [](unsigned l) { return l == 5 ? kBase + 22 : kBase + 4 * l; }));
    FAIL() << "accepted a misaligned word";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kMisaligned);
    const std::string m = e.what();
    EXPECT_NE(m.find("lane 5"), std::string::npos) << m;
    EXPECT_NE(m.find("0x10016"), std::string::npos) << m;
    EXPECT_NE(m.find("4 bytes"), std::string::npos) << m;
  }
  // 8-byte words must be 8-byte aligned, also in local memory; inactive lanes are not checked.
  EXPECT_THROW(run("fermi", access(Space::kLocal, Op::kStore, 8, [](unsigned) { return 4; })), Error);
  EXPECT_NO_THROW(run(
      "hopper", load(
                    4, [](unsigned l) { return l == 5 ? kBase + 2 : kBase + 4 * l; }, CacheOp::kDefault, ~(1u << 5))));
}

TEST_P(CoalescerTest, UnsupportedWidthIsAUsageError) {
  for (unsigned w : {0u, 3u, 12u, 32u}) {
    try {
      run("hopper", load(w, [](unsigned) { return kBase; }));
      FAIL() << w;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kUsage) << w;
    }
  }
}

// ---- which loads are cached in L1 -------------------------------------------------------------

TEST(CoalescerCaching, FollowsCacheOperatorAndProfile) {
  const auto word = [](unsigned l) { return kBase + 4 * l; };
  const Coalescer hopper(arch::builtin_profile("hopper"));
  EXPECT_TRUE(hopper.cached_in_l1(load(4, word)));
  EXPECT_TRUE(hopper.cached_in_l1(load(4, word, CacheOp::kCa)));
  EXPECT_FALSE(hopper.cached_in_l1(load(4, word, CacheOp::kCg)));
  EXPECT_FALSE(hopper.cached_in_l1(store(4, word)));
  EXPECT_FALSE(hopper.cached_in_l1(access(Space::kGlobal, Op::kAtomic, 4, word)));
  EXPECT_TRUE(hopper.cached_in_l1(access(Space::kLocal, Op::kLoad, 4, word)));
  const Coalescer kepler(arch::builtin_profile("kepler"));  // global loads not cached by default
  EXPECT_FALSE(kepler.cached_in_l1(load(4, word)));
  EXPECT_TRUE(kepler.cached_in_l1(load(4, word, CacheOp::kCa)));
  EXPECT_TRUE(kepler.cached_in_l1(access(Space::kLocal, Op::kLoad, 4, word)));
  const Coalescer maxwell(arch::builtin_profile("maxwell"));  // local not cached in L1
  EXPECT_FALSE(maxwell.cached_in_l1(access(Space::kLocal, Op::kLoad, 4, word)));
  const Coalescer tesla(arch::builtin_profile("tesla"));  // no L1
  EXPECT_FALSE(tesla.cached_in_l1(load(4, word, CacheOp::kCa)));
}

// ---- cc 2.x/3.x: lines and segments (seed 003's table, 32 threads x 4 bytes) -----------------

struct SeedRow {
  const char* pattern;
  std::uint64_t (*addr)(unsigned lane);
  unsigned ca_transactions, ca_bytes;
  unsigned cg_transactions, cg_bytes;
  unsigned requested;
};

TEST_P(CoalescerTest, LinesSeedTable) {
  const SeedRow rows[] = {
      {"aligned consecutive", [](unsigned l) { return kBase + 4 * l; }, 1, 128, 4, 128, 128},
      {"permuted inside 128 B", [](unsigned l) { return kBase + 4 * ((7 * l + 3) % 32); }, 1, 128, 4, 128, 128},
      {"consecutive misaligned", [](unsigned l) { return kBase + 4 * (l + 1); }, 2, 256, 5, 160, 128},
      {"all threads the same word", [](unsigned) { return kBase + 4; }, 1, 128, 1, 32, 4},
      {"stride 256 B over 32 lines", [](unsigned l) { return kBase + 256 * l; }, 32, 4096, 32, 1024, 128},
      {"stride 512 B over 8 lines", [](unsigned l) { return kBase + 512 * (l % 8); }, 8, 1024, 8, 256, 32},
  };
  for (const SeedRow& row : rows) {
    const CoalesceResult ca = run("fermi", load(4, row.addr, CacheOp::kCa));
    EXPECT_EQ(ca.requests, 1u) << row.pattern;
    EXPECT_EQ(ca.transaction_count, row.ca_transactions) << row.pattern;
    EXPECT_EQ(ca.bytes_moved, row.ca_bytes) << row.pattern;
    EXPECT_EQ(ca.transaction_bytes, 128u) << row.pattern;
    EXPECT_EQ(ca.bytes_requested, row.requested) << row.pattern;
    const CoalesceResult cg = run("fermi", load(4, row.addr, CacheOp::kCg));
    EXPECT_EQ(cg.requests, 1u) << row.pattern;
    EXPECT_EQ(cg.transaction_count, row.cg_transactions) << row.pattern;
    EXPECT_EQ(cg.bytes_moved, row.cg_bytes) << row.pattern;
    EXPECT_EQ(cg.transaction_bytes, 32u) << row.pattern;
    EXPECT_EQ(cg.bytes_requested, row.requested) << row.pattern;
  }
  // Seed 003's percentages.
  EXPECT_DOUBLE_EQ(run("fermi", load(4, rows[2].addr, CacheOp::kCa)).efficiency(), 0.5);
  EXPECT_DOUBLE_EQ(run("fermi", load(4, rows[2].addr, CacheOp::kCg)).efficiency(), 0.8);
  EXPECT_DOUBLE_EQ(run("fermi", load(4, rows[3].addr, CacheOp::kCa)).efficiency(), 0.03125);
  EXPECT_DOUBLE_EQ(run("fermi", load(4, rows[3].addr, CacheOp::kCg)).efficiency(), 0.125);
}

TEST_P(CoalescerTest, LinesDefaultFollowsTheProfile) {
  const auto word = [](unsigned l) { return kBase + 4 * l; };
  // Fermi caches global loads in L1 by default (seed 003), Kepler does not.
  EXPECT_EQ(run("fermi", load(4, word)).transaction_bytes, 128u);
  EXPECT_EQ(run("kepler", load(4, word)).transaction_count, 4u);
  EXPECT_EQ(run("kepler", load(4, word)).transaction_bytes, 32u);
}

TEST_P(CoalescerTest, LinesStoresAndAtomicsUseSegments) {
  const auto misaligned = [](unsigned l) { return kBase + 4 * (l + 1); };
  const CoalesceResult st = run("fermi", store(4, misaligned));
  EXPECT_EQ(st.transaction_count, 5u);
  EXPECT_EQ(st.bytes_moved, 160u);
  const CoalesceResult at = run("fermi", access(Space::kGlobal, Op::kAtomic, 4, misaligned));
  EXPECT_EQ(at.transaction_count, 5u);
  EXPECT_EQ(at.transaction_bytes, 32u);
}

TEST_P(CoalescerTest, LinesWideWordsArePerHalfAndQuarterWarp) {
  // 8-byte words: a request per half-warp; each half-warp reads 128 B = 1 line or 4 segments.
  const CoalesceResult ca8 = run("fermi", load(
                                              8, [](unsigned l) { return kBase + 8 * l; }, CacheOp::kCa));
  EXPECT_EQ(ca8.requests, 2u);
  ASSERT_EQ(ca8.transaction_count, 2u);
  expect_tx(ca8, 0, kBase, 128, 0, lanes(0, 15));
  expect_tx(ca8, 1, kBase + 128, 128, 1, lanes(16, 31));
  EXPECT_EQ(ca8.bytes_requested, 256u);
  const CoalesceResult cg8 = run("fermi", load(
                                              8, [](unsigned l) { return kBase + 8 * l; }, CacheOp::kCg));
  EXPECT_EQ(cg8.requests, 2u);
  EXPECT_EQ(cg8.transaction_count, 8u);
  EXPECT_EQ(cg8.transactions[3].request, 0u);
  EXPECT_EQ(cg8.transactions[4].request, 1u);
  // 16-byte words: a request per quarter-warp.
  const CoalesceResult ca16 = run("fermi", load(
                                               16, [](unsigned l) { return kBase + 16 * l; }, CacheOp::kCa));
  EXPECT_EQ(ca16.requests, 4u);
  ASSERT_EQ(ca16.transaction_count, 4u);
  for (unsigned q = 0; q < 4; ++q) expect_tx(ca16, q, kBase + 128 * q, 128, q, lanes(8 * q, 8 * q + 7));
  EXPECT_DOUBLE_EQ(ca16.efficiency(), 1.0);
  // Every half-warp re-reads the same word: 2 requests, 2 segments, 8 distinct bytes.
  const CoalesceResult same = run("fermi", load(
                                               8, [](unsigned) { return kBase; }, CacheOp::kCg));
  EXPECT_EQ(same.requests, 2u);
  EXPECT_EQ(same.transaction_count, 2u);
  EXPECT_EQ(same.bytes_moved, 64u);
  EXPECT_EQ(same.bytes_requested, 8u);
  // Requests without an active lane are not issued.
  const CoalesceResult half =
      run("fermi", load(
                       16, [](unsigned l) { return kBase + 16 * l; }, CacheOp::kCa, lanes(8, 15)));
  EXPECT_EQ(half.requests, 1u);
  ASSERT_EQ(half.transaction_count, 1u);
  expect_tx(half, 0, kBase + 128, 128, 0, lanes(8, 15));
}

// ---- cc 1.2/1.3 (Programming Guide G.3.2.2) ---------------------------------------------------

TEST_P(CoalescerTest, Cc12AlignedConsecutive) {
  // Each half-warp reads 64 B of a 128 B segment: reduced to one 64 B transaction.
  const CoalesceResult r = run("tesla", load(4, [](unsigned l) { return kBase + 4 * l; }));
  EXPECT_EQ(r.requests, 2u);
  ASSERT_EQ(r.transaction_count, 2u);
  expect_tx(r, 0, kBase, 64, 0, lanes(0, 15));
  expect_tx(r, 1, kBase + 64, 64, 1, lanes(16, 31));
  EXPECT_EQ(r.bytes_moved, 128u);
  EXPECT_EQ(r.transaction_bytes, 64u);
  EXPECT_DOUBLE_EQ(r.efficiency(), 1.0);
}

TEST_P(CoalescerTest, Cc12LanePlusOne) {
  // Half 0 reads bytes 4..67: both halves of [0,128) are used, so 128 B. Half 1 reads 68..131:
  // lanes 16-30 lie in [0,128) but only its upper half, and both 32 B quarters of that half
  // (68..127): 64 B at 64; lane 31 (128..131) is then alone in [128,256): 128 -> 64 -> 32 B.
  const CoalesceResult r = run("tesla", load(4, [](unsigned l) { return kBase + 4 * (l + 1); }));
  EXPECT_EQ(r.requests, 2u);
  ASSERT_EQ(r.transaction_count, 3u);
  expect_tx(r, 0, kBase, 128, 0, lanes(0, 15));
  expect_tx(r, 1, kBase + 64, 64, 1, lanes(16, 30));
  expect_tx(r, 2, kBase + 128, 32, 1, lanes(31, 31));
  EXPECT_EQ(r.bytes_moved, 224u);
  EXPECT_EQ(r.bytes_requested, 128u);
  EXPECT_EQ(r.transaction_bytes, 128u);
}

TEST_P(CoalescerTest, Cc12SegmentSizeFollowsTheWordSize) {
  // 1-byte words: 32 B segments; both half-warps read the same 32 B segment.
  const CoalesceResult b1 = run("tesla", load(1, [](unsigned l) { return kBase + l; }));
  ASSERT_EQ(b1.transaction_count, 2u);
  expect_tx(b1, 0, kBase, 32, 0, lanes(0, 15));
  expect_tx(b1, 1, kBase, 32, 1, lanes(16, 31));
  EXPECT_EQ(b1.bytes_moved, 64u);
  EXPECT_EQ(b1.bytes_requested, 32u);
  // 2-byte words: 64 B segments, each half-warp uses one 32 B half.
  const CoalesceResult b2 = run("tesla", load(2, [](unsigned l) { return kBase + 2 * l; }));
  ASSERT_EQ(b2.transaction_count, 2u);
  expect_tx(b2, 0, kBase, 32, 0, lanes(0, 15));
  expect_tx(b2, 1, kBase + 32, 32, 1, lanes(16, 31));
  // 16-byte words: 256 B per half-warp, two 128 B transactions each.
  const CoalesceResult b16 = run("tesla", load(16, [](unsigned l) { return kBase + 16 * l; }));
  EXPECT_EQ(b16.requests, 2u);
  ASSERT_EQ(b16.transaction_count, 4u);
  for (unsigned i = 0; i < 4; ++i) expect_tx(b16, i, kBase + 128 * i, 128, i / 2, lanes(8 * i, 8 * i + 7));
  EXPECT_EQ(b16.bytes_moved, 512u);
}

TEST_P(CoalescerTest, Cc12ShrinksAndSplits) {
  // One word for everybody: 128 -> 64 -> 32 B per half-warp.
  const CoalesceResult same = run("tesla", load(4, [](unsigned) { return kBase + 4; }));
  ASSERT_EQ(same.transaction_count, 2u);
  expect_tx(same, 0, kBase, 32, 0, lanes(0, 15));
  expect_tx(same, 1, kBase, 32, 1, lanes(16, 31));
  EXPECT_EQ(same.bytes_requested, 4u);
  // Stride 2 words: each half-warp spans a whole 128 B segment.
  const CoalesceResult s2 = run("tesla", load(4, [](unsigned l) { return kBase + 8 * l; }));
  ASSERT_EQ(s2.transaction_count, 2u);
  EXPECT_EQ(s2.bytes_moved, 256u);
  EXPECT_DOUBLE_EQ(s2.efficiency(), 0.5);
  // Stride 128 B: 16 segments of 32 B per half-warp.
  const CoalesceResult s32 = run("tesla", load(4, [](unsigned l) { return kBase + 128 * l; }));
  EXPECT_EQ(s32.transaction_count, 32u);
  EXPECT_EQ(s32.bytes_moved, 1024u);
  // Only lanes 0-7: one request, bytes 0..31: 32 B.
  const CoalesceResult q =
      run("tesla", load(
                       4, [](unsigned l) { return kBase + 4 * l; }, CacheOp::kDefault, lanes(0, 7)));
  EXPECT_EQ(q.requests, 1u);
  ASSERT_EQ(q.transaction_count, 1u);
  expect_tx(q, 0, kBase, 32, 0, lanes(0, 7));
  // The lowest unserved thread decides: lanes alternate between two segments 4 KB apart.
  const CoalesceResult alt = run("tesla", load(4, [](unsigned l) { return kBase + (l % 2) * 4096 + 4 * (l / 2); }));
  ASSERT_EQ(alt.transaction_count, 4u);
  expect_tx(alt, 0, kBase, 32, 0, 0x5555u);           // lanes 0,2,..,14: words 0-7
  expect_tx(alt, 1, kBase + 4096, 32, 0, 0xaaaau);    // lanes 1,3,..,15
  expect_tx(alt, 2, kBase + 32, 32, 1, 0x55550000u);  // lanes 16,18,..: words 8-15
  expect_tx(alt, 3, kBase + 4096 + 32, 32, 1, 0xaaaa0000u);
}

// ---- cc 1.0/1.1 (Programming Guide G.3.2.1) ---------------------------------------------------

TEST_P(CoalescerTest, Cc10CoalescedHalfWarps) {
  const CoalesceResult r4 = run("g80", load(4, [](unsigned l) { return kBase + 4 * l; }));
  EXPECT_EQ(r4.requests, 2u);
  ASSERT_EQ(r4.transaction_count, 2u);
  expect_tx(r4, 0, kBase, 64, 0, lanes(0, 15));
  expect_tx(r4, 1, kBase + 64, 64, 1, lanes(16, 31));
  const CoalesceResult r8 = run("g80", load(8, [](unsigned l) { return kBase + 8 * l; }));
  ASSERT_EQ(r8.transaction_count, 2u);
  expect_tx(r8, 0, kBase, 128, 0, lanes(0, 15));
  expect_tx(r8, 1, kBase + 128, 128, 1, lanes(16, 31));
  const CoalesceResult r16 = run("g80", load(16, [](unsigned l) { return kBase + 16 * l; }));
  ASSERT_EQ(r16.transaction_count, 4u);
  for (unsigned i = 0; i < 4; ++i) expect_tx(r16, i, kBase + 128 * i, 128, i / 2, lanes(8 * i, 8 * i + 7));
  EXPECT_EQ(r16.bytes_moved, 512u);
  // Inactive threads are allowed: lane 3 off, lanes 16-31 off.
  const CoalesceResult gap = run("g80", load(
                                            4, [](unsigned l) { return kBase + 4 * l; }, CacheOp::kDefault, 0xfff7u));
  EXPECT_EQ(gap.requests, 1u);
  ASSERT_EQ(gap.transaction_count, 1u);
  expect_tx(gap, 0, kBase, 64, 0, 0xfff7u);
  EXPECT_EQ(gap.bytes_requested, 60u);
}

TEST_P(CoalescerTest, Cc10OtherwiseOneSegmentPerThread) {
  // Misaligned by one word: 16 transactions of 32 B per half-warp.
  const CoalesceResult r = run("g80", load(4, [](unsigned l) { return kBase + 4 * (l + 1); }));
  EXPECT_EQ(r.requests, 2u);
  ASSERT_EQ(r.transaction_count, 32u);
  for (unsigned l = 0; l < 32; ++l) expect_tx(r, l, (kBase + 4 * (l + 1)) & ~31ull, 32, l / 16, 1u << l);
  EXPECT_EQ(r.bytes_moved, 1024u);
  EXPECT_EQ(r.transaction_bytes, 32u);
  // Thread k must read word k: a permutation inside the segment is not coalesced.
  EXPECT_EQ(run("g80", load(4, [](unsigned l) { return kBase + 4 * (l ^ 1u); })).transaction_count, 32u);
  // Neither is one word for everybody.
  EXPECT_EQ(run("g80", load(4, [](unsigned) { return kBase; })).transaction_count, 32u);
  // 1- and 2-byte words never are.
  EXPECT_EQ(run("g80", load(1, [](unsigned l) { return kBase + l; })).transaction_count, 32u);
  EXPECT_EQ(run("g80", load(2, [](unsigned l) { return kBase + 2 * l; })).transaction_count, 32u);
  // A segment aligned to 64 B but not to 16 * 8 = 128 B, for 8-byte words.
  EXPECT_EQ(run("g80", load(8, [](unsigned l) { return kBase + 64 + 8 * l; })).transaction_count, 32u);
}

// ---- local memory ------------------------------------------------------------------------------

TEST_P(CoalescerTest, LocalUniformIndexIsOneRun) {
  // H100: a 4-byte access with a uniform index is 1 request of 4 sectors.
  const CoalesceResult r = run("hopper", access(Space::kLocal, Op::kLoad, 4, [](unsigned) { return 8; }));
  EXPECT_EQ(r.requests, 1u);
  ASSERT_EQ(r.transaction_count, 4u);
  for (unsigned k = 0; k < 4; ++k) expect_tx(r, k, 256 + 32 * k, 32, 0, lanes(8 * k, 8 * k + 7));
  EXPECT_EQ(r.bytes_requested, 128u);
  EXPECT_EQ(r.bytes_moved, 128u);
}

TEST_P(CoalescerTest, LocalSixteenBytesIsFourRequests) {
  // design.md (H100): a 16-byte local store by a full warp is 4 requests of 4 sectors each.
  const CoalesceResult r = run("hopper", access(Space::kLocal, Op::kStore, 16, [](unsigned) { return 32; }));
  EXPECT_EQ(r.requests, 4u);
  ASSERT_EQ(r.transaction_count, 16u);
  // Piece k is frame word 8 + k: the run at (8 + k) * 128.
  for (unsigned k = 0; k < 4; ++k)
    for (unsigned s = 0; s < 4; ++s) expect_tx(r, 4 * k + s, (8 + k) * 128 + 32 * s, 32, k, lanes(8 * s, 8 * s + 7));
  EXPECT_EQ(r.bytes_requested, 512u);
  EXPECT_EQ(r.bytes_moved, 512u);
  // 8 bytes: 2 requests.
  EXPECT_EQ(run("hopper", access(Space::kLocal, Op::kLoad, 8, [](unsigned) { return 0; })).requests, 2u);
}

TEST_P(CoalescerTest, LocalPerThreadIndexScatters) {
  // H100: a per-thread index gives up to 32 sectors per request. Lane l reads a[l].
  const CoalesceResult r = run("hopper", access(Space::kLocal, Op::kLoad, 4, [](unsigned l) { return 4 * l; }));
  EXPECT_EQ(r.requests, 1u);
  ASSERT_EQ(r.transaction_count, 32u);
  for (unsigned l = 0; l < 32; ++l) expect_tx(r, l, l * 128 + ((4 * l) & ~31u), 32, 0, 1u << l);
  const CoalesceResult w = run("hopper", access(Space::kLocal, Op::kLoad, 16, [](unsigned l) { return 16 * l; }));
  EXPECT_EQ(w.requests, 4u);
  EXPECT_EQ(w.transaction_count, 128u);
  EXPECT_EQ(w.bytes_requested, 512u);
}

TEST_P(CoalescerTest, LocalNarrowWordsAndOtherFamilies) {
  // 1-byte uniform at offset 1: byte 1 of every lane's word 0: one request, 4 sectors, 32 B asked.
  const CoalesceResult b = run("hopper", access(Space::kLocal, Op::kLoad, 1, [](unsigned) { return 1; }));
  EXPECT_EQ(b.requests, 1u);
  EXPECT_EQ(b.transaction_count, 4u);
  EXPECT_EQ(b.bytes_requested, 32u);
  // Fermi caches local loads in L1: 128 B lines; a 16-byte access is 4 requests of one line.
  const CoalesceResult f = run("fermi", access(Space::kLocal, Op::kLoad, 16, [](unsigned) { return 0; }));
  EXPECT_TRUE(f.cached_in_l1);
  EXPECT_EQ(f.requests, 4u);
  ASSERT_EQ(f.transaction_count, 4u);
  for (unsigned k = 0; k < 4; ++k) expect_tx(f, k, 128 * k, 128, k, kAll);
  // Local stores on Fermi move 32 B segments.
  const CoalesceResult fs = run("fermi", access(Space::kLocal, Op::kStore, 4, [](unsigned) { return 0; }));
  EXPECT_EQ(fs.transaction_count, 4u);
  EXPECT_EQ(fs.transaction_bytes, 32u);
  // cc 1.2: each half-warp's 64 B of the run.
  const CoalesceResult t = run("tesla", access(Space::kLocal, Op::kLoad, 8, [](unsigned) { return 0; }));
  EXPECT_EQ(t.requests, 4u);
  ASSERT_EQ(t.transaction_count, 4u);
  expect_tx(t, 0, 0, 64, 0, lanes(0, 15));
  expect_tx(t, 1, 64, 64, 1, lanes(16, 31));
  expect_tx(t, 2, 128, 64, 2, lanes(0, 15));
  expect_tx(t, 3, 192, 64, 3, lanes(16, 31));
}

// ---- shared memory through the coalescer --------------------------------------------------------

TEST_P(CoalescerTest, SharedReportsWavefronts) {
  // Stride 2 words on the H100: 2 wavefronts (tests/hw/data/h100/README.md).
  const CoalesceResult r = run("hopper", access(Space::kShared, Op::kLoad, 4, [](unsigned l) { return 8 * l; }));
  EXPECT_EQ(r.requests, 1u);
  ASSERT_EQ(r.transaction_count, 2u);
  EXPECT_EQ(r.transaction_bytes, 128u);
  EXPECT_EQ(r.bytes_moved, 256u);
  EXPECT_EQ(r.bytes_requested, 128u);
  expect_tx(r, 0, 0, 128, 0, kAll);
  EXPECT_FALSE(r.cached_in_l1);
}

// ---- the vector and portable paths agree ----------------------------------------------------------

TEST(CoalescerPaths, VectorAndPortableAgreeOnPseudoRandomAccesses) {
  const Coalescer vec(arch::builtin_profile("hopper"), true);
  const Coalescer port(arch::builtin_profile("hopper"), false);
  const Coalescer fvec(arch::builtin_profile("fermi"), true);
  const Coalescer fport(arch::builtin_profile("fermi"), false);
  std::uint64_t x = 0x243f6a8885a308d3ull;
  const auto next = [&] {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return x;
  };
  CoalesceResult a, b;
  for (int iter = 0; iter < 4000; ++iter) {
    const unsigned width = 1u << (next() % 5);
    const std::uint64_t span = 1ull << (next() % 20);  // from one word to 1 MB
    WarpAccess acc;
    acc.space = next() % 4 == 0 ? Space::kLocal : Space::kGlobal;
    acc.width = static_cast<std::uint8_t>(width);
    acc.active = LaneMask(next() % 3 == 0 ? static_cast<std::uint32_t>(next()) : kAll);
    const bool sorted = next() % 2 == 0;
    for (unsigned l = 0; l < 32; ++l)
      acc.addr[l] = (sorted ? kBase + l * (span / 32 + width) : kBase + next() % span) / width * width;
    vec.coalesce(acc, a);
    port.coalesce(acc, b);
    for (int family = 0; family < 2; ++family) {
      if (family == 1) {
        fvec.coalesce(acc, a);
        fport.coalesce(acc, b);
      }
      ASSERT_EQ(a.requests, b.requests) << iter;
      ASSERT_EQ(a.transaction_count, b.transaction_count) << iter;
      ASSERT_EQ(a.bytes_requested, b.bytes_requested) << iter;
      ASSERT_EQ(a.bytes_moved, b.bytes_moved) << iter;
      for (unsigned i = 0; i < a.transaction_count; ++i) {
        ASSERT_EQ(a.transactions[i].addr, b.transactions[i].addr) << iter;
        ASSERT_EQ(a.transactions[i].lanes, b.transactions[i].lanes) << iter;
        ASSERT_EQ(a.transactions[i].request, b.transactions[i].request) << iter;
      }
      // Every active lane is served exactly once per request.
      std::uint32_t served[4] = {};
      for (unsigned i = 0; i < a.transaction_count; ++i) {
        EXPECT_EQ(served[a.transactions[i].request] & a.transactions[i].lanes.bits(), 0u);
        served[a.transactions[i].request] |= a.transactions[i].lanes.bits();
      }
      if (family == 0) {
        for (unsigned r = 0; r < a.requests; ++r) EXPECT_EQ(served[r], acc.active.bits()) << iter;
      }
    }
  }
}

TEST(CoalescerPaths, VectorAndPortableAgreeOnAffineWarps) {
  const Coalescer vec(arch::builtin_profile("hopper"), true);
  const Coalescer port(arch::builtin_profile("hopper"), false);
  CoalesceResult a, b;
  for (unsigned width : {1u, 2u, 4u, 8u, 16u})
    for (std::int64_t stride : {0, 1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 4096, -4, -16, -128})
      for (std::uint64_t offset : {0, 4, 8, 16, 28, 30, 31, 100}) {
        if (stride % static_cast<std::int64_t>(width) != 0 || offset % width != 0) continue;
        const std::uint64_t base = kBase + 1024 * 1024 + offset;
        const WarpAccess acc = load(width, [&](unsigned l) { return base + static_cast<std::uint64_t>(stride * l); });
        vec.coalesce(acc, a);
        port.coalesce(acc, b);
        const std::string what =
            std::to_string(width) + " B, stride " + std::to_string(stride) + ", offset " + std::to_string(offset);
        ASSERT_EQ(a.transaction_count, b.transaction_count) << what;
        ASSERT_EQ(a.bytes_requested, b.bytes_requested) << what;
        ASSERT_EQ(a.bytes_moved, b.bytes_moved) << what;
        for (unsigned i = 0; i < a.transaction_count; ++i) {
          ASSERT_EQ(a.transactions[i].addr, b.transactions[i].addr) << what;
          ASSERT_EQ(a.transactions[i].lanes, b.transactions[i].lanes) << what;
          ASSERT_EQ(a.transactions[i].bytes, 32u) << what;
        }
      }
}

}  // namespace
}  // namespace warpscope::mem
