// Matrix transpose (kernels/transpose.cu): naive, shared-memory tile, tile padded to 33 columns.
// Tolerance: bit-exact (values are only moved).
#include "corpus.hpp"

namespace corpus {
namespace {

struct Shape {
  int width, height;
};

void check_transpose(const char* kernel, Shape shape) {
  const int w = shape.width, h = shape.height;
  Rng rng(static_cast<std::uint64_t>(w * 1000 + h));
  std::vector<float> in(static_cast<std::size_t>(w) * h);
  for (float& v : in) v = rng.uniform_f(-1e6f, 1e6f);
  Device device;
  Module module = load(device, "transpose");
  Buffer<float> d_in(device, in), d_out(device, in.size());
  d_out.fill_bytes(0xff);
  const Dim3 grid{static_cast<std::uint32_t>((w + 31) / 32),
                  static_cast<std::uint32_t>((h + 31) / 32), 1};
  launch(device, module, kernel, grid, Dim3{32, 8, 1}, d_out.ptr(), d_in.ptr(), w, h);
  std::vector<float> want(in.size());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      want[static_cast<std::size_t>(x) * h + y] = in[static_cast<std::size_t>(y) * w + x];
  EXPECT_TRUE(bitwise_equal(d_out.download(), want)) << kernel << " " << w << "x" << h;
}

class Transpose : public ::testing::TestWithParam<const char*> {};

TEST_P(Transpose, TileMultiples) { check_transpose(GetParam(), {96, 64}); }
TEST_P(Transpose, RaggedEdges) { check_transpose(GetParam(), {100, 70}); }
TEST_P(Transpose, SingleRow) { check_transpose(GetParam(), {45, 1}); }

INSTANTIATE_TEST_SUITE_P(Corpus, Transpose,
                         ::testing::Values("transpose_naive", "transpose_tiled",
                                           "transpose_tiled_padded"),
                         KernelName{});

}  // namespace
}  // namespace corpus
