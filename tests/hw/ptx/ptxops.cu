// Issue 29 item 4 on a GPU: what the H200 answers for the sm_90 instructions warpscope learned here.
//   ptxops policy     createpolicy: the 64-bit policy of each fractional and range form (immediate
//                     and register operands), one line per form: "policy <form> <operands> 0x<bits>"
//   ptxops cluster    getctarank, st.async and red.async into the next CTA of a 4-CTA cluster with
//                     the peer's mbarrier complete_tx: the peer's words after its mbarrier completed
//   ptxops pack       cvt.pack.sat.{u4,s4,u2,s2}.s32.b32 d, a, b, c over a grid of a, b and c
//   ptxops hints N    applypriority / discard / prefetch kernels (for ncu: tests/hw/capture_ptxops.sh),
//                     then whether the data under them kept its values
// Built with: nvcc -arch=sm_90 -o ptxops tests/hw/ptx/ptxops.cu
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::printf("error %s at line %d: %s\n", #x, __LINE__, cudaGetErrorString(e_));              \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

using u64 = unsigned long long;

// ---------------------------------------------------------------------------------------- policy
constexpr int kImmForms = 14;
__global__ void k_policy_imm(u64* out) {
  u64 p;
#define POL(i, text)                     \
  asm volatile(text : "=l"(p));          \
  out[i] = p;
  POL(0, "createpolicy.fractional.L2::evict_last.b64 %0;")
  POL(1, "createpolicy.fractional.L2::evict_normal.b64 %0;")
  POL(2, "createpolicy.fractional.L2::evict_first.b64 %0;")
  POL(3, "createpolicy.fractional.L2::evict_unchanged.b64 %0;")
  POL(4, "createpolicy.fractional.L2::evict_last.b64 %0, 1.0;")
  POL(5, "createpolicy.fractional.L2::evict_last.b64 %0, 0.5;")
  POL(6, "createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, 0.5;")
  POL(7, "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %0, 0.5;")
  POL(8, "createpolicy.fractional.L2::evict_normal.L2::evict_first.b64 %0, 0.75;")
  POL(9, "createpolicy.fractional.L2::evict_unchanged.L2::evict_first.b64 %0, 0.25;")
  POL(10, "createpolicy.fractional.L2::evict_first.L2::evict_unchanged.b64 %0, 0.125;")
  POL(11, "createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, 1.0;")
  POL(12, "createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, 0.001;")
  POL(13, "createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, 0.3;")
#undef POL
}
static const char* kImmNames[kImmForms] = {
    "fractional.L2::evict_last", "fractional.L2::evict_normal", "fractional.L2::evict_first",
    "fractional.L2::evict_unchanged", "fractional.L2::evict_last 1.0", "fractional.L2::evict_last 0.5",
    "fractional.L2::evict_last.L2::evict_first 0.5", "fractional.L2::evict_last.L2::evict_unchanged 0.5",
    "fractional.L2::evict_normal.L2::evict_first 0.75", "fractional.L2::evict_unchanged.L2::evict_first 0.25",
    "fractional.L2::evict_first.L2::evict_unchanged 0.125", "fractional.L2::evict_last.L2::evict_first 1.0",
    "fractional.L2::evict_last.L2::evict_first 0.001", "fractional.L2::evict_last.L2::evict_first 0.3"};

constexpr int kFracs = 24;
__global__ void k_policy_frac(const float* f, u64* out) {
  int i = threadIdx.x;
  if (i >= kFracs) return;
  u64 a, b, c, d;
  asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_first.b64 %0, %1;" : "=l"(a) : "f"(f[i]));
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, %1;" : "=l"(b) : "f"(f[i]));
  asm volatile("createpolicy.fractional.L2::evict_normal.L2::evict_unchanged.b64 %0, %1;" : "=l"(c) : "f"(f[i]));
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, %1;" : "=l"(d) : "f"(f[i]));
  out[4 * i] = a;
  out[4 * i + 1] = b;
  out[4 * i + 2] = c;
  out[4 * i + 3] = d;
}
static const char* kFracNames[4] = {"fractional.L2::evict_last.L2::evict_first reg",
                                    "fractional.L2::evict_last reg",
                                    "fractional.L2::evict_normal.L2::evict_unchanged reg",
                                    "fractional.L2::evict_first reg"};

constexpr int kAddrs = 8, kSizes = 10;
__global__ void k_policy_range(const u64* addrs, const unsigned* sizes, u64* out) {
  int i = threadIdx.x;
  if (i >= kAddrs * kSizes) return;
  u64 a = addrs[i / kSizes];
  unsigned prim = sizes[2 * (i % kSizes)], total = sizes[2 * (i % kSizes) + 1];
  u64 p0, p1, p2, p3;
  asm volatile("createpolicy.range.global.L2::evict_last.L2::evict_first.b64 %0, [%1], %2, %3;"
               : "=l"(p0) : "l"(a), "r"(prim), "r"(total));
  asm volatile("createpolicy.range.L2::evict_last.L2::evict_unchanged.b64 %0, [%1], %2, %3;"
               : "=l"(p1) : "l"(a), "r"(prim), "r"(total));
  asm volatile("createpolicy.range.global.L2::evict_normal.L2::evict_first.b64 %0, [%1], %2, %3;"
               : "=l"(p2) : "l"(a), "r"(prim), "r"(total));
  asm volatile("createpolicy.range.global.L2::evict_first.b64 %0, [%1], %2, %3;"
               : "=l"(p3) : "l"(a), "r"(prim), "r"(total));
  out[4 * i] = p0;
  out[4 * i + 1] = p1;
  out[4 * i + 2] = p2;
  out[4 * i + 3] = p3;
}
static const char* kRangeNames[4] = {"range.global.L2::evict_last.L2::evict_first",
                                     "range.L2::evict_last.L2::evict_unchanged",
                                     "range.global.L2::evict_normal.L2::evict_first",
                                     "range.global.L2::evict_first"};

// A policy used by ld/st/cp.async with .L2::cache_hint: the data must come through unchanged.
__global__ void k_policy_use(const unsigned* in, unsigned* out) {
  u64 p;
  asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(p));
  unsigned v;
  asm volatile("ld.global.L2::cache_hint.u32 %0, [%1], %2;" : "=r"(v) : "l"(in + threadIdx.x), "l"(p));
  asm volatile("st.global.L2::cache_hint.u32 [%0], %1, %2;" ::"l"(out + threadIdx.x), "r"(v + 1), "l"(p));
}

