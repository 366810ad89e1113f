// 256-bin byte histograms: privatised per block in shared memory (shared atomics, then one
// global atomic per bin and block) and directly in global memory (one global atomic per byte).
// Both use a grid-stride loop; `bins` must be zeroed before the launch.
// Checked by tests/corpus/histogram_test.cpp.

#define HIST_BINS 256

// Any blockDim.x works: the bins are cleared and flushed in strides of blockDim.x.
extern "C" __global__ void histogram_shared(const unsigned char* data, unsigned n,
                                            unsigned* bins) {
  __shared__ unsigned local_bins[HIST_BINS];
  for (unsigned b = threadIdx.x; b < HIST_BINS; b += blockDim.x) local_bins[b] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&local_bins[data[i]], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < HIST_BINS; b += blockDim.x)
    if (local_bins[b] != 0) atomicAdd(&bins[b], local_bins[b]);
}

extern "C" __global__ void histogram_global(const unsigned char* data, unsigned n,
                                            unsigned* bins) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[data[i]], 1u);
}
