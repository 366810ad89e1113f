// One program built twice, with nvcc's default -cudart static (NVIDIA's static runtime, which
// reaches warpscope through libcuda.so.1 and its export tables) and with -cudart shared
// (warpscope's libcudart.so.13): static_runtime_test.cpp checks that both print the same and
// leave the same report (docs/runtime.md, "The static CUDA runtime").
#include <cstdio>
#include <vector>

__constant__ float c_coef[4];
__device__ int d_hits;
__device__ float d_bias = 0.5f;

__global__ void saxpy(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void poly(float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = y[i];
    y[i] = c_coef[0] + v * (c_coef[1] + v * (c_coef[2] + v * c_coef[3])) + d_bias;
    atomicAdd(&d_hits, 1);
  }
}

__global__ void scale(float* p, float f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= f;
}

__global__ void hello(int tag) {
  if (threadIdx.x == 0 && blockIdx.x == 1) printf("hello from block %d, tag %d\n", blockIdx.x, tag);
}

#define CHECK(call)                                                                        \
  do {                                                                                     \
    cudaError_t e_ = (call);                                                               \
    if (e_ != cudaSuccess) {                                                               \
      std::printf("FAILED %s: %s (%d), line %d\n", #call, cudaGetErrorName(e_), e_, __LINE__); \
      return 1;                                                                            \
    }                                                                                      \
  } while (0)

int main() {
  int version = 0;
  CHECK(cudaRuntimeGetVersion(&version));
  std::printf("runtime version %d\n", version);
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, cc %d.%d, %d SMs, warp %d\n", prop.name, prop.major, prop.minor, prop.multiProcessorCount,
              prop.warpSize);

  // saxpy, checked on the host.
  const int n = 10000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = static_cast<float>(i);
    y[i] = 1.0f;
  }
  float *dx = nullptr, *dy = nullptr;
  CHECK(cudaMalloc(&dx, n * sizeof(float)));
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  saxpy<<<(n + 255) / 256, 256>>>(dx, dy, 2.0f, n);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < n; ++i) bad += y[i] != 2.0f * i + 1.0f;
  std::printf("saxpy: %d wrong of %d\n", bad, n);

  // __constant__ and __device__ variables.
  const float coef[4] = {1.0f, 0.5f, 0.25f, 0.125f};
  CHECK(cudaMemcpyToSymbol(c_coef, coef, sizeof coef));
  const int zero = 0;
  CHECK(cudaMemcpyToSymbol(d_hits, &zero, sizeof zero));
  float* bias_ptr = nullptr;
  CHECK(cudaGetSymbolAddress(reinterpret_cast<void**>(&bias_ptr), d_bias));
  size_t bias_size = 0;
  CHECK(cudaGetSymbolSize(&bias_size, d_bias));
  std::printf("d_bias: %zu bytes\n", bias_size);
  for (int i = 0; i < 8; ++i) y[i] = static_cast<float>(i);
  CHECK(cudaMemcpy(dy, y.data(), 8 * sizeof(float), cudaMemcpyHostToDevice));
  poly<<<1, 8>>>(dy, 8);
  int hits = 0;
  CHECK(cudaMemcpyFromSymbol(&hits, d_hits, sizeof hits));
  CHECK(cudaMemcpy(y.data(), dy, 8 * sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("poly: hits %d, y[3] = %.4f, y[7] = %.4f\n", hits, y[3], y[7]);

  // Streams and events.
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  cudaEvent_t start, stop, between;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventCreateWithFlags(&between, cudaEventDisableTiming));
  CHECK(cudaEventRecord(start, s1));
  scale<<<(n + 127) / 128, 128, 0, s1>>>(dx, 0.5f, n);
  CHECK(cudaEventRecord(between, s1));
  CHECK(cudaStreamWaitEvent(s2, between, 0));
  scale<<<(n + 511) / 512, 512, 0, s2>>>(dx, 4.0f, n);
  CHECK(cudaMemcpyAsync(x.data(), dx, n * sizeof(float), cudaMemcpyDeviceToHost, s2));
  CHECK(cudaEventRecord(stop, s2));
  CHECK(cudaEventSynchronize(stop));
  CHECK(cudaStreamSynchronize(s1));
  std::printf("streams: x[1] = %.1f, x[9999] = %.1f, query %s\n", x[1], x[9999], cudaGetErrorName(cudaStreamQuery(s2)));
  float ms = -1.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("events: elapsed time %s\n", ms > 0.0f ? "positive" : "not positive");
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(between));

  // Bad launches: the error is the launch's, cudaGetLastError returns it once.
  scale<<<1, 2048>>>(dx, 1.0f, n);
  cudaError_t e = cudaGetLastError();
  std::printf("block of 2048: %s, then %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
  scale<<<1, 32, 1 << 20>>>(dx, 1.0f, n);
  e = cudaPeekAtLastError();
  std::printf("1 MiB of shared memory: %s, then %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaGetLastError()));
  scale<<<0, 32>>>(dx, 1.0f, n);
  std::printf("empty grid: %s\n", cudaGetErrorName(cudaGetLastError()));

  // Function attributes and occupancy.
  cudaFuncAttributes attr;
  CHECK(cudaFuncGetAttributes(&attr, saxpy));
  int blocks = 0;
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, saxpy, 256, 0));
  std::printf("saxpy: %d threads per block at most, %d blocks of 256 per SM\n", attr.maxThreadsPerBlock, blocks);

  // Device printf, then a device reset and work after it.
  hello<<<2, 32, 0, s1>>>(7);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaDeviceReset());
  float* dz = nullptr;
  CHECK(cudaMalloc(&dz, 64 * sizeof(float)));
  CHECK(cudaMemset(dz, 0, 64 * sizeof(float)));
  saxpy<<<1, 64>>>(dz, dz, 3.0f, 64);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaFree(dz));
  std::printf("after reset: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
