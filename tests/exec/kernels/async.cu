// Asynchronous copies and mbarriers (issue 18): every form nvcc 13 emits for __pipeline_memcpy_async,
// cuda::pipeline, cuda::memcpy_async, cooperative_groups::memcpy_async and cuda::barrier, plus raw
// PTX for the exact operand forms, checked by tests/exec/async_test.cpp against host references.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

#pragma nv_diag_suppress static_var_with_dynamic_init

__device__ __forceinline__ unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

// --- cp.async operand forms ----------------------------------------------------------------------

// Lane l of each warp copies with cp-size 4, 8 and 16 (.ca), 16 (.cg), 16 with src-size
// l % 17, and 4 with ignore-src for odd lanes; then the block writes its shared buffer to `out`.
extern "C" __global__ void cp_async_forms(const unsigned char* src, unsigned char* out) {
  __shared__ __align__(16) unsigned char sh[6 * 512];
  for (int i = threadIdx.x; i < 6 * 512; i += blockDim.x) sh[i] = 0xee;
  __syncthreads();
  const unsigned l = threadIdx.x;  // one warp
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem(sh + 4 * l)), "l"(src + 4 * l) : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(smem(sh + 512 + 8 * l)), "l"(src + 8 * l) : "memory");
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(smem(sh + 1024 + 16 * l)), "l"(src + 16 * l) : "memory");
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;" ::"r"(smem(sh + 1536 + 16 * l)), "l"(src + 512 + 16 * l)
               : "memory");
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem(sh + 2048 + 16 * l)), "l"(src + 16 * l),
               "r"(l % 17)
               : "memory");
  asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n cp.async.ca.shared.global [%0], [%1], 4, p;\n}\n" ::"r"(
                   smem(sh + 2560 + 4 * l)),
               "l"(src + 4 * l), "r"(l & 1)
               : "memory");
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  for (int i = threadIdx.x; i < 6 * 512; i += blockDim.x) out[i] = sh[i];
}

// A copy whose source is a null pointer: with src-size 0 nothing is read, so nothing faults.
extern "C" __global__ void cp_async_zero_size(const unsigned char* src, unsigned char* out) {
  __shared__ __align__(16) unsigned char sh[512];
  const unsigned l = threadIdx.x;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, 0;" ::"r"(smem(sh + 16 * l)), "l"(src) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  for (int i = l; i < 512; i += blockDim.x) out[i] = sh[i];
}

