// Shared-memory wavefronts of one warp instruction (issue 34, item 0): one CTA of one warp runs
// exactly one shared access whose lane -> byte offset map comes from a table (a negative offset
// leaves the lane inactive), so Nsight Compute's per-launch shared wavefront counters are the
// access's own (the kernel's other accesses are global). Each case is one launch, in the order
// printed ("case N op width name"). The accesses are inline PTX, so each is one machine
// instruction of the named width:
//   ld  W=1,2,4,8,16  ld.shared.{u8,u16,u32,v2.u32,v4.u32}   -> LDS.U8/U16/32/64/128
//   st  W=1,2,4,8,16  st.shared.{...}                        -> STS.*
//   atom W=4 atom.shared.add.u32, W=8 atom.shared.add.u64 (ATOMS.ADD / ATOMS.ADD.64),
//   cas W=4 atom.shared.cas.b32, exch W=4 atom.shared.exch.b32
// Two compiler-made kernels follow (quad: four scalar float loads p[0..3] at 16*lane, pair: two
// at 8*lane; what ptxas makes of them is in the SASS).
// Build: nvcc -O3 -arch=sm_90 -lineinfo lds_micro.cu
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include <cuda_runtime.h>

#include "lds_patterns.hpp"

#define CHECK(x)                                                                          \
  do {                                                                                    \
    cudaError_t e_ = (x);                                                                 \
    if (e_ != cudaSuccess) {                                                              \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

constexpr int kSharedBytes = 8192;

enum Kind { kLd, kSt, kAtom, kCas, kExch };

template <int Kind, int W>
__global__ void one_access(const int* offs, unsigned* out) {
  __shared__ __align__(16) unsigned char smem[kSharedBytes];
  const unsigned lane = threadIdx.x;
  const int off = offs[lane];
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  if (off >= 0) {
    const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(smem)) + static_cast<unsigned>(off);
    if (Kind == kLd) {
      if (W == 1) asm volatile("ld.shared.u8 %0, [%1];" : "=r"(r0) : "r"(a) : "memory");
      if (W == 2) asm volatile("ld.shared.u16 %0, [%1];" : "=r"(r0) : "r"(a) : "memory");
      if (W == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r0) : "r"(a) : "memory");
      if (W == 8) asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a) : "memory");
      if (W == 16)
        asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                     : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
                     : "r"(a)
                     : "memory");
    } else if (Kind == kSt) {
      const unsigned v = lane;
      if (W == 1) asm volatile("st.shared.u8 [%0], %1;" ::"r"(a), "r"(v) : "memory");
      if (W == 2) asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "r"(v) : "memory");
      if (W == 4) asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
      if (W == 8) asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(v), "r"(v + 1) : "memory");
      if (W == 16)
        asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3)
                     : "memory");
    } else if (Kind == kAtom) {
      if (W == 4) asm volatile("atom.shared.add.u32 %0, [%1], 1;" : "=r"(r0) : "r"(a) : "memory");
      if (W == 8) {
        unsigned long long q;
        asm volatile("atom.shared.add.u64 %0, [%1], 1;" : "=l"(q) : "r"(a) : "memory");
        r0 = static_cast<unsigned>(q);
      }
    } else if (Kind == kCas) {
      asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(r0) : "r"(a), "r"(lane), "r"(lane + 1) : "memory");
    } else {
      asm volatile("atom.shared.exch.b32 %0, [%1], %2;" : "=r"(r0) : "r"(a), "r"(lane) : "memory");
    }
  }
  out[lane] = r0 + r1 + r2 + r3;
}

// Four (two) adjacent scalar float loads per lane, left for the compiler to merge.
__global__ void quad(const int* offs, float* out) {
  __shared__ __align__(16) float s[kSharedBytes / 4];
  const unsigned lane = threadIdx.x;
  s[lane] = offs[lane];
  __syncthreads();
  const float* p = s + 4 * lane;
  out[lane] = p[0] + p[1] * 2.f + p[2] * 3.f + p[3] * 4.f;
}
__global__ void pair(const int* offs, float* out) {
  __shared__ __align__(16) float s[kSharedBytes / 4];
  const unsigned lane = threadIdx.x;
  s[lane] = offs[lane];
  __syncthreads();
  const float* p = s + 2 * lane;
  out[lane] = p[0] + p[1] * 2.f;
}

int main() {
  // Patterns over lane l and width w (bytes): lds_patterns.hpp.
  const auto& patterns = lds_micro::kPatterns;
  struct Op {
    const char* name;
    int width;
    void (*kernel)(const int*, unsigned*);
  };
  const std::vector<Op> ops = {
      {"ld", 4, one_access<kLd, 4>},   {"ld", 8, one_access<kLd, 8>}, {"ld", 16, one_access<kLd, 16>},
      {"st", 4, one_access<kSt, 4>},   {"st", 8, one_access<kSt, 8>}, {"st", 16, one_access<kSt, 16>},
      {"ld", 1, one_access<kLd, 1>},   {"ld", 2, one_access<kLd, 2>}, {"st", 1, one_access<kSt, 1>},
      {"st", 2, one_access<kSt, 2>},   {"atom", 4, one_access<kAtom, 4>}, {"atom", 8, one_access<kAtom, 8>},
      {"cas", 4, one_access<kCas, 4>}, {"exch", 4, one_access<kExch, 4>},
  };
  int* d_offs;
  unsigned* d_out;
  CHECK(cudaMalloc(&d_offs, 32 * sizeof(int)));
  CHECK(cudaMalloc(&d_out, 32 * sizeof(unsigned)));
  int n = 0;
  for (const Op& op : ops) {
    const bool narrow = op.width < 4 || op.name[0] != 'l' && op.name[0] != 's';
    for (const lds_micro::Pattern& p : patterns) {
      // Byte, halfword and atomic cases: a subset of the patterns.
      if (narrow) {
        const std::string nm = p.name;
        if (nm != "linear" && nm != "broadcast0" && nm != "stride2" && nm != "stride128B" && nm != "pairs_same" &&
            nm != "h_repeat" && nm != "two_addr_one_bank" && nm != "stride4")
          continue;
      }
      int offs[32];
      for (int l = 0; l < 32; ++l) {
        offs[l] = p.off(l, op.width);
        if (offs[l] >= 0 && (offs[l] % op.width != 0 || offs[l] + op.width > kSharedBytes)) {
          std::fprintf(stderr, "pattern %s width %d: lane %d offset %d misaligned or out of range\n", p.name,
                       op.width, l, offs[l]);
          return 1;
        }
      }
      CHECK(cudaMemcpy(d_offs, offs, sizeof offs, cudaMemcpyHostToDevice));
      op.kernel<<<1, 32>>>(d_offs, d_out);
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
      std::printf("case %d %s %d %s\n", n++, op.name, op.width, p.name);
    }
  }
  int offs[32] = {};
  CHECK(cudaMemcpy(d_offs, offs, sizeof offs, cudaMemcpyHostToDevice));
  quad<<<1, 32>>>(d_offs, reinterpret_cast<float*>(d_out));
  CHECK(cudaDeviceSynchronize());
  std::printf("case %d quad 4 compiler\n", n++);
  pair<<<1, 32>>>(d_offs, reinterpret_cast<float*>(d_out));
  CHECK(cudaDeviceSynchronize());
  std::printf("case %d pair 4 compiler\n", n++);
  std::printf("OK %d launches\n", n);
  return 0;
}
