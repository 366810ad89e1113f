// racecheck across a cluster's distributed shared memory (docs/sanitize.md), on
// tests/runtime/programs/cluster_race.cu: rank 0's thread t stores into word t of rank 1's `buf`
// (its first shared variable, offset 0), rank 1's thread t reads it. Expected from the PTX ISA's
// memory-consistency rules and the interpreter's schedule (a cluster's CTAs take turns in rank
// order, a turn running until the CTA waits; docs/exec.md):
//  - nobarrier: nothing orders the two. Rank 0 stops at the first cluster barrier; rank 1 arrives
//    last, goes on and reads its buf (100 + t) before rank 0 stores: one WAR report, the read by
//    thread (0,0,0) of block (1,0,0), the write by thread (0,0,0) of block (0,0,0), at byte 0 of
//    block 1's memory; 32 threads x 4 bytes = 128 hazards. Output 101 131.
//  - relaxed: barrier.cluster.arrive.relaxed has no release semantics, so its wait orders nothing;
//    here rank 1 waits for rank 0's arrival, so rank 0 stores first: one RAW report, 128 hazards.
//    Output 3 93 (t * 3).
//  - mbar_cta: the arrive is .release.cluster but rank 1's try_wait has the default .acquire.cta:
//    the two are not morally strong (the wait's scope does not hold the other CTA's thread), so
//    nothing synchronizes: RAW for every thread, thread 0's store too, 128 hazards.
//  - barrier (arrive.release / wait.acquire), mbar_cluster (try_wait.acquire.cluster; the other
//    threads' stores reach thread 0's release through __syncthreads, cumulativity), flag
//    (st.release.cluster of a peer's flag, ld.acquire.cluster spin on it): no hazard.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "harness.hpp"

namespace {

using rt_test::prog;

const std::string kSource = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/runtime/programs/cluster_race.cu";

unsigned line_of(const std::string& text) {
  std::ifstream in(kSource);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  ADD_FAILURE() << text << " not in " << kSource;
  return 0;
}

std::string masked(const std::string& s) { return std::regex_replace(s, std::regex(R"(\+0x[0-9a-f]+)"), "+0x?"); }

class ClusterRace : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }
  rt_test::Result sanitize(const std::string& options, const std::string& mode, unsigned threads = 1) {
    return rt_test::run_shell(exe_ + " sanitize --show-backtrace no --threads " + std::to_string(threads) +
                              " --tool racecheck " + options + " -- " + prog("cluster_race") + " " + mode);
  }
  std::string at(const char* text) const {
    return "exchange(unsigned int *, int)+0x? in cluster_race.cu:" + std::to_string(line_of(text));
  }
  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
};

TEST_F(ClusterRace, AMissingClusterBarrierIsAHazardNamingBothBlocks) {
  const auto r = sanitize("--racecheck-report hazard --error-exitcode 7", "nobarrier");
  EXPECT_EQ(r.exit_code, 7) << r.err;
  EXPECT_EQ(masked(r.out), "========= COMPUTE-SANITIZER\nnobarrier: cudaSuccess 101 131\n"
                           "========= Error: Potential WAR hazard detected at __shared__ 0x0 in block (1,0,0) :\n"
                           "=========     Read Thread (0,0,0) in block (1,0,0) at " + at("// read of what the peer stored") + "\n"
                           "=========     Write Thread (0,0,0) in block (0,0,0) at " + at("// store to the peer") + "\n"
                           "========= \n"
                           "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n");
}

TEST_F(ClusterRace, AnalysisReportCountsEveryThreadsBytes) {
  const auto r = sanitize("", "nobarrier");
  // The location in the most pairs leads; a tie (one pair) goes to the lower instruction, the store.
  EXPECT_EQ(masked(r.out), "========= COMPUTE-SANITIZER\nnobarrier: cudaSuccess 101 131\n"
                           "========= Error: Race reported between Write access at " + at("// store to the peer") + "\n"
                           "=========     and Read access at " + at("// read of what the peer stored") + " [128 hazards]\n"
                           "========= \n"
                           "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n");
}

TEST_F(ClusterRace, AReleaseAcquireClusterBarrierOrdersThePeersStore) {
  const auto r = sanitize("--racecheck-report all", "barrier");
  EXPECT_EQ(r.out, "========= COMPUTE-SANITIZER\nbarrier: cudaSuccess 3 93\n"
                   "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n");
}

TEST_F(ClusterRace, ARelaxedClusterBarrierOrdersNothing) {
  const auto r = sanitize("--racecheck-report hazard", "relaxed");
  EXPECT_EQ(masked(r.out), "========= COMPUTE-SANITIZER\nrelaxed: cudaSuccess 3 93\n"
                           "========= Error: Potential RAW hazard detected at __shared__ 0x0 in block (1,0,0) :\n"
                           "=========     Write Thread (0,0,0) in block (0,0,0) at " + at("// store to the peer") + "\n"
                           "=========     Read Thread (0,0,0) in block (1,0,0) at " + at("// read of what the peer stored") + "\n"
                           "========= \n"
                           "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n");
}

// compute-sanitizer's report of the corpus's ring (tests/hw/data/h200/sanitize/corpus,
// ClusterMbarrier.PeersArriveOnEachOthersMbarriersAroundARing) has this shape: a remote
// mbarrier.arrive.release.cluster and a try_wait of the default .cta scope.
TEST_F(ClusterRace, ACtaScopeMbarrierWaitDoesNotAcquireAnotherCtasRelease) {
  const auto r = sanitize("", "mbar_cta");
  EXPECT_EQ(masked(r.out), "========= COMPUTE-SANITIZER\nmbar_cta: cudaSuccess 3 93\n"
                           "========= Error: Race reported between Write access at " + at("// store to the peer") + "\n"
                           "=========     and Read access at " + at("// read of what the peer stored") + " [128 hazards]\n"
                           "========= \n"
                           "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n");
}

TEST_F(ClusterRace, AClusterScopeMbarrierWaitOrdersEveryThreadsStoreBeforeTheArrive) {
  const auto r = sanitize("--racecheck-report all", "mbar_cluster");
  EXPECT_EQ(r.out, "========= COMPUTE-SANITIZER\nmbar_cluster: cudaSuccess 3 93\n"
                   "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n");
}

TEST_F(ClusterRace, AReleaseAcquireFlagOrdersThePeersStore) {
  const auto r = sanitize("--racecheck-report all", "flag");
  EXPECT_EQ(r.out, "========= COMPUTE-SANITIZER\nflag: cudaSuccess 3 93\n"
                   "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n");
}

TEST_F(ClusterRace, FindingsAreTheSameForAnyThreadCount) {
  for (const std::string mode : {"nobarrier", "mbar_cta"})
    EXPECT_EQ(sanitize("--racecheck-report all", mode, 1).out, sanitize("--racecheck-report all", mode, 4).out) << mode;
}

}  // namespace
