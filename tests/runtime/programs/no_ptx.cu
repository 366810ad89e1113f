// Built with -gencode arch=compute_90,code=sm_90: machine code only, no PTX to interpret.
#include <cstdio>

__global__ void k(int* p) { p[threadIdx.x] = 1; }

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 128);
  k<<<1, 32>>>(d);
  const cudaError_t e = cudaGetLastError();
  std::printf("launch: %s\n", cudaGetErrorName(e));
  return e == cudaErrorNoKernelImageForDevice ? 0 : 1;
}
