// One-warp and one-CTA kernels whose predicted time the H100's microbenchmarks pin down
// (time_costs_test.cpp; docs/time.md "Branches", "Barriers", "Constant data", "CTA launch rate"):
//   time_chains recip_sqrt   one warp, 256 x 64 dependent steps x = 1/sqrtf(x*x + 0.25)
//   time_chains barrier W    one CTA of W warps, 256 x 32 __syncthreads()
//   time_chains params       one thread sums 1024 ints of a __grid_constant__ parameter
//   time_chains ctas N       N CTAs of 32 threads, each thread stores its index
//   time_chains walk W M     one CTA of W warps, each walking 2048 words 16 bytes apart (every lane
//                            on one word; 24 dependent FFMAs a step), the same words (M = shared)
//                            or a copy of its own (M = private), after a launch that reads the
//                            table into L2 (tests/hw/timing/shared_stream.cu's walk<24>)
// Each checks its result against the CPU and exits 0 when it agrees.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

constexpr int kIters = 256;

// As tests/hw/timing/branch_cost.cu's recip_sqrt (run-time a and c, a value per lane).
__global__ void recip_sqrt(float a, float c, float* out) {
  float x = a + threadIdx.x * 1e-3f;
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int k = 0; k < 64; ++k) x = 1.0f / sqrtf(x * x + c);
  }
  out[threadIdx.x] = x;
}

__global__ void barrier(int* out) {
  int x = threadIdx.x;
  for (int i = 0; i < kIters; ++i) {
#pragma unroll
    for (int k = 0; k < 32; ++k) {
      __syncthreads();
      x = x * 3 + k;
    }
  }
  out[threadIdx.x] = x;
}

struct Params { int v[1024]; };

__global__ void params(__grid_constant__ const Params p, int* out) {
  int t = threadIdx.x;
  for (int k = 0; k < 1024; ++k) t += p.v[k];
  *out = t;
}

__global__ void tiny(int* out) { out[blockIdx.x * blockDim.x + threadIdx.x] = blockIdx.x * blockDim.x + threadIdx.x; }

// As tests/hw/timing/shared_stream.cu: the word read gives the next index, through 24 FFMAs
// that leave it unchanged (one = 1, zero = 0 at run time).
constexpr int kWalkSteps = 2048, kWalkStride = 4;  // words
__global__ void walk(const unsigned* table, int copy_words, float one, float zero, unsigned* sink) {
  const unsigned* t = table + static_cast<size_t>(threadIdx.x / 32) * copy_words;
  unsigned i = 0;
  for (int s = 0; s < kWalkSteps; ++s) {
    float f = __uint_as_float(t[i]);
#pragma unroll
    for (int k = 0; k < 24; ++k) f = f * one + zero;
    i = __float_as_uint(f);
  }
  sink[threadIdx.x] = i;
}

__global__ void touch(const unsigned* table, int words, unsigned* sink) {
  unsigned s = 0;
  for (int w = threadIdx.x; w < words; w += blockDim.x) s += __ldcg(&table[w]);
  if (s == 0x12345678u) *sink = s;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const std::string_view mode = argv[1];
  if (mode == "recip_sqrt") {
    float* d = nullptr;
    cudaMalloc(&d, 32 * sizeof(float));
    const float a = argc > 2 ? static_cast<float>(std::atof(argv[2])) : 1.5f, c = 0.25f;
    recip_sqrt<<<1, 32>>>(a, c, d);
    float got[32];
    cudaMemcpy(got, d, sizeof got, cudaMemcpyDeviceToHost);
    for (int l = 0; l < 32; ++l) {
      float x = a + static_cast<float>(l) * 1e-3f;  // IEEE division and square root: the CPU's
      for (int i = 0; i < kIters * 64; ++i) x = 1.0f / std::sqrt(x * x + c);
      if (got[l] != x) { std::printf("WRONG lane %d: %g, CPU %g\n", l, got[l], x); return 1; }
    }
    std::printf("ok\n");
    return 0;
  }
  if (mode == "barrier" && argc > 2) {
    const int threads = 32 * std::atoi(argv[2]);
    int* d = nullptr;
    cudaMalloc(&d, threads * sizeof(int));
    barrier<<<1, threads>>>(d);
    std::vector<int> got(threads);
    cudaMemcpy(got.data(), d, threads * sizeof(int), cudaMemcpyDeviceToHost);
    for (int t = 0; t < threads; ++t) {
      unsigned x = static_cast<unsigned>(t);
      for (int i = 0; i < kIters; ++i)
        for (int k = 0; k < 32; ++k) x = x * 3u + static_cast<unsigned>(k);
      if (got[t] != static_cast<int>(x)) { std::printf("WRONG thread %d\n", t); return 1; }
    }
    std::printf("ok\n");
    return 0;
  }
  if (mode == "params") {
    static Params p;
    int want = 0;
    for (int i = 0; i < 1024; ++i) p.v[i] = i & 0xff, want += i & 0xff;
    int* d = nullptr;
    cudaMalloc(&d, sizeof(int));
    params<<<1, 1>>>(p, d);
    int got = 0;
    cudaMemcpy(&got, d, sizeof got, cudaMemcpyDeviceToHost);
    std::printf("%s %d\n", got == want ? "ok" : "WRONG", got);
    return got == want ? 0 : 1;
  }
  if (mode == "walk" && argc > 3) {
    const int warps = std::atoi(argv[2]);
    const bool shared = std::string_view(argv[3]) == "shared";
    const int copy_words = kWalkSteps * kWalkStride + 32, copies = shared ? 1 : warps;
    std::vector<unsigned> host(size_t(copies) * copy_words, 0);
    for (int c = 0; c < copies; ++c)
      for (int s = 0; s < kWalkSteps; ++s) host[size_t(c) * copy_words + s * kWalkStride] = (s + 1) * kWalkStride;
    unsigned *table = nullptr, *sink = nullptr;
    cudaMalloc(&table, host.size() * sizeof(unsigned));
    cudaMalloc(&sink, 1024 * sizeof(unsigned));
    cudaMemcpy(table, host.data(), host.size() * sizeof(unsigned), cudaMemcpyHostToDevice);
    touch<<<1, 256>>>(table, static_cast<int>(host.size()), sink);
    walk<<<1, warps * 32>>>(table, shared ? 0 : copy_words, 1.0f, 0.0f, sink);
    std::vector<unsigned> got(size_t(warps) * 32);
    cudaMemcpy(got.data(), sink, got.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    for (unsigned v : got) if (v != unsigned(kWalkSteps * kWalkStride)) { std::printf("WRONG %u\n", v); return 1; }
    std::printf("ok\n");
    return 0;
  }
  if (mode == "ctas" && argc > 2) {
    const int n = std::atoi(argv[2]);
    int* d = nullptr;
    cudaMalloc(&d, size_t(n) * 32 * sizeof(int));
    tiny<<<n, 32>>>(d);
    std::vector<int> got(size_t(n) * 32);
    cudaMemcpy(got.data(), d, got.size() * sizeof(int), cudaMemcpyDeviceToHost);
    for (size_t i = 0; i < got.size(); ++i) if (got[i] != static_cast<int>(i)) { std::printf("WRONG %zu\n", i); return 1; }
    std::printf("ok\n");
    return 0;
  }
  return 2;
}
