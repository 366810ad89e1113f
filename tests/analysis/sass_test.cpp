// src/analysis/sass: the sm_90 decoder against cuobjdump's own listings of H100 builds
// (tests/hw/data/h100/**/*.sass: each instruction's text and its two 64-bit words), the cubin
// reader on a real ptxas cubin, and the spill planner on hand-made control flow.
#include "analysis/sass.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "common/error.hpp"

namespace fs = std::filesystem;
namespace sass = warpscope::analysis::sass;
using sass::Kind;

namespace {

struct Listed {
  std::string file, text;
  std::uint32_t offset = 0;
  std::uint64_t lo = 0, hi = 0;
};

// cuobjdump -sass prints "/*0a30*/  @!P0 LDS R2, [R3+0x10] ;  /* 0x...lo */" and then
// "/* 0x...hi */" on the next line.
std::vector<Listed> listings() {
  std::vector<Listed> out;
  const std::regex first(R"(^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*/\* 0x([0-9a-f]{16}) \*/)");
  const std::regex second(R"(^\s+/\* 0x([0-9a-f]{16}) \*/)");
  for (const auto& e : fs::recursive_directory_iterator(fs::path(WARPSCOPE_SOURCE_DIR) / "tests/hw/data/h100")) {
    if (e.path().extension() != ".sass") continue;
    std::ifstream in(e.path());
    std::string line, next;
    while (std::getline(in, line)) {
      std::smatch m, m2;
      if (!std::regex_search(line, m, first)) continue;
      if (!std::getline(in, next) || !std::regex_search(next, m2, second)) continue;
      std::string text = m[2];
      while (!text.empty() && (text.back() == ' ' || text.back() == ';')) text.pop_back();
      out.push_back(Listed{e.path().filename().string(), text, static_cast<std::uint32_t>(std::stoul(m[1], nullptr, 16)),
                           std::stoull(m[3], nullptr, 16), std::stoull(m2[1], nullptr, 16)});
    }
  }
  return out;
}

std::vector<std::string> split(const std::string& s, char c) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string t;
  while (std::getline(ss, t, c)) out.push_back(t);
  return out;
}

}  // namespace

TEST(Sass, DecodesEveryInstructionOfTheH100Listings) {
  const std::vector<Listed> all = listings();
  ASSERT_GT(all.size(), 5000u) << "the committed cuobjdump listings are missing";
  const std::map<std::string, Kind> kinds = {
      {"LDL", Kind::kLoadLocal},   {"STL", Kind::kStoreLocal},  {"LDS", Kind::kLoadShared},
      {"STS", Kind::kStoreShared}, {"LDG", Kind::kLoadGlobal},  {"STG", Kind::kStoreGlobal},
      {"BRA", Kind::kBranch},      {"CALL", Kind::kCall},       {"EXIT", Kind::kExit},
      {"RET", Kind::kReturn},      {"BSSY", Kind::kSyncPoint}};
  std::map<Kind, int> seen;
  for (const Listed& l : all) {
    SCOPED_TRACE(l.file + ": " + l.text);
    const sass::Inst in = sass::decode_sm90(l.lo, l.hi, l.offset);
    std::vector<std::string> tok = split(l.text, ' ');
    std::string guard;
    if (!tok.empty() && tok[0][0] == '@') {
      guard = tok[0];
      tok.erase(tok.begin());
    }
    ASSERT_FALSE(tok.empty());
    const std::vector<std::string> parts = split(tok[0], '.');
    const auto k = kinds.find(parts[0]);
    const Kind want = k == kinds.end() ? Kind::kOther : k->second;
    ASSERT_EQ(in.kind, want);
    ++seen[want];
    // The guard: "@P3" / "@!P0"; none means PT.
    if (guard.empty()) {
      EXPECT_FALSE(in.guarded());
    } else if (guard.find("UP") == std::string::npos) {
      const bool neg = guard[1] == '!';
      const std::string reg = guard.substr(neg ? 2 : 1);
      EXPECT_EQ(in.guard_negated, neg);
      EXPECT_EQ(in.guard, reg == "PT" ? 7 : std::stoi(reg.substr(1)));
    }
    if (in.memory()) {
      unsigned width = 4;
      for (const std::string& p : parts) {
        if (p == "U8" || p == "S8") width = 1;
        if (p == "U16" || p == "S16") width = 2;
        if (p == "64") width = 8;
        if (p == "128") width = 16;
      }
      EXPECT_EQ(in.width, width);
      // The address: the last [...] of the operands ("[R1+0x34]", "desc[UR4][R2.64+-0x4]").
      const auto open = l.text.rfind('['), close = l.text.rfind(']');
      ASSERT_NE(open, std::string::npos);
      std::string addr = l.text.substr(open + 1, close - open - 1);
      if (addr.rfind("UR", 0) == 0) continue;  // a uniform-register address: another form
      std::smatch m;
      ASSERT_TRUE(std::regex_match(addr, m, std::regex(R"((R(\d+|Z)(\.64)?)?(\+?(-?)0x([0-9a-f]+))?)")));
      const int base = m[1].matched ? (m[2] == "Z" ? 255 : std::stoi(m[2])) : 255;
      long imm = m[6].matched ? std::stol(m[6], nullptr, 16) : 0;
      if (m[5] == "-") imm = -imm;
      EXPECT_EQ(in.base, base);
      EXPECT_EQ(in.imm, imm);
    }
    if (want == Kind::kBranch || want == Kind::kCall || want == Kind::kSyncPoint) {
      std::smatch m;
      if (std::regex_search(l.text, m, std::regex(R"(0x([0-9a-f]+)$)"))) {
        EXPECT_EQ(in.target, std::stol(m[1], nullptr, 16));
      }
    }
  }
  // Every kind the decoder knows occurs in the listings.
  for (const auto& [name, kind] : kinds) EXPECT_GT(seen[kind], 0) << name;
}

