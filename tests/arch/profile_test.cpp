#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "arch/profile.hpp"
#include "warpscope/error.hpp"

namespace warpscope::arch {
namespace {

TEST(Profiles, AllBuiltinsLoadOldestFirst) {
  auto names = builtin_profile_names();
  std::vector<std::string> expected = {"g80",   "tesla", "fermi",  "kepler", "maxwell",
                                       "pascal", "volta", "ampere", "h200", "hopper"};
  EXPECT_EQ(names, expected);
}

TEST(Profiles, HopperIsTheH100Sxm) {
  const Profile& p = builtin_profile("hopper");
  EXPECT_EQ(kDefaultProfile, "hopper");
  EXPECT_EQ(p.cc_major, 9);
  EXPECT_EQ(p.cc_minor, 0);
  EXPECT_EQ(p.sm_count, 132u);
  EXPECT_EQ(p.l2.bytes, 50ull * 1024 * 1024);
  EXPECT_EQ(p.l1.bytes, 256u * 1024);
  EXPECT_EQ(p.registers_per_sm, 65536u);
  EXPECT_EQ(p.max_threads_per_sm, 2048u);
  EXPECT_EQ(p.max_registers_per_thread, 255u);
  EXPECT_EQ(p.coalescing, Coalescing::kSectors);
  EXPECT_EQ(p.sector_bytes, 32u);
  EXPECT_EQ(p.line_bytes, 128u);
  EXPECT_TRUE(p.global_loads_cached_in_l1);
  EXPECT_EQ(p.ptx_target, "sm_90");
  // H100 measurements (tests/hw/data/h100, docs/accuracy.md): DRAM is read in 64-byte sector
  // pairs; the L1's set index is hashed (a modelling choice: matmul_naive's L1 misses).
  EXPECT_EQ(p.dram_fetch_bytes, 64u);
  EXPECT_EQ(p.l1.set_index, SetIndex::kXor);
  EXPECT_EQ(p.l2.set_index, SetIndex::kModulo);
  // Which lines compete in a warp-wide REDG: even parity of A ^ B on virtual address bits
  // {7,9,11,12,14,16,18,19,20,21,23,24,25,26,28,29,30,31,33,35,36,37,38} and
  // {8,10,11,13,14,15,17,19,21,22,24,26,27,28,30,32,33,34,36,38,39} (tests/hw/data/h100/red/README.md).
  ASSERT_EQ(p.reduction_line_classes.size(), 2u);
  EXPECT_EQ(p.reduction_line_classes[0], 0x7AF7BD5A80ull);
  EXPECT_EQ(p.reduction_line_classes[1], 0xD75D6AED00ull);
}

// The H200: the H100's SMs with its own memory system, each value measured on the team's H200
// (tests/hw/data/h200/profile/attributes.txt: cudaGetDeviceProperties; ncu_cli/raw_text.txt:
// lts__cycles_elapsed.sum / .avg = 827106 / 8799 = 94, dram__ 808448 / 16842.67 = 48).
TEST(Profiles, H200IsTheH100sSmsWithItsOwnMemory) {
  const Profile& h = builtin_profile("h200");
  const Profile& p = builtin_profile("hopper");
  EXPECT_EQ(h.l2.bytes, 62914560u);
  EXPECT_EQ(h.dram_bytes, 150109880320ull);
  EXPECT_EQ(h.dram_clock_khz, 3201000u);
  EXPECT_EQ(h.dram_bus_width_bits, 6016u);
  EXPECT_EQ(h.dram_bandwidth_gbps, 4800.0);
  EXPECT_EQ(h.ncu_lts_units, 94u);
  EXPECT_EQ(h.ncu_dram_units, 48u);
  EXPECT_EQ(h.ncu_smsp_per_sm, 4u);
  EXPECT_EQ(h.sm_clock_mhz, 1980.0);
  // The same SMs: occupancy limits, shared memory, clusters (the GPCs: cluster_sched/run.txt.gz).
  EXPECT_EQ(h.sm_count, p.sm_count);
  EXPECT_EQ(h.shared_bytes_per_sm, p.shared_bytes_per_sm);
  EXPECT_EQ(h.registers_per_sm, p.registers_per_sm);
  EXPECT_EQ(h.cluster_gpc_sms, p.cluster_gpc_sms);
  EXPECT_EQ(p.dram_clock_khz, 0u);  // hopper states none: the H100's measured attribute table answers
}

TEST(Profiles, DramFetchBytesAndSetIndexOfEveryProfile) {
  for (const std::string& name : builtin_profile_names()) {
    const Profile& p = builtin_profile(name);
    const bool gh100 = name == "hopper" || name == "h200";
    const bool hbm_era = name == "volta" || name == "ampere" || gh100;
    EXPECT_EQ(p.dram_fetch_bytes, hbm_era ? 64u : 32u) << name;
    EXPECT_EQ(p.l1.set_index, gh100 ? SetIndex::kXor : SetIndex::kModulo) << name;
    EXPECT_EQ(p.l2.set_index, SetIndex::kModulo) << name;
    EXPECT_EQ(p.reduction_line_classes.empty(), !gh100) << name;  // measured on the H100 (same SMs and L2 design)
  }
  EXPECT_EQ(to_string(SetIndex::kXor), "xor");
  EXPECT_EQ(to_string(SetIndex::kModulo), "modulo");
}

TEST(Profiles, SeedFacts) {
  // Seed 001: Fermi has 32K registers per SM, at most 63 per thread, 1536 threads per SM.
  const Profile& f = builtin_profile("fermi");
  EXPECT_EQ(f.registers_per_sm, 32768u);
  EXPECT_EQ(f.max_registers_per_thread, 63u);
  EXPECT_EQ(f.max_threads_per_sm, 1536u);
  EXPECT_EQ(f.coalescing, Coalescing::kLines);
  EXPECT_TRUE(f.global_loads_cached_in_l1);  // seed 003: L1, then L2, then DRAM by default
  EXPECT_EQ(f.l2.bytes, 768u * 1024);         // seed 003: L2 cache (768 KB)
  EXPECT_EQ(f.l1_store_policy, L1StorePolicy::kInvalidate);
  EXPECT_EQ(builtin_profile("tesla").coalescing, Coalescing::kCc12);
  EXPECT_EQ(builtin_profile("tesla").shared_banks, 16u);
  EXPECT_EQ(builtin_profile("g80").coalescing, Coalescing::kCc10);
  EXPECT_FALSE(builtin_profile("kepler").global_loads_cached_in_l1);
}

TEST(Profiles, UnknownNameListsTheKnownOnes) {
  try {
    builtin_profile("rubin");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_NE(std::string(e.what()).find("hopper"), std::string::npos);
  }
}

std::string hopper_text() {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/src/arch/profiles/hopper.json");
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void expect_field_error(const std::string& text, const std::string& field) {
  try {
    parse_profile(text, "test.json");
    FAIL() << "accepted a profile with a bad " << field;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kProfile);
    EXPECT_NE(std::string(e.what()).find("'" + field + "'"), std::string::npos) << e.what();
  }
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  return s.replace(pos, from.size(), to);
}

TEST(Profiles, MalformedFilesNameTheField) {
  std::string good = hopper_text();
  EXPECT_NO_THROW(parse_profile(good, "hopper.json"));
  expect_field_error(replace(good, "\"sm_count\": 132", "\"sm_count\": \"many\""), "occupancy.sm_count");
  expect_field_error(replace(good, "\"sm_count\": 132,", ""), "occupancy.sm_count");
  expect_field_error(replace(good, "\"sector_bytes\": 32,", "\"sector_bytes\": 24,"), "sector_bytes");
  expect_field_error(replace(good, "\"coalescing\": \"sectors\"", "\"coalescing\": \"magic\""), "coalescing");
  expect_field_error(replace(good, "\"warp_size\": 32,", "\"warp_size\": 32, \"wrap_size\": 32,"), "wrap_size");
  expect_field_error(replace(good, "\"banks\": 32", "\"banks\": -4"), "shared.banks");
  expect_field_error(replace(good, "\"set_index\": \"xor\"", "\"set_index\": \"hash\""), "l1.set_index");
  expect_field_error(replace(good, ",\n    \"set_index\": \"xor\"", ""), "l1.set_index");
  expect_field_error(replace(good, "\"fetch_bytes\": 64", "\"fetch_bytes\": 16"), "dram.fetch_bytes");
  expect_field_error(replace(good, "\"fetch_bytes\": 64", "\"fetch_bytes\": 256"), "dram.fetch_bytes");
  expect_field_error(replace(good, "\"fetch_bytes\": 64", "\"fetch_bytes\": 48"), "dram.fetch_bytes");
  expect_field_error(replace(good, ",\n    \"fetch_bytes\": 64", ""), "dram.fetch_bytes");
  expect_field_error(replace(good, "[7, 9, 11,", "[6, 9, 11,"), "reduction_line_classes[0]");   // inside a line
  expect_field_error(replace(good, "[7, 9, 11,", "[7, 7, 11,"), "reduction_line_classes[0]");   // twice
  expect_field_error(replace(good, "[8, 10, 11,", "[\"8\", 10, 11,"), "reduction_line_classes[1]");
  expect_field_error(replace(good, "\"reduction_line_classes\": [", "\"reduction_line_classes\": [[],"),
                     "reduction_line_classes[0]");
  expect_field_error(replace(good, "\"reduction_line_classes\"", "\"reduction_classes\""), "reduction_line_classes");
  expect_field_error(replace(good, "[8, 16, 16,", "[9, 16, 16,"), "clusters.gpc_sms");  // sum != sm_count
  expect_field_error(replace(good, "[8, 16, 16,", "[0, 8, 16, 16,"), "clusters.gpc_sms");
  expect_field_error(replace(good, "\"max_size\": 16", "\"max_size\": 4"), "clusters.max_size");
  expect_field_error(replace(good, "\"max_blocks_per_sm\": 8,", ""), "clusters.max_blocks_per_sm");
  try {
    parse_profile("{ not json", "x.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kProfile);
  }
}

}  // namespace
}  // namespace warpscope::arch
