// One access pattern on every profile (ncu_cli_test.cpp, OneAnswerPerProfile): each warp loads 32
// floats 32 bytes apart (8 per 128-byte line) and stores 32 consecutive floats.
#include <cstdio>
__global__ void strided(const float* in, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 8];
}
int main() {
  float *a, *b;
  cudaMalloc(&a, 1 << 24); cudaMalloc(&b, 1 << 22);
  strided<<<64, 256>>>(a, b);
  cudaDeviceSynchronize();
  printf("done\n");
}
