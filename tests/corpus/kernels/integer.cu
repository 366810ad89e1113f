// Integer division and remainder, signed and unsigned, 32 and 64 bits, with run-time divisors
// (div/rem instructions) and with constant divisors (which nvcc turns into multiply-high and
// shift sequences). Division by zero and INT_MIN / -1 are never asked for.
// Checked by tests/corpus/integer_test.cpp.

#define DIVMOD(name, T)                                                                   \
  extern "C" __global__ void name(const T* a, const T* b, T* q, T* r, int n) {            \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                        \
    if (i < n) {                                                                          \
      q[i] = a[i] / b[i];                                                                 \
      r[i] = a[i] % b[i];                                                                 \
    }                                                                                     \
  }

DIVMOD(divmod_s32, int)
DIVMOD(divmod_u32, unsigned)
DIVMOD(divmod_s64, long long)
DIVMOD(divmod_u64, unsigned long long)

// out has 8 ints per element.
extern "C" __global__ void divmod_const(const int* a, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int x = a[i];
  unsigned ux = (unsigned)x;
  int* o = out + 8 * i;
  o[0] = x / 7;
  o[1] = x % 7;
  o[2] = x / -3;
  o[3] = x % -3;
  o[4] = x / 16;  // rounds toward zero, not an arithmetic shift
  o[5] = x % 16;
  o[6] = (int)(ux / 10u);
  o[7] = (int)(ux % 1000u);
}
