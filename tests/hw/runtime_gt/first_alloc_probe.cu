// What lies around a process's first device allocation (issue 32, "allocation placement"): the
// first cudaMalloc of SIZE bytes, then one thread reads 4 bytes at first + OFFSET.
//   first_alloc_probe SIZE OFFSET  -> "first,SIZE,OFFSET,FIRST,OUT,error,value"
//   first_alloc_probe layout       -> the first allocations' addresses and their 2 MiB offsets
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
__global__ void rd(const unsigned* p, unsigned* out) { *out = *p; }
int main(int argc, char** argv) {
  if (argc == 2 && !strcmp(argv[1], "layout")) {
    const size_t sizes[] = {4, 4096, 1 << 20, 2 << 20, 4, 100 << 20, 4};
    for (size_t s : sizes) {
      void* p = nullptr;
      cudaError_t e = cudaMalloc(&p, s);
      printf("layout,%zu,%p,granule_offset=0x%llx,%s\n", s, p,
             (unsigned long long)((uintptr_t)p & ((2u << 20) - 1)), cudaGetErrorName(e));
    }
    return 0;
  }
  size_t size = strtoull(argv[1], 0, 0);
  long long off = strtoll(argv[2], 0, 0);
  unsigned *first = nullptr, *out = nullptr;
  cudaMalloc(&first, size);
  cudaMalloc(&out, 4);
  cudaMemset(out, 0xff, 4);
  rd<<<1, 1>>>((const unsigned*)((char*)first + off), out);
  cudaError_t e = cudaDeviceSynchronize();
  unsigned v = 0xdeadbeefu;
  if (e == cudaSuccess) cudaMemcpy(&v, out, 4, cudaMemcpyDeviceToHost);
  printf("first,%zu,%lld,%p,%p,%s,0x%08x\n", size, off, (void*)first, (void*)out, cudaGetErrorName(e), v);
  return 0;
}
