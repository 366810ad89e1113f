// What a CTA barrier costs (docs/time.md, "Barriers"): one CTA of 32, 128, 256 or 1024 threads
// runs a loop whose every step is __syncthreads() and one dependent integer add; clock64() of
// thread 0 gives cycles per step. A second kernel does the same steps without the barrier.
// Prints: kernel threads cycles_per_step. Build: nvcc -O3 -arch=sm_90 barrier_cost.cu
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kIters = 256, kSteps = 32;

__global__ void with_barrier(int a, long long* cycles, int* sink) {
  int x = a + threadIdx.x;
  const long long c0 = clock64();
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int k = 0; k < kSteps; ++k) {
      __syncthreads();
      x = x * 3 + k;
    }
  }
  const long long c1 = clock64();
  if (threadIdx.x == 0) *cycles = c1 - c0;
  sink[threadIdx.x] = x;
}

__global__ void without_barrier(int a, long long* cycles, int* sink) {
  int x = a + threadIdx.x;
  const long long c0 = clock64();
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int k = 0; k < kSteps; ++k) x = x * 3 + k;
  }
  const long long c1 = clock64();
  if (threadIdx.x == 0) *cycles = c1 - c0;
  sink[threadIdx.x] = x;
}

int main() {
  long long* d_cycles = nullptr;
  int* d_sink = nullptr;
  if (cudaMalloc(&d_cycles, sizeof(long long)) != cudaSuccess || cudaMalloc(&d_sink, 1024 * sizeof(int)) != cudaSuccess)
    return 1;
  std::printf("# kernel threads cycles_per_step (one CTA, %d x %d steps)\n", kIters, kSteps);
  for (int rep = 0; rep < 2; ++rep) {
    for (unsigned t : {32u, 128u, 256u, 1024u}) {
      for (int b = 0; b < 2; ++b) {
        if (b == 0) with_barrier<<<1, t>>>(1, d_cycles, d_sink);
        else without_barrier<<<1, t>>>(1, d_cycles, d_sink);
        long long h = 0;
        if (cudaDeviceSynchronize() != cudaSuccess || cudaMemcpy(&h, d_cycles, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
          return 1;
        std::printf("%s %u %.2f\n", b == 0 ? "with_barrier" : "without_barrier", t, static_cast<double>(h) / (kIters * kSteps));
      }
    }
  }
  return 0;
}
