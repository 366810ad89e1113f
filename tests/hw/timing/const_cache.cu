// Constant-bank reads as a lone thread streams through them (docs/time.md, "Constant data"):
// how many cycles each int costs when a kernel sums N ints of
//   par<N>:  a __grid_constant__ kernel parameter, thread-dependent sum (LDC.64 with immediate
//            addresses c[0x0][imm], fully unrolled; the LargeKernelParameter sample's kernelLargeParam);
//   upar<N>: the same parameter summed into a warp-uniform value (ULDC.64 + UIADD3 on the uniform
//            datapath; the sample's kernelDefault, first loop);
//   cimm<N>: a __constant__ array with compile-time indices (LDC.64 c[0x3][imm], unrolled);
//   cidx:    a __constant__ array with a run-time trip count (a loop of LDC.64 c[0x3][R+imm]; the
//            sample's kernelDefault, second loop).
// Each kernel runs <<<1, 1>>> twice in a row: "first" right after cudaMemcpyToSymbol rewrote the
// __constant__ array (the sample's order), "again" with nothing between. clock64() brackets the
// sum. Prints: kernel N first_cycles again_cycles (cycles per int = cycles / N).
// Build: nvcc -O3 -arch=sm_90 const_cache.cu
#include <cstdio>
#include <cuda_runtime.h>

#include "hw_check.cuh"

constexpr int kMaxInts = 8000;
__constant__ int ctab[kMaxInts];

template <int N> struct Params { int v[N]; };

template <int N> __global__ void par(__grid_constant__ const Params<N> p, long long* cycles, int* sink) {
  int t = threadIdx.x;
  const long long c0 = clock64();
  for (int k = 0; k < N; ++k) t += p.v[k];
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = t;
}

template <int N> __global__ void upar(__grid_constant__ const Params<N> p, long long* cycles, int* sink) {
  int t = 0;
  const long long c0 = clock64();
  for (int k = 0; k < N; ++k) t += p.v[k];
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = t;
}

template <int N> __global__ void cimm(long long* cycles, int* sink) {
  int t = threadIdx.x;
  const long long c0 = clock64();
  for (int k = 0; k < N; ++k) t += ctab[k];
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = t;
}

__global__ void cidx(int n, long long* cycles, int* sink) {
  int t = threadIdx.x;
  const long long c0 = clock64();
  for (int k = 0; k < n; ++k) t += ctab[k];
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = t;
}

static long long* d_cycles;
static int* d_sink;
static int host[kMaxInts];

static long long read_cycles() {
  long long h = -1;
  if (cudaDeviceSynchronize() != cudaSuccess) return -1;
  if (cudaMemcpy(&h, d_cycles, sizeof h, cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
  return h;
}

template <class Launch> static int twice(const char* name, int n, Launch launch) {
  CHECK(cudaMemcpyToSymbol(ctab, host, sizeof host));
  launch();
  const long long first = read_cycles();
  launch();
  const long long again = read_cycles();
  std::printf("%s %d %lld %lld\n", name, n, first, again);
  return first < 0 || again < 0;
}

template <int N> static int run_all() {
  static Params<N> p;
  for (int i = 0; i < N; ++i) p.v[i] = i & 0xff;
  int bad = 0;
  bad |= twice("par", N, [] { par<N><<<1, 1>>>(p, d_cycles, d_sink); });
  bad |= twice("upar", N, [] { upar<N><<<1, 1>>>(p, d_cycles, d_sink); });
  bad |= twice("cimm", N, [] { cimm<N><<<1, 1>>>(d_cycles, d_sink); });
  bad |= twice("cidx", N, [] { cidx<<<1, 1>>>(N, d_cycles, d_sink); });
  return bad;
}

int main() {
  CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
  CHECK(cudaMalloc(&d_sink, sizeof(int)));
  for (int i = 0; i < kMaxInts; ++i) host[i] = i & 0xff;
  int bad = 0;
  for (int rep = 0; rep < 2; ++rep) {
    std::printf("# repeat %d: kernel N first_cycles again_cycles\n", rep);
    bad |= run_all<256>() | run_all<512>() | run_all<1024>() | run_all<2048>() | run_all<4096>() | run_all<8000>();
  }
  return bad;
}
