// Nsight Compute's derived metric forms (src/report/metric_eval.hpp), checked against what an
// H200's ncu 2025.3 printed for tests/hw/ncu_cli/ncu_cli_probe.cu
// (tests/hw/data/h200/ncu_cli/rollups_csv.txt, rollups_text.txt, section_*.txt): given the .sum
// counters ncu measured, the rollups, rates, ratios and text scaling come out as ncu printed them.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "../hw/ncu_csv.hpp"
#include "report/metric_eval.hpp"
#include "report/ncu_output.hpp"
#include "report/ncu_sections.hpp"

namespace {

namespace fs = std::filesystem;
using warpscope::report::auto_scale;
using warpscope::report::metric_number;
using warpscope::report::MetricUnits;
using warpscope::report::ncu_number;

const fs::path kH200 = fs::path(WARPSCOPE_SOURCE_DIR) / "tests/hw/data/h200/ncu_cli";

/// The H200's units, as its ncu divides .sum by .avg (rollups_csv.txt): 528 SMSPs, 132 SMs,
/// 94 L2 slices, 48 DRAM units.
MetricUnits h200() {
  MetricUnits u;
  u.sm = 132;
  u.smsp = 528;
  u.lts = 94;
  u.dram = 48;
  u.gpu = "h200";
  return u;
}

/// The rows of the H200's raw CSV, by launch.
std::vector<std::map<std::string, std::string>> captured() {
  return ncu_csv::launches((kH200 / "rollups_csv.txt").string());
}

/// A launch of the report carrying the .sum counters ncu measured for launch `i`.
nlohmann::json launch_from(const std::map<std::string, std::string>& row) {
  nlohmann::json m = nlohmann::json::object();
  for (const auto& [k, v] : row) {
    if (k.size() < 5 || k.compare(k.size() - 4, 4, ".sum") != 0) continue;
    if (v.empty() || v == "n/a" || v.find_first_not_of("0123456789,.") != std::string::npos) continue;
    m[k] = ncu_csv::number(v);
  }
  return {{"metrics", m}};
}

TEST(MetricEval, RollupsOverTheH200sUnitsAsItsNcuPrintsThem) {
  const auto rows = captured();
  ASSERT_EQ(rows.size(), 6u);
  std::size_t checked = 0;
  for (const auto& row : rows) {
    const auto launch = launch_from(row);
    for (const char* base : {"smsp__inst_executed", "sm__inst_executed", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld",
                             "lts__t_sectors_srcunit_tex_op_read", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom",
                             "dram__bytes_read"}) {
      const std::string avg = std::string(base) + ".avg";
      const auto mine = metric_number(launch, avg, h200());
      ASSERT_TRUE(mine.has_value()) << avg;
      EXPECT_EQ(ncu_number(*mine), row.at(avg)) << avg;
      ++checked;
    }
    // One unit: gpu__time_duration's .min and .max are its .sum.
    EXPECT_EQ(ncu_number(*metric_number(launch, "gpu__time_duration.max", h200())), row.at("gpu__time_duration.max"));
  }
  EXPECT_EQ(checked, 36u);
}

TEST(MetricEval, RatesPerSecondOfThePredictedDuration) {
  const auto rows = captured();
  std::size_t checked = 0;
  for (const auto& row : rows) {
    const auto launch = launch_from(row);
    for (const char* m : {"dram__bytes_read.sum.per_second", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.per_second",
                          "smsp__inst_executed.sum.per_second"}) {
      const auto mine = metric_number(launch, m, h200());
      ASSERT_TRUE(mine.has_value()) << m;
      // ncu divides by the same pass's duration; its value is printed to 2 decimals.
      EXPECT_NEAR(*mine, ncu_csv::number(row.at(m)), 0.006) << m;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 18u);
}

TEST(MetricEval, AggregatesAndRatiosFromTheModelsCounters) {
  const auto u = h200();
  nlohmann::json l = {{"metrics",
                       {{"lts__t_sectors_srcunit_tex_op_read.sum", 100}, {"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", 30},
                        {"lts__t_sectors_srcunit_tex_op_write.sum", 50}, {"lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum", 50},
                        {"lts__t_sectors_srcunit_tex_op_atom.sum", 0}, {"lts__t_sectors_srcunit_tex_op_red.sum", 0},
                        {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 8}, {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 32},
                        {"dram__bytes_read.sum", 640}, {"dram__bytes_write.sum", 64}}}};
  auto v = [&](const char* m) { return metric_number(l, m, u); };
  EXPECT_EQ(v("lts__t_sectors.sum"), 150.0);
  EXPECT_EQ(v("lts__t_sectors_lookup_hit.sum"), 80.0);
  EXPECT_EQ(v("lts__t_sectors_lookup_miss.sum"), 70.0);
  EXPECT_DOUBLE_EQ(*v("lts__t_sector_hit_rate.pct"), 80.0 / 150.0 * 100.0);
  EXPECT_EQ(v("lts__t_sector_op_read_hit_rate.pct"), 30.0);
  EXPECT_EQ(v("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"), 4.0);
  EXPECT_EQ(v("dram__bytes.sum"), 704.0);
  EXPECT_DOUBLE_EQ(*v("lts__t_sectors.avg"), 150.0 / 94.0);
  // The model does not classify L2 hits of atomics: with any, the L2 hit totals are unknown.
  l["metrics"]["lts__t_sectors_srcunit_tex_op_atom.sum"] = 4;
  EXPECT_FALSE(v("lts__t_sector_hit_rate.pct").has_value());
  EXPECT_EQ(v("lts__t_sectors.sum"), 154.0);
  // Per unit, which the model does not count.
  EXPECT_FALSE(v("lts__t_sectors.max").has_value());
}

TEST(MetricEval, RefusalsSayWhy) {
  const auto& known = warpscope::report::known_metrics();
  auto why = [&](const char* m, MetricUnits u) { return warpscope::report::metric_refusal(m, known, u).value_or(""); };
  EXPECT_EQ(why("lts__t_sectors.avg", h200()), "");
  EXPECT_NE(why("lts__t_sectors.avg", MetricUnits{}).find("does not say over how many L2 slices"), std::string::npos);
  EXPECT_NE(why("l1tex__t_sectors.min", h200()).find("over the GPU's L1/TEX units"), std::string::npos);
  EXPECT_EQ(why("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.max", h200()), "");  // per SM in the model
  EXPECT_EQ(why("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.min", h200()), "");
  EXPECT_NE(why("lts__t_sectors_srcunit_tex_op_read.max", h200()).find("L2 slices"), std::string::npos);
  EXPECT_NE(why("lts__t_sectors.sum.pct_of_peak_sustained_elapsed", h200()).find("no peak rate"), std::string::npos);
  EXPECT_NE(why("lts__t_sectors.sum.peak_sustained", h200()).find("not modelled"), std::string::npos);
  EXPECT_NE(why("sm__throughput.max.pct_of_peak_sustained_elapsed", h200()).find("not modelled"), std::string::npos);
  EXPECT_EQ(why("sm__throughput.sum.pct_of_peak_sustained_elapsed", h200()), "");  // ncu: .sum equals .avg
}

TEST(MetricEval, TextScalingAsNcuPrintsIt) {
  // Pairs from rollups_text.txt and section_sol.txt (value in base units -> ncu's text).
  auto scaled = [](double v, const char* unit) {
    const auto [x, u] = auto_scale(v, unit);
    return u + " " + ncu_number(x);
  };
  EXPECT_EQ(scaled(4197376, "byte"), "Mbyte 4.20");
  EXPECT_EQ(scaled(87440, "byte"), "Kbyte 87.44");
  EXPECT_EQ(scaled(0, "byte"), "byte 0");
  EXPECT_EQ(scaled(5410, "ns"), "us 5.41");
  EXPECT_EQ(scaled(776.05e9, "byte/s"), "Gbyte/s 776.05");
  EXPECT_EQ(scaled(2.5e12, "byte/s"), "Tbyte/s 2.50");
  EXPECT_EQ(scaled(24.24e9, "sector/s"), "sector/ns 24.24");
  EXPECT_EQ(scaled(96.95e9, "inst/s"), "inst/ns 96.95");
  EXPECT_EQ(scaled(3.17e9, "hz"), "Ghz 3.17");
  EXPECT_EQ(scaled(1504, "byte/cycle"), "Kbyte/cycle 1.50");
  EXPECT_EQ(scaled(422492, "sector"), "sector 422,492");
  EXPECT_EQ(scaled(16.25, "%"), "% 16.25");
}

TEST(NcuSections, DetailsCsvHeaderIsNcus) {
  // The header row of ncu --csv --page details (details_csv.txt).
  std::ifstream in(kH200 / "details_csv.txt");
  std::string header;
  for (std::string line; std::getline(in, line);)
    if (line.rfind("\"ID\"", 0) == 0) {
      header = line;
      break;
    }
  ASSERT_FALSE(header.empty());
  nlohmann::json report = {{"launches",
                            {{{"kernel", "_Z1kv"}, {"grid", {1, 1, 1}}, {"block", {32, 1, 1}}, {"stream", 0},
                              {"metrics", {{"gpu__time_duration.sum", 5472}}}}}}};
  warpscope::report::NcuContext ctx;
  warpscope::report::NcuOptions o;
  o.csv = true;
  const std::string out = warpscope::report::details_page(report, ctx, o, {"SpeedOfLight"});
  EXPECT_EQ(out.substr(0, out.find('\n')), header);
  // A metric row: 15 quoted fields and the one empty rule field ncu ends it with.
  EXPECT_NE(out.find("\"GPU Speed Of Light Throughput\",\"Duration\",\"ns\",\"5,472\",\n"), std::string::npos) << out;
}

TEST(NcuSections, SetsAndNamesAsNcuListsThem) {
  EXPECT_EQ(warpscope::report::set_sections("basic"),
            (std::vector<std::string>{"LaunchStats", "Occupancy", "SpeedOfLight", "WorkloadDistribution"}));
  std::vector<std::string> notes;
  const auto s = warpscope::report::resolve_sections({"Occupancy", "SpeedOfLight", "PmSampling"}, &notes);
  EXPECT_EQ(s, (std::vector<std::string>{"SpeedOfLight", "Occupancy"}));  // ncu's order
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("--section PmSampling: not modelled"), std::string::npos);
  // Every identifier ncu 2025.3 lists (list_sections.txt) is known.
  std::ifstream in(kH200 / "list_sections.txt");
  std::size_t listed = 0;
  for (std::string line; std::getline(in, line);) {
    const std::string id = line.substr(0, line.find(' '));
    if (id.empty() || id[0] == '-' || id[0] == '#' || id == "Identifier") continue;
    EXPECT_NO_THROW((void)warpscope::report::resolve_sections({id}, nullptr)) << id;
    ++listed;
  }
  EXPECT_EQ(listed, warpscope::report::ncu_sections().size());
}

}  // namespace
