// synccheck reproducers (docs/sanitize.md): `synccheck block` has warp 0 and warp 1 wait at two
// different __syncthreads() (divergent in the block); `synccheck mask` calls __syncwarp with a
// mask that leaves out the calling lanes 16-31 (invalid arguments).
#include <cstdio>
#include <cstring>

__global__ void two_barriers(int* out) {
  if (threadIdx.x < 32) {
    out[threadIdx.x] = 1;
    __syncthreads();                                 // sync: warp 0
    out[threadIdx.x] += 2;
  } else {
    out[threadIdx.x] = 3;
    __syncthreads();                                 // sync: warp 1
    out[threadIdx.x] += 4;
  }
}

__global__ void bad_mask(int* out, unsigned mask) {
  __syncwarp(mask);                                  // sync: mask
  out[threadIdx.x] = 1;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "block";
  int* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(int));
  if (std::strcmp(mode, "block") == 0) two_barriers<<<1, 64>>>(out);
  if (std::strcmp(mode, "mask") == 0) bad_mask<<<1, 32>>>(out, 0x0000ffffu);
  const cudaError_t e = cudaDeviceSynchronize();
  cudaFree(out);
  std::printf("%s: %s\n", mode, cudaGetErrorName(e));
  return 0;
}
