// 1,000 small kernel launches, alternating two kernels and two streams.
#include <cstdio>

__global__ void add(int* p, int v) { atomicAdd(p + threadIdx.x, v); }
__global__ void twice(int* p) { p[32 + threadIdx.x] += 2; }

int main(int argc, char**) {
  int* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  cudaStream_t s;
  cudaStreamCreate(&s);
  for (int i = 0; i < 1000; ++i) {
    if (i % 2 == 0) add<<<1, 32, 0, s>>>(d, 1);
    else twice<<<1, 32>>>(d);
  }
  const cudaError_t e = cudaDeviceSynchronize();
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  const bool ok = e == cudaSuccess && h[0] == 500 && h[31] == 500 && h[32] == 1000 && h[63] == 1000;
  std::printf("1000 launches: %d %d: %s\n", h[0], h[63], ok ? "OK" : "FAIL");
  cudaStreamDestroy(s);
  cudaFree(d);
  return ok ? (argc > 1 ? 3 : 0) : 1;  // an argument: exit 3 (to check exit codes pass through)
}
