// Conversions between integers, f16, bf16, f32 and f64.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void conv(const float* f, const double* d, int* oi, unsigned* ou, long long* oll,
                                float* of, unsigned short* oh, unsigned short* ob, float* ohf) {
  int t = threadIdx.x;
  float x = f[t];
  oi[t * 4 + 0] = (int)x;
  oi[t * 4 + 1] = __float2int_rn(x);
  oi[t * 4 + 2] = __float2int_rd(x);
  oi[t * 4 + 3] = __float2int_ru(x);
  ou[t] = (unsigned)x;
  oll[t] = (long long)d[t];
  of[t * 2 + 0] = (float)d[t];
  of[t * 2 + 1] = __double2float_rz(d[t]);
  __half h = __float2half_rn(x);
  oh[t] = __half_as_ushort(h);
  ob[t] = __bfloat16_as_ushort(__float2bfloat16_rn(x));
  ohf[t] = __half2float(__hadd(h, __float2half_rn(1.0f)));
}
