// `warpscope run -o NAME` (checked and written as ncu does: NAME.ncu-rep, no overwrite without -f),
// `warpscope import` and `warpscope compare`, on a saved JSON report (`run --import`), so no CUDA
// program has to run. Expected values are the report's own numbers.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "export/ncu_rep.hpp"
#include "shell.hpp"

namespace {

namespace fs = std::filesystem;

using export_tests::Shell;
using export_tests::shell;

class NcuRepCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
    dir_ = fs::temp_directory_path() /
           ("warpscope_ncu_rep_cli_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    std::ofstream(dir_ / "r.json") << R"json({"tool": {"name": "warpscope", "version": "0.2.0"},
      "arch": "hopper", "compare_archs": ["kepler"], "gpu": "x",
      "launches": [{"index": 0, "kernel": "_Z4copyPKfPfi", "grid": [8, 1, 1], "block": [128, 1, 1],
                    "dynamic_shared_bytes": 0, "stream": 0, "profiled": true,
                    "metrics": {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 12336,
                                "gpu__time_duration.sum": 1500.25},
                    "compare": [{"arch": "kepler",
                                 "metrics": {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 3084}}]}]})json";
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  Shell export_to(const std::string& name, const std::string& extra = "") {
    return shell(exe_ + " run --import " + (dir_ / "r.json").string() + " --no-summary " + extra + " -o " + name);
  }
  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
  fs::path dir_;
};

TEST_F(NcuRepCli, WritesNameDotNcuRepWithEveryProfile) {
  const Shell r = export_to((dir_ / "out").string());
  ASSERT_EQ(r.code, 0) << r.out;
  const auto rep = warpscope::ncurep::read_report_file((dir_ / "out.ncu-rep").string());
  ASSERT_EQ(rep.results.size(), 2u);
  EXPECT_EQ(rep.results[0].demangled, "copy(const float *, float *, int)");
  EXPECT_EQ(rep.results[0].find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")->number, 12336);
  EXPECT_EQ(rep.results[0].find("device__attribute_chip")->number, 384);  // the H100's, for ncu's units
  EXPECT_EQ(rep.results[1].find("warpscope_profile")->text, "kepler");
  EXPECT_EQ(rep.results[1].find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")->number, 3084);
  EXPECT_EQ(rep.results[1].find("device__attribute_chip"), nullptr);  // not known for the K20X
}

TEST_F(NcuRepCli, RefusesToOverwriteWithoutForce) {
  ASSERT_EQ(export_to((dir_ / "out.ncu-rep").string()).code, 0);
  const Shell again = export_to((dir_ / "out").string());
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.out.find("already exists; use -f (--force-overwrite)"), std::string::npos) << again.out;
  EXPECT_EQ(export_to((dir_ / "out").string(), "-f").code, 0);
  EXPECT_EQ(export_to((dir_ / "out").string(), "--force-overwrite").code, 0);
  fs::create_directories(dir_ / "d.ncu-rep");
  const Shell d = export_to((dir_ / "d").string(), "-f");
  EXPECT_EQ(d.code, 2);
  EXPECT_NE(d.out.find("not a regular file"), std::string::npos) << d.out;
}

TEST_F(NcuRepCli, ImportAndCompareReadIt) {
  ASSERT_EQ(export_to((dir_ / "out").string()).code, 0);
  const Shell csv = shell(exe_ + " import --csv " + (dir_ / "out.ncu-rep").string());
  EXPECT_EQ(csv.code, 0) << csv.out;
  EXPECT_NE(csv.out.find("\"copy(const float *, float *, int)\",\"1\",\"7\",\"(128, 1, 1)\",\"(8, 1, 1)\",\"0\",\"9.0\""),
            std::string::npos)
      << csv.out;
  EXPECT_NE(csv.out.find("\"12,336\""), std::string::npos) << csv.out;
  EXPECT_NE(csv.out.find("\"1,500.25\""), std::string::npos) << csv.out;
  const Shell cmp = shell(exe_ + " compare --csv " + (dir_ / "out.ncu-rep").string() + " " + (dir_ / "r.json").string());
  EXPECT_EQ(cmp.code, 0) << cmp.out;
  EXPECT_NE(cmp.out.find("\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"sector\",\"12,336\",\"12,336\",\"1.000\""),
            std::string::npos)
      << cmp.out;
}

// Source counters of a real run: tests/export/data/source_counters.cu through the interpreter,
// written to an .ncu-rep and read back. Every expected count is derived by hand in that file's
// header (1024 threads = 32 warps of consecutive 4-byte floats; the load shifted by one float
// spans 5 sectors instead of 4), not taken from warpscope's own report.
TEST_F(NcuRepCli, SourceCountersPerLineAndInstruction) {
  const std::string path = "PATH=\"$PATH:/usr/local/cuda/bin\" ";
  if (shell(path + "command -v nvcc").code != 0) GTEST_SKIP() << "nvcc is not installed";
  const std::string cu = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/export/data/source_counters.cu";
  const std::string rep = (dir_ / "sc.ncu-rep").string();
  // Without the machine code (WARPSCOPE_SASS=none, as on a profile other than sm_90) the
  // per-instruction counters are keyed by PTX instruction; with it, by machine-instruction address
  // (ncu_rep_sass_test.cpp).
  const Shell run = shell(path + "WARPSCOPE_SASS=none " + exe_ + " run --no-summary -o " + rep + " " + cu);
  ASSERT_EQ(run.code, 0) << run.out;
  const auto r = warpscope::ncurep::read_report_file(rep);
  ASSERT_EQ(r.results.size(), 1u);
  const auto& res = r.results[0];
  // Per CUDA line, keyed "FILE:LINE": line 14 (A) and line 16 (B) of the .cu file.
  auto line = [&](const std::string& metric, int l) -> double {
    const auto* list = res.find_instances(metric);
    if (list == nullptr) return -1;
    for (const auto& [k, v] : *list)
      if (k.text == cu + ":" + std::to_string(l)) return v.number;
    return 0;  // a line without the counter (a zero on every line leaves the metric out)
  };
  EXPECT_EQ(line("warpscope__line_requests_global", 14), 32);
  EXPECT_EQ(line("warpscope__line_sectors_global", 14), 160);
  EXPECT_EQ(line("warpscope__line_sectors_global_ideal", 14), 128);
  EXPECT_EQ(line("warpscope__line_sectors_global_excessive", 14), 32);
  EXPECT_EQ(line("warpscope__line_wavefronts_shared", 14), 32);
  EXPECT_EQ(line("warpscope__line_requests_global", 16), 32);
  EXPECT_EQ(line("warpscope__line_sectors_global", 16), 128);
  EXPECT_EQ(line("warpscope__line_sectors_global_excessive", 16), 0);
  EXPECT_EQ(line("warpscope__line_wavefronts_shared", 16), 32);
  EXPECT_EQ(res.find_instances("warpscope__line_wavefronts_shared_excessive"), nullptr);  // no conflicts
  // Per PTX instruction (keyed by its index in the kernel's PTX): the four memory instructions,
  // in program order ld.global (A), st.shared (A), ld.shared (B), st.global (B).
  auto values = [&](const std::string& metric) {
    std::vector<double> out;
    if (const auto* list = res.find_instances(metric))
      for (const auto& [k, v] : *list) {
        EXPECT_EQ(k.kind, warpscope::ncurep::Value::Kind::kUint64) << metric;
        out.push_back(v.number);
      }
    return out;
  };
  EXPECT_EQ(values("inst_executed"), (std::vector<double>{32, 32, 32, 32}));
  EXPECT_EQ(values("thread_inst_executed"), (std::vector<double>{1024, 1024, 1024, 1024}));
  // Tag requests: the distinct 128-byte lines of each request (the shifted load spans two).
  EXPECT_EQ(values("memory_l1_tag_requests_global"), (std::vector<double>{64, 32}));
  EXPECT_EQ(values("memory_l2_theoretical_sectors_global"), (std::vector<double>{160, 128}));
  EXPECT_EQ(values("memory_l2_theoretical_sectors_global_ideal"), (std::vector<double>{128, 128}));
  EXPECT_EQ(values("derived__memory_l2_theoretical_sectors_global_excessive"), (std::vector<double>{32, 0}));
  EXPECT_EQ(values("memory_l1_wavefronts_shared"), (std::vector<double>{32, 32}));
  // The instanced metrics are not launch metrics: the raw page has none of them.
  EXPECT_EQ(res.find("inst_executed"), nullptr);
  EXPECT_EQ(warpscope::ncurep::raw_csv(r).find("warpscope__line"), std::string::npos);
  // Nsight Compute, where installed, reads the same instance values (its raw page prints them in
  // file order; 2022.3's source page has no SASS to place them on).
  if (shell("command -v ncu").code != 0) {
    std::fprintf(stderr, "ncu is not installed: Nsight Compute's reading is not checked\n");
    return;
  }
  const Shell ncu = shell("ncu --import " + rep + " --page raw --csv --print-metric-instances values");
  EXPECT_EQ(ncu.code, 0) << ncu.out;
  EXPECT_NE(ncu.out.find("\"(160; 128)\""), std::string::npos) << ncu.out;
  EXPECT_NE(ncu.out.find("\"(32; 32; 32; 32)\""), std::string::npos) << ncu.out;
}

}  // namespace
