// The wgmma probe and GEMM of tests/hw/wgmma run under warpscope (lib/warpscope/libcudart.so.13),
// their output compared with what the H100 printed (tests/hw/data/h100/wgmma, captured by
// tests/hw/wgmma/capture_wgmma.sh).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../hw/ncu_csv.hpp"
#include "../runtime/harness.hpp"

namespace {

using rt_test::run_under_warpscope;

std::string prog(const std::string& name) { return std::string(WARPSCOPE_TENSOR_PROGRAMS_DIR) + "/" + name; }
std::string data(const std::string& name) {
  return std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/wgmma/" + name;
}
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}
std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> v;
  std::istringstream in(line);
  for (std::string w; in >> w;) v.push_back(w);
  return v;
}

// Every element of every test of every configuration: the descriptor layouts (K- and MN-major,
// no swizzle and 32/64/128-byte swizzles, start addresses inside swizzle atoms), A from registers,
// .f16/.bf16/.tf32/.s8/.u8/.b1, scale-d and imm-scale, and the self-checks (including the alt
// layouts the H100 reads differently). One element differs: configuration 68 (.tf32, A from
// registers), test 10 (tiny values), row 62 column 4: warpscope 0x80a34850, the H100 0x80a34851,
// a subnormal result one unit apart; the rule for it is not known (docs/exec.md).
TEST(WgmmaProbe, EveryElementAsTheH100) {
  const auto r = run_under_warpscope(prog("wgmma_probe"), "", "WARPSCOPE_QUIET=1");
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(0, 2000) << r.err;
  const auto got = lines_of(r.out), want = lines_of(rt_test::run_shell("gzip -dc " + data("wgmma_probe.txt.gz")).out);
  ASSERT_EQ(got.size(), want.size());
  int diffs = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    const auto g = words_of(got[i]), w = words_of(want[i]);
    ASSERT_EQ(g.size(), w.size()) << got[i].substr(0, 200);
    for (std::size_t j = 0; j < g.size(); ++j) {
      if (g[j] == w[j]) continue;
      const bool known = want[i].rfind("D 68 10:", 0) == 0 && j == 3 + 62 * 16 + 4 && g[j] == "80a34850" && w[j] == "80a34851";
      if (!known && ++diffs <= 5) ADD_FAILURE() << "line " << i + 1 << " word " << j << ": warpscope " << g[j] << ", H100 " << w[j];
    }
  }
  EXPECT_EQ(diffs, 0);
}

// `wgmma_probe fp8`: the .e4m3/.e5m2 configurations 82-87 (f32 and f16 accumulators, A from
// shared memory and from registers, no/32/64/128-byte swizzle, imm-scale-a -1 with scale-d
// false), every element and the self-check lines, with no exception (wgmma_fp8.hpp's rule).
TEST(WgmmaProbe, Fp8EveryElementAsTheH100) {
  const auto r = run_under_warpscope(prog("wgmma_probe") + " fp8", "", "WARPSCOPE_QUIET=1");
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(0, 2000) << r.err;
  const auto got = lines_of(r.out), want = lines_of(rt_test::run_shell("gzip -dc " + data("wgmma_fp8.txt.gz")).out);
  ASSERT_EQ(got.size(), want.size());
  ASSERT_EQ(want.size(), 24u + 24 + 24 + 12 + 24 + 12 + 6 + 1);  // D lines, check lines, done
  int diffs = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (got[i] == want[i]) continue;
    const auto g = words_of(got[i]), w = words_of(want[i]);
    ASSERT_EQ(g.size(), w.size()) << got[i].substr(0, 200);
    for (std::size_t j = 0; j < g.size(); ++j)
      if (g[j] != w[j] && ++diffs <= 5)
        ADD_FAILURE() << "line " << i + 1 << " (" << want[i].substr(0, 10) << ") word " << j << ": warpscope " << g[j]
                      << ", H100 " << w[j];
  }
  EXPECT_EQ(diffs, 0);
}

TEST(WgmmaGemm, MatchesTheCpuReferenceAsOnTheH100) {
  const auto r = run_under_warpscope(prog("wgmma_gemm"), "", "WARPSCOPE_QUIET=1");
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(0, 2000) << r.err;
  EXPECT_EQ(r.out, rt_test::slurp(data("wgmma_gemm.txt")));
}

