// Processes and the report's life (issue 32, docs/runtime.md "Processes and the report's
// life"): a script that runs two CUDA programs, a program that starts another, ncu's
// --target-processes, a host crash and a SIGKILL after launches, launches from atexit handlers
// and static destructors, and a forked child's CUDA calls. Program:
// tests/runtime/programs/processes.cu. Expected values come from the program's own arithmetic
// (each `bump` launch adds 32) and from what the GPU does (ncu's process columns; a fork child's
// answer, docs/runtime.md).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "harness.hpp"

namespace {

class Processes : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }

  struct Run {
    rt_test::Result r;
    nlohmann::json report;
  };

  Run run(const std::string& tag, const std::string& options, const std::string& command) {
    const std::string json = rt_test::prog("processes_" + tag + ".json");
    std::filesystem::remove(json);
    Run out;
    const std::string threads = options.find("--threads") == std::string::npos ? " --threads 2" : "";
    out.r = rt_test::run_shell(exe_ + " run" + threads + " --json " + json + " " + options + " -- " + command);
    std::ifstream in(json);
    if (in) out.report = nlohmann::json::parse(in, nullptr, false);
    std::filesystem::remove(json);
    return out;
  }

  std::string script(const std::string& name, const std::string& body) {
    const std::string path = rt_test::prog(name);
    std::ofstream(path) << "#!/bin/sh\n" << body;
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
  }

  static std::vector<std::string> launch_processes(const nlohmann::json& report) {
    std::vector<std::string> v;
    for (const auto& l : report["launches"]) v.push_back(l["process"]["name"].get<std::string>());
    return v;
  }

  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
  std::string prog_ = rt_test::prog("processes");
};

TEST_F(Processes, AScriptRunningTwoProgramsGivesOneReportWithBoth) {
  const std::string s = script("two_programs.sh", prog_ + " count 2 first\n" + prog_ + " count 3 second\n");
  const Run x = run("two", "", s);
  ASSERT_EQ(x.r.exit_code, 0) << x.r.err;
  EXPECT_NE(x.r.out.find("first sum=64"), std::string::npos) << x.r.out;
  EXPECT_NE(x.r.out.find("second sum=96"), std::string::npos) << x.r.out;
  ASSERT_TRUE(x.report.is_object()) << x.r.err;
  ASSERT_EQ(x.report["processes"].size(), 2u);
  ASSERT_EQ(x.report["launches"].size(), 5u);
  // In order: the first program's two launches, then the second's three, numbered 0..4.
  const long first = x.report["processes"][0]["pid"], second = x.report["processes"][1]["pid"];
  EXPECT_NE(first, second);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(x.report["launches"][i]["index"], i);
    EXPECT_EQ(x.report["launches"][i]["process"]["pid"], i < 2 ? first : second);
    EXPECT_EQ(x.report["launches"][i]["process_index"], i < 2 ? i : i - 2);
  }
  EXPECT_EQ(x.report["processes"][0]["args"][3], "first");
  EXPECT_EQ(x.report["processes"][1]["launches"], 3);
  // The summary names both processes; ncu's CSV gives each row its own process ID.
  EXPECT_NE(x.r.err.find("2 processes:"), std::string::npos) << x.r.err;
  const Run csv = run("two_csv", "--csv --metrics smsp__inst_executed.sum", s);
  ASSERT_EQ(csv.r.exit_code, 0) << csv.r.err;
  const std::string p1 = "\"" + std::to_string(csv.report["processes"][0]["pid"].get<long>()) + "\",\"processes\"";
  const std::string p2 = "\"" + std::to_string(csv.report["processes"][1]["pid"].get<long>()) + "\",\"processes\"";
  EXPECT_NE(csv.r.out.find("\"0\"," + p1), std::string::npos) << csv.r.out;
  EXPECT_NE(csv.r.out.find("\"4\"," + p2), std::string::npos) << csv.r.out;
}

