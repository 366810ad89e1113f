// Divergent control flow: if/else chains, switch, loops with per-thread trip counts, break and
// continue, early return, and __activemask() to observe where lanes reconverge.
extern "C" __global__ void branches(const int* in, int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  int r;
  if (v % 3 == 0) {
    r = v * 2;
  } else if (v % 3 == 1) {
    r = v - 7;
  } else {
    r = 0;
    for (int i = 0; i < (v & 15); ++i) r += i * v;
  }
  switch (v & 3) {
    case 0: r += 1; break;
    case 1: r ^= 0x55; break;
    case 2: r -= 3; break;
    default: r *= 3; break;
  }
  out[t] = r;
}

extern "C" __global__ void loops(const int* trips, int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = trips[t];
  int acc = 0;
  for (int i = 0; i < n; ++i) {
    acc += i;
    if (acc > 1000) break;
    if (i % 5 == 4) continue;
    acc ^= i << 2;
  }
  int x = n + 1, steps = 0;
  while (x != 1 && steps < 200) {
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++steps;
  }
  out[t] = acc * 1000 + steps;
}

extern "C" __global__ void early_return(const int* in, int* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  if (in[t] < 0) {
    out[t] = -1;
    return;
  }
  out[t] = in[t] * 2;
}

// Lanes record the active mask inside each side of a branch and after the join.
extern "C" __global__ void reconverge(const int* in, unsigned* out) {
  int t = threadIdx.x;
  unsigned inside;
  if (in[t] & 1) {
    inside = __activemask();
    out[t * 4 + 2] = in[t] * 3;
  } else {
    inside = __activemask();
    out[t * 4 + 2] = in[t] + 5;
  }
  out[t * 4 + 0] = inside;
  out[t * 4 + 1] = __activemask();
  // A loop whose trip count is the lane id: the mask shrinks each iteration.
  unsigned last = 0;
#pragma unroll 1
  for (int i = 0; i <= t % 32; ++i) last = __activemask();
  out[t * 4 + 3] = last;
}
