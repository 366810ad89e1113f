// Named barriers (bar.sync/bar.arrive with a thread count) and cluster barriers reached by part of a
// cluster (issue 31), one case per mode, to run under compute-sanitizer --tool synccheck on the H200
// (tests/hw/capture_sync_sanitize.sh) and under `warpscope sanitize --tool synccheck`. Each mode is its
// own process: a fault or a hang leaves the context unusable. Counts come in as parameters (a register
// operand) so that ptxas keeps each barrier as written.
//   named_ok          <<<1,128>>>: warps 0 and 1 reach `bar.sync 1, 64`, warps 2 and 3 skip it (clean)
//   named_mismatch    <<<1,64>>>: warp 0 reaches `bar.sync 1, 64`, warp 1 `bar.sync 1, 96`
//   named_not_multiple <<<1,64>>>: both warps reach `bar.sync 1, 48` (48 is not a multiple of 32)
//   named_short       <<<1,64>>>: warp 0 reaches `bar.sync 1, 64`, warp 1 exits first
//   arrive_sync       <<<1,64>>>: warp 0 writes shared memory and `bar.arrive 1, 64`, warp 1
//                     `bar.sync 1, 64` and reads it (clean producer/consumer)
//   cluster_ok        __cluster_dims__(2) <<<2,64>>>: both CTAs call cluster.sync() (clean)
//   cluster_exit      the same launch; CTA rank 0 calls cluster.sync(), rank 1 exits
//   cluster_branch    the same launch; rank 0 calls cluster.sync() at one site, rank 1 at another
//   cluster_part_cta  the same launch; in each CTA only warp 0 calls cluster.sync(), warp 1 exits
//   cluster_arrive    the same launch; every thread `barrier.cluster.arrive` and exits without a wait
#include <cooperative_groups.h>

#include <cstdio>
#include <cstring>

namespace cg = cooperative_groups;

__device__ __forceinline__ void bar_sync(int id, int count) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(count) : "memory");
}

__device__ __forceinline__ void bar_arrive(int id, int count) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(count) : "memory");
}

__global__ void named_ok(int count, int* out) {
  const int t = threadIdx.x;
  out[t] = 1;
  if (t < count) bar_sync(1, count);  // sync: named ok
  out[t] += 1;
}

__global__ void named_two_counts(int count0, int count1, int* out) {
  const int t = threadIdx.x;
  out[t] = 1;
  bar_sync(1, t < 32 ? count0 : count1);  // sync: named two counts
  out[t] += 1;
}

__global__ void named_short(int count, int* out) {
  const int t = threadIdx.x;
  out[t] = 1;
  if (t >= 32) return;
  bar_sync(1, count);  // sync: named short
  out[t] += 1;
}

__global__ void arrive_sync(int count, int* out) {
  __shared__ int s[32];
  const int t = threadIdx.x;
  if (t < 32) {
    s[t] = t + 5;
    bar_arrive(1, count);  // sync: producer arrive
  } else {
    bar_sync(1, count);  // sync: consumer sync
    out[t] = s[t - 32];
  }
}

__global__ void __cluster_dims__(2, 1, 1) cluster_kernel(int mode, int* out) {
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  out[g] = 1;
  if (mode == 0) {
    cluster.sync();  // sync: cluster ok
  } else if (mode == 1) {
    if (rank == 1) return;
    cluster.sync();  // sync: cluster rank 0 only
  } else if (mode == 2) {
    if (rank == 0) {
      cluster.sync();  // sync: cluster site A
    } else {
      out[g] = 3;
      cluster.sync();  // sync: cluster site B
    }
  } else if (mode == 3) {
    if (threadIdx.x >= 32) return;
    cluster.sync();  // sync: cluster warp 0 only
  } else {
    asm volatile("barrier.cluster.arrive;" ::: "memory");  // sync: arrive without wait
  }
  out[g] += 1;
}

int main(int argc, char** argv) {
  const char* m = argc > 1 ? argv[1] : "named_ok";
  int* out = nullptr;
  cudaMalloc(&out, 256 * sizeof(int));
  cudaMemset(out, 0, 256 * sizeof(int));
  bool known = true;
  if (!strcmp(m, "named_ok")) named_ok<<<1, 128>>>(64, out);
  else if (!strcmp(m, "named_mismatch")) named_two_counts<<<1, 64>>>(64, 96, out);
  else if (!strcmp(m, "named_not_multiple")) named_two_counts<<<1, 64>>>(48, 48, out);
  else if (!strcmp(m, "named_short")) named_short<<<1, 64>>>(64, out);
  else if (!strcmp(m, "arrive_sync")) arrive_sync<<<1, 64>>>(64, out);
  else if (!strcmp(m, "cluster_ok")) cluster_kernel<<<2, 64>>>(0, out);
  else if (!strcmp(m, "cluster_exit")) cluster_kernel<<<2, 64>>>(1, out);
  else if (!strcmp(m, "cluster_branch")) cluster_kernel<<<2, 64>>>(2, out);
  else if (!strcmp(m, "cluster_part_cta")) cluster_kernel<<<2, 64>>>(3, out);
  else if (!strcmp(m, "cluster_arrive")) cluster_kernel<<<2, 64>>>(4, out);
  else known = false;
  if (!known) {
    std::printf("unknown mode %s\n", m);
    return 2;
  }
  const cudaError_t launch = cudaGetLastError();
  const cudaError_t sync = cudaDeviceSynchronize();
  int h[128];
  for (int& v : h) v = -1;
  const cudaError_t copy = cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost);
  std::printf("%s: launch %s, sync %s, copy %s, out %d %d %d %d\n", m, cudaGetErrorName(launch),
              cudaGetErrorName(sync), cudaGetErrorName(copy), h[0], h[32], h[64], h[96]);
  cudaFree(out);
  return 0;
}
