// A __constant__ array read with a thread-dependent index.
__constant__ float coeffs[16] = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f,
                                 9.0f, 10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f, 16.0f};
__device__ int counter = 7;
__global__ void const_poly(const float* in, float* out) {
  int i = threadIdx.x;
  out[i] = coeffs[i & 15] * in[i] + coeffs[0] + (float)counter;
}
