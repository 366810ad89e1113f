// A __noinline__ device function called from a kernel.
__device__ __noinline__ float scale(float v, float s, int* count) {
  atomicAdd(count, 1);
  return v * s + 1.0f;
}
__global__ void call_func(float* data, int* count) {
  int i = threadIdx.x;
  data[i] = scale(data[i], 2.0f, count);
}
