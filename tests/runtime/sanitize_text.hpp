// What the tests of `warpscope sanitize` share: finding a marked source line, masking instruction
// offsets, and racecheck's lines in compute-sanitizer's layout (docs/sanitize.md "Output"): a
// hazard report, an analysis report ("Race reported between"), the summary.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "harness.hpp"

namespace rt_test {

/// The 1-based line of `file` that contains `text` (a test failure and 0 when none does).
inline unsigned line_in(const std::string& file, const std::string& text) {
  std::ifstream in(file);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  ADD_FAILURE() << text << " not in " << file;
  return 0;
}

/// Instruction offsets (+0x...) masked: they are PTX instruction indices, not part of the rules.
inline std::string masked_offsets(const std::string& s) {
  return std::regex_replace(s, std::regex(R"(\+0x[0-9a-f]+)"), "+0x?");
}

/// The tool's banner and the program's line `program_line`.
inline std::string sanitizer_head(const std::string& program_line) {
  return "========= COMPUTE-SANITIZER\n" + program_line + "\n";
}

/// One hazard report: `level` Error or Warning, `kind` RAW/WAR/WAW, at `where` ("__shared__ 0x80
/// in block (0,0,0)"), between the accesses `first` and `second` ("Write Thread (0,0,0) at ...").
inline std::string hazard_report(const std::string& level, const std::string& kind, const std::string& where,
                                 const std::string& first, const std::string& second) {
  return "========= " + level + ": Potential " + kind + " hazard detected at " + where + " :\n" +
         "=========     " + first + "\n" + "=========     " + second + "\n" + "========= \n";
}

/// One analysis report: the race between `first` and `second` ("Write access at ...") over `hazards`.
inline std::string race_report(const std::string& first, const std::string& second, unsigned hazards) {
  return "========= Error: Race reported between " + first + "\n" + "=========     and " + second + " [" +
         std::to_string(hazards) + " hazards]\n" + "========= \n";
}

/// The summary line: `displayed` reports, of them `errors` errors and `warnings` warnings.
inline std::string racecheck_summary(unsigned displayed, unsigned errors, unsigned warnings) {
  auto count = [](unsigned n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
  return "========= RACECHECK SUMMARY: " + count(displayed, "hazard") + " displayed (" + count(errors, "error") + ", " +
         count(warnings, "warning") + ")\n";
}

/// A test of `warpscope sanitize --tool racecheck`, skipped where the CLI is not built.
class RacecheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }
  /// `program` (a test program's name) with `args` under racecheck with `options`, on `threads`
  /// host threads, without host frames (the expected texts are the reports' own lines).
  Result racecheck(const std::string& options, const std::string& program, const std::string& args,
                   unsigned threads = 1) {
    return run_shell(exe_ + " sanitize --show-backtrace no --threads " + std::to_string(threads) +
                     " --tool racecheck " + options + " -- " + prog(program) + " " + args);
  }
  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
};

}  // namespace rt_test
