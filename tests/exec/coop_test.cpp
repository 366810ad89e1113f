// Cooperative launches: grid-wide barriers across many CTAs, CTAs that wait for each other through
// memory, deadlocks reported as errors, and the same records and counts for any thread count.
#include <numeric>

#include <gmock/gmock.h>

#include "exec_test_util.hpp"
#include "warpscope/error.hpp"

namespace warpscope::exec::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

LaunchOptions cooperative() {
  LaunchOptions o;
  o.cooperative = true;
  return o;
}

class Coop : public ::testing::Test {
 protected:
  void SetUp() override {
    ptx_ = kernel_ptx("coop");
    if (ptx_.empty()) GTEST_SKIP() << "no PTX (nvcc missing?)";
  }
  std::string ptx_;
};

struct PhasesResult {
  std::vector<int> doubled, shifted;
  int total = 0;
  LaunchStats stats;
  std::vector<WarpAccess> records;
};

PhasesResult run_phases(const std::string& ptx, unsigned threads, int blocks, int n) {
  DeviceOptions o;
  o.host_threads = threads;
  Device dev(o);
  Module m = dev.load_ptx(ptx, "coop.ptx");
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37) % 101 - 50;
  const DevicePtr din = upload(dev, in), dd = dev.malloc(n * 4), ds = dev.malloc(n * 4),
                  dp = dev.malloc(blocks * 4), dt = dev.malloc(4);
  RecordingSink sink;
  dev.set_access_sink(&sink);
  const KernelArg args[] = {arg(din), arg(dd), arg(ds), arg(dp), arg(dt), arg(n)};
  PhasesResult r;
  r.stats = dev.launch(m, "phases", {static_cast<std::uint32_t>(blocks)}, {256}, args, cooperative());
  r.doubled = download<int>(dev, dd, n);
  r.shifted = download<int>(dev, ds, n);
  r.total = download<int>(dev, dt, 1)[0];
  r.records = std::move(sink.records);
  return r;
}

TEST_F(Coop, GridSyncAcrossManyBlocksWithDataDependencies) {
  const int blocks = 37, n = blocks * 256 - 100;  // the last block is partly idle
  const PhasesResult r = run_phases(ptx_, 1, blocks, n);
  long long want_total = 0;
  for (int i = 0; i < n; ++i) {
    const int in_i = (i * 37) % 101 - 50;
    const int in_next = (((i + 1) % n) * 37) % 101 - 50;
    ASSERT_EQ(r.doubled[i], 2 * in_i) << i;
    ASSERT_EQ(r.shifted[i], 2 * in_next) << i;
    want_total += 2 * in_next;
  }
  EXPECT_EQ(r.total, want_total);
}

TEST_F(Coop, SameRecordsAndCountsForAnyThreadCount) {
  const int blocks = 20, n = blocks * 256;
  const PhasesResult one = run_phases(ptx_, 1, blocks, n);
  const PhasesResult two = run_phases(ptx_, 2, blocks, n);
  EXPECT_EQ(one.total, two.total);
  EXPECT_EQ(one.stats.warp_instructions, two.stats.warp_instructions);
  EXPECT_EQ(one.stats.thread_instructions, two.stats.thread_instructions);
  EXPECT_EQ(one.stats.pc_instructions, two.stats.pc_instructions);
  ASSERT_EQ(one.records.size(), two.records.size());
  for (std::size_t i = 0; i < one.records.size(); ++i) {
    ASSERT_EQ(one.records[i].pc, two.records[i].pc) << i;
    ASSERT_EQ(one.records[i].cta, two.records[i].cta) << i;
    ASSERT_EQ(one.records[i].warp, two.records[i].warp) << i;
    ASSERT_EQ(one.records[i].addr, two.records[i].addr) << i;
  }
  // The CTAs were interleaved: records of a later CTA come before the last ones of CTA 0.
  std::size_t last0 = 0, first1 = one.records.size();
  for (std::size_t i = 0; i < one.records.size(); ++i) {
    if (one.records[i].cta == 0) last0 = i;
    if (one.records[i].cta == 1 && first1 == one.records.size()) first1 = i;
  }
  EXPECT_LT(first1, last0);
}

