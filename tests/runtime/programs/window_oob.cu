// Accesses outside a CTA's shared memory or a thread's local window (issue 31: memcheck reports
// them per thread, as compute-sanitizer does; docs/sanitize.md). One block of one warp.
//   shared   each thread writes s[threadIdx.x + 100000] of a 64-int __shared__ array: 400,000
//            bytes past its start, far past the block's shared memory
//   local    each thread writes a[n] of its own int a[8], n = 100000 from the command line (a
//            runtime index: the array stays in local memory), past the thread's local window
//   in       the same with n = 3: inside the array (no error)
// Each mode prints the synchronisation's error name.
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void shared_write(int* out, int extra) {
  __shared__ int s[64];
  s[threadIdx.x + extra] = threadIdx.x;  // shared store
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 64];
}

__global__ void local_write(int* out, int n) {
  int a[8];
  for (int i = 0; i < 8; ++i) a[i] = out[i + 32];
  a[n] = threadIdx.x;  // local store
  out[threadIdx.x] = a[(threadIdx.x + n) % 8];
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "shared";
  int* d;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  if (!std::strcmp(mode, "shared")) shared_write<<<1, 32>>>(d, 100000);
  else if (!std::strcmp(mode, "local")) local_write<<<1, 32>>>(d, 100000);
  else local_write<<<1, 32>>>(d, 3);
  std::printf("%s: %s\n", mode, cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(d);
  return 0;
}
