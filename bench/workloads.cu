// The performance issue's workloads: all-pairs N-body, saxpy, tiled transpose, tree reduction and
// tiled matrix multiply. One file serves two benchmarks:
//  - bench/workload_bench.cpp loads the kernels' PTX (nvcc -ptx of this file) through the public
//    API and times them with memory statistics off and on, on 1 and N host threads;
//  - bench/run_workloads.py builds this file as a CUDA program and times `warpscope run` on it.
// The program checks its own results against a CPU reference (sampled where the full reference
// would cost more than the simulation) and prints one line per workload:
//   <name> ok checksum=<FNV-1a of the output bytes>
// so that runs on different thread counts can be compared byte for byte.
//
//   workloads nbody 4096 | nbody 16384 | saxpy 16777216 | transpose 4096 | reduce 16777216 | matmul 1024
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// N-body (nbody_forces: all pairs, shared-memory tiles of 256 bodies) and saxpy: the kernels the
// interpreter benchmark and tests/exec use.
#include "../tests/exec/kernels/bench.cu"

// 32x32 tiles, 32x8 threads, one padding column against bank conflicts.
extern "C" __global__ void transpose(const float* in, float* out, int n) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

// 256 threads, two elements each on the way in, then a tree in shared memory.
extern "C" __global__ void reduce(const float* in, float* out, unsigned n) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * 512 + t;
  float v = 0.0f;
  if (i < n) v = in[i];
  if (i + 256 < n) v += in[i + 256];
  s[t] = v;
  __syncthreads();
  for (unsigned k = 128; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// C = A * B, n x n, 16x16 tiles (n a multiple of 16).
extern "C" __global__ void matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[16][16], tb[16][16];
  int row = blockIdx.y * 16 + threadIdx.y, col = blockIdx.x * 16 + threadIdx.x;
  float sum = 0.0f;
  for (int k0 = 0; k0 < n; k0 += 16) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < 16; ++k) sum += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = sum;
}

namespace {

// Inputs: small integers scaled by powers of two, so that sums are exact in float whatever the
// order of additions (the reduction and matmul references compare exactly).
float input(std::uint64_t i, unsigned salt) { return float(int((i * 2654435761u + salt) % 17) - 8) * 0.25f; }

std::uint64_t fnv(const void* p, std::size_t n) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t k = 0; k < n; ++k) h = (h ^ static_cast<const unsigned char*>(p)[k]) * 1099511628211ull;
  return h;
}

#define CHECK(x)                                                                            \
  do {                                                                                      \
    cudaError_t e_ = (x);                                                                   \
    if (e_ != cudaSuccess) {                                                                \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(2);                                                                         \
    }                                                                                       \
  } while (0)

