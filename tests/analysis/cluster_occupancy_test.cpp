#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/cluster_occupancy.hpp"
#include "analysis/occupancy.hpp"
#include "warpscope/error.hpp"

namespace warpscope::analysis {
namespace {

std::vector<std::vector<std::string>> lines_of(const std::string& tag) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/cluster_sched/queries.txt");
  EXPECT_TRUE(in);
  std::vector<std::vector<std::string>> out;
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    if (!f.empty() && f[0] == tag) out.push_back(f);
  }
  return out;
}

// Blocks per SM of the probe's kernel `rec` (18 registers, no static shared memory; queries.txt FA).
std::uint32_t rec_blocks(std::uint32_t threads, std::uint64_t dynamic_shared) {
  OccupancyInput in;
  in.threads_per_block = threads;
  in.registers_per_thread = 18;
  in.dynamic_shared_bytes = dynamic_shared;
  try {
    return compute_occupancy(arch::builtin_profile("hopper"), in).blocks_per_sm;
  } catch (const Error&) {
    return 0;
  }
}

// Every cudaOccupancyMaxActiveClusters answer of the H100 sweep (block 32..1024 x dynamic shared
// 0..232448 x cluster 1..16) is reproduced exactly.
TEST(ClusterOccupancy, MatchesEveryMaxActiveClustersAnswerOfTheH100) {
  const arch::Profile& hopper = arch::builtin_profile("hopper");
  int rows = 0;
  for (const auto& f : lines_of("A")) {
    ASSERT_EQ(f.size(), 7u);
    ASSERT_EQ(f[4], "cudaSuccess");
    const auto block = static_cast<std::uint32_t>(std::stoul(f[1]));
    const std::uint64_t shared = std::stoull(f[2]);
    const std::uint64_t cluster = std::stoull(f[3]);
    const std::uint32_t blocks = rec_blocks(block, shared);
    if (cluster == 1) {
      EXPECT_EQ(static_cast<long>(blocks), std::stol(f[6])) << "blocks per SM, " << f[1] << "," << f[2];
    }
    EXPECT_EQ(max_active_clusters(hopper, blocks, cluster), std::stoull(f[5]))
        << "block " << block << ", shared " << shared << ", cluster " << cluster;
    ++rows;
  }
  EXPECT_EQ(rows, 8 * 9 * 16);
}

// Sizes beyond 16 (accepted by the query for a kernel that allows non-portable sizes) and 2-D /
// 3-D cluster shapes (the answer depends on the product), 128 threads without shared memory.
TEST(ClusterOccupancy, LargeSizesAndShapes) {
  const arch::Profile& hopper = arch::builtin_profile("hopper");
  const std::uint32_t blocks = rec_blocks(128, 0);
  EXPECT_EQ(blocks, 16u);
  for (const auto& f : lines_of("A2"))
    if (f[1] == "rec") {
      EXPECT_EQ(max_active_clusters(hopper, blocks, std::stoull(f[2])), std::stoull(f[4])) << f[2];
    }
  int shapes = 0;
  for (const auto& f : lines_of("A3")) {
    const std::uint64_t size = std::stoull(f[1]) * std::stoull(f[2]) * std::stoull(f[3]);
    EXPECT_EQ(max_active_clusters(hopper, blocks, size), std::stoull(f[5])) << f[1] << "x" << f[2] << "x" << f[3];
    ++shapes;
  }
  EXPECT_EQ(shapes, 7);
  EXPECT_EQ(max_active_clusters(hopper, blocks, 17), 16u);  // two 18-SM GPCs, 8 CTAs per SM each
  EXPECT_EQ(max_active_clusters(hopper, blocks, 32), 0u);
}

// cudaOccupancyMaxPotentialClusterSize on the H100: 16 with non-portable sizes allowed, 8 without,
// for every block size and dynamic shared memory measured.
TEST(ClusterOccupancy, MaxPotentialClusterSizeMatchesTheH100) {
  const arch::Profile& hopper = arch::builtin_profile("hopper");
  int rows = 0;
  for (const auto& f : lines_of("P")) {
    const std::uint32_t blocks = rec_blocks(static_cast<std::uint32_t>(std::stoul(f[1])), std::stoull(f[2]));
    EXPECT_EQ(max_potential_cluster_size(hopper, blocks, true), std::stoul(f[4])) << f[1] << "," << f[2];
    EXPECT_EQ(max_potential_cluster_size(hopper, blocks, false), std::stoul(f[6])) << f[1] << "," << f[2];
    ++rows;
  }
  EXPECT_EQ(rows, 8 * 9);
  EXPECT_EQ(max_potential_cluster_size(hopper, 0, true), 0u);  // a block that cannot run
}

// The profile's GPCs add up to the SMs; a profile without clusters answers 0.
TEST(ClusterOccupancy, ProfilesWithoutClusters) {
  const arch::Profile& ampere = arch::builtin_profile("ampere");
  EXPECT_TRUE(ampere.cluster_gpc_sms.empty());
  EXPECT_EQ(max_active_clusters(ampere, 8, 2), 0u);
  EXPECT_EQ(max_potential_cluster_size(ampere, 8, true), 0u);
  const arch::Profile& hopper = arch::builtin_profile("hopper");
  std::uint32_t sum = 0;
  for (std::uint32_t n : hopper.cluster_gpc_sms) sum += n;
  EXPECT_EQ(sum, hopper.sm_count);
  // One wave of clusters of 4 CTAs that each need a whole SM: 30 clusters, 120 CTAs (the H100's
  // residency measurement: SMs 124-131 stay idle).
  EXPECT_EQ(cluster_wave_ctas(hopper, 1, 4), 120u);
}

}  // namespace
}  // namespace warpscope::analysis