TEST(Sass, DescribesMemoryInstructionsAsCuobjdumpWritesTheAddress) {
  // STL [R1+0x34], R0 and LDL.LU.64 R2, [R1+0x8] and LDS.128 R12, [R0]: words from spill.sass and matmul.sass.
  EXPECT_EQ(sass::describe(sass::decode_sm90(0x0000340001007387ull, 0x0001e80000100800ull)), "STL [R1+0x34]");
  const sass::Inst ld64 = sass::decode_sm90(0x0000080001027983ull, 0x000ea80000300a00ull);
  EXPECT_EQ(ld64.width, 8);
  EXPECT_EQ(sass::describe(ld64), "LDL.64 [R1+0x8]");
}

TEST(Sass, DecodesTheConstantOperandOfLdcAndUldc) {
  // Words from cuobjdump -sass (tests/hw/data/h100/timing/const_cache.sass.txt and
  // code_fetch.sass.txt): LDC R1, c[0x0][0x28]; LDC.64 R18, c[0x3][R18+0x8];
  // ULDC.64 UR6, c[0x0][0x1210]; and an instruction with no constant operand (STL).
  const sass::Inst ldc = sass::decode_sm90(0x00000a00ff017b82ull, 0x000fe20000000800ull);
  EXPECT_EQ(ldc.const_bank, 0);
  EXPECT_EQ(ldc.const_offset, 0x28u);
  EXPECT_EQ(ldc.const_index, sass::kRegZero);
  const sass::Inst idx = sass::decode_sm90(0x00c0020012127b82ull, 0x000e620000000a00ull);
  EXPECT_EQ(idx.const_bank, 3);
  EXPECT_EQ(idx.const_offset, 0x8u);
  EXPECT_EQ(idx.const_index, 18);
  const sass::Inst uldc = sass::decode_sm90(0x0004840000067ab9ull, 0x000fca0000000a00ull);
  EXPECT_EQ(uldc.const_bank, 0);
  EXPECT_EQ(uldc.const_offset, 0x1210u);
  EXPECT_EQ(uldc.const_index, sass::kRegZero);
  EXPECT_EQ(sass::decode_sm90(0x0000340001007387ull, 0x0001e80000100800ull).const_bank, sass::kNoConst);
}

