// Issue 35's advice rules on hand-made warp accesses: one item per source line and rule, the
// structure fixes by size, atomics, shared loads per FMA, copies and -lineinfo. Expected values
// follow from the rules in src/analysis/advice*.hpp and the sector / bank arithmetic.
#include <gtest/gtest.h>

#include "advice_harness.hpp"

namespace warpscope::analysis {
namespace {

std::string message(const nlohmann::json& item) { return item["message"].get<std::string>(); }

bool has(const nlohmann::json& item, const std::string& text) { return message(item).find(text) != std::string::npos; }

TEST(AdviceLines, TwelveByteStructReadWholeAsksForAlignAndOneVectorLoad) {
  // p[i].x, .y, .z of a 12-byte structure on one line: three loads, each 32 lanes x 12 bytes =
  // 384 bytes = 12 sectors for 4 ideal ones; together 36 sectors per warp. One 16-byte load of an
  // __align__(16) struct: 32 x 16 = 512 bytes = 16 sectors.
  Launch r;
  r.lines = {20, 20, 20};
  for (std::uint32_t f = 0; f < 3; ++f) r.collector.on_access(access(f, Space::kGlobal, 4, 0x1000 + 4 * f, 12));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"aos"});
  const auto& ev = a[0]["evidence"];
  EXPECT_EQ(a[0]["pc"], 0);
  EXPECT_EQ(a[0]["pcs"], (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(ev["struct_bytes"], 12);
  EXPECT_EQ(ev["fields"], 3);
  EXPECT_EQ(ev["field_bytes"], 12);
  EXPECT_EQ(ev["sectors_per_warp"], 36.0);
  EXPECT_EQ(ev["sectors_per_warp_fixed"], 16.0);
  EXPECT_EQ(ev["fix"], "align_vector");
  EXPECT_EQ(ev["sectors"], 36);
  EXPECT_EQ(ev["requests"], 3);
  EXPECT_EQ(ev["excessive_sectors"], 24);
  EXPECT_EQ(ev["sectors_per_request"], 12.0);
  ASSERT_EQ(ev["instructions"].size(), 3u);
  EXPECT_TRUE(has(a[0], "declare the structure __align__(16) (padding it to 16 bytes) and read it whole")) << a[0];
  EXPECT_TRUE(has(a[0], "16 sectors per warp and 3x fewer load instructions")) << a[0];
  EXPECT_TRUE(has(a[0], "[3 instructions of this line, PTX lines 100, 101, 102: together 24 excessive sectors of 36]"))
      << a[0];
  EXPECT_FALSE(has(a[0], "structure of arrays"));
}

TEST(AdviceLines, EightByteStructFieldsOnTwoLinesAskForAlign8) {
  // .a on line 30 and .b on line 31 of an 8-byte structure: 8 sectors each (256 bytes), 16 for
  // both; one 8-byte load: 32 x 8 = 256 bytes = 8 sectors. One item per line, the structure's
  // two fields found across the lines.
  Launch r;
  r.lines = {30, 31};
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x1000, 8));
  r.collector.on_access(access(1, Space::kGlobal, 4, 0x1004, 8));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), (std::vector<std::string>{"aos", "aos"}));
  for (const auto& i : a) {
    EXPECT_EQ(i["evidence"]["fields"], 2);
    EXPECT_EQ(i["evidence"]["field_pcs"], (std::vector<int>{0, 1}));
    EXPECT_EQ(i["evidence"]["sectors_per_warp"], 16.0);
    EXPECT_EQ(i["evidence"]["sectors_per_warp_fixed"], 8.0);
    EXPECT_TRUE(has(i, "__align__(8) and read it whole, one 8-byte vector per lane (float2/int2")) << i;
  }
}

