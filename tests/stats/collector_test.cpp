#include "stats/collector.hpp"

#include <gtest/gtest.h>

#include "arch/profile.hpp"
#include "stats/report_json.hpp"

namespace warpscope::stats {
namespace {

WarpAccess access(std::uint32_t pc, Space space, Op op, std::uint8_t width, std::uint64_t base, std::int64_t stride,
                  std::uint32_t active = 0xffffffffu) {
  WarpAccess a;
  a.pc = pc;
  a.space = space;
  a.op = op;
  a.width = width;
  a.active = LaneMask(active);
  for (unsigned l = 0; l < 32; ++l) a.addr[l] = base + static_cast<std::uint64_t>(stride * static_cast<std::int64_t>(l));
  return a;
}

const arch::Profile& hopper() { return arch::builtin_profile("hopper"); }
const arch::Profile& fermi() { return arch::builtin_profile("fermi"); }

TEST(Collector, CoalescedLoadHasNoExcess) {
  LaunchCollector c({&hopper()});
  c.on_access(access(3, Space::kGlobal, Op::kLoad, 4, 0x10000, 4));
  const auto r = c.finish();
  ASSERT_EQ(r.size(), 1u);
  const InstructionStats& s = r[0].per_pc.at(3);
  EXPECT_EQ(s.executions, 1u);
  EXPECT_EQ(s.requests, 1u);
  EXPECT_EQ(s.sectors, 4u);  // 128 consecutive bytes = 4 sectors
  EXPECT_EQ(s.ideal_sectors, 4u);
  EXPECT_EQ(s.excessive_sectors(), 0u);
  EXPECT_EQ(s.bytes_requested, 128u);
  EXPECT_EQ(s.bytes_moved, 128u);
  EXPECT_EQ(s.strided_executions, 1u);
  EXPECT_EQ(s.stride, 4);
  EXPECT_EQ(s.misaligned_executions, 0u);
  EXPECT_EQ(instruction_count(r[0], Space::kGlobal, Op::kLoad), 1u);
}

// ModelResult::const_lines: the distinct 64-byte lines of constant memory each CTA read, summed
// over the CTAs (the time model's first reads of constant data, docs/time.md).
TEST(Collector, ConstantLinesAreCountedOncePerCta) {
  LaunchCollector c({&hopper()});
  WarpAccess uniform = access(1, Space::kConst, Op::kLoad, 4, 0x1000, 0);  // one line (0x1000 / 64)
  c.on_access(uniform);
  c.on_access(uniform);                                                   // again: no new line
  c.on_access(access(2, Space::kConst, Op::kLoad, 4, 0x1000, 4));        // 128 bytes: lines 0x40, 0x41
  c.on_access(access(3, Space::kGlobal, Op::kLoad, 4, 0x2000, 4));       // not constant memory
  WarpAccess other = uniform;                                             // a second CTA reads line 0x40
  other.cta = 1;
  c.on_access(other);
  const auto r = c.finish();
  EXPECT_EQ(r[0].const_lines, 2u + 1u);
}

TEST(Collector, MisalignedRunCostsOneSectorMore) {
  // Seed 003: consecutive 4-byte words starting 4 bytes past a boundary: 5 sectors for 128 bytes.
  LaunchCollector c({&hopper(), &fermi()});
  c.on_access(access(0, Space::kGlobal, Op::kLoad, 4, 0x10004, 4));
  const auto r = c.finish();
  const InstructionStats& h = r[0].per_pc.at(0);
  EXPECT_EQ(h.sectors, 5u);
  EXPECT_EQ(h.ideal_sectors, 4u);
  EXPECT_EQ(h.excessive_sectors(), 1u);
  EXPECT_EQ(h.misaligned_executions, 1u);
  EXPECT_EQ(h.misalign_min, 4u);
  EXPECT_EQ(h.misalign_max, 4u);
  // Fermi caches global loads in 128-byte lines: 2 lines where 1 would do (seed 003: 50 %).
  const InstructionStats& f = r[1].per_pc.at(0);
  EXPECT_EQ(f.sectors, 2u);
  EXPECT_EQ(f.ideal_sectors, 1u);
  EXPECT_EQ(f.bytes_moved, 256u);
  ASSERT_TRUE(f.sample != nullptr);
  EXPECT_EQ(f.sample->unit, "line");
  EXPECT_EQ(h.sample->unit, "sector");
}

TEST(Collector, StructureFieldStride) {
  // One float of a 12-byte structure per lane: lanes 12 bytes apart span 384 bytes = 12 sectors;
  // the 128 bytes asked for fit in 4.
  LaunchCollector c({&hopper()});
  c.on_access(access(1, Space::kGlobal, Op::kLoad, 4, 0x20000, 12));
  c.on_access(access(1, Space::kGlobal, Op::kLoad, 4, 0x20000 + 384, 12));
  const auto r = c.finish();
  const InstructionStats& s = r[0].per_pc.at(1);
  EXPECT_EQ(s.executions, 2u);
  EXPECT_EQ(s.sectors, 24u);
  EXPECT_EQ(s.ideal_sectors, 8u);
  EXPECT_EQ(s.stride, 12);
  EXPECT_FALSE(s.stride_varies);
  EXPECT_EQ(s.misaligned_executions, 0u);
}

TEST(Collector, SampleIsTheAccessWithTheMostExcess) {
  LaunchCollector c({&hopper()});
  WarpAccess good = access(2, Space::kGlobal, Op::kLoad, 4, 0x30000, 4);
  good.cta = 0;
  WarpAccess bad = access(2, Space::kGlobal, Op::kLoad, 4, 0x40004, 4);
  bad.cta = 5;
  bad.warp = 1;
  c.on_access(good);
  c.on_access(bad);
  c.on_access(good);
  const auto r = c.finish();
  const Sample& smp = *r[0].per_pc.at(2).sample;
  EXPECT_EQ(smp.cta, 5u);
  EXPECT_EQ(smp.warp, 1u);
  EXPECT_EQ(smp.addr[0], 0x40004u);
  ASSERT_EQ(smp.transactions.size(), 5u);
  EXPECT_EQ(smp.transactions[0].first, 0x40000u);
  EXPECT_EQ(smp.transactions[0].second, 32u);
  EXPECT_EQ(smp.bytes_requested, 128u);
  EXPECT_EQ(smp.bytes_moved, 160u);
}

TEST(Collector, SharedBankConflicts) {
  // Lanes two words apart: banks 0, 2, ..., 30 twice: a 2-way conflict (2 wavefronts, 1 ideal).
  LaunchCollector c({&hopper()});
  c.on_access(access(4, Space::kShared, Op::kLoad, 4, 0, 8));
  const auto r = c.finish();
  const InstructionStats& s = r[0].per_pc.at(4);
  EXPECT_EQ(s.wavefronts, 2u);
  EXPECT_EQ(s.ideal_wavefronts, 1u);
  EXPECT_EQ(r[0].shared_conflicts[0], 1u);
  EXPECT_EQ(s.sectors, 0u);
}

TEST(Collector, SharedTotalsFollowEachAccessOfOneInstruction) {
  // One instruction (pc 6) seen with different shapes: each gets the bank rule's own answer
  // (the per-instruction memo must not hand one shape's totals to another).
  LaunchCollector c({&hopper()});
  c.on_access(access(6, Space::kShared, Op::kLoad, 4, 0, 128));                // one bank, 32 words: 32
  c.on_access(access(6, Space::kShared, Op::kLoad, 4, 0, 4));                  // consecutive: 1
  c.on_access(access(6, Space::kShared, Op::kLoad, 4, 512, 128, 0x3u));        // 2 lanes, one bank: 2
  c.on_access(access(6, Space::kShared, Op::kLoad, 4, 4, 128));                // bank 1, 32 words: 32
  c.on_access(access(6, Space::kShared, Op::kLoad, 16, 48, 0));                // broadcast, 2 phases of 16: 2
  c.on_access(access(6, Space::kShared, Op::kLoad, 16, 1024, 0));              // the same elsewhere: 2
  c.on_access(access(6, Space::kShared, Op::kLoad, 2, 2, 2));                  // 64 bytes from byte 2: 1
  const auto r = c.finish();
  const InstructionStats& s = r[0].per_pc.at(6);
  EXPECT_EQ(s.executions, 7u);
  EXPECT_EQ(s.wavefronts, 32u + 1 + 2 + 32 + 2 + 2 + 1);
  // Ideal: 1 per phase with a lane (the bytes of a phase fit in one 128-byte row), 2 phases for
  // the 16-byte broadcasts.
  EXPECT_EQ(s.ideal_wavefronts, 1u + 1 + 1 + 1 + 2 + 2 + 1);
  EXPECT_EQ(r[0].shared_conflicts[0], 31u + 0 + 1 + 31 + 0 + 0 + 0);
  EXPECT_EQ(s.bytes_requested, 128u + 128 + 8 + 128 + 16 + 16 + 64);
}

TEST(Collector, SharedTotalsFollowTheOffsetWithinABankWord) {
  // 2-byte loads 62 bytes apart (words floor((base + 62 l) / 4)): from byte 0 two lanes share a
  // bank with different words somewhere (2 wavefronts); from byte 2 none do (1). A move by a
  // whole bank word (4 bytes) or a bank row (128) changes nothing.
  LaunchCollector c({&hopper()});
  for (std::uint64_t base : {0u, 2u, 4u, 130u, 0u}) c.on_access(access(7, Space::kShared, Op::kLoad, 2, base, 62));
  const auto r = c.finish();
  const InstructionStats& s = r[0].per_pc.at(7);
  EXPECT_EQ(s.wavefronts, 2u + 1 + 2 + 1 + 2);
  EXPECT_EQ(s.ideal_wavefronts, 5u);  // 64 bytes each
  EXPECT_EQ(s.bytes_requested, 5u * 64);
}

TEST(Collector, SharedTotalsOfWarpsWithTwoAddresses) {
  // Lanes 0-15 at x, lanes 16-31 at y (neither affine): 4-byte loads, one 32-lane phase.
  auto halves = [](std::uint64_t x, std::uint64_t y) {
    WarpAccess a = access(9, Space::kShared, Op::kLoad, 4, 0, 0);
    for (unsigned l = 0; l < 32; ++l) a.addr[l] = l < 16 ? x : y;
    return a;
  };
  LaunchCollector c({&hopper()});
  c.on_access(halves(0, 128));    // words 0 and 32, both in bank 0: 2 wavefronts
  c.on_access(halves(0, 4));      // banks 0 and 1: 1
  c.on_access(halves(256, 384));  // the first shape two bank rows on: 2
  c.on_access(halves(4, 132));    // words 1 and 33, both in bank 1: 2
  c.on_access(halves(8, 16));     // banks 2 and 4: 1
  const auto r = c.finish();
  const InstructionStats& s = r[0].per_pc.at(9);
  EXPECT_EQ(s.wavefronts, 2u + 1 + 2 + 2 + 1);
  EXPECT_EQ(s.ideal_wavefronts, 5u);  // 8 distinct bytes each: one row
  EXPECT_EQ(r[0].shared_conflicts[0], 3u);
  EXPECT_EQ(s.bytes_requested, 5u * 8);
}

TEST(Collector, LocalUniformIndexIsCoalesced) {
  // Seed 000: the same frame offset in every lane is one 128-byte run: 1 request of 4 sectors.
  LaunchCollector c({&hopper()});
  c.on_access(access(5, Space::kLocal, Op::kLoad, 4, 8, 0));
  // A per-thread index: lane l reads word l of its own frame: 32 different runs, 32 sectors.
  c.on_access(access(6, Space::kLocal, Op::kLoad, 4, 0, 4));
  const auto r = c.finish();
  const InstructionStats& u = r[0].per_pc.at(5);
  EXPECT_EQ(u.requests, 1u);
  EXPECT_EQ(u.sectors, 4u);
  EXPECT_EQ(u.uniform_executions, 1u);
  const InstructionStats& p = r[0].per_pc.at(6);
  EXPECT_EQ(p.requests, 1u);
  EXPECT_EQ(p.sectors, 32u);
  EXPECT_EQ(p.uniform_executions, 0u);
  const auto& l = r[0].counters.at(Space::kLocal, Op::kLoad);
  EXPECT_EQ(l.requests, 2u);
  EXPECT_EQ(l.sectors, 36u);
}

TEST(Collector, LinesAggregatePerSourceLine) {
  LaunchCollector c({&hopper()});
  c.on_access(access(1, Space::kGlobal, Op::kLoad, 4, 0x10000, 4));
  c.on_access(access(2, Space::kGlobal, Op::kStore, 4, 0x20004, 4));
  const auto r = c.finish();
  LaunchStats exec;
  exec.pc_instructions = {5, 1, 1, 2};
  exec.pc_thread_instructions = {160, 32, 32, 64};
  std::vector<InstructionInfo> code(4);
  for (auto& i : code) i.file = "k.cu";
  code[0].line = 3;
  code[1].line = 4;
  code[2].line = 4;
  code[3].line = 5;
  code[1].text = "ld.global.f32 %f1, [%rd1];";
  SourceCache src;
  const auto lines = lines_json(r[0], exec, code, src);
  ASSERT_EQ(lines.size(), 3u);
  const auto& l4 = lines[1];
  EXPECT_EQ(l4["line"], 4);
  EXPECT_EQ(l4["executions"], 2);
  EXPECT_EQ(l4["thread_executions"], 64);
  EXPECT_EQ(l4["global_requests"], 2);
  EXPECT_EQ(l4["global_sectors"], 9);  // 4 + 5
  EXPECT_EQ(l4["global_ideal_sectors"], 8);
  EXPECT_EQ(l4["global_excessive_sectors"], 1);
  ASSERT_EQ(l4["instructions"].size(), 2u);
  EXPECT_EQ(l4["instructions"][0]["ptx"], "ld.global.f32 %f1, [%rd1];");
  EXPECT_EQ(l4["instructions"][1]["op"], "store");
  EXPECT_EQ(l4["instructions"][1]["sample"]["addresses"][0], 0x20004);
  EXPECT_EQ(lines[0]["global_requests"], 0);
  EXPECT_EQ(lines[0]["executions"], 5);
}

TEST(Collector, MisalignedWordIsCountedNotThrown) {
  LaunchCollector c({&hopper()});
  c.on_access(access(0, Space::kGlobal, Op::kLoad, 8, 0x10004, 8));
  const auto r = c.finish();
  EXPECT_EQ(r[0].model_errors, 1u);
  EXPECT_NE(r[0].first_model_error.find("not a multiple of 8"), std::string::npos) << r[0].first_model_error;
}

}  // namespace
}  // namespace warpscope::stats

