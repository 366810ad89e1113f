// DRAM latency: one thread chases 16384 pointers spread over 1 GiB (1 KB apart, random order) once,
// so each load misses L1 and L2. microbench.cu's latency_dram chase (64 KB apart) revisited its
// 16384 lines and measured L2 hits instead. nvcc -arch=sm_90 -O3 latency_dram.cu
#include <cstdio>
#include <cstdint>
#include <vector>
#include <utility>
__global__ void chase(std::uint64_t p, int steps, long long* out) {
  long long c0 = clock64();
  for (int i = 0; i < steps; ++i) asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
  out[0] = clock64() - c0;
  out[1] = (long long)p;
}
int main() {
  const size_t bytes = size_t(1) << 30, stride = 1024, n = bytes / stride;
  char* d; long long* o; cudaMalloc(&d, bytes); cudaMalloc(&o, 16);
  std::vector<size_t> ord(n); for (size_t i = 0; i < n; ++i) ord[i] = i;
  std::uint64_t s = 88172645463325252ull;
  for (size_t i = n - 1; i > 0; --i) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; std::swap(ord[i], ord[s % (i + 1)]); }
  std::vector<std::uint64_t> h(bytes / 8);
  for (size_t i = 0; i < n; ++i) h[ord[i] * stride / 8] = (std::uint64_t)(d + ord[(i + 1) % n] * stride);
  cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice);
  for (int steps : {4096, 16384}) {
    chase<<<1, 1>>>((std::uint64_t)(d + ord[steps] * stride), steps, o);  // a fresh part of the cycle each time
    long long r[2]; cudaMemcpy(r, o, 16, cudaMemcpyDeviceToHost);
    std::printf("latency_dram %.1f cycles (%d steps)\n", double(r[0]) / steps, steps);
  }
  return 0;
}
