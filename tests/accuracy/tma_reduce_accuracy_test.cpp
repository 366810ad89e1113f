// cp.reduce.async.bulk and cp.reduce.async.bulk.tensor under warpscope against the H100
// (tests/hw/tma_more/reduce_probe.cu, tests/hw/data/h100/tma_more):
//   - `reduce_probe bulk`: the 27 .redOp/.type pairs the PTX ISA lists for the shared::cta ->
//     global form, each on operands that pair every float class (normal, subnormal, +-0, +-inf,
//     NaN, ...) or the integer limits: warpscope prints exactly the bytes the H100 printed;
//   - `reduce_probe tensor N`: 2-D tile-mode reductions (in bounds, partly out of bounds, 128B
//     swizzle, each reduction and tensor-map type): the same bytes, and for the three cases the
//     H100 stopped with cudaErrorIllegalInstruction (715) a refusal naming the reason;
//   - the counters Nsight Compute gave for four bulk reductions and five tensor reductions.
#include <gtest/gtest.h>

#include "../hw/ncu_csv.hpp"
#include "../runtime/harness.hpp"

#include <cstdio>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

const std::string kData = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/tma_more/";

/// probe.txt's bulk section (up to the first tensor case) and each tensor case's lines (its
/// `tensor N ...` lines and dump, without the capture script's `rc` line).
struct Capture {
  std::string bulk;
  std::map<int, std::string> tensor;
};

Capture h100() {
  std::istringstream in(rt_test::slurp(kData + "probe.txt"));
  Capture c;
  int cur = -1;
  for (std::string line; std::getline(in, line);) {
    int id = 0;
    if (std::sscanf(line.c_str(), "tensor %d", &id) == 1) cur = id;
    if (line.starts_with("rc ")) continue;
    (cur < 0 ? c.bulk : c.tensor[cur]) += line + "\n";
  }
  return c;
}

std::map<std::string, ncu_csv::Row> ncu_rows() {
  std::map<std::string, ncu_csv::Row> out;
  for (const auto& r : ncu_csv::launches(kData + "ncu_reduce.csv")) out[r.at("ID")] = r;
  return out;
}

const char* const kMetrics[] = {
    "smsp__inst_executed_op_tma_st.sum", "smsp__sass_inst_executed_op_tma_red.sum", "l1tex__tmain_requests.sum",
    "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum",
    "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum", "lts__t_sectors_srcunit_tex_op_red.sum",
    "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum", "lts__t_sectors_srcunit_tex_op_write.sum"};

void expect_counters(const nlohmann::json& m, const ncu_csv::Row& hw) {
  for (const char* k : kMetrics) {
    ASSERT_TRUE(m.contains(k)) << k;
    EXPECT_EQ(m[k].get<double>(), ncu_csv::number(hw.at(k))) << k;
  }
}

TEST(TmaReduceAccuracy, EveryBulkReductionGivesTheH100sBytesAndCounters) {
  const Capture want = h100();
  const std::string exe = rt_test::prog("reduce_probe");
  const rt_test::Result r = rt_test::run_under_warpscope(exe + " bulk", exe + ".bulk.json", "WARPSCOPE_QUIET=1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, want.bulk) << r.err;

  const std::string report = exe + ".ncu.json";
  std::remove(report.c_str());
  const rt_test::Result n = rt_test::run_under_warpscope(exe + " ncu", report, "WARPSCOPE_QUIET=1");
  ASSERT_EQ(n.exit_code, 0) << n.err;
  const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
  ASSERT_EQ(j["launches"].size(), 4u);
  const auto hw = ncu_rows();
  for (unsigned k = 0; k < 4; ++k) {
    SCOPED_TRACE("bulk launch " + std::to_string(k));
    expect_counters(j["launches"][k]["metrics"], hw.at("bulk" + std::to_string(k)));
  }
}

TEST(TmaReduceAccuracy, EveryTensorReductionAgainstTheH100) {
  const Capture want = h100();
  ASSERT_EQ(want.tensor.size(), 22u);
  const auto hw = ncu_rows();
  const std::string exe = rt_test::prog("reduce_probe");
  for (const auto& [id, text] : want.tensor) {
    SCOPED_TRACE("tensor case " + std::to_string(id));
    const std::string report = exe + ".t" + std::to_string(id) + ".json";
    std::remove(report.c_str());
    const rt_test::Result r =
        rt_test::run_under_warpscope(exe + " tensor " + std::to_string(id), report, "WARPSCOPE_QUIET=1");
    if (text.find(" run 715") != std::string::npos) {
      // The H100 stopped with an illegal instruction: warpscope refuses the reduction, naming why.
      EXPECT_EQ(r.out.substr(0, r.out.find('\n') + 1), text.substr(0, text.find('\n') + 1));
      EXPECT_NE(r.out.find("tensor " + std::to_string(id) + " run 719\n"), std::string::npos) << r.out;
      EXPECT_NE(r.err.find(id == 3 ? "negative coordinate" : "a pair the PTX ISA does not list"), std::string::npos) << r.err;
      continue;
    }
    ASSERT_EQ(r.out, text) << r.err;
    const std::string key = "tensor" + std::to_string(id);
    if (!hw.count(key)) continue;
    const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
    ASSERT_EQ(j["launches"].size(), 1u);
    expect_counters(j["launches"][0]["metrics"], hw.at(key));
  }
}

// The team's reduction kernels (tests/hw/tma_more/reduce_sum.cu: libcu++'s cuda::ptx forms, 96
// and 16 blocks reducing into the same memory) against their CPU reference, on one host thread
// and on four (the elements' compare-and-swap path). Counters from the rules above: per
// bulk_sums block 3 UBLKRED of 1024, 512 and 1024 aligned bytes = 8 + 4 + 8 pieces of 4 sectors;
// per tensor_sums block one UTMAREDG of 32 rows of 128 aligned bytes = 128 sectors.
TEST(TmaReduceAccuracy, TeamKernelsMatchTheirCpuReference) {
  const std::string exe = rt_test::prog("reduce_sum");
  for (const char* threads : {"1", "4"}) {
    SCOPED_TRACE(std::string("threads ") + threads);
    const std::string report = exe + "." + threads + ".json";
    std::remove(report.c_str());
    const rt_test::Result r =
        rt_test::run_under_warpscope(exe, report, std::string("WARPSCOPE_QUIET=1 WARPSCOPE_THREADS=") + threads);
    EXPECT_EQ(r.out, "bulk_sums ok (0 wrong, cudaSuccess)\ntensor_sums ok (0 wrong, encode 0, cudaSuccess)\n") << r.err;
    const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
    ASSERT_EQ(j["launches"].size(), 2u);
    const auto& b = j["launches"][0]["metrics"];
    EXPECT_EQ(b["smsp__sass_inst_executed_op_tma_red.sum"].get<double>(), 96.0 * 3);
    EXPECT_EQ(b["l1tex__tmain_requests.sum"].get<double>(), 96.0 * 3 * 2);
    EXPECT_EQ(b["l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum"].get<double>(), 96.0 * 80);
    EXPECT_EQ(b["lts__t_sectors_srcunit_tex_op_red.sum"].get<double>(), 96.0 * 80);
    const auto& t = j["launches"][1]["metrics"];
    EXPECT_EQ(t["smsp__inst_executed_op_tma_st.sum"].get<double>(), 16.0);
    EXPECT_EQ(t["l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum"].get<double>(), 16.0 * 128);
  }
}

}  // namespace
