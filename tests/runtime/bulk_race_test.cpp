// racecheck of bulk copies, TMA copies and cooperative launches (docs/sanitize.md), on
// tests/hw/sanitize/bulk_race_probe.cu, whose modes the H200 ran under compute-sanitizer
// (tests/hw/data/h200/sanitize/bulk_race). Expected from the PTX ISA's rules for the async proxy
// (a bulk or tensor copy's shared-memory writes are visible to the threads that observed its
// mbarrier phase complete; a bulk_group operation's source is read until the issuing thread's
// cp.async.bulk.wait_group.read) and the interpreter's schedule (warps round-robin in index order;
// a copy is made when issued, so its write comes before the reads that race with it):
//  - bulk_early / tma_early: thread 0 issues a 512-byte copy into buf, each of the 128 threads
//    reads its word of buf before waiting: a RAW per byte, 128 x 4 = 512 hazards, the issuing
//    warp's (threads 0-31, thread 0's own read too) warnings, the others errors: one analysis
//    report, an error (as the H200's for bulk_early), the hazard report's sample the first error:
//    thread 32 at byte 0x80;
//  - tma_write: each thread writes its word of the destination before the wait: WAW, 512;
//  - store_early: each thread writes the source of thread 0's bulk store before its
//    wait_group.read: WAR, 512, all errors (the copy is no thread's access);
//  - peer_early / peer_red_early: rank 0's copy (reduction) into rank 1's buf, read by rank 1's 128
//    threads before their wait: RAW, 512, all errors (another CTA);
//  - coop_race: 4 blocks of 64 threads, each as race.cu's raw: per block warp 1's writes after warp
//    0's reads (WAR, 128) and its reads of warp 0's writes (RAW, 128): 1024 in one report, as the
//    H200's;
//  - the _ok modes: no hazard.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"

namespace {

using rt_test::prog;

const std::string kSource = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/sanitize/bulk_race_probe.cu";
const std::string kMore = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/runtime/programs/bulk_race_more.cu";

/// "file.cu:N", N the 1-based line of `file` that contains `text`.
std::string line_of(const std::string& text, const std::string& file = kSource) {
  std::ifstream in(file);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return std::filesystem::path(file).filename().string() + ":" + std::to_string(n);
  ADD_FAILURE() << text << " not in " << file;
  return "";
}

std::string masked(const std::string& s) { return std::regex_replace(s, std::regex(R"(\+0x[0-9a-f]+)"), "+0x?"); }

class BulkRace : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }
  rt_test::Result sanitize(const std::string& options, const std::string& mode, unsigned threads = 1,
                           const std::string& program = "bulk_race_probe") {
    return rt_test::run_shell(exe_ + " sanitize --show-backtrace no --threads " + std::to_string(threads) +
                              " --tool racecheck " + options + " -- " + prog(program) + " " + mode);
  }
  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
};

const std::string kLoad = "bulk_load(const int *, int *, int)+0x? in ";
const std::string kTma = "tma_load(CUtensorMap_st, int *, int)+0x? in ";

/// One analysis report of `n` hazards between `first` and `second` (access and location), an error.
std::string analysis(const std::string& mode, const std::string& first, const std::string& second, unsigned n) {
  return "========= COMPUTE-SANITIZER\n" + mode + ": cudaSuccess\n" + "========= Error: Race reported between " + first +
         "\n=========     and " + second + " [" + std::to_string(n) + " hazards]\n" +
         "========= \n"
         "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n";
}

TEST_F(BulkRace, ABulkCopyReadBeforeItsMbarrierWaitIsARaw) {
  const auto r = sanitize("--racecheck-report all", "bulk_early");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string copy = kLoad + line_of("// bulk: copy"), read = kLoad + line_of("// bulk: early read");
  EXPECT_EQ(masked(r.out),
            "========= COMPUTE-SANITIZER\n"
            "bulk_early: cudaSuccess\n"
            "========= Error: Potential RAW hazard detected at __shared__ 0x80 in block (0,0,0) :\n"
            "=========     Write Thread (0,0,0) at " + copy + "\n"
            "=========     Read Thread (32,0,0) at " + read + "\n"
            "========= \n"
            "========= Error: Race reported between Write access at " + copy + "\n"
            "=========     and Read access at " + read + " [512 hazards]\n"
            "========= \n"
            "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n");
}

TEST_F(BulkRace, ATmaLoadReadOrWrittenBeforeItsMbarrierWaitIsAHazard) {
  const std::string copy = kTma + line_of("// tma: copy");
  const auto early = sanitize("", "tma_early");
  EXPECT_EQ(masked(early.out),
            analysis("tma_early", "Write access at " + copy, "Read access at " + kTma + line_of("// tma: early read"), 512));
  const auto write = sanitize("", "tma_write");
  EXPECT_EQ(masked(write.out), analysis("tma_write", "Write access at " + copy,
                                        "Write access at " + kTma + line_of("// tma: write in flight"), 512));
}

