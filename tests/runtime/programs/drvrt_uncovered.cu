// Runtime calls that tests/runtime/drvrt does not cover (three_builds_test.cpp): the program's
// -cudart none link with libdrvrt.a fails, and three_builds/nvcc_three.sh names the calls.
#include <cstdio>

__global__ void touch(int* p) { p[threadIdx.x] = 1; }

int main() {
  std::size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  int* managed = nullptr;
  cudaMallocManaged(&managed, 32 * sizeof(int));
  touch<<<1, 32>>>(managed);
  std::printf("%zu of %zu bytes free\n", free_bytes, total_bytes);
  return 0;
}
