// Dynamic shared memory (kernels/dyn_shared.cu), sized by launch()'s dynamic_shared_bytes.
// Tolerance: bit-exact.
#include "corpus.hpp"

namespace corpus {
namespace {

TEST(SharedMemory, DynamicArrayReversesEachBlock) {
  for (unsigned threads : {32u, 100u, 1024u}) {
    const unsigned blocks = 3;
    std::vector<float> d(blocks * threads);
    for (std::size_t i = 0; i < d.size(); ++i) d[i] = static_cast<float>(i) * 1.5f - 7.0f;
    Device device;
    Module module = load(device, "dyn_shared");
    Buffer<float> buf(device, d);
    launch_shared(device, module, "dyn_shared_reverse", Dim3{blocks}, Dim3{threads},
                  threads * sizeof(float), buf.ptr());
    std::vector<float> want(d.size());
    for (unsigned b = 0; b < blocks; ++b)
      for (unsigned t = 0; t < threads; ++t)
        want[b * threads + t] = d[b * threads + threads - 1 - t];
    EXPECT_TRUE(bitwise_equal(buf.download(), want)) << threads << " threads";
  }
}

TEST(SharedMemory, TwoTypesCarvedFromOneDynamicBuffer) {
  constexpr unsigned kBlocks = 2, kThreads = 37;  // 37 ints: the doubles start at byte 152
  const std::size_t ints_bytes = (kThreads * sizeof(int) + 7) & ~std::size_t{7};
  const std::size_t bytes = ints_bytes + kThreads * sizeof(double);
  std::vector<int> in(kBlocks * kThreads);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * i) - 300;
  Device device;
  Module module = load(device, "dyn_shared");
  Buffer<int> d_in(device, in), out(device, in.size());
  Buffer<double> dout(device, in.size());
  launch_shared(device, module, "dyn_shared_two_arrays", Dim3{kBlocks}, Dim3{kThreads}, bytes,
                d_in.ptr(), out.ptr(), dout.ptr());
  std::vector<int> want(in.size());
  std::vector<double> want_d(in.size());
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned t = 0; t < kThreads; ++t) {
      const unsigned g = b * kThreads + t, m = b * kThreads + kThreads - 1 - t;
      want[g] = in[g] + in[m];
      want_d[g] = in[m] * 0.5;
    }
  EXPECT_TRUE(bitwise_equal(out.download(), want));
  EXPECT_TRUE(bitwise_equal(dout.download(), want_d));
}

TEST(SharedMemory, DynamicNextToStatic) {
  constexpr unsigned kBlocks = 3, kThreads = 96;
  std::vector<int> in(kBlocks * kThreads);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i) + 1;
  Device device;
  Module module = load(device, "dyn_shared");
  Buffer<int> d_in(device, in), out(device, in.size());
  launch_shared(device, module, "dyn_shared_mixed", Dim3{kBlocks}, Dim3{kThreads},
                kThreads * sizeof(int), d_in.ptr(), out.ptr());
  std::vector<int> want(in.size());
  for (unsigned b = 0; b < kBlocks; ++b)
    for (unsigned t = 0; t < kThreads; ++t) {
      const unsigned g = b * kThreads + t;
      want[g] = in[b * kThreads + kThreads - 1 - t] + in[b * kThreads + (t / 32) * 32] * 1000;
    }
  EXPECT_TRUE(bitwise_equal(out.download(), want));
}

}  // namespace
}  // namespace corpus
