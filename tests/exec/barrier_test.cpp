// Barriers and shared memory, and barriers that can never complete (reported as deadlocks).
#include <algorithm>

#include <gmock/gmock.h>

#include "exec_test_util.hpp"
#include "warpscope/error.hpp"

namespace warpscope::exec::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class Barriers : public ::testing::Test {
 protected:
  void SetUp() override {
    ptx_ = kernel_ptx("barriers");
    if (ptx_.empty()) GTEST_SKIP() << "no PTX (nvcc missing?)";
    module_ = dev_.load_ptx(ptx_, "barriers.ptx");
  }
  std::string launch_error(const char* kernel, Dim3 grid, Dim3 block, std::span<const KernelArg> args,
                           ErrorKind kind) {
    try {
      dev_.launch(module_, kernel, grid, block, args);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      return e.what();
    }
    ADD_FAILURE() << kernel << " did not fail";
    return {};
  }
  std::string ptx_;
  Device dev_;
  Module module_;
};

TEST_F(Barriers, SharedMemoryTreeReduction) {
  const int blocks = 6, n = blocks * 256;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 7919) % 1000 - 500;
  const DevicePtr din = upload(dev_, in), dout = dev_.malloc(blocks * sizeof(int));
  const KernelArg args[] = {arg(din), arg(dout)};
  dev_.launch(module_, "block_sum", {blocks}, {256}, args);
  const auto out = download<int>(dev_, dout, blocks);
  for (int b = 0; b < blocks; ++b) {
    int want = 0;
    for (int i = 0; i < 256; ++i) want += in[b * 256 + i];
    EXPECT_EQ(out[b], want) << "block " << b;
  }
}

TEST_F(Barriers, DynamicSharedMemory) {
  const int blocks = 3, bs = 96, n = blocks * bs;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = float(i) * 0.5f;
  const DevicePtr din = upload(dev_, in), dout = dev_.malloc(n * sizeof(float));
  const KernelArg args[] = {arg(din), arg(dout)};
  dev_.launch(module_, "dyn_reverse", {blocks}, {bs}, args, bs * sizeof(float));
  const auto out = download<float>(dev_, dout, n);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < bs; ++t) ASSERT_EQ(out[b * bs + t], in[b * bs + bs - 1 - t]);
}

TEST_F(Barriers, ThreadsThatReturnEarlyDoNotBlockTheBarrier) {
  const int n = 77;  // warp 2 is split: lanes 0-12 reach the barrier, 13-31 return first
  std::vector<int> in(128);
  for (int i = 0; i < 128; ++i) in[i] = i * 3 + 1;
  const DevicePtr din = upload(dev_, in), dout = dev_.malloc(128 * sizeof(int));
  dev_.memset(dout, 0, 128 * sizeof(int));
  const KernelArg args[] = {arg(din), arg(dout), arg(n)};
  dev_.launch(module_, "early_exit_sync", {1}, {128}, args);
  const auto out = download<int>(dev_, dout, 128);
  for (int t = 0; t < 128; ++t) ASSERT_EQ(out[t], t < n ? in[n - 1 - t] : 0) << t;
}

TEST_F(Barriers, SyncthreadsCountAndOr) {
  std::vector<int> in(96);
  int positives = 0;
  for (int i = 0; i < 96; ++i) {
    in[i] = (i % 5 == 0) ? -i : i + 1;
    positives += in[i] > 0;
  }
  const DevicePtr din = upload(dev_, in), dout = dev_.malloc(3 * sizeof(int));
  const KernelArg args[] = {arg(din), arg(dout)};
  dev_.launch(module_, "sync_reductions", {1}, {96}, args);
  const auto out = download<int>(dev_, dout, 3);
  EXPECT_EQ(out[0], positives);
  EXPECT_EQ(out[1], 0);
  EXPECT_EQ(out[2], 1);
}

TEST_F(Barriers, NamedBarrierProducerConsumer) {
  const DevicePtr dout = dev_.malloc(32 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  dev_.launch(module_, "producer_consumer", {1}, {64}, args);
  const auto out = download<int>(dev_, dout, 32);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], t * t + 1);
}

