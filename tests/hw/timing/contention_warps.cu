// Second microbenchmark for same-address atomics (docs/time.md, docs/mem.md "Atomic
// contention"): every lane of a warp adds to one address, and warp w uses address
// (w % naddr) * stride (different requests to different addresses: same sector, same line, or
// different lines); and each atomic kind of the CUDA samples' simpleAtomicIntrinsics on one int.
// Prints `name ms ops` lines to the file named by the first argument.
//   nvcc -arch=sm_90 -O3 -o contention_warps contention_warps.cu && ./contention_warps out.txt 3
#include <cstdio>
#include <cstdlib>

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

static FILE* out = nullptr;
static int reps = 3;

__global__ void per_warp(int* buf, unsigned naddr, unsigned stride, int iters) {
  const unsigned w = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int* p = buf + (w % naddr) * stride;
  for (int k = 0; k < iters; ++k) atomicAdd(p, 1);
}

template <int kKind>
__global__ void kind(int* buf, int iters, int* sink) {
  int* p = buf;
  int acc = 0;
  for (int k = 0; k < iters; ++k) {
    if (kKind == 0) acc += atomicAdd(p, 1);
    if (kKind == 1) acc += atomicExch(p, k);
    if (kKind == 2) acc += atomicMax(p, k);
    if (kKind == 3) acc += atomicMin(p, -k);
    if (kKind == 4) acc += atomicInc(reinterpret_cast<unsigned*>(p), 17u);
    if (kKind == 5) acc += atomicDec(reinterpret_cast<unsigned*>(p), 137u);
    if (kKind == 6) acc += atomicCAS(p, k, k + 1);
    if (kKind == 7) acc += atomicAnd(p, ~(1 << (k & 31)));
    if (kKind == 8) acc += atomicOr(p, 1 << (k & 31));
    if (kKind == 9) acc += atomicXor(p, k);
    if (kKind == 10) acc += atomicSub(p, 1);
  }
  if (acc == 0x7fffffff) *sink = acc;
}

template <typename F>
static float time_ms(F launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    CHECK(cudaGetLastError());
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    best = ms < best ? ms : best;
  }
  return best;
}

template <int K>
static void kind_case(const char* name, int* buf, int* sink) {
  for (int iters : {2, 8}) {
    const float ms = time_ms([&] { kind<K><<<132 * 4, 256>>>(buf, iters, sink); });
    std::fprintf(out, "kind_%s_iters%d %.4f ms %d ops\n", name, iters, ms, 132 * 4 * 256 * iters);
  }
}

int main(int argc, char** argv) {
  out = argc > 1 ? std::fopen(argv[1], "w") : stdout;
  reps = argc > 2 ? std::atoi(argv[2]) : 3;
  int *buf = nullptr, *sink = nullptr;
  CHECK(cudaMalloc(&buf, 1 << 20));
  CHECK(cudaMalloc(&sink, 64));
  CHECK(cudaMemset(buf, 0, 1 << 20));
  for (unsigned naddr : {1u, 2u, 8u, 11u}) {
    for (unsigned stride : {1u, 8u, 32u}) {  // 4 bytes apart, a sector apart, a line apart
      if (naddr == 1 && stride != 1) continue;
      for (int iters : {2, 8}) {
        const float ms = time_ms([&] { per_warp<<<132 * 4, 256>>>(buf, naddr, stride, iters); });
        std::fprintf(out, "warp_naddr%u_stride%u_iters%d %.4f ms %d ops\n", naddr, stride * 4, iters, ms,
                     132 * 4 * 256 * iters);
      }
    }
  }
  kind_case<0>("add", buf, sink);
  kind_case<1>("exch", buf, sink);
  kind_case<2>("max", buf, sink);
  kind_case<3>("min", buf, sink);
  kind_case<4>("inc", buf, sink);
  kind_case<5>("dec", buf, sink);
  kind_case<6>("cas", buf, sink);
  kind_case<7>("and", buf, sink);
  kind_case<8>("or", buf, sink);
  kind_case<9>("xor", buf, sink);
  kind_case<10>("sub", buf, sink);
  std::fclose(out);
  return 0;
}
