#include "analysis/advice.hpp"

#include <gtest/gtest.h>

#include "advice_harness.hpp"

namespace warpscope::analysis {
namespace {

TEST(Advice, CoalescedKernelWithEnoughMathGetsNone) {
  Launch r;
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x1000, 4));
  EXPECT_TRUE(r.advice(100).empty());
}

TEST(Advice, StructureStrideSuggestsStructureOfArrays) {
  Launch r;
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x1000, 12));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"aos"});
  EXPECT_EQ(a[0]["line"], 10);
  EXPECT_EQ(a[0]["evidence"]["stride_bytes"], 12);
  EXPECT_EQ(a[0]["evidence"]["excessive_sectors"], 8);
  EXPECT_NE(a[0]["message"].get<std::string>().find("structure of arrays"), std::string::npos);
  EXPECT_NE(a[0]["message"].get<std::string>().find("k.cu:10"), std::string::npos);
}

TEST(Advice, LargeStrideIsAPlainStride) {
  Launch r;
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x1000, 4096));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"stride"});
  EXPECT_EQ(a[0]["evidence"]["stride_bytes"], 4096);
}

TEST(Advice, SameOffsetInEveryWarpIsASubAllocation) {
  Launch r;
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x1004, 4));
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x1084, 4));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"misaligned"});
  EXPECT_EQ(a[0]["evidence"]["misalignment_bytes_min"], 4);
  EXPECT_NE(a[0]["message"].get<std::string>().find("sub-allocation"), std::string::npos);
}

TEST(Advice, ChangingOffsetIsAnUnpaddedRow) {
  Launch r;
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x1000 + 4, 4));
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x2000 + 8, 4));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"misaligned"});
  EXPECT_NE(a[0]["message"].get<std::string>().find("cudaMallocPitch"), std::string::npos);
}

TEST(Advice, EvenLanesOnlyIsDivergence) {
  // Seed 003's saxpy with only even threads working: 16 lanes, 4 sectors for 64 bytes.
  Launch r;
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x1000, 4, 0x55555555u));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"divergence"});
  EXPECT_EQ(a[0]["evidence"]["average_active_lanes"], 16.0);
  EXPECT_EQ(a[0]["evidence"]["excessive_sectors"], 2);
}

TEST(Advice, OneWordForAllLanes) {
  Launch r;
  r.collector.on_access(access(0, Space::kGlobal, 4, 0x1000, 0));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"same_word"});
}

TEST(Advice, SharedColumnAccessIsABankConflict) {
  // Lanes 32 words apart (a column of a [32][32] float tile): every lane in bank 0, 32 wavefronts.
  Launch r;
  r.collector.on_access(access(0, Space::kShared, 4, 0, 128));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"bank_conflict"});
  EXPECT_EQ(a[0]["evidence"]["wavefronts"], 32);
  EXPECT_EQ(a[0]["evidence"]["ideal_wavefronts"], 1);
  EXPECT_EQ(a[0]["evidence"]["stride_bytes"], 128);
  EXPECT_NE(a[0]["message"].get<std::string>().find("pad the row by one word"), std::string::npos);
}

TEST(Advice, LdmatrixRowsA128BytesApartAskForASwizzle) {
  // ldmatrix.x1 with rows 128 bytes apart: the 8 rows in one 16-byte bank group, 8 wavefronts
  // where 1 would do (the H100's count, tests/hw/data/h100/tensor/ldsm_banks.csv).
  Launch r;
  r.texts = {"ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [%r2];"};
  WarpAccess a = access(0, Space::kShared, 16, 0, 128, 0xffu);
  a.matrix = true;
  r.collector.on_access(a);
  const auto adv = r.advice(100);
  ASSERT_EQ(rules(adv), std::vector<std::string>{"bank_conflict"});
  EXPECT_EQ(adv[0]["evidence"]["wavefronts"], 8);
  EXPECT_EQ(adv[0]["evidence"]["ideal_wavefronts"], 1);
  EXPECT_EQ(adv[0]["evidence"]["matrix"], true);
  const std::string m = adv[0]["message"];
  EXPECT_NE(m.find("ldmatrix: 8.0-way bank conflicts"), std::string::npos) << m;
  EXPECT_NE(m.find("128 bytes apart"), std::string::npos) << m;
  EXPECT_NE(m.find("c ^ (r % 8)"), std::string::npos) << m;
}

