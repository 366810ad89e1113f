// Atomic operations on global and shared memory.
extern "C" __global__ void atomics(int* ic, unsigned* uc, float* fc, double* dc, unsigned long long* lc,
                                   int* order) {
  __shared__ int hist[8];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 8) hist[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&hist[threadIdx.x % 8], 1);
  atomicAdd(&ic[0], t);
  atomicMax(&ic[1], t * 7 % 1000);
  atomicMin(&ic[2], 1000 - t);
  atomicAnd(&ic[3], ~(1 << (t % 31)));
  atomicOr(&ic[4], 1 << (t % 31));
  atomicXor(&ic[5], t);
  atomicInc(&uc[0], 16u);
  atomicDec(&uc[1], 1000u);
  atomicAdd(&fc[0], 1.5f);
  atomicAdd(&dc[0], 0.25);
  atomicAdd(&lc[0], 3ull);
  // A CAS loop that builds a max in a custom way.
  int old = ic[6], assumed;
  do {
    assumed = old;
    old = atomicCAS(&ic[6], assumed, assumed > t ? assumed : t);
  } while (assumed != old);
  // The order in which lanes of one warp acquire a ticket (lane order within a warp).
  if (blockIdx.x == 0) order[threadIdx.x] = atomicAdd(&ic[7], 1);
  __syncthreads();
  if (threadIdx.x < 8) atomicAdd(&ic[8 + threadIdx.x], hist[threadIdx.x]);
  atomicExch(&ic[16], 12345);
}
