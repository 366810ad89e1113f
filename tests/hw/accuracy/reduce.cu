// Sum reductions of 32-bit integers, one partial sum per block (blocks of 256 threads, each thread
// first adding two elements a block apart):
//   reduce_divergent   shared-memory tree, `tid % (2*s) == 0` (divergent warps)
//   reduce_strided     shared-memory tree, index 2*s*tid (bank conflicts, no divergence)
//   reduce_sequential  shared-memory tree, halving stride s = blockDim/2 .. 1 (conflict-free)
//   reduce_shuffle     __shfl_down_sync inside each warp, one shared word per warp
//   reduce_atomic      reduce_shuffle's warp sums added to one global counter with atomicAdd
// Usage: reduce [N]   (N a multiple of 512; default 262144)
// Checks every block's partial sum (and the total) against the host; prints OK, or FAIL and
// exits 1.
#include <vector>

#include "../../../examples/common.cuh"

constexpr int kBlock = 256;

__global__ void reduce_divergent(const int* in, int* out) {
  __shared__ int s[kBlock];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  s[tid] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    if (tid % (2 * k) == 0) s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_strided(const int* in, int* out) {
  __shared__ int s[kBlock];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  s[tid] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned k = 1; k < blockDim.x; k *= 2) {
    unsigned index = 2 * k * tid;
    if (index < blockDim.x) s[index] += s[index + k];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_sequential(const int* in, int* out) {
  __shared__ int s[kBlock];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  s[tid] = in[i] + in[i + blockDim.x];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k) s[tid] += s[tid + k];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = s[0];
}

__device__ int block_sum_shuffle(int v) {
  __shared__ int warp_sums[kBlock / 32];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < kBlock / 32 ? warp_sums[lane] : 0;
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  }
  return v;
}

__global__ void reduce_shuffle(const int* in, int* out) {
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  const int v = block_sum_shuffle(in[i] + in[i + blockDim.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void reduce_atomic(const int* in, int* total) {
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  int v = in[i] + in[i + blockDim.x];
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffffu, v, off);
  if ((threadIdx.x & 31) == 0) atomicAdd(total, v);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 262144;
  if (n <= 0 || n % (2 * kBlock) != 0) {
    std::fprintf(stderr, "N must be a positive multiple of %d\n", 2 * kBlock);
    return 2;
  }
  const int blocks = n / (2 * kBlock);
  std::vector<int> h(n), want(blocks, 0), got(blocks);
  Lcg rng(12345);
  long long total = 0;
  for (int i = 0; i < n; ++i) h[i] = static_cast<int>(rng.next() * 1000.0f);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < 2 * kBlock; ++t) want[b] += h[b * 2 * kBlock + t];
  for (int b = 0; b < blocks; ++b) total += want[b];
  int *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(int)));
  CHECK(cudaMalloc(&out, blocks * sizeof(int)));
  CHECK(cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int failures = 0;
  const char* names[] = {"reduce_divergent", "reduce_strided", "reduce_sequential", "reduce_shuffle", "reduce_atomic"};
  for (int k = 0; k < 5; ++k) {
    CHECK(cudaMemset(out, 0, blocks * sizeof(int)));
    if (k == 0) reduce_divergent<<<blocks, kBlock>>>(in, out);
    if (k == 1) reduce_strided<<<blocks, kBlock>>>(in, out);
    if (k == 2) reduce_sequential<<<blocks, kBlock>>>(in, out);
    if (k == 3) reduce_shuffle<<<blocks, kBlock>>>(in, out);
    if (k == 4) reduce_atomic<<<blocks, kBlock>>>(in, out);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(got.data(), out, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    int bad = 0;
    if (k == 4) {
      bad = got[0] != static_cast<int>(total);
    } else {
      for (int b = 0; b < blocks; ++b) bad += got[b] != want[b];
    }
    std::printf("%s n=%d blocks=%d total=%lld: %s\n", names[k], n, blocks, total, bad ? "FAIL" : "ok");
    failures += bad != 0;
  }
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  std::printf("%s\n", failures ? "FAIL" : "OK");
  return failures ? 1 : 0;
}
