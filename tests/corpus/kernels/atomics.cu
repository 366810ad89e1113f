// Atomics: a float maximum built on atomicCAS (the classic compare-and-swap loop), the integer
// read-modify-write family whose final values do not depend on the order of the threads, and
// atomicAdd "tickets" whose returned old values must be a permutation.
// Checked by tests/corpus/atomics_test.cpp.

__device__ float atomic_max_float(float* address, float value) {
  int* address_as_int = reinterpret_cast<int*>(address);
  int old = *address_as_int, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    old = atomicCAS(address_as_int, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

// result[0] must start at -infinity (or any value below the inputs).
extern "C" __global__ void atomic_max_f32(const float* in, float* result, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomic_max_float(result, in[i]);
}

// Layout of `ints` (12 ints, zeroed except [2]= INT_MAX, [6] = -1):
//   [0] add  [1] sub  [2] min  [3] max  [4] or  [5] xor  [6] and  [7] inc(wrap 99)
//   [8] dec(wrap 999)  [9] add of +-1 by parity  [10..11] unused
// wide[0]: 64-bit add; fsum[0]: float add of small integers (exact); dsum[0]: double add.
extern "C" __global__ void atomic_ops(const int* in, int* ints, unsigned long long* wide,
                                      float* fsum, double* dsum, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  atomicAdd(&ints[0], v);
  atomicSub(&ints[1], v);
  atomicMin(&ints[2], v);
  atomicMax(&ints[3], v);
  atomicOr(&ints[4], 1 << (i % 31));
  atomicXor(&ints[5], v);
  atomicAnd(&ints[6], ~(1 << (i % 29)));
  atomicInc(reinterpret_cast<unsigned*>(&ints[7]), 99u);
  atomicDec(reinterpret_cast<unsigned*>(&ints[8]), 999u);
  atomicAdd(&ints[9], (i & 1) ? 1 : -1);
  atomicAdd(&wide[0], (unsigned long long)v * 4294967296ull + 1ull);
  atomicAdd(&fsum[0], (float)(v % 1000));
  atomicAdd(&dsum[0], (double)v * 0.25);
}

// Every thread takes a ticket from a shared counter and one from a global counter.
extern "C" __global__ void atomic_tickets(unsigned* global_counter, unsigned* global_ticket,
                                          unsigned* block_ticket) {
  __shared__ unsigned counter;
  if (threadIdx.x == 0) counter = 0;
  __syncthreads();
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  block_ticket[g] = atomicAdd(&counter, 1u);
  global_ticket[g] = atomicAdd(global_counter, 1u);
}
