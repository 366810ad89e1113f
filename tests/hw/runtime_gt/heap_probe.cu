// Device-side malloc and printf FIFO on an H100 (issue 17):
//   heap_probe count [LIMIT_MIB]  one thread takes 1 MiB blocks until malloc returns NULL
//   heap_probe many               64 x 256 threads each take 256 bytes: NULL count, alignment
//   heap_probe sizes              one thread takes 1..40 bytes: address steps
//   heap_probe setlater           set the heap limit after a kernel that used malloc ran
//   heap_probe fifo BYTES LINES   printf LINES lines of 24 characters with the FIFO at BYTES
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
__global__ void count1m(unsigned long long* out) {
  int n = 0; void* first = 0; void* last = 0;
  for (;;) { void* p = malloc(1 << 20); if (!p) break; if (!first) first = p; last = p; n++; }
  out[0] = n; out[1] = (unsigned long long)first; out[2] = (unsigned long long)last;
}
__global__ void many(unsigned long long* out) {
  void* p = malloc(256);
  if (!p) atomicAdd(&out[0], 1ull);
  else { atomicAdd(&out[1], ((uintptr_t)p % 16) == 0); atomicAdd(&out[2], ((uintptr_t)p % 128) == 0); }
}
__global__ void sizes(unsigned long long* out) {
  for (int i = 1; i <= 40; i++) out[i - 1] = (unsigned long long)malloc(i);
}
__global__ void use() { void* p = malloc(16); free(p); }
__global__ void lines(int n) {
  for (int i = 0; i < n; i++) printf("fifo line %07d xxxxxx\n", i);
}
int main(int argc, char** argv) {
  unsigned long long* d; cudaMalloc(&d, 64 * 8); cudaMemset(d, 0, 64 * 8);
  unsigned long long h[64] = {0};
  const char* m = argv[1];
  if (!strcmp(m, "count")) {
    if (argc > 2) printf("heap,setlimit,%s\n", cudaGetErrorName(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)atoi(argv[2]) << 20)));
    size_t lim = 0; cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);
    count1m<<<1, 1>>>(d); cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, 24, cudaMemcpyDeviceToHost);
    printf("heap,count,limit=%zu,%s,blocks=%llu,first=%llx,last=%llx\n", lim, cudaGetErrorName(e), h[0], h[1], h[2]);
  } else if (!strcmp(m, "many")) {
    many<<<64, 256>>>(d); cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, 24, cudaMemcpyDeviceToHost);
    printf("heap,many,%s,null=%llu,align16=%llu,align128=%llu\n", cudaGetErrorName(e), h[0], h[1], h[2]);
  } else if (!strcmp(m, "sizes")) {
    sizes<<<1, 1>>>(d); cudaError_t e = cudaDeviceSynchronize();
    cudaMemcpy(h, d, 40 * 8, cudaMemcpyDeviceToHost);
    printf("heap,sizes,%s", cudaGetErrorName(e));
    for (int i = 0; i < 40; i++) printf(",%llx", h[i]);
    printf("\n");
  } else if (!strcmp(m, "setlater")) {
    use<<<1, 1>>>(); cudaDeviceSynchronize();
    cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64 << 20);
    size_t lim = 0; cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);
    printf("heap,setlater,%s,limit=%zu\n", cudaGetErrorName(e), lim);
  } else if (!strcmp(m, "fifo")) {
    cudaError_t e0 = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, (size_t)atoi(argv[2]));
    size_t lim = 0; cudaDeviceGetLimit(&lim, cudaLimitPrintfFifoSize);
    fflush(stdout);
    lines<<<1, 1>>>(atoi(argv[3])); cudaError_t e = cudaDeviceSynchronize();
    printf("heap,fifo,set=%s,limit=%zu,%s\n", cudaGetErrorName(e0), lim, cudaGetErrorName(e));
  }
  return 0;
}
