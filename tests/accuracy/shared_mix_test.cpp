// Shared-memory stores beside other warps' shared loads (tests/hw/shared_mix/shared_mix.cu)
// against the H100 (tests/hw/data/h100/shared_mix): each mode's store and load wavefronts, bank
// conflicts and instructions are what the addresses give, on the H100 (three runs each, equal)
// and in warpscope. The tensor-core GEMMs' extra store wavefronts (docs/accuracy.md, "Tensor
// cores") therefore do not come from concurrent LDS traffic.
#include <gtest/gtest.h>

#include "../hw/ncu_csv.hpp"
#include "../runtime/harness.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

const std::string kData = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/shared_mix/";
const char* const kMetrics[] = {
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum", "smsp__sass_inst_executed_op_shared_ld.sum"};

/// shared_mix.csv: "# run MODE K" then one launch of `ncu --csv --page raw`, per run.
std::map<std::string, std::vector<ncu_csv::Row>> h100_runs() {
  std::map<std::string, std::vector<ncu_csv::Row>> out;
  std::istringstream in(rt_test::slurp(kData + "shared_mix.csv"));
  std::string mode, block;
  auto flush = [&] {
    if (mode.empty()) return;
    const std::string tmp = ::testing::TempDir() + "/shared_mix_run.csv";
    std::ofstream(tmp) << block;
    for (auto& r : ncu_csv::launches(tmp)) out[mode].push_back(std::move(r));
  };
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("# run ", 0) == 0) {
      flush();
      mode = line.substr(6, line.rfind(' ') - 6);
      block.clear();
    } else {
      block += line + "\n";
    }
  }
  flush();
  return out;
}

TEST(SharedMix, StoresBesideLoadsCountAsTheirAddressesOnTheH100) {
  const auto runs = h100_runs();
  ASSERT_EQ(runs.size(), 4u);
  for (const auto& [mode, rows] : runs) {
    SCOPED_TRACE(mode);
    ASSERT_EQ(rows.size(), 3u);
    for (const char* k : kMetrics)  // the H100 agrees with itself: no timing in these counts
      for (const auto& r : rows) EXPECT_EQ(ncu_csv::number(r.at(k)), ncu_csv::number(rows[0].at(k))) << k;
    const std::string report = rt_test::prog("shared_mix") + "." + mode + ".json";
    std::remove(report.c_str());
    const auto res = rt_test::run_under_warpscope(rt_test::prog("shared_mix") + " " + mode + " 132 256", report, "WARPSCOPE_QUIET=1");
    ASSERT_EQ(res.exit_code, 0) << res.err;
    const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
    ASSERT_EQ(j["launches"].size(), 1u);
    const auto& m = j["launches"][0]["metrics"];
    for (const char* k : kMetrics) {
      ASSERT_TRUE(m.contains(k)) << k;
      EXPECT_EQ(m[k].get<double>(), ncu_csv::number(rows[0].at(k))) << k;
    }
  }
}

}  // namespace
