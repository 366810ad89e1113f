// Microbenchmarks for the time model's H100 constants (docs/time.md): latency chains, issue rate
// per instruction class, bandwidth of each memory level, launch overhead. Every figure is printed
// as `name value unit` (one per line); tests/hw/capture_timing.sh runs it and the committed output
// is tests/hw/data/h100/timing/microbench.txt.
//   nvcc -arch=sm_90 -O3 -o microbench microbench.cu && ./microbench
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

__device__ __forceinline__ std::uint64_t globaltimer() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// ---- clock: SM cycles per nanosecond while a kernel runs ------------------------------------
__global__ void clock_rate(long long spin, unsigned long long* out) {
  const long long c0 = clock64();
  const std::uint64_t t0 = globaltimer();
  while (clock64() - c0 < spin) {
  }
  const long long c1 = clock64();
  const std::uint64_t t1 = globaltimer();
  out[0] = static_cast<unsigned long long>(c1 - c0);
  out[1] = t1 - t0;
}

// ---- latency chains: one thread follows pointers; cycles per dependent load ------------------
template <int kMode>  // 0: ld.global.ca (L1), 1: ld.global.cg (L2 / DRAM)
__global__ void chase_global(std::uint64_t* start, int steps, long long* cycles, std::uint64_t* sink) {
  std::uint64_t p = reinterpret_cast<std::uint64_t>(start);
  for (int i = 0; i < steps; ++i) {  // warm-up pass: fills L1 / L2 (and the TLBs)
    if (kMode == 0) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
    else asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
  }
  const long long c0 = clock64();
  for (int i = 0; i < steps; ++i) {
    if (kMode == 0) asm volatile("ld.global.ca.u64 %0, [%0];" : "+l"(p));
    else asm volatile("ld.global.cg.u64 %0, [%0];" : "+l"(p));
  }
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = p;
}

__global__ void chase_shared(int steps, long long* cycles, unsigned* sink) {
  __shared__ unsigned s[1024];
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(s));
  for (int i = 0; i < 1024; ++i) s[i] = base + 4u * ((i + 33) % 1024);
  __syncwarp();
  unsigned a = base;
  const long long c0 = clock64();
  for (int i = 0; i < steps; ++i) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(a));
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = a;
}

// Arithmetic latency: a dependent chain of 64 per iteration.
__global__ void chain_fma(int iters, float a, long long* cycles, float* sink) {
  float x = a;
  const long long c0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 64; ++k) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x) : "f"(a));
  }
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = x;
}
__global__ void chain_mufu(int iters, float a, long long* cycles, float* sink) {
  float x = a;
  const long long c0 = clock64();
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 64; ++k) asm volatile("rsqrt.approx.f32 %0, %0;" : "+f"(x));
  }
  const long long c1 = clock64();
  *cycles = c1 - c0;
  *sink = x;
}

// ---- issue rate: many warps, 8 independent chains each; warp instructions per SM cycle ------
__global__ void rate_fma(int iters, float a, float* sink) {
  float x[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) x[k] = a + k + threadIdx.x;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int k = 0; k < 8; ++k) asm volatile("fma.rn.f32 %0, %0, %1, %1;" : "+f"(x[k]) : "f"(a));
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += x[k];
  if (s == 1.2345f) *sink = s;
}
__global__ void rate_mufu(int iters, float a, float* sink) {
  float x[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) x[k] = a + k + threadIdx.x;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int k = 0; k < 8; ++k) asm volatile("rsqrt.approx.f32 %0, %0;" : "+f"(x[k]));
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s += x[k];
  if (s == 1.2345f) *sink = s;
}
__global__ void rate_imad(int iters, unsigned a, unsigned* sink) {
  unsigned x[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) x[k] = a + k + threadIdx.x;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int k = 0; k < 8; ++k) asm volatile("mad.lo.u32 %0, %0, %1, %1;" : "+r"(x[k]) : "r"(a));
  }
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s ^= x[k];
  if (s == 12345u) *sink = s;
}
__global__ void rate_iadd(int iters, unsigned a, unsigned* sink) {
  unsigned x[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) x[k] = a + k + threadIdx.x;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int r = 0; r < 8; ++r)
