// `warpscope sanitize --tool synccheck` on named barriers with thread counts and on cluster
// barriers reached by part of a cluster (tests/hw/sanitize/sync_probe.cu), against the H200's
// runs (tests/hw/data/h200/sanitize/sync/sync_sanitize.txt; its README says what each shows).
// compute-sanitizer 2025.3.1's synccheck reports none of these modes; the plain runs give the
// program's own lines (cudaSuccess, or cudaErrorIllegalInstruction for counts that differ between
// warps or are not a multiple of 32). The H200 hangs on a named barrier whose count the live warps
// never reach; warpscope ends that launch with a deadlock message instead.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"
#include "sanitize_text.hpp"

namespace {

using rt_test::prog;

struct Lines {
  std::vector<std::string> tool;     // "=========" lines
  std::vector<std::string> program;  // the program's own
};

Lines split(const std::string& text) {
  Lines out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) (line.rfind("=========", 0) == 0 ? out.tool : out.program).push_back(line);
  return out;
}

class SanitizeSync : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
    gpu_ = rt_test::slurp(std::string(WARPSCOPE_HW_DATA_DIR) + "/h200/sanitize/sync/sync_sanitize.txt");
    ASSERT_FALSE(gpu_.empty());
  }
  /// The H200's output of the run under `head` ("## MODE TOOL"), and its exit status.
  std::string h200(const std::string& head, std::string* rc = nullptr) const {
    const std::size_t at = gpu_.find(head + "\n");
    if (at == std::string::npos) return {};
    const std::size_t from = at + head.size() + 1;
    const std::size_t end = gpu_.find("rc=", from);
    if (rc) *rc = gpu_.substr(end + 3, gpu_.find('\n', end) - end - 3);
    return gpu_.substr(from, end - from);
  }
  rt_test::Result sanitize(const std::string& mode, unsigned threads = 1) {
    return rt_test::run_shell(exe_ + " sanitize --threads " + std::to_string(threads) + " --tool synccheck -- " +
                              prog("sync_probe " + mode));
  }
  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
  std::string gpu_;
};

// Every mode the H200 completes: no synccheck report (ERROR SUMMARY: 0 errors) and the program's
// line of the plain run, for one and for two host threads. Clean named barriers (bar.sync 1,64 by 2
// of 4 warps; bar.arrive/bar.sync producer and consumer: out 0 5 0 0), counts that differ between
// warps (64 and 96) or are not a multiple of 32 (48): cudaErrorIllegalInstruction; and the cluster
// barrier reached by every CTA, by rank 0 only (rank 1 exited: exited threads count as arrived),
// at two different call sites, by warp 0 of each CTA only, and arrived at without a wait: cudaSuccess.
TEST_F(SanitizeSync, SynccheckAsTheH200Reports) {
  for (const char* mode : {"named_ok", "named_mismatch", "named_not_multiple", "arrive_sync", "cluster_ok", "cluster_exit",
                           "cluster_branch", "cluster_part_cta", "cluster_arrive"}) {
    std::string rc;
    const std::string want = h200(std::string("## ") + mode + " synccheck", &rc);
    ASSERT_EQ(rc, "0") << mode;
    const std::string plain = h200(std::string("## ") + mode + " none");
    ASSERT_EQ(split(want).program, split(plain).program) << mode;
    for (unsigned threads : {1u, 2u}) {
      const auto r = sanitize(mode, threads);
      EXPECT_EQ(r.exit_code, 0) << mode << "\n" << r.out << r.err;
      EXPECT_EQ(split(r.out).tool, split(want).tool) << mode << "\n" << r.out;
      EXPECT_EQ(split(r.out).program, split(want).program) << mode << "\n" << r.out;
    }
  }
}

}  // namespace

