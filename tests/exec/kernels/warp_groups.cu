// Warp-synchronous instructions executed by lane groups with different membermasks in the same
// instruction (what cooperative groups' partitions compile to), and invalid membermasks.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

__device__ __forceinline__ unsigned lane_id() {
  unsigned l;
  asm("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

// Lanes with key < 0 return first; the others form one group per key (match.any) and run every
// collective with their group's mask. 12 results per thread.
extern "C" __global__ void per_group(const int* key, const int* val, int* out) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (key[t] < 0) return;
  const unsigned m = __match_any_sync(__activemask(), key[t]);
  const int x = val[t];
  const bool p = x & 1;
  int* o = out + t * 12;
  o[0] = (int)__ballot_sync(m, p);
  o[1] = __all_sync(m, p) * 2 + __any_sync(m, p);
  o[2] = __reduce_add_sync(m, x);
  o[3] = __reduce_min_sync(m, x);
  o[4] = __reduce_max_sync(m, x);
  o[5] = (int)__reduce_max_sync(m, (unsigned)x);
  o[6] = (int)(__reduce_and_sync(m, (unsigned)x) ^ __reduce_or_sync(m, (unsigned)x));
  o[7] = (int)__reduce_xor_sync(m, (unsigned)x);
  o[8] = __shfl_sync(m, x, __ffs(m) - 1);
  o[9] = (int)__match_any_sync(m, x & 3);
  int pred = 0;
  o[10] = (int)__match_all_sync(m, x >> 31, &pred) + pred;
  unsigned leader = 0, elected = 0, elected_alone = 0;
  asm volatile("{ .reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q; }"
               : "=r"(leader), "=r"(elected) : "r"(m));
  // The predicate alone, the lane number to the sink (CCCL 3.0's form).
  asm volatile("{ .reg .pred q; elect.sync _|q, %1; selp.u32 %0, 1, 0, q; }" : "=r"(elected_alone) : "r"(m));
  o[11] = (int)(leader * 4 + elected * 2 + elected_alone);
}

// cg::tiled_partition<8> + cg::reduce, and coalesced_threads() in divergent code: per tile sums,
// and per branch (even / odd values) sums and ranks.
extern "C" __global__ void cg_groups(const int* val, int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(block);
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int x = val[t];
  out[t * 3] = cg::reduce(tile, x, cg::plus<int>());
  if (x & 1) {
    cg::coalesced_group odd = cg::coalesced_threads();
    out[t * 3 + 1] = cg::reduce(odd, x, cg::plus<int>());
    out[t * 3 + 2] = (int)odd.thread_rank();
  } else {
    cg::coalesced_group even = cg::coalesced_threads();
    out[t * 3 + 1] = cg::reduce(even, x, cg::plus<int>());
    out[t * 3 + 2] = (int)even.thread_rank();
  }
}

// Lanes >= n exit early; the rest shuffle with a full mask (exited lanes are not waited for).
extern "C" __global__ void early_exit_full_mask(const int* val, int* out, int n) {
  const int t = threadIdx.x;
  if (t >= n) return;
  int x = val[t];
  out[t] = __shfl_sync(0xffffffffu, x, 0) + __shfl_xor_sync(0xffffffffu, x, 1);
}

// The two halves of the warp call the same shuffle from different call sites: they meet there.
__device__ __noinline__ int rotate(int v) { return __shfl_sync(0xffffffffu, v, (lane_id() + 1) & 31); }
extern "C" __global__ void meet_in_callee(const int* val, int* out) {
  const int t = threadIdx.x;
  int x = val[t];
  int r;
  if (t & 16) r = rotate(x) + 1000;
  else r = rotate(x * 2);
  out[t] = r;
}

// __syncwarp in both branches: lanes meet at different bar.warp.sync instructions.
extern "C" __global__ void syncwarp_branches(int* buf) {
  __shared__ int s[32];
  const int t = threadIdx.x;
  if (t & 1) {
    s[t] = t * 3;
    __syncwarp();
  } else {
    s[t] = t * 5;
    __syncwarp();
  }
  buf[t] = s[t ^ 1];
}

// Invalid membermasks.
extern "C" __global__ void not_in_own_mask(int* out) {
  const int t = threadIdx.x;
  out[t] = __shfl_sync(1u << ((t + 1) & 31), t, 0);
}
extern "C" __global__ void named_lane_guard_false(int* out) {
  const int t = threadIdx.x;
  int r = t;
  asm volatile("{ .reg .pred q; setp.lt.s32 q, %1, 30; @q shfl.sync.idx.b32 %0, %1, 0, 31, 0xffffffff; }"
               : "+r"(r) : "r"(t));
  out[t] = r;
}
extern "C" __global__ void inconsistent_masks(int* out) {
  const int t = threadIdx.x;
  const unsigned m = t < 16 ? 0x0000ffffu : 0xffffffffu;
  out[t] = __reduce_add_sync(m, t);
}
extern "C" __global__ void waits_at_barrier(int* out) {
  const int t = threadIdx.x;
  int r = t;
  if (t < 16) r = __shfl_sync(0xffffffffu, t, 31);
  __syncthreads();
  out[t] = r;
}
extern "C" __global__ void different_instructions(int* out, int k) {
  const int t = threadIdx.x;
  int r;
  asm volatile(
      "{ .reg .pred q; setp.lt.s32 q, %1, 16;\n"
      "@q bra A;\n"
      "shfl.sync.idx.b32 %0, %1, %2, 31, 0xffffffff;\n"
      "bra.uni B;\n"
      "A: shfl.sync.idx.b32 %0, %1, 0, 31, 0xffffffff;\n"
      "B: }"
      : "=r"(r) : "r"(t), "r"(k));
  out[t] = r;
}
