// Per-thread arrays, after seeds 000 (dynamic indexing of private arrays) and 001 (the 3-element
// `ut[3]` example). Which of these nvcc keeps in registers and which it puts in a .local depot is
// the point of the seeds; the results must be right either way.
// Checked by tests/corpus/local_arrays_test.cpp.

#define LOCAL_N 16

// Static indexing: every index is a compile-time constant, so the array becomes registers.
extern "C" __global__ void local_static(const float* in, float* out) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  float a[4];
  a[0] = in[4 * tid + 0];
  a[1] = in[4 * tid + 1];
  a[2] = in[4 * tid + 2];
  a[3] = in[4 * tid + 3];
  out[tid] = ((a[3] + a[0]) + a[2]) - a[1];
}

// An unrolled loop: after unrolling the indices are constants again (no local memory).
extern "C" __global__ void local_unrolled(const float* in, float* out, int n) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid >= n) return;
  float a[8];
#pragma unroll
  for (int k = 0; k < 8; ++k) a[k] = in[k * n + tid];
  float sum = 0.0f;
#pragma unroll
  for (int k = 0; k < 8; ++k) sum += (k % 2 == 0) ? a[k] : -a[k];
  out[tid] = sum;
}

// A dynamic index that is the same for every thread (a kernel argument): the array goes to
// local memory, and each warp's local accesses are uniform (coalesced).
extern "C" __global__ void local_uniform_dynamic(const float* buf, float* out, int n,
                                                 int start_index) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid >= n) return;
  float a[LOCAL_N];
  for (int i = 0; i < LOCAL_N; ++i) a[i] = buf[i * n + tid];
  float sum = 0.0f;
  for (int i = 0; i < 4; ++i) sum += a[(start_index + i) % LOCAL_N];
  out[tid] = sum;
}

// A per-thread dynamic index: local memory with a different word per lane.
extern "C" __global__ void local_per_thread(const float* buf, const int* idx, float* out, int n) {
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  if (tid >= n) return;
  float a[LOCAL_N];
  for (int i = 0; i < LOCAL_N; ++i) a[i] = buf[i * n + tid];
  int k = idx[tid];
  a[k] = a[k] + 1.0f;  // a dynamic store too
  out[tid] = a[k] - a[(k + 5) % LOCAL_N];
}

// Seed 001's `lap(float *u)` with its 3-element array: A is a 3x3 matrix in constant memory.
// Each thread reads u at tid, tid + T, tid + 2T (T = total threads) and writes A * ut back.
__constant__ float A[9];

extern "C" __global__ void local_ut3(float* u) {
  float ut[3];
  int tid = threadIdx.x + blockIdx.x * blockDim.x;
  for (int k = 0; k < 3; k++) ut[k] = u[tid + k * gridDim.x * blockDim.x];
  for (int k = 0; k < 3; k++)
    u[tid + k * gridDim.x * blockDim.x] =
        A[3 * k] * ut[0] + A[3 * k + 1] * ut[1] + A[3 * k + 2] * ut[2];
}
