// A kernel that writes past the end of its allocation: the launch faults with
// cudaErrorIllegalAddress, and the error is sticky: every later call returns it. Thread 0 writes
// just past the end (a GPU does not fault there: its mapping is larger than the allocation;
// warpscope reports it as memcheck does and goes on); the other threads write 4 MiB apart, into
// unmapped memory, where a GPU faults (and warpscope too, naming thread 1)
// (measured on an H100: 4 MiB strides give cudaErrorIllegalAddress; 16 MiB and more give
// cudaErrorInvalidAddressSpace; 1 MiB and less, nothing).
#include <cstdio>

__global__ void in_bounds(int* p) { p[threadIdx.x] = 1; }
__global__ void out_of_bounds(int* p, int n) { p[n + static_cast<size_t>(threadIdx.x) * (1u << 20)] = 2; }

int main() {
  int* d = nullptr;
  cudaMalloc(&d, 32 * sizeof(int));
  in_bounds<<<1, 32>>>(d);
  const cudaError_t before = cudaDeviceSynchronize();
  out_of_bounds<<<1, 32>>>(d, 32);
  const cudaError_t sync = cudaDeviceSynchronize();
  const cudaError_t last = cudaGetLastError();
  void* p = nullptr;
  const cudaError_t malloc_after = cudaMalloc(&p, 16);
  const cudaError_t launch_after = (in_bounds<<<1, 32>>>(d), cudaGetLastError());
  const cudaError_t memcpy_after = cudaMemcpy(&p, d, 4, cudaMemcpyDeviceToHost);
  std::printf("before: %s\n", cudaGetErrorName(before));
  std::printf("sync: %s (%s)\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
  std::printf("last: %s\n", cudaGetErrorName(last));
  std::printf("malloc after: %s\n", cudaGetErrorName(malloc_after));
  std::printf("launch after: %s\n", cudaGetErrorName(launch_after));
  std::printf("memcpy after: %s\n", cudaGetErrorName(memcpy_after));
  const bool sticky = sync == cudaErrorIllegalAddress && last == sync && malloc_after == sync &&
                      launch_after == sync && memcpy_after == sync;
  std::printf("%s\n", sticky ? "sticky: OK" : "sticky: FAIL");
  return sticky ? 0 : 1;
}
