// rdc_main.cu's third translation unit: the variables the others declare extern, and a kernel
// that reads one back.
#include <cstdio>

__device__ int counter = 0;
__device__ float table[8];
__device__ float offset = 3.0f;

__global__ void read_counter(int* out) { *out = counter; }

int data_check() {
  int* d = nullptr;
  cudaMalloc(&d, sizeof(int));
  read_counter<<<1, 1>>>(d);
  int h = -1;
  cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
  cudaFree(d);
  return h;
}
