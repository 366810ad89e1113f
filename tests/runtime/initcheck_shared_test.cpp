// initcheck --initcheck-memory all (warpscope's addition, docs/sanitize.md "initcheck"): reads of
// a CTA's shared memory that no thread of the CTA wrote before, on tests/runtime/programs/
// init_shared.cu. The expected reports follow from the program (its header lists them) and the
// rule (src/exec/initcheck.hpp): one per thread access, in CTA then thread order, in initcheck's
// layout with "__shared__"; the address is the byte offset in the CTA's shared memory (the
// kernels' only shared variable sits at offset 0). Without the option no mode reports anything,
// as compute-sanitizer, which checks global memory only. The instruction offsets (+0x...) are
// PTX instruction indices and are not asserted.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "harness.hpp"

namespace {

using rt_test::prog;

const std::string kFile = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/runtime/programs/init_shared.cu";
const std::string kExe = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";

/// The 1-based line of init_shared.cu that contains `text`.
unsigned line_of(const std::string& text) {
  std::ifstream in(kFile);
  std::string line;
  for (unsigned n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  ADD_FAILURE() << text << " not in " << kFile;
  return 0;
}

std::string masked(const std::string& s) { return std::regex_replace(s, std::regex(R"(\+0x[0-9a-f]+)"), "+0x?"); }

rt_test::Result sanitize(const std::string& options, const std::string& mode, const char* threads = "1") {
  return rt_test::run_shell(kExe + " sanitize --threads " + threads + " --show-backtrace no --tool initcheck " +
                            options + " -- " + prog("init_shared " + mode));
}

/// One report in initcheck's layout.
std::string report(const std::string& at, unsigned thread, unsigned block, unsigned offset) {
  return fmt::format("========= Uninitialized __shared__ memory read of size 4 bytes\n"
                     "=========     at {}\n"
                     "=========     by thread ({},0,0) in block ({},0,0)\n"
                     "=========     Address 0x{:x}\n"
                     "========= \n",
                     at, thread, block, offset);
}

std::string clean(const std::string& mode) {
  return "========= COMPUTE-SANITIZER\n" + mode + ": cudaSuccess\n========= ERROR SUMMARY: 0 errors\n";
}

class InitcheckShared : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kExe)) GTEST_SKIP() << kExe << " not built";
  }
};

TEST_F(InitcheckShared, ByDefaultSharedMemoryIsNotChecked) {
  for (const char* mode : {"one", "synced", "tile", "dynamic", "atomic"}) {
    const auto r = sanitize("", mode);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.out, clean(mode));
    const auto g = sanitize("--initcheck-memory global", mode);
    EXPECT_EQ(g.out, clean(mode));
  }
}

TEST_F(InitcheckShared, AReadOfAnUnwrittenElementIsOneReport) {
  const auto r = sanitize("--initcheck-memory all", "one");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string at = "one(int *)+0x? in init_shared.cu:" + std::to_string(line_of("// init_shared: one"));
  EXPECT_EQ(masked(r.out), "========= COMPUTE-SANITIZER\none: cudaSuccess\n" + report(at, 0, 0, 63 * 4) +
                               "========= ERROR SUMMARY: 1 error\n");
}

TEST_F(InitcheckShared, AnotherWarpsWritesBeforeTheBarrierCount) {
  const auto r = sanitize("--initcheck-memory all", "synced");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, clean("synced"));
}

// Threads 3, 7, ..., 31 of each of the 2 CTAs read what nobody wrote; the same for any --threads.
TEST_F(InitcheckShared, APartlyWrittenTileReportsExactlyTheUnwrittenLanesOfEachCta) {
  const std::string at = "tile(float *)+0x? in init_shared.cu:" + std::to_string(line_of("// init_shared: tile"));
  std::string want = "========= COMPUTE-SANITIZER\ntile: cudaSuccess\n";
  for (unsigned block = 0; block < 2; ++block)
    for (unsigned t = 3; t < 32; t += 4) want += report(at, t, block, t * 4);
  want += "========= ERROR SUMMARY: 16 errors\n";
  for (const char* threads : {"1", "2"}) {
    const auto r = sanitize("--initcheck-memory all", "tile", threads);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(masked(r.out), want) << threads;
  }
}

TEST_F(InitcheckShared, DynamicSharedMemoryIsChecked) {
  const auto r = sanitize("--initcheck-memory all", "dynamic");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string at = "dynamic(int *)+0x? in init_shared.cu:" + std::to_string(line_of("// init_shared: dynamic"));
  EXPECT_EQ(masked(r.out), "========= COMPUTE-SANITIZER\ndynamic: cudaSuccess\n" + report(at, 31, 0, 32 * 4) +
                               "========= ERROR SUMMARY: 1 error\n");
}

// The atomic reads the unwritten word (one report), then has written it (the read after it: none).
TEST_F(InitcheckShared, AnAtomicReadsThenWrites) {
  const auto r = sanitize("--initcheck-memory all", "atomic");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string at = "atomic(int *)+0x? in init_shared.cu:" + std::to_string(line_of("// init_shared: atomic"));
  EXPECT_EQ(masked(r.out), "========= COMPUTE-SANITIZER\natomic: cudaSuccess\n" + report(at, 0, 0, 5 * 4) +
                               "========= ERROR SUMMARY: 1 error\n");
}

TEST_F(InitcheckShared, AnUnknownScopeIsRefused) {
  const auto r = sanitize("--initcheck-memory shared", "one");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE((r.out + r.err).find("--initcheck-memory"), std::string::npos) << r.out << r.err;
}

}  // namespace
