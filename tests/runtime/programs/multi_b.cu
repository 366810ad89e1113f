#include <cstdio>

__constant__ int b_base;
__device__ int b_sum;
__global__ void b_kernel(int* p) {
  p[32 + threadIdx.x] = b_base + threadIdx.x;
  if (threadIdx.x == 0) b_sum = 7;
}

int run_b(int* d) {
  const int base = 1000;
  cudaMemcpyToSymbol(b_base, &base, sizeof base);
  b_kernel<<<1, 32>>>(d);
  int s = 0;
  cudaMemcpyFromSymbol(&s, b_sum, sizeof s);
  return s;
}