TEST(Sass, MalformedCubinsAreErrors) {
  std::vector<std::uint8_t> junk(100, 0x41);
  EXPECT_THROW(sass::read_cubin(junk, "junk"), warpscope::Error);
  // An ELF file that is not a cubin: this test program.
  std::ifstream in("/proc/self/exe", std::ios::binary);
  std::vector<std::uint8_t> self((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  try {
    sass::read_cubin(self, "self");
    FAIL() << "a host ELF file was read as a cubin";
  } catch (const warpscope::Error& e) {
    EXPECT_NE(std::string(e.what()).find("not a CUDA cubin"), std::string::npos) << e.what();
  }
}

namespace {

// PTX instructions for plan_spills: `n` plain ones with lines 100 + pc.
std::vector<sass::PtxInst> plain_ptx(std::size_t n) {
  std::vector<sass::PtxInst> p(n);
  for (std::size_t i = 0; i < n; ++i) {
    p[i].ptx_line = static_cast<std::uint32_t>(100 + i);
    p[i].anchor_ok = true;
  }
  return p;
}

sass::Inst mc(Kind kind, std::uint32_t line, std::int64_t target = -1, bool guarded = false) {
  sass::Inst in;
  in.kind = kind;
  in.ptx_line = line;
  in.target = target;
  if (guarded) in.guard = 0;
  if (kind == Kind::kLoadLocal || kind == Kind::kStoreLocal) {
    in.base = sass::kStackPointer;
    in.width = 4;
    in.imm = 0x10;
  }
  return in;
}

sass::Function numbered(std::vector<sass::Inst> code) {
  sass::Function f;
  f.name = "k";
  for (std::size_t i = 0; i < code.size(); ++i) code[i].offset = static_cast<std::uint32_t>(16 * i);
  f.code = std::move(code);
  return f;
}

}  // namespace

// PTX: pc 0-1 before a loop, 2-5 the loop (5: @p bra 2), 6-7 after it (7: exit); pc 1 is a PTX
// ld.local. Machine code: the loop's block also holds an instruction of line 101 (moved in by
// ptxas); the block after the loop holds three instructions of the loop's lines and two of its
// own. Majority alone would count the block after the loop with the loop; the rule (a block in a
// machine-code loop follows a PTX block in a loop, one outside loops one outside loops) does not.
TEST(Sass, SpillsFollowThePtxBlockTheirMachineCodeBlockCameFrom) {
  std::vector<sass::PtxInst> ptx = plain_ptx(8);
  ptx[1].local_memory = true;
  ptx[5].flow = sass::PtxInst::Flow::kBranch;
  ptx[5].guarded = true;
  ptx[5].target = 2;
  ptx[5].anchor_ok = false;
  ptx[7].flow = sass::PtxInst::Flow::kExit;
  ptx[7].anchor_ok = false;
  const sass::Function f = numbered({
      mc(Kind::kOther, 100), mc(Kind::kStoreLocal, 100), mc(Kind::kLoadLocal, 101),  // 0x00: before the loop
      mc(Kind::kOther, 101), mc(Kind::kLoadLocal, 102), mc(Kind::kOther, 103),        // 0x30: the loop
      mc(Kind::kStoreLocal, 104), mc(Kind::kBranch, 105, 0x30, true),
      mc(Kind::kOther, 103), mc(Kind::kOther, 104), mc(Kind::kOther, 105),            // 0x80: after it
      mc(Kind::kLoadLocal, 106), mc(Kind::kExit, 107),
      mc(Kind::kStoreLocal, 107), mc(Kind::kBranch, 107, 0xd0),                       // 0xd0: never runs
  });
  const sass::SpillPlan plan = sass::plan_spills(f, ptx);
  EXPECT_EQ(plan.unplaced, 0u);
  ASSERT_EQ(plan.spills.size(), 4u);  // not the LDL of line 101 (PTX's own ld.local), not 0xd0's
  EXPECT_EQ(plan.spills[0].sass_offset, 0x10u);
  EXPECT_TRUE(plan.spills[0].store);
  EXPECT_EQ(plan.spills[0].anchor, 0u);  // the entry block
  EXPECT_EQ(plan.spills[1].sass_offset, 0x40u);
  EXPECT_FALSE(plan.spills[1].store);
  EXPECT_EQ(plan.spills[1].anchor, 2u);  // the loop's first instruction
  EXPECT_EQ(plan.spills[2].sass_offset, 0x60u);
  EXPECT_EQ(plan.spills[2].anchor, 2u);
  EXPECT_EQ(plan.spills[3].sass_offset, 0xb0u);
  EXPECT_EQ(plan.spills[3].anchor, 6u);  // after the loop, though 3 of its 5 lines are the loop's
  EXPECT_EQ(plan.spills[3].frame_offset, 0x10);
  EXPECT_EQ(plan.spills[3].text, "LDL [R1+0x10]");
}

// A machine-code block whose PTX block has no instruction that may carry accesses (only a guarded
// branch) cannot be placed: its spills are counted as unplaced, not silently moved.
TEST(Sass, SpillsWithNoAnchorAreReportedUnplaced) {
  std::vector<sass::PtxInst> ptx = plain_ptx(3);
  ptx[1].flow = sass::PtxInst::Flow::kBranch;  // pc 1: @p bra 1 (a one-instruction loop)
  ptx[1].guarded = true;
  ptx[1].target = 1;
  ptx[1].anchor_ok = false;
  const sass::Function f = numbered({mc(Kind::kOther, 100), mc(Kind::kStoreLocal, 101),
                                     mc(Kind::kBranch, 101, 0x10, true), mc(Kind::kExit, 102)});
  const sass::SpillPlan plan = sass::plan_spills(f, ptx);
  EXPECT_TRUE(plan.spills.empty());
  EXPECT_EQ(plan.unplaced, 1u);
}

namespace {

sass::PtxInst shared_load(std::uint32_t line, const char* reg, std::int64_t offset) {
  sass::PtxInst p;
  p.ptx_line = line;
  p.anchor_ok = true;
  p.shared_load = true;
  p.width = 4;
  p.address_register = reg;
  p.address_offset = offset;
  return p;
}

sass::Inst lds(std::uint32_t line, std::uint8_t width) {
  sass::Inst in = mc(Kind::kLoadShared, line);
  in.width = width;
  return in;
}

}  // namespace

// matmul_tiled's pattern: four ld.shared.f32 of one lane at [%r7], [%r7+4], [%r7+8], [%r7+12]
// that ptxas reads with one LDS.128 (on the first one's line), next to one it keeps as LDS.
TEST(Sass, SharedLoadsTheMachineCodeMergedAreFound) {
  const std::vector<sass::PtxInst> ptx = {shared_load(100, "%r7", 0), shared_load(101, "%r7", 4),
                                          shared_load(102, "%r7", 8), shared_load(103, "%r7", 12),
                                          shared_load(104, "%r8", 0)};
  const std::vector<sass::Merge> m = sass::plan_merges(numbered({lds(100, 16), lds(104, 4)}), ptx);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].pc, 0u);
  EXPECT_EQ(m[0].width, 16);
  EXPECT_EQ(m[0].absorbed, (std::vector<std::uint32_t>{1, 2, 3}));
  // When one of the four keeps an LDS of its own, nothing was merged into the first.
  EXPECT_TRUE(sass::plan_merges(numbered({lds(100, 16), lds(102, 4), lds(104, 4)}), ptx).empty());
  // Another register, or a gap in the offsets: not the same bytes.
  std::vector<sass::PtxInst> other = ptx;
  other[2].address_register = "%r9";
  EXPECT_TRUE(sass::plan_merges(numbered({lds(100, 16), lds(104, 4)}), other).empty());
}

