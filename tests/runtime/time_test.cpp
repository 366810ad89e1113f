// The time model in a run (docs/time.md): every launch of the N-body has a prediction recorded as
// estimated metrics, cudaEventElapsedTime prints the predicted GPU time of the launches between
// its events (the rule: the sum of their gpu__time_duration.sum), --compare-arch predicts per
// profile, and WARPSCOPE_EVENT_TIME=wall keeps the emulator's wall time.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "harness.hpp"

namespace {

using rt_test::prog;
using rt_test::run_under_warpscope;

struct TimedRun {
  nlohmann::json report;
  std::string out;
};

TimedRun run_nbody(const std::string& env, const std::string& tag) {
  const std::string path = std::string(WARPSCOPE_RT_PROGRAMS_DIR) + "/time_" + tag + ".json";
  const auto r = run_under_warpscope(prog("nbody") + " all 512 1", path, "WARPSCOPE_QUIET=1 " + env);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return {nlohmann::json::parse(rt_test::slurp(path)), r.out};
}

/// The program's "[timing] VARIANT cudaEventElapsedTime (ms): X" values, in order.
std::vector<double> event_ms(const std::string& out) {
  std::vector<double> v;
  const std::regex re(R"(cudaEventElapsedTime \(ms\): ([0-9.]+))");
  for (auto it = std::sregex_iterator(out.begin(), out.end(), re); it != std::sregex_iterator(); ++it)
    v.push_back(std::stod((*it)[1]));
  return v;
}

TEST(Time, EveryLaunchIsPredictedAndEventsPrintThePrediction) {
  const TimedRun r = run_nbody("WARPSCOPE_COMPARE_ARCH=kepler", "predicted");
  EXPECT_EQ(r.report["event_time"], "predicted");
  const auto& L = r.report["launches"];
  ASSERT_EQ(L.size(), 5u);
  const std::vector<double> ms = event_ms(r.out);
  ASSERT_EQ(ms.size(), 5u) << r.out;
  double sum = 0;
  for (std::size_t i = 0; i < L.size(); ++i) {
    const auto& t = L[i]["time"];
    ASSERT_TRUE(t["available"].get<bool>()) << t.dump();
    const double ns = t["duration_ns"].get<double>();
    EXPECT_EQ(L[i]["metrics"]["gpu__time_duration.sum"].get<double>(), ns);
    const auto& est = L[i]["estimated"];
    EXPECT_NE(std::find(est.begin(), est.end(), "gpu__time_duration.sum"), est.end());
    // One launch between the events of each variant: its duration, printed with 3 decimals.
    EXPECT_NEAR(ms[i], ns / 1e6, 0.0005 + 1e-9) << i;
    // Longer than the empty kernel's launch overhead measured on the H100 (2192 ns).
    EXPECT_GT(ns, 2192.0);
    ASSERT_EQ(L[i]["compare"].size(), 1u);
    EXPECT_TRUE(L[i]["compare"][0]["time"]["available"].get<bool>());
    // The primary (hopper, sm_90 machine code) counts from the machine code: every executed
    // machine instruction is an issue slot of the mix; the compared profile keeps the PTX's.
    if (L[i].contains("sass") && L[i]["sass"].is_object()) {
      EXPECT_EQ(t["instruction_counts"], "sass");
      EXPECT_EQ(t["mix"]["total"].get<double>(), L[i]["metrics"]["smsp__inst_executed.sum"].get<double>());
      EXPECT_TRUE(t["mix"]["from_machine_code"].get<bool>());
    }
    EXPECT_EQ(L[i]["compare"][0]["time"]["instruction_counts"], "ptx");
    sum += ns;
  }
  EXPECT_DOUBLE_EQ(r.report["predicted_gpu_ns"].get<double>(), sum);
  EXPECT_EQ(r.report["unpredicted_launches"], 0);
}

TEST(Time, WallEventTimeIsKeptOnRequest) {
  const TimedRun r = run_nbody("WARPSCOPE_EVENT_TIME=wall", "wall");
  EXPECT_EQ(r.report["event_time"], "wall");
  EXPECT_NE(r.report["timing_note"].get<std::string>().find("wall time"), std::string::npos);
}

}  // namespace
