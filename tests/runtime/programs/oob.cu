// Reads 4096 bytes before a buffer, where a freed buffer was: no allocation holds the address,
// but the GPU maps it (the neighbours keep its 2 MiB granule mapped), so the read proceeds and
// sees what the freed buffer left (0x5a bytes); warpscope reports it as memcheck does. With an
// argument "far" it reads 16 MiB past the buffers instead, which no GPU maps: the launch faults.
#include <cstdio>
#include <cstring>

__global__ void read_before(const int* p, long long off, int* out) {
  if (threadIdx.x == 3) *out = p[off];
}

int main(int argc, char** argv) {
  const bool far = argc > 1 && std::strcmp(argv[1], "far") == 0;
  int *a, *x, *b, *out;
  cudaMalloc(&a, 1 << 20);
  cudaMalloc(&x, 16 << 10);
  cudaMalloc(&b, 1 << 20);
  cudaMalloc(&out, sizeof(int));
  cudaMemset(x, 0x5a, 16 << 10);
  cudaFree(x);
  read_before<<<1, 32>>>(b, far ? (16 << 20) / 4 : -1024, out);
  const cudaError_t sync = cudaDeviceSynchronize();
  int h = 0;
  cudaMemcpy(&h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("sync: %s\nvalue: 0x%08x\n", cudaGetErrorName(sync), static_cast<unsigned>(h));
  return 0;
}
