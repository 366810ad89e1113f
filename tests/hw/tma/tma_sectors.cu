// How many global sectors does a TMA tile load read per box row? (issue 18; docs/exec.md "Known
// gap": the H100 read 5 sectors for 128-byte rows starting 32 bytes into a line in one probe, the
// distinct 4 in another.) One launch per configuration, each one CTA whose thread 0 TMA-loads one
// 2-D box of UINT32 elements (no swizzle) into shared memory and waits on its mbarrier; run under
// ncu for l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld and the L2's read sectors.
// Configurations (printed in launch order, `cfg K width W pitch P box BW x BH at X Y`):
//   tensor 256 x 64 words (1024-byte rows), boxes of 4, 8, 16, 32, 64 words x 8 rows at x = 0, 4,
//   ..., 28 words (0..112 bytes into a line), y = 0 and 3;
//   tensor 100 x 40 words (400-byte rows: row y starts 16 y bytes into a line), box 32 x 8 at x = 0,
//   4, 8 and y = 0, 2;
//   tensor 64 x 32 words (tests/hw/tma_more/peer_probe.cu's), box 32 x 8 at x = 0, 4, 8, 12, y = 2;
//   tensor 256 x 64 words, boxes of 96 and 128 words x 8 at x = 0, 4, 8, y = 0.
// Build: nvcc -arch=sm_90 -o tma_sectors tma_sectors.cu
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

__global__ void load_box(const __grid_constant__ CUtensorMap m, int x, int y, int bytes, unsigned* out) {
  __shared__ __align__(1024) unsigned s[4096];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(s));
  const unsigned ba = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(ba));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(ba), "r"(bytes) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];" ::"r"(sa),
        "l"(&m), "r"(x), "r"(y), "r"(ba)
        : "memory");
  }
  unsigned done = 0;
  while (!done)
    asm volatile("{.reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}"
                 : "=r"(done)
                 : "r"(ba)
                 : "memory");
  __syncthreads();
  if (threadIdx.x == 0) *out = s[0] + s[bytes / 4 - 1];
}

int main() {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q) != cudaSuccess || !f) {
    std::printf("no entry point\n");
    return 1;
  }
  auto encode = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f);
  unsigned *g = nullptr, *out = nullptr;
  cudaMalloc(&g, 1 << 20);
  cudaMalloc(&out, 4);
  std::vector<unsigned> h((1 << 20) / 4);
  for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<unsigned>(i);
  cudaMemcpy(g, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  struct Cfg { int w, hgt, bw, bh, x, y; };
  std::vector<Cfg> cfgs;
  for (int bw : {4, 8, 16, 32, 64})
    for (int y : {0, 3})
      for (int x = 0; x < 32; x += 4) cfgs.push_back({256, 64, bw, 8, x, y});
  for (int y : {0, 2})
    for (int x : {0, 4, 8}) cfgs.push_back({100, 40, 32, 8, x, y});
  // tests/hw/tma_more's peer probe's map (64 x 32 words, 256-byte rows), loaded locally.
  for (int x : {0, 4, 8, 12}) cfgs.push_back({64, 32, 32, 8, x, 2});
  // Rows longer than 256 bytes: 384 and 512 bytes at 0, 16, 32 bytes into a line.
  for (int bw : {96, 128})
    for (int x : {0, 4, 8}) cfgs.push_back({256, 64, bw, 8, x, 0});
  int k = 0;
  for (const Cfg& c : cfgs) {
    cuuint64_t dims[2] = {static_cast<cuuint64_t>(c.w), static_cast<cuuint64_t>(c.hgt)};
    cuuint64_t strides[1] = {static_cast<cuuint64_t>(c.w) * 4};
    cuuint32_t box[2] = {static_cast<cuuint32_t>(c.bw), static_cast<cuuint32_t>(c.bh)};
    cuuint32_t est[2] = {1, 1};
    CUtensorMap m;
    const CUresult e = encode(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, g, dims, strides, box, est,
                              CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                              CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    std::printf("cfg %d width %d pitch %d box %d x %d at %d %d encode %d", k++, c.w, c.w * 4, c.bw, c.bh, c.x, c.y,
                static_cast<int>(e));
    if (e != CUDA_SUCCESS) {
      std::printf(" skipped\n");
      continue;
    }
    load_box<<<1, 32>>>(m, c.x, c.y, c.bw * c.bh * 4, out);
    const cudaError_t r = cudaDeviceSynchronize();
    std::printf(" run %d\n", static_cast<int>(r));
    if (r != cudaSuccess) return 2;
  }
  return 0;
}
