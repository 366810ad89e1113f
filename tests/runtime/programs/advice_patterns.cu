// The patterns an Nsight Compute user tries first (issue 35), one kernel each, for the advice
// rules' end-to-end tests (advice_programs_test.cpp): a transpose without and with a shared tile
// (unpadded, padded), histograms with global atomics on 16 bins and shared atomics on 256 bins,
// particles as arrays of 12-, 16- and 32-byte structures, a shared-tiled matrix product in the
// style of the CUDA sample matrixMul, and a plain copy. Built with and without -lineinfo.
// Every kernel is checked against the CPU; the program prints "N failures" at its end.
// Usage: advice_patterns   (no arguments: the sizes below are the tests')
#include <cstdio>
#include <vector>

#include "expect.cuh"

constexpr int kN = 256;          // transpose: kN x kN floats
constexpr int kTile = 32;        // transpose tile; blocks of 32 x 8 threads
constexpr int kHist = 1 << 16;   // histogram inputs
constexpr int kParticles = 1 << 14;
constexpr int kMat = 128;        // matrix product: kMat x kMat
constexpr int kMmTile = 16;

__global__ void transpose_naive(const float* in, float* out, int n) {
  const int x = blockIdx.x * kTile + threadIdx.x;
  for (int j = threadIdx.y; j < kTile; j += blockDim.y) {
    const int y = blockIdx.y * kTile + j;
    out[x * n + y] = in[y * n + x];
  }
}

