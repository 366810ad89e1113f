// Warp-level primitives: votes (__all_sync, __any_sync, __ballot_sync) over full and partial
// warps and inside a divergent branch, __activemask, the bit-manipulation intrinsics, and the
// four shuffles with and without a sub-warp width. Checked by tests/corpus/warp_test.cpp.

// The mask of lanes that exist in this thread's warp (the last warp of a block may be partial).
__device__ __forceinline__ unsigned existing_lanes() {
  unsigned warp_base = threadIdx.x & ~31u;
  unsigned count = blockDim.x - warp_base;
  return count >= 32 ? 0xffffffffu : ((1u << count) - 1u);
}

// Per thread: all/any/ballot of (in > 0) over the lanes that exist, and the ballot among lanes
// 0..19 only, taken inside a branch that only those lanes enter (0 for the other lanes).
// 1-D blocks; one element per thread.
extern "C" __global__ void warp_vote(const int* in, int* all_out, int* any_out,
                                     unsigned* ballot_out, unsigned* sub_ballot_out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned mask = existing_lanes();
  bool pred = in[t] > 0;
  all_out[t] = __all_sync(mask, pred);
  any_out[t] = __any_sync(mask, pred);
  ballot_out[t] = __ballot_sync(mask, pred);
  unsigned lane = threadIdx.x % 32;
  unsigned sub = 0;
  if (lane < 20) sub = __ballot_sync(mask & 0x000fffffu, pred);
  sub_ballot_out[t] = sub;
}

// full[t]: __activemask() where no thread has diverged. branch[t]: __activemask() inside a
// branch taken by lanes with lane % 3 == 0 (0 for the other lanes).
extern "C" __global__ void warp_activemask(unsigned* full, unsigned* branch) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  full[t] = __activemask();
  unsigned in_branch = 0;
  if (threadIdx.x % 3 == 0) in_branch = __activemask();
  branch[t] = in_branch;
}

// out32 gets 4 ints per element: popc, clz, brev (as int), ffs. out64 likewise for 64-bit inputs
// (brev in its own array).
extern "C" __global__ void bit_ops(const unsigned* in, const unsigned long long* in64, int* out32,
                                   int* out64, unsigned long long* brev64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned v = in[i];
  out32[4 * i + 0] = __popc(v);
  out32[4 * i + 1] = __clz((int)v);
  out32[4 * i + 2] = (int)__brev(v);
  out32[4 * i + 3] = __ffs((int)v);
  unsigned long long w = in64[i];
  out64[3 * i + 0] = __popcll(w);
  out64[3 * i + 1] = __clzll((long long)w);
  out64[3 * i + 2] = __ffsll((long long)w);
  brev64[i] = __brevll(w);
}

// Full-warp shuffles: out has 4 ints per thread: shfl from lane (7*lane+3)%32, up by 3,
// down by 5, xor 6. Block size a multiple of 32.
extern "C" __global__ void warp_shuffle(const int* in, int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[t];
  out[4 * t + 0] = __shfl_sync(0xffffffffu, v, (7 * lane + 3) % 32);
  out[4 * t + 1] = __shfl_up_sync(0xffffffffu, v, 3);
  out[4 * t + 2] = __shfl_down_sync(0xffffffffu, v, 5);
  out[4 * t + 3] = __shfl_xor_sync(0xffffffffu, v, 6);
}

// Sub-warp shuffles: out has 4 ints per thread: shfl from lane 2 of each 8-lane group, shfl from
// lane (lane + 5) of each 8-lane group (taken modulo the width), up by 2 in 16-lane groups, down
// by 3 in 4-lane groups, and a double (64-bit) shuffle from lane 31 - lane.
extern "C" __global__ void warp_shuffle_width(const int* in, const double* din, int* out,
                                              double* dout) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int v = in[t];
  out[4 * t + 0] = __shfl_sync(0xffffffffu, v, 2, 8);
  out[4 * t + 1] = __shfl_sync(0xffffffffu, v, lane + 5, 8);
  out[4 * t + 2] = __shfl_up_sync(0xffffffffu, v, 2, 16);
  out[4 * t + 3] = __shfl_down_sync(0xffffffffu, v, 3, 4);
  dout[t] = __shfl_sync(0xffffffffu, din[t], 31 - lane);
}
