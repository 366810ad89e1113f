// Where the hardware runs each CTA: %smid, and the global timer at the CTA's start and end, for a
// grid of G blocks of T threads (default 256 x 256, the accuracy corpus's usual launch). The
// memory model places CTA c on SM c mod sm_count (src/stats/collector.hpp); this probe shows what
// the block scheduler does instead (tests/hw/data/h100/accuracy/cta_placement.txt).
// Usage: cta_placement [G] [T] [spin]   (spin: busy-wait iterations per CTA, default 2000)
// Prints "cta sm start_ns end_ns" per CTA (times relative to the earliest start).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void probe(unsigned* sm, unsigned long long* t0, unsigned long long* t1, int spin, float* sink) {
  unsigned long long start;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(start));
  float x = threadIdx.x;
  for (int i = 0; i < spin; ++i) x = x * 0.999f + 1.0f;
  if (x == -1.0f) sink[0] = x;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    unsigned long long end;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(end));
    sm[blockIdx.x] = id;
    t0[blockIdx.x] = start;
    t1[blockIdx.x] = end;
  }
}

int main(int argc, char** argv) {
  const int g = argc > 1 ? std::atoi(argv[1]) : 256, t = argc > 2 ? std::atoi(argv[2]) : 256;
  const int spin = argc > 3 ? std::atoi(argv[3]) : 2000;
  unsigned* sm;
  unsigned long long *t0, *t1;
  float* sink;
  if (cudaMalloc(&sm, g * sizeof(unsigned)) || cudaMalloc(&t0, g * 8) || cudaMalloc(&t1, g * 8) || cudaMalloc(&sink, 4)) return 1;
  probe<<<g, t>>>(sm, t0, t1, spin, sink);  // warm-up
  probe<<<g, t>>>(sm, t0, t1, spin, sink);
  std::vector<unsigned> hs(g);
  std::vector<unsigned long long> h0(g), h1(g);
  if (cudaMemcpy(hs.data(), sm, g * sizeof(unsigned), cudaMemcpyDeviceToHost) ||
      cudaMemcpy(h0.data(), t0, g * 8, cudaMemcpyDeviceToHost) || cudaMemcpy(h1.data(), t1, g * 8, cudaMemcpyDeviceToHost))
    return 1;
  const unsigned long long base = *std::min_element(h0.begin(), h0.end());
  std::printf("cta sm start_ns end_ns\n");
  for (int c = 0; c < g; ++c) std::printf("%d %u %llu %llu\n", c, hs[c], h0[c] - base, h1[c] - base);
  return 0;
}
