// L1-hit latency of a global load by its width (docs/time.md, "Latency from the machine code"):
// one warp chases a pointer through a 4 KB table that stays in L1, every lane reading the same
// address (the N-body's broadcast of one body to the warp), with LDG.32, LDG.64 and LDG.128 (the
// index is the first word of what each load returns; inline PTX keeps the width). Also the default load (LDG.E) against
// ld.global.ca. Prints: name cycles_per_load. Build: nvcc -O3 -arch=sm_90 load_width.cu
#include <cstdio>
#include <cuda_runtime.h>

#include "hw_check.cuh"

constexpr int kIters = 256, kSteps = 32, kWords = 1024;

// One dependent load of W bits from table + 4 * i (inline PTX, so ptxas keeps the width): returns
// the sum of the first word and the others (0 in the table).
template <int W> __device__ unsigned load(const unsigned* p) {
  unsigned a, b, c, d;
  if constexpr (W == 32) {
    asm volatile("ld.global.u32 %0, [%1];" : "=r"(a) : "l"(p));
  } else if constexpr (W == 64) {
    asm volatile("ld.global.v2.u32 {%0, %1}, [%2];" : "=r"(a), "=r"(b) : "l"(p));
    a += b;  // the table's other words are 0: every word is used, so the load keeps its width
  } else {
    asm volatile("ld.global.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(a), "=r"(b), "=r"(c), "=r"(d) : "l"(p));
    a += b | c | d;
  }
  return a;
}

template <int W> __global__ void chase(const unsigned* table, long long* cycles, unsigned* sink) {
  unsigned i = 0;
  for (int k = 0; k < kWords; k += W / 32) i += load<W>(table + k);  // warm L1 with the same loads
  i &= 0;
  const long long c0 = clock64();
  for (int it = 0; it < kIters; ++it) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) i = load<W>(table + i);
  }
  const long long c1 = clock64();
  if (threadIdx.x == 0) *cycles = c1 - c0;
  sink[threadIdx.x] = i;
}

__global__ void chase_ca(const unsigned* table, long long* cycles, unsigned* sink) {
  unsigned i = 0;
  for (int k = 0; k < kWords; ++k) i += __ldca(&table[k]);
  i &= 0;
  const long long c0 = clock64();
  for (int it = 0; it < kIters; ++it) {
#pragma unroll
    for (int s = 0; s < kSteps; ++s) i = __ldca(&table[i]);
  }
  const long long c1 = clock64();
  if (threadIdx.x == 0) *cycles = c1 - c0;
  sink[threadIdx.x] = i;
}

template <int W> static int run(const char* name, unsigned* words, long long* d_cycles, unsigned* d_sink) {
  // The word at 4 * index e (e a multiple of W / 32) holds the next index: a cycle of stride 17 loads.
  const int step = W / 32, n = kWords / step;
  static unsigned host[kWords];
  for (int w = 0; w < kWords; ++w) host[w] = 0;
  for (int e = 0; e < n; ++e) host[e * step] = static_cast<unsigned>(((e + 17) % n) * step);
  CHECK(cudaMemcpy(words, host, sizeof host, cudaMemcpyHostToDevice));
  chase<W><<<1, 32>>>(words, d_cycles, d_sink);
  long long h = 0;
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(&h, d_cycles, sizeof h, cudaMemcpyDeviceToHost));
  std::printf("%s %.2f\n", name, static_cast<double>(h) / (kIters * kSteps));
  return 0;
}

int main() {
  unsigned *words = nullptr, *d_sink = nullptr;
  long long* d_cycles = nullptr;
  CHECK(cudaMalloc(&words, kWords * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sink, 32 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_cycles, sizeof(long long)));
  std::printf("# name cycles_per_load (one warp, all lanes on one address, %d x %d dependent loads)\n", kIters, kSteps);
  for (int rep = 0; rep < 2; ++rep) {
    if (run<32>("ldg32", words, d_cycles, d_sink) | run<64>("ldg64", words, d_cycles, d_sink) |
        run<128>("ldg128", words, d_cycles, d_sink))
      return 1;
    static unsigned host[kWords];
    for (int e = 0; e < kWords; ++e) host[e] = static_cast<unsigned>((e + 17) % kWords);
    CHECK(cudaMemcpy(words, host, sizeof host, cudaMemcpyHostToDevice));
    chase_ca<<<1, 32>>>(words, d_cycles, d_sink);
    long long h = 0;
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(&h, d_cycles, sizeof h, cudaMemcpyDeviceToHost));
    std::printf("ldg32_ca %.2f\n", static_cast<double>(h) / (kIters * kSteps));
  }
  return 0;
}
