// Every corpus test (tests/corpus) run twice in one process (--gtest_repeat=2): the first time
// interpreted, the second with native segments (src/jit). Every downloaded buffer and every
// launch's counters (warp and thread instructions, per instruction too) are hashed per test; the
// two runs must give the same hashes, test by test. The corpus tests check the results against
// their CPU references on both runs.
#include <cstdint>
#include <cstring>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "corpus.hpp"
#include "exec/segments.hpp"
#include "jit/jit.hpp"

namespace {

std::map<std::string, std::uint64_t> g_digest[2];
std::string g_test;
int g_iteration = -1;

void mix(const void* data, std::size_t bytes) {
  if (g_iteration < 0 || g_iteration > 1) return;
  std::uint64_t& h = g_digest[g_iteration].try_emplace(g_test, 0xcbf29ce484222325ull).first->second;
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
}

void mix_stats(const warpscope::LaunchStats& s) {
  mix(&s.warp_instructions, sizeof s.warp_instructions);
  mix(&s.thread_instructions, sizeof s.thread_instructions);
  mix(s.pc_instructions.data(), s.pc_instructions.size() * sizeof(std::uint64_t));
  mix(s.pc_thread_instructions.data(), s.pc_thread_instructions.size() * sizeof(std::uint64_t));
}

class Names : public ::testing::EmptyTestEventListener {
  void OnTestIterationStart(const ::testing::UnitTest&, int iteration) override {
    g_iteration = iteration;
    warpscope::exec::set_jit_enabled(iteration == 1);
  }
  void OnTestStart(const ::testing::TestInfo& t) override {
    g_test = std::string(t.test_suite_name()) + "." + t.name();
  }
};

/// Compares the two iterations at the end (gtest sets environments up once for all iterations).
class Compare : public ::testing::Environment {
 public:
  void TearDown() override {
    if (g_iteration != 1) return;
    const warpscope::jit::Stats st = warpscope::jit::stats();
    EXPECT_GT(st.segments, 0u) << "the JIT compiled nothing";
    EXPECT_GT(st.native, 0u) << "no instruction became native code";
    std::printf("jit: %llu kernels (%llu loaded from the disk cache, %llu stored), %llu segments, %llu instructions "
                "(%llu native), %.2f s compiling\n",
                static_cast<unsigned long long>(st.kernels), static_cast<unsigned long long>(st.cache_loads),
                static_cast<unsigned long long>(st.cache_stores), static_cast<unsigned long long>(st.segments),
                static_cast<unsigned long long>(st.instructions), static_cast<unsigned long long>(st.native),
                st.compile_seconds);
    EXPECT_EQ(g_digest[0].size(), g_digest[1].size());
    for (const auto& [test, h] : g_digest[0]) {
      auto it = g_digest[1].find(test);
      if (it == g_digest[1].end()) {
        ADD_FAILURE() << test << ": observed interpreted, not with the JIT";
        continue;
      }
      EXPECT_EQ(h, it->second) << test << ": outputs or counters differ between the interpreter and the JIT";
    }
  }
};

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (!warpscope::jit::install()) {
    std::printf("jit: not built in; nothing to compare\n");
    return 0;
  }
  ::testing::GTEST_FLAG(repeat) = 2;
  ::testing::UnitTest::GetInstance()->listeners().Append(new Names);
  ::testing::AddGlobalTestEnvironment(new Compare);
  corpus::observe_bytes = &mix;
  corpus::observe_launch = &mix_stats;
  return RUN_ALL_TESTS();
}
