// What a shared-memory atomic costs when a warp's lanes name the same addresses (issue 34: "same-
// address shared atomics look free"). One CTA of W warps (1 or 8) runs kIters steps of kSteps
// independent atomicAdd(&s[idx], 1u) (ATOMS.ADD; results summed so none is dead); each warp has
// its own 1024-word window of shared memory, so warps never share an address. idx per pattern:
//   distinct  lane            (32 addresses, 32 banks)
//   same      0               (1 address)
//   two       lane & 1        (2 addresses, 16 lanes each)
//   four      lane & 3        (4 addresses)
//   eight     lane & 7
//   sixteen   lane & 15
//   bank32    lane * 32       (32 addresses in one bank)
//   bank4     (lane & 3) * 32 (4 addresses in one bank, 8 lanes each)
//   bank2x16  (lane & 15) * 32 + (lane >> 4)  (16 addresses in one bank... 2 banks, 16 each)
// The same patterns as plain shared stores (st.shared) for comparison.
// Prints: op pattern warps cycles_per_instruction (per warp instruction of the SM: the CTA's
// cycles over warps x steps). Build: nvcc -O3 -arch=sm_90 shared_atomics.cu
#include <cstdio>
#include <cuda_runtime.h>

#include "hw_check.cuh"

constexpr int kIters = 64, kSteps = 32, kWindow = 1024;

template <int P>
__device__ __forceinline__ unsigned idx_of(unsigned lane) {
  if (P == 0) return lane;
  if (P == 1) return 0;
  if (P == 2) return lane & 1;
  if (P == 3) return lane & 3;
  if (P == 4) return lane & 7;
  if (P == 5) return lane & 15;
  if (P == 6) return lane * 32;
  if (P == 7) return (lane & 3) * 32;
  return (lane & 15) * 32 + (lane >> 4);
}

template <int P, bool kAtomic>
__global__ void pattern(long long* cycles, unsigned* sink) {
  extern __shared__ unsigned s[];
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (unsigned i = threadIdx.x; i < blockDim.x / 32 * kWindow; i += blockDim.x) s[i] = 0;
  __syncthreads();
  unsigned* w = s + warp * kWindow;
  const unsigned idx = idx_of<P>(lane);
  unsigned acc = 0;
  __syncthreads();
  const long long c0 = clock64();
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int k = 0; k < kSteps; ++k) {
      if (kAtomic) acc += atomicAdd(&w[idx], 1u + k);
      else w[idx] = acc + k + i;
    }
  }
  __syncthreads();
  const long long c1 = clock64();
  if (threadIdx.x == 0) *cycles = c1 - c0;
  sink[threadIdx.x] = acc + w[idx];
}

template <int P, bool A>
int run(const char* op, const char* name, long long* d_cycles, unsigned* d_sink) {
  for (int warps : {1, 8}) {
    const int smem = warps * kWindow * 4;
    pattern<P, A><<<1, warps * 32, smem>>>(d_cycles, d_sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    long long c = 0;
    CHECK(cudaMemcpy(&c, d_cycles, sizeof c, cudaMemcpyDeviceToHost));
    std::printf("%s %s %d %.2f\n", op, name, warps, double(c) / (double(warps) * kIters * kSteps));
  }
  return 0;
}

template <bool A>
int all(const char* op, long long* c, unsigned* s) {
  return run<0, A>(op, "distinct", c, s) | run<1, A>(op, "same", c, s) | run<2, A>(op, "two", c, s) |
         run<3, A>(op, "four", c, s) | run<4, A>(op, "eight", c, s) | run<5, A>(op, "sixteen", c, s) |
         run<6, A>(op, "bank32", c, s) | run<7, A>(op, "bank4", c, s) | run<8, A>(op, "bank2x16", c, s);
}

int main() {
  long long* d_cycles;
  unsigned* d_sink;
  CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
  CHECK(cudaMalloc(&d_sink, 1024 * sizeof(unsigned)));
  std::printf("op pattern warps cycles_per_instruction\n");
  if (all<true>("atom", d_cycles, d_sink) | all<false>("st", d_cycles, d_sink)) return 1;
  return 0;
}
