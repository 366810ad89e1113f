// Same-address atomics as the L2 serialises them (stats/atomic_contention.hpp, docs/mem.md
// "Atomic contention"): lane operations per address, and per 128-byte line the steps of its
// requests (per 32-byte sector its busiest address's lanes, a line's sectors one after another).
// Expected values follow from that rule on hand-made warp accesses.
#include "stats/atomic_contention.hpp"

#include <gtest/gtest.h>

#include "arch/profile.hpp"
#include "stats/collector.hpp"
#include "stats/host_mapped.hpp"

namespace warpscope::stats {
namespace {

/// Lane l adds to base + (l % naddr) * stride.
WarpAccess atomic(std::uint64_t base, unsigned naddr, std::uint64_t stride, Op op = Op::kReduction,
                  Space space = Space::kGlobal, std::uint32_t active = 0xffffffffu) {
  WarpAccess a;
  a.pc = 5;
  a.space = space;
  a.op = op;
  a.width = 4;
  a.active = LaneMask(active);
  for (unsigned l = 0; l < 32; ++l) a.addr[l] = base + (l % naddr) * stride;
  return a;
}

AtomicContention count(const std::vector<WarpAccess>& records, bool float_add = false) {
  AtomicCounter c;
  for (const WarpAccess& a : records) {
    std::vector<AtomicNote> addresses, lines;
    AtomicCounter::note(a, float_add, addresses, lines);
    c.add(addresses, lines);
  }
  return c.result();
}

TEST(AtomicContention, OneAddressTakesAStepPerLane) {
  const AtomicContention r = count({atomic(0x1000, 1, 0), atomic(0x1000, 1, 0)});
  EXPECT_EQ(r.address_ops, 64u);
  EXPECT_EQ(r.line_steps, 64u);
  EXPECT_EQ(r.address, 0x1000u);
  EXPECT_EQ(r.addresses, 1u);
  EXPECT_EQ(r.address_float_ops, 0u);
}

// Aggregated by ptxas (tests/hw/data/h100/timing/contention_warps_summary.txt: kind_add 0.0228 ns
// per lane, 1/32 of a lane operation): each distinct address of the record is one operation.
TEST(AtomicContention, WarpAggregatedAtomicsAreOneOperationPerAddress) {
  AtomicCounter c;
  std::vector<AtomicNote> addresses, lines;
  AtomicCounter::note(atomic(0x1000, 1, 0), false, addresses, lines, true);  // 32 lanes, one address
  AtomicCounter::note(atomic(0x2000, 2, 4), false, addresses, lines, true);  // 16 lanes on each of two
  c.add(addresses, lines);
  const AtomicContention r = c.result();
  EXPECT_EQ(r.address_ops, 1u);
  EXPECT_EQ(r.addresses, 3u);
  EXPECT_EQ(r.line_steps, 1u);  // per line: the sector's busiest address, one operation
}

TEST(AtomicContention, AddressesOfOneSectorAreServedTogether) {
  // Two ints 4 bytes apart: 16 lanes each, one sector: 16 steps.
  const AtomicContention r = count({atomic(0x1000, 2, 4)});
  EXPECT_EQ(r.address_ops, 16u);
  EXPECT_EQ(r.line_steps, 16u);
  EXPECT_EQ(r.addresses, 2u);
}

TEST(AtomicContention, SectorsOfOneLineAreServedOneAfterAnother) {
  // Two ints 32 bytes apart (two sectors of one line): 16 + 16 steps.
  EXPECT_EQ(count({atomic(0x1000, 2, 32)}).line_steps, 32u);
  // 32 ints in 4 sectors of one line: one lane each, 4 steps.
  EXPECT_EQ(count({atomic(0x1000, 32, 4)}).line_steps, 4u);
  // Two ints 128 bytes apart are in two lines: 16 steps each.
  const AtomicContention r = count({atomic(0x1000, 2, 128)});
  EXPECT_EQ(r.line_steps, 16u);
  EXPECT_EQ(r.address_ops, 16u);
}

TEST(AtomicContention, FloatAddsAndInactiveLanes) {
  const AtomicContention r = count({atomic(0x2000, 1, 0, Op::kAtomic, Space::kGlobal, 0x0000ffffu)}, true);
  EXPECT_EQ(r.address_ops, 16u);
  EXPECT_EQ(r.address_float_ops, 16u);
}

TEST(AtomicContention, OnlyGlobalAtomicsAndReductionsCount) {
  const AtomicContention r = count({atomic(0x1000, 1, 0, Op::kStore), atomic(0x1000, 1, 0, Op::kLoad),
                                    atomic(0x1000, 1, 0, Op::kAtomic, Space::kShared)});
  EXPECT_EQ(r.address_ops, 0u);
  EXPECT_EQ(r.line_steps, 0u);
  EXPECT_EQ(r.addresses, 0u);
}

TEST(HostMapped, BytesOfLanesInMappedRanges) {
  const AddressRanges ranges = {{0x1000, 0x1040}, {0x9000, 0x9100}};
  HostMappedBytes b;
  WarpAccess a = atomic(0x1000, 32, 4, Op::kLoad);  // 0x1000..0x107c: 16 lanes in the first range
  add_host_mapped(a, ranges, b);
  EXPECT_EQ(b.read, 64u);
  EXPECT_EQ(b.written, 0u);
  add_host_mapped(atomic(0x9000, 32, 4, Op::kStore), ranges, b);  // all 32 lanes
  EXPECT_EQ(b.written, 128u);
  add_host_mapped(atomic(0x9000, 1, 0, Op::kAtomic, Space::kGlobal, 0x3u), ranges, b);  // 2 lanes: read and write
  EXPECT_EQ(b.read, 72u);
  EXPECT_EQ(b.written, 136u);
  add_host_mapped(atomic(0x5000, 32, 4, Op::kLoad), ranges, b);  // outside
  add_host_mapped(atomic(0x1000, 32, 4, Op::kLoad, Space::kShared), ranges, b);  // not global
  EXPECT_EQ(b.read, 72u);
}

TEST(AtomicContention, TheCollectorCountsOverTheLaunchForEveryProfile) {
  LaunchCollector c({&arch::builtin_profile("hopper"), &arch::builtin_profile("kepler")});
  c.set_float_atomic_pcs({false, false, false, false, false, true});  // pc 5: a float add
  WarpAccess a = atomic(0x3000, 1, 0);
  for (std::uint32_t cta = 0; cta < 3; ++cta) {
    a.cta = cta;
    c.on_access(a);
  }
  const auto r = c.finish();
  ASSERT_EQ(r.size(), 2u);
  for (const ModelResult& m : r) {
    EXPECT_EQ(m.atomics.address_ops, 96u);
    EXPECT_EQ(m.atomics.address_float_ops, 96u);
    EXPECT_EQ(m.atomics.line_steps, 96u);
  }
}

}  // namespace
}  // namespace warpscope::stats
