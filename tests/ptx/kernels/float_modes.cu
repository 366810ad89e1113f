// Rounding-mode intrinsics, half2/bfloat162 arithmetic, packed 16-bit integer SIMD, 64-bit
// integer helpers and 128-bit multiplication.
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void float_modes(float* f, double* d, int* i, __half2* h, __nv_bfloat162* b, float4* f4, unsigned long long* u) {
  int t = threadIdx.x;
  float4 v = __ldg(f4 + t);
  f[t] = __fsqrt_rd(v.x) + __fadd_rz(v.y, v.z) + __fmul_ru(v.w, 2.f) + fminf(v.x, v.y) + fmaxf(v.z, v.w) + copysignf(v.x, v.y)
       + (isnan(v.x) ? 1.f : 0.f) + (isinf(v.y) ? 2.f : 0.f) + __int2float_rz(t) + (float)__float2int_rn(v.x) + __frcp_rn(v.z) + __fdiv_rd(v.x, v.y) + fabsf(v.w) + __saturatef(v.x) + exp2f(v.x) + log2f(v.y) + __sinf(v.z) + __cosf(v.w) + truncf(v.x) + ceilf(v.y) + roundf(v.z) + rintf(v.w);
  d[t] = __dadd_rn(d[t], 1.0) + __dsqrt_rz(d[t]) + __drcp_rn(d[t]) + (double)__double2float_rd(d[t]) + fmin(d[t], 2.0) + (double)__double2ll_rz(d[t]) + __ll2double_rn(u[t]) + __shfl_sync(0xffffffffu, d[t], 3) + trunc(d[t]) + fabs(d[t]) + __hiloint2double(t, t+1);
  __half2 hv = h[t];
  hv = __hfma2(hv, hv, __hadd2(hv, hv));
  hv = __hmax2(hv, __hneg2(hv));
  hv = __hmul2_sat(hv, h2exp(hv));
  __half hh = __hmax_nan(__low2half(hv), __habs(__high2half(hv)));
  h[t] = __halves2half2(hh, __float2half_rz(f[t]));
  __nv_bfloat162 bv = b[t];
  bv = __hfma2(bv, bv, bv);
  b[t] = __hmax2(bv, __float22bfloat162_rn(make_float2(f[t], 1.f)));
  unsigned long long x = u[t];
  u[t] = __umul64hi(x, x) + __popcll(x) + __clzll(x) + __ffsll(x) + __brevll(x) + (x >> (t & 63)) + (unsigned long long)((__int128)x * (__int128)x >> 64) + atomicMax(u + 1, x) + atomicCAS(u + 2, x, 3ull) + __funnelshift_r(t, (int)x, 5);
  i[t] = __vadd2(t, i[t]) + __vcmpgeu4(t, i[t]) + __hadd(t, i[t]) + __rhadd(t, i[t]) + __uhadd(t, i[t]) + __vsub4(t,i[t]);
}
