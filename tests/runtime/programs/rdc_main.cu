// Relocatable device code (nvcc -rdc=true), three translation units: rdc_main.cu (this file),
// rdc_math.cu and rdc_data.cu. Kernels here call __device__ functions defined in rdc_math.cu and
// read variables defined in rdc_data.cu; rdc_math.cu's kernel reads a __constant__ defined here;
// the host writes and reads the variables through cudaMemcpyToSymbol/FromSymbol and
// cudaGetSymbolAddress from units that only declare them. Checked against a host computation.
#include <cstdio>

extern __device__ float scale_add(float x, float y);  // rdc_math.cu
extern __device__ int bump(int);                      // rdc_math.cu, reads counter (rdc_data.cu)
extern __device__ int counter;                        // rdc_data.cu
extern __device__ float table[8];                     // rdc_data.cu
__constant__ float coeff = 2.5f;                      // read by rdc_math.cu's kernel

__global__ void main_kernel(const float* x, float* y, int* bumped, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = scale_add(x[i], table[i % 8]);
    bumped[i] = bump(i);
  }
}

void launch_math(float* out, int n);  // rdc_math.cu
int data_check();                     // rdc_data.cu

int main() {
  const int n = 100;
  float hx[n], hy[n], hz[n];
  int hb[n];
  for (int i = 0; i < n; ++i) hx[i] = 0.5f * i;
  const float tab[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  cudaMemcpyToSymbol(table, tab, sizeof tab);
  const int start = 40;
  cudaMemcpyToSymbol(counter, &start, sizeof start);
  float *x, *y, *z;
  int* b;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMalloc(&z, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(int));
  cudaMemcpy(x, hx, sizeof hx, cudaMemcpyHostToDevice);
  main_kernel<<<(n + 31) / 32, 32>>>(x, y, b, n);
  launch_math(z, n);
  cudaMemcpy(hy, y, sizeof hy, cudaMemcpyDeviceToHost);
  cudaMemcpy(hz, z, sizeof hz, cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, b, sizeof hb, cudaMemcpyDeviceToHost);
  int* counter_addr = nullptr;
  const cudaError_t addr_err = cudaGetSymbolAddress(reinterpret_cast<void**>(&counter_addr), counter);
  int via_addr = 0;
  cudaMemcpy(&via_addr, counter_addr, sizeof via_addr, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    // scale_add(x, t) = coeff * x + t (rdc_math.cu); bump(i) = i + counter.
    if (hy[i] != 2.5f * hx[i] + tab[i % 8]) ++bad;
    if (hb[i] != i + start) ++bad;
    if (hz[i] != 2.5f * i + 3.0f) ++bad;  // math_kernel: coeff * i + offset (rdc_data.cu's 3)
  }
  const int data = data_check();
  const cudaError_t err = cudaGetLastError();
  const bool ok = bad == 0 && addr_err == cudaSuccess && via_addr == start && data == start && err == cudaSuccess;
  std::printf("rdc: y[3] %g z[3] %g bumped[3] %d counter %d/%d: %s\n", hy[3], hz[3], hb[3], via_addr, data,
              ok ? "OK" : "FAIL");
  return ok ? 0 : 1;
}
