// Bulk reductions as programs write them (libcu++'s cuda::ptx functions), checked against a CPU
// reference: 96 blocks each reduce 256 u32 (add), 128 s32 (min) and 128 f64 (add) from shared
// memory into the same global arrays, then 16 blocks reduce 32x32 f32 boxes into a 64x64 tensor
// with cp.reduce.async.bulk.tensor (each box 4 times). Every value is an integer, so the sums are
// exact in any order. Prints one "ok" line per kernel.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda/ptx>
#include <cstdio>
#include <vector>

namespace ptx = cuda::ptx;

constexpr int kBlocks = 96, kN = 256;

__global__ void bulk_sums(unsigned* su, int* mn, double* sd) {
  __shared__ alignas(128) unsigned u[kN];
  __shared__ alignas(128) int m[kN / 2];
  __shared__ alignas(128) double d[kN / 2];
  const int b = blockIdx.x;
  for (int i = threadIdx.x; i < kN; i += blockDim.x) u[i] = b * 7u + i;
  for (int i = threadIdx.x; i < kN / 2; i += blockDim.x) {
    m[i] = i - b * 3;
    d[i] = b + i * 0.5;
  }
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, su, u, sizeof u);
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_min, mn, m, sizeof m);
    ptx::cp_reduce_async_bulk(ptx::space_global, ptx::space_shared, ptx::op_add, sd, d, sizeof d);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

__global__ void tensor_sums(const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) float box[32 * 32];
  for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x) box[i] = float(blockIdx.x + i);
  ptx::fence_proxy_async(ptx::space_shared);
  __syncthreads();
  if (threadIdx.x == 0) {
    const int c[2] = {int(blockIdx.x % 2) * 32, int(blockIdx.x / 2 % 2) * 32};
    ptx::cp_reduce_async_bulk_tensor(ptx::space_global, ptx::space_shared, ptx::op_add, &map, c, box);
    ptx::cp_async_bulk_commit_group();
    ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
  }
}

int main() {
  unsigned* su;
  int* mn;
  double* sd;
  float* t;
  cudaMalloc(&su, kN * 4);
  cudaMalloc(&mn, kN / 2 * 4);
  cudaMalloc(&sd, kN / 2 * 8);
  cudaMalloc(&t, 64 * 64 * 4);
  std::vector<unsigned> hu(kN, 5);
  std::vector<int> hm(kN / 2, 1000);
  std::vector<double> hd(kN / 2, 0.25);
  std::vector<float> ht(64 * 64, 1.0f);
  cudaMemcpy(su, hu.data(), kN * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(mn, hm.data(), kN / 2 * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(sd, hd.data(), kN / 2 * 8, cudaMemcpyHostToDevice);
  cudaMemcpy(t, ht.data(), 64 * 64 * 4, cudaMemcpyHostToDevice);
  bulk_sums<<<kBlocks, 64>>>(su, mn, sd);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(hu.data(), su, kN * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hm.data(), mn, kN / 2 * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hd.data(), sd, kN / 2 * 8, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < kN; ++i) {
    unsigned want = 5;
    for (int b = 0; b < kBlocks; ++b) want += b * 7u + i;
    wrong += hu[i] != want;
  }
  for (int i = 0; i < kN / 2; ++i) {
    int want = 1000;
    double dw = 0.25;
    for (int b = 0; b < kBlocks; ++b) {
      want = std::min(want, i - b * 3);
      dw += b + i * 0.5;
    }
    wrong += hm[i] != want;
    wrong += hd[i] != dw;
  }
  printf("bulk_sums %s (%d wrong, %s)\n", wrong == 0 && e == cudaSuccess ? "ok" : "FAILED", wrong, cudaGetErrorName(e));

  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q);
  auto encode = (PFN_cuTensorMapEncodeTiled_v12000)f;
  CUtensorMap map;
  cuuint64_t dims[2] = {64, 64}, strides[1] = {64 * 4};
  cuuint32_t box[2] = {32, 32}, es[2] = {1, 1};
  CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, t, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  tensor_sums<<<16, 128>>>(map);
  e = cudaDeviceSynchronize();
  cudaMemcpy(ht.data(), t, 64 * 64 * 4, cudaMemcpyDeviceToHost);
  wrong = 0;
  for (int y = 0; y < 64; ++y)
    for (int x = 0; x < 64; ++x) {
      float want = 1.0f;
      for (int b = 0; b < 16; ++b)
        if (b % 2 == x / 32 && b / 2 % 2 == y / 32) want += float(b + (y % 32) * 32 + x % 32);
      wrong += ht[y * 64 + x] != want;
    }
  printf("tensor_sums %s (%d wrong, encode %d, %s)\n", wrong == 0 && e == cudaSuccess && r == 0 ? "ok" : "FAILED", wrong,
         (int)r, cudaGetErrorName(e));
  return 0;
}
