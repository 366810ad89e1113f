// cp.async.bulk(.tensor) into a peer CTA's shared memory and .multicast::cluster under warpscope
// against the H100 (tests/hw/tma_more/peer_probe.cu, tests/hw/data/h100/tma_more/peer_probe.txt
// and peer_ncu_raw.csv.gz): for the five cases, each CTA's 1024-byte buffer and whether its wait
// completed are the bytes the H100 printed, and the TMA counters of cases 0-3 are Nsight
// Compute's. The `mbarrier` word of each CTA's line is a plain load of the object, which the ISA
// calls opaque (the H100 reads 0, warpscope its state): it is left out of the comparison.
#include <gtest/gtest.h>

#include "../hw/ncu_csv.hpp"
#include "../runtime/harness.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

namespace {

const std::string kData = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/tma_more/";

/// The probe's output without the capture script's `rc` lines and with the mbarrier words blanked.
std::string comparable(const std::string& text) {
  static const std::regex word("mbarrier [0-9a-f]{16}");
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("rc ")) continue;
    out += std::regex_replace(line, word, "mbarrier -") + "\n";
  }
  return out;
}

/// peer_probe.txt per case.
std::map<int, std::string> h100_cases() {
  std::istringstream in(rt_test::slurp(kData + "peer_probe.txt"));
  std::map<int, std::string> c;
  int cur = -1;
  for (std::string line; std::getline(in, line);) {
    int id = 0;
    if (std::sscanf(line.c_str(), "peer case %d", &id) == 1) cur = id;
    if (cur >= 0) c[cur] += line + "\n";
  }
  return c;
}

/// The ncu rows of cases 0-3, in order (the raw export holds one header per case).
std::vector<ncu_csv::Row> h100_counters(const std::string& tmp) {
  const std::string cmd = "gzip -dc '" + kData + "peer_ncu_raw.csv.gz' > '" + tmp + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
  std::vector<ncu_csv::Row> out;
  for (auto& r : ncu_csv::launches(tmp))
    if (r.at("ID") == "0") out.push_back(std::move(r));
  return out;
}

const char* const kMetrics[] = {"smsp__inst_executed_op_tma_ld.sum", "smsp__sass_inst_executed_op_tma_ld.sum",
                                "l1tex__tmain_requests.sum", "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum",
                                "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum",
                                "lts__t_sectors_srcunit_tex_op_read.sum"};

TEST(TmaPeerAccuracy, PeerAndMulticastCopiesGiveTheH100sBytesAndCounters) {
  const auto want = h100_cases();
  ASSERT_EQ(want.size(), 5u);
  const std::string exe = rt_test::prog("peer_probe");
  const auto hw = h100_counters(exe + ".ncu.csv");
  ASSERT_EQ(hw.size(), 4u);
  for (const auto& [id, text] : want) {
    SCOPED_TRACE("peer case " + std::to_string(id));
    const std::string report = exe + "." + std::to_string(id) + ".json";
    std::remove(report.c_str());
    const rt_test::Result r = rt_test::run_under_warpscope(exe + " " + std::to_string(id), report, "WARPSCOPE_QUIET=1");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(comparable(r.out), comparable(text)) << r.err;
    if (id >= 4) continue;
    const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
    ASSERT_EQ(j["launches"].size(), 1u);
    const auto& m = j["launches"][0]["metrics"];
    // Tensor cases 1 and 3 read 5 sectors per 128-byte row starting 32 bytes into a line (40 per
    // box), one more than the same load into the CTA's own shared memory (ops_tma.cpp, `remote`).
    // The multicast rule: the l1tex sectors are the L2's once per destination CTA (case 3: 2).
    const double destinations = id == 2 ? 3 : id == 3 ? 2 : 1;
    for (const char* k : kMetrics) {
      ASSERT_TRUE(m.contains(k)) << k;
      EXPECT_EQ(m[k].get<double>(), ncu_csv::number(hw[id].at(k))) << k;
    }
    const char* xbar = "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum";
    const char* lts = "lts__t_sectors_srcunit_tex_op_read.sum";
    EXPECT_EQ(ncu_csv::number(hw[id].at(xbar)), destinations * ncu_csv::number(hw[id].at(lts)));
    EXPECT_EQ(m[xbar].get<double>(), destinations * m[lts].get<double>());
  }
}

}  // namespace

