// Ground truth for cp.async (SASS LDGSTS) and mbarrier on a GPU (issue 18):
//  - one kernel per cp.async pattern (one block, one warp unless said): coalesced and strided
//    4/8/16-byte copies with .ca and .cg, repeated copies (L1 hits), zero fill (src-size 0, a
//    partial src-size, ignore-src), a shared-side bank conflict, 8 active lanes in two rows, and
//    8 warps reading the same 512 bytes; each checks the shared data it copied (zeros where the
//    ISA says so) and prints `name ok` or `name WRONG`;
//  - mbar_state: the raw 64-bit word of an mbarrier object and the state tokens after init,
//    arrive (with counts, .noComplete, .expect_tx), expect_tx, complete_tx, arrive_drop,
//    cp.async.mbarrier.arrive[.noinc], phase completion, plus test_wait/pending_count results,
//    printed as `mbar,<step>,<value hex>` lines.
// Run natively, then under `ncu --metrics ...` (capture_async.sh): one launch per kernel, in the
// order of kKernels below.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(x)                                                                   \
  do {                                                                             \
    cudaError_t e_ = (x);                                                          \
    if (e_ != cudaSuccess) {                                                       \
      std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

__device__ __forceinline__ unsigned smem(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// Copy sizes are immediates in PTX: one helper per (cache operator, size).
template <int kSize>
__device__ __forceinline__ void cp_ca(void* dst, const void* src, unsigned src_size) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(smem(dst)), "l"(src), "n"(kSize),
               "r"(src_size)
               : "memory");
}
__device__ __forceinline__ void cp_cg16(void* dst, const void* src, unsigned src_size) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(smem(dst)), "l"(src), "r"(src_size)
               : "memory");
}
__device__ __forceinline__ void cp_ca4_ignore(void* dst, const void* src, bool ignore) {
  asm volatile(
      "{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n cp.async.ca.shared.global [%0], [%1], 4, p;\n}\n" ::"r"(smem(dst)),
      "l"(src), "r"(static_cast<unsigned>(ignore))
      : "memory");
}
__device__ __forceinline__ void commit_wait() {
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;\n" ::: "memory");
}

constexpr int kShared = 16384;

// Every pattern kernel copies from `src` (bytes with value (i * 7 + 3) & 0xff at offset i) into
// shared memory, waits, and writes the whole shared buffer to `out` for the host to check.
#define PATTERN_KERNEL(name, body)                              \
  __global__ void name(const unsigned char* src, unsigned char* out) { \
    __shared__ __align__(128) unsigned char sh[kShared];        \
    for (int i = threadIdx.x; i < kShared; i += blockDim.x) sh[i] = 0xee; \
    __syncthreads();                                            \
    const unsigned l = threadIdx.x % 32;                        \
    const unsigned w = threadIdx.x / 32;                        \
    (void)l;                                                    \
    (void)w;                                                    \
    body;                                                       \
    commit_wait();                                              \
    __syncthreads();                                            \
    for (int i = threadIdx.x; i < kShared; i += blockDim.x) out[i] = sh[i]; \
  }

PATTERN_KERNEL(ca4_coal, cp_ca<4>(sh + 4 * l, src + 4 * l, 4))
PATTERN_KERNEL(ca8_coal, cp_ca<8>(sh + 8 * l, src + 8 * l, 8))
PATTERN_KERNEL(ca16_coal, cp_ca<16>(sh + 16 * l, src + 16 * l, 16))
PATTERN_KERNEL(cg16_coal, cp_cg16(sh + 16 * l, src + 16 * l, 16))
PATTERN_KERNEL(ca4_stride, cp_ca<4>(sh + 4 * l, src + 128 * l, 4))
PATTERN_KERNEL(ca8_stride, cp_ca<8>(sh + 8 * l, src + 128 * l, 8))
PATTERN_KERNEL(ca16_stride, cp_ca<16>(sh + 16 * l, src + 128 * l, 16))
PATTERN_KERNEL(cg16_stride, cp_cg16(sh + 16 * l, src + 128 * l, 16))
PATTERN_KERNEL(ca16_twice, cp_ca<16>(sh + 16 * l, src + 16 * l, 16); commit_wait();
               cp_ca<16>(sh + 4096 + 16 * l, src + 16 * l, 16))
