// What compute-sanitizer's initcheck reports (issue 31), for warpscope's initcheck
// (src/exec/initcheck.hpp, docs/sanitize.md) to be compared with. Run by
// tests/hw/capture_initcheck.sh under `--tool initcheck` (and --track-unused-memory for `unused`).
// `a`: 64 ints from cudaMalloc; `out`: 64 ints, cudaMemset.
//   half      cudaMemset a[0..31]; 64 threads read a[t]: threads 32-63 uninitialised?
//   bytes     cudaMemset 3 bytes of a[0]; thread 0 reads a[0]: one report of 4 bytes?
//   own       thread t writes a[t], then reads a[t ^ 1] (same warp, earlier instruction)
//   other     CTA 0 writes a[0..31]; CTA 1 spins until CTA 0 is done, then reads them: reported
//             on the GPU? (warpscope reports it: other CTAs' writes count after the launch)
//   later     one launch writes a, the next reads it
//   atomic    atomicAdd on uninitialised a[t], then a read: is the atomic itself a report?
//   d2d       cudaMemcpy device-to-device out -> a, then a read
//   d2h       cudaMemcpy of uninitialised a to the host (--check-api-memory-access yes: a report?)
//   managed   cudaMallocManaged, written on the host, read by a kernel
//   cpasync   cp.async (memcpy_async into shared) of uninitialised a, then a read of the shared copy
//   unused    cudaMalloc 400 bytes, a kernel writes the first 100 (--track-unused-memory yes)
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

__global__ void read_all(const int* a, int* out) { out[threadIdx.x] = a[threadIdx.x]; }
__global__ void write_all(int* a) { a[threadIdx.x] = threadIdx.x; }
__global__ void write_some(char* p, int n) {
  if (threadIdx.x < n) p[threadIdx.x] = 1;
}
__global__ void own_then_read(int* a, int* out) {
  a[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = a[threadIdx.x ^ 1];
}
__global__ void write_then_other(int* a, int* out, volatile int* flag) {
  if (blockIdx.x == 0) {
    a[threadIdx.x] = threadIdx.x;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) *flag = 1;
  } else {
    while (*flag == 0) {
    }
    out[threadIdx.x] = a[threadIdx.x];
  }
}
__global__ void add_then_read(int* a, int* out) {
  atomicAdd(&a[threadIdx.x], 1);
  out[threadIdx.x] = a[threadIdx.x];
}
__global__ void copy_async(const int* a, int* out) {
  __shared__ int s[64];
  cg::thread_block b = cg::this_thread_block();
  cg::memcpy_async(b, s, a, sizeof(int) * 64);
  cg::wait(b);
  out[threadIdx.x] = s[threadIdx.x];
}

int main(int argc, char** argv) {
  const char* m = argc > 1 ? argv[1] : "half";
  int *a = nullptr, *out = nullptr, *flag = nullptr;
  cudaMalloc(&a, 64 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMalloc(&flag, sizeof(int));
  cudaMemset(out, 0, 64 * sizeof(int));
  cudaMemset(flag, 0, sizeof(int));
  if (!strcmp(m, "half")) {
    cudaMemset(a, 0, 32 * sizeof(int));
    read_all<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "bytes")) {
    cudaMemset(a, 0, 3);
    read_all<<<1, 1>>>(a, out);
  } else if (!strcmp(m, "own")) {
    own_then_read<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "other")) {
    write_then_other<<<2, 32>>>(a, out, flag);
  } else if (!strcmp(m, "later")) {
    write_all<<<1, 64>>>(a);
    read_all<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "atomic")) {
    add_then_read<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "d2d")) {
    cudaMemcpy(a, out, 64 * sizeof(int), cudaMemcpyDeviceToDevice);
    read_all<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "d2h")) {
    int h[64];
    cudaMemcpy(h, a, sizeof h, cudaMemcpyDeviceToHost);
  } else if (!strcmp(m, "managed")) {
    int* u = nullptr;
    cudaMallocManaged(&u, 64 * sizeof(int));
    for (int i = 0; i < 64; ++i) u[i] = i;
    read_all<<<1, 64>>>(u, out);
    cudaDeviceSynchronize();
    cudaFree(u);
  } else if (!strcmp(m, "cpasync")) {
    copy_async<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "unused")) {
    char* p = nullptr;
    cudaMalloc(&p, 400);
    write_some<<<1, 128>>>(p, 100);
    cudaDeviceSynchronize();
    cudaFree(p);
  }
  std::printf("%s: %s\n", m, cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(a);
  cudaFree(out);
  cudaFree(flag);
  return 0;
}
