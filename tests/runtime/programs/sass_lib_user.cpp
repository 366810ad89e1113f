// Calls the kernel of libsasslib.so (machine code only) and prints what the launch returned.
#include <cstdio>

#include <cuda_runtime.h>

extern "C" int sass_lib_launch(int* out);

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  const auto e = static_cast<cudaError_t>(sass_lib_launch(d));
  std::printf("launch: %s\n", cudaGetErrorName(e));
  cudaFree(d);
  return 0;
}
