// Warp-level primitives: shuffles (all modes, with segments), votes, ballot, match, redux,
// activemask, in full and partially populated warps.
#include <algorithm>
#include <bit>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

TEST(Warp, ShufflesVotesMatchRedux) {
  WS_LOAD_PTX(ptx, "warp");
  Device dev;
  Module m = dev.load_ptx(ptx, "warp.ptx");
  const int n = 64;
  std::vector<int> in(n);
  for (int i = 0; i < n; ++i) in[i] = (i * 37 + 11) % 100;
  const DevicePtr din = upload(dev, in), dout = dev.malloc(n * 12 * sizeof(int));
  const KernelArg args[] = {arg(din), arg(dout)};
  dev.launch(m, "warp_ops", {1}, {n}, args);
  const auto out = download<int>(dev, dout, n * 12);
  for (int w = 0; w < 2; ++w) {
    const int* v = in.data() + w * 32;
    unsigned ballot = 0;
    bool all = true, any = false;
    int sum = 0, mn = 1 << 30;
    unsigned orv = 0;
    for (int l = 0; l < 32; ++l) {
      ballot |= (v[l] > 50 ? 1u : 0u) << l;
      all = all && v[l] >= 0;
      any = any || v[l] > 90;
      sum += v[l];
      mn = std::min(mn, v[l] - 40);
      orv |= static_cast<unsigned>(v[l]);
    }
    for (int l = 0; l < 32; ++l) {
      const int* o = out.data() + (w * 32 + l) * 12;
      SCOPED_TRACE("warp " + std::to_string(w) + " lane " + std::to_string(l));
      EXPECT_EQ(o[0], l + 3 <= 31 ? v[l + 3] : v[l]);
      EXPECT_EQ(o[1], l >= 5 ? v[l - 5] : v[l]);
      EXPECT_EQ(o[2], v[l ^ 6]);
      EXPECT_EQ(o[3], v[((w * 32 + l) * 7) % 32]);
      EXPECT_EQ(o[4], (l % 8) < 6 ? v[l + 2] : v[l]);
      EXPECT_EQ(o[5], v[(l & 16) + 3]);
      EXPECT_EQ(static_cast<unsigned>(o[6]), ballot);
      EXPECT_EQ(o[7], (all ? 2 : 0) + (any ? 1 : 0));
      unsigned match = 0;
      for (int k = 0; k < 32; ++k) match |= (v[k] % 4 == v[l] % 4 ? 1u : 0u) << k;
      EXPECT_EQ(static_cast<unsigned>(o[8]), match);
      EXPECT_EQ(o[9], sum);
      EXPECT_EQ(o[10], mn);
      EXPECT_EQ(static_cast<unsigned>(o[11]), orv);
    }
  }
}

TEST(Warp, PartialWarp) {
  WS_LOAD_PTX(ptx, "warp");
  Device dev;
  Module m = dev.load_ptx(ptx, "warp.ptx");
  const DevicePtr dout = dev.malloc(128 * sizeof(int));
  const KernelArg args[] = {arg(dout)};
  dev.launch(m, "warp_partial", {1}, {48}, args);
  const auto out = download<int>(dev, dout, 128);
  int sum0 = 0, sum1 = 0;
  for (int t = 0; t < 32; ++t) sum0 += t * 10;
  for (int t = 32; t < 48; ++t) sum1 += t * 10;
  EXPECT_EQ(out[0], sum0);
  EXPECT_EQ(out[32], sum1);
  for (int t = 0; t < 48; ++t) EXPECT_EQ(static_cast<unsigned>(out[64 + t]), t < 32 ? 0xffffffffu : 0xffffu) << t;
}

}  // namespace
}  // namespace warpscope::exec::test
