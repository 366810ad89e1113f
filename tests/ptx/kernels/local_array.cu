// A per-thread array indexed with a value the compiler cannot resolve: it lives in local memory.
__global__ void local_array(const int* idx, int* out) {
  int a[32];
  int t = threadIdx.x;
  for (int k = 0; k < 32; ++k) a[k] = k * t;
  out[t] = a[idx[t] & 31];
}
