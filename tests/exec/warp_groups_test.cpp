// Warp-synchronous instructions with per-lane membermasks: every lane gets its own group's answer
// (the PTX ISA's rules, computed here on the CPU), lanes meet across divergent paths, exited lanes
// are not waited for, and invalid membermasks are errors that name the kernel, line, warp, lane
// and masks.
#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>

#include <gmock/gmock.h>

#include "exec_test_util.hpp"
#include "warpscope/error.hpp"

namespace warpscope::exec::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class WarpGroups : public ::testing::Test {
 protected:
  void SetUp() override {
    ptx_ = kernel_ptx("warp_groups");
    if (ptx_.empty()) GTEST_SKIP() << "no PTX (nvcc missing?)";
    module_ = dev_.load_ptx(ptx_, "warp_groups.ptx");
  }
  std::string error_of(const char* kernel, Dim3 block, std::span<const KernelArg> args, ErrorKind kind) {
    try {
      dev_.launch(module_, kernel, {1}, block, args);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      return e.what();
    }
    ADD_FAILURE() << kernel << " ran without an error";
    return {};
  }
  std::string ptx_;
  Device dev_;
  Module module_;
};

TEST_F(WarpGroups, EveryLaneGetsItsGroupsAnswer) {
  const int n = 256;
  std::vector<int> key(n), val(n);
  std::uint32_t seed = 12345;
  auto next = [&] { return seed = seed * 1103515245u + 12345u; };
  for (int i = 0; i < n; ++i) {
    key[i] = static_cast<int>(next() >> 16) % 6 - 1;  // -1: the lane returns first
    val[i] = static_cast<int>(next());
  }
  const DevicePtr dkey = upload(dev_, key), dval = upload(dev_, val);
  const DevicePtr dout = upload(dev_, std::vector<int>(n * 12, 0x5a5a5a5a));
  const KernelArg args[] = {arg(dkey), arg(dval), arg(dout)};
  dev_.launch(module_, "per_group", {n / 64}, {64}, args);
  const auto out = download<int>(dev_, dout, n * 12);
  for (int t = 0; t < n; ++t) {
    const int* o = out.data() + t * 12;
    if (key[t] < 0) {
      EXPECT_EQ(o[0], 0x5a5a5a5a) << t;
      continue;
    }
    SCOPED_TRACE("thread " + std::to_string(t));
    const int w = t / 32 * 32;
    std::uint32_t group = 0;
    for (int k = 0; k < 32; ++k) group |= (key[w + k] == key[t] ? 1u : 0u) << k;
    std::uint32_t ballot = 0, andv = ~0u, orv = 0, xorv = 0, umax = 0;
    int sum = 0, mn = INT_MAX, mx = INT_MIN;
    bool same_sign = true;
    for (int k = 0; k < 32; ++k) {
      if (!((group >> k) & 1)) continue;
      const int x = val[w + k];
      const auto u = static_cast<std::uint32_t>(x);
      ballot |= (u & 1) << k;
      sum = static_cast<int>(static_cast<std::uint32_t>(sum) + u);
      mn = std::min(mn, x);
      mx = std::max(mx, x);
      umax = std::max(umax, u);
      andv &= u;
      orv |= u;
      xorv ^= u;
      same_sign = same_sign && (x >> 31) == (val[t] >> 31);
    }
    const int first = val[w + std::countr_zero(group)];
    std::uint32_t match = 0;
    for (int k = 0; k < 32; ++k) {
      if (((group >> k) & 1) && (val[w + k] & 3) == (val[t] & 3)) match |= 1u << k;
    }
    EXPECT_EQ(static_cast<std::uint32_t>(o[0]), ballot);
    EXPECT_EQ(o[1], (ballot == group ? 2 : 0) + (ballot != 0 ? 1 : 0));
    EXPECT_EQ(o[2], sum);
    EXPECT_EQ(o[3], mn);
    EXPECT_EQ(o[4], mx);
    EXPECT_EQ(static_cast<std::uint32_t>(o[5]), umax);
    EXPECT_EQ(static_cast<std::uint32_t>(o[6]), andv ^ orv);
    EXPECT_EQ(static_cast<std::uint32_t>(o[7]), xorv);
    EXPECT_EQ(o[8], first);
    EXPECT_EQ(static_cast<std::uint32_t>(o[9]), match);
    EXPECT_EQ(static_cast<std::uint32_t>(o[10]), same_sign ? group + 1 : 0u);
    // elect.sync: one leader per group, a member of it, the same for every member; exactly the
    // leader's predicate is true.
    // The form with the sink, `elect.sync _|q`, elects the same lane.
    const int leader = o[11] / 4;
    EXPECT_TRUE((group >> leader) & 1);
    EXPECT_EQ((o[11] >> 1) & 1, (t % 32) == leader ? 1 : 0);
    EXPECT_EQ(o[11] & 1, (t % 32) == leader ? 1 : 0);
    for (int k = 0; k < 32; ++k) {
      if ((group >> k) & 1) {
        EXPECT_EQ(out[(w + k) * 12 + 11] / 4, leader) << "lane " << k;
      }
    }
  }
}

