// A -rdc=true program whose device link cannot be repeated by warpscope: rdc_missing_b.cu's
// fatbinary is built without PTX (machine code only), so the extern function it defines has no
// PTX definition; the launch names the symbol and the translation units.
#include <cstdio>

extern __device__ int helper(int);  // rdc_missing_b.cu

__global__ void uses_helper(int* p) { p[threadIdx.x] = helper(threadIdx.x); }

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  uses_helper<<<1, 32>>>(d);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("sync: %s\n", cudaGetErrorName(e));
  return 0;
}
