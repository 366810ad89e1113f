// Kernels that fault, and division by zero (which does not).
#include <cassert>

extern "C" __global__ void oob_write(int* p, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  p[t + n] = t;
}

extern "C" __global__ void misaligned_read(const char* p, int* out) {
  out[threadIdx.x] = *reinterpret_cast<const int*>(p + 4 * threadIdx.x + 2);
}

extern "C" __global__ void misaligned_double(double* p, int k) {
  if (threadIdx.x == 3) *reinterpret_cast<double*>(reinterpret_cast<char*>(p) + 4 * k) = 1.0;
}

extern "C" __global__ void shared_oob(int* out, int idx) {
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = s[idx + threadIdx.x];
}

extern "C" __global__ void null_store(int* p) { p[threadIdx.x] = 1; }

extern "C" __global__ void trapper(int* out) {
  out[threadIdx.x] = 1;
  if (blockIdx.x == 1 && threadIdx.x == 37) __trap();
  out[threadIdx.x] = 2;
}

extern "C" __global__ void asserter(int* out) {
  assert(threadIdx.x != 5);
  out[threadIdx.x] = 3;
}

__global__ void mangled_oob(float* p, int n) { p[n + threadIdx.x] = 1.0f; }

extern "C" __global__ void div_zero(const int* a, const int* b, int* q, int* r, const unsigned* ua,
                                    const unsigned* ub, unsigned* uq, unsigned* ur) {
  int t = threadIdx.x;
  q[t] = a[t] / b[t];
  r[t] = a[t] % b[t];
  uq[t] = ua[t] / ub[t];
  ur[t] = ua[t] % ub[t];
}

// A per-thread array indexed dynamically lives in local memory.
extern "C" __global__ void local_oob(int* out, int idx) {
  int a[8];
  for (int i = 0; i < 8; ++i) a[i] = out[i] + threadIdx.x;
  out[threadIdx.x] = a[idx];
}
