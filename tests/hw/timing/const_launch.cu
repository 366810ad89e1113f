// Kernels that read constant banks, timed as Nsight Compute times them (gpu__time_duration, the
// time model's target), beside const_cache.cu's in-kernel clock64() figures (docs/time.md,
// "Constant data"). Each is <<<1, 1>>> and sums N ints:
//   usum<N>:  a __grid_constant__ parameter into a warp-uniform sum stored by the thread (no
//             clock64 in the kernel: ptxas may use the uniform datapath, ULDC.64 + UIADD3);
//   psum<N>:  the same parameter, thread-dependent (LDC.64 c[0x0][imm]);
//   csum:     a __constant__ array rewritten by cudaMemcpyToSymbol before every launch, with a
//             run-time trip count (a loop of LDC.64 c[0x3][R+imm]);
//   empty<N>: nothing but a store, with an N-int parameter (the launch's own cost of the parameter).
// Every kernel is launched 3 times; run under ncu --metrics gpu__time_duration.sum,... .
// Build: nvcc -O3 -arch=sm_90 const_launch.cu
#include <cstdio>
#include <cuda_runtime.h>

#include "hw_check.cuh"

constexpr int kMaxInts = 8000;
__constant__ int ctab[kMaxInts];

template <int N> struct Params { int v[N]; };

template <int N> __global__ void usum(__grid_constant__ const Params<N> p, int* sink) {
  int t = 0;
  for (int k = 0; k < N; ++k) t += p.v[k];
  *sink = t;
}

template <int N> __global__ void psum(__grid_constant__ const Params<N> p, int* sink) {
  int t = threadIdx.x;
  for (int k = 0; k < N; ++k) t += p.v[k];
  *sink = t;
}

__global__ void csum(int n, int* sink) {
  int t = threadIdx.x;
  for (int k = 0; k < n; ++k) t += ctab[k];
  *sink = t;
}

template <int N> __global__ void empty(__grid_constant__ const Params<N> p, int* sink) { *sink = p.v[0]; }

static int host[kMaxInts];

template <int N> static int run(int* sink) {
  static Params<N> p;
  for (int i = 0; i < N; ++i) p.v[i] = i & 0xff;
  for (int r = 0; r < 3; ++r) {
    usum<N><<<1, 1>>>(p, sink);
    psum<N><<<1, 1>>>(p, sink);
    CHECK(cudaMemcpyToSymbol(ctab, host, sizeof(int) * N));
    csum<<<1, 1>>>(N, sink);
    empty<N><<<1, 1>>>(p, sink);
  }
  CHECK(cudaDeviceSynchronize());
  int h = 0;
  CHECK(cudaMemcpy(&h, sink, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("N %d: last sum %d\n", N, h);
  return 0;
}

int main() {
  int* sink = nullptr;
  CHECK(cudaMalloc(&sink, sizeof(int)));
  for (int i = 0; i < kMaxInts; ++i) host[i] = i & 0xff;
  return run<1024>(sink) | run<4096>(sink) | run<8000>(sink);
}