// sortingNetworks' comparator as ptxas 13.0 compiles it for sm_90
// (tests/hw/data/h100/acceptance_sass/bitonicSort.sass): st.shared.u32 [%r7] and [%r7+4] become
// one STS.64 that the line table gives to the SECOND store's line. The record goes with the
// lowest offset (pc 0, 8 bytes); the other store makes none.
TEST(Sass, SharedStoresTheMachineCodeMergedAreFound) {
  std::vector<sass::PtxInst> ptx = {shared_load(100, "%r7", 0), shared_load(101, "%r7", 4),
                                    shared_load(102, "%r8", 0), shared_load(103, "%r8", 4)};
  for (sass::PtxInst& p : ptx) {
    p.shared_load = false;
    p.shared_store = true;
  }
  auto sts = [](std::uint32_t line, std::uint8_t width) {
    sass::Inst in = mc(Kind::kStoreShared, line);
    in.width = width;
    return in;
  };
  const std::vector<sass::Merge> m = sass::plan_merges(numbered({sts(101, 8), sts(102, 4), sts(103, 4)}), ptx);
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ(m[0].pc, 0u);
  EXPECT_EQ(m[0].width, 8);
  EXPECT_EQ(m[0].absorbed, (std::vector<std::uint32_t>{1}));
  // An LDS of 8 bytes on the store's line says nothing about stores.
  EXPECT_TRUE(sass::plan_merges(numbered({lds(101, 8), sts(102, 4), sts(103, 4)}), ptx).empty());
}

