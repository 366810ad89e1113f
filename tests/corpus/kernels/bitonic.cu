// Bitonic sort of unsigned keys inside one block: each block sorts its own blockDim.x-long
// segment (blockDim.x a power of two, at most 1024) in shared memory, ascending.
// Checked by tests/corpus/sort_test.cpp.

extern "C" __global__ void bitonic_sort_block(unsigned* data) {
  __shared__ unsigned keys[1024];
  unsigned tid = threadIdx.x;
  unsigned* segment = data + blockIdx.x * blockDim.x;
  keys[tid] = segment[tid];
  __syncthreads();
  for (unsigned k = 2; k <= blockDim.x; k <<= 1) {
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      unsigned partner = tid ^ j;
      if (partner > tid) {
        unsigned a = keys[tid], b = keys[partner];
        bool ascending = (tid & k) == 0;
        if ((a > b) == ascending) {
          keys[tid] = b;
          keys[partner] = a;
        }
      }
      __syncthreads();
    }
  }
  segment[tid] = keys[tid];
}
