// C = A * B for N x N floats (row-major), blocks of 16x16 threads, one C element per thread:
//   matmul_naive  each thread reads a row of A (one word per warp half: broadcast-like) and a
//                 column of B (coalesced across the warp)
//   matmul_tiled  16x16 tiles of A and B staged through shared memory
// Inputs are small integers, so every sum is exact in float and the check is exact.
// Usage: matmul [N]   (a multiple of 16; default 256)
// Prints OK, or FAIL and exits 1.
#include <vector>

#include "../../../examples/common.cuh"

constexpr int kTile = 16;

__global__ void matmul_naive(const float* a, const float* b, float* c, int n) {
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  float s = 0.0f;
  for (int k = 0; k < n; ++k) s += a[row * n + k] * b[k * n + col];
  c[row * n + col] = s;
}

__global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[kTile][kTile];
  __shared__ float tb[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  float s = 0.0f;
  for (int t = 0; t < n; t += kTile) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < kTile; ++k) s += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = s;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 256;
  if (n <= 0 || n % kTile != 0) {
    std::fprintf(stderr, "N must be a positive multiple of %d\n", kTile);
    return 2;
  }
  const size_t count = size_t(n) * n;
  std::vector<float> ha(count), hb(count), want(count, 0.0f), got(count);
  for (size_t i = 0; i < count; ++i) {
    ha[i] = static_cast<float>((i * 7) % 5) - 2.0f;
    hb[i] = static_cast<float>((i * 11) % 7) - 3.0f;
  }
  for (int r = 0; r < n; ++r)
    for (int k = 0; k < n; ++k) {
      const float av = ha[size_t(r) * n + k];
      for (int c = 0; c < n; ++c) want[size_t(r) * n + c] += av * hb[size_t(k) * n + c];
    }
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, count * sizeof(float)));
  CHECK(cudaMalloc(&b, count * sizeof(float)));
  CHECK(cudaMalloc(&c, count * sizeof(float)));
  CHECK(cudaMemcpy(a, ha.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(b, hb.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  const dim3 grid(n / kTile, n / kTile), block(kTile, kTile);
  int failures = 0;
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaMemset(c, 0, count * sizeof(float)));
    if (k == 0) matmul_naive<<<grid, block>>>(a, b, c, n);
    if (k == 1) matmul_tiled<<<grid, block>>>(a, b, c, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got.data(), c, count * sizeof(float), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < count; ++i) bad += got[i] != want[i];
    std::printf("%s %dx%d: %s (c[1]=%g)\n", k == 0 ? "matmul_naive" : "matmul_tiled", n, n, bad ? "FAIL" : "ok", got[1]);
    failures += bad != 0;
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  std::printf("%s\n", failures ? "FAIL" : "OK");
  return failures ? 1 : 0;
}
