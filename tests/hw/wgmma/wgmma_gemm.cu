// A wgmma GEMM (issue 18 corpus): C (M x N, f32, row-major) = A (M x K, f16, row-major) *
// B (K x N, f16, given as its transpose Bt, N x K row-major). One warpgroup per CTA computes a
// 64 x 64 tile with wgmma.mma_async.m64n64k16.f32.f16.f16, both operands K-major in shared
// memory with the 128-byte swizzle: each 64 x 64 f16 slab of K is 64 rows of 128 bytes, row r's
// 16-byte chunk c stored at r * 128 + ((c ^ (r % 8)) * 16), loaded with cp.async 16-byte copies
// (the TMA version comes with the TMA part of issue 18). The four k16 steps of a slab advance
// the descriptors' start address by 32 bytes; SBO = 1024 (8 rows of 128 bytes).
// The inputs are small multiples of 1/4, so every sum is exact and the check against the CPU
// reference is exact. Prints "wgmma_gemm: ok" or the first mismatches.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
#include <vector>

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

constexpr int M = 128, N = 128, K = 256, TILE = 64, SLAB = 64;

__device__ std::uint64_t desc_128b(std::uint32_t addr) {
  return ((addr >> 4) & 0x3fff) | (std::uint64_t{1} << 16) | (std::uint64_t{1024 >> 4} << 32) | (std::uint64_t{1} << 62);
}

__global__ void __launch_bounds__(128) wgmma_gemm(const __half* A, const __half* Bt, float* C) {
  __shared__ __align__(1024) __half sa[TILE * SLAB];
  __shared__ __align__(1024) __half sb[TILE * SLAB];
  const int t = threadIdx.x, m0 = blockIdx.y * TILE, n0 = blockIdx.x * TILE;
  float d[32];
  for (int i = 0; i < 32; ++i) d[i] = 0.0f;
  const std::uint32_t a_base = static_cast<std::uint32_t>(__cvta_generic_to_shared(sa));
  const std::uint32_t b_base = static_cast<std::uint32_t>(__cvta_generic_to_shared(sb));
  for (int k0 = 0; k0 < K; k0 += SLAB) {
    // 64 rows x 8 chunks of 16 bytes per operand: 512 chunks, 4 per thread.
    for (int c = t; c < TILE * 8; c += 128) {
      const int r = c / 8, ch = c % 8;
      const std::uint32_t off = r * 128 + ((ch ^ (r % 8)) * 16);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(a_base + off), "l"(A + (m0 + r) * K + k0 + ch * 8));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(b_base + off), "l"(Bt + (n0 + r) * K + k0 + ch * 8));
    }
    asm volatile("cp.async.wait_all;" ::: "memory");
    __syncthreads();
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int ks = 0; ks < SLAB / 16; ++ks) {
      const std::uint64_t da = desc_128b(a_base + ks * 32), db = desc_128b(b_base + ks * 32);
      asm volatile(
          "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
          "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 "
          "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, %32, %33, p, 1, 1, 0, 0;\n}"
          : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
            "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
            "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
            "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
          : "l"(da), "l"(db), "r"(1));
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads();
  }
  // Accumulator element i: row 16 * warp + g + 8 * ((i / 2) % 2), column 8 * (i / 4) + 2 (l % 4) + i % 2.
  const int w = t / 32, l = t % 32, g = l / 4;
  for (int i = 0; i < 32; ++i) {
    const int row = 16 * w + g + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
    C[(m0 + row) * N + n0 + col] = d[i];
  }
}

int main() {
  std::vector<__half> a(M * K), bt(N * K);
  std::vector<float> fa(M * K), fbt(N * K), c(M * N), ref(M * N, 0.0f);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      fa[i * K + k] = static_cast<float>((i * 7 + k * 3) % 9 - 4) * 0.25f;
      a[i * K + k] = __float2half(fa[i * K + k]);
    }
  for (int j = 0; j < N; ++j)
    for (int k = 0; k < K; ++k) {
      fbt[j * K + k] = static_cast<float>((j * 5 + k * 11) % 7 - 3) * 0.5f;
      bt[j * K + k] = __float2half(fbt[j * K + k]);
    }
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      for (int k = 0; k < K; ++k) ref[i * N + j] += fa[i * K + k] * fbt[j * K + k];
  __half *da, *db;
  float* dc;
  CHECK(cudaMalloc(&da, a.size() * sizeof(__half)));
  CHECK(cudaMalloc(&db, bt.size() * sizeof(__half)));
  CHECK(cudaMalloc(&dc, c.size() * sizeof(float)));
  CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(__half), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, bt.data(), bt.size() * sizeof(__half), cudaMemcpyHostToDevice));
  wgmma_gemm<<<dim3(N / TILE, M / TILE), 128>>>(da, db, dc);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < M * N; ++i)
    if (c[i] != ref[i] && ++bad <= 5) std::printf("mismatch at %d: %g, want %g\n", i, c[i], ref[i]);
  std::printf("wgmma_gemm: %s (%d of %d wrong)\n", bad ? "FAILED" : "ok", bad, M * N);
  return bad ? 1 : 0;
}
