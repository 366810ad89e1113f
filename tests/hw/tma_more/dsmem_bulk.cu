// Ground truth for bulk copies and bulk reductions from a CTA's shared memory into a peer CTA's
// (cp.async.bulk / cp.reduce.async.bulk .shared::cluster.shared::cta.mbarrier::complete_tx::bytes,
// issue 18). A cluster of 2 CTAs (64 threads each): both fill `src` and `dst` (4096 bytes each)
// with their own patterns; rank 1 inits its mbarrier (count 1) and arrives with expect_tx(bytes);
// after cluster.sync rank 0's thread 0 issues the case's instruction into rank 1's `dst`, signalling
// rank 1's mbarrier; rank 1 waits (about 0.1 s at most) and copies `dst` out. The host prints,
// per case, whether the wait completed and `dst` as hex words.
// Usage: dsmem_bulk [CASE]   (no argument: every case, one launch each)
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <vector>
namespace cg = cooperative_groups;

struct Case { const char* name; int bytes; };
static const Case kCases[] = {
    {"copy", 16},    {"copy", 256},    {"copy", 4096},  {"add.u32", 256}, {"min.u32", 256}, {"max.s32", 256},
    {"inc.u32", 256}, {"dec.u32", 256}, {"xor.b32", 256}, {"add.u64", 256}, {"copy_off48", 64},
};
constexpr int kNum = sizeof(kCases) / sizeof(kCases[0]);

__device__ unsigned rank() { unsigned v; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(v)); return v; }
__device__ unsigned remote(unsigned cta_addr, unsigned r) {
  unsigned d;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(d) : "r"(cta_addr), "r"(r));
  return d;
}

__global__ void __cluster_dims__(2, 1, 1) dsmem(int kase, int bytes, unsigned* out, int* done) {
  __shared__ __align__(128) unsigned src[1024];
  __shared__ __align__(128) unsigned dst[1024];
  __shared__ __align__(8) unsigned long long bar;
  const unsigned me = rank();
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) {
    src[i] = 0x9E3779B9u * (i + 1) ^ (me << 28);                   // wide values, both signs
    dst[i] = (i % 7 == 0) ? 0u : (0x85EBCA6Bu * (i + 3)) >> (i % 5);  // zeros for inc/dec
  }
  const unsigned ba = (unsigned)__cvta_generic_to_shared(&bar);
  const unsigned sa = (unsigned)__cvta_generic_to_shared(src), da = (unsigned)__cvta_generic_to_shared(dst);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared.b64 [%0], 1;" ::"r"(ba));
    if (me == 1) asm volatile("mbarrier.arrive.expect_tx.shared.b64 _, [%0], %1;" ::"r"(ba), "r"(bytes) : "memory");
  }
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  cg::this_cluster().sync();
  if (me == 0 && threadIdx.x == 0) {
    const unsigned rd = remote(da, 1), rb = remote(ba, 1);
    switch (kase) {
      case 0: case 1: case 2:
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(rd), "r"(sa), "r"(bytes), "r"(rb) : "memory"); break;
      case 3: asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%0], [%1], %2, [%3];"
                           ::"r"(rd), "r"(sa), "r"(bytes), "r"(rb) : "memory"); break;
      case 4: asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.u32 [%0], [%1], %2, [%3];"
                           ::"r"(rd), "r"(sa), "r"(bytes), "r"(rb) : "memory"); break;
      case 5: asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.max.s32 [%0], [%1], %2, [%3];"
                           ::"r"(rd), "r"(sa), "r"(bytes), "r"(rb) : "memory"); break;
      case 6: asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.inc.u32 [%0], [%1], %2, [%3];"
                           ::"r"(rd), "r"(sa), "r"(bytes), "r"(rb) : "memory"); break;
      case 7: asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.dec.u32 [%0], [%1], %2, [%3];"
                           ::"r"(rd), "r"(sa), "r"(bytes), "r"(rb) : "memory"); break;
      case 8: asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.xor.b32 [%0], [%1], %2, [%3];"
                           ::"r"(rd), "r"(sa), "r"(bytes), "r"(rb) : "memory"); break;
      case 9: asm volatile("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u64 [%0], [%1], %2, [%3];"
                           ::"r"(rd), "r"(sa), "r"(bytes), "r"(rb) : "memory"); break;
      default:  // 64 bytes from src + 48 to dst + 48 (16-byte aligned, not 128)
        asm volatile("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                     ::"r"(rd + 48), "r"(sa + 48), "r"(bytes), "r"(rb) : "memory"); break;
    }
  }
  if (me == 1) {
    unsigned ok = 0;
    for (int spin = 0; spin < 100000 && !ok; ++spin)
      asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared.b64 p, [%1], 0;\nselp.u32 %0, 1, 0, p;\n}" : "=r"(ok) : "r"(ba) : "memory");
    if (threadIdx.x == 0) *done = ok;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) out[i] = dst[i];
  }
  cg::this_cluster().sync();
}

int main(int argc, char** argv) {
  const int only = argc > 1 ? std::atoi(argv[1]) : -1;
  unsigned* out;
  int* done;
  cudaMalloc(&out, 4096);
  cudaMalloc(&done, 4);
  std::vector<unsigned> h(1024);
  for (int k = 0; k < kNum; ++k) {
    if (only >= 0 && k != only) continue;
    cudaMemset(out, 0, 4096);
    cudaMemset(done, 0, 4);
    dsmem<<<2, 64>>>(k, kCases[k].bytes, out, done);
    const cudaError_t e = cudaDeviceSynchronize();
    int d = 0;
    cudaMemcpy(&d, done, 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(h.data(), out, 4096, cudaMemcpyDeviceToHost);
    std::printf("case %d %s %d bytes: %s, wait %s\n", k, kCases[k].name, kCases[k].bytes, cudaGetErrorString(e), d ? "complete" : "timed out");
    const int words = kCases[k].bytes / 4 + 32 < 1024 ? kCases[k].bytes / 4 + 32 : 1024;  // the bytes and the words after
    for (int i = 0; i < words; ++i) std::printf("%08x%c", h[i], i % 16 == 15 || i == words - 1 ? '\n' : ' ');
  }
  return 0;
}
