// racecheck of bulk copies, TMA copies and cooperative launches (issue 31): one mode per case, run
// under `compute-sanitizer --tool racecheck` by tests/hw/capture_bulk_race.sh, and under
// `warpscope sanitize --tool racecheck` by tests/runtime/bulk_race_test.cpp.
//   bulk_early   a bulk copy (cp.async.bulk global -> shared) into buf, read by every thread before
//                the mbarrier wait (RAW with the copy)
//   bulk_ok      the same, read after the wait (clean)
//   tma_early    a TMA tile load (cp.async.bulk.tensor.2d, a 32 x 4 box of u32) read before the wait
//   tma_ok       read after the wait (clean)
//   tma_write    every thread writes the TMA destination while the copy is in flight (WAW)
//   store_early  a bulk store (shared -> global, bulk_group) whose source every thread overwrites
//                before the issuing thread's cp.async.bulk.wait_group.read (WAR)
//   store_ok     the source overwritten after wait_group.read and a __syncthreads (clean)
//   peer_early   a cluster of 2: rank 0 copies its shared memory into rank 1's
//                (cp.async.bulk.shared::cluster.shared::cta), rank 1 reads it before its wait (RAW)
//   peer_ok      rank 1 reads after its wait (clean)
//   peer_red_early  as peer_early with a bulk reduction (cp.reduce.async.bulk .add.u32) into rank 1's
//                buffer, which rank 1's threads filled before the cluster barrier
//   coop_race    a cooperative launch (4 blocks of 64): a shared write then another warp's read with no
//                __syncthreads (RAW and WAR, as sanitize_probe's raw), grid.sync() after
//   coop_ok      the same with __syncthreads, and shared memory written again after grid.sync (clean)
// Every kernel has 128 threads (coop: 64) and 128 ints of destination (512 bytes).
#include <cuda.h>
#include <cudaTypedefs.h>
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>
#include <vector>

#include "mbarrier_helpers.cuh"
namespace cg = cooperative_groups;

enum { kEarly = 0, kOk = 1, kWrite = 2 };

__global__ void bulk_load(const int* src, int* out, int mode) {
  __shared__ __align__(128) int buf[128];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned b = smem(&bar);
  if (threadIdx.x == 0) bar_init(b);
  __syncthreads();
  if (threadIdx.x == 0) {
    bar_expect(b, 512);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 512, [%2];"
                 ::"r"(smem(buf)), "l"(src), "r"(b) : "memory");  // bulk: copy
  }
  int v = 0;
  if (mode == kEarly) v = buf[threadIdx.x];  // bulk: early read
  bar_wait(b);
  v += buf[threadIdx.x];  // bulk: read after the wait
  out[threadIdx.x] = v;
}

__global__ void tma_load(const __grid_constant__ CUtensorMap m, int* out, int mode) {
  __shared__ __align__(128) int buf[128];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned b = smem(&bar);
  if (threadIdx.x == 0) bar_init(b);
  __syncthreads();
  if (threadIdx.x == 0) {
    bar_expect(b, 512);
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(smem(buf)), "l"(&m), "r"(0), "r"(0), "r"(b) : "memory");  // tma: copy
  }
  int v = 0;
  if (mode == kEarly) v = buf[threadIdx.x];  // tma: early read
  if (mode == kWrite) buf[threadIdx.x] = -1;  // tma: write in flight
  bar_wait(b);
  v += buf[threadIdx.x];  // tma: read after the wait
  out[threadIdx.x] = v;
}

__global__ void bulk_store(int* dst, int* out, int mode) {
  __shared__ __align__(128) int buf[128];
  buf[threadIdx.x] = threadIdx.x;  // store: fill
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 512;"
                 ::"l"(dst), "r"(smem(buf)) : "memory");  // store: copy
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    if (mode == kOk) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
  __syncthreads();
  buf[threadIdx.x] = -1;  // store: overwrite
  if (threadIdx.x == 0 && mode == kEarly) asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  __syncthreads();
  out[threadIdx.x] = buf[127 - threadIdx.x];
  if (threadIdx.x == 0) asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
}

