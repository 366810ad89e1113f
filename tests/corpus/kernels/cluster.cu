// Thread-block clusters and distributed shared memory (issue 18; docs/corpus.md).
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

// A cluster reduction: each CTA of a cluster of 4 sums its 4 * 256 inputs into shared memory,
// then rank 0 adds its peers' partial sums through distributed shared memory (map_shared_rank:
// mapa.u64 and a generic load) and writes one sum per cluster.
__global__ void __cluster_dims__(4, 1, 1) cluster_reduce(const unsigned* in, unsigned* out) {
  __shared__ unsigned part[256];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned base = blockIdx.x * 256 * 4;
  unsigned s = 0;
  for (int k = 0; k < 4; ++k) s += in[base + k * 256 + threadIdx.x];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = 128; w > 0; w /= 2) {
    if (threadIdx.x < static_cast<unsigned>(w)) part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x < 4) {
    unsigned v = *cluster.map_shared_rank(&part[0], threadIdx.x);
    for (int o = 2; o > 0; o /= 2) v += __shfl_down_sync(0xfu, v, o);
    if (threadIdx.x == 0) out[blockIdx.x / 4] = v;
  }
  cluster.sync();  // the peers' shared memory must outlive rank 0's reads
}

// The same sum with remote atomics into rank 0's word (atom.shared::cluster through a generic
// address), launched with a cluster dimension attribute (no __cluster_dims__).
__global__ void cluster_reduce_atomic(const unsigned* in, unsigned* out) {
  __shared__ unsigned total;
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) total = 0;
  cluster.sync();
  const unsigned base = blockIdx.x * 256 * 4;
  unsigned s = 0;
  for (int k = 0; k < 4; ++k) s += in[base + k * 256 + threadIdx.x];
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
  if (threadIdx.x % 32 == 0) atomicAdd(cluster.map_shared_rank(&total, 0), s);
  cluster.sync();
  if (cluster.block_rank() == 0 && threadIdx.x == 0) out[blockIdx.x / cluster.num_blocks()] = total;
}

// Every CTA writes its cluster special registers (one thread per CTA, 13 words).
__global__ void cluster_sregs(unsigned* out) {
  if (threadIdx.x != 0) return;
  const unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  unsigned v[13];
  asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(v[0]));
  asm("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(v[1]));
  asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(v[2]));
  asm("mov.u32 %0, %%cluster_nctaid.y;" : "=r"(v[3]));
  asm("mov.u32 %0, %%clusterid.x;" : "=r"(v[4]));
  asm("mov.u32 %0, %%clusterid.y;" : "=r"(v[5]));
  asm("mov.u32 %0, %%nclusterid.x;" : "=r"(v[6]));
  asm("mov.u32 %0, %%nclusterid.y;" : "=r"(v[7]));
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(v[8]));
  asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(v[9]));
  asm("{\n .reg .pred p;\n mov.pred p, %%is_explicit_cluster;\n selp.u32 %0, 1, 0, p;\n}" : "=r"(v[10]));
  asm("mov.u32 %0, %%cluster_ctaid.z;" : "=r"(v[11]));
  asm("mov.u32 %0, %%cluster_nctaid.z;" : "=r"(v[12]));
  for (int i = 0; i < 13; ++i) out[b * 13 + i] = v[i];
}

// mapa / shared::cluster addresses (rank in bits 24 and up); ld/red.shared::cluster on them.
__global__ void cluster_ring(unsigned* out) {
  __shared__ unsigned s[32];
  unsigned rank;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  s[threadIdx.x] = rank * 100 + threadIdx.x;
  asm volatile("barrier.cluster.arrive;\nbarrier.cluster.wait;" ::: "memory");
  const unsigned next = (rank + 1) % 4;
  unsigned own = static_cast<unsigned>(__cvta_generic_to_shared(&s[threadIdx.x])), remote, v;
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(remote) : "r"(own), "r"(next));
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(remote));
  out[blockIdx.x * 64 + threadIdx.x] = v;
  out[blockIdx.x * 64 + 32 + threadIdx.x] = remote;
  asm volatile("barrier.cluster.arrive;\nbarrier.cluster.wait;" ::: "memory");
  asm volatile("red.shared::cluster.add.u32 [%0], 1000;" ::"r"(remote) : "memory");
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
  out[4 * 64 + blockIdx.x * 32 + threadIdx.x] = s[threadIdx.x];
}

// A CTA that exits while a peer still reads its shared memory: undefined (reported).
__global__ void cluster_exit_early(unsigned* out, int spins) {
  __shared__ unsigned s[32];
  s[threadIdx.x] = threadIdx.x;
  cg::this_cluster().sync();
  if (cg::this_cluster().block_rank() == 0) return;  // rank 0 leaves at once
  for (int i = 0; i < spins; ++i) __nanosleep(10);
  out[threadIdx.x] = *cg::this_cluster().map_shared_rank(&s[threadIdx.x], 0);
}

// elect.sync, setmaxnreg-free launch control: griddepcontrol.wait returns at once.
__global__ void griddep(const unsigned* in, unsigned* out) {
  asm volatile("griddepcontrol.wait;" ::: "memory");
  out[threadIdx.x] = in[threadIdx.x] * 2;
  asm volatile("griddepcontrol.launch_dependents;");
}
