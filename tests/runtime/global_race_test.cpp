// `warpscope sanitize --tool racecheck --racecheck-memory all` on tests/runtime/programs/
// global_race.cu, and the same-result-every-run rule of `warpscope run` (docs/sanitize.md
// "Global memory", docs/runtime.md "The same result every run"). Expected from the rules:
//  - waw: blocks 0 and 1 each store out[0..2] (one thread, one instruction per element) with
//    values that differ and nothing orders them: one WAW per element, the earlier side block 0
//    (CTAs run in CTA order while the checker watches), three errors;
//  - raw: block 1 reads out[0] that block 0 stores: one RAW;
//  - same (equal values), ticket (fence, atomicInc ticket, last block reads the partials): none;
//  - compute-sanitizer's scope (--racecheck-memory shared, the default) sees none of them.
// Program output: ticket sums i % 7 over 512 ints = 73 * 21 = 1533; waw under --threads 1 leaves
// block 1's values (10 20 30), the last CTA in CTA order.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "harness.hpp"

namespace {

using rt_test::prog;

const std::string kSource = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/runtime/programs/global_race.cu";

unsigned line_of(const std::string& text) {
  std::ifstream in(kSource);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  ADD_FAILURE() << text << " not in " << kSource;
  return 0;
}

/// Instruction offsets and global addresses masked: neither is part of the rule.
std::string masked(const std::string& s) {
  return std::regex_replace(std::regex_replace(s, std::regex(R"(\+0x[0-9a-f]+)"), "+0x?"),
                            std::regex(R"(__global__ 0x[0-9a-f]+)"), "__global__ 0x?");
}

class GlobalRace : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }
  rt_test::Result sanitize(const std::string& options, const std::string& mode, unsigned threads = 1) {
    // Without host frames: the expected texts are the reports' own lines.
    return rt_test::run_shell(exe_ + " sanitize --show-backtrace no --threads " + std::to_string(threads) + " " +
                              options + " -- " + prog("global_race") + " " + mode);
  }
  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
};

TEST_F(GlobalRace, TwoCtasWritingDifferentValuesAreThreeWawErrors) {
  const auto r = sanitize("--tool racecheck --racecheck-memory all --racecheck-report hazard --error-exitcode 7", "waw");
  EXPECT_EQ(r.exit_code, 7) << r.err;
  const std::string at = "two_writers(float *)+0x? in global_race.cu:" + std::to_string(line_of("// waw: write"));
  std::string expected = "========= COMPUTE-SANITIZER\nwaw: cudaSuccess 10 20 30 0\n";
  for (int i = 0; i < 3; ++i) {
    expected += "========= Error: Potential WAW hazard detected at __global__ 0x? :\n"
                "=========     Write Thread (0,0,0) in block (0,0,0) at " + at + "\n"
                "=========     Write Thread (0,0,0) in block (1,0,0) at " + at + "\n"
                "========= \n";
  }
  expected += "========= RACECHECK SUMMARY: 3 hazards displayed (3 errors, 0 warnings)\n";
  EXPECT_EQ(masked(r.out), expected);
}

TEST_F(GlobalRace, ReadOfAnotherCtasUnorderedWriteIsRaw) {
  const auto r = sanitize("--tool racecheck --racecheck-memory all --racecheck-report hazard", "raw");
  EXPECT_EQ(masked(r.out), "========= COMPUTE-SANITIZER\nraw: cudaSuccess 5 6 0 0\n"
                           "========= Error: Potential RAW hazard detected at __global__ 0x? :\n"
                           "=========     Write Thread (0,0,0) in block (0,0,0) at reader(float *)+0x? in global_race.cu:" +
                               std::to_string(line_of("// raw: write")) + "\n" +
                               "=========     Read Thread (0,0,0) in block (1,0,0) at reader(float *)+0x? in "
                               "global_race.cu:" + std::to_string(line_of("// raw: read")) + "\n" +
                               "========= \n"
                               "========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)\n");
}

TEST_F(GlobalRace, EqualValuesAndTicketSynchronisationAreNotHazards) {
  for (const std::string mode : {"same", "ticket"}) {
    const auto r = sanitize("--tool racecheck --racecheck-memory all --racecheck-report all", mode);
    EXPECT_NE(r.out.find("RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"), std::string::npos)
        << mode << "\n" << r.out;
  }
}

TEST_F(GlobalRace, SharedScopeLikeComputeSanitizerSeesNone) {
  const auto r = sanitize("--tool racecheck --racecheck-report all", "waw");
  EXPECT_EQ(r.out, "========= COMPUTE-SANITIZER\nwaw: cudaSuccess 10 20 30 0\n"
                   "========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)\n");
}

TEST_F(GlobalRace, FindingsAreTheSameForAnyThreadCount) {
  const auto one = sanitize("--tool racecheck --racecheck-memory all --racecheck-report all", "waw", 1);
  const auto four = sanitize("--tool racecheck --racecheck-memory all --racecheck-report all", "waw", 4);
  EXPECT_EQ(one.out, four.out);
}

// A program that does not race prints the same in every run and for any --threads.
TEST_F(GlobalRace, RaceFreeProgramsGiveOneOutputForEveryThreadCountAndRun) {
  const std::string expected[] = {"ticket: cudaSuccess 0 0 0 1533\n", "same: cudaSuccess 0 0 0 1\n"};
  const std::string modes[] = {"ticket", "same"};
  for (int m = 0; m < 2; ++m) {
    for (const unsigned threads : {1u, 2u, 4u}) {
      for (int run = 0; run < 3; ++run) {
        const auto r = rt_test::run_shell(exe_ + " run --quiet --no-stats --threads " + std::to_string(threads) +
                                          " -- " + prog("global_race") + " " + modes[m]);
        EXPECT_EQ(r.out, expected[m]) << modes[m] << " --threads " << threads << " run " << run << "\n" << r.err;
      }
    }
  }
}

}  // namespace
