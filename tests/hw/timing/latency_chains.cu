// Latency chains of the machine instructions the time model's per-warp latency (docs/time.md)
// needs beyond microbench.cu's: a constant-bank load indexed by the previous one's value (LDC),
// a shuffle (SHFL.BFLY), MUFU.RSQ without the non-.ftz scaling, FP64 fused multiply-add (DFMA)
// and a float -> int -> float round trip (F2I + I2FP). One warp, 64 dependent steps unrolled per
// iteration; cycles per step from clock64(). Build: nvcc -O3 -arch=sm_90 latency_chains.cu.
#include <cstdio>
#include <cuda_runtime.h>

#include "hw_check.cuh"

constexpr int kSteps = 64;
__constant__ unsigned ctab[4096];

__global__ void chain_ldc(int iters, unsigned start, long long* cycles, unsigned* sink) {
  unsigned x = start;
  const long long c0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kSteps; ++k) x = ctab[x];
  }
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = x;
}

__global__ void chain_shfl(int iters, unsigned start, long long* cycles, unsigned* sink) {
  unsigned x = start + threadIdx.x;
  const long long c0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kSteps; ++k) x = __shfl_xor_sync(0xffffffffu, x, 1);
  }
  const long long c1 = clock64();
  if (threadIdx.x == 0) *cycles = c1 - c0;
  sink[threadIdx.x] = x;
}

__global__ void chain_mufu_ftz(int iters, float a, long long* cycles, float* sink) {
  float x = a;
  const long long c0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kSteps; ++k) asm volatile("rsqrt.approx.ftz.f32 %0, %0;" : "+f"(x));
  }
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = x;
}

__global__ void chain_dfma(int iters, double a, long long* cycles, double* sink) {
  double x = a;
  const long long c0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kSteps; ++k) asm volatile("fma.rn.f64 %0, %0, %1, %1;" : "+d"(x) : "d"(a));
  }
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = x;
}

__global__ void chain_cvt(int iters, float a, long long* cycles, float* sink) {
  float x = a;
  const long long c0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < kSteps; ++k) {
      int n;
      asm volatile("cvt.rzi.s32.f32 %0, %1;" : "=r"(n) : "f"(x));
      asm volatile("cvt.rn.f32.s32 %0, %1;" : "=f"(x) : "r"(n));
    }
  }
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = x;
}

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s\n", prop.name);
  // The constant table: a cycle through all 4096 entries (16 KB) with a stride of 33 words (odd:
  // one cycle; every step a new 128-byte line), then a cycle through the first 8 words (one line).
  static unsigned h[4096];
  for (unsigned i = 0; i < 4096; ++i) h[i] = (i + 33) % 4096;
  static unsigned small[4096];
  for (unsigned i = 0; i < 4096; ++i) small[i] = (i + 1) % 8;
  long long* dcyc = nullptr;
  void* sink = nullptr;
  CHECK(cudaMalloc(&dcyc, sizeof(long long)));
  CHECK(cudaMalloc(&sink, 32 * sizeof(double)));
  const int iters = 256;
  auto report = [&](const char* name, int per_step) {
    long long cyc = 0;
    cudaMemcpy(&cyc, dcyc, sizeof cyc, cudaMemcpyDeviceToHost);
    std::printf("%s %.2f cycles per step (%d instruction(s) per step)\n", name,
                double(cyc) / (double(iters) * kSteps), per_step);
  };
  for (int rep = 0; rep < 2; ++rep) {  // the first pass warms the instruction and constant caches
    std::printf("pass %d\n", rep);
    CHECK(cudaMemcpyToSymbol(ctab, h, sizeof h));
    chain_ldc<<<1, 1>>>(iters, 0, dcyc, static_cast<unsigned*>(sink));
    CHECK(cudaDeviceSynchronize());
    report("latency_ldc_16kb_stride132", 1);
    CHECK(cudaMemcpyToSymbol(ctab, small, sizeof small));
    chain_ldc<<<1, 1>>>(iters, 0, dcyc, static_cast<unsigned*>(sink));
    CHECK(cudaDeviceSynchronize());
    report("latency_ldc_one_line", 1);
    chain_shfl<<<1, 32>>>(iters, 1, dcyc, static_cast<unsigned*>(sink));
    CHECK(cudaDeviceSynchronize());
    report("latency_shfl", 1);
    chain_mufu_ftz<<<1, 1>>>(iters, 1.5f, dcyc, static_cast<float*>(sink));
    CHECK(cudaDeviceSynchronize());
    report("latency_mufu_rsq_ftz", 1);
    chain_dfma<<<1, 1>>>(iters, 1.0001, dcyc, static_cast<double*>(sink));
    CHECK(cudaDeviceSynchronize());
    report("latency_dfma", 1);
    chain_cvt<<<1, 1>>>(iters, 3.0f, dcyc, static_cast<float*>(sink));
    CHECK(cudaDeviceSynchronize());
    report("latency_f2i_i2f", 2);
  }
  return 0;
}
