// Block-level inclusive scans (kernels/scan.cu): Hillis-Steele in shared memory and warp
// shuffles. Each block scans its own segment. Tolerance: bit-exact (int).
#include "corpus.hpp"

namespace corpus {
namespace {

std::vector<int> segment_scan(const std::vector<int>& in, int n, unsigned block) {
  std::vector<int> out(in.size(), 0);
  int running = 0;
  for (int i = 0; i < n; ++i) {
    if (i % static_cast<int>(block) == 0) running = 0;
    running += in[i];
    out[i] = running;
  }
  return out;
}

void check_scan(const char* kernel, int n, unsigned block) {
  Rng rng(static_cast<std::uint64_t>(n) * 31 + block);
  std::vector<int> in(static_cast<std::size_t>(n));
  for (int& v : in) v = static_cast<int>(rng.int_in(-1000, 1000));
  Device device;
  Module module = load(device, "scan");
  Buffer<int> d_in(device, in), d_out(device, in.size());
  d_out.fill_bytes(0);
  launch(device, module, kernel, blocks_for(in.size(), block), Dim3{block}, d_in.ptr(),
         d_out.ptr(), n);
  EXPECT_TRUE(bitwise_equal(d_out.download(), segment_scan(in, n, block)))
      << kernel << " n=" << n << " block=" << block;
}

class Scan : public ::testing::TestWithParam<const char*> {};

TEST_P(Scan, OneFullBlock) { check_scan(GetParam(), 256, 256); }
TEST_P(Scan, SeveralBlocksWithTail) { check_scan(GetParam(), 1000, 128); }
TEST_P(Scan, LargestBlock) { check_scan(GetParam(), 2048, 1024); }
TEST_P(Scan, SingleWarpBlocks) { check_scan(GetParam(), 100, 32); }

INSTANTIATE_TEST_SUITE_P(Corpus, Scan,
                         ::testing::Values("scan_block_inclusive", "scan_block_shuffle"),
                         KernelName{});

}  // namespace
}  // namespace corpus
