// `warpscope run`'s checks of a program before running it, and the command end to end when the
// warpscope binary is built.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "arch/profile.hpp"
#include "harness.hpp"
#include "run_cmd.hpp"

using warpscope::cli::BinaryCheck;
using warpscope::cli::check_binary;

namespace {
const warpscope::arch::Profile& hopper() { return warpscope::arch::builtin_profile("hopper"); }
}  // namespace

TEST(RunCheck, SharedRuntimeProgramIsRunnable) {
  const BinaryCheck c = check_binary(rt_test::prog("api_test"), hopper());
  EXPECT_EQ(c.kind, BinaryCheck::Kind::kShared);
  EXPECT_TRUE(c.runnable);
  EXPECT_TRUE(c.message.empty()) << c.message;
}

TEST(RunCheck, NvidiaStaticRuntimeIsRunnable) {
  // It reaches warpscope through libcuda.so.1 (docs/runtime.md, "The static CUDA runtime").
  const BinaryCheck c = check_binary(rt_test::prog("fault_nvidia_static"), hopper());
  EXPECT_EQ(c.kind, BinaryCheck::Kind::kNvidiaStatic);
  EXPECT_TRUE(c.runnable);
  EXPECT_TRUE(c.message.empty()) << c.message;
}

TEST(RunCheck, WarpscopeStaticRuntimeIsRecognised) {
  const BinaryCheck c = check_binary(rt_test::prog("many_launches_ws_static"), hopper());
  EXPECT_EQ(c.kind, BinaryCheck::Kind::kWarpscopeStatic);
  EXPECT_TRUE(c.runnable);
}

TEST(RunCheck, MachineCodeOnlyIsRefusedWithTheFlags) {
  const BinaryCheck c = check_binary(rt_test::prog("no_ptx"), hopper());
  EXPECT_FALSE(c.runnable);
  EXPECT_NE(c.message.find("without PTX"), std::string::npos) << c.message;
  EXPECT_NE(c.message.find("-arch=sm_90"), std::string::npos) << c.message;
}

// -rdc=true (CMake's CUDA_SEPARABLE_COMPILATION): the linked image has machine code only, the
// translation units' fatbinaries in __nv_relfatbin have the PTX that the runtime links.
TEST(RunCheck, RelocatableDeviceCodeIsRunnable) {
  for (const char* name : {"rdc", "cdp"}) {
    const BinaryCheck c = check_binary(rt_test::prog(name), hopper());
    EXPECT_TRUE(c.runnable) << name << ": " << c.message;
    EXPECT_TRUE(c.message.empty()) << name << ": " << c.message;
  }
}

TEST(RunCheck, NewerPtxOnlyIsAWarning) {
  const BinaryCheck c = check_binary(rt_test::prog("fb_future"), hopper());
  EXPECT_TRUE(c.runnable);
  EXPECT_NE(c.message.find("compute_100"), std::string::npos) << c.message;
}

TEST(RunCheck, NonCudaProgramsAndScriptsRun) {
  EXPECT_EQ(check_binary("/bin/sh", hopper()).kind, BinaryCheck::Kind::kNotCuda);
  EXPECT_EQ(check_binary(std::string(WARPSCOPE_EXAMPLES_DIR) + "/hw_capture.sh", hopper()).kind,
            BinaryCheck::Kind::kNotElf);
}

TEST(RunSummary, ListsEachLaunch) {
  nlohmann::json j = {{"tool", "warpscope"}, {"arch", "hopper"}, {"gpu", "H100"}, {"memory_model", false},
                      {"launches", nlohmann::json::array()}};
  j["launches"].push_back({{"kernel", "_Z1kv"}, {"name", "k()"}, {"grid", {2, 1, 1}}, {"block", {64, 1, 1}},
                           {"metrics", {{"smsp__inst_executed.sum", 40}}}});
  const std::string s = warpscope::cli::summary_text(j, false);
  EXPECT_NE(s.find("1 kernel launch on hopper"), std::string::npos) << s;
  EXPECT_NE(s.find("k()"), std::string::npos) << s;
  EXPECT_NE(s.find("(2,1,1)"), std::string::npos) << s;
  EXPECT_NE(s.find("40"), std::string::npos) << s;
}

// `warpscope run` end to end (needs the warpscope binary, which needs the memory model).
class WarpscopeRun : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }
  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
};

TEST_F(WarpscopeRun, PassesThroughOutputExitCodeAndWritesJson) {
  const std::string json = rt_test::prog("run_many.json");
  const auto r = rt_test::run_shell(exe_ + " run --json " + json + " -- " + rt_test::prog("many_launches") + " x");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_EQ(r.out, "1000 launches: 500 1000: OK\n");
  EXPECT_NE(r.err.find("1000 kernel launches on hopper"), std::string::npos) << r.err;
  std::ifstream in(json);
  nlohmann::json j;
  in >> j;
  EXPECT_EQ(j["launches"].size(), 1000u);
}

TEST_F(WarpscopeRun, StdinAndArgumentsReachTheProgram) {
  const auto r = rt_test::run_shell("echo hello | " + exe_ + " run --no-summary -- /bin/sh -c 'read x; echo $x $0' arg0");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "hello arg0\n");
}

