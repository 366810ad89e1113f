// Register spilling (seed 001: "spills go to L1 and then device memory"; seed 002: register
// spilling is one cause of local memory). `spill` keeps 96 running sums live across a loop, but
// __launch_bounds__(1024, 2) caps it at 32 registers per thread (two 1024-thread blocks on an
// SM's 64K registers), so ptxas must spill. `no_spill` is the same computation without the cap.
// Both are checked against the host. Usage: spill [N]   (default 8192 threads)
#include <cmath>
#include <vector>

#include "common.cuh"

constexpr int kSums = 96;
constexpr int kSteps = 4;

__device__ __forceinline__ float body(const float* in, int tid) {
  float acc[kSums];
#pragma unroll
  for (int k = 0; k < kSums; ++k) acc[k] = in[(tid + k) % 256];
  for (int i = 0; i < kSteps; ++i) {
    const float w = in[(tid + i) % 256] * 0.5f;
#pragma unroll
    for (int k = 0; k < kSums; ++k) acc[k] = acc[k] * w + acc[(k + 1) % kSums];
  }
  float s = 0.0f;
#pragma unroll
  for (int k = 0; k < kSums; ++k) s += acc[k];
  return s;
}

__global__ void __launch_bounds__(1024, 2) spill(const float* in, float* out) {
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  out[tid] = body(in, tid);
}

__global__ void no_spill(const float* in, float* out) {
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  out[tid] = body(in, tid);
}

static float host_body(const std::vector<float>& in, int tid) {
  float acc[kSums];
  for (int k = 0; k < kSums; ++k) acc[k] = in[(tid + k) % 256];
  for (int i = 0; i < kSteps; ++i) {
    const float w = in[(tid + i) % 256] * 0.5f;
    float next[kSums];
    for (int k = 0; k < kSums; ++k) next[k] = acc[k] * w + acc[(k + 1) % kSums];
    // The kernel updates in place, in order: acc[k] reads acc[k+1] before it is updated, except
    // the last one, which reads the new acc[0].
    for (int k = 0; k < kSums - 1; ++k) acc[k] = next[k];
    acc[kSums - 1] = acc[kSums - 1] * w + acc[0];
  }
  float s = 0.0f;
  for (int k = 0; k < kSums; ++k) s += acc[k];
  return s;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 8192;
  const int threads = 256;
  if (n <= 0 || n % threads != 0) {
    std::fprintf(stderr, "N must be a positive multiple of %d\n", threads);
    return 2;
  }
  std::vector<float> in(256), out(n);
  Lcg rng(7);
  for (auto& v : in) v = rng.next();
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, in.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMemcpy(d_in, in.data(), in.size() * sizeof(float), cudaMemcpyHostToDevice));
  bool all_ok = true;
  for (int variant = 0; variant < 2; ++variant) {
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, variant == 0 ? (const void*)spill : (const void*)no_spill));
    if (variant == 0) {
      spill<<<n / threads, threads>>>(d_in, d_out);
    } else {
      no_spill<<<n / threads, threads>>>(d_in, d_out);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int t = 0; t < n; ++t) {
      const float want = host_body(in, t);
      if (std::fabs(out[t] - want) > 1e-3f * (1.0f + std::fabs(want))) ++bad;
    }
    std::printf("%-8s N=%d local %s: %s\n", variant == 0 ? "spill" : "no_spill", n,
                attr.localSizeBytes > 0 ? "yes" : "no", bad == 0 ? "OK" : "FAIL");
    all_ok = all_ok && bad == 0;
  }
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  std::printf(all_ok ? "all spill kernels OK\n" : "FAIL\n");
  return all_ok ? 0 : 1;
}