/// A tensor load's box (access.hpp): `rows` rows of 128 bytes at shared 0, 128, ... with the swizzle
/// span in no_read_lanes, one record (part) per row.
void tensor_load(Launch& r, std::uint32_t pc, unsigned rows, std::uint32_t swizzle) {
  for (unsigned row = 0; row < rows; ++row) {
    WarpAccess a = access(pc, Space::kGlobal, 16, 0x100000 + row * 1024, 16, 0xffu);
    a.op = Op::kBulkCopy;
    a.part = static_cast<std::uint8_t>(row);
    a.tensor = true;
    a.fill_lanes = row * 128;
    a.no_read_lanes = swizzle;
    r.collector.on_access(a);
  }
}

TEST(Advice, LdmatrixOnAnUnswizzledTmaTileAsksForTheTensorMapSwizzle) {
  // The same ldmatrix as above, its rows inside the 8 rows of a box the TMA wrote without swizzle
  // (pc 0, line 10): tma_swizzle, naming the tensor copy, instead of bank_conflict.
  Launch r;
  r.texts = {"cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];",
             "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [%r2];"};
  tensor_load(r, 0, 8, 0);
  WarpAccess a = access(1, Space::kShared, 16, 0, 128, 0xffu);
  a.matrix = true;
  r.collector.on_access(a);
  const auto adv = r.advice(100);
  ASSERT_EQ(rules(adv), std::vector<std::string>{"tma_swizzle"});
  EXPECT_EQ(adv[0]["line"], 11);
  const auto& ev = adv[0]["evidence"];
  EXPECT_EQ(ev["wavefronts"], 8);
  EXPECT_EQ(ev["ideal_wavefronts"], 1);
  EXPECT_EQ(ev["excess_wavefronts"], 7);
  EXPECT_EQ(ev["tma_pc"], 0);
  EXPECT_EQ(ev["tma_line"], 10);
  EXPECT_EQ(ev["box_rows"], 8);
  EXPECT_EQ(ev["row_pitch_bytes"], 128);
  EXPECT_EQ(ev["suggested_swizzle_bytes"], 128);
  EXPECT_EQ(ev["matrix"], true);
  const std::string m = adv[0]["message"];
  EXPECT_NE(m.find("k.cu:11 shared matrix load (ldmatrix): 8.0-way bank conflicts"), std::string::npos) << m;
  EXPECT_NE(m.find("tensor copy at k.cu:10 wrote without swizzle"), std::string::npos) << m;
  EXPECT_NE(m.find("CU_TENSOR_MAP_SWIZZLE_128B"), std::string::npos) << m;
}

TEST(Advice, SwizzledTmaTileOrReadsOutsideTheBoxKeepTheBankConflictRule) {
  // The box was swizzled: the conflict is the reads' own (bank_conflict).
  Launch swizzled;
  swizzled.texts = {"cp.async.bulk.tensor.2d", "ld.shared.v4.f32 {%f1, %f2, %f3, %f4}, [%r2];"};
  tensor_load(swizzled, 0, 8, 128);
  swizzled.collector.on_access(access(1, Space::kShared, 16, 0, 128, 0xffu));
  EXPECT_EQ(rules(swizzled.advice(100)), std::vector<std::string>{"bank_conflict"});
  // Unswizzled, but the reads lie past the box's 8 rows (shared 1024 on).
  Launch outside;
  outside.texts = swizzled.texts;
  tensor_load(outside, 0, 8, 0);
  outside.collector.on_access(access(1, Space::kShared, 16, 1024, 128, 0xffu));
  EXPECT_EQ(rules(outside.advice(100)), std::vector<std::string>{"bank_conflict"});
}

TEST(Advice, LocalTrafficSaysWhetherTheIndexWasUniform) {
  Launch r;
  r.collector.on_access(access(0, Space::kLocal, 4, 16, 0));
  r.collector.on_access(access(1, Space::kLocal, 4, 0, 4));
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), (std::vector<std::string>{"local_memory", "local_memory"}));
  // Ordered by sectors: the per-thread index (32 sectors) before the uniform one (4).
  EXPECT_EQ(a[0]["pc"], 1);
  EXPECT_NE(a[0]["message"].get<std::string>().find("not coalesced"), std::string::npos);
  EXPECT_NE(a[1]["message"].get<std::string>().find("coalesced"), std::string::npos);
}

