// Device helpers of the bulk-copy racecheck programs (tests/hw/sanitize/bulk_race_probe.cu, which
// the H200 ran, and tests/runtime/programs/bulk_race_more.cu): shared-memory addresses, a CTA's
// mbarrier (one arrival per phase) and a cluster's ranks. Each is a single PTX instruction or a
// spin on one, so a racecheck report names the kernel's line that calls it.
#pragma once

__device__ inline unsigned smem(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }

/// Initialises the mbarrier at shared address `b` for one arrival, visible to the cluster.
__device__ inline void bar_init(unsigned b) {
  asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(b));
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

/// Arrives on `b`, expecting `bytes` of asynchronous copies to complete the phase.
__device__ inline void bar_expect(unsigned b, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(b), "r"(bytes) : "memory");
}

/// Waits until the phase of `b` with parity `parity` has completed.
__device__ inline void bar_wait(unsigned b, unsigned parity = 0) {
  unsigned done = 0;
  while (!done)
    asm volatile("{.reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p;}"
                 : "=r"(done)
                 : "r"(b), "r"(parity)
                 : "memory");
}

__device__ inline unsigned cluster_rank() {
  unsigned v;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v));
  return v;
}

/// The shared::cluster address of shared address `a` in the cluster's CTA of rank `r`.
__device__ inline unsigned mapa(unsigned a, unsigned r) {
  unsigned d;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(r));
  return d;
}
