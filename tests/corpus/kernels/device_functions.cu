// __noinline__ device functions: a call chain (top -> mid -> leaf, no recursion), calls from
// both sides of a divergent branch, functions returning float and a 12-byte struct, and an
// out-parameter pointing into the caller's frame. Checked by tests/corpus/device_function_test.cpp.

struct Stats {
  float sum;
  float max;
  int count;
};

__device__ __noinline__ int leaf(int x) { return x * 3 + 1; }

__device__ __noinline__ int mid(int x) { return leaf(x) ^ leaf(x >> 1); }

__device__ __noinline__ int top(int x, int y) { return mid(x) + 7 * mid(y); }

extern "C" __global__ void call_chain(const int* in, int* out, int* branchy, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  int v = in[t];
  out[t] = top(v, t);
  // Divergent calls: lanes take different functions.
  int r;
  if (t % 3 == 0)
    r = leaf(v);
  else if (t % 3 == 1)
    r = mid(v);
  else
    r = top(v, v + 1);
  branchy[t] = r;
}

__device__ __noinline__ float scaled_sum(float a, float b, float scale) {
  return (a + b) * scale;
}

__device__ __noinline__ Stats accumulate(Stats s, float v) {
  s.sum += v;
  s.max = v > s.max ? v : s.max;
  s.count += v > 0.0f ? 1 : 0;
  return s;
}

__device__ __noinline__ void min_max(const float* values, int count, float* lo, float* hi) {
  float l = values[0], h = values[0];
  for (int i = 1; i < count; ++i) {
    l = fminf(l, values[i]);
    h = fmaxf(h, values[i]);
  }
  *lo = l;
  *hi = h;
}

// Each thread folds its `per_thread` consecutive values through accumulate() and min_max().
extern "C" __global__ void struct_return(const float* in, float* sum, float* max, int* count,
                                         float* range, float* pair, int per_thread, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const float* values = in + (long long)t * per_thread;
  Stats s = {0.0f, -3.0e38f, 0};
  for (int i = 0; i < per_thread; ++i) s = accumulate(s, values[i]);
  sum[t] = s.sum;
  max[t] = s.max;
  count[t] = s.count;
  float lo, hi;  // out-parameters: their addresses are passed to a non-inlined function
  min_max(values, per_thread, &lo, &hi);
  range[t] = hi - lo;
  pair[t] = scaled_sum(values[0], values[per_thread - 1], 0.5f);
}
