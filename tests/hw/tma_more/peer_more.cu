// Ground truth for tensor loads into other CTAs that the peer probe (peer_probe.cu) leaves out
// (issue 18): a 5-D tile load with .multicast::cluster, and an .im2col load into a peer CTA and
// with .multicast::cluster. A cluster of 2 CTAs (64 threads each): every CTA fills its 1024-byte
// buffer with 0xEEEEEEEE, inits its mbarrier (count 1) and, when the case targets it, arrives
// with expect_tx(256); after cluster.sync CTA 0 issues the load; each targeted CTA waits on its own
// mbarrier (about 0.1 s at most), then the buffers are dumped with whether the wait completed.
// Global words hold their own index.
// Usage: peer_more CASE   (0: 5-D tile, multicast 0b11; 1: 3-D im2col into rank 1; 2: 3-D im2col,
// multicast 0b11)
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
namespace cg = cooperative_groups;

__device__ unsigned rank() { unsigned v; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v)); return v; }
__device__ unsigned remote(unsigned a, unsigned r) {
  unsigned d;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(r));
  return d;
}

__global__ void __cluster_dims__(2, 1, 1) more(const __grid_constant__ CUtensorMap m, int kase, unsigned* out) {
  __shared__ __align__(1024) unsigned buf[256];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned me = rank();
  const unsigned mask = kase == 1 ? 2u : 3u;
  for (int i = threadIdx.x; i < 256; i += blockDim.x) buf[i] = 0xEEEEEEEEu;
  const unsigned ba = (unsigned)__cvta_generic_to_shared(&bar), sa = (unsigned)__cvta_generic_to_shared(buf);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(ba));
    if (mask >> me & 1) asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 256;" ::"r"(ba) : "memory");
  }
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cg::this_cluster().sync();
  if (me == 0 && threadIdx.x == 0) {
    const unsigned short cm = (unsigned short)mask;
    const unsigned short off = 1;
    if (kase == 0) {
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster "
                   "[%0], [%1, {%2, %3, %4, %5, %6}], [%7], %8;"
                   ::"r"(sa), "l"(&m), "r"(0), "r"(2), "r"(1), "r"(0), "r"(0), "r"(ba), "h"(cm) : "memory");
    } else if (kase == 1) {
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes "
                   "[%0], [%1, {%2, %3, %4}], [%5], {%6};"
                   ::"r"(remote(sa, 1)), "l"(&m), "r"(0), "r"(2), "r"(1), "r"(remote(ba, 1)), "h"(off) : "memory");
    } else {
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes.multicast::cluster "
                   "[%0], [%1, {%2, %3, %4}], [%5], {%6}, %7;"
                   ::"r"(sa), "l"(&m), "r"(0), "r"(2), "r"(1), "r"(ba), "h"(off), "h"(cm) : "memory");
    }
  }
  unsigned done = 0;
  if (mask >> me & 1)
    for (long long t0 = clock64(); !done && clock64() - t0 < 200000000;)
      asm volatile("{.reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}" : "=r"(done) : "r"(ba) : "memory");
  cg::this_cluster().sync();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) out[me * 260 + i] = buf[i];
  if (threadIdx.x == 0) out[me * 260 + 256] = done;
}

int main(int argc, char** argv) {
  const int kase = argc > 1 ? atoi(argv[1]) : 0;
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  unsigned *src, *out;
  cudaMalloc(&src, 4096 * 4);
  cudaMalloc(&out, 2 * 260 * 4);
  std::vector<unsigned> h(4096);
  for (int i = 0; i < 4096; ++i) h[i] = i;
  cudaMemcpy(src, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(out, 0xff, 2 * 260 * 4);
  CUtensorMap m;
  CUresult e;
  cuuint32_t es[5] = {1, 1, 1, 1, 1};
  if (kase == 0) {
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q);
    auto encode = (PFN_cuTensorMapEncodeTiled_v12000)f;
    // 8 x 4 x 4 x 4 x 4 words; a box of 8 x 2 x 1 x 2 x 2 (256 bytes) at (0, 2, 1, 0, 0).
    cuuint64_t dims[5] = {8, 4, 4, 4, 4}, str[4] = {32, 128, 512, 2048};
    cuuint32_t box[5] = {8, 2, 1, 2, 2};
    e = encode(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 5, src, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  } else {
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &f, 12000, cudaEnableDefault, &q);
    auto encode = (PFN_cuTensorMapEncodeIm2col_v12000)f;
    // NWC: 8 channels x 16 pixels x 4 images of words; 8 pixels of 8 channels (256 bytes) from
    // (c 0, w 2, n 1) with offset 1, bounding box [-1, 16 - 1 + 0].
    cuuint64_t dims[3] = {8, 16, 4}, str[2] = {32, 512};
    int lo[1] = {-1}, up[1] = {0};
    e = encode(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 3, src, dims, str, lo, up, 8, 8, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  }
  more<<<2, 64>>>(m, kase, out);
  cudaError_t r = cudaDeviceSynchronize();
  printf("more case %d encode %d run %d\n", kase, (int)e, (int)r);
  std::vector<unsigned> o(2 * 260);
  cudaMemcpy(o.data(), out, o.size() * 4, cudaMemcpyDeviceToHost);
  for (int c = 0; c < 2; ++c) {
    printf("cta %d done %u\n", c, o[c * 260 + 256]);
    for (int i = 0; i < 256; ++i) printf("%x%c", o[c * 260 + i], i % 16 == 15 ? '\n' : ' ');
  }
  return 0;
}
