// jit_bench's native baselines: the arithmetic of bench/workloads.cu's N-body and matmul kernels
// as plain C++, compiled with -O3 -march=native -fopenmp, on every core.
#include <cmath>
#include <cstddef>

namespace warpscope::bench {

// nbody_forces (tests/exec/kernels/bench.cu): acc[i] = sum over j of (q_j - p_i) * w_j / |d|^3.
void native_nbody(const float* pos, float* acc, int n, float eps2) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    const float px = pos[4 * i], py = pos[4 * i + 1], pz = pos[4 * i + 2];
    float ax = 0.0f, ay = 0.0f, az = 0.0f;
#pragma omp simd reduction(+ : ax, ay, az)
    for (int j = 0; j < n; ++j) {
      const float dx = pos[4 * j] - px, dy = pos[4 * j + 1] - py, dz = pos[4 * j + 2] - pz;
      const float d2 = std::fma(dz, dz, std::fma(dy, dy, dx * dx)) + eps2;
      const float inv = 1.0f / std::sqrt(d2);
      const float s = pos[4 * j + 3] * inv * inv * inv;
      ax = std::fma(dx, s, ax);
      ay = std::fma(dy, s, ay);
      az = std::fma(dz, s, az);
    }
    acc[4 * i] = ax;
    acc[4 * i + 1] = ay;
    acc[4 * i + 2] = az;
    acc[4 * i + 3] = 0.0f;
  }
}

// matmul: C = A * B, n x n, one fused multiply-add per (i, j, k), rows split over the cores.
void native_matmul(const float* a, const float* b, float* c, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; ++i) {
    float* row = c + std::size_t(i) * n;
    for (int j = 0; j < n; ++j) row[j] = 0.0f;
    for (int k = 0; k < n; ++k) {
      const float aik = a[std::size_t(i) * n + k];
      const float* brow = b + std::size_t(k) * n;
#pragma omp simd
      for (int j = 0; j < n; ++j) row[j] = std::fma(aik, brow[j], row[j]);
    }
  }
}

}  // namespace warpscope::bench
