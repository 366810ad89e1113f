// 256-bin histograms of bytes:
//   hist_global   one global atomicAdd per element (compiled to RED: the result is unused)
//   hist_shared   a per-block histogram in shared memory (shared atomics), then one global
//                 atomicAdd per bin and block
// over two inputs: uniform bytes (atomics spread over all bins) and a skewed input where most
// bytes are one value (atomics of a warp collide on one address).
// Usage: histogram [N]   (bytes, a multiple of 4; default 262144)
// Checks every bin against the host; prints OK, or FAIL and exits 1.
#include <vector>

#include "../../../examples/common.cuh"

constexpr int kBins = 256;

__global__ void hist_global(const unsigned char* data, int n, unsigned* hist) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&hist[data[i]], 1u);
}

__global__ void hist_shared(const unsigned char* data, int n, unsigned* hist) {
  __shared__ unsigned s[kBins];
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) s[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&s[data[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&hist[b], s[b]);
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 262144;
  if (n <= 0 || n % 4 != 0) {
    std::fprintf(stderr, "N must be a positive multiple of 4\n");
    return 2;
  }
  std::vector<unsigned char> h(n);
  unsigned char* data;
  unsigned* hist;
  CHECK(cudaMalloc(&data, n));
  CHECK(cudaMalloc(&hist, kBins * sizeof(unsigned)));
  const int threads = 256, blocks = 128;
  int failures = 0;
  for (int input = 0; input < 2; ++input) {
    Lcg rng(777 + input);
    for (int i = 0; i < n; ++i) {
      const unsigned r = static_cast<unsigned>((rng.next() + 1.0f) * 32768.0f);
      h[i] = input == 0 ? static_cast<unsigned char>(r) : static_cast<unsigned char>(r % 8 == 0 ? r >> 3 : 42);
    }
    std::vector<unsigned> want(kBins, 0), got(kBins);
    for (int i = 0; i < n; ++i) ++want[h[i]];
    CHECK(cudaMemcpy(data, h.data(), n, cudaMemcpyHostToDevice));
    for (int k = 0; k < 2; ++k) {
      CHECK(cudaMemset(hist, 0, kBins * sizeof(unsigned)));
      if (k == 0) hist_global<<<blocks, threads>>>(data, n, hist);
      if (k == 1) hist_shared<<<blocks, threads>>>(data, n, hist);
      CHECK(cudaGetLastError());
      CHECK(cudaMemcpy(got.data(), hist, kBins * sizeof(unsigned), cudaMemcpyDeviceToHost));
      int bad = 0;
      for (int b = 0; b < kBins; ++b) bad += got[b] != want[b];
      std::printf("%s %s n=%d bin42=%u: %s\n", k == 0 ? "hist_global" : "hist_shared", input == 0 ? "uniform" : "skewed", n,
                  want[42], bad ? "FAIL" : "ok");
      failures += bad != 0;
    }
  }
  CHECK(cudaFree(data));
  CHECK(cudaFree(hist));
  std::printf("%s\n", failures ? "FAIL" : "OK");
  return failures ? 1 : 0;
}
