// Calls to functions that are not inlined: arguments and results through .param space,
// divergence inside the callee, multiple returns, recursion, structures by value.
__device__ __noinline__ float scale(float x, int k) { return x * k + 1.0f; }

__device__ __noinline__ int collatz_steps(int x) {
  int s = 0;
  while (x != 1) {
    if (s > 500) return -1;
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++s;
  }
  return s;
}

__device__ __noinline__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

struct Triple {
  int a;
  float b;
  double c;
};

__device__ __noinline__ Triple make_triple(int i) {
  Triple p{i, i * 0.5f, i * 0.25};
  return p;
}

__device__ __noinline__ void write_pair(int* p, int a, int b) {
  p[0] = a;
  p[1] = b;
}

extern "C" __global__ void calls(const float* in, float* fout, int* iout, double* dout) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  fout[t] = scale(in[t], t % 7);
  int steps = 0;
  if (t % 3 != 0) steps = collatz_steps(t + 1);
  iout[t * 4 + 0] = steps;
  iout[t * 4 + 1] = fact(t % 10);
  Triple p = make_triple(t);
  dout[t] = p.a + p.b + p.c;
  write_pair(iout + t * 4 + 2, t, -t);
}