TEST(Advice, LowMathToMemoryRatio) {
  Launch r;
  for (int i = 0; i < 10; ++i) r.collector.on_access(access(0, Space::kGlobal, 4, 0x1000 + 128 * i, 4));
  // 10 memory instructions, 25 others: 2.5 : 1.
  const auto a = r.advice(35);
  ASSERT_EQ(rules(a), std::vector<std::string>{"low_math_ratio"});
  EXPECT_EQ(a[0]["evidence"]["ratio"], 2.5);
}

}  // namespace
}  // namespace warpscope::analysis

namespace warpscope::analysis {
namespace {

/// The two records of one cp.async: sources base + src_stride * l, destinations dst + width * l.
void copy(Launch& r, std::uint8_t width, std::uint64_t base, std::int64_t src_stride, std::uint64_t dst) {
  WarpAccess g = access(0, Space::kGlobal, width, base, src_stride);
  g.op = Op::kLdgsts;
  g.cache = CacheOp::kCa;
  WarpAccess s = access(0, Space::kShared, width, dst, width);
  s.op = Op::kLdgsts;
  s.cache = CacheOp::kCa;
  s.part = 1;
  r.collector.on_access(g);
  r.collector.on_access(s);
}

TEST(Advice, FourByteAsyncCopiesOfConsecutiveWordsSuggestSixteen) {
  Launch r;
  for (int i = 0; i < 4; ++i) copy(r, 4, 0x10000 + 128 * i, 4, 0x400);
  const auto a = r.advice(100);
  ASSERT_EQ(rules(a), std::vector<std::string>{"cp_async_width"});
  EXPECT_EQ(a[0]["evidence"]["widenable_executions"], 4);
  EXPECT_EQ(a[0]["evidence"]["width"], 4);
  EXPECT_NE(a[0]["message"].get<std::string>().find("4x fewer instructions"), std::string::npos);
}

TEST(Advice, AsyncCopiesThatCannotBeWidenedGetNoWidthAdvice) {
  Launch r;
  copy(r, 16, 0x10000, 16, 0x400);  // already 16 bytes
  Launch q;
  copy(q, 8, 0x10008, 8, 0x400);    // runs of two 8-byte words start off a 16-byte boundary
  EXPECT_EQ(rules(r.advice(100)), std::vector<std::string>{});
  // (the warp's 256 bytes start 8 bytes into a sector: that is the misaligned rule's)
  EXPECT_EQ(rules(q.advice(100)), std::vector<std::string>{"misaligned"});
}

}  // namespace
}  // namespace warpscope::analysis

