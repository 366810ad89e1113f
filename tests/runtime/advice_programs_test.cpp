// The advice of `warpscope run` on the patterns an Nsight Compute user tries first (issue 35):
// tests/runtime/programs/advice_patterns.cu, built with -lineinfo and without. Every expected
// item follows from the rules (src/analysis/advice*.hpp, docs/analysis.md "Advice rules") and the
// program's sizes: the counters from the coalescing and bank rules (docs/mem.md), the histogram's
// bins and its worst warp from the program's LCG (the arithmetic is in each test's comment).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.hpp"

namespace {

using rt_test::prog;

const std::string kSource = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/runtime/programs/advice_patterns.cu";

/// The 1-based line of the source that contains `text` (the first one).
unsigned line_of(const std::string& text) {
  std::ifstream in(kSource);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  ADD_FAILURE() << text << " not in " << kSource;
  return 0;
}

class AdvicePrograms : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }

  /// `warpscope run --json` of the program; also keeps the run's output.
  nlohmann::json run(const std::string& program) {
    const std::string json =
        prog(program + "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json");
    result_ = rt_test::run_shell(exe_ + " run --json " + json + " -- " + prog(program));
    EXPECT_EQ(result_.exit_code, 0) << result_.out << result_.err;
    EXPECT_NE(result_.out.find("0 failures"), std::string::npos) << result_.out;
    return nlohmann::json::parse(rt_test::slurp(json));
  }

  /// The advice of the launch of `kernel` (its name up to the parenthesis).
  static nlohmann::json advice(const nlohmann::json& report, const std::string& kernel) {
    for (const auto& l : report["launches"])
      if (l["name"].get<std::string>().rfind(kernel + "(", 0) == 0) return l["advice"];
    ADD_FAILURE() << "no launch of " << kernel;
    return nlohmann::json::array();
  }

  static std::vector<std::string> rules(const nlohmann::json& a) {
    std::vector<std::string> out;
    for (const auto& i : a) out.push_back(i["rule"]);
    return out;
  }

  static bool has(const nlohmann::json& item, const std::string& text) {
    return item["message"].get<std::string>().find(text) != std::string::npos;
  }

  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
  rt_test::Result result_;
};

using S = std::vector<std::string>;

TEST_F(AdvicePrograms, Transposes) {
  const auto j = run("advice_patterns");
  // Naive: out[x * n + y] has lanes n * 4 = 1024 bytes apart: 32 sectors per request for 4
  // ideal, in 8 x 8 CTAs x 8 warps x 4 iterations = 2048 executions. A copy: no low_math_ratio.
  const auto naive = advice(j, "transpose_naive");
  ASSERT_EQ(rules(naive), S{"stride"}) << naive;
  EXPECT_EQ(naive[0]["line"], line_of("out[x * n + y] = in[y * n + x];"));
  EXPECT_EQ(naive[0]["evidence"]["stride_bytes"], 1024);
  EXPECT_EQ(naive[0]["evidence"]["executions"], 2048);
  EXPECT_EQ(naive[0]["evidence"]["excessive_sectors"], 28 * 2048);
  EXPECT_TRUE(has(naive[0], "go through shared memory")) << naive[0];
  // Tile [32][32]: the 4 unrolled reads tile[tx][ty + j] are 32 words apart, 32-way conflicts, one
  // item for the line (512 warps each: 4 x 512 x 32 wavefronts, 4 x 512 ideal). The tile is loaded
  // once: no cp.async advice.
  const auto tile = advice(j, "transpose_tile");
  ASSERT_EQ(rules(tile), S{"bank_conflict"}) << tile;
  EXPECT_EQ(tile[0]["line"], line_of("out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];"));
  EXPECT_EQ(tile[0]["pcs"].size(), 4u);
  EXPECT_EQ(tile[0]["evidence"]["wavefronts"], 4 * 512 * 32);
  EXPECT_EQ(tile[0]["evidence"]["ideal_wavefronts"], 4 * 512);
  EXPECT_EQ(tile[0]["evidence"]["stride_bytes"], 128);
  EXPECT_TRUE(has(tile[0], "pad the row by one word (e.g. [32][33] instead of [32][32])")) << tile[0];
  EXPECT_TRUE(has(tile[0], "[4 instructions of this line")) << tile[0];
  // Padded [32][33]: nothing left.
  EXPECT_EQ(advice(j, "transpose_padded"), nlohmann::json::array());
}

