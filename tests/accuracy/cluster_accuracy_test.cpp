// Thread-block clusters against an H100 (tests/hw/cluster_probe.cu, captured by
// tests/hw/capture_cluster.sh into tests/hw/data/h100/cluster): the probe runs under warpscope's
// libcudart.so.13; its mapa results and DSMEM kernels' values must be the H100's, and every
// launch's distributed-shared-memory counters must equal Nsight Compute's.
#include <gtest/gtest.h>

#include "../hw/ncu_csv.hpp"
#include "../runtime/harness.hpp"

#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// The probe's lines that do not depend on where a process's shared window lies or on how
// shared::cluster addresses are tagged (docs/exec.md, "Clusters": warpscope tags rank r with r + 1
// and starts shared memory at 0, the H100 at 0x400): the remote load (word 15) and every DSMEM
// kernel's values.
bool comparable(const std::string& l) {
  if (l.rfind("k", 0) == 0) return true;
  if (l.rfind("a,", 0) != 0) return false;
  const std::size_t second = l.find(',', 2);
  const int word = std::stoi(l.substr(second + 1));
  return word == 15;
}

double value(const nlohmann::json& m, const std::string& k) { return m.contains(k) ? m[k].get<double>() : 0.0; }

TEST(ClusterAccuracy, EveryLaunchAgainstTheH100) {
  const std::string exe = rt_test::prog("cluster_probe");
  const std::string report = exe + ".json";
  std::remove(report.c_str());
  const rt_test::Result r = rt_test::run_under_warpscope(exe, report, "WARPSCOPE_QUIET=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string dir = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/cluster/";
  std::vector<std::string> want, got;
  for (const std::string& l : lines_of(rt_test::slurp(dir + "run.txt")))
    if (comparable(l)) want.push_back(l);
  for (const std::string& l : lines_of(r.out))
    if (comparable(l)) got.push_back(l);
  ASSERT_EQ(want.size(), 4u + 11u);
  EXPECT_EQ(got, want) << r.err;

  const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
  const auto hw = ncu_csv::launches(dir + "ncu.csv");
  ASSERT_EQ(hw.size(), 12u);
  ASSERT_EQ(j["launches"].size(), hw.size());
  for (unsigned i = 0; i < hw.size(); ++i) {
    const auto& ours = j["launches"][i]["metrics"];
    const std::string where = "launch " + std::to_string(i) + " " + j["launches"][i]["kernel"].get<std::string>();
    for (const char* op : {"ld", "st", "atom"}) {
      const std::string o = op;
      for (const std::string& k :
           {"smsp__sass_inst_executed_op_dshared_" + o + ".sum", "l1tex__t_requests_pipe_lsu_mem_dshared_op_" + o + ".sum",
            "l1tex__t_sectors_pipe_lsu_mem_dshared_op_" + o + ".sum",
            "l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_" + o + ".sum",
            "l1tex__m_xbar2l1tex_read_bytes_mem_dshared_op_" + o + ".sum",
            "l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_" + o + ".sum"}) {
        ASSERT_TRUE(hw[i].count(k)) << k;
        EXPECT_EQ(value(ours, k), ncu_csv::number(hw[i].at(k))) << where << " " << k;
      }
    }
    // Reductions count as atomics on the H100.
    EXPECT_EQ(ncu_csv::number(hw[i].at("smsp__sass_inst_executed_op_dshared_redas.sum")), 0) << where;
  }
}

}  // namespace
