// A 32x32-tile matrix transpose through shared memory, three ways: a plain copy (the
// bandwidth reference), a tile read down its columns (a 32-way shared-memory bank conflict),
// and the same tile padded to 33 columns (no conflict).
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kTile = 32, kRows = 8;

__global__ void copy(float* out, const float* in, int n) {
  int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = in[(y + j) * n + x];
}

__global__ void transpose_conflicted(float* out, const float* in, int n) {
  __shared__ float tile[kTile][kTile];
  int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float* out, const float* in, int n) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int n = 512;
  const size_t bytes = size_t(n) * n * sizeof(float);
  float *in, *out;
  cudaMalloc(&in, bytes);
  cudaMalloc(&out, bytes);
  float* h = new float[size_t(n) * n];
  for (int i = 0; i < n * n; ++i) h[i] = float(i);
  cudaMemcpy(in, h, bytes, cudaMemcpyHostToDevice);
  dim3 grid(n / kTile, n / kTile), block(kTile, kRows);
  copy<<<grid, block>>>(out, in, n);
  transpose_conflicted<<<grid, block>>>(out, in, n);
  transpose_padded<<<grid, block>>>(out, in, n);
  cudaMemcpy(h, out, bytes, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) bad += h[r * n + c] != float(c * n + r);
  printf("transpose %dx%d: %s\n", n, n, bad ? "WRONG" : "ok");
  delete[] h;
  cudaFree(in);
  cudaFree(out);
  return bad != 0;
}
