// Tensor-core latency and throughput of mma.sync per shape and type (docs/time.md, "Tensor
// cores"). For each instruction:
//   latency: one warp, one accumulator, each mma waiting for the previous one's result:
//            clock64() cycles per mma over kIters x kUnroll steps;
//   rate:    every SM full (132 x 4 blocks of 128 threads: 16 warps per SM), each warp kChains
//            independent accumulators: warp mma instructions per SM per cycle, from clock64() of
//            the busiest SM's warps (the longest elapsed time of any warp).
// Prints: name latency_cycles rate_per_sm_cycle. Build: nvcc -O3 -arch=sm_90 tensor_rate.cu
#include <cstdio>
#include <cuda_runtime.h>

#include "hw_check.cuh"

constexpr int kIters = 256, kUnroll = 16, kChains = 4;

// One mma of each kind on accumulator d (4 f32 / 4 s32 / 2 f64 registers), fixed a and b.
// The f32-accumulator kinds differ only in their shape and types.
#define MMA_F32(Name, shape_types, label)                                                      \
  struct Name {                                                                               \
    static __device__ void mma(float* d, unsigned a0, unsigned b0) {                          \
      asm volatile("mma.sync.aligned." shape_types                                             \
                   " {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%5,%5}, {%0,%1,%2,%3};"                      \
                   : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]) : "r"(a0), "r"(b0));      \
    }                                                                                         \
    static constexpr int kRegs = 4;                                                           \
    static constexpr const char* kName = label;                                               \
  };
MMA_F32(F16, "m16n8k16.row.col.f32.f16.f16.f32", "mma.m16n8k16.f32.f16")
struct F16Acc16 {
  static __device__ void mma(float* d, unsigned a0, unsigned b0) {
    unsigned* u = reinterpret_cast<unsigned*>(d);
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%2,%2,%2}, {%3,%3}, {%0,%1};"
                 : "+r"(u[0]), "+r"(u[1]) : "r"(a0), "r"(b0));
  }
  static constexpr int kRegs = 2;
  static constexpr const char* kName = "mma.m16n8k16.f16.f16";
};
MMA_F32(Bf16, "m16n8k16.row.col.f32.bf16.bf16.f32", "mma.m16n8k16.f32.bf16")
MMA_F32(Tf32, "m16n8k8.row.col.f32.tf32.tf32.f32", "mma.m16n8k8.f32.tf32")
struct S8 {
  static __device__ void mma(float* d, unsigned a0, unsigned b0) {
    int* s = reinterpret_cast<int*>(d);
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%4,%4,%4}, {%5,%5}, {%0,%1,%2,%3};"
                 : "+r"(s[0]), "+r"(s[1]), "+r"(s[2]), "+r"(s[3]) : "r"(a0), "r"(b0));
  }
  static constexpr int kRegs = 4;
  static constexpr const char* kName = "mma.m16n8k32.s32.s8";
};
struct F64 {
  static __device__ void mma(float* d, unsigned a0, unsigned b0) {
    double* x = reinterpret_cast<double*>(d);
    const double a = __uint_as_float(a0), b = __uint_as_float(b0);
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(x[0]), "+d"(x[1]) : "d"(a), "d"(b));
  }
  static constexpr int kRegs = 4;  // two doubles
  static constexpr const char* kName = "mma.m8n8k4.f64";
};

template <class M> __global__ void latency(unsigned a0, unsigned b0, long long* cycles, float* sink) {
  float d[M::kRegs] = {};
  const long long c0 = clock64();
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int k = 0; k < kUnroll; ++k) M::mma(d, a0, b0);
  }
  const long long c1 = clock64();
  if (threadIdx.x == 0) *cycles = c1 - c0;
  float s = 0;
#pragma unroll
  for (int r = 0; r < M::kRegs; ++r) s += d[r];
  sink[threadIdx.x] = s;
}

template <class M> __global__ void rate(unsigned a0, unsigned b0, long long* cycles, float* sink) {
  float d[kChains][M::kRegs] = {};
  __syncthreads();
  const long long c0 = clock64();
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int k = 0; k < kUnroll / kChains; ++k) {
#pragma unroll
      for (int c = 0; c < kChains; ++c) M::mma(d[c], a0, b0);
    }
  }
  const long long c1 = clock64();
  if (threadIdx.x % 32 == 0) atomicMax(reinterpret_cast<unsigned long long*>(cycles), static_cast<unsigned long long>(c1 - c0));
  float s = 0;
#pragma unroll
  for (int c = 0; c < kChains; ++c)
#pragma unroll
    for (int r = 0; r < M::kRegs; ++r) s += d[c][r];
  sink[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

static long long* d_cycles;
static float* d_sink;
static int sms = 0;

template <class M> static int measure() {
  long long lat = 0, busiest = 0;
  const unsigned a0 = 0x3c003c00u, b0 = 0x3c003c00u;  // f16 1.0 pairs (other types: some bits)
  latency<M><<<1, 32>>>(a0, b0, d_cycles, d_sink);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&lat, d_cycles, sizeof lat, cudaMemcpyDeviceToHost));
  CHECK(cudaMemset(d_cycles, 0, sizeof(long long)));
  const int blocks = sms * 4, threads = 128;
  rate<M><<<blocks, threads>>>(a0, b0, d_cycles, d_sink);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&busiest, d_cycles, sizeof busiest, cudaMemcpyDeviceToHost));
  const double steps = static_cast<double>(kIters) * kUnroll;
  const double per_sm = 16.0 * steps;  // warp mma instructions each SM ran
  std::printf("%s %.2f %.4f\n", M::kName, lat / steps, per_sm / static_cast<double>(busiest));
  return 0;
}

int main() {
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
  CHECK(cudaMalloc(&d_sink, sizeof(float) * sms * 4 * 128));
  std::printf("# name latency_cycles warp_mma_per_sm_cycle (%d SMs)\n", sms);
  for (int rep = 0; rep < 2; ++rep) {
    if (measure<F16>() | measure<F16Acc16>() | measure<Bf16>() | measure<Tf32>() | measure<S8>() | measure<F64>()) return 1;
  }
  return 0;
}
