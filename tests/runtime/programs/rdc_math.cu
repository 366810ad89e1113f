// rdc_main.cu's second translation unit: __device__ functions other units call, and a kernel
// that reads a __constant__ of rdc_main.cu and a variable of rdc_data.cu.
extern __constant__ float coeff;  // rdc_main.cu
extern __device__ int counter;    // rdc_data.cu
extern __device__ float offset;   // rdc_data.cu

__device__ float scale_add(float x, float y) { return coeff * x + y; }
__device__ int bump(int i) { return i + counter; }

__global__ void math_kernel(float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = scale_add(static_cast<float>(i), offset);
}

void launch_math(float* out, int n) { math_kernel<<<(n + 63) / 64, 64>>>(out, n); }
