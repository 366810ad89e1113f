// One CTA that runs as long as its argument says (issue 32, "Bounded memory and prompt stops";
// process_test.cpp): 256 threads each load ITERS floats of a 16 KiB array.
#include <cstdio>
#include <cstdlib>
__global__ void spin(const float* a, float* out, long iters) {
  float s = 0;
  for (long i = 0; i < iters; ++i) s += a[(threadIdx.x * 33 + i * 7) & 4095];
  out[threadIdx.x] = s;
}
int main(int argc, char** argv) {
  long iters = argc > 1 ? atol(argv[1]) : 1000000;
  float *a, *o; cudaMalloc(&a, 4096 * 4); cudaMalloc(&o, 1024 * 4); cudaMemset(a, 0, 4096*4);
  spin<<<1, 256>>>(a, o, iters);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
}