// Faults: a misaligned source, and a src-size larger than the cp-size.
extern "C" __global__ void cp_async_misaligned(const unsigned char* src) {
  __shared__ __align__(16) unsigned char sh[512];
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(smem(sh + 8 * threadIdx.x)), "l"(src + 4 + 8 * threadIdx.x)
               : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
}
extern "C" __global__ void cp_async_src_size_too_large(const unsigned char* src, unsigned n) {
  __shared__ __align__(16) unsigned char sh[512];
  asm volatile("cp.async.ca.shared.global [%0], [%1], 8, %2;" ::"r"(smem(sh + 8 * threadIdx.x)), "l"(src + 8 * threadIdx.x),
               "r"(n)
               : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
}

// --- a double-buffered tiled GEMM with __pipeline_memcpy_async --------------------------------

constexpr int kTile = 16;

// C[M][N] = A[M][K] * B[K][N], 16x16 blocks, K a multiple of 16. Tile t+1 is copied while tile t
// is multiplied: two shared buffers, one cp.async group per tile, wait_prior(1) before using one.
extern "C" __global__ void gemm_double_buffered(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) float As[2][kTile][kTile];
  __shared__ __align__(16) float Bs[2][kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  const int tiles = K / kTile;
  auto load = [&](int t, int buf) {
    __pipeline_memcpy_async(&As[buf][ty][tx], &A[row * K + t * kTile + tx], sizeof(float));
    __pipeline_memcpy_async(&Bs[buf][ty][tx], &B[(t * kTile + ty) * N + col], sizeof(float));
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
  if (row < M && col < N) C[row * N + col] = acc;
}

// The same with 16-byte copies (.cg): each of the first 4 threads of a row copies 4 floats.
extern "C" __global__ void gemm_double_buffered16(const float* A, const float* B, float* C, int M, int N, int K) {
  __shared__ __align__(16) float As[2][kTile][kTile];
  __shared__ __align__(16) float Bs[2][kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kTile + ty, col = blockIdx.x * kTile + tx;
  const int tiles = K / kTile;
  auto load = [&](int t, int buf) {
    if (tx < 4) {
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
  if (row < M && col < N) C[row * N + col] = acc;
}

// --- cuda::pipeline, cuda::memcpy_async, cooperative_groups::memcpy_async ----------------------

// Per-thread pipeline of 3 stages: block b sums `chunks` chunks of blockDim.x floats, each thread
// copying its own element of each chunk.
extern "C" __global__ void pipeline_thread_sum(const float* in, float* out, int chunks) {
  constexpr int kStages = 3;
  extern __shared__ float buf[];  // kStages * blockDim.x
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int n = blockDim.x;
  const float* base = in + blockIdx.x * chunks * n;
  int fetched = 0;
  float acc = 0.0f;
  for (int c = 0; c < chunks; ++c) {
    for (; fetched < chunks && fetched < c + kStages; ++fetched) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[(fetched % kStages) * n + threadIdx.x], &base[fetched * n + threadIdx.x], sizeof(float), pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[(c % kStages) * n + threadIdx.x];
    pipe.consumer_release();
  }
  out[blockIdx.x * n + threadIdx.x] = acc;
}

// A block-scope pipeline (mbarriers in shared memory): the block copies `chunks` chunks of
// blockDim.x floats with cuda::memcpy_async(group, ...) and each thread sums a reversed element.
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

// cooperative_groups::memcpy_async of a block's slice, then reversed.
extern "C" __global__ void cg_copy_reverse(const float* in, float* out) {
  __shared__ __align__(16) float sh[256];
  auto block = cg::this_thread_block();
  cg::memcpy_async(block, sh, in + blockIdx.x * blockDim.x, sizeof(float) * blockDim.x);
  cg::wait(block);
  out[blockIdx.x * blockDim.x + threadIdx.x] = sh[blockDim.x - 1 - threadIdx.x];
}

// cuda::memcpy_async with a cuda::barrier and a 16-byte aligned size: nvcc 13 emits the bulk copy
// (cp.async.bulk ... mbarrier::complete_tx::bytes) with expect_tx on the barrier.
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

// --- mbarriers ----------------------------------------------------------------------------------

// Producer/consumer over a ring of 2 slots with raw mbarriers: warp 0 produces `rounds` values per
// lane into slot r % 2 after waiting on its "empty" barrier; warps 1..3 wait on "full", add the
// values up and arrive on "empty". out[w * 32 + lane] = sum for consumer warp w.
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
        // wait until the consumers emptied this slot (the phase of round r - 2 completed)
        asm volatile(
            "{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}\n" ::"r"(
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

// cuda::barrier: each thread writes, arrives, waits, reads its neighbour's value; twice (phases 0
// and 1), the second time with arrive_and_drop by odd threads after the wait.
extern "C" __global__ void cuda_barrier_exchange(int* out) {
  __shared__ int v[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  const int t = threadIdx.x, n = blockDim.x;
  if (t == 0) init(&bar, n);
  __syncthreads();
  v[t] = t * 3;
  bar.arrive_and_wait();
  const int a = v[(t + 1) % n];
  bar.arrive_and_wait();
  v[t] = a + 1;
  auto token = bar.arrive();
  bar.wait(std::move(token));
  out[t] = v[(t + n - 1) % n];
}

// A warp that waits for a phase nobody completes: blockDim.x threads arrive on a barrier that
// expects one more.
extern "C" __global__ void mbar_never_completes(int* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x + 1);
  __syncthreads();
  bar.arrive_and_wait();
  out[threadIdx.x] = 1;
}

// Warp 1 waits on an mbarrier that warp 0 would complete after a __syncthreads that warp 1 never
// reaches.
extern "C" __global__ void mbar_wait_vs_barrier(int* out) {
  __shared__ unsigned long long b;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 32;" ::"r"(smem(&b)) : "memory");
  __syncthreads();
  if (threadIdx.x < 32) {
    __syncthreads();
    asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(smem(&b)) : "memory");
  } else {
    asm volatile("{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared.b64 p, [%0], 0;\n @!p bra W;\n}\n" ::"r"(smem(&b))
                 : "memory");
  }
  out[threadIdx.x] = 1;
}

// An arrive on shared memory nobody initialized.
extern "C" __global__ void mbar_uninitialized(int* out) {
  __shared__ unsigned long long b;
  asm volatile("mbarrier.arrive.shared.b64 _, [%0];" ::"r"(smem(&b)) : "memory");
  out[threadIdx.x] = 1;
}

// More arrivals than the phase expects.
extern "C" __global__ void mbar_too_many_arrivals(int* out) {
  __shared__ unsigned long long b;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 4;" ::"r"(smem(&b)) : "memory");
  __syncthreads();
  asm volatile("mbarrier.arrive.noComplete.shared.b64 _, [%0], 1;" ::"r"(smem(&b)) : "memory");
  out[threadIdx.x] = 1;
}

// cuda::std::barrier (system scope: atomics and acquire loads, not mbarrier) in shared memory.
#include <cuda/std/barrier>
#include <new>
extern "C" __global__ void std_barrier_exchange(int* out, int missing) {
  using Barrier = cuda::std::barrier<>;
  __shared__ alignas(Barrier) unsigned char storage[sizeof(Barrier)];
  __shared__ int v[256];
  Barrier* bar = reinterpret_cast<Barrier*>(storage);
  if (threadIdx.x == 0) new (bar) Barrier(blockDim.x + missing);
  __syncthreads();
  v[threadIdx.x] = 5 * threadIdx.x;
  bar->arrive_and_wait();
  out[threadIdx.x] = v[(threadIdx.x + 1) % blockDim.x];
}

// cp.async.bulk from shared to global memory with bulk-group completion (PTX ISA 9.0,
// 9.7.9.25.4.1): 512 bytes of shared words i*3+1 copied to out + 16.
extern "C" __global__ void bulk_store(unsigned* out) {
  __shared__ __align__(16) unsigned s[128];
  for (int i = threadIdx.x; i < 128; i += blockDim.x) s[i] = i * 3 + 1;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 512;" ::"l"(out + 4),
                 "r"((unsigned)__cvta_generic_to_shared(s)) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}
