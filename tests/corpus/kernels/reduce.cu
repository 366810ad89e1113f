// Block reductions of floats: a shared-memory tree (halving the active threads each step, with
// a __syncthreads per level) and a warp-shuffle reduction (__shfl_down_sync inside each warp,
// one shared slot per warp). Each block writes its partial sum to out[blockIdx.x]; threads first
// accumulate a grid-stride loop. Checked by tests/corpus/reduction_test.cpp.

#define REDUCE_BLOCK 256  // blockDim.x of reduce_tree (a power of two)

extern "C" __global__ void reduce_tree(const float* in, float* out, unsigned n) {
  __shared__ float sdata[REDUCE_BLOCK];
  unsigned tid = threadIdx.x;
  float sum = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// blockDim.x must be a multiple of 32 (at most 1024).
extern "C" __global__ void reduce_warp_shuffle(const float* in, float* out, unsigned n) {
  __shared__ float warp_sums[32];
  unsigned tid = threadIdx.x;
  float sum = 0.0f;
  for (unsigned i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) sum += in[i];
  sum = warp_sum(sum);
  unsigned lane = tid % 32, warp = tid / 32;
  if (lane == 0) warp_sums[warp] = sum;
  __syncthreads();
  if (warp == 0) {
    float v = lane < blockDim.x / 32 ? warp_sums[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