#pragma unroll
      for (int k = 0; k < 8; ++k) asm volatile("xor.b32 %0, %0, %1;" : "+r"(x[k]) : "r"(a + k));
  }
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < 8; ++k) s ^= x[k];
  if (s == 12345u) *sink = s;
}
// Shared loads: 32-bit, conflict-free (one wavefront each), 8 independent per iteration.
__global__ void rate_lds(int iters, unsigned* sink) {
  __shared__ unsigned s[2048];
  for (int i = threadIdx.x; i < 2048; i += blockDim.x) s[i] = i;
  __syncthreads();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(s)) + 4u * (threadIdx.x % 32);
  unsigned acc = 0;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      unsigned v;
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(base + 128u * k));
      acc += v;
    }
  }
  if (acc == 12345u) *sink = acc;
}
// Shared loads with a 32-way bank conflict (stride 128 bytes): 32 wavefronts each.
__global__ void rate_lds_conflict(int iters, unsigned* sink) {
  __shared__ unsigned s[32 * 32 + 8];
  for (int i = threadIdx.x; i < 32 * 32 + 8; i += blockDim.x) s[i] = i;
  __syncthreads();
  const unsigned base = static_cast<unsigned>(__cvta_generic_to_shared(s)) + 128u * (threadIdx.x % 32);
  unsigned acc = 0;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      unsigned v;
      asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(base + 4u * k));
      acc += v;
    }
  }
  if (acc == 12345u) *sink = acc;
}
// Global loads that hit L1: each warp reads 128 bytes per instruction (float), 16 KB per block.
__global__ void rate_ldg_l1(const float* __restrict__ in, int iters, float* sink) {
  const float* b = in + (blockIdx.x % 64) * 4096;
  float acc = 0;
  for (int i = 0; i < iters; ++i) {
#pragma unroll
    for (int k = 0; k < 8; ++k) acc += __ldca(b + ((threadIdx.x + 256 * k + 32 * i) & 4095));
  }
  if (acc == 1.2345f) *sink = acc;
}

// ---- bandwidth --------------------------------------------------------------------------------
__global__ void read_cg(const float4* __restrict__ in, std::size_t n, std::size_t wrap, int reps, float* sink) {
  float acc = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (int r = 0; r < reps; ++r) {
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
      const float4 v = __ldcg(in + (i % wrap));
      acc += v.x + v.y + v.z + v.w;
    }
  }
  if (acc == 1.2345f) *sink = acc;
}
__global__ void copy4(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i];
}
__global__ void empty_kernel() {}

// ---- host ---------------------------------------------------------------------------------------
static float time_ms(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  CHECK(cudaEventElapsedTime(&ms, a, b));
  return ms;
}

static std::uint64_t* make_chain(std::size_t bytes, std::size_t stride, bool shuffle) {
  const std::size_t n = bytes / stride;
  char* d = nullptr;
  CHECK(cudaMalloc(&d, bytes));
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i) order[i] = i;
  if (shuffle) {
    std::uint64_t s = 88172645463325252ull;
    for (std::size_t i = n - 1; i > 0; --i) {
      s ^= s << 13; s ^= s >> 7; s ^= s << 17;
      std::swap(order[i], order[s % (i + 1)]);
    }
  }
  std::vector<std::uint64_t> host(bytes / 8, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t from = order[i] * stride, to = order[(i + 1) % n] * stride;
    host[from / 8] = reinterpret_cast<std::uint64_t>(d + to);
  }
  CHECK(cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice));
  return reinterpret_cast<std::uint64_t*>(d);
}

