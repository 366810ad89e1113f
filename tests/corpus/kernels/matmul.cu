// C = A * B for row-major A (M x K), B (K x N), C (M x N): a naive kernel (one thread per
// element, K-long dot product from global memory) and the classic 16x16 shared-memory tiling
// (tiles padded with zeros at the edges, so any M, N, K work). Blocks are 16 x 16 threads;
// x runs over columns. Checked by tests/corpus/matmul_test.cpp.

#define MM_TILE 16

extern "C" __global__ void matmul_naive(const float* A, const float* B, float* C, int M, int N,
                                        int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

extern "C" __global__ void matmul_tiled(const float* A, const float* B, float* C, int M, int N,
                                        int K) {
  __shared__ float As[MM_TILE][MM_TILE];
  __shared__ float Bs[MM_TILE][MM_TILE];
  int row = blockIdx.y * MM_TILE + threadIdx.y;
  int col = blockIdx.x * MM_TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < K; t += MM_TILE) {
    int ak = t + threadIdx.x, bk = t + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ak < K) ? A[row * K + ak] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (bk < K && col < N) ? B[bk * N + col] : 0.0f;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < MM_TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N) C[row * N + col] = acc;
}
