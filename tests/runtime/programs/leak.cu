// memcheck reproducer (docs/sanitize.md): one 4096-byte allocation never freed (a leak under
// --leak-check full) and a cudaFree of a pointer no allocation returned (cudaErrorInvalidValue).
// `leak abort`: the program then aborts (std::abort, SIGABRT) instead of returning: the API error
// must survive (the process writes no report document at exit).
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void fill(int* p) { p[threadIdx.x] = threadIdx.x; }

int main(int argc, char** argv) {
  int *kept = nullptr, *freed = nullptr;
  cudaMalloc(&kept, 4096);
  cudaMalloc(&freed, 256);
  fill<<<1, 64>>>(freed);
  cudaDeviceSynchronize();
  cudaFree(freed);
  int host = 0;
  const cudaError_t e = cudaFree(&host);             // not a device pointer
  std::printf("cudaFree(&host): %s\n", cudaGetErrorName(e));
  if (argc > 1 && std::strcmp(argv[1], "abort") == 0) {
    std::fflush(stdout);
    std::abort();
  }
  return 0;
}
