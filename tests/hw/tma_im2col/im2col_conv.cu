// A 3x3 convolution (padding 1, stride 1) over an NHWC float tensor, fed by TMA im2col loads
// (issue 18): each block computes 32 consecutive output pixels x 8 output channels; for each of
// the 9 filter taps (r, s) one cp.async.bulk.tensor.4d...im2col load brings the 32 pixels' 16
// input channels into shared memory (pixel box corners -1/-1, im2col offsets (s, r)). Checked
// against a CPU reference. Prints "im2col_conv ok (0 wrong, no error)" when all outputs agree.
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <vector>
constexpr int N = 2, H = 6, W = 7, C = 16, K = 8, P = N * H * W, TILE = 32;
__global__ void conv(const __grid_constant__ CUtensorMap m, const float* filt, float* out) {
  __shared__ __align__(128) float tile[TILE][C];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned sa = (unsigned)__cvta_generic_to_shared(tile), ba = (unsigned)__cvta_generic_to_shared(&bar);
  const int p0 = blockIdx.x * TILE;
  const int n0 = p0 / (H * W), h0 = p0 / W % H, w0 = p0 % W;
  const int p = threadIdx.x % TILE, k = threadIdx.x / TILE;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(ba));
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  float acc = 0.f;
  for (int t = 0; t < 9; ++t) {
    const short r = t / 3, s = t % 3;
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(ba), "r"(TILE * C * 4) : "memory");
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
                   ::"r"(sa), "l"(&m), "r"(0), "r"(w0 - 1), "r"(h0 - 1), "r"(n0), "r"(ba), "h"(s), "h"(r) : "memory");
    }
    unsigned done = 0;
    while (!done)
      asm volatile("{.reg .pred q; mbarrier.try_wait.parity.shared.b64 q, [%1], %2; selp.u32 %0, 1, 0, q;}"
                   : "=r"(done) : "r"(ba), "r"(t & 1) : "memory");
    for (int c = 0; c < C; ++c) acc += tile[p][c] * filt[((r * 3 + s) * C + c) * K + k];
    __syncthreads();
  }
  if (p0 + p < P) out[(p0 + p) * K + k] = acc;
}
int main() {
  void* f = nullptr;
  cudaDriverEntryPointQueryResult q;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &f, 12000, cudaEnableDefault, &q) != cudaSuccess || !f) {
    printf("no entry point\n");
    return 1;
  }
  auto encode = (PFN_cuTensorMapEncodeIm2col_v12000)f;
  std::vector<float> x(P * C), w(9 * C * K), y(P * K), ref(P * K, 0.f);
  for (int i = 0; i < P * C; ++i) x[i] = (float)((i * 7) % 13) - 6.f;
  for (int i = 0; i < 9 * C * K; ++i) w[i] = (float)((i * 5) % 11) * 0.25f - 1.25f;
  for (int n = 0; n < N; ++n)
    for (int h = 0; h < H; ++h)
      for (int v = 0; v < W; ++v)
        for (int k = 0; k < K; ++k) {
          float a = 0.f;
          for (int t = 0; t < 9; ++t) {
            const int hh = h - 1 + t / 3, ww = v - 1 + t % 3;
            if (hh < 0 || hh >= H || ww < 0 || ww >= W) continue;
            for (int c = 0; c < C; ++c) a += x[((n * H + hh) * W + ww) * C + c] * w[(t * C + c) * K + k];
          }
          ref[((n * H + h) * W + v) * K + k] = a;
        }
  float *dx, *dw, *dy;
  cudaMalloc(&dx, x.size() * 4);
  cudaMalloc(&dw, w.size() * 4);
  cudaMalloc(&dy, y.size() * 4);
  cudaMemcpy(dx, x.data(), x.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dw, w.data(), w.size() * 4, cudaMemcpyHostToDevice);
  cudaMemset(dy, 0, y.size() * 4);
  cuuint64_t dims[4] = {C, W, H, N}, str[3] = {C * 4, W * C * 4, H * W * C * 4};
  cuuint32_t est[4] = {1, 1, 1, 1};
  int lower[2] = {-1, -1}, upper[2] = {-1, -1};
  alignas(64) CUtensorMap m;
  CUresult e = encode(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, dx, dims, str, lower, upper, C, TILE, est,
                      CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (e != CUDA_SUCCESS) {
    printf("encode %d\n", (int)e);
    return 1;
  }
  conv<<<(P + TILE - 1) / TILE, TILE * K>>>(m, dw, dy);
  cudaError_t err = cudaDeviceSynchronize();
  cudaMemcpy(y.data(), dy, y.size() * 4, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < P * K; ++i)
    if (std::fabs(y[i] - ref[i]) > 1e-3f * (1.f + std::fabs(ref[i]))) ++wrong;
  printf("im2col_conv %s (%d wrong, %s)\n", wrong == 0 && err == cudaSuccess ? "ok" : "FAILED", wrong,
         err == cudaSuccess ? "no error" : cudaGetErrorString(err));
  return wrong != 0 || err != cudaSuccess;
}
