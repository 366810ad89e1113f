// Array of structures vs structure of arrays (seed 003, "Оптимизация структур"): each thread
// scales one point. With an array of struct point {x, y, z, w} a warp's loads of .x touch every
// 16th byte (4 times the sectors the data needs); with a structure of arrays each field is one
// contiguous run.
// Usage: aos_soa [N]   (default 1048576)
#include <cmath>
#include <vector>

#include "common.cuh"

struct point {
  float x;
  float y;
  float z;
  float w;
};

struct points {
  float* x;
  float* y;
  float* z;
  float* w;
};

__global__ void scale_aos(point* p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i].x = p[i].x * s;
    p[i].y = p[i].y * s;
    p[i].z = p[i].z * s;
    p[i].w = p[i].w * s;
  }
}

__global__ void scale_soa(points p, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p.x[i] = p.x[i] * s;
    p.y[i] = p.y[i] * s;
    p.z[i] = p.z[i] * s;
    p.w[i] = p.w[i] * s;
  }
}

int main(int argc, char** argv) {
  const int N = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  const float s = 1.5f;
  std::vector<point> h(N);
  for (int i = 0; i < N; ++i) h[i] = point{float(i % 10), float(i % 11), float(i % 12), float(i % 13)};
  const int threads = 256, blocks = (N + threads - 1) / threads;

  point* aos;
  CHECK(cudaMalloc((void**)&aos, N * sizeof(*aos)));
  CHECK(cudaMemcpy(aos, h.data(), N * sizeof(point), cudaMemcpyHostToDevice));
  double t0 = wtime();
  scale_aos<<<blocks, threads>>>(aos, s, N);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  double t1 = wtime();
  std::vector<point> back(N);
  CHECK(cudaMemcpy(back.data(), aos, N * sizeof(point), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < N; ++i)
    if (back[i].x != h[i].x * s || back[i].y != h[i].y * s || back[i].z != h[i].z * s || back[i].w != h[i].w * s) ++bad;
  std::printf("array of structures   N=%d sizeof(point)=%d: %s\n", N, (int)sizeof(point), bad == 0 ? "OK" : "FAIL");
  std::printf("[timing] aos kernel (sec.): %.6f\n", t1 - t0);
  CHECK(cudaFree(aos));

  points soa;
  CHECK(cudaMalloc((void**)&soa.x, N * sizeof(float)));
  CHECK(cudaMalloc((void**)&soa.y, N * sizeof(float)));
  CHECK(cudaMalloc((void**)&soa.z, N * sizeof(float)));
  CHECK(cudaMalloc((void**)&soa.w, N * sizeof(float)));
  std::vector<float> f(N);
  float* fields[4] = {soa.x, soa.y, soa.z, soa.w};
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < N; ++i) f[i] = (&h[i].x)[k];
    CHECK(cudaMemcpy(fields[k], f.data(), N * sizeof(float), cudaMemcpyHostToDevice));
  }
  t0 = wtime();
  scale_soa<<<blocks, threads>>>(soa, s, N);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  t1 = wtime();
  int bad2 = 0;
  for (int k = 0; k < 4; ++k) {
    CHECK(cudaMemcpy(f.data(), fields[k], N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i)
      if (f[i] != (&h[i].x)[k] * s) ++bad2;
  }
  std::printf("structure of arrays   N=%d: %s\n", N, bad2 == 0 ? "OK" : "FAIL");
  std::printf("[timing] soa kernel (sec.): %.6f\n", t1 - t0);
  for (float* p : fields) CHECK(cudaFree(p));
  return bad == 0 && bad2 == 0 ? 0 : 1;
}
