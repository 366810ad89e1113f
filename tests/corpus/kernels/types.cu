// Element types of 1, 2, 8 and 16 bytes: plain copies (one load and one store of each width)
// and arithmetic that depends on the type (wrap-around, sign extension, 64-bit products,
// vector components). One thread per element; n elements.
// Checked by tests/corpus/types_test.cpp.

// --- copies -------------------------------------------------------------------------------
extern "C" __global__ void copy_i8(const signed char* in, signed char* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

extern "C" __global__ void copy_i16(const short* in, short* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

extern "C" __global__ void copy_f64(const double* in, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

extern "C" __global__ void copy_int4(const int4* in, int4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

// --- 1 byte -------------------------------------------------------------------------------
// sum wraps modulo 256 when stored; the product is taken after sign extension to int;
// umax compares the same bytes as unsigned.
extern "C" __global__ void char_ops(const signed char* a, const signed char* b, signed char* sum,
                                    int* product, unsigned char* umax, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  signed char x = a[i], y = b[i];
  sum[i] = (signed char)(x + y);
  product[i] = (int)x * (int)y;
  unsigned char ux = (unsigned char)x, uy = (unsigned char)y;
  umax[i] = ux > uy ? ux : uy;
}

// --- 2 bytes ------------------------------------------------------------------------------
extern "C" __global__ void short_ops(const short* a, const short* b, short* diff, int* product,
                                     short* shifted, unsigned short* ushifted, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  short x = a[i], y = b[i];
  diff[i] = (short)(x - y);
  product[i] = (int)x * (int)y;
  shifted[i] = (short)(x >> 3);                            // arithmetic shift
  ushifted[i] = (unsigned short)((unsigned short)x >> 3);  // logical shift
}

// --- 8 bytes ------------------------------------------------------------------------------
// Each result is stored separately, so no multiply-add can be contracted: IEEE results.
extern "C" __global__ void double_ops(const double* x, const double* y, double* sum,
                                      double* product, double* quotient, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double a = x[i], b = y[i];
  sum[i] = a + b;
  product[i] = a * b;
  quotient[i] = a / b;
}

// Arithmetic on unsigned values, so that wrap-around is defined in C++ as it is in PTX.
extern "C" __global__ void longlong_ops(const long long* a, const long long* b,
                                        unsigned long long* sum, unsigned long long* product,
                                        unsigned long long* high, long long* shifted, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned long long x = (unsigned long long)a[i], y = (unsigned long long)b[i];
  sum[i] = x + y;
  product[i] = x * y;
  high[i] = __umul64hi(x, y);
  shifted[i] = a[i] >> 13;  // arithmetic shift of a signed 64-bit value
}

// --- 16 bytes -----------------------------------------------------------------------------
extern "C" __global__ void float4_axpy(const float4* x, float4* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float4 xv = x[i], yv = y[i];
  yv.x += a * xv.x;
  yv.y += a * xv.y;
  yv.z += a * xv.z;
  yv.w += a * xv.w;
  y[i] = yv;
}

extern "C" __global__ void int4_ops(const int4* a, const int4* b, int4* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int4 x = a[i], y = b[i];
  int4 r;
  r.x = x.x + y.w;
  r.y = x.y - y.z;
  r.z = (int)((unsigned)x.z * (unsigned)y.y);
  r.w = x.w ^ y.x;
  out[i] = r;
}
