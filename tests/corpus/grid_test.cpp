// threadIdx / blockIdx / blockDim / gridDim and %laneid in 2-D and 3-D launches
// (kernels/grid.cu). Every thread writes its view at its flat position; each position must be
// written exactly as computed here. Tolerance: bit-exact.
#include "corpus.hpp"

namespace corpus {
namespace {

TEST(Grid, TwoDimensional) {
  const Dim3 block{8, 4, 1}, grid{3, 5, 1};
  const int width = static_cast<int>(grid.x * block.x);
  const unsigned threads = block.x * block.y, total = grid.x * grid.y * threads;
  Device device;
  Module module = load(device, "grid");
  Buffer<int> out(device, 8 * total);
  out.fill_bytes(0xff);
  launch(device, module, "grid_2d", grid, block, out.ptr(), width);
  std::vector<int> want(8 * total);
  for (unsigned by = 0; by < grid.y; ++by)
    for (unsigned bx = 0; bx < grid.x; ++bx)
      for (unsigned ty = 0; ty < block.y; ++ty)
        for (unsigned tx = 0; tx < block.x; ++tx) {
          const unsigned flat = (by * grid.x + bx) * threads + ty * block.x + tx;
          const int gx = static_cast<int>(bx * block.x + tx);
          const int gy = static_cast<int>(by * block.y + ty);
          const int fields[8] = {static_cast<int>(tx), static_cast<int>(ty), 0,
                                 static_cast<int>(bx), static_cast<int>(by), 0,
                                 gy * width + gx,      static_cast<int>(grid.x * 100 + grid.y)};
          std::copy(fields, fields + 8, want.begin() + 8 * flat);
        }
  EXPECT_TRUE(bitwise_equal(out.download(), want));
}

// 4 x 3 x 3 = 36 threads per block: the second warp of each block has 4 lanes.
TEST(Grid, ThreeDimensionalWithLaneIds) {
  const Dim3 block{4, 3, 3}, grid{2, 3, 2};
  const unsigned threads = block.x * block.y * block.z,
                 total = grid.x * grid.y * grid.z * threads;
  Device device;
  Module module = load(device, "grid");
  Buffer<int> out(device, 16 * total);
  out.fill_bytes(0);
  launch(device, module, "grid_3d", grid, block, out.ptr());
  std::vector<int> want(16 * total);
  for (unsigned bz = 0; bz < grid.z; ++bz)
    for (unsigned by = 0; by < grid.y; ++by)
      for (unsigned bx = 0; bx < grid.x; ++bx)
        for (unsigned tz = 0; tz < block.z; ++tz)
          for (unsigned ty = 0; ty < block.y; ++ty)
            for (unsigned tx = 0; tx < block.x; ++tx) {
              const unsigned block_id = (bz * grid.y + by) * grid.x + bx;
              const unsigned in_block = (tz * block.y + ty) * block.x + tx;
              const unsigned flat = block_id * threads + in_block;
              const unsigned fields[16] = {tx,      ty,      tz,      bx,      by,
                                           bz,      block.x, block.y, block.z, grid.x,
                                           grid.y,  grid.z,  in_block % 32,    in_block / 32,
                                           in_block, 1};
              for (int f = 0; f < 16; ++f) want[16 * flat + f] = static_cast<int>(fields[f]);
            }
  EXPECT_TRUE(bitwise_equal(out.download(), want));
}

}  // namespace
}  // namespace corpus
