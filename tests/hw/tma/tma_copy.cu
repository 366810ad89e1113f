// A TMA tile copy written with libcu++'s TMA functions (what CUDA programs use), checked against a
// CPU reference: each block loads a 32x32 float tile of `in` with cp.async.bulk.tensor (no swizzle,
// then 128-byte swizzle), adds 1 to every element in shared memory (addressing the swizzled layout
// itself), and stores the tile to `out` with a tensor store. Prints one "ok" line per mode.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda/barrier>
#include <cstdio>
#include <vector>

namespace cde = cuda::device::experimental;
using barrier = cuda::barrier<cuda::thread_scope_block>;

constexpr int kW = 256, kH = 96, kTile = 32;

template <int Swizzle128>
__global__ void tile_copy(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out) {
  __shared__ alignas(1024) float tile[kTile * kTile];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ barrier bar;
  const int x = blockIdx.x * kTile, y = blockIdx.y * kTile;
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x);
    cde::fence_proxy_async_shared_cta();
  }
  __syncthreads();
  barrier::arrival_token token;
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_global_to_shared(tile, &in, x, y, bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  for (int i = threadIdx.x; i < kTile * kTile; i += blockDim.x) {
    unsigned byte = i * 4;
    if (Swizzle128) byte ^= (byte >> 3) & 0x70;  // the 128-byte swizzle of the shared address
    tile[byte / 4] += 1.0f;
  }
  cde::fence_proxy_async_shared_cta();
  __syncthreads();
  if (threadIdx.x == 0) {
    cde::cp_async_bulk_tensor_2d_shared_to_global(&out, x, y, tile);
    cde::cp_async_bulk_commit_group();
    cde::cp_async_bulk_wait_group_read<0>();
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
  std::vector<float> h(kW * kH);
  for (int i = 0; i < kW * kH; ++i) h[i] = static_cast<float>(i % 1000) * 0.5f;
  float *din, *dout;
  cudaMalloc(&din, h.size() * 4);
  cudaMalloc(&dout, h.size() * 4);
  cudaMemcpy(din, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  int bad_modes = 0;
  for (int sw = 0; sw < 2; ++sw) {
    cudaMemset(dout, 0, h.size() * 4);
    CUtensorMap min, mout;
    cuuint64_t dims[2] = {kW, kH}, strides[1] = {kW * 4};
    cuuint32_t box[2] = {kTile, kTile}, estr[2] = {1, 1};
    const CUtensorMapSwizzle s = sw ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE;
    CUresult r1 = encode(&min, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, din, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, s,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    CUresult r2 = encode(&mout, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, dout, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, s,
                         CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (r1 || r2) {
      std::printf("encode failed %d %d\n", (int)r1, (int)r2);
      return 1;
    }
    dim3 grid(kW / kTile, kH / kTile);
    if (sw)
      tile_copy<1><<<grid, 128>>>(min, mout);
    else
      tile_copy<0><<<grid, 128>>>(min, mout);
    cudaError_t e = cudaDeviceSynchronize();
    std::vector<float> o(h.size());
    cudaMemcpy(o.data(), dout, o.size() * 4, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < kW * kH; ++i) bad += o[i] != h[i] + 1.0f;  // the CPU reference
    std::printf("tma_copy %s %s (%d wrong, %s)\n", sw ? "128B" : "none", bad == 0 && e == cudaSuccess ? "ok" : "FAILED", bad,
                cudaGetErrorString(e));
    bad_modes += bad != 0 || e != cudaSuccess;
  }
  return bad_modes;
}
