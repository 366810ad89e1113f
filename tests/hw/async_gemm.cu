// The team's cp.async / mbarrier kernels as one program, for their counters on a GPU (issue 18):
// double-buffered tiled GEMMs with 4-byte (.ca) and 16-byte (.cg) cp.async at two sizes, a
// block-scope cuda::pipeline, cooperative_groups::memcpy_async, a cuda::barrier bulk copy
// (cp.async.bulk) and an mbarrier producer/consumer ring. Each launch's result is checked against
// a host reference ("NAME ok" / "NAME WRONG"). tests/hw/capture_async_gemm.sh runs it under ncu;
// tests/stats/async_h100_test.cpp runs the same kernels (this file's PTX) on the interpreter with
// the same inputs and compares the counters.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

#pragma nv_diag_suppress static_var_with_dynamic_init

constexpr int kTile = 16;

// C = A * B, 16x16 blocks; tile t + 1 is copied while tile t is multiplied.
template <int kBytes>
__device__ void gemm_body(const float* A, const float* B, float* C, int N, int K) {
  __shared__ __align__(16) float As[2][kTile][kTile];
  __shared__ __align__(16) float Bs[2][kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  const int tiles = K / kTile;
  auto load = [&](int t, int buf) {
    if (kBytes == 4) {
      __pipeline_memcpy_async(&As[buf][ty][tx], &A[row * K + t * kTile + tx], 4);
      __pipeline_memcpy_async(&Bs[buf][ty][tx], &B[(t * kTile + ty) * N + col], 4);
    } else if (tx < 4) {
      __pipeline_memcpy_async(&As[buf][ty][4 * tx], &A[row * K + t * kTile + 4 * tx], 16);
      __pipeline_memcpy_async(&Bs[buf][ty][4 * tx], &B[(t * kTile + ty) * N + blockIdx.x * kTile + 4 * tx], 16);
    }
    __pipeline_commit();
  };
  load(0, 0);
  float acc = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    const int buf = t & 1;
    if (t + 1 < tiles) {
      load(t + 1, buf ^ 1);
      __pipeline_wait_prior(1);
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc += As[buf][ty][k] * Bs[buf][k][tx];
    __syncthreads();
  }
  C[row * N + col] = acc;
}
extern "C" __global__ void gemm_cp4(const float* A, const float* B, float* C, int N, int K) { gemm_body<4>(A, B, C, N, K); }
extern "C" __global__ void gemm_cp16(const float* A, const float* B, float* C, int N, int K) { gemm_body<16>(A, B, C, N, K); }

// Block-scope pipeline of 2 stages over `chunks` chunks of blockDim.x floats; thread t sums the
// reversed element of each chunk.
extern "C" __global__ void pipeline_block_sum(const float* in, float* out, int chunks) {
  constexpr int kStages = 2;
  __shared__ __align__(16) float buf[kStages][256];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, kStages> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  const int n = blockDim.x;
  const float* base = in + blockIdx.x * chunks * n;
  int fetched = 0;
  float acc = 0.0f;
  for (int c = 0; c < chunks; ++c) {
    for (; fetched < chunks && fetched < c + kStages; ++fetched) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetched % kStages], base + fetched * n, sizeof(float) * n, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[c % kStages][n - 1 - threadIdx.x];
    pipe.consumer_release();
  }
  out[blockIdx.x * n + threadIdx.x] = acc;
}

extern "C" __global__ void cg_copy_reverse(const float* in, float* out) {
  __shared__ __align__(16) float sh[256];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, sh, in + blockIdx.x * blockDim.x, sizeof(float) * blockDim.x);
  cg::wait(block);
  out[blockIdx.x * blockDim.x + threadIdx.x] = sh[blockDim.x - 1 - threadIdx.x];
}

extern "C" __global__ void barrier_bulk_copy(const float* in, float* out) {
  __shared__ __align__(16) float sh[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, sh, in + blockIdx.x * blockDim.x, cuda::aligned_size_t<16>(sizeof(float) * blockDim.x), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * blockDim.x + threadIdx.x] = 2.0f * sh[blockDim.x - 1 - threadIdx.x];
}

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// Warp 0 produces `rounds` rows of 32 ints into a ring of 2 slots; warps 1.. consume them.
extern "C" __global__ void mbar_producer_consumer(const int* in, int* out, int rounds) {
  __shared__ int slot[2][32];
  __shared__ unsigned long long full[2], empty[2];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned consumers = blockDim.x / 32 - 1;
  if (threadIdx.x == 0) {
    for (int s = 0; s < 2; ++s) {
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(&full[s])), "r"(32) : "memory");
      asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem(&empty[s])), "r"(32 * consumers) : "memory");
    }
  }
  __syncthreads();
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    const int s = r % 2;
    const unsigned parity = (r / 2) & 1;
    if (warp == 0) {
      if (r >= 2) {
        asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}\n" ::"r"(
                         smem(&empty[s])),
                     "r"(parity ^ 1)
                     : "memory");
      }
      slot[s][lane] = in[r * 32 + lane];
      asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 _, [%0];" ::"r"(smem(&full[s])) : "memory");
    } else {
      asm volatile(
          "{\n .reg .pred p;\n W: mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}\n" ::"r"(
              smem(&full[s])),
          "r"(parity)
          : "memory");
      acc += slot[s][lane] * static_cast<int>(warp);
      asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(&empty[s])) : "memory");
    }
  }
  if (warp != 0) out[(warp - 1) * 32 + lane] = acc;
}

