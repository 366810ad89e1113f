// Atomics on global and shared memory.
__global__ void atomics(int* gi, unsigned* gu, float* gf, double* gd, unsigned long long* gl) {
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t < 32) s[t] = 0;
  __syncthreads();
  atomicAdd(&s[t % 32], 1);
  atomicMax(gi, t);
  atomicMin(gi + 1, t);
  atomicInc(gu, 100u);
  atomicDec(gu + 1, 100u);
  atomicAnd(gu + 2, 0xffu);
  atomicOr(gu + 3, 1u << (t % 32));
  atomicXor(gu + 4, t);
  atomicExch(gu + 5, t);
  atomicCAS(gi + 2, 0, t);
  atomicAdd(gf, 1.5f);
  atomicAdd(gd, 2.5);
  atomicAdd(gl, 3ull);
  unsigned old = atomicAdd(gu + 6, 1u);
  gu[7 + (t & 1)] = old;
  __syncthreads();
  if (t < 32) gi[8 + t] = s[t];
}
