// Which out-of-bounds global accesses an H100 lets through (issue 17, memcheck): three
// allocations A, B, C of SIZE bytes; one thread reads or writes 4 bytes at B + OFFSET.
//   oob_probe SIZE OFFSET r|w     -> "oob,SIZE,OFFSET,op,A,B,C,error,value"
//   oob_probe layout              -> the addresses cudaMalloc returns for a sequence of sizes
#include <cstdio>
#include <cstdlib>
#include <cstdint>
__global__ void rd(const unsigned* p, unsigned* out) { *out = *p; }
__global__ void wr(unsigned* p) { *p = 0x5a5a5a5au; }
__global__ void fill(unsigned* p, size_t n, unsigned tag) {
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = tag + (unsigned)i;
}
int main(int argc, char** argv) {
  if (argc == 2) {
    const size_t sizes[] = {1, 256, 257, 4096, 65536, 1 << 20, 2 << 20, (2 << 20) + 1, 8 << 20, 64 << 20, 4, 4, 4, 100, 1000, 3 << 20};
    void* ps[16];
    for (int i = 0; i < 16; i++) { cudaMalloc(&ps[i], sizes[i]); printf("layout,alloc,%zu,%p\n", sizes[i], ps[i]); }
    cudaFree(ps[3]); cudaFree(ps[5]);
    for (int i = 0; i < 4; i++) { void* q; size_t s = i < 2 ? 4096 : (1 << 20); cudaMalloc(&q, s); printf("layout,realloc,%zu,%p\n", s, q); }
    return 0;
  }
  size_t size = strtoull(argv[1], 0, 0); long long off = strtoll(argv[2], 0, 0); char op = argv[3][0];
  unsigned *a, *b, *c, *out;
  cudaMalloc(&out, 4); cudaMalloc(&a, size); cudaMalloc(&b, size); cudaMalloc(&c, size);
  fill<<<64, 256>>>(a, size / 4, 0x11000000u); fill<<<64, 256>>>(b, size / 4, 0x22000000u); fill<<<64, 256>>>(c, size / 4, 0x33000000u);
  cudaDeviceSynchronize();
  unsigned* p = (unsigned*)((char*)b + off);
  if (op == 'r') rd<<<1, 1>>>(p, out); else wr<<<1, 1>>>(p);
  cudaError_t e = cudaDeviceSynchronize();
  unsigned v = 0xffffffffu;
  if (op == 'r' && e == cudaSuccess) cudaMemcpy(&v, out, 4, cudaMemcpyDeviceToHost);
  printf("oob,%zu,%lld,%c,%p,%p,%p,%s,%08x\n", size, off, op, (void*)a, (void*)b, (void*)c, cudaGetErrorName(e), v);
  return 0;
}