TEST_F(WarpGroups, CooperativeGroupsTilesAndCoalescedThreads) {
  const int n = 128;
  std::vector<int> val(n);
  for (int i = 0; i < n; ++i) val[i] = (i * 7919 + 13) % 1000;
  const DevicePtr dval = upload(dev_, val), dout = dev_.malloc(n * 3 * sizeof(int));
  const KernelArg args[] = {arg(dval), arg(dout)};
  dev_.launch(module_, "cg_groups", {2}, {64}, args);
  const auto out = download<int>(dev_, dout, n * 3);
  for (int t = 0; t < n; ++t) {
    SCOPED_TRACE("thread " + std::to_string(t));
    int tile = 0;
    for (int k = t / 8 * 8; k < t / 8 * 8 + 8; ++k) tile += val[k];
    EXPECT_EQ(out[t * 3], tile);
    const int w = t / 32 * 32;
    int branch = 0, rank = 0;
    for (int k = w; k < w + 32; ++k) {
      if ((val[k] & 1) != (val[t] & 1)) continue;
      branch += val[k];
      if (k < t) ++rank;
    }
    EXPECT_EQ(out[t * 3 + 1], branch);
    EXPECT_EQ(out[t * 3 + 2], rank);
  }
}

TEST_F(WarpGroups, ExitedLanesAreNotWaitedFor) {
  std::vector<int> val(32);
  for (int i = 0; i < 32; ++i) val[i] = i * i + 1;
  const DevicePtr dval = upload(dev_, val), dout = upload(dev_, std::vector<int>(32, -1));
  const int n = 20;
  const KernelArg args[] = {arg(dval), arg(dout), arg(n)};
  dev_.launch(module_, "early_exit_full_mask", {1}, {32}, args);
  const auto out = download<int>(dev_, dout, 32);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], t < n ? val[0] + val[t ^ 1] : -1) << t;
}

TEST_F(WarpGroups, DivergentLanesMeetAtTheSameShuffle) {
  std::vector<int> val(32);
  for (int i = 0; i < 32; ++i) val[i] = 100 + i;
  const DevicePtr dval = upload(dev_, val), dout = dev_.malloc(32 * sizeof(int));
  const KernelArg args[] = {arg(dval), arg(dout)};
  dev_.launch(module_, "meet_in_callee", {1}, {32}, args);
  const auto out = download<int>(dev_, dout, 32);
  for (int t = 0; t < 32; ++t) {
    const int src = (t + 1) & 31;
    const int v = (src & 16) ? val[src] : val[src] * 2;  // what lane src passed to rotate()
    EXPECT_EQ(out[t], v + ((t & 16) ? 1000 : 0)) << t;
  }
}

TEST_F(WarpGroups, SyncwarpInBothBranches) {
  const DevicePtr dout = dev_.malloc(32 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  dev_.launch(module_, "syncwarp_branches", {1}, {32}, args);
  const auto out = download<int>(dev_, dout, 32);
  for (int t = 0; t < 32; ++t) {
    const int o = t ^ 1;
    EXPECT_EQ(out[t], (o & 1) ? o * 3 : o * 5) << t;
  }
}

TEST_F(WarpGroups, LaneNotInItsOwnMask) {
  const DevicePtr dout = dev_.malloc(32 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  const std::string msg = error_of("not_in_own_mask", {32}, args, ErrorKind::kUndefined);
  EXPECT_THAT(msg, AllOf(HasSubstr("invalid membermask 0x00000002 of warp 0 lane 0"),
                         HasSubstr("does not name the lane itself"), HasSubstr("kernel not_in_own_mask"),
                         HasSubstr("warp_groups.cu:"), HasSubstr("shfl.sync"), HasSubstr("thread (0,0,0)")));
}

TEST_F(WarpGroups, NamedLaneWithAFalseGuard) {
  const DevicePtr dout = dev_.malloc(32 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  const std::string msg = error_of("named_lane_guard_false", {32}, args, ErrorKind::kUndefined);
  EXPECT_THAT(msg, AllOf(HasSubstr("membermask 0xffffffff of warp 0 lane 0 names lane 30"),
                         HasSubstr("guard predicate is false"), HasSubstr("kernel named_lane_guard_false")));
}

TEST_F(WarpGroups, InconsistentMasks) {
  const DevicePtr dout = dev_.malloc(32 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  const std::string msg = error_of("inconsistent_masks", {32}, args, ErrorKind::kUndefined);
  EXPECT_THAT(msg, AllOf(HasSubstr("inconsistent membermasks in warp 0"),
                         HasSubstr("lane 16 executes with membermask 0xffffffff, which names lane 0, but lane 0 "
                                   "executes with membermask 0x0000ffff"),
                         HasSubstr("redux.sync"), HasSubstr("thread (16,0,0)")));
}

TEST_F(WarpGroups, NamedLanesWaitingAtABarrierAreADeadlock) {
  const DevicePtr dout = dev_.malloc(64 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  const std::string msg = error_of("waits_at_barrier", {64}, args, ErrorKind::kDeadlock);
  EXPECT_THAT(msg, AllOf(HasSubstr("warp-synchronous deadlock in kernel waits_at_barrier, block (0,0,0), warp 0"),
                         HasSubstr("lanes 0-15 wait at `shfl.sync"), HasSubstr("with membermask 0xffffffff for lanes 16-31"),
                         HasSubstr("lanes 16-31 wait at barrier 0")));
}

TEST_F(WarpGroups, LanesAtDifferentShufflesAreRefused) {
  const DevicePtr dout = dev_.malloc(32 * sizeof(int));
  const int k = 3;
  const KernelArg args[] = {arg(dout), arg(k)};
  const std::string msg = error_of("different_instructions", {32}, args, ErrorKind::kUnsupported);
  EXPECT_THAT(msg, AllOf(HasSubstr("lanes wait for each other at different warp-synchronous instructions"),
                         HasSubstr("lanes 0-15 wait at"), HasSubstr("lanes 16-31 wait at")));
}

}  // namespace
}  // namespace warpscope::exec::test