__global__ void __cluster_dims__(2, 1, 1) peer_copy(int* out, int mode, int reduce) {
  __shared__ __align__(128) int src[128];
  __shared__ __align__(128) int buf[128];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned me = cluster_rank(), b = smem(&bar);
  src[threadIdx.x] = 1000 * me + threadIdx.x;
  buf[threadIdx.x] = 0;
  if (threadIdx.x == 0) {
    bar_init(b);
    if (me == 1) bar_expect(b, 512);
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cg::this_cluster().sync();
  if (me == 0 && threadIdx.x == 0 && !reduce)
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 512, [%2];"
                 ::"r"(mapa(smem(buf), 1)), "r"(smem(src)), "r"(mapa(b, 1)) : "memory");  // peer: copy
  if (me == 0 && threadIdx.x == 0 && reduce)
    asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 512, [%2];"
                 ::"r"(mapa(smem(buf), 1)), "r"(smem(src)), "r"(mapa(b, 1)) : "memory");  // peer: reduce
  int v = 0;
  if (me == 1) {
    if (mode == kEarly) v = buf[threadIdx.x];  // peer: early read
    bar_wait(b);
    v += buf[threadIdx.x];  // peer: read after the wait
  }
  cg::this_cluster().sync();
  out[me * 128 + threadIdx.x] = v;
}

__global__ void coop(int* out, int mode) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x + blockIdx.x;  // coop: write
  if (mode == kOk) __syncthreads();
  const int v = s[(threadIdx.x + 32) % 64];  // coop: read
  cg::this_grid().sync();
  s[threadIdx.x] = v + 1;  // coop: write after grid.sync
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}

int main(int argc, char** argv) {
  const char* m = argc > 1 ? argv[1] : "bulk_ok";
  const int mode = strstr(m, "_early") || strstr(m, "_race") ? kEarly : strstr(m, "_write") ? kWrite : kOk;
  int *src = nullptr, *out = nullptr;
  cudaMalloc(&src, 64 * 4 * sizeof(int));
  cudaMalloc(&out, 256 * sizeof(int));
  std::vector<int> h(64 * 4);
  for (int i = 0; i < 64 * 4; ++i) h[i] = i;
  cudaMemcpy(src, h.data(), h.size() * sizeof(int), cudaMemcpyHostToDevice);
  if (!strncmp(m, "bulk_", 5)) {
    bulk_load<<<1, 128>>>(src, out, mode);
  } else if (!strncmp(m, "tma_", 4)) {
    void* f = nullptr;
    cudaDriverEntryPointQueryResult q;
    cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &f, 12000, cudaEnableDefault, &q);
    if (f == nullptr) {
      printf("%s: no cuTensorMapEncodeTiled\n", m);
      return 1;
    }
    CUtensorMap map;
    cuuint64_t dims[2] = {64, 4}, stride[1] = {64 * sizeof(int)};
    cuuint32_t box[2] = {32, 4}, es[2] = {1, 1};
    const CUresult e = reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(f)(
        &map, CU_TENSOR_MAP_DATA_TYPE_INT32, 2, src, dims, stride, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
        CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (e != CUDA_SUCCESS) printf("cuTensorMapEncodeTiled: %d\n", static_cast<int>(e));
    tma_load<<<1, 128>>>(map, out, mode);
  } else if (!strncmp(m, "store_", 6)) {
    bulk_store<<<1, 128>>>(src, out, mode);
  } else if (!strncmp(m, "peer_", 5)) {
    peer_copy<<<2, 128>>>(out, mode, strstr(m, "_red") != nullptr);
  } else if (!strncmp(m, "coop_", 5)) {
    void* args[] = {&out, const_cast<int*>(&mode)};
    cudaLaunchCooperativeKernel(reinterpret_cast<void*>(coop), dim3(4), dim3(64), args, 0, nullptr);
  }
  printf("%s: %s\n", m, cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(src);
  cudaFree(out);
  return 0;
}
