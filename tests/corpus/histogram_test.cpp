// Byte histograms (kernels/histogram.cu) with shared-memory atomics and with global atomics.
// Tolerance: bit-exact (counts). The input is skewed (a third of the bytes are 7) so that many
// lanes of a warp hit the same bin in one atomic instruction. The result must not depend on
// how many host threads run the CTAs.
#include "corpus.hpp"

namespace corpus {
namespace {

constexpr unsigned kBins = 256;

std::vector<unsigned char> make_data(unsigned n) {
  Rng rng(11);
  std::vector<unsigned char> data(n);
  for (unsigned char& b : data) {
    const auto r = rng.next_u32();
    b = static_cast<unsigned char>(r % 3 == 0 ? 7u : (r >> 8) & 0xffu);
  }
  return data;
}

void check_histogram(const char* kernel, unsigned n, unsigned blocks, unsigned threads,
                     unsigned host_threads) {
  const std::vector<unsigned char> data = make_data(n);
  warpscope::DeviceOptions options;
  options.host_threads = host_threads;
  Device device(options);
  Module module = load(device, "histogram");
  Buffer<unsigned char> d_data(device, data);
  Buffer<unsigned> d_bins(device, kBins);
  d_bins.fill_bytes(0);
  launch(device, module, kernel, Dim3{blocks}, Dim3{threads}, d_data.ptr(), n, d_bins.ptr());
  std::vector<unsigned> want(kBins, 0);
  for (unsigned char b : data) ++want[b];
  EXPECT_TRUE(bitwise_equal(d_bins.download(), want))
      << kernel << " n=" << n << " grid=" << blocks << "x" << threads << " host_threads="
      << host_threads;
}

class Histogram : public ::testing::TestWithParam<const char*> {};

TEST_P(Histogram, ManyBlocks) { check_histogram(GetParam(), 40000, 12, 256, 1); }
TEST_P(Histogram, BlocksSmallerThanTheBinCount) { check_histogram(GetParam(), 5000, 5, 96, 1); }
TEST_P(Histogram, SameCountsWithFourHostThreads) { check_histogram(GetParam(), 40000, 12, 256, 4); }

INSTANTIATE_TEST_SUITE_P(Corpus, Histogram,
                         ::testing::Values("histogram_shared", "histogram_global"), KernelName{});

}  // namespace
}  // namespace corpus
