// Dynamically sized extern shared memory.
extern __shared__ float dyn[];
__global__ void dyn_shared(const float* in, float* out) {
  int t = threadIdx.x;
  dyn[t] = in[t];
  __syncthreads();
  out[t] = dyn[blockDim.x - 1 - t];
}
