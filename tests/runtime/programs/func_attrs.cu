// cudaFuncGetAttributes of kernels whose ptxas figures differ: registers, a local-memory stack
// frame (a run-time array index, spills), static shared memory, __constant__ data. Prints one CSV
// row per kernel. Run natively on an H200 (CUDA 13.0, driver 580; tests/hw/data/h200/
// func_attrs.csv) and under warpscope by tests/runtime/func_attributes_test.cpp.
#include <cstdio>
__constant__ float cbuf[64];
__constant__ float cunused[100];
__device__ float gvar[16];
__device__ __noinline__ float helper(float* a, int i) { float loc[16]; for (int k=0;k<16;++k) loc[k]=a[k]*k; return loc[i & 15]; }
__global__ void uses_const(float* out) { out[threadIdx.x] = cbuf[threadIdx.x & 63]; }
__global__ void no_const(float* out) { out[threadIdx.x] = 1.0f; }
__global__ void local_dynamic(float* buf, int start) {
  float a[6]; const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int i = 0; i < 6; ++i) a[i] = buf[tid] * (i + 1);
  float sum = 0.0f; for (int i = start; i < 6; ++i) sum += a[i]; buf[tid] = sum + gvar[0];
}
__global__ void calls(float* out, int i) { __shared__ float s[256]; s[threadIdx.x]=out[threadIdx.x]; __syncthreads(); out[threadIdx.x] = helper(s, i); }
__global__ void __launch_bounds__(1024, 1) spill(const float* in, float* out, int n) {
  float acc[192];
#pragma unroll
  for (int k = 0; k < 192; ++k) acc[k] = in[k];
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < 192; ++k) acc[k] = acc[k] * in[i] + acc[(k + 1) % 192];
  }
  float s = 0;
#pragma unroll
  for (int k = 0; k < 192; ++k) s += acc[k];
  out[threadIdx.x] = s;
}
template <class K> void show(const char* n, K k) {
  cudaFuncAttributes a; cudaError_t e = cudaFuncGetAttributes(&a, k);
  if (e != cudaSuccess) { std::printf("%s,error %s\n", n, cudaGetErrorName(e)); return; }
  std::printf("%s,%d,%zu,%zu,%zu,%d,%d,%d,%d,%d\n", n, a.numRegs, a.sharedSizeBytes, a.localSizeBytes,
              a.constSizeBytes, a.maxThreadsPerBlock, a.ptxVersion, a.binaryVersion, a.maxDynamicSharedSizeBytes, a.cacheModeCA);
}
int main() {
  std::printf("kernel,numRegs,sharedSizeBytes,localSizeBytes,constSizeBytes,maxThreadsPerBlock,ptxVersion,binaryVersion,maxDynamicSharedSizeBytes,cacheModeCA\n");
  show("uses_const", uses_const); show("no_const", no_const); show("local_dynamic", local_dynamic);
  show("calls", calls); show("spill", spill);
  return 0;
}