TEST_F(Barriers, ThreadsLeavingASynchronisingLoopAtDifferentIterations) {
  std::vector<int> lim(64);
  for (int t = 0; t < 64; ++t) lim[t] = (t * 5) % 11;  // 0..10: some never enter, some finish
  const DevicePtr dl = upload(dev_, lim), dout = dev_.malloc(64 * sizeof(int));
  const KernelArg args[] = {arg(dl), arg(dout)};
  dev_.launch(module_, "loop_return_sync", {1}, {64}, args);
  const auto out = download<int>(dev_, dout, 64);
  for (int t = 0; t < 64; ++t) {
    const int n = (t + 1) % 64;
    int acc = 0;
    const int iters = std::min(lim[t], 8);
    for (int i = 0; i < iters; ++i) {
      // The neighbour's slot holds its value of the last iteration it took part in.
      const int last = std::min(i, lim[n] - 1);
      acc += last >= 0 ? last + n : 0;
    }
    EXPECT_EQ(out[t], lim[t] >= 8 ? acc + 1000 : acc) << t;
  }
}

TEST_F(Barriers, SpinWaitOnAnotherWarpTerminates) {
  const DevicePtr dout = dev_.malloc(32 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  dev_.launch(module_, "spin_wait", {1}, {64}, args);
  for (int v : download<int>(dev_, dout, 32)) EXPECT_EQ(v, 42);
}

TEST_F(Barriers, WarpsAtDifferentBarriersDeadlock) {
  const DevicePtr dout = dev_.malloc(64 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  const std::string msg = launch_error("named_mismatch", {1}, {64}, args, ErrorKind::kDeadlock);
  EXPECT_THAT(msg, AllOf(HasSubstr("named_mismatch"), HasSubstr("block (0,0,0)"),
                         HasSubstr("barrier 1 waits for 2 warps, 1 arrived: warp 0 at"),
                         HasSubstr("barrier 2 waits for 2 warps, 1 arrived: warp 1 at"),
                         HasSubstr("barriers.cu:47"), HasSubstr("barriers.cu:49")));
}

TEST_F(Barriers, CountThatExitedWarpsCannotReachDeadlocks) {
  const DevicePtr dout = dev_.malloc(64 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  const std::string msg = launch_error("count_unreachable", {2}, {64}, args, ErrorKind::kDeadlock);
  EXPECT_THAT(msg, AllOf(HasSubstr("count_unreachable"), HasSubstr("block (0,0,0)"),
                         HasSubstr("barrier 1 waits for 2 warps, 1 arrived: warp 0 at"),
                         HasSubstr("barriers.cu:57"), HasSubstr("exited: warps 1")));
}

TEST_F(Barriers, BarrierInDivergentCodeIsReported) {
  const DevicePtr dout = dev_.malloc(64 * sizeof(int));
  const int k = 5;
  const KernelArg args[] = {arg(dout), arg(k)};
  const std::string msg = launch_error("divergent_barrier", {1}, {64}, args, ErrorKind::kDeadlock);
  EXPECT_THAT(msg, AllOf(HasSubstr("divergent_barrier"), HasSubstr("warp 0"), HasSubstr("divergent code"),
                         HasSubstr("lanes 0-15 wait at"), HasSubstr("lanes 16-31 wait at"),
                         HasSubstr("barriers.cu:66"), HasSubstr("barriers.cu:69")));
}

// Named-barrier counts the H200 stops with an illegal instruction (tests/hw/data/h200/sanitize/sync:
// named_not_multiple, 48; named_mismatch, 64 and 96): their own kind, which the runtime maps to
// cudaErrorIllegalInstruction.
TEST_F(Barriers, CountsTheH200StopsOnAreIllegalInstructions) {
  const DevicePtr dout = dev_.malloc(64 * sizeof(int));
  const int c48 = 48, c64 = 64, c96 = 96;
  const KernelArg not_multiple[] = {arg(dout), arg(c48), arg(c48)};
  EXPECT_THAT(launch_error("named_counts", {1}, {64}, not_multiple, ErrorKind::kIllegalInstruction),
              HasSubstr("barrier 1: thread count 48 is not a multiple of the warp size"));
  const KernelArg two_counts[] = {arg(dout), arg(c64), arg(c96)};
  EXPECT_THAT(launch_error("named_counts", {1}, {64}, two_counts, ErrorKind::kIllegalInstruction),
              HasSubstr("barrier 1: warp 1 arrives with thread count 96 while other warps arrived with 64"));
}

TEST_F(Barriers, DeviceStaysUsableAfterADeadlock) {
  const DevicePtr dout = dev_.malloc(64 * sizeof(int));
  const KernelArg bad[] = {arg(dout)};
  EXPECT_THROW(dev_.launch(module_, "named_mismatch", {1}, {64}, bad), Error);
  dev_.launch(module_, "producer_consumer", {1}, {64}, bad);
  const auto out = download<int>(dev_, dout, 32);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], t * t + 1);
}

}  // namespace
}  // namespace warpscope::exec::test
