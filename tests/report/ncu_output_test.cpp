// Nsight Compute's layouts from a hand-written report (src/report/ncu_output.hpp). Units and
// number formatting are checked against every CSV export of Nsight Compute 2025.3 in
// tests/hw/data/h100; the layouts against the expected text written out below.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../hw/ncu_csv.hpp"
#include "report/ncu_output.hpp"
#include "report/text.hpp"
#include "warpscope/error.hpp"

namespace {

namespace fs = std::filesystem;
using warpscope::report::ncu_number;
using warpscope::report::ncu_unit;

const fs::path kData = fs::path(WARPSCOPE_SOURCE_DIR) / "tests/hw/data/h100";

/// The header and units rows of every `ncu --csv --page raw` file under tests/hw/data/h100.
std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> captured_headers() {
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> out;
  for (const auto& e : fs::recursive_directory_iterator(kData)) {
    if (e.path().extension() != ".csv") continue;
    std::ifstream in(e.path());
    std::vector<std::string> header;
    for (std::string line; std::getline(in, line);) {
      if (header.empty()) {
        if (line.rfind("\"ID\"", 0) == 0) header = ncu_csv::fields(line);
        continue;
      }
      out.emplace_back(header, ncu_csv::fields(line));
      break;
    }
  }
  return out;
}

TEST(NcuUnits, AgreeWithEveryCapturedUnitsRow) {
  std::size_t checked = 0;
  const auto headers = captured_headers();
  ASSERT_GT(headers.size(), 5u);
  for (const auto& [header, units] : headers) {
    ASSERT_EQ(header.size(), units.size());
    for (std::size_t i = 0; i < header.size(); ++i) {
      const auto mine = ncu_unit(header[i]);
      if (!mine) continue;
      EXPECT_EQ(*mine, units[i]) << header[i];
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u);
  // Every Nsight Compute name warpscope reports has a unit.
  for (const auto& m : warpscope::report::known_metrics()) {
    if (m.find("__") != std::string::npos) {
      EXPECT_TRUE(ncu_unit(m).has_value()) << m;
    }
  }
}

TEST(NcuNumbers, AsTheCapturesPrintThem) {
  // Values from the H100's exports (ncu_patterns_1x32.csv, accuracy/matmul_metrics.csv, ...).
  EXPECT_EQ(ncu_number(0), "0");
  EXPECT_EQ(ncu_number(768), "768");
  EXPECT_EQ(ncu_number(3670), "3,670");
  EXPECT_EQ(ncu_number(1980000), "1,980,000");
  EXPECT_EQ(ncu_number(85017493504.0), "85,017,493,504");
  EXPECT_EQ(ncu_number(115.2), "115.20");
  EXPECT_EQ(ncu_number(10073.6), "10,073.60");
  EXPECT_EQ(ncu_number(7943.76), "7,943.76");
  EXPECT_EQ(ncu_number(0.0104), "0.01");
  EXPECT_EQ(ncu_number(0.001), "0.00");
  // Every value in the captures' rows reads back to itself.
  std::size_t checked = 0;
  for (const auto& e : fs::recursive_directory_iterator(kData)) {
    if (e.path().extension() != ".csv") continue;
    for (const auto& row : ncu_csv::launches(e.path().string())) {
      for (const auto& [name, value] : row) {
        if (name.find("__") == std::string::npos || value.empty() || value == "n/a") continue;
        if (value.find_first_not_of("0123456789,.") != std::string::npos) continue;
        // "0.00", "3.00": a value that was not integral, rounded; it does not read back.
        if (value.size() > 3 && value.compare(value.size() - 3, 3, ".00") == 0) continue;
        EXPECT_EQ(ncu_number(ncu_csv::number(value)), value) << e.path() << " " << name;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 1000u);
}

TEST(NcuStreams, LegacyDefaultIsSevenCreatedStartAtThirteen) {
  EXPECT_EQ(warpscope::report::ncu_stream(0), 7);
  EXPECT_EQ(warpscope::report::ncu_stream(1), 13);
  EXPECT_EQ(warpscope::report::ncu_stream(15), 27);
}

/// A report with three launches of two kernels; launch 1 was left out by the filter.
nlohmann::json sample() {
  nlohmann::json j = {{"arch", "hopper"}, {"memory_model", true}, {"launches", nlohmann::json::array()}};
  auto launch = [&](int index, const char* kernel, int grid, nlohmann::json metrics, bool profiled) {
    nlohmann::json l = {{"index", index}, {"kernel", kernel}, {"name", kernel}, {"grid", {grid, 1, 1}},
                        {"block", {256, 1, 1}}, {"stream", 0}, {"dynamic_shared_bytes", 0},
                        {"metrics", std::move(metrics)}, {"profiled", profiled}};
    if (!profiled) l["not_profiled"] = "--kernel-name a does not match the kernel's function name";
    j["launches"].push_back(l);
  };
  launch(0, "_Z1aPKf", 4, {{"dram__bytes_read.sum", 1024}, {"smsp__inst_executed.sum", 10}}, true);
  launch(1, "_Z1bv", 2, {{"smsp__inst_executed.sum", 7}}, false);
  launch(2, "_Z1aPKf", 4, {{"dram__bytes_read.sum", 4096}, {"smsp__inst_executed.sum", 13}}, true);
  launch(3, "_Z1aPKf", 8, {{"dram__bytes_read.sum", 2048.5}, {"smsp__inst_executed.sum", 20}}, true);
  return j;
}

warpscope::report::NcuContext context() {
  warpscope::report::NcuContext c;
  c.pid = 4242;
  c.process = "app";
  return c;
}

TEST(NcuOutput, RawPageCsv) {
  warpscope::report::NcuOptions o;
  o.csv = true;
  o.metrics = {"smsp__inst_executed.sum", "launch__grid_size", "dram__bytes_read.sum"};
  const std::string csv = warpscope::report::ncu_output(sample(), context(), o);
  EXPECT_EQ(csv,
            "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Block "
            "Size\",\"Grid Size\",\"Device\",\"CC\",\"dram__bytes_read.sum\",\"launch__grid_size\",\"smsp__inst_"
            "executed.sum\"\n"
            "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"byte\",\"\",\"inst\"\n"
            "\"0\",\"4242\",\"app\",\"127.0.0.1\",\"a(const float *)\",\"1\",\"7\",\"(256, 1, 1)\",\"(4, 1, 1)\",\"0\","
            "\"9.0\",\"1,024\",\"4\",\"10\"\n"
            "\"1\",\"4242\",\"app\",\"127.0.0.1\",\"a(const float *)\",\"1\",\"7\",\"(256, 1, 1)\",\"(4, 1, 1)\",\"0\","
            "\"9.0\",\"4,096\",\"4\",\"13\"\n"
            "\"2\",\"4242\",\"app\",\"127.0.0.1\",\"a(const float *)\",\"1\",\"7\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\","
            "\"9.0\",\"2,048.50\",\"8\",\"20\"\n");
  // Without --metrics: every Nsight Compute-named metric of the profiled launches.
  o.metrics.clear();
  const auto path = fs::path(WARPSCOPE_BINARY_DIR) / "ncu_output_test_all.csv";
  std::ofstream(path) << warpscope::report::ncu_output(sample(), context(), o);
  const auto rows = ncu_csv::launches(path.string());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].size(), 13u);  // 11 fixed columns, dram__bytes_read.sum, smsp__inst_executed.sum
}

TEST(NcuOutput, RawPageText) {
  warpscope::report::NcuOptions o;
  o.metrics = {"dram__bytes_read.sum", "launch__registers_per_thread"};
  nlohmann::json one = sample();
  one["launches"] = nlohmann::json::array({one["launches"][0]});
  EXPECT_EQ(warpscope::report::ncu_output(one, context(), o),
            "[4242] app@127.0.0.1\n"
            "  a(const float *) (4, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0\n"
            "    Section: Command line profiler metrics\n"
            "    ---------------------------- --------------- ------------\n"
            "    Metric Name                      Metric Unit Metric Value\n"
            "    ---------------------------- --------------- ------------\n"
            "    dram__bytes_read.sum                   Kbyte         1.02\n"  // ncu scales text: 1,024 bytes
            "    launch__registers_per_thread register/thread          n/a\n"
            "    ---------------------------- --------------- ------------\n"
            "\n");
}

TEST(NcuOutput, SummaryPerKernelGroupsByNameAndShape) {
  warpscope::report::NcuOptions o;
  o.csv = true;
  o.print_summary = "per-kernel";
  o.metrics = {"smsp__inst_executed.sum"};
  EXPECT_EQ(warpscope::report::ncu_output(sample(), context(), o),
            "\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Device\","
            "\"CC\",\"Invocations\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Minimum\",\"Maximum\","
            "\"Average\"\n"
            "\"4242\",\"app\",\"127.0.0.1\",\"a(const float *)\",\"(256, 1, 1)\",\"(4, 1, 1)\",\"0\",\"9.0\",\"2\","
            "\"Command line profiler metrics\",\"smsp__inst_executed.sum\",\"inst\",\"10\",\"13\",\"11.50\"\n"
            "\"4242\",\"app\",\"127.0.0.1\",\"a(const float *)\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\",\"1\","
            "\"Command line profiler metrics\",\"smsp__inst_executed.sum\",\"inst\",\"20\",\"20\",\"20\"\n");
}

TEST(NcuOutput, NothingProfiledPrintsNothing) {
  nlohmann::json j = sample();
  for (auto& l : j["launches"]) l["profiled"] = false;
  warpscope::report::NcuOptions o;
  o.csv = true;
  EXPECT_EQ(warpscope::report::ncu_output(j, context(), o), "");
}

TEST(NcuMetrics, ResolveNamesRollupsAndRegex) {
  using warpscope::report::resolve_metrics;
  std::vector<std::string> notes;
  EXPECT_EQ(resolve_metrics({"dram__bytes_read.sum", "dram__bytes_write"}, &notes),
            (std::vector<std::string>{"dram__bytes_read.sum", "dram__bytes_write.sum"}));
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("dram__bytes_write: reported as dram__bytes_write.sum"), std::string::npos) << notes[0];
  // regex: selects among the launches' own metrics and the derived forms.
  EXPECT_EQ(resolve_metrics({"regex:^dram__"}, nullptr),
            (std::vector<std::string>{"dram__bytes_read.sum", "dram__bytes_write.sum", "dram__bytes.sum",
                                      "dram__throughput.avg.pct_of_peak_sustained_elapsed"}));
  auto message = [](const std::vector<std::string>& m) {
    try {
      resolve_metrics(m, nullptr);
    } catch (const warpscope::Error& e) {
      EXPECT_EQ(e.kind(), warpscope::ErrorKind::kUsage);
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // .avg needs the profile's unit count; .min/.max are per unit, which the model does not count.
  EXPECT_NE(message({"dram__bytes_read.avg"}).find("does not say over how many DRAM units"), std::string::npos)
      << message({"dram__bytes_read.avg"});
  EXPECT_NE(message({"dram__bytes_read.max"}).find("the model counts this for the whole GPU, not each unit"), std::string::npos);
  EXPECT_NE(message({"lts__t_sector_srcunit_tex_op_read.sum"}).find("did you mean lts__t_sectors_srcunit_tex_op_read.sum"),
            std::string::npos)
      << message({"lts__t_sector_srcunit_tex_op_read.sum"});
  // The time model's throughputs and the derived forms are metrics like the others.
  EXPECT_EQ(resolve_metrics({"sm__throughput.avg.pct_of_peak_sustained_elapsed", "lts__t_sector_hit_rate.pct",
                             "gpu__time_duration.sum", "dram__bytes.sum.per_second"},
                            nullptr),
            (std::vector<std::string>{"sm__throughput.avg.pct_of_peak_sustained_elapsed", "lts__t_sector_hit_rate.pct",
                                      "gpu__time_duration.sum", "dram__bytes.sum.per_second"}));
  EXPECT_NE(message({"lts__t_sector_hit_rate.sum"}).find("is a ratio; ask for lts__t_sector_hit_rate.pct"),
            std::string::npos);
  EXPECT_NE(message({"regex:(("}).find("not a regular expression"), std::string::npos);
}

TEST(NotProfiledText, GroupsIndicesByReason) {
  EXPECT_EQ(warpscope::report::not_profiled_text(sample()),
            "   1 of 4 launches not profiled (run without the memory model; \"profiled\": false in the JSON):\n"
            "     #1: --kernel-name a does not match the kernel's function name\n");
  // The text summary tables only the profiled launches, by their own index.
  const std::string text = warpscope::report::text_report(sample());
  EXPECT_NE(text.find("3 kernel launches on hopper"), std::string::npos) << text;
  EXPECT_NE(text.find("\n    3  _Z1aPKf"), std::string::npos) << text;
}

TEST(TextReport, KernelNamesAreNeverCutSoThatTwoLookAlike) {
  // Two instantiations whose names agree in their first 40 characters are shortened with a
  // number each, [k1] and [k2], and a legend under the table gives their whole names; a long name
  // that no other shares its 40-character form with is shortened as before.
  const std::string a = "void transpose_tile_kernel<float, 32, 8, false>(const float *, float *, int)";
  const std::string b = "void transpose_tile_kernel<float, 32, 8, true>(const float *, float *, int)";
  const std::string c = "void another_kernel_with_a_long_name_here<int>(int *)";
  nlohmann::json j = {{"arch", "hopper"}, {"memory_model", true}, {"launches", nlohmann::json::array()}};
  int index = 0;
  for (const auto& name : {a, b, c})
    j["launches"].push_back({{"index", index++}, {"kernel", "k"}, {"name", name}, {"grid", {1, 1, 1}},
                             {"block", {32, 1, 1}}, {"metrics", nlohmann::json::object()}, {"profiled", true}});
  const std::string text = warpscope::report::text_report(j);
  EXPECT_NE(text.find("  " + a.substr(0, 32) + "... [k1] "), std::string::npos) << text;
  EXPECT_NE(text.find("  " + b.substr(0, 32) + "... [k2] "), std::string::npos) << text;
  EXPECT_NE(text.find("   [k1] " + a + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find("   [k2] " + b + "\n"), std::string::npos) << text;
  EXPECT_EQ(text.find(c), std::string::npos) << text;
  EXPECT_NE(text.find(c.substr(0, 37) + "..."), std::string::npos) << text;
}

}  // namespace
