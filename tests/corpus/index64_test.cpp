// 64-bit index arithmetic (kernels/index64.cu) on modest arrays: products beyond 2^32 and their
// remainders (also of negative values), negative indices from a pointer into the middle of an
// array, and pointers taken ~2^42 bytes outside the allocation and brought back before use.
// Tolerance: bit-exact.
#include "corpus.hpp"

namespace corpus {
namespace {

TEST(Index64, LongLongProductsAndRemainders) {
  constexpr long long n = 1000;
  constexpr long long stride = 3000000019LL;  // > 2^31: t * stride overflows 32 bits at t = 2
  constexpr int count = 512;
  std::vector<float> in(n);
  for (long long i = 0; i < n; ++i) in[i] = static_cast<float>(i) * 0.5f;
  Device device;
  Module module = load(device, "index64");
  Buffer<float> d_in(device, in), val(device, count), neg_val(device, count);
  Buffer<long long> big(device, count), j(device, count);
  launch(device, module, "index64_math", blocks_for(count, 128), Dim3{128}, d_in.ptr(), big.ptr(),
         j.ptr(), val.ptr(), neg_val.ptr(), stride, n, count);
  std::vector<long long> want_big(count), want_j(count);
  std::vector<float> want_val(count), want_neg(count);
  for (long long t = 0; t < count; ++t) {
    want_big[t] = t * stride;
    want_j[t] = want_big[t] % n;
    want_val[t] = in[want_j[t]];
    want_neg[t] = in[((-want_big[t]) % n + n) % n];
  }
  EXPECT_GT(want_big.back(), 1LL << 40);
  EXPECT_TRUE(bitwise_equal(big.download(), want_big));
  EXPECT_TRUE(bitwise_equal(j.download(), want_j));
  EXPECT_TRUE(bitwise_equal(val.download(), want_val));
  EXPECT_TRUE(bitwise_equal(neg_val.download(), want_neg));
}

TEST(Index64, NegativeAndFarPointerOffsets) {
  constexpr int count = 1000;
  constexpr long long back = 700;  // middle[t - back] is negative for t < 700
  std::vector<float> arr(2048);
  for (std::size_t i = 0; i < arr.size(); ++i) arr[i] = static_cast<float>(i) + 0.25f;
  std::vector<long long> far(count);
  for (int t = 0; t < count; ++t) {
    const long long magnitude = (1LL << 40) + static_cast<long long>(t) * (1LL << 33);
    far[t] = (t % 2 == 0) ? magnitude : -magnitude;
  }
  Device device;
  Module module = load(device, "index64");
  Buffer<float> d_arr(device, arr), out_neg(device, count), out_far(device, count);
  Buffer<long long> d_far(device, far);
  launch(device, module, "index64_pointers", blocks_for(count, 128), Dim3{128}, d_arr.ptr(1024),
         back, d_arr.ptr(), d_far.ptr(), out_neg.ptr(), out_far.ptr(), count);
  std::vector<float> want_neg(count), want_far(count);
  for (int t = 0; t < count; ++t) {
    want_neg[t] = arr[static_cast<std::size_t>(1024 + t - back)];
    want_far[t] = arr[static_cast<std::size_t>(t)];
  }
  EXPECT_TRUE(bitwise_equal(out_neg.download(), want_neg));
  EXPECT_TRUE(bitwise_equal(out_far.download(), want_far));
}

}  // namespace
}  // namespace corpus
