// The H100 probes of tests/hw/tensor run under warpscope (lib/warpscope/libcudart.so.13), their
// output and counters compared with what the H100 printed and what Nsight Compute counted
// (tests/hw/data/h100/tensor, captured by tests/hw/tensor/capture_tensor.sh).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
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
  return std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/tensor/" + name;
}
std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> v;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) v.push_back(l);
  return v;
}

/// Compares two texts line by line, reporting the first few differences.
void expect_same_lines(const std::vector<std::string>& got, const std::vector<std::string>& want, const char* what) {
  int diffs = 0;
  for (std::size_t i = 0; i < std::max(got.size(), want.size()) && diffs < 5; ++i) {
    const std::string g = i < got.size() ? got[i] : "<missing>";
    const std::string w = i < want.size() ? want[i] : "<missing>";
    if (g == w) continue;
    ++diffs;
    ADD_FAILURE() << what << " line " << i + 1 << ":\n  warpscope: " << g.substr(0, 300) << "\n  H100:      " << w.substr(0, 300);
  }
  EXPECT_EQ(got.size(), want.size()) << what;
}

TEST(WmmaFragments, EveryLaneHoldsWhatTheH100Holds) {
  const auto r = run_under_warpscope(prog("wmma_fragments"), "", "WARPSCOPE_QUIET=1");
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(0, 2000) << r.err;
  expect_same_lines(lines_of(r.out), lines_of(rt_test::slurp(data("wmma_fragments.txt"))), "wmma_fragments");
}

TEST(MmaNumerics, EveryConfigurationAsTheH100) {
  // All of them, .e4m3/.e5m2 (13-17) included: the whole output equals the H100's.
  const auto r = run_under_warpscope(prog("mma_numerics"), "", "WARPSCOPE_QUIET=1");
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(0, 2000) << r.err;
  expect_same_lines(lines_of(r.out), lines_of(rt_test::slurp(data("mma_numerics.txt"))), "mma_numerics");
}

/// The report of a program run under warpscope.
nlohmann::json report_of(const std::string& program, const std::string& tag, std::string* out = nullptr) {
  const std::string report = std::string(WARPSCOPE_TENSOR_PROGRAMS_DIR) + "/" + tag + ".json";
  const auto r = run_under_warpscope(program, report, "WARPSCOPE_QUIET=1");
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 2000) << r.err;
  if (out) *out = r.out;
  return nlohmann::json::parse(rt_test::slurp(report));
}

double metric(const nlohmann::json& launch, const std::string& name) {
  const auto& m = launch["metrics"];
  return m.contains(name) ? m[name].get<double>() : 0.0;
}

/// Per launch, each metric as Nsight Compute counted it, except the (launch, metric) pairs in
/// `known` (documented differences: docs/mem.md).
void expect_counters(const nlohmann::json& launches, const std::vector<ncu_csv::Row>& hw,
                     const std::vector<std::string>& metrics, const std::vector<std::string>& names,
                     const std::map<std::size_t, std::vector<std::string>>& known = {}) {
  ASSERT_EQ(launches.size(), hw.size());
  for (std::size_t i = 0; i < hw.size(); ++i)
    for (const std::string& m : metrics) {
      ASSERT_TRUE(hw[i].count(m)) << m;
      const auto k = known.find(i);
      if (k != known.end() && std::find(k->second.begin(), k->second.end(), m) != k->second.end()) continue;
      EXPECT_EQ(metric(launches[i], m), ncu_csv::number(hw[i].at(m)))
          << "launch " << i << " (" << (i < names.size() ? names[i] : launches[i]["name"].get<std::string>()) << "): " << m;
    }
}

/// "launch N: what" lines of a probe's output.
std::vector<std::string> launch_names(const std::string& out) {
  std::vector<std::string> v;
  for (const std::string& l : lines_of(out))
    if (l.rfind("launch ", 0) == 0) v.push_back(l.substr(l.find(':') + 2));
  return v;
}

const std::vector<std::string> kShared = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum",
    "sm__sass_inst_executed_op_ldsm.sum", "sm__sass_inst_executed_op_shared_stsm.sum"};
const std::vector<std::string> kGlobal = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_inst_executed_op_global_ld.sum", "smsp__sass_inst_executed_op_global_st.sum"};

TEST(LdmatrixStmatrix, WavefrontsAndConflictsOfEveryLayoutAsTheH100) {
  std::string out;
  const auto j = report_of(prog("ldsm_banks"), "ldsm_banks", &out);
  expect_counters(j["launches"], ncu_csv::launches(data("ldsm_banks.csv")), kShared, launch_names(out));
}

TEST(WmmaTraffic, RequestsSectorsAndWavefrontsOfEachLoadAndStoreAsTheH100) {
  std::string out;
  const auto j = report_of(prog("wmma_traffic"), "wmma_traffic", &out);
  std::vector<std::string> m = kShared;
  m.insert(m.end(), kGlobal.begin(), kGlobal.end());
  expect_counters(j["launches"], ncu_csv::launches(data("wmma_traffic.csv")), m, launch_names(out));
}

TEST(TensorExtra, MoreFragmentTrafficStmatrixCollisionsAndF16TiesAsTheH100) {
  std::string out;
  const auto j = report_of(prog("tensor_extra"), "tensor_extra", &out);
  std::vector<std::string> m = kShared;
  m.insert(m.end(), kGlobal.begin(), kGlobal.end());
  // 8-byte shared loads whose lanes cover their bytes out of lane order (column-major .f64
  // fragments, lane l at 64*(l%4) + 8*(l/4)): each half-warp is served alone, 4 and 8 wavefronts
  // per LDS.64, since no group of 4 lanes pairs (docs/mem.md; issue 34 item 0's H200 rule).
  const auto hw = ncu_csv::launches(data("tensor_extra.csv"));
  const std::vector<std::string> names = launch_names(out);
  const std::map<std::size_t, std::vector<std::string>> known;
  expect_counters(j["launches"], hw, m, names, known);
  expect_same_lines(lines_of(out), lines_of(rt_test::slurp(data("tensor_extra.txt"))), "tensor_extra");
}

TEST(TensorGemm, TheTeamsGemmsPassAndCountAsTheH100) {
  std::string out;
  const auto j = report_of(prog("tensor_gemm"), "tensor_gemm", &out);
  EXPECT_EQ(lines_of(out), lines_of(rt_test::slurp(data("tensor_gemm.txt"))));
  std::vector<std::string> m = kShared;
  m.insert(m.end(), kGlobal.begin(), kGlobal.end());
  expect_counters(j["launches"], ncu_csv::launches(data("tensor_gemm_ncu.csv")), m, {});
}

}  // namespace
