// Divergence and reconvergence: results of divergent kernels against host references, and the
// active masks lanes observe inside and after divergent regions.
#include <cmath>
#include <random>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

class Control : public ::testing::Test {
 protected:
  void SetUp() override {
    ptx_ = kernel_ptx("divergence");
    if (ptx_.empty()) GTEST_SKIP() << "no PTX (nvcc missing?)";
    module_ = dev_.load_ptx(ptx_, "divergence.ptx");
  }
  std::string ptx_;
  Device dev_;
  Module module_;
};

TEST_F(Control, IfElseChainsAndSwitch) {
  const int n = 512;
  std::vector<int> in(n);
  std::mt19937 rng(1);
  for (int& v : in) v = static_cast<int>(rng() % 2000) - 1000;
  const DevicePtr din = upload(dev_, in), dout = dev_.malloc(n * sizeof(int));
  const KernelArg args[] = {arg(din), arg(dout)};
  dev_.launch(module_, "branches", {n / 128}, {128}, args);
  const auto out = download<int>(dev_, dout, n);
  for (int i = 0; i < n; ++i) {
    const int v = in[i];
    int r;
    if (v % 3 == 0) {
      r = v * 2;
    } else if (v % 3 == 1) {
      r = v - 7;
    } else {
      r = 0;
      for (int k = 0; k < (v & 15); ++k) r += k * v;
    }
    switch (v & 3) {
      case 0: r += 1; break;
      case 1: r ^= 0x55; break;
      case 2: r -= 3; break;
      default: r *= 3; break;
    }
    ASSERT_EQ(out[i], r) << "thread " << i << " v=" << v;
  }
}

TEST_F(Control, LoopsWithPerThreadTripCounts) {
  const int n = 256;
  std::vector<int> trips(n);
  for (int i = 0; i < n; ++i) trips[i] = (i * 37) % 97;
  const DevicePtr din = upload(dev_, trips), dout = dev_.malloc(n * sizeof(int));
  const KernelArg args[] = {arg(din), arg(dout)};
  dev_.launch(module_, "loops", {2}, {128}, args);
  const auto out = download<int>(dev_, dout, n);
  for (int t = 0; t < n; ++t) {
    const int cnt = trips[t];
    int acc = 0;
    for (int i = 0; i < cnt; ++i) {
      acc += i;
      if (acc > 1000) break;
      if (i % 5 == 4) continue;
      acc ^= i << 2;
    }
    int x = cnt + 1, steps = 0;
    while (x != 1 && steps < 200) {
      x = (x & 1) ? 3 * x + 1 : x / 2;
      ++steps;
    }
    ASSERT_EQ(out[t], acc * 1000 + steps) << t;
  }
}

TEST_F(Control, EarlyReturn) {
  const int n = 100;  // the last warp of the 128-thread block is partly past n
  std::vector<int> in(128);
  for (int i = 0; i < 128; ++i) in[i] = (i % 7 == 3) ? -i : i;
  const DevicePtr din = upload(dev_, in);
  std::vector<int> init(128, 777);
  const DevicePtr dout = upload(dev_, init);
  const KernelArg args[] = {arg(din), arg(dout), arg(n)};
  dev_.launch(module_, "early_return", {1}, {128}, args);
  const auto out = download<int>(dev_, dout, 128);
  for (int i = 0; i < 128; ++i) {
    const int want = i >= n ? 777 : (in[i] < 0 ? -1 : in[i] * 2);
    ASSERT_EQ(out[i], want) << i;
  }
}

TEST_F(Control, LanesReconvergeAfterBranchesAndLoops) {
  std::vector<int> in(64);
  for (int i = 0; i < 64; ++i) in[i] = i * 5 + (i / 32);
  const DevicePtr din = upload(dev_, in), dout = dev_.malloc(64 * 4 * sizeof(unsigned));
  const KernelArg args[] = {arg(din), arg(dout)};
  dev_.launch(module_, "reconverge", {1}, {64}, args);
  const auto out = download<unsigned>(dev_, dout, 64 * 4);
  for (int w = 0; w < 2; ++w) {
    unsigned odd = 0;
    for (int l = 0; l < 32; ++l)
      if (in[w * 32 + l] & 1) odd |= 1u << l;
    for (int l = 0; l < 32; ++l) {
      const int t = w * 32 + l;
      const bool is_odd = in[t] & 1;
      EXPECT_EQ(out[t * 4 + 0], is_odd ? odd : ~odd) << "inside, thread " << t;
      EXPECT_EQ(out[t * 4 + 1], 0xffffffffu) << "after the join, thread " << t;
      EXPECT_EQ(out[t * 4 + 2], static_cast<unsigned>(is_odd ? in[t] * 3 : in[t] + 5));
      // The last iteration of lane l's loop runs with lanes l..31 still active.
      EXPECT_EQ(out[t * 4 + 3], 0xffffffffu << l) << "loop, thread " << t;
    }
  }
}


