// TMA tiles read back from shared memory (issue 18: the unswizzled-TMA advice). Each block loads a
// 32 x 32 float tile (box {32, 32}: rows of 128 bytes) with cp.async.bulk.tensor.2d, once with
// CU_TENSOR_MAP_SWIZZLE_NONE and once with CU_TENSOR_MAP_SWIZZLE_128B, then reads it by columns of
// 16-byte chunks: warp c (8 warps) reads chunk c of row r = lane (ld.shared.v4.f32), addressing
// the swizzled layout itself (chunk c of row r at chunk c ^ (r % 8)). Unswizzled, the 8 lanes of a
// quarter-warp phase read 8 rows 128 bytes apart, the same 4 banks: 8 wavefronts per phase, 32
// per instruction where 4 would do; swizzled, the 8 rows' chunks fall in 8 distinct bank groups:
// 4. Each thread writes the sum of its four floats (out[(tile * 8 + c) * 32 + r], coalesced);
// checked against a CPU reference. Prints one "ok" line per mode.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cstdint>
#include <cstdio>
#include <vector>

constexpr int kW = 128, kH = 64, kTile = 32;

template <int Swizzle128>
__global__ void __launch_bounds__(256) tma_banks(const __grid_constant__ CUtensorMap in, float* out) {
  __shared__ __align__(1024) float tile[kTile * kTile];
  __shared__ __align__(8) std::uint64_t bar;
  const std::uint32_t ts = static_cast<std::uint32_t>(__cvta_generic_to_shared(tile));
  const std::uint32_t ba = static_cast<std::uint32_t>(__cvta_generic_to_shared(&bar));
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(ba) : "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(ba), "r"(kTile * kTile * 4) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(ts), "l"(&in), "r"(static_cast<int>(blockIdx.x) * kTile), "r"(static_cast<int>(blockIdx.y) * kTile), "r"(ba)
                 : "memory");
  }
  std::uint32_t done = 0;
  while (!done)
    asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\nselp.u32 %0, 1, 0, p;\n}"
                 : "=r"(done) : "r"(ba) : "memory");
  const int c = threadIdx.x / 32, r = threadIdx.x % 32;
  const int chunk = Swizzle128 ? (c ^ (r % 8)) : c;
  const float4 v = *reinterpret_cast<const float4*>(&tile[r * kTile + chunk * 4]);
  const int t = blockIdx.y * gridDim.x + blockIdx.x;
  out[(t * 8 + c) * 32 + r] = v.x + v.y + v.z + v.w;
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
  const int tiles = (kW / kTile) * (kH / kTile), outs = tiles * 8 * 32;
  std::vector<float> ref(outs);
  for (int ty = 0; ty < kH / kTile; ++ty)
    for (int tx = 0; tx < kW / kTile; ++tx)
      for (int c = 0; c < 8; ++c)
        for (int r = 0; r < 32; ++r) {
          const float* p = &h[(ty * kTile + r) * kW + tx * kTile + c * 4];
          ref[((ty * (kW / kTile) + tx) * 8 + c) * 32 + r] = p[0] + p[1] + p[2] + p[3];
        }
  float *din, *dout;
  cudaMalloc(&din, h.size() * 4);
  cudaMalloc(&dout, outs * 4);
  cudaMemcpy(din, h.data(), h.size() * 4, cudaMemcpyHostToDevice);
  int bad_modes = 0;
  for (int sw = 0; sw < 2; ++sw) {
    cudaMemset(dout, 0, outs * 4);
    CUtensorMap m;
    const cuuint64_t dims[2] = {kW, kH}, strides[1] = {kW * 4};
    const cuuint32_t box[2] = {kTile, kTile}, estr[2] = {1, 1};
    const CUresult e0 = encode(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, din, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                               sw ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (e0 != CUDA_SUCCESS) {
      std::printf("encode failed %d\n", static_cast<int>(e0));
      return 1;
    }
    const dim3 grid(kW / kTile, kH / kTile);
    if (sw)
      tma_banks<1><<<grid, 256>>>(m, dout);
    else
      tma_banks<0><<<grid, 256>>>(m, dout);
    const cudaError_t e = cudaDeviceSynchronize();
    std::vector<float> o(outs);
    cudaMemcpy(o.data(), dout, outs * 4, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < outs; ++i) bad += o[i] != ref[i];
    std::printf("tma_banks %s %s (%d wrong, %s)\n", sw ? "128B" : "none", bad == 0 && e == cudaSuccess ? "ok" : "FAILED", bad,
                cudaGetErrorString(e));
    bad_modes += bad != 0 || e != cudaSuccess;
  }
  return bad_modes;
}
