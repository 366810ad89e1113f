// Probe for Nsight Compute's everyday command-line options (issue 35): a copy, a naive and a
// tiled transpose, and a histogram with shared atomics on 4 bins, some inside NVTX ranges.
// Captured with tests/hw/capture_ncu_cli.sh; the outputs show ncu's layouts, rollups, derived
// metrics, sections, sets, pages and launch filters on a known program.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <nvtx3/nvToolsExt.h>

__global__ void copy_kernel(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

__global__ void transpose_naive(float* out, const float* in, int w) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[x * w + y + j] = in[(y + j) * w + x];
}

__global__ void transpose_tiled(float* out, const float* in, int w) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void hist_shared(unsigned* bins, const unsigned* data, int n) {
  __shared__ unsigned local[4];
  if (threadIdx.x < 4) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[data[i] & 3], 1u);
  __syncthreads();
  if (threadIdx.x < 4) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main() {
  const int n = 1 << 20, w = 1024;
  float *a, *b;
  unsigned *data, *bins;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMalloc(&data, n * sizeof(unsigned));
  cudaMalloc(&bins, 4 * sizeof(unsigned));
  std::vector<float> h(n);
  std::vector<unsigned> hd(n);
  for (int i = 0; i < n; ++i) { h[i] = float(i); hd[i] = unsigned(i * 2654435761u) >> 7; }
  cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(data, hd.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, 4 * sizeof(unsigned));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);

  nvtxRangePushA("setup");
  copy_kernel<<<n / 256, 256>>>(b, a, n);  // launch 0
  nvtxRangePop();

  nvtxRangePushA("work");
  cudaEventRecord(e0);
  transpose_naive<<<dim3(w / 32, w / 32), dim3(32, 8)>>>(b, a, w);  // launch 1
  cudaEventRecord(e1);
  cudaEventSynchronize(e1);
  float ms = 0;
  cudaEventElapsedTime(&ms, e0, e1);
  printf("transpose_naive %.3f ms\n", ms);
  transpose_tiled<<<dim3(w / 32, w / 32), dim3(32, 8)>>>(b, a, w);  // launch 2
  nvtxRangePushA("hist");
  hist_shared<<<264, 256>>>(bins, data, n);  // launch 3
  nvtxRangePop();
  nvtxRangePop();

  transpose_tiled<<<dim3(w / 32, w / 32), dim3(32, 8)>>>(b, a, w);  // launch 4
  copy_kernel<<<n / 256, 256>>>(a, b, n);                           // launch 5
  unsigned hb[4];
  cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost);
  printf("bins %u %u %u %u\n", hb[0], hb[1], hb[2], hb[3]);
  printf("status %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