static int run_policy() {
  u64* d;
  CK(cudaMalloc(&d, 4096 * sizeof(u64)));
  u64 h[4096];
  k_policy_imm<<<1, 1>>>(d);
  CK(cudaMemcpy(h, d, kImmForms * sizeof(u64), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kImmForms; ++i) std::printf("policy imm %s = 0x%016llx\n", kImmNames[i], h[i]);

  const float fr[kFracs] = {0.0f,  1.0f / 256, 1.0f / 128, 0.01f, 0.1f,  0.125f, 0.2f,  0.25f,
                            0.3f,  0.333f,     0.4f,       0.5f,  0.6f,  0.66f,  0.7f,  0.75f,
                            0.8f,  0.9f,       0.95f,      0.99f, 0.999f, 1.0f,  0.0625f, 0.00390625f * 3};
  float* df;
  CK(cudaMalloc(&df, sizeof fr));
  CK(cudaMemcpy(df, fr, sizeof fr, cudaMemcpyHostToDevice));
  k_policy_frac<<<1, 32>>>(df, d);
  CK(cudaMemcpy(h, d, 4 * kFracs * sizeof(u64), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kFracs; ++i) {
    unsigned bits;
    std::memcpy(&bits, &fr[i], 4);
    for (int k = 0; k < 4; ++k)
      std::printf("policy %s %.9g (0x%08x) = 0x%016llx\n", kFracNames[k], fr[i], bits, h[4 * i + k]);
  }

  u64 buf;
  {
    void* p;
    CK(cudaMalloc(&p, 1 << 20));
    buf = reinterpret_cast<u64>(p);
  }
  const u64 addrs[kAddrs] = {0, 0x1000, 0x12345680, 0x123456789abcULL, buf, buf + 0x80, buf + 0x12345,
                             0x7fff00001000ULL};
  const unsigned sizes[2 * kSizes] = {4096, 4096, 0, 8192, 1u << 20, 1u << 22, 128, 256, 1, 1,
                                      100, 1000, 0, 0, 65536, 0xffffffffu, 0xffffffffu, 0xffffffffu,
                                      12345, 67890};
  u64* da;
  unsigned* ds;
  CK(cudaMalloc(&da, sizeof addrs));
  CK(cudaMalloc(&ds, sizeof sizes));
  CK(cudaMemcpy(da, addrs, sizeof addrs, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(ds, sizes, sizeof sizes, cudaMemcpyHostToDevice));
  k_policy_range<<<1, 128>>>(da, ds, d);
  CK(cudaMemcpy(h, d, 4 * kAddrs * kSizes * sizeof(u64), cudaMemcpyDeviceToHost));
  for (int i = 0; i < kAddrs * kSizes; ++i)
    for (int k = 0; k < 4; ++k)
      std::printf("policy %s a=0x%llx%s primary=%u total=%u = 0x%016llx\n", kRangeNames[k], addrs[i / kSizes],
                  (i / kSizes >= 4 && i / kSizes <= 6) ? " (allocation)" : "", sizes[2 * (i % kSizes)],
                  sizes[2 * (i % kSizes) + 1], h[4 * i + k]);

  unsigned* io;
  CK(cudaMalloc(&io, 256 * sizeof(unsigned)));
  unsigned hi[64];
  for (int i = 0; i < 64; ++i) hi[i] = 1000u + i;
  CK(cudaMemcpy(io, hi, sizeof hi, cudaMemcpyHostToDevice));
  k_policy_use<<<1, 64>>>(io, io + 128);
  CK(cudaMemcpy(hi, io + 128, sizeof hi, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int i = 0; i < 64; ++i) bad += hi[i] != 1001u + i;
  std::printf("policy used by ld/st .L2::cache_hint: %s\n", bad ? "WRONG" : "values as without a policy");
  CK(cudaDeviceSynchronize());
  return 0;
}

// --------------------------------------------------------------------------------------- cluster
constexpr int kClusterWords = 32;
// Bytes the peer's st.async / red.async complete on this CTA's mbarrier: st.async .b32 4, .b64 8,
// .v2.b32 8, .v4.b32 16, .v2.b64 16, .f32 4, .s64 8; red.async: 12 x 4 bytes (.u32/.s32/.b32) and
// 8 (.add.u64). If this count is not the hardware's, the wait below gives up and says so.
constexpr unsigned kTxBytes = 4 + 8 + 8 + 16 + 16 + 4 + 8 + 12 * 4 + 8;

__global__ void __cluster_dims__(4, 1, 1) k_cluster(unsigned* out, unsigned* ranks) {
  __shared__ alignas(16) unsigned w[kClusterWords];
  __shared__ alignas(8) u64 bar;
  const unsigned tid = threadIdx.x;
  unsigned rank, nrank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(nrank));
  // Initial words: st.async targets 0, red.async targets the values in the table below.
  const unsigned init[kClusterWords] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                        3,          // 18 inc b=5  -> 4
                                        5,          // 19 inc b=5  -> 0 (old >= b)
                                        0,          // 20 dec b=7  -> 7 (old == 0)
                                        3,          // 21 dec b=7  -> 2
                                        9,          // 22 dec b=7  -> 7 (old > b)
                                        10,         // 23 min.u32 0xfffffff0 -> 10
                                        10,         // 24 max.u32 0xfffffff0 -> 0xfffffff0
                                        0xfffffffbu,  // 25 min.s32 3 -> -5
                                        0xfffffffbu,  // 26 max.s32 3 -> 3
                                        0xf0f0f0f0u,  // 27 and 0xff00ff00 -> 0xf000f000
                                        0xf0f0f0f0u,  // 28 or  0x0f000f00 -> 0xfff0fff0
                                        0xffffffffu,  // 29 add.u32 2 -> 1 (wraps)
                                        0xfffffffeu,  // 30 add.u64 lo (64-bit at 30: 0x1fffffffe + 3)
                                        1};           // 31 hi
  if (tid < kClusterWords) w[tid] = init[tid];
  if (tid == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"((unsigned)__cvta_generic_to_shared(&bar)));
    asm volatile("fence.mbarrier_init.release.cluster;");
  }
  __syncthreads();
  if (tid == 0)
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     (unsigned)__cvta_generic_to_shared(&bar)),
                 "r"(kTxBytes));
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;");
  const unsigned peer = (rank + 1) % nrank;
  unsigned lw = (unsigned)__cvta_generic_to_shared(w), lb = (unsigned)__cvta_generic_to_shared(&bar);
  unsigned rw, rb;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rw) : "r"(lw), "r"(peer));
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(rb) : "r"(lb), "r"(peer));
  if (tid == 0) {
    // getctarank: of the peer's address, of our own, and of generic addresses.
    unsigned g0, g1, g2, g3;
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(g0) : "r"(rw));
    asm volatile("getctarank.shared::cluster.u32 %0, %1;" : "=r"(g1) : "r"(lw + 4));
    u64 gen_peer, gen_own = reinterpret_cast<u64>(&w[3]);
    asm volatile("mapa.u64 %0, %1, %2;" : "=l"(gen_peer) : "l"(gen_own), "r"(peer));
    asm volatile("getctarank.u64 %0, %1;" : "=r"(g2) : "l"(gen_peer));
    asm volatile("getctarank.u64 %0, %1;" : "=r"(g3) : "l"(gen_own));
    u64 rw64 = rw;
    unsigned g4;
    asm volatile("getctarank.shared::cluster.u64 %0, %1;" : "=r"(g4) : "l"(rw64 + 8));
    ranks[rank * 8 + 0] = g0;
    ranks[rank * 8 + 1] = g1;
    ranks[rank * 8 + 2] = g2;
    ranks[rank * 8 + 3] = g3;
    ranks[rank * 8 + 4] = g4;
    ranks[rank * 8 + 5] = rw - lw;  // the peer's window offset (informational)

    const unsigned tag = 0x100u * (rank + 1);
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b32 [%0], %1, [%2];" ::"r"(rw),
                 "r"(tag | 0x11), "r"(rb));
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.b64 [%0], %1, [%2];" ::"r"(rw + 8),
                 "l"(0x2222000000000022ULL | ((u64)tag << 32)), "r"(rb));
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b32 [%0], {%1, %2}, [%3];" ::"r"(rw + 16),
                 "r"(tag | 0x31), "r"(tag | 0x32), "r"(rb));
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v4.b32 [%0], {%1, %2, %3, %4}, [%5];" ::"r"(
                     rw + 32),
                 "r"(tag | 0x41), "r"(tag | 0x42), "r"(tag | 0x43), "r"(tag | 0x44), "r"(rb));
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.b64 [%0], {%1, %2}, [%3];" ::"r"(rw + 48),
                 "l"(0x5151000000000051ULL), "l"(0x5252000000000052ULL | tag), "r"(rb));
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.f32 [%0], %1, [%2];" ::"r"(rw + 24),
                 "f"(1.5f), "r"(rb));
    asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.s64 [%0], %1, [%2];" ::"r"(rw + 64),
                 "l"(-2LL), "r"(rb));
    // red.async: words 18-31 (see init)
