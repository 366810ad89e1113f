// Two translation units, each with its own kernels and variables (no -rdc): each .cu file gets
// its own fatbinary and registration; the program uses both.
#include <cstdio>

__device__ int a_offset = 100;
__global__ void a_kernel(int* p) { p[threadIdx.x] = threadIdx.x + a_offset; }

int run_b(int* d);  // multi_b.cu

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  a_kernel<<<1, 32>>>(d);
  const int b_sum = run_b(d);
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  const bool ok = h[0] == 100 && h[31] == 131 && h[32] == 1000 && h[63] == 1031 && b_sum == 7;
  std::printf("multi-TU: a %d %d, b %d %d, b symbol %d: %s\n", h[0], h[31], h[32], h[63], b_sum, ok ? "OK" : "FAIL");
  return ok ? 0 : 1;
}