template <class T>
T* to_device(const std::vector<T>& h) {
  T* d = nullptr;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T>
std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> h(n);
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

bool report(const char* name, bool ok, const void* out, std::size_t bytes) {
  std::printf("%s %s checksum=%016llx\n", name, ok ? "ok" : "WRONG", (unsigned long long)fnv(out, bytes));
  return ok;
}

bool run_nbody(int n) {
  std::vector<float4> pos(n);
  for (int i = 0; i < n; ++i) pos[i] = make_float4(input(i, 1), input(i, 2), input(i, 3), 1.0f + 0.25f * float(i % 3));
  float4 *dp = to_device(pos), *da = nullptr;
  CHECK(cudaMalloc(&da, n * sizeof(float4)));
  const float eps2 = 0.01f;
  nbody_forces<<<n / 256, 256>>>(dp, da, n, eps2);
  CHECK(cudaGetLastError());
  std::vector<float4> acc = to_host(da, n);
  bool ok = true;
  for (int i = 0; i < n; i += n / 16) {  // 16 bodies against a double-precision reference
    double ax = 0, ay = 0, az = 0, mag = 0;
    for (int j = 0; j < n; ++j) {
      double dx = pos[j].x - pos[i].x, dy = pos[j].y - pos[i].y, dz = pos[j].z - pos[i].z;
      double inv = 1.0 / std::sqrt(dx * dx + dy * dy + dz * dz + eps2);
      double s = pos[j].w * inv * inv * inv;
      ax += dx * s, ay += dy * s, az += dz * s;
      mag += (std::fabs(dx) + std::fabs(dy) + std::fabs(dz)) * s;
    }
    // Recursive float summation of n terms errs by at most about n * 2^-24 times the sum of
    // their magnitudes (Higham, "Accuracy and Stability of Numerical Algorithms", 4.2); twice
    // that covers each term's own rounding. (A fixed 1e-5 failed bodies 8192 and 12288 of
    // 16384, whose many coincident partners leave a large sum of magnitudes.)
    const double scale = 2.0 * n * 0x1p-24 * mag + 1e-6;
    ok = ok && std::fabs(acc[i].x - ax) < scale && std::fabs(acc[i].y - ay) < scale && std::fabs(acc[i].z - az) < scale;
  }
  CHECK(cudaFree(dp));
  CHECK(cudaFree(da));
  return report("nbody", ok, acc.data(), acc.size() * sizeof(float4));
}

bool run_saxpy(int n) {
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = input(i, 4), y[i] = input(i, 5);
  float *dx = to_device(x), *dy = to_device(y);
  saxpy<<<(n + 255) / 256, 256>>>(n, 2.0f, dx, dy);
  CHECK(cudaGetLastError());
  std::vector<float> r = to_host(dy, n);
  bool ok = true;
  for (int i = 0; i < n; ++i) ok = ok && r[i] == 2.0f * x[i] + y[i];
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return report("saxpy", ok, r.data(), r.size() * sizeof(float));
}

bool run_transpose(int n) {
  std::vector<float> a(std::size_t(n) * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = input(i, 6);
  float *din = to_device(a), *dout = nullptr;
  CHECK(cudaMalloc(&dout, a.size() * sizeof(float)));
  transpose<<<dim3(n / 32, n / 32), dim3(32, 8)>>>(din, dout, n);
  CHECK(cudaGetLastError());
  std::vector<float> r = to_host(dout, a.size());
  bool ok = true;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) ok = ok && r[std::size_t(x) * n + y] == a[std::size_t(y) * n + x];
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return report("transpose", ok, r.data(), r.size() * sizeof(float));
}

bool run_reduce(unsigned n) {
  std::vector<float> a(n);
  double expect = 0;
  for (unsigned i = 0; i < n; ++i) a[i] = input(i, 7), expect += a[i];
  float* cur = to_device(a);
  unsigned len = n;
  while (len > 1) {  // passes until one value is left
    const unsigned blocks = (len + 511) / 512;
    float* next = nullptr;
    CHECK(cudaMalloc(&next, blocks * sizeof(float)));
    reduce<<<blocks, 256>>>(cur, next, len);
    CHECK(cudaGetLastError());
    CHECK(cudaFree(cur));
    cur = next;
    len = blocks;
  }
  std::vector<float> r = to_host(cur, 1);
  CHECK(cudaFree(cur));
  return report("reduce", double(r[0]) == expect, r.data(), sizeof(float));
}

bool run_matmul(int n) {
  std::vector<float> a(std::size_t(n) * n), b(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = input(i, 8), b[i] = input(i, 9);
  float *da = to_device(a), *db = to_device(b), *dc = nullptr;
  CHECK(cudaMalloc(&dc, a.size() * sizeof(float)));
  matmul<<<dim3(n / 16, n / 16), dim3(16, 16)>>>(da, db, dc, n);
  CHECK(cudaGetLastError());
  std::vector<float> c = to_host(dc, a.size());
  bool ok = true;
  for (int row = 0; row < n; row += 61)  // every 61st row and column: exact sums of small values
    for (int col = 0; col < n; col += 61) {
      double s = 0;
      for (int k = 0; k < n; ++k) s += double(a[std::size_t(row) * n + k]) * b[std::size_t(k) * n + col];
      ok = ok && double(c[std::size_t(row) * n + col]) == s;
    }
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  return report("matmul", ok, c.data(), c.size() * sizeof(float));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s nbody|saxpy|transpose|reduce|matmul SIZE\n", argv[0]);
    return 2;
  }
  const char* w = argv[1];
  const long size = std::atol(argv[2]);
  bool ok = false;
  if (!std::strcmp(w, "nbody") && size >= 256 && size % 256 == 0) ok = run_nbody(int(size));
  else if (!std::strcmp(w, "saxpy") && size > 0) ok = run_saxpy(int(size));
  else if (!std::strcmp(w, "transpose") && size >= 32 && size % 32 == 0) ok = run_transpose(int(size));
  else if (!std::strcmp(w, "reduce") && size > 0) ok = run_reduce(unsigned(size));
  else if (!std::strcmp(w, "matmul") && size >= 16 && size % 16 == 0) ok = run_matmul(int(size));
  else {
    std::fprintf(stderr, "unknown workload or size: %s %s\n", w, argv[2]);
    return 2;
  }
  return ok ? 0 : 1;
}
