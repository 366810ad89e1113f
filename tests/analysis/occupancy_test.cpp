#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/occupancy.hpp"
#include "analysis/launch_resources.hpp"
#include "warpscope/error.hpp"

namespace warpscope::analysis {
namespace {

// Every row that cudaOccupancyMaxActiveBlocksPerMultiprocessor answered on an H100
// (tests/hw/data/h100/runtime_probe.csv, section "# occupancy") must be reproduced exactly.
TEST(Occupancy, MatchesTheH100ForEveryMeasuredConfiguration) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/runtime_probe.csv");
  ASSERT_TRUE(in);
  std::string line;
  bool in_section = false;
  int rows = 0;
  std::vector<std::string> distinct_registers;
  const arch::Profile& hopper = arch::builtin_profile("hopper");
  while (std::getline(in, line)) {
    if (line.rfind("# ", 0) == 0) {
      in_section = line == "# occupancy";
      std::getline(in, line);  // header
      continue;
    }
    if (!in_section || line.empty()) continue;
    // kernel,registers,static_shared,local_bytes,max_threads_per_block,block,dynamic_shared,blocks_per_sm,status
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) f.push_back(cell);
    ASSERT_EQ(f.size(), 9u) << line;
    ASSERT_EQ(f[8], "ok") << line;
    OccupancyInput input;
    input.registers_per_thread = static_cast<std::uint32_t>(std::stoul(f[1]));
    input.static_shared_bytes = std::stoull(f[2]);
    input.threads_per_block = static_cast<std::uint32_t>(std::stoul(f[5]));
    input.dynamic_shared_bytes = std::stoull(f[6]);
    EXPECT_EQ(compute_occupancy(hopper, input).blocks_per_sm, std::stoul(f[7])) << line;
    if (std::find(distinct_registers.begin(), distinct_registers.end(), f[1]) == distinct_registers.end())
      distinct_registers.push_back(f[1]);
    ++rows;
  }
  EXPECT_GE(rows, 12);
  EXPECT_GE(distinct_registers.size(), 8u);  // 21, 24, 32, 40, 48, 59, 66, 96, 102 registers
}

TEST(Occupancy, LimitingFactor) {
  const arch::Profile& h = arch::builtin_profile("hopper");
  // 256 threads, 32 registers: 8 warps a block, 64 warps an SM -> 8 blocks, warps limit.
  Occupancy o = compute_occupancy(h, {256, 32, 0, 0});
  EXPECT_EQ(o.blocks_per_sm, 8u);
  EXPECT_EQ(o.limited_by, OccupancyLimit::kWarps);
  EXPECT_DOUBLE_EQ(o.occupancy, 1.0);
  // 128 registers: 4096 per warp, 16 warps an SM -> 2 blocks of 8 warps.
  o = compute_occupancy(h, {256, 128, 0, 0});
  EXPECT_EQ(o.blocks_per_sm, 2u);
  EXPECT_EQ(o.limited_by, OccupancyLimit::kRegisters);
  EXPECT_DOUBLE_EQ(o.occupancy, 0.25);
  // 32-thread blocks: at most 32 blocks an SM.
  o = compute_occupancy(h, {32, 16, 0, 0});
  EXPECT_EQ(o.blocks_per_sm, 32u);
  EXPECT_EQ(o.limited_by, OccupancyLimit::kBlocks);
  // 100 KB of shared memory + 1 KB reserved: 2 blocks in 228 KB.
  o = compute_occupancy(h, {128, 32, 0, 100 * 1024});
  EXPECT_EQ(o.blocks_per_sm, 2u);
  EXPECT_EQ(o.limited_by, OccupancyLimit::kSharedMemory);
}

TEST(Occupancy, ImpossibleBlocksAreErrors) {
  const arch::Profile& h = arch::builtin_profile("hopper");
  EXPECT_THROW(compute_occupancy(h, {1025, 32, 0, 0}), Error);
  EXPECT_THROW(compute_occupancy(h, {128, 256, 0, 0}), Error);
  EXPECT_THROW(compute_occupancy(h, {128, 32, 0, 228 * 1024}), Error);
  EXPECT_THROW(compute_occupancy(h, {1024, 255, 0, 0}), Error);  // 262144 registers > 65536
}

// Seed 001 (Fermi): 32K registers per SM, 1536 threads: "max threads => 21 registers per
// thread"; "max registers per thread (63) => 520 threads".
TEST(Occupancy, SeedRegisterArithmeticOnFermi) {
  const arch::Profile& f = arch::builtin_profile("fermi");
  EXPECT_EQ(registers_for_full_occupancy(f), 21u);
  EXPECT_EQ(threads_allowed_by_registers(f, 63), 520u);
}

}  // namespace
}  // namespace warpscope::analysis

namespace warpscope::analysis {
namespace {

// A kernel without shared memory on a profile with no per-block reservation (Kepler): shared
// memory limits nothing, so the metric is the SM's block limit (16 on Kepler), never the
// "unlimited" sentinel; registers ptxas did not report give no register-limit metric.
TEST(Occupancy, UnusedResourceLimitsAreTheBlockLimit) {
  const arch::Profile& k = arch::builtin_profile("kepler");
  KernelFacts facts;
  facts.registers = -1;
  nlohmann::json metrics = nlohmann::json::object(), estimated = nlohmann::json::array(),
                 advice = nlohmann::json::array();
  launch_resources(k, facts, Dim3{4, 1, 1}, Dim3{128, 1, 1}, 0, metrics, estimated, advice);
  EXPECT_EQ(metrics.at("launch__occupancy_limit_shared_mem"), 16);
  EXPECT_FALSE(metrics.contains("launch__occupancy_limit_registers"));
}

}  // namespace
}  // namespace warpscope::analysis
