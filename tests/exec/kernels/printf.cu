#include <cstdio>

extern "C" __global__ void hello(int k, double d) {
  printf("block %d thread %d k=%d d=%.3f\n", blockIdx.x, threadIdx.x, k, d);
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    printf("%s|%5d|%-5d|%05.1f|%x|%X|%o|%c|%e|%g|%ld|%llu|%u|%%|%p\n", "str", 42, 42, 3.14159, 255, 255, 8, 'A',
           12345.678, 0.0001, -5L, 18446744073709551615ull, 3000000000u, (void*)0x1234);
  }
}