TEST_F(BulkRace, ABulkStoreSourceWrittenBeforeWaitGroupReadIsAWar) {
  const std::string at = "bulk_store(int *, int *, int)+0x? in ";
  const auto r = sanitize("", "store_early");
  EXPECT_EQ(masked(r.out), analysis("store_early", "Read access at " + at + line_of("// store: copy"),
                                    "Write access at " + at + line_of("// store: overwrite"), 512));
}

TEST_F(BulkRace, ACopyIntoAPeerReadBeforeThePeersWaitIsARaw) {
  const std::string at = "peer_copy(int *, int, int)+0x? in ", read = "Read access at " + at + line_of("// peer: early read");
  const auto copy = sanitize("", "peer_early");
  EXPECT_EQ(masked(copy.out), analysis("peer_early", "Write access at " + at + line_of("// peer: copy"), read, 512));
  const auto reduce = sanitize("", "peer_red_early");
  EXPECT_EQ(masked(reduce.out), analysis("peer_red_early", "Write access at " + at + line_of("// peer: reduce"), read, 512));
}

TEST_F(BulkRace, WaitingForTheCopyLeavesNoHazard) {
  for (const char* mode : {"bulk_ok", "tma_ok", "store_ok", "peer_ok", "coop_ok"}) {
    const auto r = sanitize("--racecheck-report all", mode);
    EXPECT_EQ(r.out, "========= COMPUTE-SANITIZER\n" + std::string(mode) +
                         ": cudaSuccess\n========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n")
        << mode << r.err;
  }
}

TEST_F(BulkRace, ACooperativeLaunchIsCheckedPerBlock) {
  const std::string at = "coop(int *, int)+0x? in ", w = at + line_of("// coop: write"), rd = at + line_of("// coop: read");
  const auto r = sanitize("--racecheck-report all", "coop_race");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(masked(r.out),
            "========= COMPUTE-SANITIZER\n"
            "coop_race: cudaSuccess\n"
            "========= Error: Potential WAR hazard detected at __shared__ 0x80 in block (0,0,0) :\n"
            "=========     Read Thread (0,0,0) at " + rd + "\n"
            "=========     Write Thread (32,0,0) at " + w + "\n"
            "========= \n"
            "========= Error: Potential RAW hazard detected at __shared__ 0x0 in block (0,0,0) :\n"
            "=========     Write Thread (0,0,0) at " + w + "\n"
            "=========     Read Thread (32,0,0) at " + rd + "\n"
            "========= \n"
            "========= Error: Race reported between Write access at " + w + "\n"
            "=========     and Read access at " + rd + " [1024 hazards]\n"
            "========= \n"
            "========= RACECHECK SUMMARY: 3 hazards displayed (3 errors, 0 warnings)\n");
  // The CTAs take turns on one host thread whatever --threads says.
  const auto three = sanitize("--racecheck-report all", "coop_race", 3);
  EXPECT_EQ(three.out, r.out);
}