// CUB's raking exclusive scan (BlockScan<int, 128, BLOCK_SCAN_RAKING>, tests/hw/lds/cub_blocks.cu)
// reads a raking thread's segment [%r49+16..28] for the upsweep and again [%r49+16..24] for the
// downsweep, with only shfl.sync and arithmetic between; ptxas 13.0 keeps the first four LDS
// and none of the second three (tests/hw/data/h200/lds/cub_blocks_source.csv.gz: 4 LDS, 8 warp
// instructions each, where the PTX has 7 loads). The second reads make no records.
TEST(Sass, SharedLoadsTheMachineCodeReusedAreFound) {
  std::vector<sass::PtxInst> ptx = {shared_load(891, "%r49", 28), shared_load(894, "%r49", 16),
                                    shared_load(900, "%r49", 20), shared_load(906, "%r49", 24),
                                    shared_load(920, "%r9", 0),   shared_load(941, "%r49", 16),
                                    shared_load(949, "%r49", 20), shared_load(956, "%r49", 24)};
  ptx[4].shared_load = false;  // pc 4: a guarded add (the shfl's @p add), not a barrier
  ptx[4].guarded = true;
  ptx[4].anchor_ok = false;
  const sass::Function f = numbered({lds(891, 4), lds(894, 4), lds(900, 4), lds(906, 4)});
  const std::vector<sass::Merge> m = sass::plan_merges(f, ptx);
  ASSERT_EQ(m.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(m[i].pc, i + 1);  // [%r49+16], +20, +24 keep their width and absorb the re-reads
    EXPECT_EQ(m[i].width, 4);
    EXPECT_EQ(m[i].absorbed, (std::vector<std::uint32_t>{static_cast<std::uint32_t>(i + 5)}));
  }
  // A barrier (unguarded, not plain) between them: the re-reads are not the first reads' values.
  std::vector<sass::PtxInst> barrier = ptx;
  barrier[4].guarded = false;
  EXPECT_TRUE(sass::plan_merges(f, barrier).empty());
  // A shared store between them, or an LDS of its own on the re-read's line: nothing absorbed.
  std::vector<sass::PtxInst> stored = ptx;
  stored[4].shared_store = true;
  EXPECT_TRUE(sass::plan_merges(f, stored).empty());
  const sass::Function own = numbered({lds(891, 4), lds(894, 4), lds(900, 4), lds(906, 4), lds(941, 4), lds(949, 4), lds(956, 4)});
  EXPECT_TRUE(sass::plan_merges(own, ptx).empty());
}

namespace {

// PTX with one ld.local (pc 2, line 102), 4 bytes per lane.
std::vector<sass::PtxInst> one_local_load() {
  std::vector<sass::PtxInst> ptx = plain_ptx(4);
  ptx[2].local_load = true;
  ptx[2].local_memory = true;
  ptx[2].width = 4;
  return ptx;
}

sass::Inst ldl() { return mc(Kind::kLoadLocal, 102); }

// A path as (machine-code offset, copies) per step.
std::vector<std::pair<std::uint32_t, std::uint32_t>> steps_of(const warpscope::LaneGrouping& g, std::size_t n) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> out;
  for (std::uint32_t s : g.paths.at(n)) out.emplace_back(g.steps.at(s).order, g.steps.at(s).copies);
  return out;
}

}  // namespace

