// `warpscope run` with Nsight Compute's command line: the launch filter (-k with each
// --kernel-name-base and regex:, -s, -c) on tests/runtime/programs/selection.cu, the report's
// "profiled" marks, and --csv read back with the parser the accuracy tests use for ncu's own CSV
// (tests/hw/ncu_csv.hpp). Expected counters follow from the coalescing rules (docs/mem.md): each
// of the program's 128 warps per launch reads and writes 32 consecutive aligned floats, one
// request of 4 sectors each.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../hw/ncu_csv.hpp"
#include "harness.hpp"

namespace {

using rt_test::prog;

class NcuCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }

  /// Runs selection.cu under `warpscope run OPTIONS`; returns the report and the run.
  nlohmann::json run(const std::string& options, rt_test::Result* result = nullptr) {
    // Tests run in parallel processes (ctest -j): a file per test and run.
    const std::string json = prog(std::string("selection_") +
                                  ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
                                  std::to_string(counter_++) + ".json");
    const auto r = rt_test::run_shell(exe_ + " run --quiet --json " + json + " " + options + " -- " + prog("selection"));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("0 failures"), std::string::npos) << r.out;
    if (result != nullptr) *result = r;
    return nlohmann::json::parse(rt_test::slurp(json));
  }

  /// The indices of the launches marked profiled.
  static std::vector<int> profiled(const nlohmann::json& j) {
    std::vector<int> out;
    for (const auto& l : j["launches"])
      if (l["profiled"].get<bool>()) out.push_back(l["index"].get<int>());
    return out;
  }

  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
  int counter_ = 0;
};

using V = std::vector<int>;

TEST_F(NcuCli, WithoutAFilterEveryLaunchIsProfiled) {
  const auto j = run("");
  EXPECT_EQ(profiled(j), (V{0, 1, 2, 3, 4, 5}));
  EXPECT_FALSE(j.contains("launch_filter"));
}

