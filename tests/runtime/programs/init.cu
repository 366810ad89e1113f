// initcheck reproducers (docs/sanitize.md, src/exec/initcheck.hpp). Each mode reads an int array
// `a` of 64 elements from cudaMalloc into `out` (initialised by cudaMemset):
//   half     cudaMemset the first 32 ints only; 64 threads read all 64: threads 32-63 read
//            uninitialised memory (32 reports, the first at a + 0x80).
//   bytes    cudaMemset 3 bytes of a[0] only; thread 0 reads a[0]: one report of 4 bytes.
//   own      each thread writes a[t], then reads a[t ^ 1] (its neighbour's, written earlier in
//            the same CTA): no report.
//   other    CTA 0 writes a[0..31]; CTA 1 reads them in the same launch: no report (another
//            CTA's writes in the launch count, as on the H200), whatever the host threads.
//   many     `other` past the 1000 reads initcheck keeps: CTAs 0-1 write 1024 ints of a fresh
//            allocation, CTAs 2-3 read them in the same launch (1024 reads): no report either.
//   later    one launch writes a, the next reads it: no report.
//   atomic   atomicAdd on uninitialised a[t], then a read: 64 reports, one per atomic (it reads
//            the old value), none for the read after it (the atomic wrote), as on the H200.
//   d2d      cudaMemcpy device-to-device from `out` into `a`, then a read: no report.
//   d2h      cudaMemcpy of the unwritten `a` (256 bytes) to the host: one host API memory access
//            error per 32-byte sector, 8 (as tests/hw/sanitize/initcheck_probe.cu's d2h on the H200).
//   unused   `a` cudaMemset whole; a 400-byte allocation whose first 100 bytes a kernel writes
//            (--track-unused-memory: 300 bytes from offset 0x64 never written, 75%).
#include <cstdio>
#include <cstring>

__global__ void read_all(const int* a, int* out) { out[threadIdx.x] = a[threadIdx.x]; }  // init: read
__global__ void write_all(int* a) { a[threadIdx.x] = threadIdx.x; }
__global__ void write_some(char* p, int n) {
  if (threadIdx.x < n) p[threadIdx.x] = 1;
}
__global__ void own_then_read(int* a, int* out) {
  a[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = a[threadIdx.x ^ 1];
}
__global__ void write_then_other(int* a, int* out) {
  if (blockIdx.x == 0) a[threadIdx.x] = threadIdx.x;
  else out[threadIdx.x] = a[threadIdx.x];  // init: other
}
__global__ void write_then_other_many(int* b, int* out) {
  const int i = (blockIdx.x % 2) * blockDim.x + threadIdx.x;
  if (blockIdx.x < 2) b[i] = i;
  else out[i] = b[i];  // init: many
}
__global__ void add_then_read(int* a, int* out) {
  atomicAdd(&a[threadIdx.x], 1);
  out[threadIdx.x] = a[threadIdx.x];
}

int main(int argc, char** argv) {
  const char* m = argc > 1 ? argv[1] : "half";
  int *a = nullptr, *out = nullptr;
  cudaMalloc(&a, 64 * sizeof(int));
  cudaMalloc(&out, 64 * sizeof(int));
  cudaMemset(out, 0, 64 * sizeof(int));
  if (!strcmp(m, "half")) {
    cudaMemset(a, 0, 32 * sizeof(int));
    read_all<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "bytes")) {
    cudaMemset(a, 0, 3);
    read_all<<<1, 1>>>(a, out);
  } else if (!strcmp(m, "own")) {
    own_then_read<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "other")) {
    write_then_other<<<2, 32>>>(a, out);
  } else if (!strcmp(m, "many")) {
    int *b = nullptr, *o = nullptr;
    cudaMalloc(&b, 1024 * sizeof(int));
    cudaMalloc(&o, 1024 * sizeof(int));
    write_then_other_many<<<4, 512>>>(b, o);
    cudaDeviceSynchronize();
    cudaFree(b);
    cudaFree(o);
  } else if (!strcmp(m, "later")) {
    write_all<<<1, 64>>>(a);
    read_all<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "atomic")) {
    add_then_read<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "unused")) {
    cudaMemset(a, 0, 64 * sizeof(int));
    char* p = nullptr;
    cudaMalloc(&p, 400);
    write_some<<<1, 128>>>(p, 100);
    cudaDeviceSynchronize();
    cudaFree(p);
  } else if (!strcmp(m, "d2d")) {
    cudaMemcpy(a, out, 64 * sizeof(int), cudaMemcpyDeviceToDevice);
    read_all<<<1, 64>>>(a, out);
  } else if (!strcmp(m, "d2h")) {
    int host[64];
    cudaMemcpy(host, a, sizeof host, cudaMemcpyDeviceToHost);
  }
  std::printf("%s: %s\n", m, cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(a);
  cudaFree(out);
  return 0;
}