TEST_F(Processes, AChildProcessIsProfiledUnlessApplicationOnly) {
  const Run all = run("spawn", "", prog_ + " spawn " + prog_);
  ASSERT_EQ(all.r.exit_code, 0) << all.r.err;
  EXPECT_NE(all.r.out.find("child sum=64"), std::string::npos) << all.r.out;
  ASSERT_EQ(all.report["launches"].size(), 4u);
  ASSERT_EQ(all.report["processes"].size(), 2u);
  EXPECT_TRUE(all.report["processes"][0]["root"].get<bool>());
  EXPECT_FALSE(all.report["processes"][1]["root"].get<bool>());
  EXPECT_EQ(all.report["processes"][1]["ppid"], all.report["processes"][0]["pid"].get<long>() == 0
                                                     ? nlohmann::json(0)
                                                     : all.report["processes"][1]["ppid"]);
  // The parent's launch, the child's two, the parent's second: in the order they ended.
  const long root = all.report["processes"][0]["pid"];
  const std::vector<bool> from_root = {true, false, false, true};
  for (std::size_t i = 0; i < 4; ++i) EXPECT_EQ(all.report["launches"][i]["process"]["pid"] == root, from_root[i]) << i;

  const Run only = run("spawn_only", "--target-processes application-only", prog_ + " spawn " + prog_);
  ASSERT_EQ(only.r.exit_code, 0) << only.r.err;
  EXPECT_NE(only.r.out.find("child sum=64"), std::string::npos) << only.r.out;  // the child still runs
  ASSERT_EQ(only.report["launches"].size(), 2u);
  EXPECT_EQ(only.report["processes"].size(), 1u);
}

TEST_F(Processes, AHostCrashKeepsTheFinishedLaunches) {
  const Run x = run("crash", "", prog_ + " crash");
  EXPECT_EQ(x.r.exit_code, 128 + 11) << x.r.err;  // SIGSEGV, as a shell reports it
  EXPECT_NE(x.r.out.find("before crash sum=32"), std::string::npos);
  ASSERT_TRUE(x.report.is_object()) << x.r.err;
  ASSERT_EQ(x.report["launches"].size(), 1u);
  EXPECT_EQ(x.report["launches"][0]["kernel"], "_Z4bumpPi");
  EXPECT_EQ(x.report["processes"][0]["report_source"], "stream");
  EXPECT_NE(x.r.err.find("the report holds the 1 launch that finished"), std::string::npos) << x.r.err;
  EXPECT_NE(x.r.err.find("ended without writing its report"), std::string::npos) << x.r.err;
}

TEST_F(Processes, ASigkillKeepsTheFinishedLaunches) {
  const Run x = run("sigkill", "", prog_ + " sigkill");
  EXPECT_EQ(x.r.exit_code, 128 + 9) << x.r.err;
  ASSERT_TRUE(x.report.is_object()) << x.r.err;
  ASSERT_EQ(x.report["launches"].size(), 1u);
  EXPECT_GT(x.report["launches"][0]["metrics"]["smsp__inst_executed.sum"].get<double>(), 0);
}

