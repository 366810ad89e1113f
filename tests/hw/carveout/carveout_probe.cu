// Which shared-memory carveout (launch__shared_mem_config_size) the driver picks for a launch, and
// the occupancy limit Nsight Compute derives from it (launch__occupancy_limit_shared_mem): one
// small kernel launched with every block size of a list and every dynamic shared size of a list.
// Run under ncu (tests/hw/carveout/capture.sh); the program itself prints each launch's
// configuration in launch order so the capture can be joined with ncu's rows.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void touch(float* out, int n) {
  extern __shared__ float buf[];
  const int t = threadIdx.x;
  if (n > 0) buf[t % n] = static_cast<float>(t);
  __syncthreads();
  if (n > 0 && t == 0) out[blockIdx.x] = buf[(t + 1) % n];
}

// A kernel with a fixed register count well above the small one's, to vary the register limit.
__global__ void __launch_bounds__(256) heavy(float* out, int n) {
  extern __shared__ float buf[];
  float acc[24];
  for (int i = 0; i < 24; ++i) acc[i] = out[(threadIdx.x + i) % 64];
  for (int k = 0; k < 8; ++k)
    for (int i = 0; i < 24; ++i) acc[i] = acc[i] * acc[(i + 5) % 24] + 1.0f;
  float s = 0;
  for (int i = 0; i < 24; ++i) s += acc[i];
  if (n > 0) buf[threadIdx.x % n] = s;
  __syncthreads();
  out[blockIdx.x % 64] = n > 0 ? buf[0] : s;
}

int main() {
  float* out = nullptr;
  cudaMalloc(&out, 4096 * sizeof(float));
  cudaMemset(out, 0, 4096 * sizeof(float));
  const int blocks[] = {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024};
  const int kb[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 20, 24, 32, 40, 48, 64, 80, 100, 132, 164, 200};
  cudaFuncSetAttribute(touch, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);
  cudaFuncSetAttribute(heavy, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);
  int id = 0;
  for (int b : blocks)
    for (int k : kb) {
      const size_t bytes = static_cast<size_t>(k) * 1024;
      touch<<<132, b, bytes>>>(out, static_cast<int>(bytes / 4));
      cudaError_t e = cudaDeviceSynchronize();
      std::printf("%d touch %d %zu %s\n", id++, b, bytes, cudaGetErrorString(e));
    }
  for (int b : {64, 128, 256})
    for (int k : {0, 1, 4, 8, 16, 32}) {
      const size_t bytes = static_cast<size_t>(k) * 1024;
      heavy<<<132, b, bytes>>>(out, static_cast<int>(bytes / 4));
      cudaError_t e = cudaDeviceSynchronize();
      std::printf("%d heavy %d %zu %s\n", id++, b, bytes, cudaGetErrorString(e));
    }
  cudaFree(out);
  return 0;
}
