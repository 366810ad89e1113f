// Atomics (kernels/atomics.cu): a float maximum built on atomicCAS, the order-independent
// integer read-modify-write family, float/double adds of exactly representable values, and
// atomicAdd tickets that must come out as a permutation. Tolerance: bit-exact. Each test also
// runs with four host threads: results must not depend on how CTAs are spread over them.
#include "corpus.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

namespace corpus {
namespace {

class Atomics : public ::testing::TestWithParam<unsigned> {};  // parameter: host_threads

TEST_P(Atomics, FloatMaxThroughCompareAndSwap) {
  constexpr int n = 5000;
  Rng rng(71);
  std::vector<float> in(n);
  for (float& v : in) v = rng.uniform_f(-1e6f, -1.0f);  // all negative: the CAS loop's compare
  in[3217] = -0.5f;                                     // must order negative floats correctly
  warpscope::DeviceOptions options;
  options.host_threads = GetParam();
  Device device(options);
  Module module = load(device, "atomics");
  Buffer<float> d_in(device, in);
  Buffer<float> result(device, std::vector<float>{-std::numeric_limits<float>::infinity()});
  launch(device, module, "atomic_max_f32", blocks_for(n, 256), Dim3{256}, d_in.ptr(),
         result.ptr(), n);
  EXPECT_EQ(bits(result.download()[0]), bits(-0.5f));
}

TEST_P(Atomics, IntegerFamilyAndExactFloatingAdds) {
  constexpr int n = 4096;
  Rng rng(72);
  std::vector<int> in(n);
  for (int& v : in) v = static_cast<int>(rng.int_in(-1000000, 1000000));
  warpscope::DeviceOptions options;
  options.host_threads = GetParam();
  Device device(options);
  Module module = load(device, "atomics");
  std::vector<int> ints(12, 0);
  ints[2] = std::numeric_limits<int>::max();
  ints[6] = -1;
  Buffer<int> d_in(device, in), d_ints(device, ints);
  Buffer<unsigned long long> wide(device, std::vector<unsigned long long>{0});
  Buffer<float> fsum(device, std::vector<float>{0.0f});
  Buffer<double> dsum(device, std::vector<double>{0.0});
  launch(device, module, "atomic_ops", blocks_for(n, 128), Dim3{128}, d_in.ptr(), d_ints.ptr(),
         wide.ptr(), fsum.ptr(), dsum.ptr(), n);

  std::vector<int> want = ints;
  unsigned long long want_wide = 0;
  float want_f = 0.0f;
  double want_d = 0.0;
  auto inc = [](unsigned old, unsigned limit) { return old >= limit ? 0u : old + 1; };
  auto dec = [](unsigned old, unsigned limit) {
    return (old == 0 || old > limit) ? limit : old - 1;
  };
  for (int i = 0; i < n; ++i) {
    const int v = in[i];
    want[0] = static_cast<int>(static_cast<unsigned>(want[0]) + static_cast<unsigned>(v));
    want[1] = static_cast<int>(static_cast<unsigned>(want[1]) - static_cast<unsigned>(v));
    want[2] = std::min(want[2], v);
    want[3] = std::max(want[3], v);
    want[4] |= 1 << (i % 31);
    want[5] ^= v;
    want[6] &= ~(1 << (i % 29));
    want[7] = static_cast<int>(inc(static_cast<unsigned>(want[7]), 99u));
    want[8] = static_cast<int>(dec(static_cast<unsigned>(want[8]), 999u));
    want[9] += (i & 1) ? 1 : -1;
    want_wide += static_cast<unsigned long long>(static_cast<long long>(v)) * 4294967296ull + 1ull;
    want_f += static_cast<float>(v % 1000);  // integers: every partial sum is exact
    want_d += static_cast<double>(v) * 0.25;  // quarters: exact as well
  }
  // inc/dec wrap, so their final values depend only on the number of operations.
  EXPECT_TRUE(bitwise_equal(d_ints.download(), want));
  EXPECT_EQ(wide.download()[0], want_wide);
  EXPECT_EQ(bits(fsum.download()[0]), bits(want_f));
  EXPECT_EQ(bits(dsum.download()[0]), bits(want_d));
}

TEST_P(Atomics, TicketsArePermutations) {
  constexpr unsigned kBlocks = 6, kThreads = 200, kTotal = kBlocks * kThreads;
  warpscope::DeviceOptions options;
  options.host_threads = GetParam();
  Device device(options);
  Module module = load(device, "atomics");
  Buffer<unsigned> counter(device, std::vector<unsigned>{0}), global_ticket(device, kTotal),
      block_ticket(device, kTotal);
  launch(device, module, "atomic_tickets", Dim3{kBlocks}, Dim3{kThreads}, counter.ptr(),
         global_ticket.ptr(), block_ticket.ptr());
  EXPECT_EQ(counter.download()[0], kTotal);
  std::vector<unsigned> global = global_ticket.download(), local = block_ticket.download();
  std::sort(global.begin(), global.end());
  std::vector<unsigned> want_global(kTotal);
  std::iota(want_global.begin(), want_global.end(), 0u);
  EXPECT_TRUE(bitwise_equal(global, want_global));
  std::vector<unsigned> want_local(kThreads);
  std::iota(want_local.begin(), want_local.end(), 0u);
  for (unsigned b = 0; b < kBlocks; ++b) {
    std::vector<unsigned> mine(local.begin() + b * kThreads, local.begin() + (b + 1) * kThreads);
    std::sort(mine.begin(), mine.end());
    EXPECT_TRUE(bitwise_equal(mine, want_local)) << "block " << b;
  }
}

INSTANTIATE_TEST_SUITE_P(Corpus, Atomics, ::testing::Values(1u, 4u),
                         [](const ::testing::TestParamInfo<unsigned>& param) {
                           return "HostThreads" + std::to_string(param.param);
                         });

}  // namespace
}  // namespace corpus