/// The JSON report of a program run under warpscope.
nlohmann::json report_of(const std::string& command, const std::string& tag) {
  const std::string report = std::string(WARPSCOPE_TENSOR_PROGRAMS_DIR) + "/" + tag + ".json";
  const auto r = run_under_warpscope(command, report, "WARPSCOPE_QUIET=1");
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 2000) << r.err;
  return nlohmann::json::parse(rt_test::slurp(report));
}

double metric(const nlohmann::json& launch, const std::string& name) {
  const auto& m = launch["metrics"];
  return m.contains(name) ? m[name].get<double>() : -1.0;
}

// Every ncu family for wgmma's shared-memory reads (tests/hw/data/h100/metrics_query.txt.gz).
const std::vector<std::string> kGmma = {
    "sm__sass_inst_executed_op_shared_gmma.sum",         "sm__inst_executed_pipe_tensor_op_gmma.sum",
    "l1tex__lsuin_requests_op_gmma.sum",                 "sm__sass_data_bytes_mem_shared_op_gmma.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum",
    // The shared loads stay apart from the wgmma reads, as on the H100.
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"};

void expect_counters(const nlohmann::json& launches, const std::vector<ncu_csv::Row>& hw,
                     const std::vector<std::string>& metrics) {
  ASSERT_EQ(launches.size(), hw.size());
  for (std::size_t i = 0; i < hw.size(); ++i)
    for (const std::string& m : metrics) {
      ASSERT_TRUE(hw[i].count(m)) << m;
      EXPECT_EQ(metric(launches[i], m), ncu_csv::number(hw[i].at(m)))
          << "launch " << i << " (" << launches[i]["name"].get<std::string>() << "): " << m;
    }
}

// One launch per configuration (one wgmma per warpgroup): 4 warp instructions, the operand bytes
// read through descriptors (A 64 x K unless from registers, B N x K) and bytes / 128 wavefronts,
// no conflict, for every layout of the probe (K- and MN-major, each swizzle, start addresses
// inside atoms), as ncu counted them (wgmma_traffic.csv).
TEST(WgmmaTraffic, OperandReadsOfEveryConfigurationAsTheH100) {
  const auto j = report_of(prog("wgmma_probe") + " traffic", "wgmma_traffic");
  expect_counters(j["launches"], ncu_csv::launches(data("wgmma_traffic.csv")), kGmma);
}

// The GEMM: 256 wgmma warp instructions, 262,144 bytes, 2,048 wavefronts, and its cp.async
// (LDGSTS.BYPASS) as ncu counted them (wgmma_gemm_ncu.csv); per source line, the wgmma lines'
// figures add up to the launch's.
TEST(WgmmaTraffic, GemmAsTheH100AndPerLine) {
  const auto j = report_of(prog("wgmma_gemm"), "wgmma_gemm");
  std::vector<std::string> m = kGmma;
  for (const char* n : {"smsp__sass_inst_executed_op_ldgsts.sum",
                        "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum",
                        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum",
                        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum"})
    m.push_back(n);
  expect_counters(j["launches"], ncu_csv::launches(data("wgmma_gemm_ncu.csv")), m);
  ASSERT_EQ(j["launches"].size(), 1u);
  std::uint64_t inst = 0, bytes = 0, wf = 0;
  unsigned gmma_rows = 0;
  for (const auto& line : j["launches"][0]["lines"]) {
    if (!line.contains("gmma_instructions")) continue;
    inst += line["gmma_instructions"].get<std::uint64_t>();
    bytes += line["gmma_shared_bytes"].get<std::uint64_t>();
    wf += line["gmma_wavefronts"].get<std::uint64_t>();
    for (const auto& in : line["instructions"])
      if (in["op"] == "gmma") ++gmma_rows;
  }
  EXPECT_EQ(inst, 256u);
  EXPECT_EQ(bytes, 262144u);
  EXPECT_EQ(wf, 2048u);
  EXPECT_GE(gmma_rows, 1u);
}

}  // namespace
