// racecheck of bulk copies beyond tests/hw/sanitize/bulk_race_probe.cu (tests/runtime/bulk_race_test.cpp;
// docs/sanitize.md "racecheck, bulk copies and the TMA"). 128 threads, 512-byte buffers.
//   one_waits       only thread 0 waits for the copy, then __syncthreads: every thread's read is
//                   ordered after the wait (clean)
//   stale_phase     two copies into buf on one mbarrier: every thread waits for phase 0 and reads;
//                   after a __syncthreads thread 0 issues the second copy (phase 1) and the threads
//                   read buf again without waiting for phase 1 (RAW with the second copy)
//   unsynced_store  the threads fill buf and thread 0 stores it to global memory with no
//                   __syncthreads between (the copy reads bytes other threads write: RAW and WAR)
//   peer_src_reuse  a cluster of 2: rank 0's thread 0 copies src into rank 1's buffer, then after a
//                   __syncthreads rank 0's threads write src again (WAR: the copy reads src until its
//                   mbarrier phase in rank 1 completes, which nothing in rank 0 waited for)
//   peer_src_ack    the same, but rank 1's thread 0 arrives (.release.cluster) on rank 0's `ack`
//                   mbarrier after its wait, and rank 0's threads wait on `ack` (.acquire.cluster)
//                   before writing src (clean)
//   two_reductions  a cluster of 3: ranks 0 and 1 each add 512 bytes into rank 2's buffer
//                   (cp.reduce.async.bulk); rank 2 reads after its wait (clean: the reductions are
//                   element-wise atomic, the wait orders both)
#include <cooperative_groups.h>
#include <cstdio>
#include <cstring>

#include "../../hw/sanitize/mbarrier_helpers.cuh"
namespace cg = cooperative_groups;

// A 512-byte bulk copy from global memory into buf, completing on b (a macro: the copy's line is
// the kernel's, where racecheck names it).
#define COPY(b, buf, src)                                                                                      \
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 512, [%2];" ::"r"( \
                   smem(buf)),                                                                                 \
               "l"(src), "r"(b)                                                                                \
               : "memory")

__global__ void one_waits(const int* src, int* out) {
  __shared__ __align__(128) int buf[128];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned b = smem(&bar);
  if (threadIdx.x == 0) bar_init(b);
  __syncthreads();
  if (threadIdx.x == 0) {
    bar_expect(b, 512);
    COPY(b, buf, src);
    bar_wait(b, 0);
  }
  __syncthreads();
  out[threadIdx.x] = buf[127 - threadIdx.x];
}

__global__ void stale_phase(const int* src, int* out) {
  __shared__ __align__(128) int buf[128];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned b = smem(&bar);
  if (threadIdx.x == 0) bar_init(b);
  __syncthreads();
  if (threadIdx.x == 0) {
    bar_expect(b, 512);
    COPY(b, buf, src);  // more: first copy
  }
  bar_wait(b, 0);
  int v = buf[threadIdx.x];  // more: first read
  __syncthreads();
  if (threadIdx.x == 0) {
    bar_expect(b, 512);
    COPY(b, buf, src + 128);  // more: second copy
  }
  v += buf[threadIdx.x];  // more: stale read
  bar_wait(b, 1);
  out[threadIdx.x] = v;
}

__global__ void unsynced_store(int* dst) {
  __shared__ __align__(128) int buf[128];
  buf[threadIdx.x] = threadIdx.x;  // more: fill
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 512;"
                 ::"l"(dst), "r"(smem(buf)) : "memory");  // more: store
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
  }
}

__global__ void __cluster_dims__(3, 1, 1) two_reductions(int* out) {
  __shared__ __align__(128) int src[128];
  __shared__ __align__(128) int buf[128];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned me = cluster_rank(), b = smem(&bar);
  src[threadIdx.x] = 1000 * (me + 1) + threadIdx.x;
  buf[threadIdx.x] = 0;
  if (threadIdx.x == 0) {
    bar_init(b);
    if (me == 2) bar_expect(b, 1024);
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cg::this_cluster().sync();
  if (me < 2 && threadIdx.x == 0)
    asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 512, [%2];"
                 ::"r"(mapa(smem(buf), 2)), "r"(smem(src)), "r"(mapa(b, 2)) : "memory");
  if (me == 2) {
    bar_wait(b, 0);
    out[threadIdx.x] = buf[threadIdx.x];
  }
  cg::this_cluster().sync();
}

__global__ void __cluster_dims__(2, 1, 1) peer_src(int* out, int ack) {
  __shared__ __align__(128) int src[128];
  __shared__ __align__(128) int buf[128];
  __shared__ __align__(8) unsigned long long bar, back;
  const unsigned me = cluster_rank(), b = smem(&bar), a = smem(&back);
  src[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == 0) {
    bar_init(b);
    bar_init(a);
    if (me == 1) bar_expect(b, 512);
  }
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cg::this_cluster().sync();
  if (me == 0) {
    if (threadIdx.x == 0)
      asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 512, [%2];"
                   ::"r"(mapa(smem(buf), 1)), "r"(smem(src)), "r"(mapa(b, 1)) : "memory");  // more: peer copy
    __syncthreads();
    if (ack) {
      unsigned done = 0;
      while (!done)
        asm volatile("{.reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}"
                     : "=r"(done)
                     : "r"(a)
                     : "memory");
    }
    src[threadIdx.x] = -1;  // more: reuse src
  } else {
    bar_wait(b, 0);
    out[threadIdx.x] = buf[threadIdx.x];
    if (threadIdx.x == 0) asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(mapa(a, 0)) : "memory");
  }
  cg::this_cluster().sync();
}

int main(int argc, char** argv) {
  const char* m = argc > 1 ? argv[1] : "one_waits";
  int *src = nullptr, *out = nullptr;
  cudaMalloc(&src, 256 * sizeof(int));
  cudaMalloc(&out, 256 * sizeof(int));
  cudaMemset(src, 0, 256 * sizeof(int));
  if (!strcmp(m, "one_waits")) one_waits<<<1, 128>>>(src, out);
  else if (!strcmp(m, "stale_phase")) stale_phase<<<1, 128>>>(src, out);
  else if (!strcmp(m, "unsynced_store")) unsynced_store<<<1, 128>>>(out);
  else if (!strcmp(m, "two_reductions")) two_reductions<<<3, 128>>>(out);
  else if (!strcmp(m, "peer_src_reuse")) peer_src<<<2, 128>>>(out, 0);
  else if (!strcmp(m, "peer_src_ack")) peer_src<<<2, 128>>>(out, 1);
  printf("%s: %s\n", m, cudaGetErrorName(cudaDeviceSynchronize()));
  int h = 0;
  cudaMemcpy(&h, out, sizeof(int), cudaMemcpyDeviceToHost);
  if (!strcmp(m, "two_reductions")) printf("buf[0] = %d\n", h);  // 1000 + 2000
  cudaFree(src);
  cudaFree(out);
  return 0;
}
