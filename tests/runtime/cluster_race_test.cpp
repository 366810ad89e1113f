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

#include <string>

#include "harness.hpp"
#include "sanitize_text.hpp"

namespace {

using rt_test::hazard_report;
using rt_test::race_report;
using rt_test::racecheck_summary;
using rt_test::sanitizer_head;

const std::string kSource = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/runtime/programs/cluster_race.cu";

std::string masked(const std::string& s) { return rt_test::masked_offsets(s); }

class ClusterRace : public rt_test::RacecheckTest {
 protected:
  rt_test::Result sanitize(const std::string& options, const std::string& mode, unsigned threads = 1) {
    return racecheck(options, "cluster_race", mode, threads);
  }
  std::string at(const char* text) const {
    return "exchange(unsigned int *, int)+0x? in cluster_race.cu:" + std::to_string(rt_test::line_in(kSource, text));
  }
  /// Rank 0's thread 0 storing into its peer, and rank 1's thread 0 reading what was stored.
  std::string store() const { return "Write Thread (0,0,0) in block (0,0,0) at " + at("// store to the peer"); }
  std::string read() const { return "Read Thread (0,0,0) in block (1,0,0) at " + at("// read of what the peer stored"); }
  /// The analysis report of the store and the read: 32 threads x 4 bytes.
  std::string race() const {
    return race_report("Write access at " + at("// store to the peer"),
                       "Read access at " + at("// read of what the peer stored"), 128);
  }
};

const std::string kInBlock1 = "__shared__ 0x0 in block (1,0,0)";

TEST_F(ClusterRace, AMissingClusterBarrierIsAHazardNamingBothBlocks) {
  const auto r = sanitize("--racecheck-report hazard --error-exitcode 7", "nobarrier");
  EXPECT_EQ(r.exit_code, 7) << r.err;
  EXPECT_EQ(masked(r.out), sanitizer_head("nobarrier: cudaSuccess 101 131") +
                               hazard_report("Error", "WAR", kInBlock1, read(), store()) + racecheck_summary(1, 1, 0));
}

TEST_F(ClusterRace, AnalysisReportCountsEveryThreadsBytes) {
  const auto r = sanitize("", "nobarrier");
  // The location in the most pairs leads; a tie (one pair) goes to the lower instruction, the store.
  EXPECT_EQ(masked(r.out), sanitizer_head("nobarrier: cudaSuccess 101 131") + race() + racecheck_summary(1, 1, 0));
}

TEST_F(ClusterRace, AReleaseAcquireClusterBarrierOrdersThePeersStore) {
  const auto r = sanitize("--racecheck-report all", "barrier");
  EXPECT_EQ(r.out, sanitizer_head("barrier: cudaSuccess 3 93") + racecheck_summary(0, 0, 0));
}

TEST_F(ClusterRace, ARelaxedClusterBarrierOrdersNothing) {
  const auto r = sanitize("--racecheck-report hazard", "relaxed");
  EXPECT_EQ(masked(r.out), sanitizer_head("relaxed: cudaSuccess 3 93") +
                               hazard_report("Error", "RAW", kInBlock1, store(), read()) + racecheck_summary(1, 1, 0));
}

// compute-sanitizer's report of the corpus's ring (tests/hw/data/h200/sanitize/corpus,
// ClusterMbarrier.PeersArriveOnEachOthersMbarriersAroundARing) has this shape: a remote
// mbarrier.arrive.release.cluster and a try_wait of the default .cta scope.
TEST_F(ClusterRace, ACtaScopeMbarrierWaitDoesNotAcquireAnotherCtasRelease) {
  const auto r = sanitize("", "mbar_cta");
  EXPECT_EQ(masked(r.out), sanitizer_head("mbar_cta: cudaSuccess 3 93") + race() + racecheck_summary(1, 1, 0));
}

TEST_F(ClusterRace, AClusterScopeMbarrierWaitOrdersEveryThreadsStoreBeforeTheArrive) {
  const auto r = sanitize("--racecheck-report all", "mbar_cluster");
  EXPECT_EQ(r.out, sanitizer_head("mbar_cluster: cudaSuccess 3 93") + racecheck_summary(0, 0, 0));
}

TEST_F(ClusterRace, AReleaseAcquireFlagOrdersThePeersStore) {
  const auto r = sanitize("--racecheck-report all", "flag");
  EXPECT_EQ(r.out, sanitizer_head("flag: cudaSuccess 3 93") + racecheck_summary(0, 0, 0));
}

TEST_F(ClusterRace, FindingsAreTheSameForAnyThreadCount) {
  for (const std::string mode : {"nobarrier", "mbar_cta"})
    EXPECT_EQ(sanitize("--racecheck-report all", mode, 1).out, sanitize("--racecheck-report all", mode, 4).out) << mode;
}

}  // namespace
