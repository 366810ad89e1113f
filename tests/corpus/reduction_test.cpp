// Block reductions (kernels/reduce.cu): shared-memory tree and warp shuffles. Each block's
// partial sum is checked.
// Tolerance: bit-exact. Inputs are multiples of 1/4 with |x| <= 64, so every partial sum
// (|sum| < 2^18, a multiple of 2^-2) is exact in float, whatever order the kernel adds in.
#include "corpus.hpp"

namespace corpus {
namespace {

constexpr unsigned kN = (1u << 15) + 123;

std::vector<float> make_input() {
  Rng rng(7);
  std::vector<float> v(kN);
  for (float& x : v) x = dyadic(rng, 256, 4);
  return v;
}

// The partial sum of block b for a grid-stride loop over `blocks` x `threads` threads.
std::vector<float> block_sums(const std::vector<float>& in, unsigned blocks, unsigned threads) {
  std::vector<double> sums(blocks, 0.0);
  for (unsigned i = 0; i < in.size(); ++i) sums[(i / threads) % blocks] += in[i];
  return std::vector<float>(sums.begin(), sums.end());
}

void check_reduction(const char* kernel, unsigned blocks, unsigned threads) {
  const std::vector<float> in = make_input();
  Device device;
  Module module = load(device, "reduce");
  Buffer<float> d_in(device, in), d_out(device, blocks);
  launch(device, module, kernel, Dim3{blocks}, Dim3{threads}, d_in.ptr(), d_out.ptr(), kN);
  EXPECT_TRUE(bitwise_equal(d_out.download(), block_sums(in, blocks, threads)))
      << kernel << " with " << blocks << " blocks of " << threads;
}

TEST(Reduction, SharedMemoryTree) { check_reduction("reduce_tree", 16, 256); }

TEST(Reduction, SharedMemoryTreeSingleBlock) { check_reduction("reduce_tree", 1, 256); }

TEST(Reduction, WarpShuffle) { check_reduction("reduce_warp_shuffle", 16, 256); }

// 96 threads: three warps, so the second level reduces a partly filled warp.
TEST(Reduction, WarpShuffleThreeWarps) { check_reduction("reduce_warp_shuffle", 7, 96); }

TEST(Reduction, WarpShuffleFullBlock) { check_reduction("reduce_warp_shuffle", 3, 1024); }

}  // namespace
}  // namespace corpus
