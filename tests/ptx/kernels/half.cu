#include <cuda_fp16.h>
#include <cuda_bf16.h>
// half and bfloat16 conversions and arithmetic.
__global__ void half_conv(const float* in, __half* h, __nv_bfloat16* b, float* out) {
  int i = threadIdx.x;
  __half hv = __float2half(in[i]);
  __nv_bfloat16 bv = __float2bfloat16(in[i]);
  __half2 h2 = __floats2half2_rn(in[i], 2.0f);
  h[i] = __hadd(hv, __low2half(h2));
  b[i] = bv;
  out[i] = __half2float(hv) + __bfloat162float(bv) + __high2float(h2);
}