namespace warpscope::stats {
namespace {

TEST(Collector, SharedAtomicsAreCountedApartFromStores) {
  // Nsight Compute counts shared atomics under ..._mem_shared_op_atom (tests/hw/data/h100/accuracy).
  LaunchCollector c({&arch::builtin_profile("hopper")});
  WarpAccess a;
  a.space = Space::kShared;
  a.op = Op::kAtomic;
  a.active = LaneMask(0xffffffffu);
  for (unsigned l = 0; l < 32; ++l) a.addr[l] = 4 * l;
  c.on_access(a);
  const auto r = c.finish();
  EXPECT_EQ(r[0].shared_wavefronts[2], 1u);
  EXPECT_EQ(r[0].shared_wavefronts[1], 0u);
  EXPECT_EQ(instruction_count(r[0], Space::kShared, Op::kAtomic), 1u);
}

/// One record of a tensor load (access.hpp): row `row` of a box, 128 bytes at `global`, its
/// shared address in fill_lanes, the swizzle span in no_read_lanes.
WarpAccess tensor_row(std::uint32_t cta, unsigned row, std::uint64_t global, std::uint32_t shared, std::uint32_t swizzle) {
  WarpAccess a = access(7, Space::kGlobal, Op::kBulkCopy, 16, global, 16, 0xffu);
  a.cta = cta;
  a.part = static_cast<std::uint8_t>(row);
  a.tensor = true;
  a.fill_lanes = shared;
  a.no_read_lanes = swizzle;
  return a;
}

// A tensor copy keeps its first box: the rows of the lowest CTA's first execution, whichever
// shard ran it and in whatever order the parts were made (merge() is in CTA order).
TEST(Collector, TensorCopyKeepsTheFirstBox) {
  LaunchCollector c({&hopper()});
  auto s0 = c.make_shard(), s1 = c.make_shard();
  for (unsigned e = 0; e < 2; ++e)  // CTA 2: two executions
    for (unsigned r = 0; r < 3; ++r) s1->on_access(tensor_row(2, r, 0x90000 + e * 0x1000 + r * 512, 4096 + r * 128, 0));
  auto p2 = s1->finish_cta();
  for (unsigned e = 0; e < 2; ++e)  // CTA 1: two executions, the first at 0x40000
    for (unsigned r = 0; r < 4; ++r) s0->on_access(tensor_row(1, r, 0x40000 + e * 0x1000 + r * 512, 1024 + r * 128, 128));
  auto p1 = s0->finish_cta();
  c.merge(1, std::move(p1));
  c.merge(2, std::move(p2));
  const auto r = c.finish();
  const InstructionStats& s = r[0].per_pc.at(7);
  EXPECT_EQ(s.executions, 4u);
  EXPECT_EQ(s.sectors, 2u * 4 * 4 + 2u * 3 * 4);  // 128 aligned bytes a row: 4 sectors
  ASSERT_TRUE(s.box);
  EXPECT_EQ(s.box->cta, 1u);
  EXPECT_EQ(s.box->swizzle_bytes, 128u);
  ASSERT_EQ(s.box->rows.size(), 4u);
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(s.box->rows[i].global, 0x40000u + i * 512);
    EXPECT_EQ(s.box->rows[i].bytes, 128u);
    EXPECT_EQ(s.box->rows[i].shared, 1024u + i * 128);
  }
  EXPECT_FALSE(s.box->truncated);
  const auto j = instruction_json(s, 7, nullptr);
  EXPECT_EQ(j["tma_box"]["rows"][3], nlohmann::json({0x40000 + 3 * 512, 128, 1024 + 3 * 128}));
  EXPECT_EQ(j["tma_box"]["swizzle_bytes"], 128);
}

}  // namespace
}  // namespace warpscope::stats