// tests/runtime/programs/bulk_race_more.cu (warpscope's own cases, from the same rules):
//  - one_waits: only thread 0 waits, then __syncthreads orders every thread after its wait: clean;
//  - two_reductions: two bulk reductions into one buffer are no hazard with each other: clean
//    (and 1000 + 2000 in its first word);
//  - stale_phase: threads that waited for phase 0 read what the copy of phase 1 writes before
//    waiting for it: RAW, 128 threads x 4 bytes; the sample the first error (thread 32);
//  - unsynced_store: warp 0's lanes fill buf[0..31] and thread 0 issues the bulk store: its read
//    races with lanes 1-31's writes (RAW, 31 x 4 = 124, warnings: one warp, two instructions);
//    warps 1-3 fill buf[32..127] after it (WAR with the copy's read, 96 x 4 = 384, errors; its
//    wait_group.read made the read thread 0's at that point, which nothing orders them after);
//  - peer_src_reuse: rank 0 overwrites the source of its copy into rank 1 after a __syncthreads:
//    WAR with the copy's read (done only when rank 1's mbarrier phase completes), 128 x 4, errors;
//    the sample thread 0's own write, the first in the schedule;
//  - peer_src_ack: rank 1 arrives back on rank 0's mbarrier (.release.cluster) after its wait, rank
//    0's threads wait on it (.acquire.cluster) before writing: clean.
TEST_F(BulkRace, WarpscopesOwnCases) {
  for (const char* mode : {"one_waits", "two_reductions", "peer_src_ack"}) {
    const auto r = sanitize("--racecheck-report all", mode, 1, "bulk_race_more");
    EXPECT_EQ(r.out, "========= COMPUTE-SANITIZER\n" + std::string(mode) + ": cudaSuccess\n" +
                         (std::string(mode) == "two_reductions" ? "buf[0] = 3000\n" : "") +
                         "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n")
        << mode << r.err;
  }
  const std::string stale = "stale_phase(const int *, int *)+0x? in ", copy = stale + line_of("// more: second copy", kMore),
                    read = stale + line_of("// more: stale read", kMore);
  const auto s = sanitize("--racecheck-report all", "stale_phase", 1, "bulk_race_more");
  EXPECT_EQ(masked(s.out),
            "========= COMPUTE-SANITIZER\n"
            "stale_phase: cudaSuccess\n"
            "========= Error: Potential RAW hazard detected at __shared__ 0x80 in block (0,0,0) :\n"
            "=========     Write Thread (0,0,0) at " + copy + "\n"
            "=========     Read Thread (32,0,0) at " + read + "\n"
            "========= \n"
            "========= Error: Race reported between Write access at " + copy + "\n"
            "=========     and Read access at " + read + " [512 hazards]\n"
            "========= \n"
            "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n");
  const std::string us = "unsynced_store(int *)+0x? in ", fill = us + line_of("// more: fill", kMore),
                    store = us + line_of("// more: store", kMore);
  const auto u = sanitize("--racecheck-report all", "unsynced_store", 1, "bulk_race_more");
  EXPECT_EQ(masked(u.out),
            "========= COMPUTE-SANITIZER\n"
            "unsynced_store: cudaSuccess\n"
            "========= Warning: Potential RAW hazard detected at __shared__ 0x4 in block (0,0,0) :\n"
            "=========     Write Thread (1,0,0) at " + fill + "\n"
            "=========     Read Thread (0,0,0) at " + store + "\n"
            "========= \n"
            "========= Error: Potential WAR hazard detected at __shared__ 0x80 in block (0,0,0) :\n"
            "=========     Read Thread (0,0,0) at " + store + "\n"
            "=========     Write Thread (32,0,0) at " + fill + "\n"
            "========= \n"
            "========= Error: Race reported between Write access at " + fill + "\n"
            "=========     and Read access at " + store + " [508 hazards]\n"
            "========= \n"
            "========= RACECHECK SUMMARY: 3 hazards displayed (2 errors, 1 warning)\n");
  const std::string ps = "peer_src(int *, int)+0x? in ", pcopy = ps + line_of("// more: peer copy", kMore),
                    reuse = ps + line_of("// more: reuse src", kMore);
  const auto p = sanitize("--racecheck-report all", "peer_src_reuse", 1, "bulk_race_more");
  EXPECT_EQ(masked(p.out),
            "========= COMPUTE-SANITIZER\n"
            "peer_src_reuse: cudaSuccess\n"
            "========= Error: Potential WAR hazard detected at __shared__ 0x0 in block (0,0,0) :\n"
            "=========     Read Thread (0,0,0) at " + pcopy + "\n"
            "=========     Write Thread (0,0,0) at " + reuse + "\n"
            "========= \n"
            "========= Error: Race reported between Read access at " + pcopy + "\n"
            "=========     and Write access at " + reuse + " [512 hazards]\n"
            "========= \n"
            "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)\n");
}

// compute-sanitizer's analysis reports (tests/hw/data/h200/sanitize/bulk_race/bulk_race.txt,
// `## MODE racecheck`) against warpscope's, line by line, offsets and addresses masked. The modes
// where the H200 reports nothing that warpscope reports (tma_early, tma_write, store_early,
// peer_early, peer_red_early: compute-sanitizer 2025.3.1 does not follow TMA copies, bulk stores'
// sources or copies into a peer) are in docs/sanitize.md, not here.
TEST_F(BulkRace, ProbeAsTheH200Reports) {
  const std::string gpu =
      rt_test::slurp(std::string(WARPSCOPE_HW_DATA_DIR) + "/h200/sanitize/bulk_race/bulk_race.txt");
  auto norm = [](const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("=========", 0) != 0) continue;
      line = std::regex_replace(line, std::regex(R"(\+0x[0-9a-f]+)"), "+0x?");
      out.push_back(line);
    }
    return out;
  };
  for (const char* mode : {"bulk_early", "bulk_ok", "tma_ok", "store_ok", "peer_ok", "coop_race", "coop_ok"}) {
    const std::string head = std::string("## ") + mode + " racecheck\n";
    const std::size_t at = gpu.find(head);
    ASSERT_NE(at, std::string::npos) << head;
    const std::size_t from = at + head.size();
    const std::string want = gpu.substr(from, gpu.find("\nrc=", from) - from);
    const auto r = sanitize("", mode);
    EXPECT_EQ(norm(r.out), norm(want)) << mode << "\n" << r.out;
  }
}

}  // namespace