PATTERN_KERNEL(cg16_twice, cp_cg16(sh + 16 * l, src + 16 * l, 16); commit_wait();
               cp_cg16(sh + 4096 + 16 * l, src + 16 * l, 16))
PATTERN_KERNEL(cg16_zfill, cp_cg16(sh + 16 * l, src + 16 * l, 0))
PATTERN_KERNEL(cg16_half, cp_cg16(sh + 16 * l, src + 16 * l, 8))
PATTERN_KERNEL(ca4_ignore_odd, cp_ca4_ignore(sh + 4 * l, src + 4 * l, (l & 1) != 0))
PATTERN_KERNEL(ca4_bank, cp_ca<4>(sh + 128 * l, src + 4 * l, 4))
PATTERN_KERNEL(ca16_rows, if ((l & 15) < 4) cp_ca<16>(sh + 16 * l, src + (l / 16) * 512 + 16 * (l & 3), 16))
PATTERN_KERNEL(cg16_rows, if ((l & 15) < 4) cp_cg16(sh + 16 * l, src + (l / 16) * 512 + 16 * (l & 3), 16))
PATTERN_KERNEL(cg16_8warps, cp_cg16(sh + 512 * w + 16 * l, src + 16 * l, 16))
PATTERN_KERNEL(ca16_8warps, cp_ca<16>(sh + 512 * w + 16 * l, src + 16 * l, 16))
PATTERN_KERNEL(ld_ref, reinterpret_cast<float*>(sh)[l] = reinterpret_cast<const float*>(src)[l])

struct Pattern {
  const char* name;
  void (*kernel)(const unsigned char*, unsigned char*);
  int threads;
};
const Pattern kKernels[] = {
    {"ca4_coal", ca4_coal, 32},       {"ca8_coal", ca8_coal, 32},         {"ca16_coal", ca16_coal, 32},
    {"cg16_coal", cg16_coal, 32},     {"ca4_stride", ca4_stride, 32},     {"ca8_stride", ca8_stride, 32},
    {"ca16_stride", ca16_stride, 32}, {"cg16_stride", cg16_stride, 32},   {"ca16_twice", ca16_twice, 32},
    {"cg16_twice", cg16_twice, 32},   {"cg16_zfill", cg16_zfill, 32},     {"cg16_half", cg16_half, 32},
    {"ca4_ignore_odd", ca4_ignore_odd, 32}, {"ca4_bank", ca4_bank, 32},   {"ca16_rows", ca16_rows, 32},
    {"cg16_rows", cg16_rows, 32},     {"cg16_8warps", cg16_8warps, 256},  {"ca16_8warps", ca16_8warps, 256},
    {"ld_ref", ld_ref, 32},
};

unsigned char src_byte(std::size_t i) { return static_cast<unsigned char>((i * 7 + 3) & 0xff); }

// What shared memory must hold after each pattern: 0xee where nothing was copied.
std::vector<unsigned char> expected(const char* name) {
  std::vector<unsigned char> e(kShared, 0xee);
  auto copy = [&](std::size_t dst, std::size_t srcoff, int size, int src_size) {
    for (int b = 0; b < size; ++b) e[dst + b] = b < src_size ? src_byte(srcoff + b) : 0;
  };
  const std::string n = name;
  for (unsigned l = 0; l < 32; ++l) {
    if (n == "ca4_coal") copy(4 * l, 4 * l, 4, 4);
    if (n == "ca8_coal") copy(8 * l, 8 * l, 8, 8);
    if (n == "ca16_coal" || n == "cg16_coal") copy(16 * l, 16 * l, 16, 16);
    if (n == "ca4_stride") copy(4 * l, 128 * l, 4, 4);
    if (n == "ca8_stride") copy(8 * l, 128 * l, 8, 8);
    if (n == "ca16_stride" || n == "cg16_stride") copy(16 * l, 128 * l, 16, 16);
    if (n == "ca16_twice" || n == "cg16_twice") copy(16 * l, 16 * l, 16, 16), copy(4096 + 16 * l, 16 * l, 16, 16);
    if (n == "cg16_zfill") copy(16 * l, 16 * l, 16, 0);
    if (n == "cg16_half") copy(16 * l, 16 * l, 16, 8);
    if (n == "ca4_ignore_odd") copy(4 * l, 4 * l, 4, (l & 1) ? 0 : 4);
    if (n == "ca4_bank") copy(128 * l, 4 * l, 4, 4);
    if ((n == "ca16_rows" || n == "cg16_rows") && (l & 15) < 4) copy(16 * l, (l / 16) * 512 + 16 * (l & 3), 16, 16);
    if (n == "cg16_8warps" || n == "ca16_8warps")
      for (unsigned w = 0; w < 8; ++w) copy(512 * w + 16 * l, 16 * l, 16, 16);
    if (n == "ld_ref") copy(4 * l, 4 * l, 4, 4);
  }
  return e;
}

