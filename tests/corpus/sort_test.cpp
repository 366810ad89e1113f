// Bitonic sort inside a block (kernels/bitonic.cu): each block sorts its own segment.
// Tolerance: bit-exact. Keys include many duplicates and the extremes 0 and 0xffffffff.
#include "corpus.hpp"

#include <algorithm>

namespace corpus {
namespace {

void check_sort(unsigned blocks, unsigned threads) {
  Rng rng(blocks * 7919u + threads);
  std::vector<unsigned> keys(static_cast<std::size_t>(blocks) * threads);
  for (unsigned& k : keys) {
    const auto r = rng.next_u32();
    k = r % 5 == 0 ? r % 16 : r;  // duplicates among small keys
  }
  keys[0] = 0xffffffffu;
  keys.back() = 0;
  Device device;
  Module module = load(device, "bitonic");
  Buffer<unsigned> d_keys(device, keys);
  launch(device, module, "bitonic_sort_block", Dim3{blocks}, Dim3{threads}, d_keys.ptr());
  std::vector<unsigned> want = keys;
  for (unsigned b = 0; b < blocks; ++b)
    std::sort(want.begin() + b * threads, want.begin() + (b + 1) * threads);
  EXPECT_TRUE(bitwise_equal(d_keys.download(), want)) << blocks << " blocks of " << threads;
}

TEST(BitonicSort, OneWarp) { check_sort(3, 32); }
TEST(BitonicSort, SeveralWarps) { check_sort(4, 256); }
TEST(BitonicSort, LargestBlock) { check_sort(2, 1024); }

}  // namespace
}  // namespace corpus
