// Do warps that read the same sectors share an L1 miss's wait? (docs/time.md, "Shared misses").
// One CTA of W warps per SM (132 CTAs); every warp walks `kSteps` steps, each one load of a word
// that all 32 lanes read (the N-body's broadcast of one body), then a chain of K dependent FFMAs on
// it, whose result gives the next step's index (so a step's load waits for the previous step, as
// the N-body's unrolled bodies do). The words are `stride` bytes apart:
//   shared   every warp of the CTA walks the same words (the N-body: one L1 miss per sector per SM,
//            the other warps' accesses hit a sector another warp's miss brought or is bringing)
//   private  each warp walks its own copy (every warp misses each new sector itself)
// The table is read once by an earlier launch, so it is in L2; the L1 starts cold. Prints
//   mode W stride K cycles_per_step(mean over warps) max_warp kernel_us
// Build: nvcc -O3 -arch=sm_90 shared_stream.cu
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#include "hw_check.cuh"

constexpr int kSteps = 2048, kSms = 132;

template <int K>
__global__ void walk(const unsigned* table, int copy_words, float one, float zero, long long* cycles, unsigned* sink) {
  const int warp = threadIdx.x / 32;
  const unsigned* t = table + static_cast<size_t>(warp) * copy_words;
  unsigned i = 0;
  const long long c0 = clock64();
  for (int s = 0; s < kSteps; ++s) {
    unsigned v = t[i];  // the next index, the same for all lanes
    float f = __uint_as_float(v);
#pragma unroll
    for (int k = 0; k < K; ++k) f = f * one + zero;  // exact: one = 1, zero = 0 at run time
    i = __float_as_uint(f);
  }
  const long long c1 = clock64();
  if (threadIdx.x % 32 == 0) cycles[blockIdx.x * (blockDim.x / 32) + warp] = c1 - c0;
  sink[blockIdx.x * blockDim.x + threadIdx.x] = i;
}

__global__ void touch(const unsigned* table, size_t words, unsigned* sink) {
  unsigned s = 0;
  for (size_t w = blockIdx.x * blockDim.x + threadIdx.x; w < words; w += gridDim.x * blockDim.x) s += __ldcg(&table[w]);
  if (s == 0x12345678u) *sink = s;
}

template <int K>
static int run(const char* mode, int warps, int stride, unsigned* table, long long* d_cycles, unsigned* d_sink) {
  const int step_words = stride / 4, copy_words = kSteps * step_words + 32;
  const int copies = mode[0] == 's' ? 1 : warps;
  std::vector<unsigned> host(static_cast<size_t>(copies) * copy_words, 0);
  for (int c = 0; c < copies; ++c)
    for (int s = 0; s < kSteps; ++s) host[static_cast<size_t>(c) * copy_words + s * step_words] = (s + 1) * step_words;
  CHECK(cudaMemcpy(table, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
  touch<<<264, 256>>>(table, host.size(), d_sink);
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  CHECK(cudaEventRecord(a));
  walk<K><<<kSms, warps * 32>>>(table, mode[0] == 's' ? 0 : copy_words, 1.0f, 0.0f, d_cycles, d_sink);
  CHECK(cudaEventRecord(b));
  CHECK(cudaEventSynchronize(b));
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  std::vector<long long> c(static_cast<size_t>(kSms) * warps);
  CHECK(cudaMemcpy(c.data(), d_cycles, c.size() * sizeof(long long), cudaMemcpyDeviceToHost));
  double sum = 0, mx = 0;
  for (long long x : c) {
    sum += static_cast<double>(x);
    mx = static_cast<double>(x) > mx ? static_cast<double>(x) : mx;
  }
  std::printf("%s %d %d %d %.2f %.2f %.1f\n", mode, warps, stride, K, sum / c.size() / kSteps, mx / kSteps, ms * 1e3);
  return 0;
}

int main() {
  unsigned *table = nullptr, *d_sink = nullptr;
  long long* d_cycles = nullptr;
  const size_t max_words = static_cast<size_t>(32) * (kSteps * 8 + 32);
  CHECK(cudaMalloc(&table, max_words * 4));
  CHECK(cudaMalloc(&d_sink, kSms * 1024 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_cycles, kSms * 32 * sizeof(long long)));
  std::printf("# mode warps_per_cta stride_bytes K cycles_per_step max_warp_cycles_per_step kernel_us (%d CTAs, %d steps)\n",
              kSms, kSteps);
  for (const char* mode : {"shared", "private"})
    for (int warps : {1, 8, 16, 32})
      for (int stride : {4, 16, 32}) {
        if (run<0>(mode, warps, stride, table, d_cycles, d_sink) || run<24>(mode, warps, stride, table, d_cycles, d_sink))
          return 1;
      }
  return 0;
}