// ---- host -------------------------------------------------------------------------------------

// Inputs: multiples of 1/8 whose products and sums are exact in float, so any order of the sums
// gives the reference's bits.
float a_val(std::size_t i) { return static_cast<float>(static_cast<int>((i * 37) % 17) - 8) * 0.25f; }
float b_val(std::size_t i) { return static_cast<float>(static_cast<int>((i * 11) % 13) - 6) * 0.5f; }

int failures = 0;
void report(const char* name, bool ok) {
  std::printf("%s %s\n", name, ok ? "ok" : "WRONG");
  failures += ok ? 0 : 1;
}

bool gemm(void (*kernel)(const float*, const float*, float*, int, int), int n) {
  std::vector<float> A(std::size_t(n) * n), B(A.size()), C(A.size()), want(A.size());
  for (std::size_t i = 0; i < A.size(); ++i) A[i] = a_val(i), B[i] = b_val(i);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int k = 0; k < n; ++k) acc += A[std::size_t(i) * n + k] * B[std::size_t(k) * n + j];
      want[std::size_t(i) * n + j] = acc;
    }
  float *dA, *dB, *dC;
  cudaMalloc(&dA, A.size() * 4);
  cudaMalloc(&dB, B.size() * 4);
  cudaMalloc(&dC, C.size() * 4);
  cudaMemcpy(dA, A.data(), A.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dB, B.data(), B.size() * 4, cudaMemcpyHostToDevice);
  kernel<<<dim3(n / kTile, n / kTile), dim3(kTile, kTile)>>>(dA, dB, dC, n, n);
  cudaMemcpy(C.data(), dC, C.size() * 4, cudaMemcpyDeviceToHost);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return C == want;
}

int main() {
  report("gemm_cp4_128", gemm(gemm_cp4, 128));
  report("gemm_cp16_128", gemm(gemm_cp16, 128));
  report("gemm_cp4_256", gemm(gemm_cp4, 256));
  report("gemm_cp16_256", gemm(gemm_cp16, 256));

  const int blocks = 8, n = 256, chunks = 6;
  std::vector<float> in(std::size_t(blocks) * chunks * n), out(std::size_t(blocks) * n);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 1000);
  float *din, *dout;
  cudaMalloc(&din, in.size() * 4);
  cudaMalloc(&dout, out.size() * 4);
  cudaMemcpy(din, in.data(), in.size() * 4, cudaMemcpyHostToDevice);
  pipeline_block_sum<<<blocks, n>>>(din, dout, chunks);
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < n; ++t) {
      float want = 0;
      for (int c = 0; c < chunks; ++c) want += in[std::size_t(b) * chunks * n + c * n + (n - 1 - t)];
      ok = ok && out[b * n + t] == want;
    }
  report("pipeline_block_sum", ok);
  cg_copy_reverse<<<blocks, n>>>(din, dout);
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < n; ++t) ok = ok && out[b * n + t] == in[b * n + n - 1 - t];
  report("cg_copy_reverse", ok);
  barrier_bulk_copy<<<blocks, n>>>(din, dout);
  cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost);
  ok = true;
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < n; ++t) ok = ok && out[b * n + t] == 2.0f * in[b * n + n - 1 - t];
  report("barrier_bulk_copy", ok);

  const int rounds = 9, warps = 4;
  std::vector<int> rin(rounds * 32), rout((warps - 1) * 32);
  for (int i = 0; i < rounds * 32; ++i) rin[i] = i * 3 - 50;
  int *dri, *dro;
  cudaMalloc(&dri, rin.size() * 4);
  cudaMalloc(&dro, rout.size() * 4);
  cudaMemcpy(dri, rin.data(), rin.size() * 4, cudaMemcpyHostToDevice);
  mbar_producer_consumer<<<2, warps * 32>>>(dri, dro, rounds);
  cudaMemcpy(rout.data(), dro, rout.size() * 4, cudaMemcpyDeviceToHost);
  ok = true;
  for (int w = 1; w < warps; ++w)
    for (int l = 0; l < 32; ++l) {
      int want = 0;
      for (int r = 0; r < rounds; ++r) want += rin[r * 32 + l] * w;
      ok = ok && rout[(w - 1) * 32 + l] == want;
    }
  report("mbar_producer_consumer", ok);
  const cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) std::printf("CUDA error %s\n", cudaGetErrorString(e));
  return failures == 0 && e == cudaSuccess ? 0 : 1;
}