namespace {

// bar.sync 1, 64 reached by warp 0 after warp 1 has exited: exited warps do not count for a barrier
// with a thread count, so the H200 hangs (killed by `timeout`, rc=124, under synccheck too). warpscope
// ends the launch with its deadlock message naming the barrier, the waiting warp and the exited one,
// the program sees cudaErrorLaunchFailure, and synccheck reports nothing.
TEST(SanitizeSyncHang, NamedBarrierCountNeverReachedEndsWithADeadlockMessage) {
  const std::string exe = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
  if (!std::filesystem::exists(exe)) GTEST_SKIP() << exe << " not built";
  const std::string gpu = rt_test::slurp(std::string(WARPSCOPE_HW_DATA_DIR) + "/h200/sanitize/sync/sync_sanitize.txt");
  ASSERT_NE(gpu.find("## named_short none\nrc=124\n"), std::string::npos);
  const auto r = rt_test::run_shell(exe + " sanitize --tool synccheck -- " + rt_test::prog("sync_probe named_short"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string all = r.out + r.err;
  EXPECT_NE(all.find("barrier deadlock in kernel named_short(int, int*) [_Z11named_shortiPi], block (0,0,0): no warp "
                     "can run; barrier 1 waits for 2 warps, 1 arrived: warp 0 at "),
            std::string::npos)
      << all;
  EXPECT_NE(all.find("sync_probe.cu:50; exited: warps 1"), std::string::npos) << all;
  EXPECT_NE(r.out.find("named_short: launch cudaSuccess, sync cudaErrorLaunchFailure, copy cudaErrorLaunchFailure, "
                       "out -1 -1 -1 -1\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("========= ERROR SUMMARY: 0 errors\n"), std::string::npos) << r.out;
}

}  // namespace

namespace {

// Under memcheck a named-barrier count the H200 stops on (tests/hw/data/h200/sanitize/sync) is one
// launch fault, its line naming the reason once: the runtime's error (cudaErrorIllegalInstruction,
// as the H200's), then the interpreter's message (the barrier and the counts, as on the H200), the
// kernel, its line (sync_probe.cu's `// sync: named two counts`) and the first faulting thread:
// thread 0 for a count of 48, the first thread of warp 1 for counts 64 and 96.
TEST(SanitizeSyncFault, TheFailureLineNamesTheIllegalInstructionOnce) {
  const std::string exe = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
  if (!std::filesystem::exists(exe)) GTEST_SKIP() << exe << " not built";
  const std::string head = "========= Error: kernel named_two_counts(int, int, int *) (launch #0) failed: ";
  const std::string line = std::to_string(rt_test::line_in(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/sanitize/sync_probe.cu",
                                                           "// sync: named two counts"));
  struct Case {
    const char* mode;
    const char* message;
    const char* thread;
  };
  for (const Case& c : {Case{"named_not_multiple", "barrier 1: thread count 48 is not a multiple of the warp size", "0"},
                        Case{"named_mismatch",
                             "barrier 1: warp 1 arrives with thread count 96 while other warps arrived with 64 in "
                             "this phase",
                             "32"}}) {
    const auto r = rt_test::run_shell(exe + " sanitize --tool memcheck --show-backtrace no -- " +
                                      rt_test::prog(std::string("sync_probe ") + c.mode));
    EXPECT_EQ(r.exit_code, 0) << c.mode << r.out << r.err;
    const std::size_t at = r.out.find(head);
    ASSERT_NE(at, std::string::npos) << c.mode << "\n" << r.out;
    const std::string fault = r.out.substr(at, r.out.find('\n', at) - at);
    EXPECT_EQ(fault.substr(0, fault.find(" at ")),
              head + "cudaErrorIllegalInstruction: " + c.message +
                  " (as on the H200) in kernel named_two_counts(int, int, int*) [_Z16named_two_countsiiPi]")
        << fault;
    EXPECT_NE(fault.find("sync_probe.cu:" + line + " ("), std::string::npos) << fault;
    EXPECT_EQ(fault.substr(fault.rfind(", block ")), std::string(", block (0,0,0), thread (") + c.thread + ",0,0)") << fault;
    std::size_t mentions = 0;
    for (std::size_t p = fault.find("llegal"); p != std::string::npos; p = fault.find("llegal", p + 1)) ++mentions;
    EXPECT_EQ(mentions, 1u) << fault;
  }
}

}  // namespace
