// racecheck reproducers (docs/sanitize.md): `race raw` reads what a thread of the other warp
// wrote with no barrier between (RAW and WAR between warps 0 and 1), `race waw` has every thread
// write one word (WAW), `race ok` does the same work as `raw` with the barriers it needs and
// orders a warp's exchange with __syncwarp (no hazard). `race async_early` reads a cp.async's
// destination before waiting for it (RAW, the issuing thread's own), `race async_ok` waits and
// synchronises first, `race mbar` orders a write and the reads of other warps with a
// cuda::barrier (mbarrier arrive and wait; no hazard).
#include <cuda/barrier>
#include <cuda_pipeline.h>
#include <cstdio>
#include <cstring>

__global__ void shift_unsynced(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;                      // race: write
  out[threadIdx.x] = s[(threadIdx.x + 32) % 64];     // race: read
}

__global__ void one_word(int* out) {
  __shared__ int flag;
  flag = threadIdx.x;                                // waw: write
  __syncthreads();
  if (threadIdx.x == 0) out[0] = flag;
}

__global__ void shift_synced(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  const int v = s[(threadIdx.x + 32) % 64];
  __syncthreads();
  s[threadIdx.x] = v * 2;                            // reuse after the second barrier
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x ^ 1];             // a lane of the same warp, after __syncwarp
}

__global__ void async_early(const int* in, int* out) {
  __shared__ int s[64];
  __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(int));  // async: copy
  __pipeline_commit();
  const int early = s[threadIdx.x];                                         // async: early read
  __pipeline_wait_prior(0);
  out[threadIdx.x] = early + s[threadIdx.x];
}

__global__ void async_ok(const int* in, int* out) {
  __shared__ int s[64];
  __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x + 32) % 64];
}

__global__ void mbar_ordered(int* out) {
  __shared__ int s;
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (threadIdx.x == 0) s = 42;
  bar.arrive_and_wait();
  out[threadIdx.x] = s;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "raw";
  int* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(int));
  if (std::strcmp(mode, "raw") == 0) shift_unsynced<<<1, 64>>>(out);
  if (std::strcmp(mode, "waw") == 0) one_word<<<1, 64>>>(out);
  if (std::strcmp(mode, "ok") == 0) shift_synced<<<2, 64>>>(out);
  if (std::strcmp(mode, "async_early") == 0) async_early<<<1, 64>>>(out, out);
  if (std::strcmp(mode, "async_ok") == 0) async_ok<<<1, 64>>>(out, out);
  if (std::strcmp(mode, "mbar") == 0) mbar_ordered<<<1, 64>>>(out);
  const cudaError_t e = cudaDeviceSynchronize();
  cudaFree(out);
  std::printf("%s: %s\n", mode, cudaGetErrorName(e));
  return 0;
}
