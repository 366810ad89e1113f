// The block scheduler's placement (src/stats/cta_placement.hpp) against the H100's, and the order
// in which the collector serves resident CTAs through the caches (src/stats/collector.hpp).
#include "stats/cta_placement.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "arch/profile.hpp"
#include "stats/collector.hpp"

namespace warpscope::stats {
namespace {

const arch::Profile& hopper() { return arch::builtin_profile("hopper"); }

// The H100's %smid of every CTA of a 256 x 256 launch (tests/hw/cta_placement.cu; two captures,
// with and without a spin). The model numbers SMs by the first round's order, so its SM ids are
// not the H100's: what must agree is which CTAs share an SM.
std::set<std::set<std::uint32_t>> measured_groups(const std::string& file) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/accuracy/l2/" + file);
  EXPECT_TRUE(in.good()) << file;
  std::string header;
  std::getline(in, header);
  std::map<std::uint32_t, std::set<std::uint32_t>> by_sm;
  std::uint32_t cta = 0, sm = 0;
  std::uint64_t start = 0, end = 0;
  while (in >> cta >> sm >> start >> end) by_sm[sm].insert(cta);
  std::set<std::set<std::uint32_t>> groups;
  for (auto& [id, ctas] : by_sm) groups.insert(ctas);
  return groups;
}

std::set<std::set<std::uint32_t>> model_groups(const CtaPlacement& p, std::uint32_t ctas) {
  std::map<std::uint32_t, std::set<std::uint32_t>> by_sm;
  for (std::uint32_t c = 0; c < ctas; ++c) by_sm[p.sm(c)].insert(c);
  std::set<std::set<std::uint32_t>> groups;
  for (auto& [id, g] : by_sm) groups.insert(g);
  return groups;
}

TEST(CtaPlacement, SharesSmsAsTheH100) {
  // 256 threads a CTA, no registers or shared memory to speak of: 8 CTAs per SM, all 256 resident.
  const CtaPlacement p(hopper(), 8);
  const auto model = model_groups(p, 256);
  EXPECT_EQ(model.size(), 132u);
  EXPECT_EQ(model, measured_groups("cta_placement.txt"));
  EXPECT_EQ(model, measured_groups("cta_placement_nospin.txt"));
  // Without the profile's later_rounds_last (CTA c on SM c mod 132), 47 of the 124 pairs agree.
  arch::Profile plain = hopper();
  plain.later_rounds_last.clear();
  const auto round_robin = model_groups(CtaPlacement(plain, 8), 256);
  std::size_t same = 0;
  for (const auto& g : round_robin) same += g.size() == 2 && measured_groups("cta_placement.txt").count(g);
  EXPECT_EQ(same, 47u);
}

TEST(CtaPlacement, RoundsAndWaves) {
  const CtaPlacement p(hopper(), 2);
  EXPECT_EQ(p.wave_ctas(), 264u);
  EXPECT_EQ(p.sm(5), 5u);
  EXPECT_EQ(p.sm(132 + 46), 46u);   // before the first position the second round reaches last
  EXPECT_EQ(p.sm(132 + 47), 48u);   // position 47 is one of them
  EXPECT_EQ(p.sm(132 + 123), 130u);  // the last of the others
  EXPECT_EQ(p.sm(132 + 124), 47u);   // then the eight, in the profile's order
  EXPECT_EQ(p.sm(263), 131u);
  EXPECT_EQ(p.sm(264 + 5), 5u);      // the next wave takes the slots in the same order
  EXPECT_EQ(p.sm(264 + 132 + 47), 48u);
  EXPECT_EQ(p.wave(263), 0u);
  EXPECT_EQ(p.wave(264), 1u);
  // One CTA per SM: every round is a wave of its own, in the first round's order.
  const CtaPlacement one(hopper(), 1);
  EXPECT_EQ(one.sm(132 + 47), 47u);
  EXPECT_EQ(one.wave(132), 1u);
}

WarpAccess load(std::uint32_t pc, std::uint32_t cta, std::uint64_t base) {
  WarpAccess a;
  a.pc = pc;
  a.cta = cta;
  a.space = Space::kGlobal;
  a.op = Op::kLoad;
  a.width = 4;
  a.active = LaneMask(0xffffffffu);
  for (unsigned l = 0; l < 32; ++l) a.addr[l] = base + 4 * l;
  return a;
}

// CTAs 0 and 132 share SM 0 (the second round's first position). CTA 0 reads line X with
// instruction 0 and line Y with instruction 1; CTA 132 reads Y, then X. Resident together (2 per
// SM), their first loads come before either's second: both first loads miss, both second loads hit
// (4 sectors each). One after the other, CTA 132's two loads both hit.
std::vector<ModelResult> two_ctas(std::uint32_t blocks_per_sm, CtaOrder order) {
  LaunchCollector c({&hopper()});
  c.set_blocks_per_sm({blocks_per_sm});
  c.set_cta_order(order);
  const std::uint64_t x = 0x100000, y = 0x200000;
  c.on_access(load(0, 0, x));
  c.on_access(load(1, 0, y));
  c.on_access(load(0, 132, y));
  c.on_access(load(1, 132, x));
  return c.finish();
}

TEST(CtaOrder, ResidentCtasAreInterleavedInTheirL1) {
  const auto r = two_ctas(2, CtaOrder::kInterleaved);
  EXPECT_EQ(r[0].per_pc.at(0).l1_hit_sectors, 0u);
  EXPECT_EQ(r[0].per_pc.at(1).l1_hit_sectors, 8u);
  EXPECT_EQ(r[0].counters.l2_read_sectors, 8u);
  EXPECT_EQ(r[0].per_sm.at(0).l1[0][0].sector_hits, 8u);
}

TEST(CtaOrder, SequentialOrAnotherWaveComesAfter) {
  for (const auto& r : {two_ctas(2, CtaOrder::kSequential), two_ctas(1, CtaOrder::kInterleaved)}) {
    EXPECT_EQ(r[0].per_pc.at(0).l1_hit_sectors, 4u);  // CTA 132's load of Y
    EXPECT_EQ(r[0].per_pc.at(1).l1_hit_sectors, 4u);  // CTA 132's load of X
    EXPECT_EQ(r[0].counters.l2_read_sectors, 8u);
  }
}

}  // namespace
}  // namespace warpscope::stats
