// TMA .im2col_no_offs stores and reductions (issue 18) against the H100
// (tests/hw/tma_im2col/im2col_store.cu, tests/hw/data/h100/tma_im2col/store_*): every case the H100
// ran prints the global tensor the H100 printed, with the TMA counters Nsight Compute counted; the
// maps the H100 stops on (a lower pixel-box corner of -1: illegal instruction; a start past the
// pixel box: illegal instruction) stop here with an error, and the swizzled map it stopped on with
// an illegal address is refused.
#include <gtest/gtest.h>

#include "../hw/ncu_csv.hpp"
#include "../runtime/harness.hpp"

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

const std::string kData = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/tma_im2col/";

TEST(TmaIm2colStore, StoresAndReductionsAsOnTheH100) {
  // store_probe.txt per (case, variant), without the `exit N` lines.
  std::map<std::pair<int, int>, std::string> want;
  {
    std::istringstream in(rt_test::slurp(kData + "store_probe.txt"));
    std::pair<int, int> cur{-1, -1};
    for (std::string line; std::getline(in, line);) {
      int k = 0, v = 0;
      if (std::sscanf(line.c_str(), "im2col store case %d variant %d", &k, &v) == 2) cur = {k, v};
      if (cur.first >= 0 && !line.starts_with("exit ")) want[cur] += line + "\n";
    }
  }
  ASSERT_EQ(want.size(), 17u);
  std::map<int, ncu_csv::Row> hw;
  {
    std::istringstream in(rt_test::slurp(kData + "store_ncu.csv"));
    std::map<int, std::string> block;
    int cur = -1;
    for (std::string line; std::getline(in, line);) {
      if (std::sscanf(line.c_str(), "== case %d", &cur) == 1) continue;
      block[cur] += line + "\n";
    }
    for (const auto& [k, text] : block) {
      const std::string tmp = rt_test::prog("im2col_store") + ".ncu" + std::to_string(k) + ".csv";
      std::ofstream(tmp) << text;
      const auto rows = ncu_csv::launches(tmp);
      ASSERT_EQ(rows.size(), 1u);
      hw[k] = rows[0];
    }
  }
  ASSERT_EQ(hw.size(), 5u);
  const std::string exe = rt_test::prog("im2col_store");
  for (const auto& [key, text] : want) {
    const auto [k, v] = key;
    SCOPED_TRACE("case " + std::to_string(k) + " variant " + std::to_string(v));
    const std::string report = exe + "." + std::to_string(k) + "." + std::to_string(v) + ".json";
    std::remove(report.c_str());
    const rt_test::Result r =
        rt_test::run_under_warpscope(exe + " " + std::to_string(k) + " " + std::to_string(v), report, "WARPSCOPE_QUIET=1");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const bool h100_stops = text.find(" run 715") != std::string::npos || text.find(" run 700") != std::string::npos;
    if (h100_stops) {
      // The tensor is the untouched initial one on both; the launch fails here with the reason.
      const std::string head = text.substr(0, text.find(" run "));
      EXPECT_EQ(r.out.substr(0, r.out.find(" run ")), head);
      EXPECT_EQ(r.out.substr(r.out.find('\n')), text.substr(text.find('\n')));
      if (v == 2) {
        EXPECT_NE(r.err.find("a swizzled .im2col_no_offs tensor store"), std::string::npos) << r.err;
      } else {
        EXPECT_NE(r.out.find(" run 719"), std::string::npos) << r.out;
        EXPECT_NE(r.err.find("the H100 stops with an illegal instruction"), std::string::npos) << r.err;
      }
      continue;
    }
    ASSERT_EQ(r.out, text) << r.err;
    if (v != 0) continue;
    const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
    ASSERT_EQ(j["launches"].size(), 1u);
    const auto& m = j["launches"][0]["metrics"];
    for (const char* name :
         {"smsp__inst_executed_op_tma_st.sum", "smsp__sass_inst_executed_op_tma.sum", "smsp__sass_inst_executed_op_tma_red.sum",
          "l1tex__tmain_requests.sum", "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum",
          "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum", "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum",
          "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
          "lts__t_sectors_srcunit_tex_op_red.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}) {
      ASSERT_TRUE(m.contains(name)) << name;
      EXPECT_EQ(m[name].get<double>(), ncu_csv::number(hw[k].at(name))) << name;
    }
  }
}

}  // namespace
