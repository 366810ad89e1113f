// Barriers and shared memory, and barriers that can never complete.
extern "C" __global__ void block_sum(const int* in, int* out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void dyn_reverse(const float* in, float* out) {
  extern __shared__ float buf[];
  int t = threadIdx.x;
  buf[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = buf[blockDim.x - 1 - t];
}

// Threads past n leave before the barrier; the others still synchronise.
extern "C" __global__ void early_exit_sync(const int* in, int* out, int n) {
  __shared__ int s[128];
  int t = threadIdx.x;
  if (t >= n) return;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[n - 1 - t];
}

extern "C" __global__ void sync_reductions(const int* in, int* out) {
  int p = in[threadIdx.x] > 0;
  int c = __syncthreads_count(p);
  int a = __syncthreads_and(p);
  int o = __syncthreads_or(p);
  if (threadIdx.x == 0) {
    out[0] = c;
    out[1] = a;
    out[2] = o;
  }
}

// Warp 0 waits at named barrier 1, warp 1 at named barrier 2: neither can complete.
extern "C" __global__ void named_mismatch(int* out) {
  if (threadIdx.x < 32) {
    asm volatile("bar.sync 1;");
  } else {
    asm volatile("bar.sync 2;");
  }
  out[threadIdx.x] = 1;
}

// A barrier for 64 threads that only one warp can reach: warp 1 has exited.
extern "C" __global__ void count_unreachable(int* out) {
  if (threadIdx.x >= 32) return;
  asm volatile("bar.sync 1, 64;");
  out[threadIdx.x] = 1;
}

// Half of each warp reaches one __syncthreads, the other half another one.
extern "C" __global__ void divergent_barrier(int* out, int k) {
  int t = threadIdx.x;
  if ((t & 31) < 16) {
    out[t] = k * 3;
    __syncthreads();
    out[t] += 1;
  } else {
    __syncthreads();
    out[t] = k - 2;
  }
}

// Producer/consumer with named barriers: warp 0 writes and arrives, warp 1 waits and reads.
extern "C" __global__ void producer_consumer(int* out) {
  __shared__ int s[32];
  int t = threadIdx.x;
  if (t < 32) {
    s[t] = t * t;
    asm volatile("bar.arrive 3, 64;");
  } else {
    asm volatile("bar.sync 3, 64;");
    out[t - 32] = s[t - 32] + 1;
  }
}

// Warp 0 spins on a flag that warp 1 sets: warps that do not reach a barrier still let the others
// run (each warp runs a bounded number of instructions before the next one gets its turn).
extern "C" __global__ void spin_wait(int* out) {
  __shared__ volatile int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (threadIdx.x < 32) {
    while (flag == 0) {
    }
    out[threadIdx.x] = flag;
  } else if (threadIdx.x == 32) {
    flag = 42;
  }
}

// Threads leave a loop that synchronises at different iterations (each thread's limit): the
// others keep synchronising without them.
extern "C" __global__ void loop_return_sync(const int* lim, int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  int acc = 0;
  for (int i = 0; i < 8; ++i) {
    if (i >= lim[t]) {
      out[t] = acc;
      return;
    }
    s[t] = i + t;
    __syncthreads();
    acc += s[(t + 1) % 64];
    __syncthreads();
  }
  out[t] = acc + 1000;
}

// Named barrier 1 with a thread count per warp: warp 0 gives count0, warp 1 count1.
extern "C" __global__ void named_counts(int* out, int count0, int count1) {
  const int count = threadIdx.x < 32 ? count0 : count1;
  asm volatile("bar.sync 1, %0;" ::"r"(count));
  out[threadIdx.x] = 1;
}
