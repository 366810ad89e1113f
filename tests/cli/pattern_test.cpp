// `warpscope pattern`: the examples end to end, through the same functions the command
// runs, and once through the binary itself (--json and --svg files).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "pattern_cmd.hpp"
#include "warpscope/error.hpp"

namespace warpscope::cli {
namespace {

nlohmann::json eval(PatternOptions o) {
  const arch::Profile& p = arch::builtin_profile(o.arch);
  return pattern_json(o, p, evaluate_pattern(o, p));
}

PatternOptions opts(const std::string& arch, const std::string& index, unsigned width = 4,
                    const std::string& cache = "default", const std::string& space = "global") {
  PatternOptions o;
  o.arch = arch;
  o.index = index;
  o.width = width;
  o.cache = cache;
  o.space = space;
  return o;
}

// The examples on fermi, and design.md's seed table.
TEST(PatternCommand, FermiSeedCases) {
  auto j = eval(opts("fermi", "lane+1", 4, "ca"));
  EXPECT_EQ(j["transactions"], 2);
  EXPECT_EQ(j["bytes_moved"], 256);
  EXPECT_DOUBLE_EQ(j["efficiency"].get<double>(), 0.5);
  j = eval(opts("fermi", "lane+1", 4, "cg"));
  EXPECT_EQ(j["transactions"], 5);
  EXPECT_EQ(j["bytes_moved"], 160);
  EXPECT_DOUBLE_EQ(j["efficiency"].get<double>(), 0.8);
  EXPECT_DOUBLE_EQ(eval(opts("fermi", "0", 4, "ca"))["efficiency"].get<double>(), 0.03125);
  EXPECT_DOUBLE_EQ(eval(opts("fermi", "0", 4, "cg"))["efficiency"].get<double>(), 0.125);
  j = eval(opts("fermi", "(lane*7+3)%32", 4, "ca"));
  EXPECT_EQ(j["transactions"], 1);
  EXPECT_DOUBLE_EQ(j["efficiency"].get<double>(), 1.0);
}

TEST(PatternCommand, HopperCases) {
  auto sectors = [](const PatternOptions& o) {
    auto j = eval(o);
    EXPECT_EQ(j["requests"], 1);
    return j["transactions"].get<int>();
  };
  EXPECT_EQ(sectors(opts("hopper", "lane")), 4);
  EXPECT_EQ(sectors(opts("hopper", "lane+1")), 5);
  EXPECT_EQ(sectors(opts("hopper", "0")), 1);
  EXPECT_EQ(sectors(opts("hopper", "lane*32")), 32);
  EXPECT_EQ(sectors(opts("hopper", "lane", 16)), 16);
  EXPECT_EQ(sectors(opts("hopper", "lane", 1)), 1);
  EXPECT_EQ(sectors(opts("hopper", "lane", 2)), 2);
  EXPECT_EQ(sectors(opts("hopper", "lane", 8)), 8);
  auto local = opts("hopper", "0", 16, "default", "local");
  local.op = "store";
  auto j = eval(local);
  EXPECT_EQ(j["requests"], 4);
  EXPECT_EQ(j["transactions"], 16);
}

TEST(PatternCommand, JsonHasTheContractKeys) {
  auto j = eval(opts("hopper", "lane"));
  for (const char* key : {"requests", "transactions", "transaction_bytes", "bytes_requested", "bytes_moved",
                          "efficiency", "wavefronts"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["transaction_bytes"], 32);
  EXPECT_TRUE(j["wavefronts"].is_null());  // global access: no shared wavefronts
  auto s = eval(opts("hopper", "lane*2", 4, "default", "shared"));
  EXPECT_EQ(s["wavefronts"], 2);
  EXPECT_EQ(s["bank_conflicts"], 1);
}

TEST(PatternCommand, BadOptionsAreErrors) {
  EXPECT_THROW(eval(opts("hopper", "lane", 3)), Error);
  EXPECT_THROW(eval(opts("hopper", "lane+")), Error);
  EXPECT_THROW(eval(opts("hopper", "lane", 4, "cs")), Error);
  EXPECT_THROW(eval(opts("hopper", "lane", 4, "default", "texture")), Error);
  EXPECT_THROW(eval(opts("hopper", "-1-lane")), Error);   // negative address
  auto o = opts("hopper", "lane");
  o.base = "2";
  try {
    eval(o);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kMisaligned);
  }
  o = opts("hopper", "lane");
  o.active = "0x1ffffffff";
  EXPECT_THROW(eval(o), Error);
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(PatternCommand, BinaryWritesJsonAndSvg) {
  const std::string dir = std::string(WARPSCOPE_BINARY_DIR) + "/tests/cli";
  const std::string cmd = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope pattern --arch fermi --cache cg --index 'lane+1' --json " +
                          dir + "/p.json --svg " + dir + "/p.svg > " + dir + "/p.txt";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  auto j = nlohmann::json::parse(slurp(dir + "/p.json"));
  EXPECT_EQ(j["transactions"], 5);
  std::string svg = slurp(dir + "/p.svg");
  EXPECT_NE(svg.find("<svg"), std::string::npos);
  // 32 lanes, 5 outlined segments, 32 requested words.
  auto count = [&](const std::string& needle) {
    std::size_t n = 0;
    for (std::size_t pos = svg.find(needle); pos != std::string::npos; pos = svg.find(needle, pos + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("class=\"transaction\""), 5u);
  EXPECT_EQ(count("class=\"requested\""), 32u);
  EXPECT_EQ(count("<g class=\"lane"), 32u);
  EXPECT_NE(slurp(dir + "/p.txt").find("bus utilization   80.00 %"), std::string::npos);
  // A bad expression: exit code 1 and the column on stderr.
  const std::string bad = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope pattern --index 'lane*' 2> " + dir + "/err.txt";
  EXPECT_NE(std::system(bad.c_str()), 0);
  EXPECT_NE(slurp(dir + "/err.txt").find("column 6"), std::string::npos);
}

}  // namespace
}  // namespace warpscope::cli
