// The seeds' five saxpy variants (seed 003, examples 1-5) and the bus utilization the slides give
// for a Fermi-era GPU (128-byte L1 lines):
//   saxpy1  every thread updates y[i]                                      100 %
//   saxpy2  only even i update y[i]                                         50 %
//   saxpy3  even i add, odd i subtract, each branch loading x[i], y[i]     50 % (the second
//           branch reads from cache)
//   saxpy4  both values loaded to registers before the branch              100 %
//   saxpy5  i < N/2 adds, the rest subtract: warps wholly on one side      100 %, the warp that
//           straddles N/2 50 %
// nvcc 13 may hoist saxpy3's loads above the branch: what runs is the PTX, not the source.
// Usage: saxpy [N]   (default 1000003: not a multiple of the block, so the last block is partial)
#include <cmath>
#include <vector>

#include "common.cuh"

__global__ void saxpy1(float* x, float* y, float a, unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N) y[i] = y[i] + a * x[i];
}

__global__ void saxpy2(float* x, float* y, float a, unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N)
    if (i % 2 == 0) y[i] = y[i] + a * x[i];
}

__global__ void saxpy3(float* x, float* y, float a, unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N) {
    if (i % 2 == 0)
      y[i] = y[i] + a * x[i];
    else
      y[i] = y[i] - a * x[i];
  }
}

__global__ void saxpy4(float* x, float* y, float a, unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N) {
    float yy = y[i];
    float xx = x[i];  // load to registers
    if (i % 2 == 0)
      yy = yy + a * xx;
    else
      yy = yy - a * xx;
    y[i] = yy;  // store
  }
}

__global__ void saxpy5(float* x, float* y, float a, unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N / 2)
    y[i] = y[i] + a * x[i];
  else if (i < N)
    y[i] = y[i] - a * x[i];
}

typedef void (*Kernel)(float*, float*, float, unsigned long);

int main(int argc, char** argv) {
  const unsigned long N = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 1000003ul;
  const float a = 2.5f;
  std::vector<float> x(N), y(N), out(N);
  for (unsigned long i = 0; i < N; ++i) {
    x[i] = static_cast<float>(i % 1000) * 0.5f;
    y[i] = static_cast<float>(i % 77) - 30.0f;
  }
  float *dx, *dy;
  CHECK(cudaMalloc(&dx, N * sizeof(float)));
  CHECK(cudaMalloc(&dy, N * sizeof(float)));
  CHECK(cudaMemcpy(dx, x.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  const Kernel kernels[] = {saxpy1, saxpy2, saxpy3, saxpy4, saxpy5};
  const int threads = 256;
  const unsigned blocks = static_cast<unsigned>((N + threads - 1) / threads);
  bool all_ok = true;
  for (int k = 0; k < 5; ++k) {
    CHECK(cudaMemcpy(dy, y.data(), N * sizeof(float), cudaMemcpyHostToDevice));
    const double t0 = wtime();
    kernels[k]<<<blocks, threads>>>(dx, dy, a, N);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    const double t1 = wtime();
    CHECK(cudaMemcpy(out.data(), dy, N * sizeof(float), cudaMemcpyDeviceToHost));
    unsigned long bad = 0;
    for (unsigned long i = 0; i < N; ++i) {
      float want = y[i];
      switch (k) {
        case 0: want = y[i] + a * x[i]; break;
        case 1: if (i % 2 == 0) want = y[i] + a * x[i]; break;
        case 2: case 3: want = (i % 2 == 0) ? y[i] + a * x[i] : y[i] - a * x[i]; break;
        case 4: want = (i < N / 2) ? y[i] + a * x[i] : y[i] - a * x[i]; break;
      }
      if (std::fabs(out[i] - want) > 1e-3f * (1.0f + std::fabs(want))) ++bad;
    }
    all_ok &= bad == 0;
    std::printf("saxpy%d N=%lu blocks=%u threads=%d: %s\n", k + 1, N, blocks, threads,
                bad == 0 ? "OK" : "FAIL");
    std::printf("[timing] saxpy%d kernel (sec.): %.6f\n", k + 1, t1 - t0);
  }
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  std::printf("%s\n", all_ok ? "all saxpy variants OK" : "SOME SAXPY VARIANTS FAILED");
  return all_ok ? 0 : 1;
}
