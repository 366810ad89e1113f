// Kernels whose time is set by the time model's serialised costs (docs/time.md, "Serialised
// costs"; time_costs_test.cpp): a clock spin of a given number of cycles (as the CUDA samples'
// clock_block does), atomic adds to one address (int and float), device printf, the device heap.
// and zero-copy host memory (c = a + b on cudaHostAllocMapped arrays).
//   time_costs spin CYCLES | atomic_int ITERS | atomic_float ITERS | printf THREADS | heap PAIRS |
//              zerocopy FLOATS
#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void spin(long long cycles, long long* out) {
  const long long start = clock64();
  long long now = start;
  while (now - start < cycles) now = clock64();
  if (threadIdx.x == 0) *out = now - start;
}

template <typename T>
__global__ void add_one(T* counter, int iters) {
  for (int k = 0; k < iters; ++k) atomicAdd(counter, T(1));
}

__global__ void say(int x) { printf("[%d, %d]: %d %d\n", threadIdx.x, blockIdx.x, x, x + 1); }

// One thread: `pairs` mallocs, then as many frees.
__global__ void heap(int pairs, int* failed) {
  void* p[64];
  for (int k = 0; k < pairs; ++k) {
    p[k] = malloc(64);
    if (p[k] == nullptr) *failed = 1;
  }
  for (int k = 0; k < pairs; ++k) free(p[k]);
}

__global__ void add(const float* a, const float* b, float* c, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const long long n = std::atoll(argv[2]);
  if (std::strcmp(argv[1], "spin") == 0) {
    long long* out = nullptr;
    cudaMalloc(&out, sizeof(long long));
    spin<<<1, 32>>>(n, out);
    long long got = 0;
    cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost);
    std::printf("spun %lld cycles\n", got);
    return got >= n ? 0 : 1;
  }
  if (std::strcmp(argv[1], "printf") == 0) {
    say<<<1, static_cast<int>(n)>>>(7);
    return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
  }
  if (std::strcmp(argv[1], "heap") == 0) {
    int* failed = nullptr;
    cudaMalloc(&failed, sizeof(int));
    cudaMemset(failed, 0, sizeof(int));
    heap<<<1, 1>>>(static_cast<int>(n < 64 ? n : 64), failed);
    int f = 1;
    cudaMemcpy(&f, failed, sizeof f, cudaMemcpyDeviceToHost);
    return f == 0 ? 0 : 1;
  }
  if (std::strcmp(argv[1], "zerocopy") == 0) {
    cudaSetDeviceFlags(cudaDeviceMapHost);
    float *a, *b, *c, *da, *db, *dc;
    const size_t bytes = static_cast<size_t>(n) * sizeof(float);
    cudaHostAlloc(&a, bytes, cudaHostAllocMapped);
    cudaHostAlloc(&b, bytes, cudaHostAllocMapped);
    cudaHostAlloc(&c, bytes, cudaHostAllocMapped);
    for (long long i = 0; i < n; ++i) a[i] = float(i), b[i] = 1.0f;
    cudaHostGetDevicePointer(&da, a, 0);
    cudaHostGetDevicePointer(&db, b, 0);
    cudaHostGetDevicePointer(&dc, c, 0);
    add<<<static_cast<int>((n + 255) / 256), 256>>>(da, db, dc, static_cast<int>(n));
    cudaDeviceSynchronize();
    return c[n - 1] == float(n - 1) + 1.0f ? 0 : 1;
  }
  const bool is_float = std::strcmp(argv[1], "atomic_float") == 0;
  void* counter = nullptr;
  cudaMalloc(&counter, 8);
  cudaMemset(counter, 0, 8);
  // 132 x 4 CTAs of 256 threads: 135168 threads, each adding 1 `n` times to one address.
  if (is_float) add_one<float><<<132 * 4, 256>>>(static_cast<float*>(counter), static_cast<int>(n));
  else add_one<int><<<132 * 4, 256>>>(static_cast<int*>(counter), static_cast<int>(n));
  double total = 0;
  if (is_float) { float f = 0; cudaMemcpy(&f, counter, 4, cudaMemcpyDeviceToHost); total = f; }
  else { int i = 0; cudaMemcpy(&i, counter, 4, cudaMemcpyDeviceToHost); total = i; }
  std::printf("counter %.0f\n", total);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