TEST_F(WarpscopeRun, RunsTheStaticRuntime) {
  const auto r = rt_test::run_shell(exe_ + " run -- " + rt_test::prog("fault_nvidia_static"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("sync: cudaErrorIllegalAddress"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("2 kernel launches on hopper"), std::string::npos) << r.err;
}

TEST_F(WarpscopeRun, CompilesACuFileAndCachesIt) {
  const std::string cache = rt_test::prog("cache");
  std::filesystem::remove_all(cache);
  const std::string cmd = exe_ + " run --cache-dir " + cache + " " + std::string(WARPSCOPE_EXAMPLES_DIR) +
                          "/saxpy.cu -- 1000";
  const auto r = rt_test::run_shell(cmd);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("all saxpy variants OK"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("saxpy1(float*, float*"), std::string::npos) << r.err;
  std::size_t built = 0;
  for (const auto& e : std::filesystem::directory_iterator(cache + "/build")) built += e.is_regular_file();
  EXPECT_EQ(built, 1u);
  const auto again = rt_test::run_shell(cmd);
  EXPECT_EQ(again.exit_code, 0);
}

TEST_F(WarpscopeRun, TextAndHtmlReports) {
  const std::string dir = rt_test::prog("html_saxpy");
  std::filesystem::remove_all(dir);
  const auto r = rt_test::run_shell(exe_ + " run --quiet --html " + dir + " --compare-arch kepler -- " +
                                    rt_test::prog("saxpy") + " 100003");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* part : {"5 kernel launches on hopper", "profiles side by side", "registers, local memory",
                           "worst source lines", "saxpy.cu:25", "[divergence]", "HTML report in"})
    EXPECT_NE(r.err.find(part), std::string::npos) << part << "\n" << r.err;
  const std::string index = rt_test::slurp(dir + "/index.html");
  EXPECT_NE(index.find("saxpy1(float*"), std::string::npos);
  EXPECT_NE(index.find("id=\"launches\""), std::string::npos);
  const std::string page = rt_test::slurp(dir + "/launch_1.html");  // saxpy2: the even-threads branch
  EXPECT_NE(page.find("<svg"), std::string::npos);
  EXPECT_NE(page.find("class=\"src-line\""), std::string::npos);
  EXPECT_NE(page.find("id=\"memory-chart\""), std::string::npos);
  EXPECT_NE(page.find("href=\"launch_1_compare.html\""), std::string::npos);
  EXPECT_NE(rt_test::slurp(dir + "/launch_1_compare.html").find("id=\"compare\""), std::string::npos);
}

TEST_F(WarpscopeRun, MemcheckErrorSummaryAndModes) {
  const auto r = rt_test::run_shell(exe_ + " run -- " + rt_test::prog("oob"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("== memcheck: ERROR SUMMARY: 1 error in 1 launch"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warpscope: memcheck: invalid global read"), std::string::npos) << r.err;
  // off: not printed as it happens, still counted in the summary.
  const auto off = rt_test::run_shell(exe_ + " run --memcheck off -- " + rt_test::prog("oob"));
  EXPECT_EQ(off.err.find("warpscope: memcheck: invalid"), std::string::npos) << off.err;
  EXPECT_NE(off.err.find("ERROR SUMMARY: 1 error"), std::string::npos) << off.err;
  EXPECT_NE(off.out.find("value: 0x5a5a5a5a"), std::string::npos) << off.out;
  const auto strict = rt_test::run_shell(exe_ + " run --memcheck strict -- " + rt_test::prog("oob"));
  EXPECT_NE(strict.out.find("sync: cudaErrorIllegalAddress"), std::string::npos) << strict.out;
  const auto bad = rt_test::run_shell(exe_ + " run --memcheck sometimes -- /bin/true");
  EXPECT_NE(bad.exit_code, 0);
}

TEST_F(WarpscopeRun, RejectsBadProfileNamesAndFractions) {
  const auto a = rt_test::run_shell(exe_ + " run --compare-arch kepler,nosuchgpu -- /bin/true");
  EXPECT_EQ(a.exit_code, 2);
  EXPECT_NE(a.err.find("nosuchgpu"), std::string::npos) << a.err;
  const auto b = rt_test::run_shell(exe_ + " run --sample-ctas 1.5 -- /bin/true");
  EXPECT_NE(b.exit_code, 0);
  EXPECT_NE(b.err.find("sample-ctas"), std::string::npos) << b.err;
}

TEST_F(WarpscopeRun, NoStatsReportsInstructionCountsOnly) {
  // saxpy 100003: 391 CTAs of 256 threads; the program checks its own results either way.
  const std::string json = rt_test::prog("nostats_saxpy.json");
  const auto r = rt_test::run_shell(exe_ + " run --quiet --no-stats --threads 2 --json " + json + " -- " +
                                    rt_test::prog("saxpy") + " 100003");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("no memory model (--no-stats)"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(rt_test::slurp(json));
  EXPECT_EQ(j["memory_model"], false);
  ASSERT_EQ(j["launches"].size(), 5u);
  for (const auto& l : j["launches"]) {
    // Nothing that would need the memory model: no zeros posing as counters.
    EXPECT_EQ(l["metrics"].size(), 2u) << l["metrics"];
    EXPECT_GT(l["metrics"]["smsp__inst_executed.sum"].get<std::uint64_t>(), 0u);
    EXPECT_TRUE(l["lines"].empty());
  }
}
