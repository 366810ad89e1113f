// Dynamic parallelism (CDP2, CUDA 12+): kernels that launch kernels with <<<>>> from device code.
// Built with -rdc=true and libcudadevrt. Each check's expected value follows from CUDA's rules
// (CUDA Programming Guide, "CUDA Dynamic Parallelism"): a child grid completes before its parent
// is complete; a cudaStreamTailLaunch grid runs after the parent grid and the work it launched.
#include <cstdio>

__device__ int g_hits[64];
__device__ int g_tail_sum;
__device__ int g_errors;

__global__ void grandchild(int slot) { atomicAdd(&g_hits[slot], 100); }

__global__ void child(int* out, int base, int depth) {
  const int i = base + threadIdx.x;
  out[i] = i * 2;
  if (threadIdx.x == 0) {
    atomicAdd(&g_hits[base / 8], 1);
    if (depth > 0) grandchild<<<1, 1>>>(base / 8);
  }
}

// Runs after the parent grid and its children: sees every child's writes.
__global__ void tail(const int* out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += out[i];
  g_tail_sum = s;
}

__global__ void parent(int* out, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t * 8 < n) {
    cudaStream_t s;
    if (cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) != cudaSuccess) atomicAdd(&g_errors, 1);
    child<<<1, 8, 0, s>>>(out, t * 8, t % 2);
    if (cudaGetLastError() != cudaSuccess) atomicAdd(&g_errors, 1);
    cudaStreamDestroy(s);
  }
  if (t == 0) tail<<<1, 1, 0, cudaStreamTailLaunch>>>(out, n);
}

int main() {
  const int n = 64;  // 8 children of 8 threads
  int* out;
  cudaMalloc(&out, n * sizeof(int));
  cudaMemset(out, 0, n * sizeof(int));
  parent<<<2, 4>>>(out, n);
  const cudaError_t e = cudaDeviceSynchronize();
  int h[n], hits[64], tail_sum = 0, errors = 0;
  cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(hits, g_hits, sizeof hits);
  cudaMemcpyFromSymbol(&tail_sum, g_tail_sum, sizeof tail_sum);
  cudaMemcpyFromSymbol(&errors, g_errors, sizeof errors);
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += h[i] != 2 * i;
  // Children of odd threads launched one grandchild each: 1 + 100 for them, 1 for the others.
  for (int c = 0; c < 8; ++c) bad += hits[c] != (c % 2 ? 101 : 1);
  printf("cdp: %s, %d wrong, tail sum %d (expected %d), %d device errors: %s\n", cudaGetErrorString(e), bad,
         tail_sum, n * (n - 1), errors, e == cudaSuccess && bad == 0 && tail_sum == n * (n - 1) && errors == 0 ? "OK" : "FAILED");
  return 0;
}
