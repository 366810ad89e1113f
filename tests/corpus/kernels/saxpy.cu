// The five saxpy variants of seed 003 (global-memory lecture, examples 1-5), plus the
// "second branch reads a different array" form of example 3. The bodies follow the slides:
// `unsigned long` index and size, the product blockDim.x * blockIdx.x computed in 32 bits.
// Checked by tests/corpus/saxpy_test.cpp.

// Example 1: every thread loads y[i] and x[i] and stores y[i].
extern "C" __global__ void saxpy_plain(float* x, float* y, float a, unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N) y[i] = y[i] + a * x[i];
}

// Example 2: only even indices do the work (half of each warp idles).
extern "C" __global__ void saxpy_even(float* x, float* y, float a, unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N)
    if (i % 2 == 0) y[i] = y[i] + a * x[i];
}

// Example 3: if/else on parity; both branches read the same arrays.
extern "C" __global__ void saxpy_ifelse(float* x, float* y, float a, unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N) {
    if (i % 2 == 0)
      y[i] = y[i] + a * x[i];
    else
      y[i] = y[i] - a * x[i];
  }
}

// Example 3 with the second branch reading a different array (z), so the compiler cannot hoist
// one load out of both branches.
extern "C" __global__ void saxpy_ifelse_other(float* x, float* y, float* z, float a,
                                              unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N) {
    if (i % 2 == 0)
      y[i] = y[i] + a * x[i];
    else
      y[i] = y[i] - a * z[i];
  }
}

// Example 4: both values loaded to registers before the branch, one store after it.
extern "C" __global__ void saxpy_regs(float* x, float* y, float a, unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N) {
    float yy = y[i];
    float xx = x[i];
    if (i % 2 == 0)
      yy = yy + a * xx;
    else
      yy = yy - a * xx;
    y[i] = yy;
  }
}

// Example 5: the split at N/2; whole warps fall on one side except the one straddling N/2.
extern "C" __global__ void saxpy_half(float* x, float* y, float a, unsigned long N) {
  unsigned long i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < N / 2)
    y[i] = y[i] + a * x[i];
  else if (i < N)
    y[i] = y[i] - a * x[i];
}
