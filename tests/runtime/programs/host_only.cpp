// Host code only, compiled by nvcc: no kernels of its own, so its fatbinary (from the device
// link) holds an empty cubin and no PTX, and is never registered. It must run.
#include <cstdio>

#include <cuda_runtime.h>

int main() {
  int* d = nullptr;
  int in = 1234, out = 0;
  cudaMalloc(&d, sizeof(int));
  cudaMemcpy(d, &in, sizeof in, cudaMemcpyHostToDevice);
  cudaMemcpy(&out, d, sizeof out, cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("host only: %s\n", out == in ? "OK" : "WRONG");
  return out == in ? 0 : 1;
}
