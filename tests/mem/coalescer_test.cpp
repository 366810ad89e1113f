// The coalescing rules per architecture family, with expected values from the seeds (design.md's
// table of seed 003) and the CUDA Programming Guide's rules worked by hand.
#include <gtest/gtest.h>

#include <string>

#include "access_builder.hpp"
#include "mem/coalescer.hpp"
#include "warpscope/error.hpp"

namespace warpscope::mem {
namespace {

using test::global_load;
using test::make_access;

struct Expect {
  std::uint32_t requests, transactions;
  std::uint64_t moved, requested;
};

void check(const char* arch, const WarpAccess& a, Expect e) {
  Coalescer c(arch::builtin_profile(arch));
  CoalesceResult r = c.coalesce(a);
  EXPECT_EQ(r.requests, e.requests) << arch;
  EXPECT_EQ(r.transaction_count, e.transactions) << arch;
  EXPECT_EQ(r.bytes_moved, e.moved) << arch;
  EXPECT_EQ(r.bytes_requested, e.requested) << arch;
}

auto lane = [](unsigned l) { return std::int64_t(l); };
auto lane_plus_1 = [](unsigned l) { return std::int64_t(l) + 1; };
auto permuted = [](unsigned l) { return std::int64_t((l * 7 + 3) % 32); };
auto same_word = [](unsigned) { return std::int64_t(0); };
auto stride64 = [](unsigned l) { return std::int64_t(l) * 64; };  // 256 B apart: > 128 B

// Seed 003 / design.md: 32 threads reading 4-byte words (128 bytes requested).
TEST(Coalescer, SeedTableOnFermiCachingLoads) {
  check("fermi", global_load(4, lane, CacheOp::kCa), {1, 1, 128, 128});             // 100 %
  check("fermi", global_load(4, permuted, CacheOp::kCa), {1, 1, 128, 128});         // 100 %
  check("fermi", global_load(4, lane_plus_1, CacheOp::kCa), {1, 2, 256, 128});      // 50 %
  check("fermi", global_load(4, same_word, CacheOp::kCa), {1, 1, 128, 4});          // 3.125 %
  check("fermi", global_load(4, stride64, CacheOp::kCa), {1, 32, 32 * 128, 128});  // N lines
}

TEST(Coalescer, SeedTableOnFermiNonCachingLoads) {
  check("fermi", global_load(4, lane, CacheOp::kCg), {1, 4, 128, 128});            // 100 %
  check("fermi", global_load(4, permuted, CacheOp::kCg), {1, 4, 128, 128});        // 100 %
  check("fermi", global_load(4, lane_plus_1, CacheOp::kCg), {1, 5, 160, 128});     // 80 %
  check("fermi", global_load(4, same_word, CacheOp::kCg), {1, 1, 32, 4});          // 12.5 %
  check("fermi", global_load(4, stride64, CacheOp::kCg), {1, 32, 32 * 32, 128});   // N segments
}

TEST(Coalescer, EfficiencyIsRequestedOverMoved) {
  Coalescer c(arch::builtin_profile("fermi"));
  EXPECT_DOUBLE_EQ(c.coalesce(global_load(4, lane_plus_1, CacheOp::kCa)).efficiency(), 0.5);
  EXPECT_DOUBLE_EQ(c.coalesce(global_load(4, lane_plus_1, CacheOp::kCg)).efficiency(), 0.8);
  EXPECT_DOUBLE_EQ(c.coalesce(global_load(4, same_word, CacheOp::kCa)).efficiency(), 0.03125);
  EXPECT_DOUBLE_EQ(c.coalesce(global_load(4, same_word, CacheOp::kCg)).efficiency(), 0.125);
}

TEST(Coalescer, FermiDefaultCachesAndWideWordsSplitPerHalfAndQuarterWarp) {
  check("fermi", global_load(4, lane), {1, 1, 128, 128});  // default = ca on cc 2.0
  // 8-byte words: one request per half-warp, each a 128-byte line.
  check("fermi", global_load(8, lane, CacheOp::kCa), {2, 2, 256, 256});
  // 16-byte words: one request per quarter-warp.
  check("fermi", global_load(16, lane, CacheOp::kCa), {4, 4, 512, 512});
  // Stores use 32-byte segments.
  check("fermi", make_access(Space::kGlobal, Op::kStore, 4, 0, lane), {1, 4, 128, 128});
}

TEST(Coalescer, KeplerLoadsSkipL1ByDefault) {
  Coalescer c(arch::builtin_profile("kepler"));
  EXPECT_FALSE(c.cached_in_l1(global_load(4, lane)));
  check("kepler", global_load(4, lane), {1, 4, 128, 128});
  check("kepler", global_load(4, lane, CacheOp::kCa), {1, 1, 128, 128});
}

TEST(Coalescer, HopperSectors) {
  check("hopper", global_load(4, lane), {1, 4, 128, 128});
  check("hopper", global_load(4, lane_plus_1), {1, 5, 160, 128});
  check("hopper", global_load(4, same_word), {1, 1, 32, 4});
  check("hopper", global_load(4, [](unsigned l) { return std::int64_t(l) * 32; }), {1, 32, 1024, 128});
  check("hopper", global_load(16, lane), {1, 16, 512, 512});
  check("hopper", global_load(1, lane), {1, 1, 32, 32});
  check("hopper", global_load(2, lane), {1, 2, 64, 64});
  check("hopper", global_load(8, lane), {1, 8, 256, 256});
  // Caching or not, the sectors are the same on the sector family.
  check("hopper", global_load(4, lane_plus_1, CacheOp::kCg), {1, 5, 160, 128});
}

TEST(Coalescer, LocalAccessesSplitPerWord) {
  // design.md (H100): a 16-byte local store by a full warp is 4 requests of 4 sectors each.
  auto store16 = make_access(Space::kLocal, Op::kStore, 16, 0, same_word);
  Coalescer c(arch::builtin_profile("hopper"));
  CoalesceResult r = c.coalesce(store16);
  EXPECT_EQ(r.requests, 4u);
  EXPECT_EQ(r.transaction_count, 16u);
  for (std::uint32_t i = 0; i < r.transaction_count; ++i) EXPECT_EQ(r.transactions[i].request, i / 4);
  // A 4-byte access with the same offset in every lane: one contiguous 128-byte run.
  check("hopper", make_access(Space::kLocal, Op::kLoad, 4, 8, same_word), {1, 4, 128, 128});
  // Different offsets per lane: lane t's word i is at i*128 + 4t, so offsets 0..31 words put
  // each lane in its own sector.
  check("hopper", make_access(Space::kLocal, Op::kLoad, 4, 0, lane), {1, 32, 1024, 128});
}

// cc 1.2/1.3 (Programming Guide 3.x, G.3.2.2), worked by hand.
TEST(Coalescer, TeslaHalfWarps) {
  // Each half-warp reads 64 bytes inside one 128-byte segment: shrunk to 64 bytes.
  check("tesla", global_load(4, lane), {2, 2, 128, 128});
  // lane+1: half 0 covers bytes 4..67 (one 128-byte transaction, both halves used); half 1
  // covers 68..127 in [0,128) (shrunk to the upper 64 bytes) and 128..131 (shrunk to 32 bytes).
  check("tesla", global_load(4, lane_plus_1), {2, 3, 128 + 64 + 32, 128});
  // One word for all: each half-warp's 128-byte segment shrinks to 32 bytes.
  check("tesla", global_load(4, same_word), {2, 2, 64, 4});
  // 1-byte words: 32-byte segments, one per half-warp.
  check("tesla", global_load(1, lane), {2, 2, 64, 32});
  // 16-byte words: a half-warp covers 256 bytes = two 128-byte transactions.
  check("tesla", global_load(16, lane), {2, 4, 512, 512});
  // Only the first half-warp active: one request.
  check("tesla", global_load(4, lane, CacheOp::kDefault, 0x0000ffffu), {1, 1, 64, 64});
  // Stride 2 words: each half-warp spans 128 bytes, used in both halves.
  check("tesla", global_load(4, [](unsigned l) { return std::int64_t(l) * 2; }), {2, 2, 256, 128});
}

// cc 1.0/1.1 (G.3.2.1): thread k must read word k of an aligned segment.
TEST(Coalescer, G80StrictHalfWarps) {
  check("g80", global_load(4, lane), {2, 2, 128, 128});
  check("g80", global_load(4, lane_plus_1), {2, 32, 32 * 32, 128});   // misaligned: one per thread
  check("g80", global_load(4, permuted), {2, 32, 32 * 32, 128});      // permuted: one per thread
  check("g80", global_load(4, lane, CacheOp::kDefault, 0x0000fff7u), {1, 1, 64, 60});  // gaps are fine
  check("g80", global_load(16, lane), {2, 4, 512, 512});
  check("g80", global_load(1, lane), {2, 32, 32 * 32, 32});  // 8-bit words never coalesce
}

TEST(Coalescer, InactiveLanes) {
  check("hopper", global_load(4, lane, CacheOp::kDefault, 0), {0, 0, 0, 0});
  check("hopper", global_load(4, lane, CacheOp::kDefault, 0x1u), {1, 1, 32, 4});
  // Even lanes only (the seeds' saxpy on even threads): 4 sectors for 64 bytes: 50 %.
  check("hopper", global_load(4, lane, CacheOp::kDefault, 0x55555555u), {1, 4, 128, 64});
  // Inactive lanes' addresses are ignored, even misaligned ones.
  auto a = global_load(4, lane, CacheOp::kDefault, 0xfffffffeu);
  a.addr[0] = 3;
  check("hopper", a, {1, 4, 128, 124});
}

TEST(Coalescer, MisalignedWordsAreErrorsNamingLaneAndAddress) {
  Coalescer c(arch::builtin_profile("hopper"));
  auto a = global_load(8, lane, CacheOp::kDefault, 0xffffffffu, 4);
  try {
    c.coalesce(a);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kMisaligned);
    std::string m = e.what();
    EXPECT_NE(m.find("lane 0"), std::string::npos) << m;
    EXPECT_NE(m.find("0x4"), std::string::npos) << m;
    EXPECT_NE(m.find("8 bytes"), std::string::npos) << m;
  }
  auto b = global_load(4, lane);
  b.width = 3;
  EXPECT_THROW(c.coalesce(b), Error);
}

}  // namespace
}  // namespace warpscope::mem
