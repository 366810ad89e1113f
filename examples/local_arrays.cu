// The seeds' per-thread arrays (seed 000, "Local memory"; seed 001, the 3-element example):
//   kernel1  static indices: the array stays in registers
//   kernel2  a loop the compiler unrolls (#pragma unroll): registers again
//   kernel3  a dynamic index that is the same for every thread of a warp (uniform): local
//            memory, but each warp access is one contiguous run (coalesced)
//   kernel4  a per-thread dynamic index: local memory, scattered across the warp's runs
//   lap      seed 001's 3-element array with constant indices, turned into scalars
// Usage: local_arrays [N]   (default 65536 threads)
#include <cmath>
#include <vector>

#include "common.cuh"

__global__ void kernel1(float* buf) {
  float a[5];
  a[0] = buf[threadIdx.x + blockIdx.x * blockDim.x];
  a[1] = a[0] * 2.0f;
  a[2] = a[1] + 1.0f;
  a[3] = a[2] * a[0];
  a[4] = a[3] - a[1];
  buf[threadIdx.x + blockIdx.x * blockDim.x] = a[0] + a[1] + a[2] + a[3] + a[4];
}

__global__ void kernel2(float* buf) {
  float a[5];
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
#pragma unroll
  for (int i = 0; i < 5; ++i) a[i] = buf[tid] + i;
  float sum = 0.0f;
#pragma unroll
  for (int i = 0; i < 5; ++i) sum += a[i];
  buf[tid] = sum;
}

// Uniform: start_index is a kernel argument, the same for all threads.
__global__ void kernel3(float* buf, int start_index) {
  float a[6];
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int i = 0; i < 6; ++i) a[i] = buf[tid] * (i + 1);
  float sum = 0.0f;
  for (int i = start_index; i < 6; ++i) sum += a[i];
  buf[tid] = sum;
}

// Per-thread: each thread starts at its own index (tid % 4).
__global__ void kernel4(float* buf) {
  float a[6];
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int i = 0; i < 6; ++i) a[i] = buf[tid] * (i + 1);
  float sum = 0.0f;
  for (int i = tid % 4; i < 6; ++i) sum += a[i];
  buf[tid] = sum;
}

__constant__ float A[9];

// Seed 001: u holds 3 * total values; each thread reads three, multiplies by the 3x3 matrix A.
__global__ void lap(float* u) {
  float ut[3];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int k = 0; k < 3; k++) ut[k] = u[tid + k * gridDim.x * blockDim.x];
  for (int k = 0; k < 3; k++)
    u[tid + k * gridDim.x * blockDim.x] = A[3 * k] * ut[0] + A[3 * k + 1] * ut[1] + A[3 * k + 2] * ut[2];
}

static bool close(float got, float want) { return std::fabs(got - want) <= 1e-4f * (1.0f + std::fabs(want)); }

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 65536;
  const int threads = 128;
  if (n <= 0 || n % threads != 0) {
    std::fprintf(stderr, "N must be a positive multiple of %d\n", threads);
    return 2;
  }
  const int blocks = n / threads;
  std::vector<float> in(3 * n), out(3 * n);
  for (int i = 0; i < 3 * n; ++i) in[i] = static_cast<float>(i % 100) * 0.01f;
  float* d;
  CHECK(cudaMalloc(&d, 3 * n * sizeof(float)));
  bool all_ok = true;
  auto report = [&](const char* name, int bad) {
    std::printf("%-8s N=%d: %s\n", name, n, bad == 0 ? "OK" : "FAIL");
    all_ok &= bad == 0;
  };
  for (int k = 1; k <= 4; ++k) {
    CHECK(cudaMemcpy(d, in.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const double t0 = wtime();
    if (k == 1) kernel1<<<blocks, threads>>>(d);
    if (k == 2) kernel2<<<blocks, threads>>>(d);
    if (k == 3) kernel3<<<blocks, threads>>>(d, 2);
    if (k == 4) kernel4<<<blocks, threads>>>(d);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    const double t1 = wtime();
    CHECK(cudaMemcpy(out.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
      const float x = in[i];
      float want = 0;
      if (k == 1) {
        const float a0 = x, a1 = a0 * 2, a2 = a1 + 1, a3 = a2 * a0, a4 = a3 - a1;
        want = a0 + a1 + a2 + a3 + a4;
      } else if (k == 2) {
        for (int j = 0; j < 5; ++j) want += x + j;
      } else {
        const int start = k == 3 ? 2 : i % 4;
        for (int j = start; j < 6; ++j) want += x * (j + 1);
      }
      if (!close(out[i], want)) ++bad;
    }
    char name[16];
    std::snprintf(name, sizeof name, "kernel%d", k);
    report(name, bad);
    std::printf("[timing] kernel%d (sec.): %.6f\n", k, t1 - t0);
  }
  const float hA[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  CHECK(cudaMemcpyToSymbol(A, hA, sizeof hA));
  CHECK(cudaMemcpy(d, in.data(), 3 * n * sizeof(float), cudaMemcpyHostToDevice));
  lap<<<blocks, threads>>>(d);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d, 3 * n * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int t = 0; t < n; ++t) {
    for (int k = 0; k < 3; ++k) {
      const float want = hA[3 * k] * in[t] + hA[3 * k + 1] * in[t + n] + hA[3 * k + 2] * in[t + 2 * n];
      if (!close(out[t + k * n], want)) ++bad;
    }
  }
  report("lap", bad);
  CHECK(cudaFree(d));
  std::printf("%s\n", all_ok ? "all local-array kernels OK" : "SOME LOCAL-ARRAY KERNELS FAILED");
  return all_ok ? 0 : 1;
}
