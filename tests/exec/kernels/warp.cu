// Warp-level primitives.
extern "C" __global__ void warp_ops(const int* in, int* out) {
  int t = threadIdx.x;
  int v = in[t];
  int* o = out + t * 12;
  o[0] = __shfl_down_sync(0xffffffffu, v, 3);
  o[1] = __shfl_up_sync(0xffffffffu, v, 5);
  o[2] = __shfl_xor_sync(0xffffffffu, v, 6);
  o[3] = __shfl_sync(0xffffffffu, v, (t * 7) % 32);
  o[4] = __shfl_down_sync(0xffffffffu, v, 2, 8);  // segments of 8
  o[5] = __shfl_sync(0xffffffffu, v, 3, 16);      // lane 3 of each half
  o[6] = (int)__ballot_sync(0xffffffffu, v > 50);
  o[7] = __all_sync(0xffffffffu, v >= 0) * 2 + __any_sync(0xffffffffu, v > 90);
  o[8] = (int)__match_any_sync(0xffffffffu, v % 4);
  o[9] = __reduce_add_sync(0xffffffffu, v);
  o[10] = __reduce_min_sync(0xffffffffu, v - 40);
  o[11] = (int)__reduce_or_sync(0xffffffffu, (unsigned)v);
}

// Shuffles in a partially populated warp and in divergent code.
extern "C" __global__ void warp_partial(int* out) {
  int t = threadIdx.x;
  unsigned m = __activemask();
  int s = t * 10;
  for (int off = 16; off > 0; off /= 2) s += __shfl_down_sync(m, s, off);
  out[t] = s;
  out[64 + t] = (int)m;
}
