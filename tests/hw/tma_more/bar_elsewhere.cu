// Does a bulk copy into a peer CTA's shared memory complete on an mbarrier of another CTA than
// the destination's (issue 18)? A cluster of 2 CTAs (64 threads each): each CTA fills its
// 1024-byte buffer with 0xEEEEEEEE and inits its mbarrier (count 1); the CTA whose mbarrier the
// case names arrives on it with expect_tx(1024); after cluster.sync rank 0 copies 1024 bytes of
// global words (their own index) into rank 1's buffer, naming
//   case 0: rank 0's own mbarrier (the issuing CTA's, not the destination's)
//   case 1: rank 1's mbarrier (the destination's: the measured case, for comparison)
//   case 2: a tensor load (2-D, 32 x 8 words) into rank 1's buffer with rank 0's mbarrier
// Each CTA waits on its own mbarrier if the case expects on it (about 0.1 s at most), then both
// buffers are printed with whether each wait completed.
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

__global__ void __cluster_dims__(2, 1, 1) k(const __grid_constant__ CUtensorMap m, const unsigned* src, int kase, unsigned* out) {
  __shared__ __align__(1024) unsigned buf[256];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned me = rank();
  const unsigned bar_rank = kase == 1 ? 1 : 0;
  for (int i = threadIdx.x; i < 256; i += blockDim.x) buf[i] = 0xEEEEEEEEu;
  const unsigned ba = (unsigned)__cvta_generic_to_shared(&bar), sa = (unsigned)__cvta_generic_to_shared(buf);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(ba));
    if (me == bar_rank) asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 1024;" ::"r"(ba) : "memory");
  }
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cg::this_cluster().sync();
  if (me == 0 && threadIdx.x == 0) {
    const unsigned dst = remote(sa, 1), b = remote(ba, bar_rank);
    if (kase == 2)
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   ::"r"(dst), "l"(&m), "r"(0), "r"(0), "r"(b) : "memory");
    else
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 1024, [%2];"
                   ::"r"(dst), "l"(src), "r"(b) : "memory");
  }
  unsigned done = 0;
  if (me == bar_rank)
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
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q);
  auto encode = (PFN_cuTensorMapEncodeTiled_v12000)f;
  unsigned *src, *out;
  cudaMalloc(&src, 1024 * 4);
  cudaMalloc(&out, 2 * 260 * 4);
  std::vector<unsigned> h(1024);
  for (int i = 0; i < 1024; ++i) h[i] = i;
  cudaMemcpy(src, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(out, 0xff, 2 * 260 * 4);
  CUtensorMap m;
  cuuint64_t dims[2] = {32, 32}, str[1] = {32 * 4};
  cuuint32_t box[2] = {32, 8}, es[2] = {1, 1};
  encode(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 2, src, dims, str, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
         CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  k<<<2, 64>>>(m, src, kase, out);
  const cudaError_t r = cudaDeviceSynchronize();
  printf("bar case %d run %d\n", kase, (int)r);
  std::vector<unsigned> o(2 * 260);
  cudaMemcpy(o.data(), out, o.size() * 4, cudaMemcpyDeviceToHost);
  for (int c = 0; c < 2; ++c) {
    printf("cta %d done %u\n", c, o[c * 260 + 256]);
    for (int i = 0; i < 256; ++i) printf("%x%c", o[c * 260 + i], i % 16 == 15 ? '\n' : ' ');
  }
  return 0;
}