#define RA(op, idx, val)                                                                                    \
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes." op " [%0], %1, [%2];" ::"r"( \
                   rw + 4 * (idx)),                                                                         \
               "r"(val), "r"(rb));
    RA("inc.u32", 18, 5u)
    RA("inc.u32", 19, 5u)
    RA("dec.u32", 20, 7u)
    RA("dec.u32", 21, 7u)
    RA("dec.u32", 22, 7u)
    RA("min.u32", 23, 0xfffffff0u)
    RA("max.u32", 24, 0xfffffff0u)
    RA("min.s32", 25, 3u)
    RA("max.s32", 26, 3u)
    RA("and.b32", 27, 0xff00ff00u)
    RA("or.b32", 28, 0x0f000f00u)
#undef RA
    // 11 x 4 bytes so far; the u32 add goes to word 29, the u64 add to words 30-31.
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];" ::"r"(
                     rw + 4 * 29),
                 "r"(2u), "r"(rb));
    asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u64 [%0], %1, [%2];" ::"r"(
                     rw + 4 * 30),
                 "l"(3ULL), "r"(rb));
  }
  // Wait for our own mbarrier (phase 0), with a bound so a wrong byte count cannot hang.
  unsigned done = 0;
  for (long long spin = 0; spin < 20000000 && !done; ++spin) {
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0; selp.u32 %0, 1, 0, p; }"
        : "=r"(done)
        : "r"(lb));
  }
  __syncthreads();
  if (tid < kClusterWords) out[rank * (kClusterWords + 4) + tid] = w[tid];
  if (tid == 0) {
    out[rank * (kClusterWords + 4) + kClusterWords] = done;
    u64 state = bar;
    out[rank * (kClusterWords + 4) + kClusterWords + 1] = (unsigned)state;
    out[rank * (kClusterWords + 4) + kClusterWords + 2] = (unsigned)(state >> 32);
  }
  asm volatile("barrier.cluster.arrive.release.aligned; barrier.cluster.wait.acquire.aligned;");
}

