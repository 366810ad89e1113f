// Cooperative launches: grid-wide barriers (cooperative_groups::this_grid().sync()) and CTAs that
// wait for each other through memory (coop_test.cpp).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Three phases with data flowing between CTAs: each thread doubles its element; each thread then
// reads its right neighbour's doubled element (written by another CTA at block edges); then the
// block sums are combined by a tree over the blocks, one grid barrier per level.
extern "C" __global__ void phases(const int* in, int* doubled, int* shifted, int* partial, int* total, int n) {
  cg::grid_group grid = cg::this_grid();
  __shared__ int sums[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) doubled[i] = in[i] * 2;
  grid.sync();
  int v = 0;
  if (i < n) {
    v = doubled[(i + 1) % n];
    shifted[i] = v;
  }
  sums[threadIdx.x] = v;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) sums[threadIdx.x] += sums[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
  for (unsigned stride = 1; stride < gridDim.x; stride *= 2) {
    grid.sync();
    if (threadIdx.x == 0 && blockIdx.x % (2 * stride) == 0 && blockIdx.x + stride < gridDim.x) {
      partial[blockIdx.x] += partial[blockIdx.x + stride];
    }
  }
  grid.sync();
  if (grid.thread_rank() == 0) *total = partial[0];
}

// Block b waits for block b + 1 (the last block starts the chain): in CTA order nothing could
// finish; the CTAs must take turns.
extern "C" __global__ void chain(int* value, int* flags) {
  const unsigned b = blockIdx.x;
  if (threadIdx.x == 0) {
    if (b + 1 < gridDim.x) {
      while (atomicAdd(&flags[b + 1], 0) == 0) {
      }
      value[b] = value[b + 1] + static_cast<int>(b);
    } else {
      value[b] = static_cast<int>(b);
    }
    __threadfence();
    atomicExch(&flags[b], 1);
  }
}

// Block 0 waits for a flag nobody sets.
extern "C" __global__ void wait_forever(int* flag) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (*reinterpret_cast<volatile int*>(flag) == 0) {
    }
  }
}

// Only the blocks other than 0 reach the grid barrier.
extern "C" __global__ void partial_sync(int* out) {
  cg::grid_group grid = cg::this_grid();
  if (blockIdx.x == 0) return;
  grid.sync();
  out[blockIdx.x] = 1;
}

// A poll loop that ends by itself: not a deadlock.
extern "C" __global__ void bounded_wait(int* flag, int* iterations) {
  int i = 0;
  while (*reinterpret_cast<volatile int*>(flag) == 0 && ++i < 5000) {
  }
  if (threadIdx.x == 0) *iterations = i;
}

// grid.sync() with a lock taken by every block in turn (atomicCAS spin) between the barriers.
extern "C" __global__ void locked_sum(int* lock, int* sum, int* after) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    *reinterpret_cast<volatile int*>(sum) += static_cast<int>(blockIdx.x) + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
  grid.sync();
  if (threadIdx.x == 0) after[blockIdx.x] = *reinterpret_cast<volatile int*>(sum);
}

// Block 0 waits, with a CTA barrier in its wait loop, for a flag block 1 sets: every sweep of
// block 0 makes progress (barriers), so only the bound on a turn lets block 1 run.
extern "C" __global__ void barrier_wait_loop(int* flag, int* out) {
  __shared__ int seen;
  if (blockIdx.x == 0) {
    do {
      if (threadIdx.x == 0) seen = atomicAdd(flag, 0);
      __syncthreads();
    } while (seen == 0);
    out[threadIdx.x] = seen;
  } else if (threadIdx.x == 0) {
    atomicExch(flag, 7);
  }
}
