// Runs that are stopped (stop_test.cpp, docs/runtime.md "Stopping, hangs, progress"):
//   stop forever   a finished launch, then one that never ends (`started` is printed just before)
//   stop hang      a finished launch, then one whose threads spin on a flag nobody sets
//   stop host      a finished launch, then 60 s of host code (`started` before it)
// The `// @name` markers let the test find the source lines.
#include <unistd.h>

#include <cstdio>
#include <cstring>

__global__ void forever(unsigned* out, long long n) {
  unsigned acc = threadIdx.x;
  for (long long i = 0; i != n; ++i) {  // @forever-first
    acc = acc * 1664525u + static_cast<unsigned>(i);
    acc ^= acc >> 7;  // @forever-last
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void spin_on_flag(int* flag) {
  int v;
  do {
    v = *reinterpret_cast<volatile int*>(flag);  // @spin
  } while (v == 0);
  flag[1 + threadIdx.x] = v;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  unsigned* out = nullptr;
  int* flag = nullptr;
  cudaMalloc(&out, 4 * 64 * sizeof(unsigned));
  cudaMalloc(&flag, 65 * sizeof(int));
  cudaMemset(flag, 0, 65 * sizeof(int));
  forever<<<4, 64>>>(out, 1000);  // loads the module: the next launch starts at once
  if (cudaDeviceSynchronize() != cudaSuccess) return 2;
  std::printf("started\n");
  std::fflush(stdout);
  if (std::strcmp(mode, "forever") == 0) {
    forever<<<4, 64>>>(out, -1);
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("after the launch: %s\n", cudaGetErrorName(e));  // never printed
    return 3;
  }
  if (std::strcmp(mode, "hang") == 0) {
    spin_on_flag<<<1, 64>>>(flag);
    const cudaError_t e = cudaDeviceSynchronize();
    std::printf("hang: %s\n", cudaGetErrorName(e));
    return e == cudaErrorLaunchFailure ? 1 : 4;
  }
  if (std::strcmp(mode, "host") == 0) {
    sleep(60);
    return 5;
  }
  return 6;
}
