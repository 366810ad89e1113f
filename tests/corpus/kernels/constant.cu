// Module-scope variables set and read by the host through their symbols: __constant__ arrays
// (copy_to_symbol) read uniformly and with a per-thread index, and __device__ globals updated
// by the kernel and read back (copy_from_symbol, symbol_address, symbol_size).
// Checked by tests/corpus/symbols_test.cpp.

__constant__ float poly_coeffs[16];
__constant__ int lookup_table[256];
__device__ unsigned long long event_count;
__device__ int last_writer[64];

// Horner evaluation of the polynomial with coefficients poly_coeffs[0..degree] (all threads
// read the same constant word at a time: a broadcast).
extern "C" __global__ void const_poly(const float* x, float* y, int n, int degree) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float xi = x[i];
  float acc = poly_coeffs[degree];
  for (int k = degree - 1; k >= 0; --k) acc = acc * xi + poly_coeffs[k];
  y[i] = acc;
}

// Per-thread (divergent) constant reads: out[i] = lookup_table[idx[i]].
extern "C" __global__ void const_lookup(const unsigned char* idx, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = lookup_table[idx[i]];
}

// Adds weights[i] to event_count for every element; the thread with the largest index writing
// slot i % 64 wins through atomicMax.
extern "C" __global__ void device_globals(const unsigned* weights, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&event_count, (unsigned long long)weights[i]);
  atomicMax(&last_writer[i % 64], i);
}
