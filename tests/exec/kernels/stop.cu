// Launches that end before their end (stop_test.cpp, docs/exec.md "Stopping a launch"): loops
// that never end, spins on flags nobody sets, and waits that do end. The `// @name` markers let
// the test find the source lines.

// Every thread spins on a flag nobody sets.
extern "C" __global__ void spin_on_flag(int* flag, int* out) {
  int v;
  do {
    v = *reinterpret_cast<volatile int*>(flag);  // @spin
  } while (v == 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

// Warp 0 waits for a flag that warp 1 sets after a long computation (more than 2^20
// instructions): a wait, not a hang.
extern "C" __global__ void wait_for_warp(int* flag, int* out, int n) {
  if (threadIdx.x < 32) {
    int v;
    do {
      v = *reinterpret_cast<volatile int*>(flag);
    } while (v == 0);
    out[threadIdx.x] = v;
  } else if (threadIdx.x == 32) {
    unsigned acc = 1;
    for (int i = 0; i < n; ++i) acc = acc * 3u + static_cast<unsigned>(i);
    atomicExch(flag, static_cast<int>(acc | 1u));
  }
}

// A poll loop that gives up by itself after `n` polls: no hang.
extern "C" __global__ void bounded_spin(int* flag, int* polls, int n) {
  int i = 0;
  while (*reinterpret_cast<volatile int*>(flag) == 0 && i < n) ++i;
  if (threadIdx.x == 0) polls[blockIdx.x] = i;
}

// Block b waits until block b - 1 has set its flag (as a single-pass scan's look-back does), works
// a while, then sets its own: every wait is for a block with a lower index.
extern "C" __global__ void chain(int* flags, int* out, int work) {
  const int b = blockIdx.x;
  if (threadIdx.x == 0) {
    int prev = 0;
    if (b > 0) {
      do {
        prev = atomicAdd(&flags[b - 1], 0);
      } while (prev == 0);
    }
    unsigned acc = static_cast<unsigned>(prev);
    for (int i = 0; i < work; ++i) acc = acc * 3u + static_cast<unsigned>(i);
    out[b] = prev;
    out[gridDim.x + b] = static_cast<int>(acc);
    __threadfence();
    atomicExch(&flags[b], prev + 1);
  }
}

// Never ends by itself (n = -1): a loop with arithmetic only.
extern "C" __global__ void forever(unsigned* out, long long n) {
  unsigned acc = threadIdx.x;
  for (long long i = 0; i != n; ++i) {  // @forever-first
    acc = acc * 1664525u + static_cast<unsigned>(i);
    acc ^= acc >> 7;  // @forever-last
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// Many short blocks: progress counters.
extern "C" __global__ void busy(unsigned* out, int n) {
  unsigned acc = threadIdx.x;
  for (int i = 0; i < n; ++i) acc = acc * 1664525u + static_cast<unsigned>(i);
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
