// More access kinds for Nsight Compute's per-instruction source counters (issue 33 follow-up:
// memory_l1_tag_requests_global and the address-space / operation codes of atomics, reductions,
// cp.async, __ldg and local memory). 4 CTAs x 256 threads = 32 warps per kernel. Captured by
// tests/hw/capture_ncurep_source.sh; compared by tests/export/ncu_rep_sass_test.cpp.
#include <cuda_pipeline.h>
#include <cstdio>

__global__ void red_add(float* y) {  // RED: no return value
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&y[i], 1.0f);
}
__global__ void atom_add(int* y, int* out) {  // ATOMG: the old value is used
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = atomicAdd(&y[i], 1);
}
__global__ void atom_same(int* y, int* out) {  // one address per warp
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = atomicAdd(&y[i >> 5], 1);
}
__global__ void ldg_nc(const float* __restrict__ x, float* __restrict__ y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = __ldg(&x[i + 1]);  // shifted: two lines per warp
}
__global__ void cp_async4(const float* x, float* y) {
  __shared__ float s[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  __pipeline_memcpy_async(&s[threadIdx.x], &x[i], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  y[i] = s[255 - threadIdx.x];
}
__global__ void local_dynamic(const int* idx, float* y) {
  float a[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 32; ++k) a[k] = static_cast<float>(k * i);
  y[i] = a[idx[i] & 31];
}
__global__ void stride2_f64(const double* x, double* y) {  // 512 bytes over 4 lines per warp
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[2 * i];
}

int main() {
  const int n = 1024;
  float *x = nullptr, *y = nullptr;
  int *iy = nullptr, *out = nullptr;
  cudaMalloc(&x, 4 * n * sizeof(double));
  cudaMalloc(&y, 4 * n * sizeof(double));
  cudaMalloc(&iy, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemset(x, 0, 4 * n * sizeof(double));
  cudaMemset(iy, 0, n * sizeof(int));
  red_add<<<4, 256>>>(y);
  atom_add<<<4, 256>>>(iy, out);
  atom_same<<<4, 256>>>(iy, out);
  ldg_nc<<<4, 256>>>(x, y);
  cp_async4<<<4, 256>>>(x, y);
  local_dynamic<<<4, 256>>>(iy, y);
  stride2_f64<<<4, 256>>>(reinterpret_cast<const double*>(x), reinterpret_cast<double*>(y));
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  std::printf("done\n");
  return 0;
}
