// Block-level inclusive prefix sums of ints; each block scans its own blockDim.x-long segment.
// scan_block_inclusive: Hillis-Steele in shared memory with two buffers (log2(blockDim) steps,
// a barrier per step). scan_block_shuffle: __shfl_up_sync scans inside warps, then a scan of the
// per-warp totals by the first warp. Elements past n count as zero and are not written.
// Checked by tests/corpus/scan_test.cpp.

#define SCAN_MAX_BLOCK 1024

extern "C" __global__ void scan_block_inclusive(const int* in, int* out, int n) {
  __shared__ int buf[2][SCAN_MAX_BLOCK];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  int cur = 0;
  buf[cur][tid] = gid < n ? in[gid] : 0;
  __syncthreads();
  for (int offset = 1; offset < (int)blockDim.x; offset *= 2) {
    int v = buf[cur][tid];
    if (tid >= offset) v += buf[cur][tid - offset];
    buf[1 - cur][tid] = v;
    cur = 1 - cur;
    __syncthreads();
  }
  if (gid < n) out[gid] = buf[cur][tid];
}

// blockDim.x must be a multiple of 32.
extern "C" __global__ void scan_block_shuffle(const int* in, int* out, int n) {
  __shared__ int warp_totals[32];
  int tid = threadIdx.x;
  int gid = blockIdx.x * blockDim.x + tid;
  int lane = tid % 32, warp = tid / 32;
  int v = gid < n ? in[gid] : 0;
  for (int offset = 1; offset < 32; offset *= 2) {
    int other = __shfl_up_sync(0xffffffffu, v, offset);
    if (lane >= offset) v += other;
  }
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    int nwarps = blockDim.x / 32;
    int t = lane < nwarps ? warp_totals[lane] : 0;
    for (int offset = 1; offset < 32; offset *= 2) {
      int other = __shfl_up_sync(0xffffffffu, t, offset);
      if (lane >= offset) t += other;
    }
    if (lane < nwarps) warp_totals[lane] = t;  // inclusive scan of the warp totals
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  if (gid < n) out[gid] = v;
}
