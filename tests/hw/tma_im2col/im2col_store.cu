// Ground truth for tensor stores and reductions in .im2col_no_offs mode (issue 18): one CTA writes
// an im2col box (8 pixels x 8 channels of UINT32, or 8 x 4) from shared memory to an NWC tensor of
// 8 channels x 16 pixels x 2 images whose pixel box is [0, 15] (corners 0). Shared row p holds
// 0x100 * (p + 1) + channel. The global tensor starts as 0xEEEEEEEE (stores) or its word index (the
// reduction); after the copy the whole tensor is printed.
// Usage: im2col_store CASE [VARIANT]
//   0 store at (c 0, w 2, n 0)     1 store at (0, 12, 0): the walk wraps into image 1 at w = 0
//   2 store at (0, 9, 1): the walk passes the last image    3 cp.reduce .add at (0, 12, 0)
//   4 store of 4 channels at (4, 3, 0)
// VARIANT (the map; default 0 as above): 1 lower corner -1; 2 the 128-byte
// swizzle; 3 a 4-D NHWC map (8 channels x 4 x 4 pixels x 1 image, corners 0) with CASE's (c, w)
// and h = n = 0; 4 an .im2col load of the map with lower corner -1 instead of a store
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void store(const __grid_constant__ CUtensorMap m, int kase, int c, int w, int n, int variant) {
  __shared__ __align__(1024) unsigned box[8 * 8];
  const int channels = kase == 4 ? 4 : 8;
  for (int i = threadIdx.x; i < 8 * channels; i += blockDim.x) box[i] = 0x100u * (i / channels + 1) + i % channels;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned sa = (unsigned)__cvta_generic_to_shared(box);
    if (variant == 3) {
      asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3, %4}], [%5];"
                   ::"l"(&m), "r"(c), "r"(w), "r"(0), "r"(0), "r"(sa) : "memory");
    } else if (variant == 4) {
      __shared__ __align__(8) unsigned long long bar;
      const unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);
      asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(ba));
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], 256;" ::"r"(ba) : "memory");
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4}], [%5], {%6};"
                   ::"r"(sa), "l"(&m), "r"(c), "r"(w), "r"(n), "r"(ba), "h"((unsigned short)0) : "memory");
      unsigned done = 0;
      while (!done)
        asm volatile("{.reg .pred p; mbarrier.try_wait.parity.shared.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}" : "=r"(done) : "r"(ba) : "memory");
    } else if (kase == 3)
      asm volatile("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.im2col_no_offs.bulk_group [%0, {%1, %2, %3}], [%4];"
                   ::"l"(&m), "r"(c), "r"(w), "r"(n), "r"(sa) : "memory");
    else
      asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%0, {%1, %2, %3}], [%4];"
                   ::"l"(&m), "r"(c), "r"(w), "r"(n), "r"(sa) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

int main(int argc, char** argv) {
  const int kase = argc > 1 ? atoi(argv[1]) : 0, variant = argc > 2 ? atoi(argv[2]) : 0;
  static const int at[5][3] = {{0, 2, 0}, {0, 12, 0}, {0, 9, 1}, {0, 12, 0}, {4, 3, 0}};
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &f, 12000, cudaEnableDefault, &q);
  auto encode = (PFN_cuTensorMapEncodeIm2col_v12000)f;
  unsigned* t;
  cudaMalloc(&t, 256 * 4);
  std::vector<unsigned> h(256);
  for (int i = 0; i < 256; ++i) h[i] = kase == 3 ? i : 0xEEEEEEEEu;
  cudaMemcpy(t, h.data(), 256 * 4, cudaMemcpyHostToDevice);
  CUtensorMap m;
  CUresult e;
  cuuint32_t es[4] = {1, 1, 1, 1};
  if (variant == 3) {
    cuuint64_t dims[4] = {8, 4, 4, 1}, str[3] = {32, 128, 512};
    int lo[2] = {0, 0}, up[2] = {0, 0};
    e = encode(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, t, dims, str, lo, up, 8, 8, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
               CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  } else {
    cuuint64_t dims[3] = {8, 16, 2}, str[2] = {32, 512};
    int lo[1] = {variant == 1 || variant == 4 ? -1 : 0}, up[1] = {0};
    e = encode(&m, CU_TENSOR_MAP_DATA_TYPE_UINT32, 3, t, dims, str, lo, up, kase == 4 ? 4 : 8, 8, es,
               CU_TENSOR_MAP_INTERLEAVE_NONE, variant == 2 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE,
               CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  }
  store<<<1, 32>>>(m, kase, at[kase][0], at[kase][1], at[kase][2], variant);
  const cudaError_t r = cudaDeviceSynchronize();
  printf("im2col store case %d variant %d encode %d run %d\n", kase, variant, (int)e, (int)r);
  cudaMemcpy(h.data(), t, 256 * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 256; ++i) printf("%x%c", h[i], i % 8 == 7 ? '\n' : ' ');
  return 0;
}
