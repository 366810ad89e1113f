#include <cstdio>
// printf goes through vprintf with a local argument buffer.
__global__ void hello(int v, double d) {
  printf("thread %d value %d %f\n", threadIdx.x, v, d);
}
