// tests/export ncu_rep_cli_test "SourceCountersPerLine": one CTA-per-256-threads kernel whose two
// lines' memory counts follow from the coalescing rules (docs/mem.md):
//   1024 threads = 32 warps, 32 lanes each reading / writing consecutive 4-byte floats.
//   line A (s[...] = x[i + 1]): the global load, shifted by one float, spans 5 sectors per warp
//     (ideal 4): 32 requests, 160 sectors, 128 ideal, 32 excessive; the shared store: 32
//     wavefronts (consecutive words, no conflict).
//   line B (y[i] = s[...]): the shared load, 32 wavefronts (reversed consecutive words, no
//     conflict); the global store: 32 requests, 128 sectors, none excessive.
#include <cstdio>

__global__ void shift_copy(const float* x, float* y) {
  __shared__ float s[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = x[i + 1];  // line A
  __syncthreads();
  y[i] = s[255 - threadIdx.x];  // line B
}

int main() {
  const int n = 1024;
  float *x = nullptr, *y = nullptr;
  cudaMalloc(&x, (n + 1) * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, (n + 1) * sizeof(float));
  shift_copy<<<n / 256, 256>>>(x, y);
  cudaDeviceSynchronize();
  cudaFree(x);
  cudaFree(y);
  std::printf("done\n");
  return 0;
}
