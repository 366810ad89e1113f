// Half-precision conversions: float -> half with round-to-nearest-even (__float2half) and
// round-toward-zero (__float2half_rz), half -> float (exact), and the round trip. Halves travel
// as their 16-bit patterns. Checked by tests/corpus/half_test.cpp.
#include <cuda_fp16.h>

extern "C" __global__ void half_from_float(const float* in, unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __half_as_ushort(__float2half(in[i]));
}

extern "C" __global__ void half_from_float_rz(const float* in, unsigned short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __half_as_ushort(__float2half_rz(in[i]));
}

extern "C" __global__ void half_to_float(const unsigned short* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __half2float(__ushort_as_half(in[i]));
}

extern "C" __global__ void half_round_trip(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __half2float(__float2half(in[i]));
}
