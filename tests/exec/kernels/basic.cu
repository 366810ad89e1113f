// Straight-line kernels: saxpy and integer / float arithmetic checked bit for bit on the host.
extern "C" __global__ void saxpy(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" __global__ void int_ops(const int* in, int* out) {
  int t = threadIdx.x;
  int a = in[t], b = in[t + 64];
  unsigned ua = (unsigned)a, ub = (unsigned)b;
  int* o = out + t * 16;
  o[0] = a + b;
  o[1] = a * b;
  o[2] = b != 0 ? a / b : 0;
  o[3] = b != 0 ? a % b : 0;
  o[4] = __mulhi(a, b);
  o[5] = (int)__umulhi(ua, ub);
  o[6] = __popc(ua);
  o[7] = __clz(a);
  o[8] = (int)__brev(ua);
  o[9] = __ffs(a);
  o[10] = (int)(ua >> (ub & 31)) ^ (a << (b & 31));
  o[11] = a >> (b & 31);
  o[12] = max(a, b) - min(a, b);
  o[13] = (int)__byte_perm(ua, ub, 0x5140);
  o[14] = (int)(((unsigned long long)ua * ub) >> 7);
  o[15] = abs(a) + __sad(a, b, 3u);
}

// One whole warp (32 threads) of round-to-nearest f32 operations, results as bits, for special
// inputs: NaN payloads, infinities, signed zeros, subnormals.
extern "C" __global__ void float_special(const float* in, unsigned* out) {
  int t = threadIdx.x;
  float a = in[t], b = in[t + 32], c = in[t + 64];
  unsigned* o = out + t * 8;
  o[0] = __float_as_uint(__fadd_rn(a, b));
  o[1] = __float_as_uint(__fsub_rn(a, b));
  o[2] = __float_as_uint(__fmul_rn(a, b));
  o[3] = __float_as_uint(__fdiv_rn(a, b));
  o[4] = __float_as_uint(__fmaf_rn(a, b, c));
  o[5] = __float_as_uint(__frcp_rn(a));
  o[6] = __float_as_uint(__fsqrt_rn(a));
  o[7] = __float_as_uint(rsqrtf(a));
}

extern "C" __global__ void float_ops(const float* in, float* out, const double* din, double* dout) {
  int t = threadIdx.x;
  float a = in[t], b = in[t + 64];
  float* o = out + t * 8;
  o[0] = a + b;
  o[1] = a * b;
  o[2] = a / b;
  o[3] = sqrtf(fabsf(a));
  o[4] = fmaf(a, b, 1.0f);
  o[5] = fminf(a, b);
  o[6] = fmaxf(a, b);
  o[7] = __fadd_rz(a, b);
  double x = din[t], y = din[t + 64];
  double* d = dout + t * 4;
  d[0] = x * y + x;
  d[1] = x / y;
  d[2] = sqrt(fabs(x));
  d[3] = fma(x, y, -1.0);
}

// examples/local_arrays.cu's kernel4: a private array read from a per-thread start (records_test:
// lane groupings).
extern "C" __global__ void per_thread_start(float* buf) {
  float a[6];
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int i = 0; i < 6; ++i) a[i] = buf[tid] * (i + 1);
  float sum = 0.0f;
  for (int i = tid % 4; i < 6; ++i) sum += a[i];
  buf[tid] = sum;
}