// The exit paths answer as on the H200 (tests/hw/data/h200/issue32/processes.txt): an atexit
// handler registered after the program's first CUDA call runs before the runtime's teardown (its
// calls work); one registered before it, and a static destructor, run after it
// (cudaErrorCudartUnloading). The report holds the launches that ran, and nothing is corrupted.
TEST_F(Processes, ExitPathsAnswerAsTheH200) {
  const std::string gpu =
      rt_test::slurp(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h200/issue32/processes.txt");
  auto section = [&](const std::string& mode) {
    const std::size_t at = gpu.find("## processes " + mode + "\n");
    if (at == std::string::npos) return std::string();
    const std::size_t from = gpu.find('\n', at) + 1;
    return gpu.substr(from, gpu.find("rc=", from) - from);
  };
  const Run paths = run("exit_paths", "", prog_ + " exit_paths");
  ASSERT_EQ(paths.r.exit_code, 0) << paths.r.err;
  EXPECT_EQ(paths.r.out, section("exit_paths"));
  ASSERT_TRUE(paths.report.is_object()) << paths.r.err;
  EXPECT_EQ(paths.report["launches"].size(), 1u);
  const Run errors = run("exit_errors", "", prog_ + " exit_errors");
  ASSERT_EQ(errors.r.exit_code, 0) << errors.r.err;
  EXPECT_EQ(errors.r.out, section("exit_errors"));
  EXPECT_EQ(errors.report["launches"].size(), 2u);  // main's and the late atexit handler's
  EXPECT_NE(errors.r.err.find("cudaErrorCudartUnloading, as on a GPU"), std::string::npos) << errors.r.err;
}

TEST_F(Processes, AForkedChildsCudaCallsFailAsOnAGpu) {
  const Run x = run("fork", "", prog_ + " fork");
  ASSERT_EQ(x.r.exit_code, 0) << x.r.err;
  EXPECT_NE(x.r.out.find("parent malloc cudaSuccess"), std::string::npos) << x.r.out;
  EXPECT_NE(x.r.out.find("child malloc cudaErrorInitializationError"), std::string::npos) << x.r.out;
  EXPECT_NE(x.r.out.find("child launch cudaErrorInitializationError"), std::string::npos) << x.r.out;
  EXPECT_NE(x.r.out.find("parent copy cudaSuccess sum=32"), std::string::npos) << x.r.out;
  EXPECT_NE(x.r.err.find("in a child forked from a process that used CUDA"), std::string::npos) << x.r.err;
  ASSERT_TRUE(x.report.is_object()) << x.r.err;
  EXPECT_EQ(x.report["launches"].size(), 1u);  // the parent's only
}

// One CTA of 8 warps that issues 4 million global load requests (500000 iterations). Merged only
// at the CTA's end, its records made the process peak at 2.3 GB (measured with the merge as it
// runs switched off); merged as it runs, the process stays near its fixed size (about 170 MB).
TEST_F(Processes, ALongCtaRunsInBoundedMemory) {
  const Run x = run("long_cta", "--threads 1", rt_test::prog("long_cta") + " 500000");
  ASSERT_EQ(x.r.exit_code, 0) << x.r.err;
  ASSERT_EQ(x.report["launches"].size(), 1u);
  const auto& l = x.report["launches"][0];
  EXPECT_EQ(l["metrics"]["smsp__sass_inst_executed_op_global_ld.sum"], 8 * 500000);
  EXPECT_LT(l["host_peak_rss_bytes"].get<double>(), 300e6) << "peak resident memory";
}

// The same output in every run and for every --threads, for a program whose result depends on
// the order of its CTAs' global atomics (a float sum, slots taken with atomicAdd): such a
// kernel's CTAs run in CTA order on one host thread. In CTA order the slots are 0, 1, 2, ...
TEST_F(Processes, OrderDependentAtomicsGiveOneAnswer) {
  std::string first;
  for (const char* threads : {"1", "2", "4", "2", "4", "3"}) {
    const Run x = run(std::string("atomic_order_") + threads, std::string("--threads ") + threads,
                      rt_test::prog("atomic_order"));
    ASSERT_EQ(x.r.exit_code, 0) << x.r.err;
    if (first.empty()) first = x.r.out;
    EXPECT_EQ(x.r.out, first) << "--threads " << threads;
  }
  EXPECT_NE(first.find("first 0 1 2\n"), std::string::npos) << first;
}

// A local array read past its end: inside the stack after the thread's frame the GPU runs it and
// memcheck reports it (32 lanes, space "local", 8 bytes past the 16-byte frame); past that stack,
// or under --memcheck strict, the launch faults.
TEST_F(Processes, LocalOverrunsInsideTheStackRunAndAreReported) {
  const Run in = run("local_in", "", rt_test::prog("local_overrun") + " 5");
  ASSERT_EQ(in.r.exit_code, 0) << in.r.err;
  EXPECT_EQ(in.r.out, "cudaSuccess\n");
  ASSERT_TRUE(in.report.is_object()) << in.r.err;
  const auto& mc = in.report["launches"][0]["memcheck"];
  EXPECT_EQ(mc["errors"], 32);
  ASSERT_EQ(mc["first"].size(), 1u);
  EXPECT_EQ(mc["first"][0]["space"], "local");
  EXPECT_EQ(mc["first"][0]["address"], 20);  // a[5]: byte 20 of the frame
  EXPECT_NE(mc["first"][0]["relation"].get<std::string>().find("8 bytes past the end of the thread's 16-byte local frame"),
            std::string::npos);
  const Run far = run("local_far", "", rt_test::prog("local_overrun") + " 4096");
  EXPECT_EQ(far.r.out, "cudaErrorIllegalAddress\n") << far.r.err;
  const Run strict = run("local_strict", "--memcheck strict", rt_test::prog("local_overrun") + " 5");
  EXPECT_EQ(strict.r.out, "cudaErrorIllegalAddress\n") << strict.r.err;
  EXPECT_NE(strict.r.err.find("(--memcheck strict)"), std::string::npos) << strict.r.err;
}

}  // namespace