TEST_F(AdvicePrograms, Histograms) {
  const auto j = run("advice_patterns");
  // Global atomics on 16 bins: 65536 lane operations, 256 blocks: 16 per bin and block; the
  // busiest bin takes 4223 (the program's LCG bytes mod 16); privatised: 16 x 256 = 4096.
  const auto global = advice(j, "histogram_global");
  ASSERT_EQ(rules(global), S{"global_atomic_contention"}) << global;
  const auto& g = global[0]["evidence"];
  EXPECT_EQ(global[0]["line"], line_of("atomicAdd(&bins[data[i] % 16], 1u);"));
  EXPECT_EQ(g["addresses"], 16);
  EXPECT_EQ(g["launch_lane_operations"], 65536);
  EXPECT_EQ(g["busiest_address_operations"], 4223);
  EXPECT_EQ(g["ctas"], 256);
  EXPECT_EQ(g["operations_per_address_per_cta"], 16.0);
  EXPECT_EQ(g["operations_after_privatisation"], 4096);
  EXPECT_TRUE(has(global[0], "at most 4096 global operations instead of 65536")) << global[0];
  // Shared atomics on 256 bins the bytes pick: each lane's atomic is its own operation in its
  // bank (the H200's rule, tests/hw/data/h200/shared_atomics), so a warp takes as many wavefronts
  // as its busiest bank has lanes: 7226 for 2048 ideal over the 2048 warps (the program's LCG
  // bytes, worked out apart from warpscope; the distinct-word rule gave 6461); the worst warp
  // (global warp 24) has 31 distinct bins, two lanes on one, 5 bins and 6 lanes in one bank:
  // warp aggregation leads, no padding. Its merge (one global atomic per bin and block) is already
  // privatised: no contention item.
  const auto shared = advice(j, "histogram_shared");
  ASSERT_EQ(rules(shared), S{"shared_atomic_conflict"}) << shared;
  const auto& s = shared[0]["evidence"];
  EXPECT_EQ(shared[0]["line"], line_of("if (i < n) atomicAdd(&local[data[i]], 1u);"));
  EXPECT_EQ(s["wavefronts"], 7226);
  EXPECT_EQ(s["ideal_wavefronts"], 2048);
  EXPECT_EQ(s["sample_distinct_words"], 31);
  EXPECT_EQ(s["sample_most_lanes_per_word"], 2);
  EXPECT_EQ(s["sample_most_words_per_bank"], 5);
  EXPECT_EQ(s["sample_most_lanes_per_bank"], 6);
  EXPECT_EQ(s["fix"], "warp_aggregation");
  EXPECT_TRUE(has(shared[0], "__match_any_sync")) << shared[0];
  EXPECT_FALSE(has(shared[0], "pad the row")) << shared[0];
}

TEST_F(AdvicePrograms, Particles) {
  const auto j = run("advice_patterns");
  // 12-byte P12, x, y, z on one line: 3 loads of 12 sectors per warp (384 bytes each), 36; one
  // 16-byte load of an __align__(16) struct: 16. 64 CTAs x 8 warps = 512 executions each.
  const auto p12 = advice(j, "particles12");
  ASSERT_EQ(rules(p12), S{"aos"}) << p12;
  const auto& e12 = p12[0]["evidence"];
  EXPECT_EQ(p12[0]["line"], line_of("if (i < n) out[i] = p[i].x * p[i].x"));
  EXPECT_EQ(p12[0]["pcs"].size(), 3u);
  EXPECT_EQ(e12["fix"], "align_vector");
  EXPECT_EQ(e12["struct_bytes"], 12);
  EXPECT_EQ(e12["fields"], 3);
  EXPECT_EQ(e12["sectors_per_warp"], 36.0);
  EXPECT_EQ(e12["sectors_per_warp_fixed"], 16.0);
  EXPECT_EQ(e12["sectors"], 3 * 12 * 512);
  EXPECT_EQ(e12["excessive_sectors"], 3 * 8 * 512);
  EXPECT_TRUE(has(p12[0], "__align__(16) (padding it to 16 bytes)")) << p12[0];
  // 16-byte P16, all four fields: 4 x 16 sectors, one float4: 16. 24 PTX instructions per warp,
  // 5 of them memory: 3.8 others per memory instruction, under 4:1: low_math_ratio first.
  const auto p16 = advice(j, "particles16");
  ASSERT_EQ(rules(p16), (S{"low_math_ratio", "aos"})) << p16;
  EXPECT_EQ(p16[1]["pcs"].size(), 4u);
  EXPECT_EQ(p16[1]["evidence"]["fix"], "align_vector");
  EXPECT_EQ(p16[1]["evidence"]["sectors_per_warp"], 64.0);
  EXPECT_TRUE(has(p16[1], "declare the structure __align__(16) and read it whole")) << p16[1];
  // 32-byte P32, eight fields: 8 x 32 sectors; a structure of arrays: 8 x 4. 33 instructions, 9
  // memory: 2.7 : 1.
  const auto p32 = advice(j, "particles32");
  ASSERT_EQ(rules(p32), (S{"low_math_ratio", "aos"})) << p32;
  EXPECT_EQ(p32[1]["pcs"].size(), 8u);
  EXPECT_EQ(p32[1]["evidence"]["fix"], "soa");
  EXPECT_EQ(p32[1]["evidence"]["sectors_per_warp"], 256.0);
  EXPECT_EQ(p32[1]["evidence"]["sectors_per_warp_fixed"], 32.0);
  EXPECT_TRUE(has(p32[1], "structure of arrays")) << p32[1];
}

