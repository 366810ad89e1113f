// Six launches of three kernels for the launch filter (-k, --kernel-name-base, -s, -c) and the
// ncu-style outputs (tests/runtime/ncu_cli_test.cpp). Launch order:
//   0 copy_f   1 ws::scale   2 strided<2>   3 copy_f   4 ws::scale   5 copy_f
// Every kernel's result is checked on the CPU, so a launch left out of the memory model still has
// to run. Each kernel reads and writes 4-byte words with consecutive threads on consecutive words
// (16 blocks of 256 threads over 4096 floats): every warp instruction is one request of 4 sectors.
#include <cmath>
#include <cstdio>
#include <vector>

#include "expect.cuh"

__global__ void copy_f(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

namespace ws {
__global__ void scale(float* p, float a, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * a;
}
}  // namespace ws

template <int S>
__global__ void strided(const float* in, float* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] + S;
}

int main() {
  const int n = 4096, threads = 256, blocks = n / threads;
  std::vector<float> h(n);
  for (int i = 0; i < n; ++i) h[i] = static_cast<float>(i);
  float *a = nullptr, *b = nullptr;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMemcpy(a, h.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  copy_f<<<blocks, threads>>>(a, b, n);       // b = i
  ws::scale<<<blocks, threads>>>(b, 2.0f, n);  // b = 2i
  strided<2><<<blocks, threads>>>(b, a);       // a = 2i + 2
  copy_f<<<blocks, threads>>>(a, b, n);       // b = 2i + 2
  ws::scale<<<blocks, threads>>>(b, 3.0f, n);  // b = 6i + 6
  copy_f<<<blocks, threads>>>(b, a, n);       // a = 6i + 6
  EXPECT("launches", cudaDeviceSynchronize() == cudaSuccess);
  cudaMemcpy(h.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost);
  bool right = true;
  for (int i = 0; i < n; ++i) right = right && h[i] == 6.0f * static_cast<float>(i) + 6.0f;
  EXPECT("results", right);
  cudaFree(a);
  cudaFree(b);
  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
