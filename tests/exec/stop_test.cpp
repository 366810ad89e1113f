// Launches that end before their end (docs/exec.md, "Stopping a launch"): a stop requested from
// another thread ends a launch that never ends by itself, with where its warps were; a spin on a
// flag nobody sets is a hang, reported at once; waits that do end are no hang; progress counters.
// Source lines come from the `// @name` markers of tests/exec/kernels/stop.cu.
#include <atomic>
#include <chrono>
#include <fstream>
#include <thread>

#include <gmock/gmock.h>

#include "exec_test_util.hpp"
#include "warpscope/error.hpp"

namespace warpscope::exec::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

/// The line of stop.cu that carries `// @name`.
std::uint32_t marker_line(const std::string& name) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/exec/kernels/stop.cu");
  std::string line;
  for (std::uint32_t n = 1; std::getline(in, line); ++n) {
    if (line.find("// @" + name) != std::string::npos) return n;
  }
  ADD_FAILURE() << "no marker @" << name;
  return 0;
}

class Stop : public ::testing::Test {
 protected:
  void SetUp() override {
    ptx_ = kernel_ptx("stop");
    if (ptx_.empty()) GTEST_SKIP() << "no PTX (nvcc missing?)";
  }
  std::string ptx_;
};

/// The source line of pc in the module.
std::uint32_t line_of(const Module& m, const std::string& kernel, std::uint32_t pc) {
  return m.instructions(kernel).at(pc).line;
}

/// {lowest, highest} source line of the loop [first, last] (pcs).
std::pair<std::uint32_t, std::uint32_t> loop_lines(const Module& m, const std::string& kernel, const WarpPlace& p) {
  const auto code = m.instructions(kernel);
  std::uint32_t lo = ~0u, hi = 0;
  for (std::int64_t pc = p.loop_first; pc <= p.loop_last; ++pc) {
    const std::uint32_t l = code.at(static_cast<std::size_t>(pc)).line;
    if (l == 0) continue;
    lo = std::min(lo, l);
    hi = std::max(hi, l);
  }
  return {lo, hi};
}

/// Runs `forever` on `threads` host threads and stops it from another thread after 150 ms.
LaunchStop stop_forever(const std::string& ptx, unsigned threads, Dim3 grid, Dim3 block) {
  DeviceOptions o;
  o.host_threads = threads;
  Device dev(o);
  Module m = dev.load_ptx(ptx, "stop.ptx");
  const DevicePtr out = dev.malloc(std::size_t(grid.x) * block.x * 4);
  const long long n = -1;
  const KernelArg args[] = {arg(out), arg(n)};
  std::atomic<int> stop{0};
  LaunchProgress progress;
  LaunchOptions lo;
  lo.stop = &stop;
  lo.progress = &progress;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    stop.store(2);
  });
  const auto t0 = std::chrono::steady_clock::now();
  LaunchStop result;
  try {
    dev.launch(m, "forever", grid, block, args, lo);
    ADD_FAILURE() << "the launch ended by itself";
  } catch (const LaunchStopped& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInterrupted);
    const std::string loop =
        "stop.cu:" + std::to_string(marker_line("forever-first")) + "-" + std::to_string(marker_line("forever-last"));
    EXPECT_THAT(e.what(), AllOf(HasSubstr("kernel forever stopped before its end"), HasSubstr("running at"),
                                HasSubstr("in the loop at "), HasSubstr(loop)));
    result = e.stop();
  }
  stopper.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_LT(seconds, 1.5) << "the stop took too long";
  EXPECT_GT(progress.warp_instructions.load(), 0u);
  EXPECT_GE(result.partial.warp_instructions, progress.warp_instructions.load());
  // Every place is inside the loop at @forever-first..@forever-last.
  for (const WarpPlace& p : result.places) {
    EXPECT_EQ(p.state, WarpPlace::State::kRunning);
    EXPECT_GE(p.loop_first, 0);
    if (p.loop_first < 0) continue;
    EXPECT_EQ(loop_lines(m, "forever", p), std::make_pair(marker_line("forever-first"), marker_line("forever-last")));
  }
  return result;
}