// brx.idx index, tlist (PTX ISA, "brx.idx"): each lane branches to the label at its index in the
// .branchtargets list; lanes whose guard is false fall through; all meet again at the immediate
// post-dominator (docs/exec.md, "Warps, divergence and reconvergence").
constexpr const char* kBrxPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry brx(.param .u64 idx, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [idx];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd4, %rd1, %rd3;
  ld.global.u32 %r2, [%rd4];
  mov.u32 %r3, 100;
  setp.ne.u32 %p1, %r2, 7;
  ts: .branchtargets L0, L1, L2, L1;
  @%p1 brx.idx %r2, ts;
  bra.uni DONE;
L0:
  mov.u32 %r3, 10;
  bra.uni DONE;
L1:
  mov.u32 %r3, 11;
  bra.uni DONE;
L2:
  mov.u32 %r3, 12;
DONE:
  activemask.b32 %r4;
  mul.wide.u32 %rd5, %r1, 8;
  add.u64 %rd6, %rd2, %rd5;
  st.global.v2.u32 [%rd6], {%r3, %r4};
  ret;
}
)";

TEST_F(Control, BrxIdxBranchesEachLaneToItsLabelAndReconverges) {
  Module m = dev_.load_ptx(kBrxPtx, "brx.ptx");
  std::vector<unsigned> idx(64);
  for (unsigned t = 0; t < 64; ++t) idx[t] = t % 5 == 4 ? 7 : t % 4;  // 7: the guard is false
  const DevicePtr din = upload(dev_, idx), dout = dev_.malloc(64 * 8);
  const KernelArg args[] = {arg(din), arg(dout)};
  dev_.launch(m, "brx", {1}, {64}, args);
  const auto out = download<unsigned>(dev_, dout, 128);
  const unsigned value[4] = {10, 11, 12, 11};  // L0, L1, L2, L1
  for (unsigned t = 0; t < 64; ++t) {
    EXPECT_EQ(out[2 * t], idx[t] == 7 ? 100u : value[idx[t]]) << "thread " << t;
    EXPECT_EQ(out[2 * t + 1], 0xffffffffu) << "thread " << t << ": the warp reconverged at DONE";
  }
  // The same uniform across a warp: one path, no divergence.
  std::vector<unsigned> same(64, 2);
  const DevicePtr d2 = upload(dev_, same);
  const KernelArg args2[] = {arg(d2), arg(dout)};
  dev_.launch(m, "brx", {1}, {64}, args2);
  const auto out2 = download<unsigned>(dev_, dout, 128);
  for (unsigned t = 0; t < 64; ++t) EXPECT_EQ(out2[2 * t], 12u) << "thread " << t;
}

TEST_F(Control, BrxIdxOutsideTheListIsUndefined) {
  Module m = dev_.load_ptx(kBrxPtx, "brx.ptx");
  std::vector<unsigned> idx(32, 1);
  idx[5] = 4;  // the list has 4 labels
  const DevicePtr din = upload(dev_, idx), dout = dev_.malloc(32 * 8);
  const KernelArg args[] = {arg(din), arg(dout)};
  try {
    dev_.launch(m, "brx", {1}, {32}, args);
    ADD_FAILURE() << "index 4 did not fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUndefined);
    EXPECT_NE(std::string(e.what()).find("brx.idx with index 4, but its .branchtargets list has 4 labels"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("thread (5,0,0)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpscope::exec::test

namespace warpscope::exec::test {
namespace {

// The N-body benchmark kernel against a host loop that does the same f32 operations in the same
// order (nvcc's contractions into fma included), so the result is bit for bit the same.
TEST(Bench, NBodyMatchesHost) {
  WS_LOAD_PTX(ptx, "bench");
  Device dev;
  Module m = dev.load_ptx(ptx, "bench.ptx");
  const int n = 512;
  std::vector<float> pos(n * 4);
  for (int i = 0; i < n; ++i) {
    pos[i * 4 + 0] = std::sin(0.1f * float(i));
    pos[i * 4 + 1] = std::cos(0.37f * float(i));
    pos[i * 4 + 2] = 0.001f * float(i);
    pos[i * 4 + 3] = 1.0f + float(i % 3);
  }
  const DevicePtr dp = upload(dev, pos), da = dev.malloc(pos.size() * 4);
  const float eps2 = 0.01f;
  const KernelArg args[] = {arg(dp), arg(da), arg(n), arg(eps2)};
  dev.launch(m, "nbody_forces", {n / 256}, {256}, args);
  const auto acc = download<float>(dev, da, pos.size());
  for (int i = 0; i < n; ++i) {
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; ++j) {
      const float dx = pos[j * 4] - pos[i * 4], dy = pos[j * 4 + 1] - pos[i * 4 + 1], dz = pos[j * 4 + 2] - pos[i * 4 + 2];
      const float d2 = std::fma(dz, dz, std::fma(dx, dx, dy * dy)) + eps2;
      const float inv = 1.0f / std::sqrt(d2);
      const float s = inv * (inv * (pos[j * 4 + 3] * inv));
      ax = std::fma(dx, s, ax);
      ay = std::fma(dy, s, ay);
      az = std::fma(dz, s, az);
    }
    ASSERT_EQ(acc[i * 4 + 0], ax) << i;
    ASSERT_EQ(acc[i * 4 + 1], ay) << i;
    ASSERT_EQ(acc[i * 4 + 2], az) << i;
  }
}

}  // namespace
}  // namespace warpscope::exec::test
