// initcheck --initcheck-memory all reproducers (docs/sanitize.md, src/exec/initcheck.hpp): reads
// of a CTA's shared memory that no thread of the CTA wrote before. `out` (64 ints) is cudaMemset
// first, so the global check finds nothing; without --initcheck-memory all no mode reports.
//   one      32 threads write s[0..31] of `int s[64]` (the kernel's only shared variable: offset
//            0), barrier, thread 0 also reads s[63]: one report of 4 bytes, thread 0, offset 0xfc.
//   synced   64 threads write s[t], barrier, read s[63 - t] (the other warp's): no report.
//   tile     2 CTAs of 32 threads; each thread whose index is not 3 mod 4 writes tile[t] (a float
//            array, offset 0), barrier, every thread reads tile[t]: threads 3, 7, ..., 31 of each
//            CTA read unwritten bytes, 8 reports per CTA at offsets 0xc, 0x1c, ..., 0x7c (CTA 1's
//            shared memory starts unwritten too, whatever CTA 0 wrote).
//   dynamic  dynamic shared memory only (128 ints, offset 0): 32 threads write d[t], barrier,
//            read d[t + 1]: thread 31 reads d[32], unwritten, offset 0x80: one report.
//   atomic   thread 0 does atomicAdd on s[5] nothing wrote: one report (the atomic reads), then
//            reads it: none (the atomic wrote it).
#include <cstdio>
#include <cstring>

__global__ void one(int* out) {
  __shared__ int s[64];
  const unsigned t = threadIdx.x;
  s[t] = static_cast<int>(t);
  __syncthreads();
  out[t] = s[t];
  if (t == 0) out[32] = s[63];  // init_shared: one
}

__global__ void synced(int* out) {
  __shared__ int s[64];
  const unsigned t = threadIdx.x;
  s[t] = static_cast<int>(t);
  __syncthreads();
  out[t] = s[63 - t];
}

__global__ void tile(float* out) {
  __shared__ float tile[32];
  const unsigned t = threadIdx.x;
  if (t % 4 != 3) tile[t] = static_cast<float>(t);
  __syncthreads();
  out[blockIdx.x * 32 + t] = tile[t];  // init_shared: tile
}

__global__ void dynamic(int* out) {
  extern __shared__ int d[];
  const unsigned t = threadIdx.x;
  d[t] = static_cast<int>(t);
  __syncthreads();
  out[t] = d[t + 1];  // init_shared: dynamic
}

__global__ void atomic(int* out) {
  __shared__ int s[8];
  if (threadIdx.x == 0) {
    atomicAdd(&s[5], 1);  // init_shared: atomic
    out[0] = s[5];
  }
}

int main(int argc, char** argv) {
  const char* m = argc > 1 ? argv[1] : "one";
  int* out = nullptr;
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(out, 0, 64 * sizeof(int));
  if (!strcmp(m, "one")) {
    one<<<1, 32>>>(out);
  } else if (!strcmp(m, "synced")) {
    synced<<<1, 64>>>(out);
  } else if (!strcmp(m, "tile")) {
    tile<<<2, 32>>>(reinterpret_cast<float*>(out));
  } else if (!strcmp(m, "dynamic")) {
    dynamic<<<1, 32, 128 * sizeof(int)>>>(out);
  } else if (!strcmp(m, "atomic")) {
    atomic<<<1, 32>>>(out);
  } else {
    std::fprintf(stderr, "unknown mode %s\n", m);
    return 2;
  }
  std::printf("%s: %s\n", m, cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(out);
  return 0;
}
