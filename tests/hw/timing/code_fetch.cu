// Instruction fetch and constant-bank operands of long straight-line code (docs/time.md,
// "Instruction and constant fetch"). One warp runs R passes over a fully unrolled body; clock64()
// is read before each pass, so pass 0 shows the cold cost (instructions and constants fetched for
// the first time) and the later passes the warm one (what the caches keep):
//   ffma<N>:  N FFMAs on 8 independent accumulators, register operands only (16 N bytes of code);
//   param<N>: the sum of N ints of a __grid_constant__ kernel parameter (IADD3 with a c[0x0] operand);
//   cnst<N>:  the sum of N ints of a __constant__ array (a c[0x3] operand), rewritten with
//             cudaMemcpyToSymbol before every launch.
// Each line: kernel, N, code bytes (from N), cycles of each pass. Build: nvcc -O3 -arch=sm_90.
#include <cstdio>
#include <cuda_runtime.h>

#include "hw_check.cuh"

constexpr int kPasses = 3;
constexpr int kMaxInts = 8000;
__constant__ int ctab[kMaxInts];

template <int N> struct Params { int v[N]; };

template <int N> __global__ void ffma(float a, float b, long long* cycles, float* sink) {
  float x[8];
#pragma unroll
  for (int j = 0; j < 8; ++j) x[j] = a + j;
#pragma unroll 1
  for (int r = 0; r < kPasses; ++r) {
    const long long c0 = clock64();
#pragma unroll
    for (int k = 0; k < N / 8; ++k) {
#pragma unroll
      for (int j = 0; j < 8; ++j) x[j] = fmaf(x[j], a, b);
    }
    const long long c1 = clock64();
    if (threadIdx.x == 0) cycles[r] = c1 - c0;
  }
  float s = 0;
#pragma unroll
  for (int j = 0; j < 8; ++j) s += x[j];
  sink[threadIdx.x] = s;
}

template <int N> __global__ void param(__grid_constant__ const Params<N> p, long long* cycles, int* sink) {
  int t = threadIdx.x;
#pragma unroll 1
  for (int r = 0; r < kPasses; ++r) {
    const long long c0 = clock64();
#pragma unroll
    for (int k = 0; k < N; ++k) t += p.v[k];
    const long long c1 = clock64();
    if (threadIdx.x == 0) cycles[r] = c1 - c0;
  }
  sink[threadIdx.x] = t;
}

template <int N> __global__ void cnst(long long* cycles, int* sink) {
  int t = threadIdx.x;
#pragma unroll 1
  for (int r = 0; r < kPasses; ++r) {
    const long long c0 = clock64();
#pragma unroll
    for (int k = 0; k < N; ++k) t += ctab[k];
    const long long c1 = clock64();
    if (threadIdx.x == 0) cycles[r] = c1 - c0;
  }
  sink[threadIdx.x] = t;
}

static long long* d_cycles;
static void* d_sink;

static int print(const char* name, int n, long long bytes) {
  long long h[kPasses];
  if (cudaMemcpy(h, d_cycles, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return 1;
  std::printf("%s %d %lld", name, n, bytes);
  for (long long c : h) std::printf(" %lld", c);
  std::printf("\n");
  return 0;
}

template <int N> static int run_ffma(int threads) {
  ffma<N><<<1, threads>>>(1.0001f, 0.5f, d_cycles, static_cast<float*>(d_sink));
  CHECK(cudaDeviceSynchronize());
  return print(threads == 1 ? "ffma_1thread" : "ffma", N, 16LL * N);
}

template <int N> static int run_param() {
  static Params<N> p;
  for (int i = 0; i < N; ++i) p.v[i] = i & 0xff;
  param<N><<<1, 1>>>(p, d_cycles, static_cast<int*>(d_sink));
  CHECK(cudaDeviceSynchronize());
  return print("param", N, 16LL * N);
}

template <int N> static int run_cnst(const int* host) {
  CHECK(cudaMemcpyToSymbol(ctab, host, sizeof(int) * kMaxInts));
  cnst<N><<<1, 1>>>(d_cycles, static_cast<int*>(d_sink));
  CHECK(cudaDeviceSynchronize());
  return print("cnst", N, 16LL * N);
}

int main() {
  CHECK(cudaMalloc(&d_cycles, sizeof(long long) * kPasses));
  CHECK(cudaMalloc(&d_sink, 4096));
  static int host[kMaxInts];
  for (int i = 0; i < kMaxInts; ++i) host[i] = i & 0xff;
  int bad = 0;
  for (int rep = 0; rep < 2; ++rep) {
    std::printf("# repeat %d: kernel N code_bytes cycles_pass0 cycles_pass1 cycles_pass2\n", rep);
    bad |= run_ffma<512>(32) | run_ffma<1024>(32) | run_ffma<2048>(32) | run_ffma<4096>(32) | run_ffma<8192>(32) |
           run_ffma<16384>(32) | run_ffma<32768>(32) | run_ffma<8192>(1);
    bad |= run_param<256>() | run_param<1024>() | run_param<2048>() | run_param<4096>() | run_param<8000>();
    bad |= run_cnst<256>(host) | run_cnst<1024>(host) | run_cnst<2048>(host) | run_cnst<4096>(host) |
           run_cnst<8000>(host);
  }
  return bad;
}
