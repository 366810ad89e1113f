// Every corpus test (tests/corpus) run three times in one process (--gtest_repeat=3):
//  0. interpreted, every launch profiled (an access sink that hashes each warp access record);
//  1. with native segments (src/jit), no access sink (an unprofiled launch);
//  2. with native segments, every launch profiled as in 0 (segments from the first instruction:
//     exec::set_jit_traced_after(0)).
// Every downloaded buffer and every launch's counters (warp and thread instructions, per
// instruction too) are hashed per test and must agree in the three runs; the record stream
// (every field of every WarpAccess, in the order the sink gets them, which is all the memory
// model and the statistics see) must agree between 0 and 2. The corpus tests check the results
// against their CPU references on every run.
#include <cstdint>
#include <cstring>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "common/access.hpp"
#include "corpus.hpp"
#include "exec/segments.hpp"
#include "jit/jit.hpp"

namespace {

constexpr int kRuns = 3;
std::map<std::string, std::uint64_t> g_digest[kRuns];
std::map<std::string, std::uint64_t> g_records[kRuns];  // runs 0 and 2
std::map<std::string, std::uint64_t> g_record_count[kRuns];
std::string g_test;
int g_iteration = -1;

void hash_into(std::uint64_t& h, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
}

void mix(const void* data, std::size_t bytes) {
  if (g_iteration < 0 || g_iteration >= kRuns) return;
  hash_into(g_digest[g_iteration].try_emplace(g_test, 0xcbf29ce484222325ull).first->second, data, bytes);
}

/// Hashes every field of every record (the active lanes' addresses; `summary` is derived from
/// them and not hashed).
class RecordHash final : public warpscope::AccessSink {
 public:
  void on_access(const warpscope::WarpAccess& a) override {
    if (g_iteration < 0 || g_iteration >= kRuns) return;
    std::uint64_t& h = g_records[g_iteration].try_emplace(g_test, 0xcbf29ce484222325ull).first->second;
    ++g_record_count[g_iteration][g_test];
    const std::uint32_t active = a.active.bits();
    const std::uint64_t head[] = {a.pc,
                                  a.cta,
                                  a.warp,
                                  static_cast<std::uint64_t>(a.space),
                                  static_cast<std::uint64_t>(a.op),
                                  static_cast<std::uint64_t>(a.cache),
                                  a.width,
                                  a.part,
                                  a.texel_fetch ? 1u : 0u,
                                  a.matrix ? 1u : 0u,
                                  a.tensor ? 1u : 0u,
                                  a.destinations,
                                  a.fill_lanes,
                                  a.no_read_lanes,
                                  active};
    hash_into(h, head, sizeof head);
    for (unsigned l = 0; l < warpscope::kMaxWarpSize; ++l) {
      if ((active >> l) & 1u) hash_into(h, &a.addr[l], sizeof a.addr[l]);
    }
  }
};
RecordHash g_sink;

void mix_stats(const warpscope::LaunchStats& s) {
  mix(&s.warp_instructions, sizeof s.warp_instructions);
  mix(&s.thread_instructions, sizeof s.thread_instructions);
  mix(s.pc_instructions.data(), s.pc_instructions.size() * sizeof(std::uint64_t));
  mix(s.pc_thread_instructions.data(), s.pc_thread_instructions.size() * sizeof(std::uint64_t));
}

class Names : public ::testing::EmptyTestEventListener {
  void OnTestIterationStart(const ::testing::UnitTest&, int iteration) override {
    g_iteration = iteration;
    warpscope::exec::set_jit_enabled(iteration != 0);
    corpus::launch_sink = iteration == 1 ? nullptr : &g_sink;
  }
  void OnTestStart(const ::testing::TestInfo& t) override {
    g_test = std::string(t.test_suite_name()) + "." + t.name();
  }
};

/// Compares the two iterations at the end (gtest sets environments up once for all iterations).
class Compare : public ::testing::Environment {
 public:
  void TearDown() override {
    if (g_iteration != kRuns - 1) return;
    const warpscope::jit::Stats st = warpscope::jit::stats();
    EXPECT_GT(st.segments, 0u) << "the JIT compiled nothing";
    EXPECT_GT(st.native, 0u) << "no instruction became native code";
    std::printf("jit: %llu kernels (%llu loaded from the disk cache, %llu stored), %llu segments, %llu instructions "
                "(%llu native), %.2f s compiling\n",
                static_cast<unsigned long long>(st.kernels), static_cast<unsigned long long>(st.cache_loads),
                static_cast<unsigned long long>(st.cache_stores), static_cast<unsigned long long>(st.segments),
                static_cast<unsigned long long>(st.instructions), static_cast<unsigned long long>(st.native),
                st.compile_seconds);
    for (int run = 1; run < kRuns; ++run) {
      const char* what = run == 1 ? "the JIT without statistics" : "the JIT with statistics";
      EXPECT_EQ(g_digest[0].size(), g_digest[run].size()) << what;
      for (const auto& [test, h] : g_digest[0]) {
        auto it = g_digest[run].find(test);
        if (it == g_digest[run].end()) {
          ADD_FAILURE() << test << ": observed interpreted, not with " << what;
          continue;
        }
        EXPECT_EQ(h, it->second) << test << ": outputs or counters differ between the interpreter and " << what;
      }
    }
    EXPECT_GT(g_records[0].size(), 0u) << "no record reached the sink";
    EXPECT_EQ(g_records[0].size(), g_records[2].size());
    for (const auto& [test, h] : g_records[0]) {
      auto it = g_records[2].find(test);
      if (it == g_records[2].end()) {
        ADD_FAILURE() << test << ": records interpreted, none with the JIT";
        continue;
      }
      EXPECT_EQ(g_record_count[0][test], g_record_count[2][test]) << test << ": record counts differ";
      EXPECT_EQ(h, it->second) << test << ": the access records differ between the interpreter and the JIT";
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
  ::testing::GTEST_FLAG(repeat) = kRuns;
  warpscope::exec::set_jit_traced_after(0);  // profiled launches run segments from their start
  ::testing::UnitTest::GetInstance()->listeners().Append(new Names);
  ::testing::AddGlobalTestEnvironment(new Compare);
  corpus::observe_bytes = &mix;
  corpus::observe_launch = &mix_stats;
  return RUN_ALL_TESTS();
}
