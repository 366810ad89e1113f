// Dynamic (extern) shared memory, sized by the launch: a block-wise reversal, two arrays of
// different types carved from one dynamic buffer, and dynamic shared memory next to a static
// __shared__ array. Checked by tests/corpus/shared_memory_test.cpp.

// Reverses each block's blockDim.x-long segment of d in place. Needs blockDim.x floats.
extern "C" __global__ void dyn_shared_reverse(float* d) {
  extern __shared__ float s[];
  int base = blockIdx.x * blockDim.x;
  int t = threadIdx.x;
  s[t] = d[base + t];
  __syncthreads();
  d[base + t] = s[blockDim.x - 1 - t];
}

// Needs blockDim.x ints followed (8-byte aligned) by blockDim.x doubles.
// out[i] = in[i] + in[mirror] as int, and dout[i] = the mirror's value * 0.5 as double.
extern "C" __global__ void dyn_shared_two_arrays(const int* in, int* out, double* dout) {
  extern __shared__ unsigned char smem[];
  int* ints = reinterpret_cast<int*>(smem);
  size_t ints_bytes = (blockDim.x * sizeof(int) + 7) & ~size_t(7);
  double* doubles = reinterpret_cast<double*>(smem + ints_bytes);
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  ints[t] = in[g];
  doubles[t] = in[g] * 0.5;
  __syncthreads();
  int m = blockDim.x - 1 - t;
  out[g] = ints[t] + ints[m];
  dout[g] = doubles[m];
}

// A static 32-int array and a dynamic one of blockDim.x ints must not overlap.
// out[g] = in[g] + (sum over the block's warp's first lanes kept in the static array).
extern "C" __global__ void dyn_shared_mixed(const int* in, int* out) {
  __shared__ int per_warp[32];
  extern __shared__ int dyn[];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  dyn[t] = in[g];
  if (t % 32 == 0) per_warp[t / 32] = in[g] * 1000;
  __syncthreads();
  out[g] = dyn[blockDim.x - 1 - t] + per_warp[t / 32];
}
