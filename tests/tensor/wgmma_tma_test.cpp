// The wgmma GEMM with TMA loads and the TMA bank-conflict program (tests/hw/wgmma_tma) run under
// warpscope, their output and counters compared with what the H100 printed and Nsight Compute
// counted (tests/hw/data/h100/wgmma_tma, captured by tests/hw/wgmma_tma/capture_wgmma_tma.sh).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../hw/ncu_csv.hpp"
#include "../runtime/harness.hpp"

namespace {

using rt_test::run_under_warpscope;

std::string prog(const std::string& name) { return std::string(WARPSCOPE_TENSOR_PROGRAMS_DIR) + "/" + name; }
std::string data(const std::string& name) {
  return std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/wgmma_tma/" + name;
}

/// The JSON report of a program run under warpscope; its output must be the H100's.
nlohmann::json report_of(const std::string& name) {
  const std::string report = prog(name) + ".json";
  const auto r = run_under_warpscope(prog(name), report, "WARPSCOPE_QUIET=1");
  EXPECT_EQ(r.exit_code, 0) << r.out.substr(0, 2000) << r.err;
  EXPECT_EQ(r.err.find("no ptxas resource usage"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, rt_test::slurp(data(name + ".txt")));
  return nlohmann::json::parse(rt_test::slurp(report));
}

/// Every metric of `exact` equal to ncu's, launch by launch.
void expect_exact(const nlohmann::json& launches, const std::vector<ncu_csv::Row>& hw, const std::vector<std::string>& exact) {
  ASSERT_EQ(launches.size(), hw.size());
  for (std::size_t i = 0; i < hw.size(); ++i)
    for (const std::string& m : exact) {
      ASSERT_TRUE(hw[i].count(m)) << m;
      ASSERT_TRUE(launches[i]["metrics"].contains(m)) << m;
      EXPECT_EQ(launches[i]["metrics"][m].get<double>(), ncu_csv::number(hw[i].at(m))) << "launch " << i << ": " << m;
    }
}

// The address-level counters the model claims exact (docs/report.md): the TMA's instructions,
// requests and box sectors/bytes, the wgmma operand reads, the shared loads and the plain
// global stores of C.
const std::vector<std::string> kTmaExact = {
    "smsp__inst_executed_op_tma_ld.sum",
    "smsp__inst_executed_op_tma_st.sum",
    "smsp__sass_inst_executed_op_tma.sum",
    "l1tex__tmain_requests.sum",
    "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum",
    "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum"};
const std::vector<std::string> kGmmaExact = {
    "sm__sass_inst_executed_op_shared_gmma.sum",         "sm__inst_executed_pipe_tensor_op_gmma.sum",
    "l1tex__lsuin_requests_op_gmma.sum",                 "sm__sass_data_bytes_mem_shared_op_gmma.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum",
    "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum"};

// 128 x 128 x 256 f16 GEMM, 4 CTAs x 4 slabs x 2 boxes of 64 rows x 128 bytes: 32 UTMALDG, 32
// TMA requests, 32 x 64 x 4 = 8192 sectors (262144 bytes); 256 wgmma warp instructions reading
// 262144 bytes in 2048 conflict-free wavefronts (the 128-byte swizzle the TMA wrote is the one
// the descriptors read); C: 512 requests of 8 sectors.
//
// Documented differences (estimated counters, docs/accuracy.md): the H100 counted 4096 L2 read
// sectors from the TMA, 0 of them hits, where warpscope counts 8192 (every box row of every CTA
// looked up in L2, the second CTA's copy of an A or B tile a hit): each tile is read by two CTAs
// at about the same moment, and the H100 counted only the distinct sectors of A and B (4096) and
// no hit: the second CTA's reads did not reach lts__t as lookups (merged on the way, presumably;
// not measured further). DRAM bytes and smsp__inst_executed (the mbarrier wait loop's trip count
// is timing) are estimates.
TEST(WgmmaTma, GemmMatchesTheCpuReferenceAndTheH100Counters) {
  const auto j = report_of("wgmma_tma_gemm");
  const auto hw = ncu_csv::launches(data("wgmma_tma_gemm_ncu.csv"));
  std::vector<std::string> exact = kTmaExact;
  exact.insert(exact.end(), kGmmaExact.begin(), kGmmaExact.end());
  expect_exact(j["launches"], hw, exact);
  ASSERT_EQ(j["launches"].size(), 1u);
  const auto& m = j["launches"][0]["metrics"];
  EXPECT_EQ(m["l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum"].get<double>(), 8192.0);
  EXPECT_EQ(m["sm__sass_data_bytes_mem_shared_op_gmma.sum"].get<double>(), 262144.0);
  // ptxas assembles the sm_90a PTX (docs/runtime.md): the H100's registers and register limit.
  for (const char* k : {"launch__registers_per_thread", "launch__occupancy_limit_registers"})
    EXPECT_EQ(m[k].get<double>(), ncu_csv::number(hw[0].at(k))) << k;
  // The documented L2 difference: every box row looked up, half of them hits.
  EXPECT_EQ(ncu_csv::number(hw[0].at("lts__t_sectors_srcunit_tex_op_read.sum")), 4096.0);
  EXPECT_EQ(m["lts__t_sectors_srcunit_tex_op_read.sum"].get<double>(), 8192.0);
  EXPECT_EQ(m["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"].get<double>(), 4096.0);
}

// One TMA load of a 32 x 32 float tile per CTA (8 CTAs), read back by 16-byte columns: without
// swizzle the 8 rows of a quarter-warp phase share 4 banks, 8 wavefronts a phase: 64 LDS.128 x 32
// = 2048 wavefronts, 1792 of them conflicts; with the 128-byte swizzle 64 x 4 = 256 and none.
// Every address-level counter as the H100's, L2 reads included (no tile is read twice).
TEST(WgmmaTma, TmaTileBanksWithAndWithoutSwizzleAsTheH100) {
  const auto j = report_of("tma_banks");
  const auto hw = ncu_csv::launches(data("tma_banks_ncu.csv"));
  std::vector<std::string> exact = kTmaExact;
  exact.push_back("lts__t_sectors_srcunit_tex_op_read.sum");
  expect_exact(j["launches"], hw, exact);
  ASSERT_EQ(j["launches"].size(), 2u);
  EXPECT_EQ(j["launches"][0]["metrics"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"].get<double>(), 1792.0);
  EXPECT_EQ(j["launches"][1]["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"].get<double>(), 256.0);
}

/// The instructions of a launch that have a "tma_box", in line order.
std::vector<nlohmann::json> tma_boxes(const nlohmann::json& launch) {
  std::vector<nlohmann::json> out;
  for (const auto& line : launch["lines"])
    for (const auto& in : line["instructions"])
      if (in.contains("tma_box")) out.push_back(in);
  return out;
}

std::vector<nlohmann::json> advice_of(const nlohmann::json& launch, const std::string& rule) {
  std::vector<nlohmann::json> out;
  for (const auto& a : launch["advice"])
    if (a["rule"] == rule) out.push_back(a);
  return out;
}

// The JSON's first box of each tensor load (docs/report.md "tma_box"): CTA 0's. nvcc unrolls the
// slab loop: 8 loads (4 slabs x A, Bt), each 64 rows of 128 bytes (64 f16 of K), a row of A or Bt (K = 256 f16 = 512 bytes)
// apart in global memory and 128 bytes apart in shared memory, with the 128-byte swizzle; the
// bank picture's column reads are conflict-free there (no tma_swizzle advice).
TEST(WgmmaTma, GemmBoxesInTheReport) {
  const auto j = report_of("wgmma_tma_gemm");
  ASSERT_EQ(j["launches"].size(), 1u);
  const auto boxes = tma_boxes(j["launches"][0]);
  ASSERT_EQ(boxes.size(), 8u);
  for (const auto& in : boxes) {
    const auto& b = in["tma_box"];
    EXPECT_EQ(b["cta"], 0);
    EXPECT_EQ(b["swizzle_bytes"], 128);
    EXPECT_EQ(b["truncated"], false);
    ASSERT_EQ(b["rows"].size(), 64u);
    const std::uint64_t g0 = b["rows"][0][0], s0 = b["rows"][0][2];
    EXPECT_EQ(s0 % 1024, 0u);
    for (std::size_t r = 0; r < 64; ++r) {
      EXPECT_EQ(b["rows"][r][0].get<std::uint64_t>(), g0 + r * 512) << r;
      EXPECT_EQ(b["rows"][r][1].get<std::uint64_t>(), 128u) << r;
      EXPECT_EQ(b["rows"][r][2].get<std::uint64_t>(), s0 + r * 128) << r;
    }
  }
  EXPECT_TRUE(advice_of(j["launches"][0], "tma_swizzle").empty());
}

// The unswizzled tile read by 16-byte columns: a tma_swizzle item on the read (tma_banks.cu:39)
// naming the tensor copy (line 30) and the H100's figures (2048 wavefronts where 256 would do),
// instead of the generic bank_conflict item; the swizzled launch has neither. The text report
// lists it too.
TEST(WgmmaTma, UnswizzledTmaTileAdvisesTheSwizzle) {
  const auto j = report_of("tma_banks");
  ASSERT_EQ(j["launches"].size(), 2u);
  const auto& none = j["launches"][0];
  const auto boxes = tma_boxes(none);
  ASSERT_EQ(boxes.size(), 1u);
  EXPECT_EQ(boxes[0]["tma_box"]["swizzle_bytes"], 0);
  EXPECT_EQ(boxes[0]["tma_box"]["rows"].size(), 32u);
  const auto items = advice_of(none, "tma_swizzle");
  ASSERT_EQ(items.size(), 1u);
  const auto& a = items[0];
  EXPECT_EQ(a["line"], 39);
  const auto& ev = a["evidence"];
  EXPECT_EQ(ev["wavefronts"], 2048);
  EXPECT_EQ(ev["ideal_wavefronts"], 256);
  EXPECT_EQ(ev["excess_wavefronts"], 1792);
  EXPECT_EQ(ev["tma_line"], 30);  // the asm statement's operand line
  EXPECT_EQ(ev["box_rows"], 32);
  EXPECT_EQ(ev["box_row_bytes"], 128);
  EXPECT_EQ(ev["row_pitch_bytes"], 128);
  EXPECT_EQ(ev["suggested_swizzle_bytes"], 128);
  const std::string msg = a["message"];
  EXPECT_NE(msg.find("tma_banks.cu:39 shared load: 8.0-way bank conflicts"), std::string::npos) << msg;
  EXPECT_NE(msg.find("tensor copy at tma_banks.cu:30 wrote without swizzle"), std::string::npos) << msg;
  EXPECT_NE(msg.find("CU_TENSOR_MAP_SWIZZLE_128B"), std::string::npos) << msg;
  EXPECT_TRUE(advice_of(none, "bank_conflict").empty());
  const auto& swizzled = j["launches"][1];
  EXPECT_TRUE(advice_of(swizzled, "tma_swizzle").empty());
  EXPECT_TRUE(advice_of(swizzled, "bank_conflict").empty());
  EXPECT_EQ(tma_boxes(swizzled)[0]["tma_box"]["swizzle_bytes"], 128);
  // `warpscope run`'s text summary lists it (when bin/warpscope has been built).
  const std::string cli = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
  if (!std::filesystem::exists(cli)) return;
  const auto r = rt_test::run_shell(cli + " run -- " + prog("tma_banks"));
  const std::string text = r.out + r.err;
  EXPECT_NE(text.find("[tma_swizzle] tma_banks.cu:39 shared load: 8.0-way bank conflicts"), std::string::npos)
      << text.substr(0, 3000);
}

}  // namespace