static int run_cluster() {
  unsigned *d, *r;
  const int n = 4 * (kClusterWords + 4);
  CK(cudaMalloc(&d, n * 4));
  CK(cudaMalloc(&r, 32 * 4));
  CK(cudaMemset(d, 0xee, n * 4));
  CK(cudaMemset(r, 0xee, 32 * 4));
  k_cluster<<<4, 64>>>(d, r);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  unsigned h[n], hr[32];
  CK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hr, r, sizeof hr, cudaMemcpyDeviceToHost));
  for (int c = 0; c < 4; ++c) {
    std::printf("cluster rank %d getctarank peer=%u own=%u generic_peer=%u generic_own=%u peer_u64=%u window_delta=0x%x\n",
                c, hr[c * 8], hr[c * 8 + 1], hr[c * 8 + 2], hr[c * 8 + 3], hr[c * 8 + 4], hr[c * 8 + 5]);
    std::printf("cluster rank %d mbarrier_completed=%u state=0x%08x%08x words", c, h[c * (kClusterWords + 4) + kClusterWords],
                h[c * (kClusterWords + 4) + kClusterWords + 2], h[c * (kClusterWords + 4) + kClusterWords + 1]);
    for (int i = 0; i < kClusterWords; ++i) std::printf(" %08x", h[c * (kClusterWords + 4) + i]);
    std::printf("\n");
  }
  return 0;
}

