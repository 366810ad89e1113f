// Nsight Compute's per-instruction memory_l1_tag_requests_global, memory_access_size_type and the
// shared counters on access shapes whose 128-byte lines are known by construction (issue 33:
// tests/hw/capture_ncurep_source.sh runs it under ncu's SourceCounters section; warpscope's
// source counters are compared with the H200's per machine instruction). 4 CTAs x 256 threads =
// 32 warps per kernel; every warp's lanes are t = 0..31 of its own 32-thread slice.
#include <cstdio>

// lines per warp request: 1 (a float per lane, aligned)
__global__ void aligned_f32(const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i];
}
// 2 lines: float2 per lane (256 bytes per warp)
__global__ void aligned_f64x1(const float2* x, float2* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i];
}
// 4 lines: float4 per lane (512 bytes per warp)
__global__ void aligned_f128(const float4* x, float4* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i];
}
// 32 lines: 32 floats apart (one line per lane)
__global__ void stride32(const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[i * 32];
}
// 2 lines, lanes alternating between them: lane l reads line (l & 1), word l >> 1
__global__ void alternating(const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int warp = i >> 5, l = i & 31;
  y[i] = x[warp * 64 + (l & 1) * 32 + (l >> 1)];
}
// 1 line, every lane on one word
__global__ void uniform(const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = x[(i >> 5) * 32];
}
// half the lanes: 1 line (64 bytes)
__global__ void half_warp(const float* x, float* y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i & 31) < 16) y[i] = x[i];
}
// shared: a 2-way conflict (stride 2 words) and a float4 shared load
__global__ void shared_shapes(const float* x, float* y) {
  __shared__ float s[1024];
  for (int k = threadIdx.x; k < 1024; k += blockDim.x) s[k] = x[blockIdx.x * 1024 + k];
  __syncthreads();
  const float a = s[(threadIdx.x * 2) & 1023];
  const float4 b = reinterpret_cast<const float4*>(s)[threadIdx.x];
  y[blockIdx.x * blockDim.x + threadIdx.x] = a + b.x + b.y + b.z + b.w;
}

int main() {
  const int n = 1024;
  float *x = nullptr, *y = nullptr;
  cudaMalloc(&x, n * 32 * sizeof(float));
  cudaMalloc(&y, n * 4 * sizeof(float));
  cudaMemset(x, 0, n * 32 * sizeof(float));
  aligned_f32<<<4, 256>>>(x, y);
  aligned_f64x1<<<4, 256>>>(reinterpret_cast<const float2*>(x), reinterpret_cast<float2*>(y));
  aligned_f128<<<4, 256>>>(reinterpret_cast<const float4*>(x), reinterpret_cast<float4*>(y));
  stride32<<<4, 256>>>(x, y);
  alternating<<<4, 256>>>(x, y);
  uniform<<<4, 256>>>(x, y);
  half_warp<<<4, 256>>>(x, y);
  shared_shapes<<<4, 256>>>(x, y);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  cudaFree(x);
  cudaFree(y);
  std::printf("done\n");
  return 0;
}
