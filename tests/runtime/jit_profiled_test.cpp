// Profiled launches with native segments (src/jit, docs/exec.md "Native segments") against the
// interpreter: each example program runs under warpscope twice, interpreted (WARPSCOPE_JIT=0) and
// with segments from its first profiled instruction on (WARPSCOPE_JIT_TRACED_AFTER=0), on 2 host
// threads; the two reports must be the same document except for what measures the host (process
// ids, clocks, wall times, peak memory): every counter of every launch, per PTX instruction and
// per CUDA line, the samples, the advice and the predicted times. spill's loads carry compiled
// accesses and record widths (run_hooked), so the JIT's calls of hooked instructions are covered.
#include <gtest/gtest.h>

#include <ostream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "harness.hpp"

namespace {

using rt_test::prog;
using rt_test::run_under_warpscope;

/// The keys whose values measure the host, not the emulated GPU.
const std::set<std::string>& host_keys() {
  static const std::set<std::string> keys = {"pid", "ppid", "host_time_ns", "wall_ms", "host_peak_rss_bytes",
                                             "start_ns"};
  return keys;
}

void drop_host_values(nlohmann::json& j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end();) {
      if (host_keys().count(it.key())) {
        it = j.erase(it);
      } else {
        drop_host_values(it.value());
        ++it;
      }
    }
  } else if (j.is_array()) {
    for (auto& v : j) drop_host_values(v);
  }
}

nlohmann::json report(const std::string& program, const std::string& args, const std::string& env,
                      const std::string& tag) {
  const std::string path = std::string(WARPSCOPE_RT_PROGRAMS_DIR) + "/jit_profiled_" + program + "_" + tag + ".json";
  const auto r = run_under_warpscope(prog(program) + " " + args, path, "WARPSCOPE_QUIET=1 WARPSCOPE_THREADS=2 " + env);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  nlohmann::json j = nlohmann::json::parse(rt_test::slurp(path));
  drop_host_values(j);
  return j;
}

struct Example {
  const char* name;
  const char* args;
};

void PrintTo(const Example& e, std::ostream* os) { *os << e.name << " " << e.args; }

class JitProfiled : public ::testing::TestWithParam<Example> {};

TEST_P(JitProfiled, ReportEqualsTheInterpreters) {
  const Example& e = GetParam();
  const nlohmann::json interp = report(e.name, e.args, "WARPSCOPE_JIT=0", "interp");
  const nlohmann::json jit = report(e.name, e.args, "WARPSCOPE_JIT_TRACED_AFTER=0", "jit");
  ASSERT_FALSE(interp["launches"].empty());
  ASSERT_EQ(interp["launches"].size(), jit["launches"].size());
  for (std::size_t i = 0; i < interp["launches"].size(); ++i) {
    // Launch by launch first, so that a difference names its launch; then the whole document.
    EXPECT_EQ(interp["launches"][i], jit["launches"][i])
        << e.name << " launch " << i << ": " << nlohmann::json::diff(interp["launches"][i], jit["launches"][i]).dump();
  }
  EXPECT_EQ(interp, jit) << nlohmann::json::diff(interp, jit).dump();
}

INSTANTIATE_TEST_SUITE_P(
    Examples, JitProfiled,
    ::testing::Values(Example{"nbody", "all 512 1"}, Example{"saxpy", "100003"}, Example{"local_arrays", "8192"},
                      Example{"aos_soa", "65536"}, Example{"padding2d", "1000 300"},
                      Example{"misaligned_copy", "65536"}, Example{"spill", ""}),
    [](const ::testing::TestParamInfo<Example>& p) { return std::string(p.param.name); });

}  // namespace
