// memcheck reproducer (docs/sanitize.md): one 4096-byte allocation never freed (a leak under
// --leak-check full) and a cudaFree of a pointer no allocation returned (cudaErrorInvalidValue).
#include <cstdio>

__global__ void fill(int* p) { p[threadIdx.x] = threadIdx.x; }

int main() {
  int *kept = nullptr, *freed = nullptr;
  cudaMalloc(&kept, 4096);
  cudaMalloc(&freed, 256);
  fill<<<1, 64>>>(freed);
  cudaDeviceSynchronize();
  cudaFree(freed);
  int host = 0;
  const cudaError_t e = cudaFree(&host);             // not a device pointer
  std::printf("cudaFree(&host): %s\n", cudaGetErrorName(e));
  return 0;
}