TEST_F(NcuCli, KernelNameMatchesTheFunctionNameExactly) {
  const auto j = run("-k copy_f");
  EXPECT_EQ(profiled(j), (V{0, 3, 5}));
  // Only the selected launches went through the memory model; the others ran (the program
  // checked their results) and have the interpreter's counts only.
  for (int i : {0, 3, 5}) {
    const auto& m = j["launches"][i]["metrics"];
    EXPECT_EQ(m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 128) << i;
    EXPECT_EQ(m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 512) << i;
    EXPECT_EQ(m["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"], 128) << i;
    EXPECT_EQ(m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"], 512) << i;
  }
  for (int i : {1, 2, 4}) {
    const auto& l = j["launches"][i];
    EXPECT_FALSE(l["metrics"].contains("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")) << i;
    EXPECT_TRUE(l["metrics"].contains("smsp__inst_executed.sum")) << i;
    EXPECT_EQ(l["not_profiled"], "--kernel-name copy_f does not match the kernel's function name") << i;
  }
  EXPECT_EQ(j["launch_filter"], (nlohmann::json{{"kernel_name", "copy_f"}, {"kernel_name_base", "function"},
                                                {"launch_skip", 0}, {"launch_count", nullptr},
                                                {"launch_skip_before_match", 0}}));
  // Exact, not a substring: "copy" names no kernel.
  EXPECT_EQ(profiled(run("-k copy")), V{});
}

TEST_F(NcuCli, KernelNameRegexIsASearch) {
  EXPECT_EQ(profiled(run("-k regex:^s")), (V{1, 2, 4}));        // scale, strided
  EXPECT_EQ(profiled(run("--kernel-name regex:ale")), (V{1, 4}));  // a partial match
}

TEST_F(NcuCli, KernelNameBaseDemangledAndMangled) {
  // ncu's demangled names: "ws::scale(float *, float, int)", "void strided<2>(const float *, float *)".
  EXPECT_EQ(profiled(run("--kernel-name-base demangled -k 'ws::scale(float *, float, int)'")), (V{1, 4}));
  EXPECT_EQ(profiled(run("--kernel-name-base demangled -k 'regex:<2>'")), V{2});
  EXPECT_EQ(profiled(run("--kernel-name-base mangled -k _Z6copy_fPKfPfi")), (V{0, 3, 5}));
  // The function name is the name alone: the namespace is not part of it.
  EXPECT_EQ(profiled(run("-k ws::scale")), V{});
  EXPECT_EQ(profiled(run("-k scale")), (V{1, 4}));
}

TEST_F(NcuCli, LaunchSkipAndCountCountMatchingLaunchesOnly) {
  // copy_f runs at 0, 3 and 5: skip its first, profile one.
  auto j = run("-k copy_f -s 1 -c 1");
  EXPECT_EQ(profiled(j), V{3});
  EXPECT_EQ(j["launches"][0]["not_profiled"], "--launch-skip 1 skips the first matching launch");
  EXPECT_EQ(j["launches"][5]["not_profiled"], "--launch-count 1: 1 matching launch was profiled already");
  EXPECT_EQ(j["launches"][1]["not_profiled"], "--kernel-name copy_f does not match the kernel's function name");
  // Without a name filter every launch matches.
  EXPECT_EQ(profiled(run("--launch-skip 4")), (V{4, 5}));
  EXPECT_EQ(profiled(run("--launch-count 2")), (V{0, 1}));
  EXPECT_EQ(profiled(run("-s 1 -c 3")), (V{1, 2, 3}));
  EXPECT_EQ(profiled(run("-c 0")), V{});
}

TEST_F(NcuCli, TextSummaryListsTheLaunchesNotProfiled) {
  rt_test::Result r;
  run("-k regex:copy -s 1", &r);
  EXPECT_NE(r.err.find("2 kernel launches on hopper"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("4 of 6 launches not profiled"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("#0: --launch-skip 1 skips the first matching launch"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("#1-2, 4: --kernel-name regex:copy does not match the kernel's function name"),
            std::string::npos)
      << r.err;
}

TEST_F(NcuCli, CsvReadsWithTheParserOfNcusOwnCsv) {
  rt_test::Result r;
  run("--csv --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,launch__grid_size,"
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__sass_inst_executed_op_global_st -k copy_f",
      &r);
  // The program's output comes first, as under ncu; the parser skips to the "ID" header.
  EXPECT_EQ(r.out.find("ok launches"), 0u) << r.out;
  const std::string path = prog("selection_ws.csv");
  std::ofstream(path) << r.out;
  const auto rows = ncu_csv::launches(path);
  ASSERT_EQ(rows.size(), 3u) << r.out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& row = rows[i];
    EXPECT_EQ(row.at("ID"), std::to_string(i));
    EXPECT_EQ(row.at("Process Name"), "selection");
    EXPECT_EQ(row.at("Host Name"), "127.0.0.1");
    EXPECT_EQ(row.at("Kernel Name"), "copy_f(const float *, float *, int)");
    EXPECT_EQ(row.at("Context"), "1");
    EXPECT_EQ(row.at("Stream"), "7");
    EXPECT_EQ(row.at("Block Size"), "(256, 1, 1)");
    EXPECT_EQ(row.at("Grid Size"), "(16, 1, 1)");
    EXPECT_EQ(row.at("Device"), "0");
    EXPECT_EQ(row.at("CC"), "9.0");
    EXPECT_EQ(ncu_csv::number(row.at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum")), 128);
    EXPECT_EQ(ncu_csv::number(row.at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")), 512);
    EXPECT_EQ(row.at("launch__grid_size"), "16");
    EXPECT_EQ(row.at("smsp__sass_inst_executed_op_global_st.sum"), "128");  // named without its rollup
  }
  // The header and units rows as ncu writes them: the fixed columns of the H100's file, then the
  // metrics in name order with their units.
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::size_t h = 0;
  while (h < lines.size() && lines[h].rfind("\"ID\"", 0) != 0) ++h;
  ASSERT_LT(h + 1, lines.size());
  const auto header = ncu_csv::fields(lines[h]);
  std::ifstream hw(std::string(WARPSCOPE_HW_DATA_DIR) + "/h100/examples/saxpy_metrics.csv");
  std::vector<std::string> hw_header;
  for (std::string l; std::getline(hw, l);)
    if (l.rfind("\"ID\"", 0) == 0) hw_header = ncu_csv::fields(l);
  ASSERT_GE(hw_header.size(), 11u);
  EXPECT_EQ(std::vector<std::string>(header.begin(), header.begin() + 11),
            std::vector<std::string>(hw_header.begin(), hw_header.begin() + 11));
  EXPECT_EQ(std::vector<std::string>(header.begin() + 11, header.end()),
            (std::vector<std::string>{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "launch__grid_size",
                                      "smsp__sass_inst_executed_op_global_st.sum"}));
  EXPECT_EQ(lines[h + 1], "\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"sector\",\"\",\"inst\"");
  // Which launches were left out goes to stderr; warpscope's own summary does not appear.
  EXPECT_NE(r.err.find("3 of 6 launches not profiled"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("== warpscope"), std::string::npos) << r.err;
}

TEST_F(NcuCli, PrintSummaryPerKernelGroupsByKernelAndShape) {
  rt_test::Result r;
  run("--print-summary per-kernel --csv --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", &r);
  const std::string body = r.out.substr(r.out.find("\"Process ID\""));
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(body);
  for (std::string l; std::getline(in, l);) rows.push_back(ncu_csv::fields(l));
  ASSERT_EQ(rows.size(), 4u) << body;  // the header, then copy_f, ws::scale, strided<2>
  EXPECT_EQ(rows[0], (std::vector<std::string>{"Process ID", "Process Name", "Host Name", "Kernel Name", "Block Size",
                                               "Grid Size", "Device", "CC", "Invocations", "Section Name",
                                               "Metric Name", "Metric Unit", "Minimum", "Maximum", "Average"}));
  EXPECT_EQ(rows[1][3], "copy_f(const float *, float *, int)");
  EXPECT_EQ(rows[1][8], "3");
  EXPECT_EQ(rows[2][3], "ws::scale(float *, float, int)");
  EXPECT_EQ(rows[2][8], "2");
  EXPECT_EQ(rows[3][3], "void strided<2>(const float *, float *)");
  EXPECT_EQ(rows[3][8], "1");
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][9], "Command line profiler metrics");
    EXPECT_EQ(rows[i][11], "sector");
    EXPECT_EQ(std::vector<std::string>(rows[i].begin() + 12, rows[i].end()),
              (std::vector<std::string>{"512", "512", "512"}));
  }
}

TEST_F(NcuCli, BadFilterOptionsAreRefusedBeforeTheProgramRuns) {
  auto r = rt_test::run_shell(exe_ + " run -k 'regex:(' -- " + prog("selection"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");  // the program did not run
  EXPECT_NE(r.err.find("--kernel-name regex:(: not a regular expression"), std::string::npos) << r.err;
  r = rt_test::run_shell(exe_ + " run --metrics dram__bytes_red.sum -- " + prog("selection"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("did you mean dram__bytes_read.sum"), std::string::npos) << r.err;
  r = rt_test::run_shell(exe_ + " run --kernel-name-base demangle -- " + prog("selection"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("function,demangled,mangled"), std::string::npos) << r.err;
}

TEST_F(NcuCli, UnknownOptionsSuggestTheNearest) {
  auto r = rt_test::run_shell(exe_ + " run --kernal-name copy_f -- " + prog("selection"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("unknown option --kernal-name; did you mean --kernel-name?"), std::string::npos) << r.err;
  r = rt_test::run_shell(exe_ + " run --launch-cnt 1 -- " + prog("selection"));
  EXPECT_NE(r.err.find("did you mean --launch-count?"), std::string::npos) << r.err;
  r = rt_test::run_shell(exe_ + " --verison");
  EXPECT_NE(r.err.find("did you mean --version?"), std::string::npos) << r.err;
  r = rt_test::run_shell(exe_ + " pattern --indx 1");
  EXPECT_NE(r.err.find("did you mean --index?"), std::string::npos) << r.err;
}

// Every option of `warpscope run` and `warpscope pattern` appears in an example of its --help.
TEST_F(NcuCli, HelpHasAnExampleForEveryOption) {
  for (const char* sub : {"run", "pattern"}) {
    const auto r = rt_test::run_shell(exe_ + " " + sub + " --help");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string examples = r.out.substr(r.out.find("Examples"));
    // The option names from the help's own listing ("  --arch TEXT ...", "  -k,--kernel-name ...").
    std::set<std::string> names;
    std::istringstream in(r.out.substr(0, r.out.find("Examples")));
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("  -", 0) != 0) continue;
      std::string first = line.substr(2, line.find(' ', 2) - 2);
      std::size_t comma;
      while ((comma = first.find(',')) != std::string::npos) first = first.substr(comma + 1);
      if (first != "--help") names.insert(first);
    }
    EXPECT_GT(names.size(), 8u) << sub;
    for (const auto& n : names)
      EXPECT_NE(examples.find(" " + n + " "), std::string::npos) << sub << ": no example uses " << n;
  }
  const auto top = rt_test::run_shell(exe_ + " --help");
  EXPECT_NE(top.out.find("warpscope --version"), std::string::npos) << top.out;
  EXPECT_NE(top.out.find("warpscope run -- ./app"), std::string::npos) << top.out;
}

// Nsight Compute's other filter options, with the meanings an H200's ncu 2025.3 showed on
// tests/hw/ncu_cli/ncu_cli_probe.cu (tests/hw/data/h200/ncu_cli: kernel_id.txt, skip_before_match.txt).
TEST_F(NcuCli, LaunchSkipBeforeMatchSkipsLaunchesOfAnyName) {
  // Launches 0 and 1 are skipped whatever their name; copy_f then matches launches 3 and 5.
  const auto j = run("--launch-skip-before-match 2 -k copy_f");
  EXPECT_EQ(profiled(j), (V{3, 5}));
  EXPECT_EQ(j["launches"][0]["not_profiled"], "--launch-skip-before-match 2 skips the first launches of any kernel");
}

TEST_F(NcuCli, KernelIdSelectsTheNthMatchingLaunch) {
  // ::regex:^s:2 is the second launch whose name matches ^s (scale #1, strided #2, scale #4).
  EXPECT_EQ(profiled(run("--kernel-id ::regex:^s:2")), V{2});
  EXPECT_EQ(profiled(run("--kernel-id 1::copy_f:3")), V{5});
  EXPECT_EQ(profiled(run("--kernel-id ::scale:")), (V{1, 4}));
  for (const char* bad : {"--kernel-id 2::copy_f:1", "--kernel-id ::copy_f:0", "--kernel-id copy_f",
                          "--kernel-id ::copy_f:1 -k copy_f", "--kernel-id 1:7:copy_f:1"}) {
    const auto r = rt_test::run_shell(exe_ + " run --quiet " + bad + " -- " + prog("selection"));
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--kernel-id"), std::string::npos) << bad << ": " << r.err;
  }
}

TEST_F(NcuCli, LogFileTakesTheResultsAndLeavesTheProgramsOutput) {
  const std::string log = prog("selection_log.csv");
  rt_test::Result r;
  run("--csv --metrics smsp__inst_executed.sum --log-file " + log, &r);
  const std::string text = rt_test::slurp(log);
  EXPECT_EQ(text.rfind("\"ID\",\"Process ID\"", 0), 0u) << text;
  EXPECT_EQ(r.out.find("\"ID\""), std::string::npos) << r.out;  // the program's stdout has its own lines only
  // A log file that cannot be written stops the run before the program starts.
  const auto bad = rt_test::run_shell(exe_ + " run --log-file /nonexistent/dir/x.csv --csv -- " + prog("selection"));
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--log-file /nonexistent/dir/x.csv: cannot write"), std::string::npos) << bad.err;
  EXPECT_EQ(bad.out.find("failures"), std::string::npos) << bad.out;
}

TEST_F(NcuCli, DerivedMetricsFromTheLaunchesCounters) {
  // Each launch: 128 warps each read and write 32 aligned floats (4 sectors per request).
  const std::string log = prog("selection_derived.csv");
  run("-k copy_f -c 1 --csv --log-file " + log +
      " --metrics l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio,"
      "l1tex__t_sectors_pipe_lsu_mem_global.sum,smsp__inst_executed.sum,smsp__inst_executed.avg,lts__t_sector_hit_rate.pct,"
      "gpu__time_duration.sum,gpu__time_duration.max,sm__throughput.avg.pct_of_peak_sustained_elapsed");
  const auto rows = ncu_csv::launches(log);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].at("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio"), "4");
  EXPECT_EQ(rows[0].at("l1tex__t_sectors_pipe_lsu_mem_global.sum"), "1,024");  // 512 loaded + 512 stored
  EXPECT_EQ(rows[0].at("gpu__time_duration.max"), rows[0].at("gpu__time_duration.sum"));  // one unit
  EXPECT_NE(rows[0].at("sm__throughput.avg.pct_of_peak_sustained_elapsed"), "n/a");
  // smsp__inst_executed over the H100's 528 SMSPs (hopper profile, ncu_units), to ncu's two decimals.
  EXPECT_NEAR(ncu_csv::number(rows[0].at("smsp__inst_executed.avg")),
              ncu_csv::number(rows[0].at("smsp__inst_executed.sum")) / 528, 0.005);
  // Per SM, as the model places CTAs (CTA c on SM c mod 132): the 16 CTAs of a copy_f launch are
  // alone on 16 SMs, so the busiest SM has one CTA's 8 warps x 4 sectors and 116 SMs have none.
  const std::string per_sm = prog("selection_per_sm.csv");
  run("-k copy_f -c 1 --csv --log-file " + per_sm +
      " --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_ld.max,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.min,"
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.max");
  const auto sm_rows = ncu_csv::launches(per_sm);
  ASSERT_EQ(sm_rows.size(), 1u);
  EXPECT_EQ(sm_rows[0].at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.max"), "32");
  EXPECT_EQ(sm_rows[0].at("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.min"), "0");
  EXPECT_EQ(sm_rows[0].at("l1tex__t_requests_pipe_lsu_mem_global_op_ld.max"), "8");
  const auto refused = rt_test::run_shell(exe_ + " run --metrics lts__t_sectors.max -- " + prog("selection"));
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("the model counts this for the whole GPU, not each unit"), std::string::npos) << refused.err;
}

TEST_F(NcuCli, SectionsPrintNcusDetailsLayout) {
  rt_test::Result r;
  run("-k copy_f -c 1 --section SpeedOfLight --section Occupancy --print-units base", &r);
  EXPECT_NE(r.out.find("    Section: GPU Speed Of Light Throughput\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    Section: Occupancy\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Duration                         ns"), std::string::npos) << r.out;
  // ncu's order: Speed Of Light before Occupancy, whatever the order asked.
  EXPECT_LT(r.out.find("Speed Of Light"), r.out.find("Section: Occupancy"));
  const auto unknown = rt_test::run_shell(exe_ + " run --section NoSuchSection -- " + prog("selection"));
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("--section NoSuchSection: not a section of Nsight Compute"), std::string::npos)
      << unknown.err;
}

TEST_F(NcuCli, ImportPrintsASavedReportAgain) {
  const std::string json = prog("selection_import.json");
  const auto first = rt_test::run_shell(exe_ + " run --quiet --json " + json +
                                        " --csv --metrics smsp__inst_executed.sum -- " + prog("selection"));
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const auto again = rt_test::run_shell(exe_ + " run --import " + json + " --csv --metrics smsp__inst_executed.sum");
  ASSERT_EQ(again.exit_code, 0) << again.err;
  auto strip_pid = [](const std::string& csv) {
    std::vector<std::string> rows;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("\"", 0) != 0) continue;
      auto f = ncu_csv::fields(line);
      f[1] = f[2] = "";  // the process
      std::string joined;
      for (const auto& x : f) joined += x + "|";
      rows.push_back(joined);
    }
    return rows;
  };
  EXPECT_EQ(strip_pid(again.out), strip_pid(first.out));
  EXPECT_EQ(strip_pid(again.out).size(), 8u);  // header, units, 6 launches
  const auto missing = rt_test::run_shell(exe_ + " run --import /nonexistent.json --csv");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("--import /nonexistent.json: cannot read"), std::string::npos) << missing.err;
}

TEST_F(NcuCli, OptionsOfNcuThatWarpscopeLacksAreNamedAsSuch) {
  const auto r = rt_test::run_shell(exe_ + " run --replay-mode application -- " + prog("selection"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("--replay-mode is an Nsight Compute option that warpscope does not have"), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
  const auto none = rt_test::run_shell(exe_ + " run --cache-control none -- " + prog("selection"));
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("--cache-control none: not modelled"), std::string::npos) << none.err;
  const auto q = rt_test::run_shell(exe_ + " run --query-metrics");
  EXPECT_EQ(q.exit_code, 0);
  EXPECT_NE(q.out.find("lts__t_sector_hit_rate.pct"), std::string::npos);
  EXPECT_NE(q.out.find("gpu__time_duration.sum"), std::string::npos);
  // As ncu spells it, without a command; every name has a description.
  const auto top = rt_test::run_shell(exe_ + " --query-metrics");
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_EQ(top.out, q.out);
  std::istringstream rows(top.out);
  std::size_t described = 0;
  for (std::string line; std::getline(rows, line);) {
    if (line.rfind("    ", 0) != 0 || line.rfind("    -", 0) == 0 || line.rfind("    Metric Name", 0) == 0) continue;
    EXPECT_GT(line.size(), 110u) << "no description: " << line;
    ++described;
  }
  EXPECT_GT(described, 150u);
}

TEST_F(NcuCli, EventsAroundLaunchesLeftOutKeepTheirPredictedTime) {
  // -s 1 -c 1 profiles the first of the ten launches between the events; the other nine are left
  // out but have the same kernel and shape: each advances the predicted clock by its duration.
  const std::string json = prog("event_repeat_s1c1.json");
  const auto r = rt_test::run_shell(exe_ + " run --quiet --json " + json + " -s 1 -c 1 -- " + prog("event_repeat"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(rt_test::slurp(json));
  const double one = j["launches"][1]["time"]["duration_ns"].get<double>();
  ASSERT_GT(one, 0);
  for (int i = 2; i <= 10; ++i) EXPECT_EQ(j["launches"][i]["event_time_from_launch"], 1) << i;
  // The warm-up launch, left out before any launch of its shape was predicted, went through the
  // model for its time alone: the report keeps the left-out form.
  EXPECT_EQ(j["launches"][0]["event_time_from_launch"], 0);
  EXPECT_EQ(j["launches"][0]["event_time_ns"], j["launches"][1]["time"]["duration_ns"]);
  EXPECT_FALSE(j["launches"][0]["profiled"].get<bool>());
  EXPECT_EQ(j["launches"][0]["metrics"].size(), 2u);
  EXPECT_FALSE(j["launches"][0].contains("lines") && !j["launches"][0]["lines"].empty());
  const auto at = r.out.find("elapsed_ns ");
  ASSERT_NE(at, std::string::npos) << r.out;
  // cudaEventElapsedTime returns float milliseconds: compare to its precision.
  EXPECT_NEAR(std::stod(r.out.substr(at + 11)), 10 * one, 10 * one * 1e-6 + 1);
}

/// The launches a text layout lists (the heading lines "  name (grid)x(block), ..."), and the
/// NVTX stack lines under them, in order.
std::vector<std::string> headings_and_stacks(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const bool heading = line.size() > 2 && line.rfind("  ", 0) == 0 && line[2] != ' ' && line.find(", CC ") != std::string::npos;
    const bool stack = line.rfind("      <", 0) == 0 || line.rfind("        <", 0) == 0;
    if (heading || stack) out.push_back(line);
  }
  return out;
}

// The filters select the launches an H200's ncu 2025.3 profiled for the same options on the same
// program (tests/hw/data/h200/ncu_cli/<capture>.txt, made by tests/hw/capture_ncu_cli.sh), with the
// NVTX stacks it printed.
TEST_F(NcuCli, FiltersSelectTheLaunchesTheH200sNcuSelected) {
  const std::string probe = prog("ncu_cli_probe");
  if (!std::filesystem::exists(probe)) GTEST_SKIP() << probe << " not built";
  const std::filesystem::path data = std::filesystem::path(WARPSCOPE_SOURCE_DIR) / "tests/hw/data/h200/ncu_cli";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"nvtx_work", "--nvtx --nvtx-include work/"},
      {"nvtx_hist", "--nvtx --nvtx-include work/hist/"},
      {"nvtx_exclude", "--nvtx --nvtx-exclude setup/"},
      {"nvtx_push_pop", "--nvtx --nvtx-include regex:hi.*/"},
      {"kernel_id", "--kernel-id ::regex:transpose:2"},
      {"skip_before_match", "--launch-skip-before-match 2 -k regex:copy"},
      {"skip_plain", "--launch-skip 1 -k regex:copy"},
  };
  for (const auto& [capture, options] : cases) {
    const std::string gpu = rt_test::slurp((data / (capture + ".txt")).string());
    const auto r = rt_test::run_shell(exe_ + " run --quiet " + options + " --metrics gpu__time_duration.sum -- " + probe);
    ASSERT_EQ(r.exit_code, 0) << capture << ": " << r.err;
    EXPECT_EQ(headings_and_stacks(r.out), headings_and_stacks(gpu)) << capture << "\n" << r.out;
    EXPECT_FALSE(headings_and_stacks(gpu).empty()) << capture;
  }
}

// compute-sanitizer's --error-exitcode on `warpscope run`: memcheck's errors make the run exit N.
TEST_F(NcuCli, ErrorExitcodeWhenMemcheckFoundErrors) {
  const auto r = rt_test::run_shell(exe_ + " run --quiet --no-summary --error-exitcode 7 -- " + prog("oob"));
  EXPECT_EQ(r.exit_code, 7) << r.err;
  EXPECT_NE(r.err.find("(exit code 7, --error-exitcode)"), std::string::npos) << r.err;
  const auto plain = rt_test::run_shell(exe_ + " run --quiet --no-summary -- " + prog("oob"));
  EXPECT_NE(plain.exit_code, 7);
  // A clean program keeps its own exit code.
  const auto clean = rt_test::run_shell(exe_ + " run --quiet --no-summary --error-exitcode 7 -- " + prog("selection"));
  EXPECT_EQ(clean.exit_code, 0) << clean.err;
  const auto v = rt_test::run_shell(exe_ + " --version");
  EXPECT_EQ(v.out, std::string("warpscope ") + WARPSCOPE_VERSION + "\n");
}

// A program path that is no program, and report paths that cannot be written, are refused before
// anything runs, with a message naming them (no abort, no endless read of /dev/zero).
TEST_F(NcuCli, BadProgramAndReportPathsAreRefusedBeforeTheRun) {
  const std::string plain = prog("not_a_program.txt");
  std::ofstream(plain) << "text\n";
  std::filesystem::permissions(plain, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"-- /tmp", "run: /tmp is a directory, not a program"},
      {"-- ''", "run: the program's name is empty"},
      {"-- /dev/zero", "run: /dev/zero is not a regular file"},
      {"-- " + plain, "is not executable"},
      {"-- no_such_program_xyz", "run: no_such_program_xyz: no such program"},
      {"--json /nonexistent/dir/r.json -- " + prog("selection"), "--json /nonexistent/dir/r.json: cannot write"},
      {"--html /proc/no/dir -- " + prog("selection"), "--html /proc/no/dir: cannot create the directory"},
      // A device is never taken for a report file (nor removed, as an old report would be).
      {"--json /dev/null -- " + prog("selection"), "--json /dev/null: not a regular file"},
  };
  for (const auto& [args, message] : cases) {
    const auto r = rt_test::run_shell("timeout 20 " + exe_ + " run --quiet " + args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.err;  // bad input: exit code 2 (issue 32)
    EXPECT_NE(r.err.find(message), std::string::npos) << args << ": " << r.err;
    EXPECT_EQ(r.out.find("failures"), std::string::npos) << args << ": the program ran";
  }
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
  // Output that cannot be written (a full device) fails the run with a message.
  if (std::filesystem::is_character_file("/dev/full")) {
    const auto full = rt_test::run_shell(exe_ + " run --quiet --log-file /dev/full --csv -- " + prog("selection"));
    EXPECT_EQ(full.exit_code, 1) << full.err;  // the run failed (after the program), not its input
    EXPECT_NE(full.err.find("--log-file /dev/full: the output could not be written"), std::string::npos) << full.err;
  }
}

// `run --compare-arch` and `pattern` count one access the same way on every profile, in the unit
// the profile's hardware moves (docs/mem.md; the seeds' rules): a warp's 4-byte loads 32 bytes
// apart are 8 transactions of 128-byte lines on Fermi (cached loads), 32 sectors on Hopper; its
// 32 consecutive 4-byte stores are 4 segments or sectors of 32 bytes. 64 CTAs x 8 warps = 512
// warps, each with one load and one store.
TEST_F(NcuCli, OneAnswerPerProfile) {
  const std::string json = prog("stride_compare.json");
  const auto r = rt_test::run_shell(exe_ + " run --quiet --json " + json + " --compare-arch fermi -- " +
                                    prog("stride_compare"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(rt_test::slurp(json));
  const auto& hopper = j["launches"][0]["metrics"];
  const auto& fermi = j["launches"][0]["compare"][0]["metrics"];
  EXPECT_EQ(fermi["global_transactions"], 512 * 8 + 512 * 4);
  EXPECT_EQ(hopper["global_transactions"], 512 * 32 + 512 * 4);
  EXPECT_EQ(hopper["global_sectors"], hopper["global_transactions"]);
  EXPECT_EQ(fermi["global_sectors"], 512 * 32 + 512 * 4);  // ncu's 32-byte sectors, beside them
  EXPECT_EQ(j["launches"][0]["compare"][0]["transaction_unit"],
            "128-byte lines (loads cached in L1), 32-byte segments (uncached loads, stores)");
  // The text names each profile's unit and why a time column is empty.
  EXPECT_NE(r.err.find("   fermi transactions: 128-byte lines"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("   fermi: - (the time model has no constants for profile 'fermi')"), std::string::npos) << r.err;
  // warpscope pattern: the same warp load on Fermi.
  const auto p = rt_test::run_shell(exe_ + " pattern --arch fermi --index 'lane*8'");
  EXPECT_NE(p.out.find("transactions      8 (lines of 128 B)"), std::string::npos) << p.out;
}

// The transpose's published ranking (NVIDIA's post, on a Tesla M2050 and a K20c: the naive
// transpose slowest, the 32x32 shared tile next, the padded tile as fast as a copy; an H200 ran this
// program's hopper order too: tests/hw/data/h200/ncu_cli, copy 5.5 us, naive 19.3 us, tile 9.2 us)
// holds in the predicted times of the hopper, ampere and volta profiles. Kepler's prediction puts
// the tile behind the naive transpose (docs/accuracy.md "Other profiles": only indicative).
TEST_F(NcuCli, TransposeOrderingOnEveryTimedProfile) {
  const std::string json = prog("transpose_four.json");
  const auto r = rt_test::run_shell(exe_ + " run --quiet --no-summary --json " + json +
                                    " --compare-arch ampere,volta -- " + prog("transpose_four"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(rt_test::slurp(json));
  ASSERT_EQ(j["launches"].size(), 4u);
  for (int profile = 0; profile < 3; ++profile) {
    std::vector<double> ns;
    for (const auto& l : j["launches"]) {
      const auto& t = profile == 0 ? l["time"] : l["compare"][profile - 1]["time"];
      ASSERT_TRUE(t.value("available", false)) << profile;
      ns.push_back(t["duration_ns"].get<double>());
    }
    const double copy = ns[0], naive = ns[1], tile = ns[2], padded = ns[3];
    EXPECT_GT(naive, tile) << profile;
    EXPECT_GT(tile, padded) << profile;
    EXPECT_NEAR(padded, copy, 0.05 * copy) << profile;
  }
}

// --set, --page source/raw/details, --print-kernel-base and --print-source, each on its own.
TEST_F(NcuCli, SetsPagesAndKernelNameBases) {
  rt_test::Result r;
  // --set basic: ncu's LaunchStats, Occupancy, SpeedOfLight (WorkloadDistribution is not modelled: a note).
  run("-k copy_f -c 1 --set basic", &r);
  EXPECT_NE(r.out.find("    Section: Launch Statistics\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("    Section: GPU Speed Of Light Throughput\n"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("--section WorkloadDistribution: not modelled"), std::string::npos) << r.err;
  // --page details alone is the basic set.
  rt_test::Result d;
  run("-k copy_f -c 1 --page details", &d);
  // (the same but for the pid on the first line of the results)
  EXPECT_EQ(d.out.substr(d.out.find("@127.0.0.1")), r.out.substr(r.out.find("@127.0.0.1")));
  // --page source: the kernel's CUDA lines with their counters.
  rt_test::Result src;
  run("-k copy_f -c 1 --page source", &src);
  EXPECT_NE(src.out.find("    File Name "), std::string::npos) << src.out;
  EXPECT_NE(src.out.find("selection.cu"), std::string::npos) << src.out;
  EXPECT_NE(src.out.find("Global Requests"), std::string::npos) << src.out;
  // --page raw without --metrics: every metric with an Nsight Compute name.
  rt_test::Result raw;
  run("-k copy_f -c 1 --page raw", &raw);
  EXPECT_NE(raw.out.find("    Section: Command line profiler metrics\n"), std::string::npos) << raw.out;
  EXPECT_NE(raw.out.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), std::string::npos) << raw.out;
  // --print-kernel-base: the names ncu prints (selection.cu's copy_f(const float *, float *, int)).
  for (const auto& [base, name] : std::vector<std::pair<std::string, std::string>>{
           {"function", "\"copy_f\""}, {"mangled", "\"_Z6copy_fPKfPfi\""}, {"demangled", "\"copy_f(const float *, float *, int)\""}}) {
    rt_test::Result k;
    run("-k copy_f -c 1 --csv --metrics smsp__inst_executed.sum --print-kernel-base " + base, &k);
    EXPECT_NE(k.out.find(name), std::string::npos) << base << ": " << k.out;
  }
  // --print-source ptx: the source page has CUDA lines only.
  const auto ptx = rt_test::run_shell(exe_ + " run --page source --print-source ptx -- " + prog("selection"));
  EXPECT_EQ(ptx.exit_code, 2);
  EXPECT_NE(ptx.err.find("--print-source ptx: warpscope's source page has the CUDA lines only"), std::string::npos)
      << ptx.err;
}

}  // namespace
