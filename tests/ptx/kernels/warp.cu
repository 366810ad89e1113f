// Warp shuffles, votes, match and reduce.
__global__ void warp_ops(int* out) {
  int t = threadIdx.x;
  int v = t * 3;
  v += __shfl_down_sync(0xffffffffu, v, 1);
  v += __shfl_up_sync(0xffffffffu, v, 2);
  v += __shfl_xor_sync(0xffffffffu, v, 4);
  v += __shfl_sync(0xffffffffu, v, 5);
  unsigned b = __ballot_sync(0xffffffffu, v & 1);
  int all = __all_sync(0xffffffffu, v > 0);
  int any = __any_sync(0xffffffffu, v > 10);
  unsigned act = __activemask();
  unsigned m = __match_any_sync(0xffffffffu, v & 3);
  int pred;
  unsigned ma = __match_all_sync(0xffffffffu, v & 3, &pred);
  unsigned r = __reduce_add_sync(0xffffffffu, (unsigned)v);
  int mn = __reduce_min_sync(0xffffffffu, v);
  out[t] = v + (int)b + all + any + (int)act + (int)m + (int)ma + pred + (int)r + mn;
}
