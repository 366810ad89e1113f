// The time model's serialised costs (src/timing/contention.cpp, docs/time.md "Serialised
// costs"): a clock spin is time in the spinning warp's life; same-address atomics bound the
// launch at the H100's measured time per operation (tests/hw/data/h100/timing/
// contention_summary.txt: 0.7311 ns per int operation, 1.7549 ns per float add). Expected values
// follow from those rules: each prediction is compared with the same launch's without the cost.
#include <gtest/gtest.h>

#include "arch/profile.hpp"
#include "timing/model.hpp"

namespace warpscope::timing {
namespace {

const TimeConstants& h100() { return *constants_for(arch::builtin_profile("hopper")); }

InstructionMix fp32_only(double warps, double per_warp) {
  InstructionMix m;
  m.total = m.fp32 = warps * per_warp;
  return m;
}

TEST(Contention, AClockSpinLengthensTheSpinningWarp) {
  // One warp that spun 19.8 M cycles (10 ms at 1.98 GHz) beyond its own instructions.
  const LaunchShape one{1, 1, 1, 132, 64};
  const Prediction base = predict(h100(), one, fp32_only(1, 100), MemoryCounts{});
  SerialCounts s;
  s.clock_skew_sum = s.clock_skew_max = 19.8e6;
  const Prediction p = predict(h100(), one, fp32_only(1, 100), MemoryCounts{}, s, nullptr);
  EXPECT_NEAR(p.duration_ns - base.duration_ns, 1e7, 1e-6);
  EXPECT_EQ(p.limiter, "clock");
}

TEST(Contention, WarpsSpinningTogetherOverlap) {
  // 132 CTAs of 4 warps, one warp per scheduler, each spinning 1 M cycles: the launch takes one
  // spin more than without, not 528.
  const LaunchShape shape{132, 4, 1, 132, 64};
  const Prediction base = predict(h100(), shape, fp32_only(528, 100), MemoryCounts{});
  SerialCounts s;
  s.clock_skew_sum = 528e6;
  s.clock_skew_max = 1e6;
  const Prediction p = predict(h100(), shape, fp32_only(528, 100), MemoryCounts{}, s, nullptr);
  EXPECT_NEAR(p.duration_ns - base.duration_ns, 1e6 / 1.98, 1e-6);
}

TEST(Contention, SameAddressAtomicsBoundTheLaunch) {
  const SerialConstants* sc = serial_constants_for("hopper");
  ASSERT_NE(sc, nullptr);
  const LaunchShape shape{528, 8, 8, 132, 64};
  SerialCounts s;
  s.atomic_address_ops = 1081344;  // 135168 threads adding 8 times to one int
  s.atomic_line_steps = 1081344;
  Prediction p = predict(h100(), shape, fp32_only(4224, 20), MemoryCounts{}, s, sc);
  EXPECT_NEAR(p.duration_ns, 1081344 * 0.7311 + 2192, 1e-6);
  EXPECT_EQ(p.limiter, "atomic");
  // Float adds on one address: 1.7549 ns each.
  s = SerialCounts{};
  s.atomic_address_ops = s.atomic_address_float_ops = s.atomic_line_steps = 270336;
  p = predict(h100(), shape, fp32_only(4224, 20), MemoryCounts{}, s, sc);
  EXPECT_NEAR(p.duration_ns, 270336 * 1.7549 + 2192, 1e-6);
  // Two ints 32 bytes apart in one line: each has half the operations, the line all the steps.
  s = SerialCounts{};
  s.atomic_address_ops = 540672;
  s.atomic_line_steps = 1081344;
  p = predict(h100(), shape, fp32_only(4224, 20), MemoryCounts{}, s, sc);
  EXPECT_NEAR(p.duration_ns, 1081344 * 0.7311 + 2192, 1e-6);
}

TEST(Contention, FewAtomicsLeaveTheOtherBounds) {
  const LaunchShape shape{132, 1, 1, 132, 64};
  const Prediction base = predict(h100(), shape, fp32_only(132, 100), MemoryCounts{});
  SerialCounts s;
  s.atomic_address_ops = s.atomic_line_steps = 132;  // 132 ns of serial work: below the SM time
  const Prediction p = predict(h100(), shape, fp32_only(132, 100), MemoryCounts{}, s, serial_constants_for("hopper"));
  EXPECT_DOUBLE_EQ(p.duration_ns, base.duration_ns);
  EXPECT_EQ(p.limiter, base.limiter);
}

TEST(Contention, PrintfAndHeapCallsBoundTheLaunch) {
  const SerialConstants* sc = serial_constants_for("hopper");
  const LaunchShape shape{1, 1, 1, 132, 64};
  SerialCounts s;
  s.printf_calls = 32;  // 23204.8 ns per printing launch, 287.35 ns per call
  Prediction p = predict(h100(), shape, fp32_only(1, 20), MemoryCounts{}, s, sc);
  EXPECT_NEAR(p.duration_ns, 23204.8 + 32 * 287.35 + 2192, 1e-6);
  EXPECT_EQ(p.limiter, "printf");
  // A lone thread's 2 heap calls: 6930.1 ns per launch, 7006.95 ns per call.
  s = SerialCounts{};
  s.heap_calls = 2;
  s.threads = 1;
  s.warps = 1;
  p = predict(h100(), shape, fp32_only(1, 20), MemoryCounts{}, s, sc);
  EXPECT_NEAR(p.duration_ns, 6930.1 + 2 * 7006.95 + 2192, 1e-6);
  EXPECT_EQ(p.limiter, "heap");
  // One warp of 32 threads, 4 pairs each: 256 calls of lanes of one warp, 1217.65 ns each.
  s.heap_calls = 256;
  s.threads = 32;
  p = predict(h100(), shape, fp32_only(1, 20), MemoryCounts{}, s, sc);
  EXPECT_NEAR(p.duration_ns, 6930.1 + 256 * 1217.65 + 2192, 1e-6);
  // 16384 threads (512 warps), 4 pairs each: the device's calls, 157.7 ns each.
  s.heap_calls = 131072;
  s.threads = 16384;
  s.warps = 512;
  p = predict(h100(), LaunchShape{64, 8, 8, 132, 64}, fp32_only(512, 20), MemoryCounts{}, s, sc);
  EXPECT_NEAR(p.duration_ns, 6930.1 + 131072 * 157.7 + 2192, 1e-6);
}

TEST(Contention, ZeroCopyBytesAtTheHostLinksRate) {
  const SerialConstants* sc = serial_constants_for("hopper");
  const LaunchShape shape{4096, 8, 8, 132, 64};
  SerialCounts s;
  s.host_read_bytes = 8388608;  // c = a + b over 2^20 floats: 8 MiB read, 4 MiB written
  s.host_written_bytes = 4194304;
  Prediction p = predict(h100(), shape, fp32_only(32768, 10), MemoryCounts{}, s, sc);
  EXPECT_NEAR(p.duration_ns, 12582912 / 71.54 + 2192, 1e-6);
  EXPECT_EQ(p.limiter, "host");
  s.host_written_bytes = 0;  // reads alone: 51.03 bytes per ns
  p = predict(h100(), shape, fp32_only(32768, 10), MemoryCounts{}, s, sc);
  EXPECT_NEAR(p.duration_ns, 8388608 / 51.03 + 2192, 1e-6);
}

TEST(Contention, OnlyTheH100HasMeasuredConstants) {
  EXPECT_NE(serial_constants_for("hopper"), nullptr);
  EXPECT_EQ(serial_constants_for("kepler"), nullptr);
  EXPECT_EQ(serial_constants_for("ampere"), nullptr);
}

}  // namespace
}  // namespace warpscope::timing