namespace warpscope::analysis {
namespace {

/// A tile staged through registers (nvcc's PTX for `tile[ty][tx] = a[i]; __syncthreads();`):
/// the load's register appears only in the load and the shared store. `run` adds the tile loop's
/// barrier and backward branch to pc 0 after the instructions given unless `loop` is false.
struct Staging {
  stats::LaunchCollector collector;
  LaunchStats exec;
  std::vector<InstructionInfo> code;
  explicit Staging(const char* profile) : collector{{&arch::builtin_profile(profile)}} {}
  nlohmann::json run(std::vector<std::string> text, std::uint32_t line_step = 1, bool loop = true) {
    if (loop) {
      text.push_back("bar.sync 0;");
      text.push_back("@%p1 bra $L__BB0_1;");
    }
    for (std::uint32_t pc = 0; pc < text.size(); ++pc) {
      if (text[pc].rfind("ld.", 0) != 0 && text[pc].rfind("st.", 0) != 0) continue;
      const Space sp = text[pc].find(".shared.") != std::string::npos ? Space::kShared : Space::kGlobal;
      WarpAccess a = access(pc, sp, 4, sp == Space::kShared ? 0x100 : 0x1000, 4);
      if (text[pc].rfind("st.", 0) == 0) a.op = Op::kStore;
      collector.on_access(a);
    }
    exec.warp_instructions = 1000;
    const auto r = collector.finish();
    code.assign(text.size(), InstructionInfo{});
    for (std::size_t i = 0; i < code.size(); ++i) {
      code[i].function = "_Z4tilePfS_";
      code[i].file = "/src/k.cu";
      code[i].line = 20 + static_cast<std::uint32_t>(i) * line_step;
      code[i].text = text[i];
      if (text[i].find(" bra ") != std::string::npos) code[i].branch_target = 0;
    }
    return advise(r[0], exec, code, nlohmann::json::array());
  }
};

TEST(Advice, TileStagedThroughRegistersSuggestsCpAsync) {
  Staging r("hopper");
  const auto a = r.run({"ld.global.f32 %f1, [%rd4];", "st.shared.f32 [%r9], %f1;"});
  ASSERT_EQ(rules(a), std::vector<std::string>{"synchronous_copy"});
  EXPECT_EQ(a[0]["pc"], 0);
  EXPECT_EQ(a[0]["line"], 20);
  EXPECT_EQ(a[0]["evidence"]["store_line"], 21);
  EXPECT_EQ(a[0]["evidence"]["executions"], 1);
  EXPECT_EQ(a[0]["evidence"]["loop_first_pc"], 0);
  EXPECT_EQ(a[0]["evidence"]["loop_last_pc"], 3);
  EXPECT_NE(a[0]["message"].get<std::string>().find("k.cu:20 loads global memory into registers only to store it "
                                                    "to shared memory at k.cu:21: cp.async"),
            std::string::npos);
}

TEST(Advice, VectorTileStagedThroughRegistersSuggestsCpAsync) {
  Staging r("ampere");
  const auto a = r.run({"ld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4+16];",
                        "st.shared.v4.f32 [%r9+16], {%f1, %f2, %f3, %f4};"});
  ASSERT_EQ(rules(a), std::vector<std::string>{"synchronous_copy"});
  EXPECT_EQ(a[0]["evidence"]["registers"], 4);
  // Load and store on one source line (`tile[ty][tx] = a[i];`).
  Staging one("hopper");
  const auto b = one.run({"ld.global.f32 %f1, [%rd4];", "st.shared.f32 [%r9], %f1;"}, 0);
  ASSERT_EQ(rules(b), std::vector<std::string>{"synchronous_copy"});
  EXPECT_NE(b[0]["message"].get<std::string>().find("k.cu:20 copies global memory to shared memory through "
                                                    "registers: cp.async"),
            std::string::npos);
}

TEST(Advice, LoadedValueUsedElsewhereOrOldGpuIsNoStagingCopy) {
  // The loaded value is also added: the registers are needed.
  Staging used("hopper");
  EXPECT_TRUE(used.run({"ld.global.f32 %f1, [%rd4];", "st.shared.f32 [%r9], %f1;", "add.f32 %f2, %f1, %f1;"})
                  .empty());
  // The store takes other registers (a reordered vector is a different value).
  Staging other("hopper");
  EXPECT_TRUE(other.run({"ld.global.v2.f32 {%f1, %f2}, [%rd4];", "st.shared.v2.f32 [%r9], {%f2, %f1};"}).empty());
  // Kepler has no cp.async.
  Staging kepler("kepler");
  EXPECT_TRUE(kepler.run({"ld.global.f32 %f1, [%rd4];", "st.shared.f32 [%r9], %f1;"}).empty());
}

TEST(Advice, TileLoadedOnceOrALoopWithoutBarrierIsNoStagingCopy) {
  // Issue 35: a transpose's tile, loaded once before its __syncthreads(): no tile loop, nothing
  // for cp.async to overlap the copy with.
  Staging once("hopper");
  EXPECT_TRUE(once.run({"ld.global.f32 %f1, [%rd4];", "st.shared.f32 [%r9], %f1;", "bar.sync 0;"}, 1, false).empty());
  // A loop over the tile's rows whose barrier comes after it.
  Staging rows("hopper");
  EXPECT_TRUE(rows.run({"ld.global.f32 %f1, [%rd4];", "st.shared.f32 [%r9], %f1;", "@%p1 bra $L__BB0_1;", "bar.sync 0;"},
                       1, false)
                  .empty());
}

}  // namespace
}  // namespace warpscope::analysis
