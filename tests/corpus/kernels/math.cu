// Math library functions and intrinsics, one kernel each: y[i] = f(x[i]) (or f(x[i], z[i])).
// Compiled without --use_fast_math, so sqrtf and '/' are IEEE (-prec-sqrt=true and
// -prec-div=true are nvcc's defaults). The tests compare against a CPU reference within the
// maximum ulp errors of the CUDA C++ Programming Guide, chapter "Mathematical Functions".
// Checked by tests/corpus/math_test.cpp.

#define UNARY_F32(name, expr)                                                  \
  extern "C" __global__ void name(const float* x, float* y, int n) {           \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                             \
    if (i < n) y[i] = expr(x[i]);                                              \
  }

#define BINARY_F32(name, expr)                                                      \
  extern "C" __global__ void name(const float* x, const float* z, float* y, int n) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                  \
    if (i < n) y[i] = expr(x[i], z[i]);                                             \
  }

#define UNARY_F64(name, expr)                                                  \
  extern "C" __global__ void name(const double* x, double* y, int n) {         \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                             \
    if (i < n) y[i] = expr(x[i]);                                              \
  }

__device__ __forceinline__ float divide(float a, float b) { return a / b; }

UNARY_F32(math_sqrtf, sqrtf)
UNARY_F32(math_expf, expf)
UNARY_F32(math_logf, logf)
UNARY_F32(math_sinf, sinf)
UNARY_F32(math_cosf, cosf)
UNARY_F32(math_rsqrtf, rsqrtf)
BINARY_F32(math_powf, powf)
BINARY_F32(math_fdividef, __fdividef)
BINARY_F32(math_divf, divide)

// Exact operations: absolute value, minimum and maximum (NaN operands are ignored by fmin/fmax).
extern "C" __global__ void math_fabs_fminmax(const float* a, const float* b, float* abs_out,
                                             float* min_out, float* max_out, double* dabs_out,
                                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  abs_out[i] = fabsf(a[i]);
  min_out[i] = fminf(a[i], b[i]);
  max_out[i] = fmaxf(a[i], b[i]);
  dabs_out[i] = fabs((double)a[i] * 3.0);  // fabs on a double (the product is exact)
}

UNARY_F64(math_sqrt_f64, sqrt)
UNARY_F64(math_exp_f64, exp)
UNARY_F64(math_log_f64, log)
UNARY_F64(math_sin_f64, sin)