// ---- mbarrier state -------------------------------------------------------------------------

__device__ __forceinline__ unsigned long long raw(unsigned long long* bar) {
  return *reinterpret_cast<volatile unsigned long long*>(bar);
}
__device__ __forceinline__ void init(unsigned long long* bar, unsigned count) {
  asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(smem(bar)), "r"(count) : "memory");
}
__device__ __forceinline__ unsigned long long arrive(unsigned long long* bar) {
  unsigned long long s;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(smem(bar)) : "memory");
  return s;
}
__device__ __forceinline__ unsigned long long arrive_n(unsigned long long* bar, unsigned n) {
  unsigned long long s;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(smem(bar)), "r"(n) : "memory");
  return s;
}
__device__ __forceinline__ unsigned long long arrive_nocomplete(unsigned long long* bar, unsigned n) {
  unsigned long long s;
  asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;" : "=l"(s) : "r"(smem(bar)), "r"(n) : "memory");
  return s;
}
__device__ __forceinline__ unsigned long long arrive_expect_tx(unsigned long long* bar, unsigned tx) {
  unsigned long long s;
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(smem(bar)), "r"(tx) : "memory");
  return s;
}
__device__ __forceinline__ unsigned long long arrive_drop(unsigned long long* bar) {
  unsigned long long s;
  asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(s) : "r"(smem(bar)) : "memory");
  return s;
}
__device__ __forceinline__ void expect_tx(unsigned long long* bar, unsigned tx) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem(bar)), "r"(tx) : "memory");
}
__device__ __forceinline__ void complete_tx(unsigned long long* bar, unsigned tx) {
  asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(smem(bar)), "r"(tx) : "memory");
}
__device__ __forceinline__ unsigned pending(unsigned long long state) {
  unsigned c;
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(c) : "l"(state));
  return c;
}
__device__ __forceinline__ unsigned test_wait(unsigned long long* bar, unsigned long long state) {
  unsigned r;
  asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.shared.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
               : "=r"(r)
               : "r"(smem(bar)), "l"(state)
               : "memory");
  return r;
}
__device__ __forceinline__ unsigned test_parity(unsigned long long* bar, unsigned parity) {
  unsigned r;
  asm volatile("{\n .reg .pred p;\n mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
               : "=r"(r)
               : "r"(smem(bar)), "r"(parity)
               : "memory");
  return r;
}
__device__ __forceinline__ void cp_arrive(unsigned long long* bar) {
  asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(smem(bar)) : "memory");
}
__device__ __forceinline__ void cp_arrive_noinc(unsigned long long* bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(smem(bar)) : "memory");
}

constexpr int kMbarSteps = 64;

