// The time model's serialised costs in a run (docs/time.md, "Serialised costs";
// programs/time_costs.cu): a warp spinning until clock64() has advanced N cycles is predicted
// N / f (f = 1.98 GHz, docs/time.md) within 3 %; n atomic adds of 135168 threads to one float
// address are predicted n x 1.7549 ns, the H100's measured time per same-address operation
// (tests/hw/data/h100/timing/contention_summary.txt), and to one int n / 32 x 0.7311 ns (ptxas
// aggregates them per warp); n printf calls
// 23204.8 + n x 287.35 ns; a lone thread's k malloc/free calls 6930.1 + k x 7006.95 ns; each plus
// the launch overhead of 2192 ns (the constants' derivation: src/timing/contention.cpp); c = a + b
// over zero-copy host memory moves its 12 bytes per element at 71.54 bytes per ns.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "harness.hpp"

namespace {

using rt_test::prog;
using rt_test::run_under_warpscope;

nlohmann::json run_costs(const std::string& args, const std::string& tag) {
  const std::string path = std::string(WARPSCOPE_RT_PROGRAMS_DIR) + "/time_costs_" + tag + ".json";
  const auto r = run_under_warpscope(prog("time_costs") + " " + args, path, "WARPSCOPE_QUIET=1");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  const nlohmann::json report = nlohmann::json::parse(rt_test::slurp(path));
  EXPECT_EQ(report["launches"].size(), 1u);
  return report["launches"][0];
}

TEST(TimeCosts, AClockSpinOfNCyclesTakesNOverF) {
  const double cycles = 19.8e6;  // 10 ms at 1.98 GHz, as simpleHyperQ's clock_block waits
  const nlohmann::json l = run_costs("spin 19800000", "spin");
  const auto& t = l["time"];
  ASSERT_TRUE(t["available"].get<bool>()) << t.dump();
  const double ns = l["metrics"]["gpu__time_duration.sum"].get<double>();
  EXPECT_NEAR(ns, cycles / 1.98, 0.03 * cycles / 1.98) << t.dump();
  EXPECT_EQ(t["limiter"], "clock");
  // One warp: its skew is the launch's sum and maximum, at least the wait less the instructions.
  EXPECT_EQ(t["serial_inputs"]["clock_skew_sum_cycles"], t["serial_inputs"]["clock_skew_max_cycles"]);
  EXPECT_GE(t["serial_inputs"]["clock_skew_max_cycles"].get<double>(), cycles - 20000);
}

TEST(TimeCosts, SameAddressIntAtomicsAreSerialised) {
  const nlohmann::json l = run_costs("atomic_int 8", "atomic_int");
  const auto& t = l["time"];
  ASSERT_TRUE(t["available"].get<bool>()) << t.dump();
  // 135168 threads x 8 adds of 1 to one address (a kernel parameter): ptxas aggregates them (its
  // machine code counts the warp's lanes with VOTEU / POPC and one lane adds the count), so the L2
  // sees one add per warp: 4224 warps x 8 = 33792 operations, as the H100's contention_warps
  // kind_add measured (0.0228 ns per lane = 0.7311 / 32; tests/hw/data/h100/timing).
  EXPECT_EQ(t["serial_inputs"]["atomic_address_ops"].get<double>(), 33792.0);
  EXPECT_EQ(t["serial_inputs"]["atomic_line_steps"].get<double>(), 33792.0);
  EXPECT_EQ(t["serial_inputs"]["atomic_address_float_ops"].get<double>(), 0.0);
  EXPECT_EQ(t["serial_inputs"]["atomic_addresses"].get<double>(), 1.0);
  EXPECT_NEAR(l["metrics"]["gpu__time_duration.sum"].get<double>(), 33792 * 0.7311 + 2192, 1e-6);
  EXPECT_EQ(t["limiter"], "atomic");
}

TEST(TimeCosts, SameAddressFloatAddsAreSerialisedSlower) {
  const nlohmann::json l = run_costs("atomic_float 2", "atomic_float");
  const auto& t = l["time"];
  ASSERT_TRUE(t["available"].get<bool>()) << t.dump();
  EXPECT_EQ(t["serial_inputs"]["atomic_address_float_ops"].get<double>(), 270336.0);
  EXPECT_NEAR(l["metrics"]["gpu__time_duration.sum"].get<double>(), 270336 * 1.7549 + 2192, 1e-6);
  EXPECT_EQ(t["limiter"], "atomic");
}

TEST(TimeCosts, DevicePrintfCallsAreSerialised) {
  const nlohmann::json l = run_costs("printf 256", "printf");
  const auto& t = l["time"];
  ASSERT_TRUE(t["available"].get<bool>()) << t.dump();
  EXPECT_EQ(t["serial_inputs"]["printf_calls"].get<double>(), 256.0);
  EXPECT_NEAR(l["metrics"]["gpu__time_duration.sum"].get<double>(), 23204.8 + 256 * 287.35 + 2192, 1e-6);
  EXPECT_EQ(t["limiter"], "printf");
}

TEST(TimeCosts, ALoneThreadsHeapCallsWaitForEachOther) {
  const nlohmann::json l = run_costs("heap 16", "heap");
  const auto& t = l["time"];
  ASSERT_TRUE(t["available"].get<bool>()) << t.dump();
  EXPECT_EQ(t["serial_inputs"]["heap_calls"].get<double>(), 32.0);  // 16 mallocs, 16 frees
  EXPECT_NEAR(l["metrics"]["gpu__time_duration.sum"].get<double>(), 6930.1 + 32 * 7006.95 + 2192, 1e-6);
  EXPECT_EQ(t["limiter"], "heap");
}

TEST(TimeCosts, ZeroCopyBytesCrossTheHostLink) {
  const nlohmann::json l = run_costs("zerocopy 65536", "zerocopy");
  const auto& t = l["time"];
  ASSERT_TRUE(t["available"].get<bool>()) << t.dump();
  EXPECT_EQ(t["serial_inputs"]["host_read_bytes"].get<double>(), 2 * 65536 * 4.0);
  EXPECT_EQ(t["serial_inputs"]["host_written_bytes"].get<double>(), 65536 * 4.0);
  EXPECT_NEAR(l["metrics"]["gpu__time_duration.sum"].get<double>(), 3 * 65536 * 4 / 71.54 + 2192, 1e-6);
  EXPECT_EQ(t["limiter"], "host");
}

}  // namespace

