// A device-side assert that the last four threads of a 64-thread grid fail (threads 28-31 of
// block 1: the global index is 60-63), the shape of the acceptance suite's simpleAssert, whose run
// under the H200's compute-sanitizer memcheck reports a "Warp assert" per failing thread and the
// cudaErrorAssert of the synchronisation (tests/hw/data/h200/sanitize/acceptance/simpleAssert.memcheck.txt).
#include <cassert>
#include <cstdio>

__global__ void check_index(int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
}

int main() {
  check_index<<<2, 32>>>(60);
  const cudaError_t sync = cudaDeviceSynchronize();
  std::printf("sync: %s\n", cudaGetErrorName(sync));
  return 0;
}
