// Issue 29: acceptance programs (../shared/acceptance, public CUDA programs nobody on the team
// wrote) built three ways give the same output and the same counters under `warpscope run`:
//
//   NAME         nvcc -cudart shared   warpscope's libcudart.so.13
//   NAME.static  nvcc -cudart static   NVIDIA's runtime inside the program, on warpscope's libcuda.so.1
//   NAME.drvrt   nvcc -cudart none     + tests/runtime/drvrt (the team's runtime on the driver API)
//
// The programs are built at test time by the suite's own build.sh, with three_builds/nvcc_three.sh
// as its NVCC (the fixture three_builds_programs, tests/runtime/CMakeLists.txt). Each is run with
// the arguments of the suite's programs.txt in a fresh copy of its data folder; its own check
// (programs.txt's third column) must pass, and the three runs must print the same (lines that
// report a time or a rate compared with their numbers masked: host timers differ from run to run)
// and report the same launches, every field of every launch equal but those that depend on the
// process (docs/runtime.md, "A runtime on the driver API: drvrt").
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "read_json.hpp"

namespace fs = std::filesystem;

namespace {

const std::string kBin = WS_THREE_BIN_DIR;  // build.sh's OUTDIR
const char* const kVariants[] = {"", ".static", ".drvrt"};
const char* const kModules[] = {"fatbinary ", "cuLibraryLoadData image ", "cuModuleLoadData image "};

std::string acceptance_dir() {
  const char* env = std::getenv("WARPSCOPE_ACCEPTANCE");
  return env != nullptr && *env != '\0' ? env : WS_ACCEPTANCE_DIR;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

struct Entry {
  std::string args, check;
};

/// programs.txt's line for `name`: "name | arguments | self-check".
Entry entry(const std::string& name) {
  std::ifstream in(acceptance_dir() + "/programs.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    const auto a = line.find('|'), b = line.find('|', a + 1);
    if (a == std::string::npos || b == std::string::npos || trim(line.substr(0, a)) != name) continue;
    return {trim(line.substr(a + 1, b - a - 1)), trim(line.substr(b + 1))};
  }
  return {"", ""};
}

/// The self-check of programs.txt: "exit0", "pass=REGEX", "nomatch=REGEX" joined by " && "
/// (REGEX searched in stdout, multiline). Returns "" when it holds, else what failed.
std::string check_fails(const std::string& check, int exit_code, const std::string& out) {
  std::string rest = check;
  while (!rest.empty()) {
    const auto at = rest.find(" && ");
    const std::string part = trim(rest.substr(0, at));
    rest = at == std::string::npos ? "" : rest.substr(at + 4);
    if (exit_code != 0) return "exit code " + std::to_string(exit_code);
    const auto flags = std::regex::ECMAScript | std::regex::multiline;
    if (part.rfind("pass=", 0) == 0 && !std::regex_search(out, std::regex(part.substr(5), flags))) return part;
    if (part.rfind("nomatch=", 0) == 0 && std::regex_search(out, std::regex(part.substr(8), flags))) return part;
  }
  return "";
}

/// The output with the numbers of lines that report a time or a rate replaced by '#'.
std::string masked(const std::string& out) {
  static const std::regex timing(R"(time|took|throughput|bandwidth|per second|/s\b|/sec\b|gflop|gop)", std::regex::icase);
  static const std::regex number(R"([0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?)");
  std::istringstream in(out);
  std::string line, result;
  while (std::getline(in, line))
    result += (std::regex_search(line, timing) ? std::regex_replace(line, number, "#") : line) + "\n";
  return result;
}

/// A launch without what depends on the process: the module's name (each runtime loads the
/// program's fatbinary its own way), host time and memory, and the sample accesses' addresses.
nlohmann::json comparable(nlohmann::json launch) {
  for (const char* k : {"module", "host_time_ns", "host_peak_rss_bytes", "wall_ms", "process"}) launch.erase(k);
  if (launch.contains("lines"))
    for (auto& line : launch["lines"])
      if (line.contains("instructions"))
        for (auto& ins : line["instructions"]) ins.erase("sample");
  return launch;
}

struct Outcome {
  int exit_code = -1;
  std::string out, err;
  nlohmann::json launches;
};

class ThreeBuilds : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!fs::exists(acceptance_dir() + "/build.sh"))
      GTEST_SKIP() << "the acceptance suite (" << acceptance_dir() << ") is absent";
    for (const char* v : kVariants)
      if (!fs::exists(kBin + "/" + GetParam() + v))
        GTEST_SKIP() << kBin << "/" << GetParam() << v << " was not built (fixture three_builds_programs: "
                     << kBin << "/" << GetParam() << ".build.log)";
  }

  /// Runs the three builds at once, each in a fresh copy of the program's data folder.
  std::vector<Outcome> run_all(const std::string& name, const std::string& args) {
    const std::string ws = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
    const std::string root = kBin + "/runs/" + name;
    fs::remove_all(root);
    std::string cmd;
    for (const char* v : kVariants) {
      const std::string dir = root + "/run" + v, data = kBin + "/data/" + name;
      fs::create_directories(dir);
      if (fs::exists(data)) fs::copy(data, dir, fs::copy_options::recursive);
      cmd += "(cd " + dir + " && " + ws + " run --threads 1 --json " + dir + ".json -- " + kBin + "/" + name + v +
             " " + args + " < /dev/null > " + dir + ".out 2> " + dir + ".err; echo $? > " + dir + ".rc) & ";
    }
    cmd += "wait";
    EXPECT_EQ(std::system(cmd.c_str()), 0);
    std::vector<Outcome> runs;
    for (const char* v : kVariants) {
      const std::string dir = root + "/run" + v;
      Outcome r;
      r.exit_code = std::atoi(slurp(dir + ".rc").c_str());
      r.out = slurp(dir + ".out");
      const std::string exe = kBin + "/" + name + v;  // programs print their argv[0]
      for (auto at = r.out.find(exe); at != std::string::npos; at = r.out.find(exe, at))
        r.out.replace(at, exe.size(), "<program>");
      r.err = slurp(dir + ".err");
      if (fs::exists(dir + ".json")) r.launches = rt_test::read_json(dir + ".json")["launches"];
      runs.push_back(std::move(r));
    }
    return runs;
  }
};