namespace {

nlohmann::json run_chain(const std::string& args, const std::string& tag) {
  const std::string path = std::string(WARPSCOPE_RT_PROGRAMS_DIR) + "/time_chains_" + tag + ".json";
  const auto r = rt_test::run_under_warpscope(rt_test::prog("time_chains") + " " + args, path, "WARPSCOPE_QUIET=1");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;  // the program checks its results against the CPU
  const nlohmann::json report = nlohmann::json::parse(rt_test::slurp(path));
  EXPECT_EQ(report["launches"].size(), 1u);
  return report["launches"][0];
}

double warp_cycles_per_step(const nlohmann::json& launch, double steps) {
  return launch["time"]["components"]["warp_latency_cycles"].get<double>() / steps;
}

}  // namespace

// docs/time.md "Branches": one warp's chain of x = 1/sqrtf(x*x + c) took 136.32 cycles per step on
// the H100 (tests/hw/data/h100/timing/branch_cost.txt, recip_sqrt); the prediction is within 2 %.
TEST(TimeChains, IeeeReciprocalSquareRootStepsAsOnTheH100) {
  const nlohmann::json l = run_chain("recip_sqrt", "recip_sqrt");
  EXPECT_NEAR(warp_cycles_per_step(l, 256 * 64), 136.32, 0.02 * 136.32) << l["time"].dump();
}

// docs/time.md "Barriers": back-to-back __syncthreads() of one CTA took 14.02 cycles with 1 warp and
// 76.04 with 32 on the H100 (barrier_cost.txt).
TEST(TimeChains, BarriersAsOnTheH100) {
  EXPECT_NEAR(warp_cycles_per_step(run_chain("barrier 1", "barrier1"), 256 * 32), 14.02, 0.02 * 14.02);
  EXPECT_NEAR(warp_cycles_per_step(run_chain("barrier 32", "barrier32"), 256 * 32), 76.04, 0.02 * 76.04);
}

// docs/time.md "Constant data": a lone thread summing 1024 ints of a parameter took 6656-6688 ns on
// the H100 under ncu (const_launch_ncu.csv, psum<1024>); predicted within 5 %.
TEST(TimeChains, AParameterSumAsOnTheH100) {
  const nlohmann::json l = run_chain("params", "params");
  EXPECT_NEAR(l["metrics"]["gpu__time_duration.sum"].get<double>(), 6667, 0.05 * 6667) << l["time"].dump();
  EXPECT_EQ(l["time"]["serial_inputs"]["parameter_lines"].get<double>(), 66.0);  // 4096 bytes and 2 more lines
}

// docs/time.md "CTA launch rate": 66000 CTAs of 32 threads storing one int each took 41856 ns on
// the H100 (cta_rate_ncu.csv): 66000 x 0.601 ns + 2192 ns.
TEST(TimeChains, ManySmallCtasAsOnTheH100) {
  const nlohmann::json l = run_chain("ctas 66000", "ctas");
  EXPECT_NEAR(l["metrics"]["gpu__time_duration.sum"].get<double>(), 41856, 0.02 * 41856) << l["time"].dump();
  EXPECT_EQ(l["time"]["limiter"], "cta_launch");
}

// docs/time.md "Shared misses": warps of an SM walking the same words wait for each new sector as
// the warp whose miss brings it does. On the H100 (tests/hw/data/h100/timing/shared_stream.txt,
// 8 warps per CTA, 16-byte stride, K = 24) a step took 273.42 cycles with the words shared and
// 272.51 with a copy per warp: sharing saved nothing. The model predicts each launch with cold
// caches (as ncu measures; the H100's figures had the table in L2), so the test compares the two
// (a step is the walk's cycles / 2048): within 3 % of the H100's ratio, where counting the other
// warps' hits as plain L1 hits (WARPSCOPE_SHARED_MISSES=off) predicts 0.42.
TEST(TimeChains, WarpsSharingAStreamWaitForItsMissesAsOnTheH100) {
  auto step_cycles = [](const std::string& mode) {
    const std::string path = std::string(WARPSCOPE_RT_PROGRAMS_DIR) + "/time_chains_walk_" + mode + ".json";
    const auto r = rt_test::run_under_warpscope(rt_test::prog("time_chains") + " walk 8 " + mode, path,
                                                "WARPSCOPE_QUIET=1");
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const nlohmann::json report = nlohmann::json::parse(rt_test::slurp(path));
    EXPECT_EQ(report["launches"].size(), 2u);  // touch, walk
    return report["launches"].back()["time"]["components"]["sm_cycles"].get<double>() / 2048;
  };
  const double shared = step_cycles("shared"), priv = step_cycles("private");
  EXPECT_NEAR(shared / priv, 273.42 / 272.51, 0.03) << shared << " " << priv;
}