TEST_F(Coop, BlocksWaitingForLaterBlocks) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "coop.ptx");
  const int blocks = 12;
  const DevicePtr value = dev.malloc(blocks * 4), flags = dev.malloc(blocks * 4);
  const KernelArg args[] = {arg(value), arg(flags)};
  dev.launch(m, "chain", {blocks}, {64}, args, cooperative());
  const auto v = download<int>(dev, value, blocks);
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int c = b; c < blocks; ++c) want += c;
    EXPECT_EQ(v[b], want) << b;
  }
}

TEST_F(Coop, LockTakenByEveryBlockThenGridSync) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "coop.ptx");
  const int blocks = 9;
  const DevicePtr lock = dev.malloc(4), sum = dev.malloc(4), after = dev.malloc(blocks * 4);
  const KernelArg args[] = {arg(lock), arg(sum), arg(after)};
  dev.launch(m, "locked_sum", {blocks}, {128}, args, cooperative());
  for (int v : download<int>(dev, after, blocks)) EXPECT_EQ(v, blocks * (blocks + 1) / 2);
}

TEST_F(Coop, WaitLoopWithABarrierLetsOtherBlocksRun) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "coop.ptx");
  const DevicePtr flag = dev.malloc(4), out = dev.malloc(64 * 4);
  const KernelArg args[] = {arg(flag), arg(out)};
  dev.launch(m, "barrier_wait_loop", {2}, {64}, args, cooperative());
  for (int v : download<int>(dev, out, 64)) EXPECT_EQ(v, 7);
}

TEST_F(Coop, SpinningForeverIsADeadlock) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "coop.ptx");
  const DevicePtr flag = dev.malloc(4);
  const KernelArg args[] = {arg(flag)};
  try {
    dev.launch(m, "wait_forever", {4}, {64}, args, cooperative());
    FAIL() << "no deadlock reported";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDeadlock);
    std::cerr << "MSG " << e.what() << "\n";
    EXPECT_THAT(e.what(), AllOf(HasSubstr("grid deadlock in cooperative kernel wait_forever"),
                                HasSubstr("1 of 4 blocks unfinished"), HasSubstr("block 0: warp 0 spinning"),
                                HasSubstr("coop.cu:"), HasSubstr("ld.volatile"), HasSubstr("warp 1 exited")));
  }
}

TEST_F(Coop, GridSyncNotReachedByEveryBlockIsADeadlock) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "coop.ptx");
  const DevicePtr out = dev.malloc(8 * 4);
  const KernelArg args[] = {arg(out)};
  try {
    dev.launch(m, "partial_sync", {8}, {96}, args, cooperative());
    FAIL() << "no deadlock reported";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDeadlock);
    std::cerr << "MSG " << e.what() << "\n";
    // Blocks 1-7 alike: warp 0 spins in grid.sync(), warps 1-2 wait at its second barrier.
    EXPECT_THAT(e.what(), AllOf(HasSubstr("7 of 8 blocks unfinished"), HasSubstr("blocks 1-7: warp 0 spinning"),
                                HasSubstr("ld.acquire"), HasSubstr("warps 1-2 waiting at barrier 0")));
  }
}

TEST_F(Coop, PollLoopThatEndsByItselfIsNoDeadlock) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "coop.ptx");
  const DevicePtr flag = dev.malloc(4), iterations = dev.malloc(4);
  const KernelArg args[] = {arg(flag), arg(iterations)};
  dev.launch(m, "bounded_wait", {2}, {32}, args, cooperative());
  EXPECT_EQ(download<int>(dev, iterations, 1)[0], 5000);
}

TEST_F(Coop, GridSyncWithoutCooperativeLaunchTraps) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "coop.ptx");
  const DevicePtr out = dev.malloc(8 * 4);
  const KernelArg args[] = {arg(out)};
  try {
    dev.launch(m, "partial_sync", {8}, {32}, args);
    FAIL() << "no trap";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTrap);
    std::cerr << "MSG " << e.what() << "\n";
    EXPECT_THAT(e.what(), AllOf(HasSubstr("trap"), HasSubstr("cudaLaunchCooperativeKernel"), HasSubstr("block (1,0,0)")));
  }
}

}  // namespace
}  // namespace warpscope::exec::test
