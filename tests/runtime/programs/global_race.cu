// Global-memory races between CTAs (`warpscope sanitize --tool racecheck --racecheck-memory all`,
// docs/sanitize.md "Global memory"; global_race_test.cpp):
//  - waw:    block 0 and block 1 each write out[0..2] with their own values and nothing orders
//            them (the shape of a bug in a public ODE solver benchmark, whose output then
//            depends on which CTA the GPU finishes last): three WAW hazards;
//  - raw:    block 1 reads out[0], which block 0 writes, with nothing between them: one RAW;
//  - same:   every block writes 1 to one flag (equal values: the result does not depend on the
//            order) and its own slot: no hazard;
//  - ticket: each block writes its partial sum, fences, and takes a ticket with atomicInc; the
//            last block adds the partials (the threadFenceReduction pattern): no hazard.
// It prints the values, so runs with different --threads can be compared.
#include <cstdio>
#include <cstring>

__global__ void two_writers(float* out) {
  if (threadIdx.x != 0) return;
  const float base = blockIdx.x == 0 ? 1.0f : 10.0f;
  for (int i = 0; i < 3; ++i) out[i] = base * (i + 1);  // waw: write
}

__global__ void reader(float* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) out[0] = 5.0f;   // raw: write
  else out[1] = out[0] + 1.0f;          // raw: read
}

__global__ void same_flag(int* flag, int* slots) {
  *flag = 1;
  slots[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x;
}

__device__ unsigned tickets = 0;

__global__ void ticket_sum(const int* in, int* partial, int* total) {
  __shared__ int sum;
  __shared__ bool last;
  if (threadIdx.x == 0) sum = 0;
  __syncthreads();
  atomicAdd(&sum, in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sum;
    __threadfence();
    last = atomicInc(&tickets, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    *total = t;
  }
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "waw";
  constexpr int kBlocks = 8, kThreads = 64;
  float* f = nullptr;
  int *a = nullptr, *b = nullptr, *c = nullptr;
  cudaMalloc(&f, 4 * sizeof(float));
  cudaMalloc(&a, kBlocks * kThreads * sizeof(int));
  cudaMalloc(&b, kBlocks * kThreads * sizeof(int));
  cudaMalloc(&c, sizeof(int));
  cudaMemset(f, 0, 4 * sizeof(float));
  if (std::strcmp(mode, "waw") == 0) two_writers<<<2, 32>>>(f);
  if (std::strcmp(mode, "raw") == 0) reader<<<2, 32>>>(f);
  if (std::strcmp(mode, "same") == 0) same_flag<<<kBlocks, kThreads>>>(c, a);
  if (std::strcmp(mode, "ticket") == 0) {
    int host[kBlocks * kThreads];
    for (int i = 0; i < kBlocks * kThreads; ++i) host[i] = i % 7;
    cudaMemcpy(a, host, sizeof(host), cudaMemcpyHostToDevice);
    ticket_sum<<<kBlocks, kThreads>>>(a, b, c);
  }
  const cudaError_t e = cudaDeviceSynchronize();
  float fv[4];
  int cv = 0;
  cudaMemcpy(fv, f, sizeof(fv), cudaMemcpyDeviceToHost);
  cudaMemcpy(&cv, c, sizeof(cv), cudaMemcpyDeviceToHost);
  std::printf("%s: %s %g %g %g %d\n", mode, cudaGetErrorName(e), fv[0], fv[1], fv[2], cv);
  cudaFree(f);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 0;
}
