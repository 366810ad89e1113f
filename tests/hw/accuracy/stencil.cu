// Stencils on floats:
//   stencil1d_global  radius-3 1-D stencil read straight from global memory (neighbouring lanes
//                     re-read each other's words: L1 hits)
//   stencil1d_shared  the same through a shared-memory tile with a halo
//   stencil2d         5-point 2-D stencil (Jacobi step) on a W x H grid, blocks of 32x8
// Usage: stencil [N] [W H]   (default 262144, 512 x 512)
// Checks against the host (same operation order, tolerance 1e-5 relative); prints OK, or FAIL
// and exits 1.
#include <algorithm>
#include <cmath>
#include <vector>

#include "../../../examples/common.cuh"

constexpr int kRadius = 3;
constexpr int kBlock = 256;

__global__ void stencil1d_global(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kRadius || i >= n - kRadius) return;
  float s = 0.0f;
  for (int k = -kRadius; k <= kRadius; ++k) s += in[i + k];
  out[i] = s;
}

__global__ void stencil1d_shared(const float* in, float* out, int n) {
  __shared__ float t[kBlock + 2 * kRadius];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + kRadius;
  t[l] = in[i];
  if (threadIdx.x < kRadius) {
    t[l - kRadius] = i >= kRadius ? in[i - kRadius] : 0.0f;
    t[l + kBlock] = i + kBlock < n ? in[i + kBlock] : 0.0f;
  }
  __syncthreads();
  if (i < kRadius || i >= n - kRadius) return;
  float s = 0.0f;
  for (int k = -kRadius; k <= kRadius; ++k) s += t[l + k];
  out[i] = s;
}

__global__ void stencil2d(const float* in, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  out[y * w + x] = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]);
}

static int compare(const char* name, const std::vector<float>& got, const std::vector<float>& want) {
  for (size_t i = 0; i < want.size(); ++i)
    if (std::fabs(got[i] - want[i]) > 1e-5f * (1.0f + std::fabs(want[i]))) {
      std::printf("FAIL %s at %zu: %g, want %g\n", name, i, got[i], want[i]);
      return 1;
    }
  return 0;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 262144;
  const int w = argc > 3 ? std::atoi(argv[2]) : 512, h = argc > 3 ? std::atoi(argv[3]) : 512;
  if (n <= 0 || n % kBlock != 0 || w < 3 || h < 3) {
    std::fprintf(stderr, "N must be a positive multiple of %d, W and H at least 3\n", kBlock);
    return 2;
  }
  const size_t m = std::max(size_t(n), size_t(w) * h);
  std::vector<float> hin(m), want(m), got(m);
  Lcg rng(99);
  for (auto& v : hin) v = rng.next();
  float *in, *out;
  CHECK(cudaMalloc(&in, m * sizeof(float)));
  CHECK(cudaMalloc(&out, m * sizeof(float)));
  CHECK(cudaMemcpy(in, hin.data(), m * sizeof(float), cudaMemcpyHostToDevice));
  int failures = 0;

  std::vector<float> w1(n, 0.0f);
  for (int i = kRadius; i < n - kRadius; ++i) {
    float s = 0.0f;
    for (int k = -kRadius; k <= kRadius; ++k) s += hin[i + k];
    w1[i] = s;
  }
  for (int k = 0; k < 2; ++k) {
    CHECK(cudaMemset(out, 0, m * sizeof(float)));
    if (k == 0) stencil1d_global<<<n / kBlock, kBlock>>>(in, out, n);
    if (k == 1) stencil1d_shared<<<n / kBlock, kBlock>>>(in, out, n);
    CHECK(cudaGetLastError());
    std::vector<float> g(n);
    CHECK(cudaMemcpy(g.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost));
    const char* name = k == 0 ? "stencil1d_global" : "stencil1d_shared";
    const int bad = compare(name, g, w1);
    std::printf("%s n=%d: %s\n", name, n, bad ? "FAIL" : "ok");
    failures += bad;
  }

  std::vector<float> w2(size_t(w) * h, 0.0f);
  for (int y = 1; y < h - 1; ++y)
    for (int x = 1; x < w - 1; ++x)
      w2[size_t(y) * w + x] = 0.25f * (hin[size_t(y) * w + x - 1] + hin[size_t(y) * w + x + 1] +
                                       hin[size_t(y - 1) * w + x] + hin[size_t(y + 1) * w + x]);
  CHECK(cudaMemset(out, 0, m * sizeof(float)));
  const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  stencil2d<<<grid, block>>>(in, out, w, h);
  CHECK(cudaGetLastError());
  std::vector<float> g2(size_t(w) * h);
  CHECK(cudaMemcpy(g2.data(), out, g2.size() * sizeof(float), cudaMemcpyDeviceToHost));
  const int bad = compare("stencil2d", g2, w2);
  std::printf("stencil2d %dx%d: %s\n", w, h, bad ? "FAIL" : "ok");
  failures += bad;

  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf("%s\n", failures ? "FAIL" : "OK");
  return failures ? 1 : 0;
}
