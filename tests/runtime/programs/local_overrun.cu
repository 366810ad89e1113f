// A local array read past its end (issue 32: "local-memory overruns inside the thread's stack
// window run, and are reported"). Each thread reads a[N] of its own int a[4]: N = 5 is 8 bytes past
// the 16-byte frame, inside the stack the GPU maps after it (the read proceeds; memcheck reports
// it); N = 4096 is past that stack too (the launch faults).
#include <cstdio>
#include <cstdlib>

__global__ void overrun(int* out, int n) {
  int a[4];
  for (int i = 0; i < 4; ++i) a[i] = i * out[i + 8];
  out[threadIdx.x] = a[n];
}

int main(int argc, char** argv) {
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  overrun<<<1, 32>>>(d, argc > 1 ? std::atoi(argv[1]) : 3);
  std::printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
