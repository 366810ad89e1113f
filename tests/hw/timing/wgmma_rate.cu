// Throughput of wgmma.mma_async per shape and type on an H100 (docs/time.md, "Tensor cores"):
// every SM runs W warpgroups (132 x W blocks of 128 threads, one wave), each issuing `iters`
// groups of 4 wgmma on one accumulator (fence, 4 x wgmma, commit, wait 0), operands from zeroed
// shared memory through K-major, unswizzled descriptors. Prints per configuration and W:
//   name W cycles_per_wgmma_per_sm
// = the longest block's clock64() cycles / (W x iters x 4): the SM's tensor cores are shared by
// its W warpgroups. Build: nvcc -O3 -gencode arch=compute_90a,code=sm_90a wgmma_rate.cu
#include <algorithm>
#include <cstdio>
#include <vector>

constexpr int kSmem = 32768, kRegionB = 16384;

// K-major, no swizzle: LBO 128 bytes between core matrices along K, SBO 256 between 8-row groups.
__device__ unsigned long long desc(unsigned addr) {
  return ((addr >> 4) & 0x3fffull) | ((128ull >> 4) << 16) | ((256ull >> 4) << 32);
}

#include "wgmma_rate_kernels.inc"

int main() {
  long long* cycles;
  unsigned* sink;
  cudaMalloc(&cycles, sizeof(long long) * 132 * 4);
  cudaMalloc(&sink, 4);
  const int iters = 512;
  std::printf("# name warpgroups_per_sm cycles_per_wgmma_per_sm\n");
  for (const RateKernel& k : kRateKernels) {
    cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmem);
    for (int w = 1; w <= 2; ++w) {
      const int blocks = 132 * w;
      k.fn<<<blocks, 128, kSmem>>>(cycles, sink, 8);  // warm-up
      k.fn<<<blocks, 128, kSmem>>>(cycles, sink, iters);
      const cudaError_t e = cudaDeviceSynchronize();
      std::vector<long long> c(blocks);
      cudaMemcpy(c.data(), cycles, sizeof(long long) * blocks, cudaMemcpyDeviceToHost);
      const long long worst = *std::max_element(c.begin(), c.end());
      std::printf("wgmma.%s %d %.2f%s%s\n", k.name, w, static_cast<double>(worst) / (double(w) * iters * 4),
                  e == cudaSuccess ? "" : " error ", e == cudaSuccess ? "" : cudaGetErrorString(e));
    }
  }
  return 0;
}
