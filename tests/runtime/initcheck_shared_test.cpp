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
#include <string>

#include "harness.hpp"
#include "sanitize_text.hpp"

namespace {

using rt_test::prog;

const std::string kFile = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/runtime/programs/init_shared.cu";
const std::string kExe = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";

/// "KERNEL+0x? in init_shared.cu:N", N the line marked `// init_shared: MODE`.
std::string at(const std::string& kernel, const std::string& mode) {
  return kernel + "+0x? in init_shared.cu:" + std::to_string(rt_test::line_in(kFile, "// init_shared: " + mode));
}

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

// The modes with one report (init_shared.cu's header): the kernel, then the thread of block 0 that
// reads an unwritten word and the word's byte offset.
struct OneRead {
  const char* mode;
  const char* kernel;
  unsigned thread, offset;
};
constexpr OneRead kOneRead[] = {
    {"one", "one(int *)", 0, 63 * 4},  // thread 0 reads s[63], which no thread wrote
    {"dynamic", "dynamic(int *)", 31, 32 * 4},  // dynamic shared memory: thread 31 reads d[32]
    // The atomic reads the unwritten word (one report), then has written it (the read after it: none).
    {"atomic", "atomic(int *)", 0, 5 * 4},
};

TEST_F(InitcheckShared, AReadOfAnUnwrittenWordIsOneReport) {
  for (const OneRead& c : kOneRead) {
    const auto r = sanitize("--initcheck-memory all", c.mode);
    ASSERT_EQ(r.exit_code, 0) << c.mode << r.out << r.err;
    EXPECT_EQ(rt_test::masked_offsets(r.out), rt_test::sanitizer_head(std::string(c.mode) + ": cudaSuccess") +
                                                  report(at(c.kernel, c.mode), c.thread, 0, c.offset) +
                                                  "========= ERROR SUMMARY: 1 error\n")
        << c.mode;
  }
}

TEST_F(InitcheckShared, AnotherWarpsWritesBeforeTheBarrierCount) {
  const auto r = sanitize("--initcheck-memory all", "synced");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, clean("synced"));
}

// Threads 3, 7, ..., 31 of each of the 2 CTAs read what nobody wrote; the same for any --threads.
TEST_F(InitcheckShared, APartlyWrittenTileReportsExactlyTheUnwrittenLanesOfEachCta) {
  std::string want = rt_test::sanitizer_head("tile: cudaSuccess");
  for (unsigned block = 0; block < 2; ++block)
    for (unsigned t = 3; t < 32; t += 4) want += report(at("tile(float *)", "tile"), t, block, t * 4);
  want += "========= ERROR SUMMARY: 16 errors\n";
  for (const char* threads : {"1", "2"}) {
    const auto r = sanitize("--initcheck-memory all", "tile", threads);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(rt_test::masked_offsets(r.out), want) << threads;
  }
}

TEST_F(InitcheckShared, AnUnknownScopeIsRefused) {
  const auto r = sanitize("--initcheck-memory shared", "one");
  EXPECT_NE(r.exit_code, 0) << r.out;
  EXPECT_NE((r.out + r.err).find("--initcheck-memory"), std::string::npos) << r.out << r.err;
}

}  // namespace