namespace {

// tests/hw/tma_more/peer_more.cu (tests/hw/data/h100/tma_more/peer_more*): a 5-D tile load with
// .multicast::cluster, an .im2col load into a peer CTA and one with .multicast::cluster: each CTA's
// buffer and wait as the H100 printed them, and the TMA counters Nsight Compute counted (one extra
// sector per box row for these destinations: 16 for 8 rows of 32 bytes, twice over the crossbar
// for two destinations).
TEST(TmaPeerAccuracy, FiveDimensionalAndIm2colLoadsIntoOtherCtasAsOnTheH100) {
  std::map<int, std::string> want;
  {
    std::istringstream in(rt_test::slurp(kData + "peer_more.txt"));
    int cur = -1;
    for (std::string line; std::getline(in, line);) {
      int id = 0;
      if (std::sscanf(line.c_str(), "more case %d", &id) == 1) cur = id;
      if (cur >= 0) want[cur] += line + "\n";
    }
  }
  ASSERT_EQ(want.size(), 3u);
  std::map<int, ncu_csv::Row> hw;
  {
    std::istringstream in(rt_test::slurp(kData + "peer_more_ncu.csv"));
    int cur = -1;
    std::map<int, std::string> block;
    for (std::string line; std::getline(in, line);) {
      if (std::sscanf(line.c_str(), "== ncu more %d", &cur) == 1) continue;
      block[cur] += line + "\n";
    }
    for (const auto& [id, text] : block) {
      const std::string tmp = rt_test::prog("peer_more") + ".ncu" + std::to_string(id) + ".csv";
      std::ofstream(tmp) << text;
      const auto rows = ncu_csv::launches(tmp);
      ASSERT_EQ(rows.size(), 1u);
      hw[id] = rows[0];
    }
  }
  const std::string exe = rt_test::prog("peer_more");
  for (const auto& [id, text] : want) {
    SCOPED_TRACE("more case " + std::to_string(id));
    const std::string report = exe + "." + std::to_string(id) + ".json";
    std::remove(report.c_str());
    const rt_test::Result r = rt_test::run_under_warpscope(exe + " " + std::to_string(id), report, "WARPSCOPE_QUIET=1");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    ASSERT_EQ(r.out + "rc 0\n", text) << r.err;
    const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
    ASSERT_EQ(j["launches"].size(), 1u);
    const auto& m = j["launches"][0]["metrics"];
    for (const char* k : kMetrics) {
      ASSERT_TRUE(m.contains(k)) << k;
      EXPECT_EQ(m[k].get<double>(), ncu_csv::number(hw[id].at(k))) << k;
    }
  }
}

}  // namespace

namespace {

// tests/hw/tma_more/bar_elsewhere.cu: a copy into rank 1 naming rank 1's mbarrier completes as on
// the H100; naming the issuing CTA's own mbarrier (plain or tensor copy) the H100 writes the bytes
// and never completes it (its wait times out): warpscope stops the launch with an error naming it.
TEST(TmaPeerAccuracy, AnMbarrierOutsideTheDestinationNeverCompletes) {
  std::map<int, std::string> want;
  {
    std::istringstream in(rt_test::slurp(kData + "bar_elsewhere.txt"));
    int cur = -1;
    for (std::string line; std::getline(in, line);) {
      int id = 0;
      if (std::sscanf(line.c_str(), "bar case %d", &id) == 1) cur = id;
      if (cur >= 0 && !line.starts_with("rc ")) want[cur] += line + "\n";
    }
  }
  ASSERT_EQ(want.size(), 3u);
  EXPECT_NE(want[0].find("cta 0 done 0"), std::string::npos);
  EXPECT_NE(want[2].find("cta 0 done 0"), std::string::npos);
  const std::string exe = rt_test::prog("bar_elsewhere");
  const rt_test::Result ok = rt_test::run_under_warpscope(exe + " 1", "", "WARPSCOPE_QUIET=1");
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_EQ(ok.out, want[1]) << ok.err;
  for (int k : {0, 2}) {
    SCOPED_TRACE("bar case " + std::to_string(k));
    const rt_test::Result r = rt_test::run_under_warpscope(exe + " " + std::to_string(k), "", "WARPSCOPE_QUIET=1");
    EXPECT_NE(r.err.find("names the mbarrier of rank 0: the mbarrier must be in the destination's block"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("bar case " + std::to_string(k) + " run 719"), std::string::npos) << r.out;
  }
}

}  // namespace
