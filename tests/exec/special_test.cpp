// Special registers and WARP_SZ, the clock rule (docs/exec.md), 32-bit shared/local addresses
// that wrap modulo 2^32, and generic addresses (cvta, isspacep) per the PTX ISA.
#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

class Special : public ::testing::Test {
 protected:
  void SetUp() override {
    ptx_ = kernel_ptx("special");
    if (ptx_.empty()) GTEST_SKIP() << "no PTX (nvcc missing?)";
    module_ = dev_.load_ptx(ptx_, "special.ptx");
  }
  std::string ptx_;
  Device dev_;
  Module module_;
};

TEST_F(Special, WarpSizeIsWarpSz) {
  EXPECT_NE(ptx_.find("WARP_SZ"), std::string::npos) << "nvcc no longer emits WARP_SZ for warpSize";
  const DevicePtr dout = dev_.malloc(64 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  dev_.launch(module_, "warp_size", {1}, {64}, args);
  const auto out = download<int>(dev_, dout, 64);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(out[t], t % 32 + (t / 32) * 100 + 320000) << t;
}

TEST_F(Special, SpecialRegisters) {
  const int n = 64;
  const DevicePtr dout = dev_.malloc(n * 13 * sizeof(unsigned));
  const KernelArg args[] = {arg(dout)};
  const std::size_t dyn = n * sizeof(int);
  dev_.launch(module_, "sregs", {1}, {n}, args, dyn);
  const auto out = download<unsigned>(dev_, dout, n * 13);
  for (int t = 0; t < n; ++t) {
    SCOPED_TRACE("thread " + std::to_string(t));
    const unsigned l = t % 32;
    const unsigned* o = out.data() + t * 12;
    const std::uint64_t below = (std::uint64_t(1) << l) - 1;  // lanes lower than l
    EXPECT_EQ(o[0], 1u << l);
    EXPECT_EQ(o[1], static_cast<unsigned>(below));
    EXPECT_EQ(o[2], static_cast<unsigned>(below | (1u << l)));
    EXPECT_EQ(o[3], ~static_cast<unsigned>(below | (1u << l)));
    EXPECT_EQ(o[4], ~static_cast<unsigned>(below));
    EXPECT_EQ(o[5], static_cast<unsigned>(t / 32));  // the warp's index in the CTA
    EXPECT_EQ(o[6], 64u);                            // warps per SM of an H100
    EXPECT_EQ(o[7], 132u);                           // SMs of an H100 SXM
    EXPECT_EQ(o[8], dyn);
    EXPECT_EQ(o[9], 8 * sizeof(int) + dyn);  // static (stat[8]) + dynamic
    EXPECT_EQ(o[10], 0u);                    // %clock_hi of a young warp
    EXPECT_EQ(o[11], 0u);                    // not launched with a cluster
    const int u = (t + 1) % n;
    EXPECT_EQ(out[n * 12 + t], static_cast<unsigned>(u % 8 + u));  // the static and dynamic arrays are used
  }
}

TEST_F(Special, ClockSpinEndsQuicklyAndReadsAtLeastTheWait) {
  const long long cycles = 1000000000000LL;  // ~8 minutes of an H100's clock
  const DevicePtr dout = dev_.malloc(32 * sizeof(long long));
  const KernelArg args[] = {arg(dout), arg(cycles)};
  const LaunchStats st = dev_.launch(module_, "clock_spin", {1}, {32}, args);
  const auto out = download<long long>(dev_, dout, 32);
  for (int t = 0; t < 32; ++t) {
    EXPECT_GE(out[t], cycles) << t;
    EXPECT_LE(out[t], cycles + cycles / 64 + 1000) << t;  // at most 1/64 more (docs/exec.md)
  }
  // 256 polls before the clock speeds up, then 1/64 of the elapsed time per poll: about
  // 256 + 64 ln(10^12 / 256) = 1670 polls of a few instructions each.
  EXPECT_LT(st.warp_instructions, 20000u);
  // The skew the warp ends with: the cycles it read beyond its instruction count.
  EXPECT_EQ(st.clock_skew_max, st.clock_skew_sum);  // one warp
  EXPECT_GE(st.clock_skew_max + st.warp_instructions, static_cast<std::uint64_t>(cycles));
  EXPECT_LE(st.clock_skew_max, static_cast<std::uint64_t>(cycles + cycles / 64));
}

TEST_F(Special, ClockDifferenceIsTheInstructionCount) {
  const DevicePtr din = upload(dev_, std::vector<int>(32, 3)), dout = dev_.malloc(32 * sizeof(long long));
  const KernelArg args[] = {arg(dout), arg(din)};
  dev_.launch(module_, "clock_work", {1}, {32}, args);
  const auto out = download<long long>(dev_, dout, 32);
  // Four instructions between the reads: the second read is five warp instructions later.
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t], 5) << t;
}

TEST_F(Special, ThirtyTwoBitSharedAndLocalAddressesWrap) {
  const DevicePtr dout = dev_.malloc(64 * 3 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  dev_.launch(module_, "addr_wrap", {1}, {64}, args);
  const auto out = download<int>(dev_, dout, 64 * 3);
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t * 3], 10) << t;      // [s - 64 + 68] = s[1] (mod 2^32)
    EXPECT_EQ(out[t * 3 + 1], 20) << t;  // [s - 64 + 72] = s[2] (mod 2^64)
    EXPECT_EQ(out[t * 3 + 2], t + 7) << t;
  }
}

TEST_F(Special, GenericAddressSpaces) {
  const DevicePtr dout = dev_.malloc(8 * sizeof(unsigned));
  const int i = 2;
  const KernelArg args[] = {arg(dout), arg(i)};
  dev_.launch(module_, "generic_spaces", {1}, {1}, args);
  const auto out = download<unsigned>(dev_, dout, 7);
  // Bits: global, shared, shared::cta, shared::cluster, local, const, param.
  EXPECT_EQ(out[0], 0x01u);  // a __device__ variable
  EXPECT_EQ(out[1], 0x0eu);  // __shared__: the CTA's window is inside its cluster's (of one CTA)
  EXPECT_EQ(out[2], 0x10u);  // a local array
  EXPECT_EQ(out[3], 0x21u);  // __constant__: in the global window, and a .const variable
  EXPECT_EQ(out[4], 1u);     // cvta.shared::cluster of the CTA's own shared memory
  EXPECT_EQ(out[5], 4u);     // and back
  EXPECT_EQ(out[6], 4u);
}

}  // namespace
}  // namespace warpscope::exec::test