// ------------------------------------------------------------------------------------------ pack
__global__ void k_pack(const int* a, int na, const unsigned* c, int nc, unsigned* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= na * na * nc) return;
  int x = a[i / (na * nc)], y = a[(i / nc) % na];
  unsigned z = c[i % nc], r0, r1, r2, r3;
  asm("cvt.pack.sat.u4.s32.b32 %0, %1, %2, %3;" : "=r"(r0) : "r"(x), "r"(y), "r"(z));
  asm("cvt.pack.sat.s4.s32.b32 %0, %1, %2, %3;" : "=r"(r1) : "r"(x), "r"(y), "r"(z));
  asm("cvt.pack.sat.u2.s32.b32 %0, %1, %2, %3;" : "=r"(r2) : "r"(x), "r"(y), "r"(z));
  asm("cvt.pack.sat.s2.s32.b32 %0, %1, %2, %3;" : "=r"(r3) : "r"(x), "r"(y), "r"(z));
  out[4 * i] = r0;
  out[4 * i + 1] = r1;
  out[4 * i + 2] = r2;
  out[4 * i + 3] = r3;
}

static int run_pack() {
  const int av[] = {-100, -9, -8, -3, -2, -1, 0, 1, 2, 3, 4, 7, 8, 15, 16, 100};
  const unsigned cv[] = {0, 0xffffffffu, 0x12345678u};
  const int na = 16, nc = 3, n = na * na * nc;
  int* da;
  unsigned *dc, *dout;
  CK(cudaMalloc(&da, sizeof av));
  CK(cudaMalloc(&dc, sizeof cv));
  CK(cudaMalloc(&dout, 4 * n * 4));
  CK(cudaMemcpy(da, av, sizeof av, cudaMemcpyHostToDevice));
  CK(cudaMemcpy(dc, cv, sizeof cv, cudaMemcpyHostToDevice));
  k_pack<<<(n + 127) / 128, 128>>>(da, na, dc, nc, dout);
  static unsigned h[4 * 16 * 16 * 3];
  CK(cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost));
  const char* names[4] = {"u4", "s4", "u2", "s2"};
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 4; ++k)
      std::printf("pack %s a=%d b=%d c=0x%08x = 0x%08x\n", names[k], av[i / (na * nc)], av[(i / nc) % na], cv[i % nc],
                  h[4 * i + k]);
  return 0;
}