// examples/local_arrays kernel4 as ptxas 13.0 compiles it for sm_90 (its listing in
// tests/hw/data/h100/examples/local_arrays_source.csv): `for (i = tid % 4; i < 6; ++i) sum += a[i]`
// becomes a loop of 4 LDL, then a block of 2, then a block of 1, each skipped by a guarded branch.
// A lane's count n = 4k + 2a + b (k loop iterations, a, b in {0, 1}) names its path uniquely.
TEST(Sass, LaneGroupsFollowTheOnlyPathThatMakesALanesCount) {
  const sass::Function f = numbered({
      mc(Kind::kOther, 100), mc(Kind::kSyncPoint, 102, 0x80), mc(Kind::kBranch, 102, 0x80, true),  // 0x00: entry
      ldl(), ldl(), ldl(), ldl(), mc(Kind::kBranch, 102, 0x30, true),                                   // 0x30: loop
      mc(Kind::kOther, 102), mc(Kind::kSyncPoint, 102, 0xd0), mc(Kind::kBranch, 102, 0xd0, true),     // 0x80
      ldl(), ldl(),                                                                                      // 0xb0: 2-wide
      mc(Kind::kOther, 102), mc(Kind::kBranch, 102, 0x100, true),                                        // 0xd0
      ldl(),                                                                                             // 0xf0: 1-wide
      mc(Kind::kOther, 103), mc(Kind::kExit, 103),                                                       // 0x100
      mc(Kind::kBranch, 103, 0x120),                                                                     // never runs
  });
  const std::vector<warpscope::LaneGrouping> g = sass::plan_lane_groups(f, one_local_load(), 12);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].pc, 2u);
  ASSERT_EQ(g[0].paths.size(), 13u);  // every count 1..12 has one path
  using P = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  EXPECT_TRUE(g[0].paths[0].empty());
  EXPECT_EQ(steps_of(g[0], 1), (P{{0xf0, 1}}));
  EXPECT_EQ(steps_of(g[0], 2), (P{{0xb0, 2}}));
  EXPECT_EQ(steps_of(g[0], 3), (P{{0xb0, 2}, {0xf0, 1}}));
  EXPECT_EQ(steps_of(g[0], 4), (P{{0x30, 4}}));
  EXPECT_EQ(steps_of(g[0], 5), (P{{0x30, 4}, {0xf0, 1}}));
  EXPECT_EQ(steps_of(g[0], 6), (P{{0x30, 4}, {0xb0, 2}}));
  EXPECT_EQ(steps_of(g[0], 7), (P{{0x30, 4}, {0xb0, 2}, {0xf0, 1}}));
  EXPECT_EQ(steps_of(g[0], 11), (P{{0x30, 4}, {0x30, 4}, {0xb0, 2}, {0xf0, 1}}));
  // The loop's iterations are different steps; the blocks after it are one step for every lane.
  EXPECT_EQ(g[0].paths[6][0], g[0].paths[5][0]);
  EXPECT_EQ(g[0].paths[8][0], g[0].paths[4][0]);
  EXPECT_NE(g[0].paths[8][1], g[0].paths[8][0]);
  EXPECT_EQ(g[0].paths[7][1], g[0].paths[6][1]);
  EXPECT_EQ(g[0].paths[11][2], g[0].paths[6][1]);
  EXPECT_NE(g[0].text.find("LDL"), std::string::npos);
}

// Where two paths make the same count with different steps, the count has no path: copies in both
// arms of a branch (no count has one), and a 4-wide loop followed by a 1-wide remainder loop (4 is
// one iteration of either loop four times, and so on; 1, 2, 3 are the remainder loop's alone).
TEST(Sass, LaneGroupsLeaveCountsWithSeveralPathsToThePtx) {
  const sass::Function arms = numbered({
      mc(Kind::kBranch, 100, 0x30, true), ldl(), mc(Kind::kBranch, 102, 0x40),  // 0x00
      ldl(),                                                                    // 0x30
      mc(Kind::kExit, 103),                                                     // 0x40
  });
  EXPECT_TRUE(sass::plan_lane_groups(arms, one_local_load(), 12).empty());
  const sass::Function remainder = numbered({
      mc(Kind::kOther, 100), mc(Kind::kBranch, 102, 0x70, true),            // 0x00
      ldl(), ldl(), ldl(), ldl(), mc(Kind::kBranch, 102, 0x20, true),          // 0x20: x4 loop
      mc(Kind::kBranch, 102, 0xa0, true),                                       // 0x70
      ldl(), mc(Kind::kBranch, 102, 0x80, true),                                // 0x80: x1 loop
      mc(Kind::kExit, 103),                                                     // 0xa0
  });
  const std::vector<warpscope::LaneGrouping> g = sass::plan_lane_groups(remainder, one_local_load(), 12);
  ASSERT_EQ(g.size(), 1u);
  using P = std::vector<std::pair<std::uint32_t, std::uint32_t>>;
  ASSERT_EQ(g[0].paths.size(), 4u);
  EXPECT_EQ(steps_of(g[0], 3), (P{{0x80, 1}, {0x80, 1}, {0x80, 1}}));
  // A load of another width than the PTX's (ptxas merged accesses): no grouping.
  std::vector<sass::PtxInst> wide = one_local_load();
  wide[2].width = 8;
  EXPECT_TRUE(sass::plan_lane_groups(remainder, wide, 12).empty());
}
