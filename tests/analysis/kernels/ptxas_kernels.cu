// Kernels whose ptxas -v figures tests/analysis/ptxas_test.cpp checks with the real ptxas.
// Compiled to PTX (nvcc -arch=sm_90 -ptx) at build time. Checked by hand with nvcc 13.0
// -Xptxas -v: local_dynamic 24 bytes stack frame, const_index 0, spill 432 bytes stack frame,
// 812 bytes spill stores (64 registers), calls 64 bytes stack frame and 1024 bytes smem, helper a
// .func with its own properties.

// A private array read from a start index known only at run time: local memory.
__global__ void local_dynamic(float* buf, int start) {
  float a[6];
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int i = 0; i < 6; ++i) a[i] = buf[tid] * (i + 1);
  float sum = 0.0f;
  for (int i = start; i < 6; ++i) sum += a[i];
  buf[tid] = sum;
}

// The same kind of array with constant indices only: registers, no stack frame.
__global__ void const_index(float* out) {
  float a[32];
#pragma unroll
  for (int k = 0; k < 32; ++k) a[k] = out[k * blockDim.x + threadIdx.x];
  out[threadIdx.x] = a[3] + a[17];
}

// 192 running sums live across a loop, with at most 64 registers (1024 threads, 1 block per SM
// on 64K registers): ptxas must spill.
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

// A .func ptxas keeps (noinline) and an entry that calls it, with static shared memory.
__device__ __noinline__ float helper(float* a, int i) {
  float loc[16];
  for (int k = 0; k < 16; ++k) loc[k] = a[k] * k;
  return loc[i & 15];
}

__global__ void calls(float* out, int i) {
  __shared__ float s[256];
  s[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = helper(s, i);
}
