// mbarriers of other CTAs of a cluster (issue 18; docs/corpus.md): remote arrive-on and
// transaction-count operations through .shared::cluster addresses (mapa), and bulk copies into a
// peer CTA's shared memory and .multicast::cluster.
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

__device__ unsigned cta_rank() {
  unsigned v;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v));
  return v;
}
__device__ unsigned shared_of(const void* p) { return static_cast<unsigned>(__cvta_generic_to_shared(p)); }
__device__ unsigned remote(const void* p, unsigned r) {
  unsigned d;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(shared_of(p)), "r"(r));
  return d;
}
__device__ void wait_parity(unsigned bar, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile("{.reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p;}"
                 : "=r"(done)
                 : "r"(bar), "r"(parity)
                 : "memory");
}

// A ring of 4 CTAs (64 threads each): rank r writes 64 words into rank r+1's buffer (st.shared::
// cluster), then thread 0 arrives on rank r+1's mbarrier (count 1) after an expect_tx/complete_tx
// pair of 16 on it. Each CTA waits on its own mbarrier (which only its predecessor completes)
// and writes what it received: out[blockIdx.x * 64 + i] = in[pred * 64 + i] * 3 + pred.
// `rounds` repeats the exchange (the mbarrier's phase parity alternates).
__global__ void __cluster_dims__(4, 1, 1) ring_arrive(const unsigned* in, unsigned* out, int rounds) {
  __shared__ unsigned buf[64];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned me = cta_rank();
  const unsigned next = (me + 1) % 4;
  const unsigned first = blockIdx.x - me;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_of(&bar)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  cg::this_cluster().sync();
  const unsigned rbuf = remote(&buf[threadIdx.x], next), rbar = remote(&bar, next);
  for (int k = 0; k < rounds; ++k) {
    const unsigned v = in[(first + me) * 64 + threadIdx.x] * 3 + me + k;
    asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(rbuf), "r"(v) : "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
      asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], 16;" ::"r"(rbar) : "memory");
      asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%0], 16;" ::"r"(rbar) : "memory");
      asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(rbar) : "memory");
    }
    wait_parity(shared_of(&bar), k & 1);
    out[(blockIdx.x * rounds + k) * 64 + threadIdx.x] = buf[threadIdx.x];
    cg::this_cluster().sync();  // the buffer is read before the predecessor writes it again
  }
}

// Rank 0 waits for an arrival that never comes (its peers arrive on rank 1's mbarrier): a deadlock.
__global__ void __cluster_dims__(2, 1, 1) lost_arrival() {
  __shared__ __align__(8) unsigned long long bar;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_of(&bar)) : "memory");
  cg::this_cluster().sync();
  if (threadIdx.x == 0 && cta_rank() == 0)
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote(&bar, 1)) : "memory");
  if (threadIdx.x == 0) wait_parity(shared_of(&bar), 0);
}

// Bulk copies from global memory into the cluster (4 CTAs of 64 threads): rank 0 copies 512 bytes
// of `src` (at word 32 * blockIdx.x) either into rank `peer`'s buffer with rank `peer`'s mbarrier
// (peer >= 0) or with .multicast::cluster to the CTAs of `mask` (peer < 0). Every destination
// expects 512 bytes on its own mbarrier and waits; each CTA then writes its buffer (words not
// written keep 0xC0DE0000 + index).
__global__ void __cluster_dims__(4, 1, 1) bulk_to_cluster(const unsigned* src, unsigned* out, unsigned mask, int peer) {
  __shared__ __align__(128) unsigned buf[256];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned me = cta_rank();
  const unsigned first = blockIdx.x - me;
  const unsigned targets = peer >= 0 ? 1u << peer : mask;
  for (int i = threadIdx.x; i < 256; i += blockDim.x) buf[i] = 0xC0DE0000u + i;
  const unsigned ba = shared_of(&bar), sa = shared_of(&buf[64]);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(ba) : "memory");
    if ((targets >> me) & 1) asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 512;" ::"r"(ba) : "memory");
  }
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cg::this_cluster().sync();
  if (me == 0 && threadIdx.x == 0) {
    const unsigned* from = src + 32 * first;
    if (peer >= 0) {
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], 512, [%2];"
                   ::"r"(remote(&buf[64], peer)), "l"(from), "r"(remote(&bar, peer)) : "memory");
    } else {
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], 512, [%2], %3;"
                   ::"r"(sa), "l"(from), "r"(ba), "h"(static_cast<unsigned short>(mask)) : "memory");
    }
  }
  if ((targets >> me) & 1) wait_parity(ba, 0);
  cg::this_cluster().sync();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) out[blockIdx.x * 256 + i] = buf[i];
}

// A cluster reduction through distributed shared memory with bulk reductions (4 CTAs of 64
// threads): every rank but 0 adds its 64 words (`src` at 64 * blockIdx.x) into rank 0's `acc`
// with cp.reduce.async.bulk .add.u32, and copies them with cp.async.bulk into rank 0's `copy`
// row of its rank; rank 0 expects 3 x 256 bytes of each on its two mbarriers, adds its own words
// and writes `acc`, then the three copied rows.
__global__ void __cluster_dims__(4, 1, 1) bulk_reduce_to_rank0(const unsigned* src, unsigned* out) {
  __shared__ __align__(128) unsigned mine[64], acc[64], copy[4][64];
  __shared__ __align__(8) unsigned long long bar_red, bar_copy;
  const unsigned me = cta_rank();
  const unsigned first = blockIdx.x - me;
  for (int i = threadIdx.x; i < 64; i += blockDim.x) {
    mine[i] = src[64 * blockIdx.x + i];
    acc[i] = 0;
  }
  const unsigned br = shared_of(&bar_red), bc = shared_of(&bar_copy);
  if (threadIdx.x == 0 && me == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(br) : "memory");
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bc) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 768;" ::"r"(br) : "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 768;" ::"r"(bc) : "memory");
  }
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cg::this_cluster().sync();
  if (me != 0 && threadIdx.x == 0) {
    asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], 256, [%2];"
                 ::"r"(remote(acc, 0)), "r"(shared_of(mine)), "r"(remote(&bar_red, 0)) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], 256, [%2];"
                 ::"r"(remote(copy[me], 0)), "r"(shared_of(mine)), "r"(remote(&bar_copy, 0)) : "memory");
  }
  if (me == 0) {
    wait_parity(br, 0);
    wait_parity(bc, 0);
    for (int i = threadIdx.x; i < 64; i += blockDim.x) {
      out[first * 64 + i] = acc[i] + mine[i];
      for (int r = 1; r < 4; ++r) out[(first + r) * 64 + i] = copy[r][i];
    }
  }
  cg::this_cluster().sync();
}

// A bulk copy into a peer of 24 bytes (not a multiple of 16): undefined.
__global__ void __cluster_dims__(2, 1, 1) bulk_to_peer_odd_size() {
  __shared__ __align__(128) unsigned buf[64];
  __shared__ __align__(8) unsigned long long bar;
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_of(&bar)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  cg::this_cluster().sync();
  if (cta_rank() == 0 && threadIdx.x == 0) {
    const int bytes = 24;
    asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(remote(buf, 1)), "r"(shared_of(buf)), "r"(bytes), "r"(remote(&bar, 1)) : "memory");
  }
  cg::this_cluster().sync();
}
