// __noinline__ device functions (kernels/device_functions.cu): a three-deep call chain, calls
// from the three sides of a divergent branch, a function returning a 12-byte struct, one
// returning float, and one writing through pointers into its caller's frame.
// Tolerance: bit-exact (integer math; float adds, compares and a multiply by 0.5, in the same
// order as the reference).
#include "corpus.hpp"

namespace corpus {
namespace {

int leaf(int x) { return x * 3 + 1; }
int mid(int x) { return leaf(x) ^ leaf(x >> 1); }
int top(int x, int y) { return mid(x) + 7 * mid(y); }

TEST(DeviceFunctions, CallChainAndDivergentCalls) {
  constexpr int n = 300;
  Rng rng(17);
  std::vector<int> in(n);
  for (int& v : in) v = static_cast<int>(rng.int_in(-1000000, 1000000));
  Device device;
  Module module = load(device, "device_functions");
  Buffer<int> d_in(device, in), out(device, n), branchy(device, n);
  launch(device, module, "call_chain", blocks_for(n, 64), Dim3{64}, d_in.ptr(), out.ptr(),
         branchy.ptr(), n);
  std::vector<int> want_out(n), want_branchy(n);
  for (int t = 0; t < n; ++t) {
    want_out[t] = top(in[t], t);
    want_branchy[t] = t % 3 == 0 ? leaf(in[t]) : t % 3 == 1 ? mid(in[t]) : top(in[t], in[t] + 1);
  }
  EXPECT_TRUE(bitwise_equal(out.download(), want_out));
  EXPECT_TRUE(bitwise_equal(branchy.download(), want_branchy));
}

TEST(DeviceFunctions, StructAndFloatReturnsAndOutParameters) {
  constexpr int n = 200, per_thread = 6;
  Rng rng(18);
  std::vector<float> in(n * per_thread);
  for (float& v : in) v = rng.uniform_f(-50.0f, 50.0f);
  Device device;
  Module module = load(device, "device_functions");
  Buffer<float> d_in(device, in), sum(device, n), max(device, n), range(device, n),
      pair(device, n);
  Buffer<int> count(device, n);
  launch(device, module, "struct_return", blocks_for(n, 64), Dim3{64}, d_in.ptr(), sum.ptr(),
         max.ptr(), count.ptr(), range.ptr(), pair.ptr(), per_thread, n);
  std::vector<float> want_sum(n), want_max(n), want_range(n), want_pair(n);
  std::vector<int> want_count(n);
  for (int t = 0; t < n; ++t) {
    const float* v = &in[t * per_thread];
    float s = 0.0f, m = -3.0e38f, lo = v[0], hi = v[0];
    int c = 0;
    for (int i = 0; i < per_thread; ++i) {
      s += v[i];
      m = v[i] > m ? v[i] : m;
      c += v[i] > 0.0f ? 1 : 0;
      lo = std::fmin(lo, v[i]);
      hi = std::fmax(hi, v[i]);
    }
    want_sum[t] = s;
    want_max[t] = m;
    want_count[t] = c;
    want_range[t] = hi - lo;
    want_pair[t] = (v[0] + v[per_thread - 1]) * 0.5f;
  }
  EXPECT_TRUE(bitwise_equal(sum.download(), want_sum));
  EXPECT_TRUE(bitwise_equal(max.download(), want_max));
  EXPECT_TRUE(bitwise_equal(count.download(), want_count));
  EXPECT_TRUE(bitwise_equal(range.download(), want_range));
  EXPECT_TRUE(bitwise_equal(pair.download(), want_pair));
}

}  // namespace
}  // namespace corpus
