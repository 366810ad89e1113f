// What the branches of IEEE division and square root cost one warp (docs/time.md, "Branches"):
// nvcc compiles 1.0f / sqrtf(x) (no fast math) into MUFU.RSQ / MUFU.RCP with fix-up
// instructions and, around each, a test and a conditional branch to a slow path that ordinary
// operands never take (BSSY / BSYNC around it). One warp runs a dependent chain of 64 steps per
// loop iteration; clock64() gives cycles per step:
//   recip_sqrt: x = 1.0f / sqrtf(x * x + c)       (the N-body's inner step: two slow-path branches)
//   sqrt_only:  x = sqrtf(x * x + c)              (one)
//   recip_only: x = 1.0f / (x * x + c)            (one)
//   rsqrt:      x = rsqrtf(x * x + c)             (MUFU.RSQ and its scaling, no branch)
// Prints: name cycles_per_step. Build: nvcc -O3 -arch=sm_90 branch_cost.cu
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kIters = 256, kSteps = 64;

#define CHAIN_KERNEL(name, expr)                                                               \
  __global__ void name(float a, float c, long long* cycles, float* sink) {                    \
    float x = a + threadIdx.x * 1e-3f;                                                         \
    const long long c0 = clock64();                                                            \
    for (int i = 0; i < kIters; ++i) {                                                         \
      _Pragma("unroll") for (int k = 0; k < kSteps; ++k) x = (expr);                           \
    }                                                                                          \
    const long long c1 = clock64();                                                            \
    if (threadIdx.x == 0) *cycles = c1 - c0;                                                   \
    sink[threadIdx.x] = x;                                                                     \
  }

CHAIN_KERNEL(recip_sqrt, 1.0f / sqrtf(x * x + c))
CHAIN_KERNEL(sqrt_only, sqrtf(x * x + c))
CHAIN_KERNEL(recip_only, 1.0f / (x * x + c))
CHAIN_KERNEL(rsqrt, rsqrtf(x * x + c))

int main() {
  long long* d_cycles = nullptr;
  float* d_sink = nullptr;
  if (cudaMalloc(&d_cycles, sizeof(long long)) != cudaSuccess || cudaMalloc(&d_sink, 32 * sizeof(float)) != cudaSuccess)
    return 1;
  using K = void (*)(float, float, long long*, float*);
  const struct { const char* name; K k; } kernels[] = {
      {"recip_sqrt", recip_sqrt}, {"sqrt_only", sqrt_only}, {"recip_only", recip_only}, {"rsqrt", rsqrt}};
  std::printf("# name cycles_per_step (one warp, %d x %d dependent steps)\n", kIters, kSteps);
  for (int rep = 0; rep < 2; ++rep) {
    for (const auto& k : kernels) {
      k.k<<<1, 32>>>(1.5f, 0.25f, d_cycles, d_sink);
      long long h = 0;
      if (cudaDeviceSynchronize() != cudaSuccess || cudaMemcpy(&h, d_cycles, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess)
        return 1;
      std::printf("%s %.2f\n", k.name, static_cast<double>(h) / (kIters * kSteps));
    }
  }
  return 0;
}
