// Bulk copies and bulk reductions from a CTA's shared memory into a peer's (cp.async.bulk /
// cp.reduce.async.bulk .shared::cluster.shared::cta.mbarrier::complete_tx::bytes) under warpscope
// against the H100 (tests/hw/tma_more/dsmem_bulk.cu, tests/hw/data/h100/dsmem_bulk): the probe
// prints what the H100 printed (every destination word after copies of 16, 256 and 4096 bytes,
// a 64-byte copy 48 bytes into a line, and reductions .add.u32, .min.u32, .max.s32, .inc.u32,
// .dec.u32, .xor.b32, .add.u64), and each launch's TMA and distributed-shared-memory counters are
// Nsight Compute's.
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

const std::string kData = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/dsmem_bulk/";

const char* const kNames[] = {
    "smsp__inst_executed_op_tma_st.sum", "smsp__inst_executed_op_tma_ld.sum", "smsp__sass_inst_executed_op_tma.sum",
    "l1tex__tmain_requests.sum", "smsp__sass_inst_executed_op_dshared_tma_st.sum",
    "smsp__sass_inst_executed_op_dshared_tma_red.sum", "l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_tma_st.sum",
    "l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_st.sum", "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_tma_st.sum",
    "l1tex__m_xbar2l1tex_read_bytes_mem_dshared_op_tma_st.sum", "l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_tma_red.sum",
    "l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_tma_red.sum", "l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_tma_red.sum",
    "l1tex__m_xbar2l1tex_read_bytes_mem_dshared_op_tma_red.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"};

// The same counters through the command line as Nsight Compute prints them
// (`warpscope run --csv --metrics ...`): every value and unit string equal to the H100's export.
TEST(DsmemBulkAccuracy, TheCommandLinePrintsTheH100sCsv) {
  std::string list;
  for (const char* n : kNames) list += std::string(list.empty() ? "" : ",") + n;
  const std::string csv = rt_test::prog("dsmem_bulk") + ".cli.csv";
  const rt_test::Result r = rt_test::run_shell(std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope run --csv --metrics " + list +
                                               " -- " + rt_test::prog("dsmem_bulk"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string rows;  // the export's lines (the program's own output comes first)
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("\"")) rows += line + "\n";
  std::ofstream(csv) << rows;
  const auto got = ncu_csv::launches(csv), want = ncu_csv::launches(kData + "dsmem_ncu.csv");
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k)
    for (const char* n : kNames) EXPECT_EQ(got[k].at(n), want[k].at(n)) << "case " << k << " " << n;
}

TEST(DsmemBulkAccuracy, PeerCopiesAndReductionsAsOnTheH100) {
  const std::string exe = rt_test::prog("dsmem_bulk");
  const std::string report = exe + ".json";
  std::remove(report.c_str());
  const rt_test::Result r = rt_test::run_under_warpscope(exe, report, "WARPSCOPE_QUIET=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out + "rc 0\n", rt_test::slurp(kData + "dsmem_bulk.txt")) << r.err;
  const auto hw = ncu_csv::launches(kData + "dsmem_ncu.csv");
  ASSERT_EQ(hw.size(), 11u);
  const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
  ASSERT_EQ(j["launches"].size(), 11u);
  for (std::size_t k = 0; k < hw.size(); ++k) {
    SCOPED_TRACE("case " + std::to_string(k));
    const auto& m = j["launches"][k]["metrics"];
    for (const char* name : kNames) {
      ASSERT_TRUE(m.contains(name)) << name;
      EXPECT_EQ(m[name].get<double>(), ncu_csv::number(hw[k].at(name))) << name;
    }
  }
}

}  // namespace