TEST(AdviceLines, LargeStructOrOneFieldAsksForStructureOfArrays) {
  // Eight 4-byte fields of a 32-byte structure on one line: each load 32 sectors (every lane its
  // own), 256 per warp; a structure of arrays: 8 x 4 = 32.
  Launch big;
  big.lines.assign(8, 40);
  for (std::uint32_t f = 0; f < 8; ++f) big.collector.on_access(access(f, Space::kGlobal, 4, 0x2000 + 4 * f, 32));
  const auto a = big.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"aos"});
  EXPECT_EQ(a[0]["pcs"].size(), 8u);
  EXPECT_EQ(a[0]["evidence"]["fix"], "soa");
  EXPECT_EQ(a[0]["evidence"]["sectors_per_warp"], 256.0);
  EXPECT_EQ(a[0]["evidence"]["sectors_per_warp_fixed"], 32.0);
  EXPECT_EQ(a[0]["evidence"]["excessive_sectors"], 8 * 28);
  EXPECT_TRUE(has(a[0], "(8 of its fields, 32 bytes, read here: 256 sectors per warp)")) << a[0];
  EXPECT_TRUE(has(a[0], "consider a structure of arrays (one array per field: 32 sectors per warp")) << a[0];
  // One field of a 16-byte structure: 16 sectors now, 16 with a vector load too: no gain there.
  Launch one;
  one.collector.on_access(access(0, Space::kGlobal, 4, 0x1000, 16));
  const auto b = one.advice(100);
  ASSERT_EQ(rules(b), std::vector<std::string>{"aos"});
  EXPECT_EQ(b[0]["evidence"]["fix"], "soa");
  EXPECT_EQ(b[0]["evidence"]["sectors_per_warp_fixed"], 4.0);
}

TEST(AdviceLines, AnUnrolledLoopsBankConflictsAreOneItem) {
  // tile[tx][ty + j] unrolled 4 times: four loads of a column (32 words apart), 32 wavefronts each.
  Launch r;
  r.lines.assign(4, 40);
  for (std::uint32_t j = 0; j < 4; ++j) r.collector.on_access(access(j, Space::kShared, 4, 4 * j, 128));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"bank_conflict"});
  const auto& ev = a[0]["evidence"];
  EXPECT_EQ(a[0]["pcs"], (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(ev["wavefronts"], 128);
  EXPECT_EQ(ev["ideal_wavefronts"], 4);
  EXPECT_EQ(ev["excess_wavefronts"], 124);
  EXPECT_EQ(ev["conflict_degree"], 32.0);
  EXPECT_EQ(ev["instructions"].size(), 4u);
  EXPECT_TRUE(has(a[0], "k.cu:40 shared load: 32.0-way bank conflicts")) << a[0];
  EXPECT_TRUE(has(a[0], "pad the row by one word")) << a[0];
  EXPECT_TRUE(has(a[0], "[4 instructions of this line, PTX lines 100, 101, 102, 103: together 124 excess wavefronts of "
                        "128]"))
      << a[0];
}

TEST(AdviceLines, ItemsWithoutASourceLineStayApart) {
  Launch r;
  r.lines = {0, 0};
  for (std::uint32_t j = 0; j < 2; ++j) r.collector.on_access(access(j, Space::kShared, 4, 4 * j, 128));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), (std::vector<std::string>{"no_lineinfo", "bank_conflict", "bank_conflict"}));
  EXPECT_TRUE(has(a[1], "PTX line 100 shared load")) << a[1];
  EXPECT_EQ(a[1]["pcs"], (std::vector<int>{0}));
}

/// An atomic or reduction record: lane l at base + stride_of(l).
WarpAccess atomic(std::uint32_t pc, Space space, const std::vector<std::uint64_t>& addr, Op op = Op::kAtomic) {
  WarpAccess a = access(pc, space, 4, 0, 0);
  a.op = op;
  for (unsigned l = 0; l < 32; ++l) a.addr[l] = addr[l];
  return a;
}