TEST_F(Stop, RequestedStopEndsALoopThatNeverEnds) {
  const LaunchStop s = stop_forever(ptx_, 1, {4}, {64});
  EXPECT_EQ(s.reason, LaunchStop::Reason::kRequested);
  EXPECT_EQ(s.code, 2);
  EXPECT_EQ(s.ctas_total, 4u);
  EXPECT_EQ(s.ctas_done, 0u);  // block 0 never ends
  // Both warps of block 0, wherever in the loop each was.
  std::uint64_t warps = 0;
  for (const WarpPlace& p : s.places) {
    warps += p.warps;
    EXPECT_EQ(p.first_cta, 0u);
    EXPECT_EQ(p.ctas, 1u);
  }
  EXPECT_EQ(warps, 2u);
}

TEST_F(Stop, RequestedStopNamesEveryRunningBlockOnSeveralThreads) {
  const LaunchStop s = stop_forever(ptx_, 3, {16}, {32});
  EXPECT_EQ(s.ctas_done, 0u);
  std::uint64_t warps = 0;
  for (const WarpPlace& p : s.places) warps += p.warps;
  // One block per host thread was running (each thread's first block never ends).
  EXPECT_EQ(warps, 3u);
}

TEST_F(Stop, SpinOnAFlagNobodySetsIsAHang) {
  for (unsigned threads : {1u, 2u}) {
    DeviceOptions o;
    o.host_threads = threads;
    Device dev(o);
    Module m = dev.load_ptx(ptx_, "stop.ptx");
    const DevicePtr flag = dev.malloc(4), out = dev.malloc(64 * 4);
    const KernelArg args[] = {arg(flag), arg(out)};
    try {
      dev.launch(m, "spin_on_flag", {1}, {64}, args);
      FAIL() << "no hang reported";
    } catch (const LaunchStopped& e) {
      EXPECT_EQ(e.kind(), ErrorKind::kDeadlock);
      const LaunchStop& s = e.stop();
      EXPECT_EQ(s.reason, LaunchStop::Reason::kHang);
      EXPECT_EQ(s.ctas_done, 0u);
      EXPECT_EQ(s.ctas_total, 1u);
      ASSERT_EQ(s.places.size(), 1u) << e.what();
      const WarpPlace& p = s.places[0];
      EXPECT_EQ(p.state, WarpPlace::State::kSpinning);
      EXPECT_EQ(p.warps, 2u);
      EXPECT_EQ(line_of(m, "spin_on_flag", p.pc), marker_line("spin"));
      // The do-while: its load's line and the `while` line after it.
      EXPECT_EQ(loop_lines(m, "spin_on_flag", p), std::make_pair(marker_line("spin"), marker_line("spin") + 1));
      const std::string where = "stop.cu:" + std::to_string(marker_line("spin"));
      EXPECT_THAT(e.what(), AllOf(HasSubstr("hang in kernel spin_on_flag"), HasSubstr("block (0,0,0)"),
                                  HasSubstr("2 warps of block 0 spinning on an unchanged value at"), HasSubstr(where),
                                  HasSubstr("ld.volatile.global.u32"), HasSubstr("0 of 1 blocks done")));
    }
  }
}

TEST_F(Stop, WaitForAnotherWarpIsNoHang) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "stop.ptx");
  const DevicePtr flag = dev.malloc(4), out = dev.malloc(32 * 4);
  const int n = 1 << 20;  // several million instructions before the flag is set
  const KernelArg args[] = {arg(flag), arg(out), arg(n)};
  dev.launch(m, "wait_for_warp", {1}, {64}, args);
  unsigned acc = 1;
  for (int i = 0; i < n; ++i) acc = acc * 3u + static_cast<unsigned>(i);
  for (int v : download<int>(dev, out, 32)) EXPECT_EQ(static_cast<unsigned>(v), acc | 1u);
}

TEST_F(Stop, PollLoopThatGivesUpByItselfIsNoHang) {
  // 7 instructions per poll: polls are watched after 2^20 instructions (about 150,000 polls); the
  // counter makes the warp's state differ at each poll, so no patient sweep proves a cycle, however
  // long the wait: a million polls (several patient sweeps' budgets) end by themselves.
  Device dev;
  Module m = dev.load_ptx(ptx_, "stop.ptx");
  const DevicePtr flag = dev.malloc(4), polls = dev.malloc(2 * 4);
  const int n = 1000000;
  const KernelArg args[] = {arg(flag), arg(polls), arg(n)};
  dev.launch(m, "bounded_spin", {2}, {32}, args);
  for (int v : download<int>(dev, polls, 2)) EXPECT_EQ(v, n);
}

