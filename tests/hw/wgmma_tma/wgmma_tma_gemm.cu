// A wgmma GEMM with TMA loads (issue 18 corpus): C (M x N, f32, row-major) = A (M x K, f16,
// row-major) * B (K x N, f16, given as its transpose Bt, N x K row-major). One warpgroup per CTA
// computes a 64 x 64 tile with wgmma.mma_async.m64n64k16.f32.f16.f16. Per 64-wide slab of K,
// thread 0 arms an mbarrier with expect_tx (two boxes of 64 x 64 f16 = 16384 bytes) and issues two
// cp.async.bulk.tensor.2d loads whose tensor maps (cuTensorMapEncodeTiled, FLOAT16, box {64, 64})
// use the 128-byte swizzle: box row r lands at r * 128 with its 16-byte chunk c at chunk
// c ^ (r % 8) (the tiles are 1024-byte aligned), which is the layout the K-major wgmma descriptors
// with the 128-byte swizzle read (SBO = 1024: 8 rows of 128 bytes; the four k16 steps of a slab
// advance the start address by 32 bytes). All threads wait on the barrier's phase parity.
// The inputs are small multiples of 1/4, so every sum is exact and the check against the CPU
// reference is exact. Prints "wgmma_tma_gemm: ok" or the first mismatches.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_fp16.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
constexpr unsigned kSlabBytes = 2u * TILE * SLAB * sizeof(__half);

__device__ std::uint64_t desc_128b(std::uint32_t addr) {
  return ((addr >> 4) & 0x3fff) | (std::uint64_t{1} << 16) | (std::uint64_t{1024 >> 4} << 32) | (std::uint64_t{1} << 62);
}

__global__ void __launch_bounds__(128) wgmma_tma_gemm(const __grid_constant__ CUtensorMap ta, const __grid_constant__ CUtensorMap tb, float* C) {
  __shared__ __align__(1024) __half sa[TILE * SLAB];
  __shared__ __align__(1024) __half sb[TILE * SLAB];
  __shared__ __align__(8) std::uint64_t bar;
  const int t = threadIdx.x, m0 = blockIdx.y * TILE, n0 = blockIdx.x * TILE;
  float d[32];
  for (int i = 0; i < 32; ++i) d[i] = 0.0f;
  const std::uint32_t a_base = static_cast<std::uint32_t>(__cvta_generic_to_shared(sa));
  const std::uint32_t b_base = static_cast<std::uint32_t>(__cvta_generic_to_shared(sb));
  const std::uint32_t bar_a = static_cast<std::uint32_t>(__cvta_generic_to_shared(&bar));
  if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_a) : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  for (int k0 = 0, phase = 0; k0 < K; k0 += SLAB, phase ^= 1) {
    if (t == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_a), "r"(kSlabBytes) : "memory");
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   ::"r"(a_base), "l"(&ta), "r"(k0), "r"(m0), "r"(bar_a) : "memory");
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   ::"r"(b_base), "l"(&tb), "r"(k0), "r"(n0), "r"(bar_a) : "memory");
    }
    std::uint32_t done = 0;
    while (!done)
      asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\nselp.u32 %0, 1, 0, p;\n}"
                   : "=r"(done) : "r"(bar_a), "r"(phase) : "memory");
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
    __syncthreads();  // every warp's wgmma has read the tiles before the next slab overwrites them
  }
  // Accumulator element i: row 16 * warp + g + 8 * ((i / 2) % 2), column 8 * (i / 4) + 2 (l % 4) + i % 2.
  const int w = t / 32, l = t % 32, g = l / 4;
  for (int i = 0; i < 32; ++i) {
    const int row = 16 * w + g + 8 * ((i / 2) % 2), col = 8 * (i / 4) + 2 * (l % 4) + i % 2;
    C[(m0 + row) * N + n0 + col] = d[i];
  }
}

int main() {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000, cudaEnableDefault, &q) != cudaSuccess || !fn) {
    std::printf("no cuTensorMapEncodeTiled\n");
    return 1;
  }
  auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(fn);
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
  CUtensorMap ta, tb;
  const cuuint64_t dims_a[2] = {K, M}, dims_b[2] = {K, N}, strides[1] = {K * sizeof(__half)};
  const cuuint32_t box[2] = {SLAB, TILE}, estr[2] = {1, 1};
  const CUresult ra = encode(&ta, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, da, dims_a, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                             CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  const CUresult rb = encode(&tb, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, db, dims_b, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                             CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (ra != CUDA_SUCCESS || rb != CUDA_SUCCESS) {
    std::printf("encode failed %d %d\n", static_cast<int>(ra), static_cast<int>(rb));
    return 1;
  }
  wgmma_tma_gemm<<<dim3(N / TILE, M / TILE), 128>>>(ta, tb, dc);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < M * N; ++i)
    if (c[i] != ref[i] && ++bad <= 5) std::printf("mismatch at %d: %g, want %g\n", i, c[i], ref[i]);
  std::printf("wgmma_tma_gemm: %s (%d of %d wrong)\n", bad ? "FAILED" : "ok", bad, M * N);
  return bad ? 1 : 0;
}