TEST(AdviceLines, GlobalAtomicsOnFewBinsAskForSharedPrivatisation) {
  // A 16-bin histogram: 8 warps of 32 lanes over 16 words (2 lanes each), in 2 blocks: 256
  // operations, 16 per address, 8 per address and block; privatised, at most 16 x 2 = 32.
  std::vector<std::uint64_t> bins(32);
  for (unsigned l = 0; l < 32; ++l) bins[l] = 0x4000 + 4 * (l % 16);
  Launch r;
  r.ctas = 2;
  for (int w = 0; w < 8; ++w) r.collector.on_access(atomic(0, Space::kGlobal, bins));
  const auto a = r.advice(1000);
  ASSERT_EQ(rules(a), std::vector<std::string>{"global_atomic_contention"});
  const auto& ev = a[0]["evidence"];
  EXPECT_EQ(ev["addresses"], 16);
  EXPECT_EQ(ev["launch_lane_operations"], 256);
  EXPECT_EQ(ev["busiest_address_operations"], 16);
  EXPECT_EQ(ev["operations_per_address_per_cta"], 8.0);
  EXPECT_EQ(ev["operations_after_privatisation"], 32);
  EXPECT_TRUE(has(a[0], "privatise them: give each block a copy of the 16 values in shared memory")) << a[0];
  EXPECT_TRUE(has(a[0], "at most 32 global operations instead of 256")) << a[0];
  // A block's merge of its private copy: lane l adds bin l (32 bins, 128 consecutive bytes), 8
  // blocks of one warp: 1 operation per address and block, no contention item (and nothing else:
  // 4 sectors for 4 ideal ones).
  std::vector<std::uint64_t> merged(32);
  for (unsigned l = 0; l < 32; ++l) merged[l] = 0x4000 + 4 * l;
  Launch merge;
  merge.ctas = 8;
  for (int w = 0; w < 8; ++w) merge.collector.on_access(atomic(0, Space::kGlobal, merged));
  const auto m = merge.advice(1000);
  EXPECT_TRUE(m.empty()) << m;
}

TEST(AdviceLines, AWarpsAtomicsOnOneWordCombineFirst) {
  // All lanes add to one counter, over 100 blocks (0.32 operations per block: no privatisation).
  Launch r;
  r.ctas = 100;
  r.collector.on_access(atomic(0, Space::kGlobal, std::vector<std::uint64_t>(32, 0x5000)));
  const auto a = r.advice(1000);
  ASSERT_EQ(rules(a), std::vector<std::string>{"same_word"});
  EXPECT_TRUE(has(a[0], "combine the warp's values first (__reduce_add_sync")) << a[0];
  EXPECT_FALSE(has(a[0], "load it once"));
}

TEST(AdviceLines, DataDependentSharedAtomicsAskForWarpAggregationNotPadding) {
  // Lane l adds to word 32 * (7l mod 13): 13 distinct words, all in bank 0, so all 32 lanes'
  // atomics queue at bank 0: 32 wavefronts for 1 ideal (atomics do not share a word: the H200's
  // rule, shared_banks.hpp); words hit by up to 3 lanes (l, l + 13, l + 26).
  std::vector<std::uint64_t> addr(32);
  for (unsigned l = 0; l < 32; ++l) addr[l] = 128 * ((7 * l) % 13);
  Launch r;
  r.collector.on_access(atomic(0, Space::kShared, addr));
  const auto a = r.advice(1000);
  ASSERT_EQ(rules(a), std::vector<std::string>{"shared_atomic_conflict"});
  const auto& ev = a[0]["evidence"];
  EXPECT_EQ(ev["wavefronts"], 32);
  EXPECT_EQ(ev["ideal_wavefronts"], 1);
  EXPECT_EQ(ev["sample_distinct_words"], 13);
  EXPECT_EQ(ev["sample_most_lanes_per_word"], 3);
  EXPECT_EQ(ev["sample_most_words_per_bank"], 13);
  EXPECT_EQ(ev["sample_most_lanes_per_bank"], 32);
  EXPECT_EQ(ev["fix"], "warp_aggregation");
  EXPECT_TRUE(has(a[0], "k.cu:10 shared atomic: 32.0-way bank conflicts on addresses the data picks")) << a[0];
  EXPECT_TRUE(has(a[0], "padding cannot move apart bins the data chooses; aggregate per warp first: __match_any_sync"))
      << a[0];
  EXPECT_FALSE(has(a[0], "pad the row"));
  // Distinct words only (lane l on word 32 * ((5l) mod 32) of 32): per-warp copies lead.
  for (unsigned l = 0; l < 32; ++l) addr[l] = 128 * ((5 * l) % 32);
  Launch d;
  d.collector.on_access(atomic(0, Space::kShared, addr));
  const auto b = d.advice(1000);
  ASSERT_EQ(rules(b), std::vector<std::string>{"shared_atomic_conflict"});
  EXPECT_EQ(b[0]["evidence"]["fix"], "per_warp_copies");
  EXPECT_TRUE(has(b[0], "chooses; give each warp its own copy of the bins")) << b[0];
  // A constant stride is a layout: padding helps, bank_conflict.
  Launch s;
  s.collector.on_access(atomic(0, Space::kShared, [] {
    std::vector<std::uint64_t> v(32);
    for (unsigned l = 0; l < 32; ++l) v[l] = 128 * l;
    return v;
  }()));
  EXPECT_EQ(rules(s.advice(1000)), std::vector<std::string>{"bank_conflict"});
}

