// Matrix multiply (kernels/matmul.cu): naive and 16x16 shared-memory tiles.
// Tolerance: bit-exact. Entries are integers in [-4, 4], so every product (|p| <= 16) and
// partial sum (|s| <= 16 K < 2^24) is an exact float, whatever the order of the additions and
// whether nvcc fused them into fmas.
#include "corpus.hpp"

namespace corpus {
namespace {

void check_matmul(const char* kernel, int M, int N, int K) {
  Rng rng(static_cast<std::uint64_t>(M * 10000 + N * 100 + K));
  std::vector<float> A(static_cast<std::size_t>(M) * K), B(static_cast<std::size_t>(K) * N);
  for (float& v : A) v = static_cast<float>(rng.int_in(-4, 4));
  for (float& v : B) v = static_cast<float>(rng.int_in(-4, 4));
  Device device;
  Module module = load(device, "matmul");
  Buffer<float> dA(device, A), dB(device, B), dC(device, static_cast<std::size_t>(M) * N);
  const Dim3 grid{static_cast<std::uint32_t>((N + 15) / 16),
                  static_cast<std::uint32_t>((M + 15) / 16), 1};
  launch(device, module, kernel, grid, Dim3{16, 16, 1}, dA.ptr(), dB.ptr(), dC.ptr(), M, N, K);
  std::vector<float> want(static_cast<std::size_t>(M) * N);
  for (int r = 0; r < M; ++r)
    for (int c = 0; c < N; ++c) {
      float acc = 0.0f;
      for (int k = 0; k < K; ++k) acc += A[r * K + k] * B[k * N + c];
      want[r * N + c] = acc;
    }
  EXPECT_TRUE(bitwise_equal(dC.download(), want)) << kernel << " " << M << "x" << N << "x" << K;
}

class MatMul : public ::testing::TestWithParam<const char*> {};

TEST_P(MatMul, TileMultiples) { check_matmul(GetParam(), 48, 32, 64); }
TEST_P(MatMul, RaggedShapes) { check_matmul(GetParam(), 37, 40, 29); }

INSTANTIATE_TEST_SUITE_P(Corpus, MatMul, ::testing::Values("matmul_naive", "matmul_tiled"),
                         KernelName{});

}  // namespace
}  // namespace corpus
