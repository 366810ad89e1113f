// The CUDA limits an H100 reports by default and after cudaDeviceSetLimit (issue 17): how the
// driver rounds the device heap and printf FIFO sizes. Prints "limit,NAME,SET,READBACK".
#include <cstdio>
#include <cstddef>
int main() {
  const char* names[] = {"stack", "printf_fifo", "malloc_heap"};
  const cudaLimit lims[] = {cudaLimitStackSize, cudaLimitPrintfFifoSize, cudaLimitMallocHeapSize};
  for (int i = 0; i < 3; i++) { size_t v = 0; cudaDeviceGetLimit(&v, lims[i]); printf("limit,%s,default,%zu\n", names[i], v); }
  const size_t heap[] = {5000000, (6u << 20) + 1, 33u << 20, (64u << 20) + 4096, 3, 1u << 22};
  for (size_t h : heap) { size_t v = 0; cudaError_t e = cudaDeviceSetLimit(cudaLimitMallocHeapSize, h); cudaDeviceGetLimit(&v, cudaLimitMallocHeapSize); printf("limit,malloc_heap,%zu,%zu,%s\n", h, v, cudaGetErrorName(e)); }
  const size_t fifo[] = {600000, (1u << 20) + 1, 3u << 20, 524287, 524289};
  for (size_t f : fifo) { size_t v = 0; cudaError_t e = cudaDeviceSetLimit(cudaLimitPrintfFifoSize, f); cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize); printf("limit,printf_fifo,%zu,%zu,%s\n", f, v, cudaGetErrorName(e)); }
  return 0;
}
