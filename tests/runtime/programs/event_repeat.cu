// cudaEventElapsedTime around launches the launch filter leaves out (ncu_cli_test.cpp): a warm-up
// launch, then ten launches of the same kernel and shape between two events; prints the elapsed
// time in nanoseconds.
#include <cstdio>

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  const int n = 1 << 16;
  float* x = nullptr;
  cudaMalloc(&x, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  scale<<<n / 256, 256>>>(x, 2.0f, n);  // warm-up
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  cudaEventRecord(a);
  for (int r = 0; r < 10; ++r) scale<<<n / 256, 256>>>(x, 2.0f, n);
  cudaEventRecord(b);
  cudaEventSynchronize(b);
  float ms = 0;
  cudaEventElapsedTime(&ms, a, b);
  std::printf("elapsed_ns %.0f\n", ms * 1e6);
  cudaFree(x);
  return 0;
}