TEST_F(Stop, WaitsForLowerBlocksAreNoHangOnAnyThreadCount) {
  // Each block works about 2 million instructions before it sets its flag: on several host
  // threads the next block spins (and is watched) meanwhile, while the block it waits for runs.
  for (unsigned threads : {1u, 4u}) {
    DeviceOptions o;
    o.host_threads = threads;
    Device dev(o);
    Module m = dev.load_ptx(ptx_, "stop.ptx");
    const int blocks = 6, work = 400000;
    const DevicePtr flags = dev.malloc(blocks * 4), out = dev.malloc(2 * blocks * 4);
    dev.memset(flags, 0, blocks * 4);
    const KernelArg args[] = {arg(flags), arg(out), arg(work)};
    dev.launch(m, "chain", {blocks}, {32}, args);
    const auto v = download<int>(dev, out, blocks);
    for (int b = 0; b < blocks; ++b) EXPECT_EQ(v[b], b) << "block " << b << ", " << threads << " threads";
  }
}

TEST_F(Stop, ProgressCountsBlocksAndInstructions) {
  for (unsigned threads : {1u, 2u}) {
    DeviceOptions o;
    o.host_threads = threads;
    Device dev(o);
    Module m = dev.load_ptx(ptx_, "stop.ptx");
    const DevicePtr out = dev.malloc(100 * 64 * 4);
    const int n = 100;
    const KernelArg args[] = {arg(out), arg(n)};
    LaunchProgress progress;
    LaunchOptions lo;
    lo.progress = &progress;
    const LaunchStats st = dev.launch(m, "busy", {100}, {64}, args, lo);
    EXPECT_EQ(progress.ctas_done.load(), 100u);
    EXPECT_EQ(progress.warp_instructions.load(), st.warp_instructions);
  }
}

TEST_F(Stop, CooperativeGridDeadlockCarriesThePlaces) {
  const std::string coop = kernel_ptx("coop");
  if (coop.empty()) GTEST_SKIP();
  Device dev;
  Module m = dev.load_ptx(coop, "coop.ptx");
  const DevicePtr flag = dev.malloc(4);
  const KernelArg args[] = {arg(flag)};
  LaunchOptions lo;
  lo.cooperative = true;
  try {
    dev.launch(m, "wait_forever", {4}, {64}, args, lo);
    FAIL() << "no deadlock reported";
  } catch (const LaunchStopped& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDeadlock);
    const LaunchStop& s = e.stop();
    EXPECT_EQ(s.reason, LaunchStop::Reason::kHang);
    EXPECT_EQ(s.ctas_done, 3u);
    ASSERT_EQ(s.places.size(), 1u);
    EXPECT_EQ(s.places[0].state, WarpPlace::State::kSpinning);
    EXPECT_EQ(s.places[0].warps, 1u);
    EXPECT_EQ(s.places[0].first_cta, 0u);
    EXPECT_GE(s.places[0].loop_first, 0);
  }
}

TEST_F(Stop, RequestedStopEndsACooperativeLaunch) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "stop.ptx");
  const DevicePtr out = dev.malloc(2 * 32 * 4);
  const long long n = -1;
  const KernelArg args[] = {arg(out), arg(n)};
  std::atomic<int> stop{0};
  LaunchOptions lo;
  lo.cooperative = true;
  lo.stop = &stop;
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    stop.store(15);
  });
  try {
    dev.launch(m, "forever", {2}, {32}, args, lo);
    ADD_FAILURE() << "the launch ended by itself";
  } catch (const LaunchStopped& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInterrupted);
    EXPECT_EQ(e.stop().code, 15);
    std::uint64_t warps = 0;
    for (const WarpPlace& p : e.stop().places) warps += p.warps;
    EXPECT_EQ(warps, 2u);  // both blocks are resident
  }
  stopper.join();
}

}  // namespace
}  // namespace warpscope::exec::test
