// Seed 001's Laplace/Jacobi kernel `lap` and seed 002's pitched 2-D access
// (kernels/stencil.cu).
// Tolerance: bit-exact. `lap` computes 0.25f * (((l + r) + d) + u): adds in source order (nvcc
// neither reassociates nor contracts them) and an exact multiply by a power of two; the
// reference does the same float operations. scale2d_pitched's 2 * x is exact, so 2 * x + ty
// rounds once with or without an fma.
#include "corpus.hpp"

#include <utility>

namespace corpus {
namespace {

TEST(Stencil, JacobiSweepsMatchTheCpu) {
  constexpr int I = 64, J = 48, kSweeps = 20;
  Rng rng(13);
  std::vector<float> u(static_cast<std::size_t>(I) * J);
  for (int j = 0; j < J; ++j)
    for (int i = 0; i < I; ++i) {
      const bool boundary = i == 0 || i == I - 1 || j == 0 || j == J - 1;
      u[i + j * I] = boundary ? static_cast<float>(i + j) * 0.1f : rng.uniform_f(-1.0f, 1.0f);
    }
  Device device;
  Module module = load(device, "stencil");
  Buffer<float> a(device, u), b(device, u.size());
  b.fill_bytes(0);
  DevicePtr u1 = a.ptr(), u2 = b.ptr();
  const Dim3 block{32, 4, 1}, grid{I / 32, J / 4, 1};  // the grid covers I x J exactly
  std::vector<float> want = u, next(u.size());
  for (int sweep = 0; sweep < kSweeps; ++sweep) {
    launch(device, module, "lap", grid, block, I, J, u1, u2);
    std::swap(u1, u2);
    for (int j = 0; j < J; ++j)
      for (int i = 0; i < I; ++i) {
        const int id = i + j * I;
        if (i == 0 || i == I - 1 || j == 0 || j == J - 1) {
          next[id] = want[id];
        } else {
          next[id] = 0.25f * (want[id - 1] + want[id + 1] + want[id - I] + want[id + I]);
        }
      }
    std::swap(want, next);
  }
  // After an even number of sweeps the latest values are back in `a`.
  static_assert(kSweeps % 2 == 0);
  EXPECT_TRUE(bitwise_equal(a.download(), want));
}

void check_pitched(int width, int height, int pitch) {
  Rng rng(static_cast<std::uint64_t>(pitch));
  std::vector<float> in(static_cast<std::size_t>(pitch) * height);
  for (float& v : in) v = rng.uniform_f(-10.0f, 10.0f);
  Device device;
  Module module = load(device, "stencil");
  Buffer<float> d_in(device, in), d_out(device, in.size());
  d_out.fill_bytes(0x7f);  // padding columns must keep this pattern
  const Dim3 block{32, 4, 1};
  const Dim3 grid{static_cast<std::uint32_t>((width + 31) / 32),
                  static_cast<std::uint32_t>((height + 3) / 4), 1};
  launch(device, module, "scale2d_pitched", grid, block, d_in.ptr(), d_out.ptr(), width, height,
         pitch);
  std::vector<float> want(in.size(), float_from_bits(0x7f7f7f7fu));
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      want[static_cast<std::size_t>(pitch) * y + x] =
          2.0f * in[static_cast<std::size_t>(pitch) * y + x] + static_cast<float>(y);
  EXPECT_TRUE(bitwise_equal(d_out.download(), want))
      << width << "x" << height << " pitch " << pitch;
}

TEST(Stencil, PitchedRowsPaddedToTheWarpSize) { check_pitched(50, 20, 64); }
TEST(Stencil, PitchedRowsUnpadded) { check_pitched(50, 20, 50); }

}  // namespace
}  // namespace corpus
