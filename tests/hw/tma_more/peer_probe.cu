// Ground truth for bulk copies into a peer CTA's shared memory and .multicast::cluster (issue 18,
// not yet modelled by warpscope). A cluster of 4 CTAs (64 threads each): every CTA fills its
// 1024-byte buffer with 0xEEEEEEEE, inits its mbarrier (count 1) and, when the case targets it,
// arrives with expect_tx(1024); after cluster.sync CTA 0 issues the copy; each CTA waits on its
// own mbarrier (about 0.1 s at most), then dumps its buffer, whether its wait completed and its
// mbarrier word. Global source words hold their own index (+ 0x10000 * row for the tensor).
// Usage: peer_probe CASE  (0 plain to rank 1, 1 tensor to rank 2, 2 plain multicast mask 0b1011,
// 3 tensor multicast mask 0b0110, 4 plain to rank 0 via shared::cluster of its own)
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
namespace cg = cooperative_groups;

__device__ unsigned rank() { unsigned v; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v)); return v; }
__device__ unsigned remote(const void* p, unsigned r) {
  unsigned c = (unsigned)__cvta_generic_to_shared(p), d;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(c), "r"(r));
  return d;
}

__global__ void __cluster_dims__(4, 1, 1) peer(const __grid_constant__ CUtensorMap m, const unsigned* src, int kase, unsigned* out) {
  __shared__ __align__(1024) unsigned buf[256];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned me = rank();
  const unsigned mask = kase == 0 ? 2u : kase == 1 ? 4u : kase == 2 ? 0xbu : kase == 3 ? 0x6u : 1u;
  for (int i = threadIdx.x; i < 256; i += blockDim.x) buf[i] = 0xEEEEEEEEu;
  const unsigned ba = (unsigned)__cvta_generic_to_shared(&bar), sa = (unsigned)__cvta_generic_to_shared(buf);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(ba));
    if (mask >> me & 1) asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 1024;" ::"r"(ba) : "memory");
  }
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cg::this_cluster().sync();
  if (me == 0 && threadIdx.x == 0) {
    const unsigned short cm = (unsigned short)mask;
    if (kase == 0 || kase == 4) {
      const unsigned r = kase == 0 ? 1 : 0;
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                   ::"r"(remote(buf, r)), "l"(src), "r"(remote(&bar, r)) : "memory");
    } else if (kase == 1) {
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   ::"r"(remote(buf, 2)), "l"(&m), "r"(8), "r"(2), "r"(remote(&bar, 2)) : "memory");
    } else if (kase == 2) {
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], 1024, [%2], %3;"
                   ::"r"(sa), "l"(src), "r"(ba), "h"(cm) : "memory");
    } else {
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;"
                   ::"r"(sa), "l"(&m), "r"(8), "r"(2), "r"(ba), "h"(cm) : "memory");
    }
  }
  unsigned done = 0;
  if (mask >> me & 1)
    for (long long t0 = clock64(); !done && clock64() - t0 < 200000000;)
      asm volatile("{.reg .pred p; mbarrier.test_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}" : "=r"(done) : "r"(ba) : "memory");
  cg::this_cluster().sync();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) out[me * 260 + i] = buf[i];
  if (threadIdx.x == 0) {
    out[me * 260 + 256] = done;
    out[me * 260 + 257] = (unsigned)bar;
    out[me * 260 + 258] = (unsigned)(bar >> 32);
  }
}

int main(int argc, char** argv) {
  const int kase = argc > 1 ? atoi(argv[1]) : 0;
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q);
  auto encode = (PFN_cuTensorMapEncodeTiled_v12000)f;
  unsigned *src, *out;
  cudaMalloc(&src, 64 * 32 * 4);
  cudaMalloc(&out, 4 * 260 * 4);
  std::vector<unsigned> h(64 * 32);
  for (int i = 0; i < 64 * 32; ++i) h[i] = kase == 1 || kase == 3 ? (i % 64) + 0x10000u * (i / 64) : i;
  cudaMemcpy(src, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(out, 0xff, 4 * 260 * 4);
  CUtensorMap m;
  cuuint64_t dims[2] = {64, 32}, str[1] = {64 * 4};
  cuuint32_t box[2] = {32, 8}, es[2] = {1, 1};
  CUresult e = encode(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, src, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  peer<<<4, 64>>>(m, src, kase, out);
  cudaError_t r = cudaDeviceSynchronize();
  printf("peer case %d encode %d run %d\n", kase, (int)e, (int)r);
  std::vector<unsigned> o(4 * 260);
  cudaMemcpy(o.data(), out, o.size() * 4, cudaMemcpyDeviceToHost);
  for (int c = 0; c < 4; ++c) {
    printf("cta %d done %u mbarrier %08x%08x\n", c, o[c * 260 + 256], o[c * 260 + 258], o[c * 260 + 257]);
    for (int i = 0; i < 256; ++i) printf("%x%c", o[c * 260 + i], i % 16 == 15 ? '\n' : ' ');
  }
  return 0;
}
