// Matrix transposes (the memory system's classic): a copy for reference, a naive transpose
// (coalesced reads, stores 4 KB apart), a transpose through a 32x32 shared-memory tile (both sides
// coalesced, the tile read down a column: 32-way bank conflicts) and the same tile padded to 33
// columns (no conflicts). Blocks of 32x8 threads, each thread moving 4 elements.
// Usage: transpose [N]   (N x N floats, N a multiple of 32; default 512)
// Checks every element against the host and prints OK, or FAIL and exits 1.
#include <vector>

#include "../../../examples/common.cuh"

constexpr int kTile = 32;
constexpr int kRows = 8;

__global__ void copy(float* out, const float* in, int n) {
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = in[(y + j) * n + x];
}

__global__ void transpose_naive(float* out, const float* in, int n) {
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[x * n + (y + j)] = in[(y + j) * n + x];
}

template <int Pad>
__global__ void transpose_tiled(float* out, const float* in, int n) {
  __shared__ float tile[kTile][kTile + Pad];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 512;
  if (n <= 0 || n % kTile != 0) {
    std::fprintf(stderr, "N must be a positive multiple of %d\n", kTile);
    return 2;
  }
  const size_t count = size_t(n) * n;
  std::vector<float> h(count), got(count);
  for (size_t i = 0; i < count; ++i) h[i] = static_cast<float>(i % 1000003);
  float *in, *out;
  CHECK(cudaMalloc(&in, count * sizeof(float)));
  CHECK(cudaMalloc(&out, count * sizeof(float)));
  CHECK(cudaMemcpy(in, h.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  const dim3 grid(n / kTile, n / kTile), block(kTile, kRows);
  int failures = 0;
  for (int k = 0; k < 4; ++k) {
    const char* name[] = {"copy", "transpose_naive", "transpose_tiled", "transpose_padded"};
    CHECK(cudaMemset(out, 0, count * sizeof(float)));
    if (k == 0) copy<<<grid, block>>>(out, in, n);
    if (k == 1) transpose_naive<<<grid, block>>>(out, in, n);
    if (k == 2) transpose_tiled<0><<<grid, block>>>(out, in, n);
    if (k == 3) transpose_tiled<1><<<grid, block>>>(out, in, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got.data(), out, count * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int r = 0; r < n && !bad; ++r)
      for (int c = 0; c < n; ++c) {
        const float want = k == 0 ? h[size_t(r) * n + c] : h[size_t(c) * n + r];
        if (got[size_t(r) * n + c] != want) {
          std::printf("FAIL %s at (%d, %d): %g, want %g\n", name[k], r, c, got[size_t(r) * n + c], want);
          bad = 1;
          break;
        }
      }
    std::printf("%s %dx%d: %s\n", name[k], n, n, bad ? "FAIL" : "ok");
    failures += bad;
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf("%s\n", failures ? "FAIL" : "OK");
  return failures ? 1 : 0;
}
