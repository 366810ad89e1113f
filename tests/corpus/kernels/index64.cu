// 64-bit index arithmetic on modest arrays: `long long` products that exceed 2^32, their
// remainders, negative indices from a pointer into the middle of an array, and pointers
// formed from 64-bit offsets far outside the allocation that come back inside it before use.
// Checked by tests/corpus/index64_test.cpp.

// big = t * stride (t the global thread id, stride ~3e9: beyond 32 bits);
// j = big mod n, and the same for -big (made non-negative); both index `in`.
extern "C" __global__ void index64_math(const float* in, long long* big_out, long long* j_out,
                                        float* val_out, float* neg_val_out, long long stride,
                                        long long n, int count) {
  long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  long long big = t * stride;
  long long j = big % n;
  long long k = ((-big) % n + n) % n;
  big_out[t] = big;
  j_out[t] = j;
  val_out[t] = in[j];
  neg_val_out[t] = in[k];
}

// `middle` points inside an array; each thread reads middle[t - back] (negative for t < back).
// Then it forms p = base + far[t] (far from the allocation) and p - (far[t] - t), which is
// base + t again, and reads through that.
extern "C" __global__ void index64_pointers(const float* middle, long long back, const float* base,
                                            const long long* far, float* out_neg,
                                            float* out_far, int count) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  out_neg[t] = middle[(long long)t - back];
  const float* p = base + far[t];
  p = p - (far[t] - t);
  out_far[t] = *p;
}