__global__ void mbar_state(const unsigned char* src, unsigned long long* out) {
  __shared__ unsigned long long bar[4];
  __shared__ __align__(16) unsigned char buf[64];
  if (threadIdx.x != 0) return;
  int k = 0;
  auto put = [&](unsigned long long v) { out[k++] = v; };
  init(&bar[0], 5);                       // 0
  put(raw(&bar[0]));
  unsigned long long t1 = arrive(&bar[0]);  // 1: token, 2: raw
  put(t1);
  put(raw(&bar[0]));
  unsigned long long t2 = arrive_nocomplete(&bar[0], 2);  // 3 token, 4 raw, 5 pending(t2)
  put(t2);
  put(raw(&bar[0]));
  put(pending(t2));
  put(pending(t1));                       // 6
  expect_tx(&bar[0], 100);                // 7 raw
  put(raw(&bar[0]));
  complete_tx(&bar[0], 40);               // 8 raw
  put(raw(&bar[0]));
  unsigned long long t3 = arrive_expect_tx(&bar[0], 16);  // 9 token, 10 raw
  put(t3);
  put(raw(&bar[0]));
  unsigned long long t4 = arrive(&bar[0]);  // pending 0, tx 76: 11 token, 12 raw, 13 test_wait(t4), 14 parity0, 15 parity1
  put(t4);
  put(raw(&bar[0]));
  put(test_wait(&bar[0], t4));
  put(test_parity(&bar[0], 0));
  put(test_parity(&bar[0], 1));
  complete_tx(&bar[0], 76);               // phase completes: 16 raw, 17 test_wait(t4), 18 parity0, 19 parity1
  put(raw(&bar[0]));
  put(test_wait(&bar[0], t4));
  put(test_parity(&bar[0], 0));
  put(test_parity(&bar[0], 1));
  unsigned long long t5 = arrive_drop(&bar[0]);  // 20 token, 21 raw
  put(t5);
  put(raw(&bar[0]));
  unsigned long long t6 = arrive_n(&bar[0], 4);  // phase 1 completes with expected 4: 22 token, 23 raw
  put(t6);
  put(raw(&bar[0]));
  put(test_wait(&bar[0], t5));            // 24
  put(test_wait(&bar[0], t6));            // 25
  // A fresh barrier of count 1: each arrive completes a phase.
  init(&bar[1], 1);                       // 26 raw
  put(raw(&bar[1]));
  put(arrive(&bar[1]));                   // 27 token (phase 0), 28 raw
  put(raw(&bar[1]));
  put(arrive(&bar[1]));                   // 29 token (phase 1), 30 raw
  put(raw(&bar[1]));
  // The largest expected count; a negative tx-count.
  init(&bar[2], (1u << 20) - 1);          // 31 raw
  put(raw(&bar[2]));
  complete_tx(&bar[2], 24);               // 32 raw (tx-count -24)
  put(raw(&bar[2]));
  expect_tx(&bar[2], 24);                 // 33 raw
  put(raw(&bar[2]));
  // cp.async.mbarrier.arrive: .noinc takes one of the expected arrivals; without .noinc the
  // pending count is raised first (no net change).
  init(&bar[3], 3);                       // 34 raw
  put(raw(&bar[3]));
  cp_ca<16>(buf, src, 16);
  cp_arrive(&bar[3]);
  __nanosleep(20000);
  put(raw(&bar[3]));                      // 35
  cp_ca<16>(buf + 16, src + 16, 16);
  cp_arrive_noinc(&bar[3]);
  __nanosleep(20000);
  put(raw(&bar[3]));                      // 36
  put(arrive(&bar[3]));                   // 37 token, 38 raw
  put(raw(&bar[3]));
  put(arrive(&bar[3]));                   // 39 token (completes), 40 raw
  put(raw(&bar[3]));
  asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(smem(&bar[3])) : "memory");
  put(raw(&bar[3]));                      // 41 raw after inval
  put(k);
}

int main() {
  const std::size_t src_bytes = 1 << 20;
  std::vector<unsigned char> host(src_bytes);
  for (std::size_t i = 0; i < src_bytes; ++i) host[i] = src_byte(i);
  unsigned char *src = nullptr, *out = nullptr;
  unsigned long long* words = nullptr;
  CHECK(cudaMalloc(&src, src_bytes));
  CHECK(cudaMalloc(&out, kShared));
  CHECK(cudaMalloc(&words, kMbarSteps * sizeof(unsigned long long)));
  CHECK(cudaMemcpy(src, host.data(), src_bytes, cudaMemcpyHostToDevice));
  int failures = 0;
  for (const Pattern& p : kKernels) {
    CHECK(cudaMemset(out, 0, kShared));
    p.kernel<<<1, p.threads>>>(src, out);
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned char> got(kShared);
    CHECK(cudaMemcpy(got.data(), out, kShared, cudaMemcpyDeviceToHost));
    const bool ok = got == expected(p.name);
    failures += ok ? 0 : 1;
    std::printf("%s %s\n", p.name, ok ? "ok" : "WRONG");
  }
  CHECK(cudaMemset(words, 0, kMbarSteps * sizeof(unsigned long long)));
  mbar_state<<<1, 32>>>(src, words);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned long long> w(kMbarSteps);
  CHECK(cudaMemcpy(w.data(), words, w.size() * sizeof(w[0]), cudaMemcpyDeviceToHost));
  const unsigned long long steps = w[41 + 1];
  for (unsigned long long i = 0; i < steps && i < w.size(); ++i) std::printf("mbar,%llu,0x%016llx\n", i, w[i]);
  return failures == 0 ? 0 : 1;
}