TEST(AdviceLines, TwoSharedLoadsPerFmaAskForRegisterTiling) {
  // acc += As[ty][k] * Bs[k][tx]: two ld.shared (1 wavefront each) per fma, 16 times.
  Launch r;
  r.texts = {"ld.shared.f32 %f1, [%r1];", "ld.shared.f32 %f2, [%r2];", "fma.rn.f32 %f3, %f1, %f2, %f3;"};
  r.lines = {12, 12, 12};
  for (int k = 0; k < 16; ++k) {
    r.collector.on_access(access(0, Space::kShared, 4, 0, 4));
    r.collector.on_access(access(1, Space::kShared, 4, 1024, 4));
  }
  r.exec.pc_instructions = {16, 16, 16};
  r.exec.pc_thread_instructions = {512, 512, 512};
  const auto a = r.advice(60);
  ASSERT_EQ(rules(a), std::vector<std::string>{"shared_loads_per_fma"});
  const auto& ev = a[0]["evidence"];
  EXPECT_EQ(a[0]["pc"], 2);
  EXPECT_EQ(a[0]["line"], 12);
  EXPECT_EQ(ev["fma_instructions"], 16);
  EXPECT_EQ(ev["shared_load_instructions"], 32);
  EXPECT_EQ(ev["shared_load_wavefronts"], 32);
  EXPECT_EQ(ev["shared_wavefronts_per_fma"], 2.0);
  // 2 flops x 512 FMA lanes per 32 x 32 lanes x 4 bytes loaded.
  EXPECT_EQ(ev["flops_per_shared_byte"], 0.25);
  EXPECT_TRUE(has(a[0], "k.cu:12: 2.00 shared-memory loads (2.00 wavefronts) per FMA, 0.25 flops per shared byte")) << a[0];
  EXPECT_TRUE(has(a[0], "Tile in registers")) << a[0];
  // Register-tiled: 4 loads per 16 FMAs (0.25 wavefronts each): no item.
  Launch t;
  t.texts = r.texts;
  for (int k = 0; k < 4; ++k) t.collector.on_access(access(0, Space::kShared, 4, 0, 4));
  t.exec.pc_instructions = {4, 0, 16};
  t.exec.pc_thread_instructions = {128, 0, 512};
  EXPECT_TRUE(t.advice(40).empty());
}

TEST(AdviceLines, ACopyGetsNoMathRatioAdvice) {
  // out[i] = in[i]: 2 memory instructions of 6, 2.0 : 1, but nothing to compute.
  Launch copy;
  copy.texts = {"ld.global.f32 %f1, [%rd1];", "st.global.f32 [%rd2], %f1;"};
  copy.collector.on_access(access(0, Space::kGlobal, 4, 0x1000, 4));
  WarpAccess st = access(1, Space::kGlobal, 4, 0x2000, 4);
  st.op = Op::kStore;
  copy.collector.on_access(st);
  EXPECT_TRUE(copy.advice(6).empty());
  // out[i] = in[i] + in[i]: the same ratio with math: low_math_ratio.
  Launch math;
  math.texts = {"ld.global.f32 %f1, [%rd1];", "add.f32 %f2, %f1, %f1;", "st.global.f32 [%rd2], %f2;"};
  math.collector.on_access(access(0, Space::kGlobal, 4, 0x1000, 4));
  st.pc = 2;
  math.collector.on_access(st);
  EXPECT_EQ(rules(math.advice(6)), std::vector<std::string>{"low_math_ratio"});
}

TEST(AdviceLines, NoLineInformationIsSaidOnceWithTheFlag) {
  Launch r;
  r.lines = {0};
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x1000, 4));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"no_lineinfo"});
  EXPECT_TRUE(has(a[0], "rebuild with nvcc -lineinfo")) << a[0];
  EXPECT_EQ(a[0]["evidence"]["instructions_with_lines"], 0);
}

}  // namespace
}  // namespace warpscope::analysis
