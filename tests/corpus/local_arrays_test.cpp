// Per-thread arrays (kernels/local_arrays.cu, after seeds 000 and 001): static indices, an
// unrolled loop, a warp-uniform dynamic index, a per-thread dynamic index, and seed 001's
// `ut[3]` example with its matrix in constant memory.
//
// Tolerance: bit-exact. The first four kernels only add and subtract (nothing to contract into
// an fma, and nvcc does not reassociate float adds), and the reference adds in the kernel's
// order. local_ut3 multiplies small integers by dyadic values, so every product and sum is
// exact whatever the evaluation order.
#include "corpus.hpp"

namespace corpus {
namespace {

constexpr int kLocalN = 16;

std::vector<float> random_floats(std::size_t count, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<float> v(count);
  for (float& f : v) f = rng.uniform_f(-100.0f, 100.0f);
  return v;
}

TEST(LocalArrays, StaticIndices) {
  constexpr int kThreads = 256;
  const std::vector<float> in = random_floats(4 * kThreads, 1);
  Device device;
  Module module = load(device, "local_arrays");
  Buffer<float> d_in(device, in), d_out(device, kThreads);
  launch(device, module, "local_static", Dim3{2}, Dim3{128}, d_in.ptr(), d_out.ptr());
  std::vector<float> want(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    const float* a = &in[4 * t];
    want[t] = ((a[3] + a[0]) + a[2]) - a[1];
  }
  EXPECT_TRUE(bitwise_equal(d_out.download(), want));
}

TEST(LocalArrays, UnrolledLoop) {
  constexpr int n = 300;  // 3 blocks of 128: the last block is partly idle
  const std::vector<float> in = random_floats(8 * n, 2);
  Device device;
  Module module = load(device, "local_arrays");
  Buffer<float> d_in(device, in), d_out(device, n);
  launch(device, module, "local_unrolled", blocks_for(n, 128), Dim3{128}, d_in.ptr(), d_out.ptr(),
         n);
  std::vector<float> want(n);
  for (int t = 0; t < n; ++t) {
    float sum = 0.0f;
    for (int k = 0; k < 8; ++k) sum += (k % 2 == 0) ? in[k * n + t] : -in[k * n + t];
    want[t] = sum;
  }
  EXPECT_TRUE(bitwise_equal(d_out.download(), want));
}

TEST(LocalArrays, DynamicIndexUniformAcrossTheWarp) {
  constexpr int n = 300;
  const std::vector<float> buf = random_floats(kLocalN * n, 3);
  Device device;
  Module module = load(device, "local_arrays");
  Buffer<float> d_buf(device, buf), d_out(device, n);
  for (int start : {0, 5, 13}) {  // 13: the four reads wrap around the end of the array
    launch(device, module, "local_uniform_dynamic", blocks_for(n, 128), Dim3{128}, d_buf.ptr(),
           d_out.ptr(), n, start);
    std::vector<float> want(n);
    for (int t = 0; t < n; ++t) {
      float sum = 0.0f;
      for (int i = 0; i < 4; ++i) sum += buf[((start + i) % kLocalN) * n + t];
      want[t] = sum;
    }
    EXPECT_TRUE(bitwise_equal(d_out.download(), want)) << "start_index " << start;
  }
}

TEST(LocalArrays, DynamicIndexPerThread) {
  constexpr int n = 300;
  const std::vector<float> buf = random_floats(kLocalN * n, 4);
  Rng rng(5);
  std::vector<int> idx(n);
  for (int& i : idx) i = static_cast<int>(rng.int_in(0, kLocalN - 1));
  Device device;
  Module module = load(device, "local_arrays");
  Buffer<float> d_buf(device, buf), d_out(device, n);
  Buffer<int> d_idx(device, idx);
  launch(device, module, "local_per_thread", blocks_for(n, 128), Dim3{128}, d_buf.ptr(),
         d_idx.ptr(), d_out.ptr(), n);
  std::vector<float> want(n);
  for (int t = 0; t < n; ++t) {
    const int k = idx[t];
    const float ak = buf[k * n + t] + 1.0f;
    want[t] = ak - buf[((k + 5) % kLocalN) * n + t];
  }
  EXPECT_TRUE(bitwise_equal(d_out.download(), want));
}

TEST(LocalArrays, SeedUt3WithConstantMatrix) {
  constexpr std::uint32_t kBlocks = 2, kThreadsPerBlock = 64;
  constexpr int kTotal = kBlocks * kThreadsPerBlock;
  const float a[9] = {1, -2, 3, 0, 2, -1, -3, 1, 2};
  Rng rng(6);
  std::vector<float> u(3 * kTotal);
  for (float& x : u) x = dyadic(rng, 1000, 8);
  Device device;
  Module module = load(device, "local_arrays");
  EXPECT_EQ(device.symbol_size(module, "A"), sizeof a);
  device.copy_to_symbol(module, "A", a, sizeof a);
  Buffer<float> d_u(device, u);
  launch(device, module, "local_ut3", Dim3{kBlocks}, Dim3{kThreadsPerBlock}, d_u.ptr());
  std::vector<float> want(u.size());
  for (int t = 0; t < kTotal; ++t) {
    const float ut[3] = {u[t], u[t + kTotal], u[t + 2 * kTotal]};
    for (int k = 0; k < 3; ++k)
      want[t + k * kTotal] = a[3 * k] * ut[0] + a[3 * k + 1] * ut[1] + a[3 * k + 2] * ut[2];
  }
  EXPECT_TRUE(bitwise_equal(d_u.download(), want));
}

}  // namespace
}  // namespace corpus