__global__ void transpose_tile(const float* in, float* out, int n) {
  __shared__ float tile[kTile][kTile];
  int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
  for (int j = 0; j < kTile; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
  for (int j = 0; j < kTile; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(const float* in, float* out, int n) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
#pragma unroll
  for (int j = 0; j < kTile; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
#pragma unroll
  for (int j = 0; j < kTile; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void histogram_global(const unsigned char* data, unsigned* bins, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&bins[data[i] % 16], 1u);
}

__global__ void histogram_shared(const unsigned char* data, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(&local[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

struct P12 {
  float x, y, z;
};
struct P16 {
  float x, y, z, w;
};
struct P32 {
  float x, y, z, vx, vy, vz, m, q;
};

__global__ void particles12(const P12* p, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = p[i].x * p[i].x + p[i].y * p[i].y + p[i].z * p[i].z;
}

__global__ void particles16(const P16* p, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = p[i].x * p[i].w + p[i].y * p[i].w + p[i].z * p[i].w;
}

__global__ void particles32(const P32* p, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = p[i].x + p[i].y + p[i].z + p[i].vx + p[i].vy + p[i].vz + p[i].m + p[i].q;
}

__global__ void matrix_mul(const float* A, const float* B, float* C, int n) {
  __shared__ float As[kMmTile][kMmTile];
  __shared__ float Bs[kMmTile][kMmTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kMmTile + ty, col = blockIdx.x * kMmTile + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += kMmTile) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kMmTile; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__global__ void copy(const float* in, float* out, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = in[i];
}

template <typename T>
T* device_copy(const std::vector<T>& h) {
  T* d = nullptr;
  cudaMalloc((void**)&d, h.size() * sizeof(T));
  cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <typename T>
std::vector<T> host_copy(const T* d, std::size_t n) {
  std::vector<T> h(n);
  cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return h;
}

int main() {
  unsigned state = 12345u;
  auto next = [&] { return state = state * 1664525u + 1013904223u; };

  // Transposes.
  std::vector<float> m(kN * kN);
  for (auto& v : m) v = static_cast<float>(next() >> 8);
  float* in = device_copy(m);
  float* out = device_copy(std::vector<float>(kN * kN, 0.0f));
  const dim3 tgrid(kN / kTile, kN / kTile), tblock(kTile, 8);
  void (*transposes[])(const float*, float*, int) = {transpose_naive, transpose_tile, transpose_padded};
  for (auto* t : transposes) {
    cudaMemset(out, 0, kN * kN * sizeof(float));
    t<<<tgrid, tblock>>>(in, out, kN);
    const auto o = host_copy(out, kN * kN);
    bool ok = true;
    for (int y = 0; y < kN; ++y)
      for (int x = 0; x < kN; ++x) ok = ok && o[x * kN + y] == m[y * kN + x];
    EXPECT("transpose", ok);
  }

  // Histograms.
  std::vector<unsigned char> bytes(kHist);
  for (auto& b : bytes) b = static_cast<unsigned char>(next() >> 24);
  unsigned char* data = device_copy(bytes);
  unsigned* bins = device_copy(std::vector<unsigned>(256, 0u));
  histogram_global<<<kHist / 256, 256>>>(data, bins, kHist);
  std::vector<unsigned> want(256, 0u);
  for (unsigned char b : bytes) ++want[b % 16];
  EXPECT("histogram_global", host_copy(bins, 256) == want);
  cudaMemset(bins, 0, 256 * sizeof(unsigned));
  histogram_shared<<<kHist / 256, 256>>>(data, bins, kHist);
  want.assign(256, 0u);
  for (unsigned char b : bytes) ++want[b];
  EXPECT("histogram_shared", host_copy(bins, 256) == want);

  // Particles.
  std::vector<float> f(kParticles * 8);
  for (auto& v : f) v = static_cast<float>(next() >> 28);
  float* pout = device_copy(std::vector<float>(kParticles, 0.0f));
  {
    std::vector<P12> p(kParticles);
    for (int i = 0; i < kParticles; ++i) p[i] = P12{f[8 * i], f[8 * i + 1], f[8 * i + 2]};
    P12* d = device_copy(p);
    particles12<<<kParticles / 256, 256>>>(d, pout, kParticles);
    const auto o = host_copy(pout, kParticles);
    bool ok = true;
    for (int i = 0; i < kParticles; ++i) ok = ok && o[i] == p[i].x * p[i].x + p[i].y * p[i].y + p[i].z * p[i].z;
    EXPECT("particles12", ok);
  }
  {
    std::vector<P16> p(kParticles);
    for (int i = 0; i < kParticles; ++i) p[i] = P16{f[8 * i], f[8 * i + 1], f[8 * i + 2], f[8 * i + 3]};
    P16* d = device_copy(p);
    particles16<<<kParticles / 256, 256>>>(d, pout, kParticles);
    const auto o = host_copy(pout, kParticles);
    bool ok = true;
    for (int i = 0; i < kParticles; ++i) ok = ok && o[i] == p[i].x * p[i].w + p[i].y * p[i].w + p[i].z * p[i].w;
    EXPECT("particles16", ok);
  }
  {
    std::vector<P32> p(kParticles);
    for (int i = 0; i < kParticles; ++i)
      p[i] = P32{f[8 * i], f[8 * i + 1], f[8 * i + 2], f[8 * i + 3], f[8 * i + 4], f[8 * i + 5], f[8 * i + 6], f[8 * i + 7]};
    P32* d = device_copy(p);
    particles32<<<kParticles / 256, 256>>>(d, pout, kParticles);
    const auto o = host_copy(pout, kParticles);
    bool ok = true;
    for (int i = 0; i < kParticles; ++i)
      ok = ok && o[i] == p[i].x + p[i].y + p[i].z + p[i].vx + p[i].vy + p[i].vz + p[i].m + p[i].q;
    EXPECT("particles32", ok);
  }

  // Matrix product (small integers: exact in float).
  std::vector<float> a(kMat * kMat), b(kMat * kMat);
  for (auto& v : a) v = static_cast<float>(next() >> 29);
  for (auto& v : b) v = static_cast<float>(next() >> 29);
  float* da = device_copy(a);
  float* db = device_copy(b);
  float* dc = device_copy(std::vector<float>(kMat * kMat, 0.0f));
  matrix_mul<<<dim3(kMat / kMmTile, kMat / kMmTile), dim3(kMmTile, kMmTile)>>>(da, db, dc, kMat);
  {
    const auto c = host_copy(dc, kMat * kMat);
    bool ok = true;
    for (int r = 0; r < kMat; ++r)
      for (int col = 0; col < kMat; ++col) {
        float s = 0.0f;
        for (int k = 0; k < kMat; ++k) s += a[r * kMat + k] * b[k * kMat + col];
        ok = ok && c[r * kMat + col] == s;
      }
    EXPECT("matrix_mul", ok);
  }

  // A plain copy.
  cudaMemset(out, 0, kN * kN * sizeof(float));
  copy<<<32, 256>>>(in, out, kN * kN);  // a grid-stride loop: 8 elements per thread
  EXPECT("copy", host_copy(out, kN * kN) == m);

  std::printf("%d failures\n", failures);
  return failures == 0 ? 0 : 1;
}
