// racecheck of distributed shared memory (docs/sanitize.md, "racecheck, distributed shared
// memory"): a cluster of 2 CTAs of 32 threads. After a cluster barrier (the peers' shared memory
// is live and initialised), thread t of rank 0 stores t * 3 into word t of rank 1's `buf`
// (mapa + st.shared::cluster), then thread t of rank 1 reads its own buf[t] and writes it out.
// What orders the store before the read, per mode:
//   nobarrier  nothing: a RAW hazard per thread
//   barrier    barrier.cluster.arrive.release + barrier.cluster.wait.acquire: none
//   relaxed    barrier.cluster.arrive.relaxed + barrier.cluster.wait: .relaxed releases nothing
//   mbar_cta   __syncthreads, then thread 0 of rank 0 arrives on rank 1's mbarrier with
//              mbarrier.arrive.release.cluster; rank 1 waits with try_wait (.acquire.cta, the
//              default scope): not morally strong with the other CTA's release, so unordered
//   mbar_cluster  the same with try_wait.acquire.cluster: ordered (the release is cumulative:
//              the other threads' stores come before thread 0's arrive through __syncthreads)
//   flag       __syncthreads, then thread 0 of rank 0 sets rank 1's `flag` with
//              st.release.cluster.shared::cluster; rank 1's threads spin on it with
//              ld.acquire.cluster.shared until it is 1: ordered, and the flag's own strong
//              accesses are no race
// Every mode ends with a cluster barrier (no CTA exits while its peer may still reach it).
#include <cstdio>
#include <cstring>

__device__ unsigned shared_of(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

__global__ void __cluster_dims__(2, 1, 1) exchange(unsigned* out, int mode) {
  __shared__ unsigned buf[32];
  __shared__ __align__(8) unsigned long long bar;
  __shared__ unsigned flag;
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  const unsigned t = threadIdx.x;
  buf[t] = 100 + t;
  if (t == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_of(&bar)) : "memory");
  if (t == 0) asm volatile("st.relaxed.cluster.shared.u32 [%0], 0;" ::"r"(shared_of(&flag)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("barrier.cluster.arrive;\nbarrier.cluster.wait;" ::: "memory");
  if (rank == 0) {
    unsigned remote, rbar;
    asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(remote) : "r"(shared_of(&buf[t])));
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(remote), "r"(t * 3) : "memory");  // store to the peer
    if (mode == 3 || mode == 4) {
      __syncthreads();
      asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(rbar) : "r"(shared_of(&bar)));
      if (t == 0) asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(rbar) : "memory");
    }
    if (mode == 5) {
      __syncthreads();
      unsigned rflag;
      asm volatile("mapa.shared::cluster.u32 %0, %1, 1;" : "=r"(rflag) : "r"(shared_of(&flag)));
      if (t == 0) asm volatile("st.release.cluster.shared::cluster.u32 [%0], 1;" ::"r"(rflag) : "memory");
    }
  }
  if (mode == 1) asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
  if (mode == 2) asm volatile("barrier.cluster.arrive.relaxed;\nbarrier.cluster.wait;" ::: "memory");
  if (rank == 1) {
    if (mode == 5) {
      unsigned seen = 0;
      while (seen == 0) asm volatile("ld.acquire.cluster.shared.u32 %0, [%1];" : "=r"(seen) : "r"(shared_of(&flag)) : "memory");
    }
    if (mode == 3 || mode == 4) {
      unsigned done = 0;
      while (!done) {
        if (mode == 3)
          asm volatile("{.reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p;}"
                       : "=r"(done) : "r"(shared_of(&bar)) : "memory");
        else
          asm volatile("{.reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], 0; "
                       "selp.u32 %0, 1, 0, p;}"
                       : "=r"(done) : "r"(shared_of(&bar)) : "memory");
      }
    }
    out[t] = buf[t];  // read of what the peer stored
  }
  asm volatile("barrier.cluster.arrive;\nbarrier.cluster.wait;" ::: "memory");
}

int main(int argc, char** argv) {
  const char* names[] = {"nobarrier", "barrier", "relaxed", "mbar_cta", "mbar_cluster", "flag"};
  int mode = -1;
  for (int m = 0; m < 6; ++m)
    if (argc > 1 && std::strcmp(argv[1], names[m]) == 0) mode = m;
  if (mode < 0) {
    std::fprintf(stderr, "usage: cluster_race nobarrier|barrier|relaxed|mbar_cta|mbar_cluster|flag\n");
    return 2;
  }
  unsigned* out = nullptr;
  cudaMalloc(&out, 32 * sizeof(unsigned));
  exchange<<<2, 32>>>(out, mode);
  const cudaError_t e = cudaDeviceSynchronize();
  unsigned host[32] = {};
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  std::printf("%s: %s %u %u\n", names[mode], cudaGetErrorName(e), host[1], host[31]);
  cudaFree(out);
  return 0;
}