TEST_F(AdvicePrograms, MatrixProductAndCopy) {
  const auto j = run("advice_patterns");
  // acc += As[ty][k] * Bs[k][tx], 16 k per tile: the PTX has two ld.shared per fma; ptxas merges
  // As[ty][k..k+3] (16 bytes of an aligned row) into one 16-byte load, which the model reads back
  // from the machine code (docs/analysis.md, "merged loads"): per tile 16 Bs loads of one
  // wavefront (16 words, each read by two lanes) and 4 As loads of two (16-byte lanes: two phases
  // of 16, each one row broadcast): 20 loads and 24 wavefronts per 16 FMAs, 1.25 and 1.5 per FMA;
  // 2 flops per FMA lane for 16 x 4 + 4 x 16 bytes per lane: 0.25 flops per byte. 8 x 8 CTAs x 8
  // warps x 8 tiles = 4096 executions of each. The tile loads staged through registers in the k
  // loop (with barriers) keep their cp.async items, after it.
  const auto mm = advice(j, "matrix_mul");
  ASSERT_EQ(rules(mm), (S{"shared_loads_per_fma", "synchronous_copy", "synchronous_copy"})) << mm;
  const auto& e = mm[0]["evidence"];
  EXPECT_EQ(mm[0]["line"], line_of("for (int k = 0; k < kMmTile; ++k) acc +="));
  EXPECT_EQ(e["fma_instructions"], 4096 * 16);
  EXPECT_EQ(e["shared_load_instructions"], 4096 * 20);
  EXPECT_EQ(e["shared_load_wavefronts"], 4096 * 24);
  EXPECT_EQ(e["shared_loads_per_fma"], 1.25);
  EXPECT_EQ(e["shared_wavefronts_per_fma"], 1.5);
  EXPECT_EQ(e["flops_per_shared_byte"], 0.25);
  EXPECT_TRUE(has(mm[0], "(the FMA pipe at most 17 % busy)")) << mm[0];
  EXPECT_TRUE(has(mm[0], "Tile in registers")) << mm[0];
  EXPECT_EQ(mm[1]["line"], line_of("As[ty][tx] = A[row * n + t + tx];"));
  EXPECT_EQ(mm[2]["line"], line_of("Bs[ty][tx] = B[(t + ty) * n + col];"));
  // The grid-stride copy: 78 PTX instructions per warp, 16 memory (3.9 : 1, its loop 3 : 1), but
  // nothing to compute: no advice at all.
  EXPECT_EQ(advice(j, "copy"), nlohmann::json::array());
}

TEST_F(AdvicePrograms, WithoutLineinfoTheFlagIsNamedOnce) {
  const auto j = run("advice_patterns_nolineinfo");
  // Every launch's advice starts with no_lineinfo, its other items name PTX lines.
  for (const auto& l : j["launches"]) {
    ASSERT_FALSE(l["advice"].empty()) << l["name"];
    EXPECT_EQ(l["advice"][0]["rule"], "no_lineinfo") << l["name"];
    for (const auto& a : l["advice"]) EXPECT_EQ(a["line"], 0) << a;
  }
  EXPECT_TRUE(has(advice(j, "copy")[0], "rebuild with nvcc -lineinfo"));
  // The summary says it once for the program.
  const std::string& text = result_.out + result_.err;
  const auto first = text.find("[no_lineinfo]");
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_EQ(text.find("[no_lineinfo]", first + 1), std::string::npos) << text;
  EXPECT_EQ(text.find("compiler-made"), std::string::npos) << text;
  EXPECT_NE(text.find("(no line: -lineinfo)"), std::string::npos) << text;
}

}  // namespace
