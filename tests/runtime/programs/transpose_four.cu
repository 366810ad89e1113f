// The four kernels of NVIDIA's transpose post (developer.nvidia.com/blog/efficient-matrix-transpose-cuda-cc),
// written for the ordering test (ncu_cli_test.cpp, TransposeOrderingOnEveryTimedProfile): copy, naive transpose,
// shared-memory tile (32x32: 32-way bank conflicts on the column reads) and padded tile (32x33).
#include <cstdio>
constexpr int T = 32, R = 8;
__global__ void copy(float* o, const float* in, int w) {
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += R) o[(y + j) * w + x] = in[(y + j) * w + x];
}
__global__ void naive(float* o, const float* in, int w) {
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += R) o[x * w + y + j] = in[(y + j) * w + x];
}
template <int P>
__global__ void tiled(float* o, const float* in, int w) {
  __shared__ float tile[T][T + P];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += R) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * T + threadIdx.x;
  y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += R) o[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}
int main() {
  const int w = 1024;
  float *a, *b;
  cudaMalloc(&a, w * w * 4);
  cudaMalloc(&b, w * w * 4);
  cudaMemset(a, 0, w * w * 4);
  dim3 g(w / T, w / T), bl(T, R);
  copy<<<g, bl>>>(b, a, w);
  naive<<<g, bl>>>(b, a, w);
  tiled<0><<<g, bl>>>(b, a, w);
  tiled<1><<<g, bl>>>(b, a, w);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
}