// ----------------------------------------------------------------------------------------- hints
// One thread per 128-byte line: line = blockIdx.x * blockDim.x + threadIdx.x (lane stride 128 B).
__global__ void k_applypriority(char* p) {
  char* a = p + 128ull * (blockIdx.x * blockDim.x + threadIdx.x);
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(a));
}
__global__ void k_discard(char* p) {
  char* a = p + 128ull * (blockIdx.x * blockDim.x + threadIdx.x);
  asm volatile("discard.global.L2 [%0], 128;" ::"l"(a));
}
__global__ void k_prefetch_l2(char* p) {
  char* a = p + 128ull * (blockIdx.x * blockDim.x + threadIdx.x);
  asm volatile("prefetch.global.L2 [%0];" ::"l"(a));
}
// All 32 lanes of a warp on one line.
__global__ void k_discard_same(char* p) { asm volatile("discard.global.L2 [%0], 128;" ::"l"(p)); }
__global__ void k_applypriority_same(char* p) {
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(p));
}
// Each thread writes its line (8 x 16 bytes), then discards it (or not).
__global__ void k_write_discard(char* p, int discard) {
  uint4* a = reinterpret_cast<uint4*>(p + 128ull * (blockIdx.x * blockDim.x + threadIdx.x));
  for (int k = 0; k < 8; ++k) a[k] = make_uint4(k, k + 1, k + 2, k + 3);
  if (discard) asm volatile("discard.global.L2 [%0], 128;" ::"l"(a));
}

static int run_hints(int blocks) {
  const size_t bytes = 128ull * 256 * blocks;
  char* p;
  CK(cudaMalloc(&p, bytes));
  unsigned* hp = new unsigned[bytes / 4];
  for (size_t i = 0; i < bytes / 4; ++i) hp[i] = static_cast<unsigned>(i * 2654435761u);
  CK(cudaMemcpy(p, hp, bytes, cudaMemcpyHostToDevice));
  k_applypriority<<<1, 32>>>(p);
  k_applypriority<<<blocks, 256>>>(p);
  k_discard<<<1, 32>>>(p);
  k_discard<<<blocks, 256>>>(p);
  k_prefetch_l2<<<1, 32>>>(p);
  k_prefetch_l2<<<blocks, 256>>>(p);
  k_discard_same<<<1, 32>>>(p);
  k_applypriority_same<<<1, 32>>>(p);
  CK(cudaDeviceSynchronize());
  unsigned* back = new unsigned[bytes / 4];
  CK(cudaMemcpy(back, p, bytes, cudaMemcpyDeviceToHost));
  size_t kept = 0;
  for (size_t i = 0; i < bytes / 4; ++i) kept += back[i] == hp[i];
  std::printf("hints: after applypriority, discard and prefetch of %zu bytes, %zu of %zu words kept their values\n",
              bytes, kept, bytes / 4);
  k_write_discard<<<blocks, 256>>>(p, 0);
  k_write_discard<<<blocks, 256>>>(p, 1);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(back, p, bytes, cudaMemcpyDeviceToHost));
  kept = 0;
  for (size_t i = 0; i < bytes / 4; ++i) kept += back[i] == (i % 32) / 4 + i % 4;
  std::printf("hints: after writing then discarding, %zu of %zu words hold the written values\n", kept, bytes / 4);
  delete[] hp;
  delete[] back;
  return 0;
}

int main(int argc, char** argv) {
  const char* what = argc > 1 ? argv[1] : "all";
  int rc = 0;
  if (!std::strcmp(what, "policy") || !std::strcmp(what, "all")) rc |= run_policy();
  if (!std::strcmp(what, "cluster") || !std::strcmp(what, "all")) rc |= run_cluster();
  if (!std::strcmp(what, "pack") || !std::strcmp(what, "all")) rc |= run_pack();
  if (!std::strcmp(what, "hints")) rc |= run_hints(argc > 2 ? std::atoi(argv[2]) : 64);
  return rc;
}
