// How fast the GPU starts CTAs (docs/time.md, "CTA launch rate"): kernels whose CTAs do almost
// nothing (one store per thread), launched with 1320 to 264000 CTAs of 32, 128, 256 and 1024
// threads. Run under ncu --metrics gpu__time_duration.sum: the duration's slope per CTA is the
// time the GPU needs to start (and retire) one more CTA when CTAs are too short to hide it.
// Build: nvcc -O3 -arch=sm_90 cta_rate.cu
#include <cstdio>
#include <cuda_runtime.h>

__global__ void tiny(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x; }

int main() {
  int* out = nullptr;
  const size_t max_threads = 264000ull * 1024;
  if (cudaMalloc(&out, max_threads * sizeof(int)) != cudaSuccess) return 1;
  const unsigned threads[] = {32, 128, 256, 1024};
  const unsigned ctas[] = {1320, 13200, 33000, 66000, 132000, 264000};
  for (unsigned t : threads) {
    for (unsigned c : ctas) {
      if (size_t{c} * t > max_threads) continue;
      tiny<<<c, t>>>(out);
      if (cudaDeviceSynchronize() != cudaSuccess) return 1;
      std::printf("tiny %u ctas %u threads\n", c, t);
    }
  }
  return 0;
}
