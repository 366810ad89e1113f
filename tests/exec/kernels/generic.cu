// Generic addressing of shared, local and global memory through one pointer parameter.
__device__ __noinline__ void add_to(int* p, int v) { *p += v; }

extern "C" __global__ void generic_spaces(int* g, int* out, int k) {
  __shared__ int s[64];
  int local[8];
  int t = threadIdx.x;
  s[t] = t;
  for (int i = 0; i < 8; ++i) local[i] = i * k;
  add_to(&s[t], 100);
  add_to(&local[(t + k) & 7], 7);
  add_to(&g[t], 1);
  __syncthreads();
  out[t] = s[t] + local[(t + k) & 7];
}

// A thread's own array with a dynamic index: local memory.
extern "C" __global__ void local_array(const int* idx, int* out) {
  int a[16];
  int t = threadIdx.x;
  for (int i = 0; i < 16; ++i) a[i] = t * 100 + i;
  out[t] = a[idx[t] & 15];
}

// Vector loads and stores: float4 and double2.
extern "C" __global__ void vectors(const float4* in, float4* out, const double2* din, double2* dout) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v = in[t];
  out[t] = make_float4(v.w, v.z, v.y, v.x);
  double2 w = din[t];
  dout[t] = make_double2(w.y, w.x);
}

// Module-scope variables: constants set from the host, initialised globals, a pointer initialised
// with the address of another variable.
__constant__ float coeffs[4];
__device__ int counter = 5;
__device__ int table[3] = {10, 20, 30};
__device__ int* table_ptr = table + 1;

extern "C" __global__ void use_symbols(float* out) {
  int t = threadIdx.x;
  atomicAdd(&counter, 1);
  out[t] = coeffs[t & 3] * table[t % 3] + table_ptr[t % 2];
}