int main() {
  cudaDeviceProp prop{};
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const int sms = prop.multiProcessorCount;
  std::printf("device %s\nsms %d count\n", prop.name, sms);
  long long* dcyc = nullptr;
  unsigned long long* dclk = nullptr;
  std::uint64_t* dsink = nullptr;
  float* fsink = nullptr;
  unsigned* usink = nullptr;
  CHECK(cudaMalloc(&dcyc, 8));
  CHECK(cudaMalloc(&dclk, 16));
  CHECK(cudaMalloc(&dsink, 8));
  CHECK(cudaMalloc(&fsink, 4));
  CHECK(cudaMalloc(&usink, 4));
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));

  unsigned long long clk[2];
  clock_rate<<<1, 1>>>(200000000LL, dclk);
  CHECK(cudaMemcpy(clk, dclk, 16, cudaMemcpyDeviceToHost));
  const double ghz = double(clk[0]) / double(clk[1]);
  std::printf("sm_clock %.4f GHz\n", ghz);

  long long cyc = 0;
  auto chase = [&](const char* name, std::size_t bytes, std::size_t stride, bool l1, int steps) {
    std::uint64_t* c = make_chain(bytes, stride, true);
    if (l1) chase_global<0><<<1, 1>>>(c, steps, dcyc, dsink);
    else chase_global<1><<<1, 1>>>(c, steps, dcyc, dsink);
    CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
    std::printf("%s %.1f cycles\n", name, double(cyc) / steps);
    CHECK(cudaFree(c));
  };
  chase("latency_l1", 8 << 10, 128, true, 4096);
  chase("latency_l2", 4 << 20, 256, false, 16384);
  chase("latency_dram", std::size_t(1) << 30, 1 << 16, false, 16384);
  chase("latency_dram_tlb_friendly", 64 << 20, 4096, false, 16384);
  unsigned* us = usink;
  chase_shared<<<1, 1>>>(4096, dcyc, us);
  CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
  std::printf("latency_shared %.1f cycles\n", double(cyc) / 4096);
  chain_fma<<<1, 1>>>(256, 1.0001f, dcyc, fsink);
  CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
  std::printf("latency_fma %.2f cycles\n", double(cyc) / (256 * 64));
  chain_mufu<<<1, 1>>>(256, 1.5f, dcyc, fsink);
  CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
  std::printf("latency_mufu_rsq %.2f cycles\n", double(cyc) / (256 * 64));

  // Issue rates: 8 blocks of 256 threads per SM (64 warps), one wave.
  const int blocks = sms * 8, threads = 256, iters = 4096;
  const double warps = double(blocks) * threads / 32;
  auto rate = [&](const char* name, double per_iter, auto launch) {
    launch();  // warm-up
    CHECK(cudaEventRecord(e0));
    launch();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    const double ms = time_ms(e0, e1);
    const double inst = warps * iters * per_iter;
    std::printf("%s %.3f warp_inst_per_sm_cycle (%.3f ms)\n", name, inst / sms / (ms * 1e6 * ghz), ms);
  };
  rate("rate_fma", 64, [&] { rate_fma<<<blocks, threads>>>(iters, 1.0001f, fsink); });
  rate("rate_mufu_rsq", 64, [&] { rate_mufu<<<blocks, threads>>>(iters, 1.5f, fsink); });
  rate("rate_imad", 64, [&] { rate_imad<<<blocks, threads>>>(iters, 3u, usink); });
  rate("rate_lop3", 64, [&] { rate_iadd<<<blocks, threads>>>(iters, 3u, usink); });
  rate("rate_lds32", 8, [&] { rate_lds<<<blocks, threads>>>(iters, usink); });
  rate("rate_lds32_conflict32", 8, [&] { rate_lds_conflict<<<blocks, threads>>>(iters / 16, usink); });
  float* l1buf = nullptr;
  CHECK(cudaMalloc(&l1buf, 64 * 4096 * 4));
  CHECK(cudaMemset(l1buf, 0, 64 * 4096 * 4));
  rate("rate_ldg32_l1hit", 8, [&] { rate_ldg_l1<<<blocks, threads>>>(l1buf, iters, fsink); });

  // Bandwidth.
  const std::size_t big = std::size_t(2) << 30;  // 2 GiB
  float4* a = nullptr;
  float4* b = nullptr;
  CHECK(cudaMalloc(&a, big));
  CHECK(cudaMalloc(&b, big));
  CHECK(cudaMemset(a, 0, big));
  const std::size_t n4 = big / 16;
  auto bw = [&](const char* name, double bytes, auto launch) {
    launch();
    CHECK(cudaEventRecord(e0));
    launch();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    const double ms = time_ms(e0, e1);
    std::printf("%s %.1f GB/s (%.3f ms, %.0f bytes per SM cycle)\n", name, bytes / (ms * 1e6), ms,
                bytes / (ms * 1e6 * ghz));
  };
  bw("bw_dram_read", double(big), [&] { read_cg<<<sms * 8, 256>>>(a, n4, n4, 1, fsink); });
  bw("bw_dram_copy", 2.0 * double(big), [&] { copy4<<<sms * 8, 256>>>(a, b, n4); });
  const std::size_t l2n = (std::size_t(16) << 20) / 16;  // a 16 MiB working set
  bw("bw_l2_read", double(l2n) * 16 * 32, [&] { read_cg<<<sms * 8, 256>>>(a, l2n * 32, l2n, 1, fsink); });

  // Launch overhead: back-to-back empty launches, and one alone.
  for (int i = 0; i < 100; ++i) empty_kernel<<<1, 32>>>();
  CHECK(cudaEventRecord(e0));
  for (int i = 0; i < 1000; ++i) empty_kernel<<<1, 32>>>();
  CHECK(cudaEventRecord(e1));
  CHECK(cudaEventSynchronize(e1));
  std::printf("launch_back_to_back %.3f us\n", time_ms(e0, e1));
  CHECK(cudaEventRecord(e0));
  empty_kernel<<<1, 32>>>();
  CHECK(cudaEventRecord(e1));
  CHECK(cudaEventSynchronize(e1));
  std::printf("launch_single_event %.3f us\n", 1000 * time_ms(e0, e1));
  CHECK(cudaEventRecord(e0));
  empty_kernel<<<sms * 16, 1024>>>();
  CHECK(cudaEventRecord(e1));
  CHECK(cudaEventSynchronize(e1));
  std::printf("launch_empty_2112x1024 %.3f us\n", 1000 * time_ms(e0, e1));
  CHECK(cudaDeviceSynchronize());
  std::printf("OK\n");
  return 0;
}