TEST_P(ThreeBuilds, SameOutputAndCounters) {
  const std::string name = GetParam();
  const Entry e = entry(name);
  ASSERT_FALSE(e.check.empty()) << name << " is not in programs.txt";
  const auto runs = run_all(name, e.args);
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const std::string what = name + kVariants[i];
    ASSERT_EQ(check_fails(e.check, runs[i].exit_code, runs[i].out), "") << what << "\n" << runs[i].out << runs[i].err;
    ASSERT_TRUE(runs[i].launches.is_array()) << what << ": no report\n" << runs[i].err;
    ASSERT_FALSE(runs[i].launches.empty()) << what;
    // Each build loaded its kernels its own way: warpscope's runtime from the registered
    // fatbinary, NVIDIA's static runtime with cuLibraryLoadData, drvrt with cuModuleLoadData.
    const std::string module = runs[i].launches[0].value("module", "");
    EXPECT_EQ(module.rfind(kModules[i], 0), 0u) << what << ": " << module;
  }
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const std::string what = name + kVariants[i];
    EXPECT_EQ(masked(runs[i].out), masked(runs[0].out)) << what << " prints otherwise than " << name;
    ASSERT_EQ(runs[i].launches.size(), runs[0].launches.size()) << what;
    for (std::size_t l = 0; l < runs[0].launches.size(); ++l)
      ASSERT_EQ(comparable(runs[i].launches[l]), comparable(runs[0].launches[l])) << what << ", launch " << l;
  }
}

/// The programs: CMake's list, or WARPSCOPE_THREE_PROGRAMS (comma-separated) when the binary is
/// run by hand on programs built by three_builds/build_programs.sh (docs/runtime.md).
std::vector<std::string> programs() {
  std::vector<std::string> names;
  const char* env = std::getenv("WARPSCOPE_THREE_PROGRAMS");
  std::istringstream in(env != nullptr && *env != '\0' ? env : WS_THREE_PROGRAMS);
  for (std::string n; std::getline(in, n, ',');) names.push_back(n);
  return names;
}

INSTANTIATE_TEST_SUITE_P(Acceptance, ThreeBuilds, ::testing::ValuesIn(programs()),
                         [](const auto& p) { return p.param; });

// A runtime call drvrt does not define fails the link, and nvcc_three.sh names every such call:
// cudaMemGetInfo and cudaMallocManaged (in the order `sort` gives).
TEST(Drvrt, UncoveredCallsAreNamedAtLink) {
  const std::string out = kBin + "/uncovered", exe = out + "/drvrt_uncovered";
  fs::remove_all(out);
  fs::create_directories(out);
  const std::string cmd = std::string("cd ") + WS_PROGRAMS_SRC + " && REAL_NVCC=" + WS_NVCC + " DRVRT_LIB=" +
                          WS_DRVRT_LIB + " bash " + WS_NVCC_THREE + " -cudart shared -arch=sm_90 -o " + exe +
                          " drvrt_uncovered.cu > " + out + "/out 2> " + out + "/err";
  const int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  EXPECT_EQ(slurp(out + "/err"),
            "drvrt does not cover: cudaMallocManaged, cudaMemGetInfo (drvrt_uncovered)\n");
  // The other two ways link.
  EXPECT_TRUE(fs::exists(exe));
  EXPECT_TRUE(fs::exists(exe + ".static"));
  EXPECT_FALSE(fs::exists(exe + ".drvrt"));
}

TEST(ThreeBuildsMasking, TimesAndRatesLoseTheirNumbersOnly) {
  EXPECT_EQ(masked("Processing time: 1.506000 (ms)\nTest passed 42\nThroughput = 1e3 GB/s, Size = 65536\n"),
            "Processing time: # (ms)\nTest passed 42\nThroughput = # GB/s, Size = #\n");
}

TEST(ThreeBuildsCheck, ProgramsTxtSelfChecks) {
  EXPECT_EQ(check_fails("exit0 && pass=^Test PASSED", 0, "x\nTest PASSED\n"), "");
  EXPECT_EQ(check_fails("exit0 && pass=^Test PASSED", 1, "Test PASSED\n"), "exit code 1");
  EXPECT_EQ(check_fails("pass=Results Match && nomatch=DON'T Match", 0, "Results Match\nDON'T Match\n"),
            "nomatch=DON'T Match");
  EXPECT_EQ(check_fails("exit0 && nomatch=inspecting .*: (?!OK)", 0, "inspecting keys: OK\n"), "");
  EXPECT_EQ(check_fails("exit0 && nomatch=inspecting .*: (?!OK)", 0, "inspecting keys: BAD\n"),
            "nomatch=inspecting .*: (?!OK)");
}

}  // namespace
