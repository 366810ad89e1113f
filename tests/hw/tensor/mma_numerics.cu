// Probe: the numbers the H100's tensor cores compute. For each configuration of mma_gen.hpp
// (mma.sync shapes and types nvcc 13 accepts on sm_90, and the wmma API's), `tests` test cases of
// generated inputs (six families: moderate, wide exponents, large C, near-cancelling pairs, tiny
// values, special values) are run, one warp each, and every element of D is printed as raw bits:
//   D <config> <test>: <hex> <hex> ...     (row-major; m8n8k4 .f16: the four MMAs in order)
// then a self-check line per configuration against a long-double reference (exact for integer
// types, a loose bound for floats: this checks the fragment layouts, not the rounding):
//   check <config>: <failures>/<elements>
// tests/tensor replays the committed H100 output (tests/hw/data/h100/tensor/mma_numerics.txt)
// under warpscope and against its numerics model.
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "mma_gen.hpp"

using namespace nvcuda;
using namespace mma_gen;

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

// One warp per test: per-lane registers in, per-lane registers out (word arrays of `na`... words).
template <int ID, int NA, int NB, int NC, int ND>
__global__ void mma32(const std::uint32_t* ga, const std::uint32_t* gb, const std::uint32_t* gc, std::uint32_t* gd) {
  const int l = threadIdx.x, t = blockIdx.x;
  std::uint32_t a[NA], b[NB], c[NC], d[ND];
  for (int j = 0; j < NA; ++j) a[j] = ga[(t * 32 + l) * NA + j];
  for (int j = 0; j < NB; ++j) b[j] = gb[(t * 32 + l) * NB + j];
  for (int j = 0; j < NC; ++j) c[j] = gc[(t * 32 + l) * NC + j];
  switch (ID) {
    case 1: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 2: asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1])); break;
    case 3: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 4: asm volatile("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1])); break;
    case 5: asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7])); break;
    case 6: asm volatile("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 7: asm volatile("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 8: asm volatile("mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7])); break;
    case 9: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 10: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 11: asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 12: asm volatile("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 13: asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 14: asm volatile("mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e4m3.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 15: asm volatile("mma.sync.aligned.m16n8k32.row.col.f16.e4m3.e5m2.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1])); break;
    case 16: asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 17: asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.e5m2.e5m2.f16 {%0, %1}, {%2, %3}, {%4}, {%5, %6};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1])); break;
    case 26: asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 27: asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 28: asm volatile("mma.sync.aligned.m16n8k16.row.col.s32.u8.u8.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 29: asm volatile("mma.sync.aligned.m8n8k16.row.col.satfinite.s32.s8.u8.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1])); break;
    case 30: asm volatile("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 31: asm volatile("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.s4.s32 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 32: asm volatile("mma.sync.aligned.m8n8k32.row.col.s32.u4.u4.s32 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1])); break;
    case 33: asm volatile("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 34: asm volatile("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    case 35: asm volatile("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%0, %1}, {%2}, {%3}, {%4, %5};" : "=r"(d[0]), "=r"(d[1]) : "r"(a[0]), "r"(b[0]), "r"(c[0]), "r"(c[1])); break;
    case 36: asm volatile("mma.sync.aligned.m8n8k4.row.row.f32.f16.f16.f32 {%0, %1, %2, %3, %4, %5, %6, %7}, {%8, %9}, {%10, %11}, {%12, %13, %14, %15, %16, %17, %18, %19};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]), "=r"(d[4]), "=r"(d[5]), "=r"(d[6]), "=r"(d[7]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]), "r"(c[4]), "r"(c[5]), "r"(c[6]), "r"(c[7])); break;
    case 37: asm volatile("mma.sync.aligned.m8n8k4.col.col.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%8, %9, %10, %11};" : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3])); break;
    default: break;
  }
  for (int j = 0; j < ND; ++j) gd[(t * 32 + l) * ND + j] = d[j];
}
template <int ID, int NA, int NB, int NC, int ND>
__global__ void mma64(const std::uint64_t* ga, const std::uint64_t* gb, const std::uint64_t* gc, std::uint64_t* gd) {
  const int l = threadIdx.x, t = blockIdx.x;
  std::uint64_t a[NA], b[NB], c[NC], d[ND];
  for (int j = 0; j < NA; ++j) a[j] = ga[(t * 32 + l) * NA + j];
  for (int j = 0; j < NB; ++j) b[j] = gb[(t * 32 + l) * NB + j];
  for (int j = 0; j < NC; ++j) c[j] = gc[(t * 32 + l) * NC + j];
  switch (ID) {
    case 18: asm volatile("mma.sync.aligned.m8n8k4.row.col.rn.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=l"(d[0]), "=l"(d[1]) : "l"(a[0]), "l"(b[0]), "l"(c[0]), "l"(c[1])); break;
    case 19: asm volatile("mma.sync.aligned.m8n8k4.row.col.rz.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=l"(d[0]), "=l"(d[1]) : "l"(a[0]), "l"(b[0]), "l"(c[0]), "l"(c[1])); break;
    case 20: asm volatile("mma.sync.aligned.m8n8k4.row.col.rm.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=l"(d[0]), "=l"(d[1]) : "l"(a[0]), "l"(b[0]), "l"(c[0]), "l"(c[1])); break;
    case 21: asm volatile("mma.sync.aligned.m8n8k4.row.col.rp.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};" : "=l"(d[0]), "=l"(d[1]) : "l"(a[0]), "l"(b[0]), "l"(c[0]), "l"(c[1])); break;
    case 22: asm volatile("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5}, {%6}, {%7, %8, %9, %10};" : "=l"(d[0]), "=l"(d[1]), "=l"(d[2]), "=l"(d[3]) : "l"(a[0]), "l"(a[1]), "l"(b[0]), "l"(c[0]), "l"(c[1]), "l"(c[2]), "l"(c[3])); break;
    case 23: asm volatile("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};" : "=l"(d[0]), "=l"(d[1]), "=l"(d[2]), "=l"(d[3]) : "l"(a[0]), "l"(a[1]), "l"(a[2]), "l"(a[3]), "l"(b[0]), "l"(b[1]), "l"(c[0]), "l"(c[1]), "l"(c[2]), "l"(c[3])); break;
    case 24: asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};" : "=l"(d[0]), "=l"(d[1]), "=l"(d[2]), "=l"(d[3]) : "l"(a[0]), "l"(a[1]), "l"(a[2]), "l"(a[3]), "l"(a[4]), "l"(a[5]), "l"(a[6]), "l"(a[7]), "l"(b[0]), "l"(b[1]), "l"(b[2]), "l"(b[3]), "l"(c[0]), "l"(c[1]), "l"(c[2]), "l"(c[3])); break;
    case 25: asm volatile("mma.sync.aligned.m16n8k16.row.col.rz.f64.f64.f64.f64 {%0, %1, %2, %3}, {%4, %5, %6, %7, %8, %9, %10, %11}, {%12, %13, %14, %15}, {%16, %17, %18, %19};" : "=l"(d[0]), "=l"(d[1]), "=l"(d[2]), "=l"(d[3]) : "l"(a[0]), "l"(a[1]), "l"(a[2]), "l"(a[3]), "l"(a[4]), "l"(a[5]), "l"(a[6]), "l"(a[7]), "l"(b[0]), "l"(b[1]), "l"(b[2]), "l"(b[3]), "l"(c[0]), "l"(c[1]), "l"(c[2]), "l"(c[3])); break;
    default: break;
  }
  for (int j = 0; j < ND; ++j) gd[(t * 32 + l) * ND + j] = d[j];
}

// wmma through the CUDA API: A row-major (ld K), B column-major (ld K), C and D row-major (ld N);
// test t's matrices at t * (elements) in each array.
template <int M, int N, int K, class TA, class TAcc, class PA, class PAcc, bool Sat>
__global__ void wmma_k(const PA* a, const PA* b, const PAcc* c, PAcc* d, int bits_a) {
  const int t = blockIdx.x;
  const std::size_t oa = static_cast<std::size_t>(t) * M * K * bits_a / 8 / sizeof(char);
  const std::size_t ob = static_cast<std::size_t>(t) * K * N * bits_a / 8 / sizeof(char);
  wmma::fragment<wmma::matrix_a, M, N, K, TA, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, TA, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, TAcc> fc;
  const char* ca = reinterpret_cast<const char*>(a) + oa;
  const char* cb = reinterpret_cast<const char*>(b) + ob;
  wmma::load_matrix_sync(fa, reinterpret_cast<const PA*>(ca), K);
  wmma::load_matrix_sync(fb, reinterpret_cast<const PA*>(cb), K);
  wmma::load_matrix_sync(fc, c + static_cast<std::size_t>(t) * M * N, N, wmma::mem_row_major);
  if constexpr (std::is_same_v<TA, wmma::experimental::precision::b1>) {
    wmma::bmma_sync(fc, fa, fb, fc);
  } else if constexpr (std::is_same_v<TAcc, int>) {
    wmma::mma_sync(fc, fa, fb, fc, Sat);
  } else {
    wmma::mma_sync(fc, fa, fb, fc);
  }
  wmma::store_matrix_sync(d + static_cast<std::size_t>(t) * M * N, fc, N, wmma::mem_row_major);
}

// ---------------------------------------------------------------------------------------------
struct Frags {
  int ea, eb, ec;           // elements per lane
  int wa, wb, wc, wd;       // registers per lane (32-bit, or 64-bit for f64)
};
bool is884(const Config& c) { return c.m == 8 && c.n == 8 && c.k == 4 && c.a == T::kF16; }
Frags frags(const Config& c) {
  Frags f;
  if (is884(c)) { f.ea = 4; f.eb = 4; f.ec = 8; }
  else { f.ea = c.m * c.k / 32; f.eb = c.k * c.n / 32; f.ec = c.m * c.n / 32; }
  auto regs = [](int e, T t) { return t == T::kF64 ? e : e * bits(t) / 32; };
  f.wa = regs(f.ea, c.a); f.wb = regs(f.eb, c.b); f.wc = regs(f.ec, c.c); f.wd = regs(f.ec, c.d);
  return f;
}
void put(std::uint64_t* regs, T t, int i, std::uint64_t v) {  // element i into registers
  if (t == T::kF64) { regs[i] = v; return; }
  const int b = bits(t), per = 32 / b;
  const std::uint64_t mask = (b == 32 ? 0xffffffffull : ((1ull << b) - 1));
  regs[i / per] |= (v & mask) << ((i % per) * b);
}
std::uint64_t get(const std::uint64_t* regs, T t, int i) {
  if (t == T::kF64) return regs[i];
  const int b = bits(t), per = 32 / b;
  const std::uint64_t mask = (b == 32 ? 0xffffffffull : ((1ull << b) - 1));
  return (regs[i / per] >> ((i % per) * b)) & mask;
}

void launch_mma(int id, const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                const std::vector<std::uint64_t>& c, std::vector<std::uint64_t>& d, const Frags& f, int tests, bool wide) {
  if (wide) {
    std::uint64_t *da, *db, *dc, *dd;
    CHECK(cudaMalloc(&da, a.size() * 8)); CHECK(cudaMalloc(&db, b.size() * 8));
    CHECK(cudaMalloc(&dc, c.size() * 8)); CHECK(cudaMalloc(&dd, d.size() * 8));
    CHECK(cudaMemcpy(da, a.data(), a.size() * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b.data(), b.size() * 8, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, c.data(), c.size() * 8, cudaMemcpyHostToDevice));
    switch (id) {
#define K64(ID, NA, NB, NC) case ID: mma64<ID, NA, NB, NC, NC><<<tests, 32>>>(da, db, dc, dd); break;
      K64(18, 1, 1, 2) K64(19, 1, 1, 2) K64(20, 1, 1, 2) K64(21, 1, 1, 2)
      K64(22, 2, 1, 4) K64(23, 4, 2, 4) K64(24, 8, 4, 4) K64(25, 8, 4, 4)
#undef K64
      default: std::printf("no kernel for %d\n", id); std::exit(1);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(d.data(), dd, d.size() * 8, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc)); CHECK(cudaFree(dd));
    return;
  }
  std::vector<std::uint32_t> a32(a.begin(), a.end()), b32(b.begin(), b.end()), c32(c.begin(), c.end()), d32(d.size());
  std::uint32_t *da, *db, *dc, *dd;
  CHECK(cudaMalloc(&da, a32.size() * 4)); CHECK(cudaMalloc(&db, b32.size() * 4));
  CHECK(cudaMalloc(&dc, c32.size() * 4)); CHECK(cudaMalloc(&dd, d32.size() * 4));
  CHECK(cudaMemcpy(da, a32.data(), a32.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b32.data(), b32.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c32.data(), c32.size() * 4, cudaMemcpyHostToDevice));
  switch (id) {
#define K32(ID, NA, NB, NC, ND) case ID: mma32<ID, NA, NB, NC, ND><<<tests, 32>>>(da, db, dc, dd); break;
    K32(1, 4, 2, 4, 4) K32(2, 4, 2, 2, 2) K32(3, 2, 1, 4, 4) K32(4, 2, 1, 2, 2)
    K32(5, 2, 2, 8, 8) K32(6, 2, 2, 4, 4) K32(7, 2, 2, 4, 8) K32(8, 2, 2, 8, 8)
    K32(9, 4, 2, 4, 4) K32(10, 2, 1, 4, 4) K32(11, 4, 2, 4, 4) K32(12, 2, 1, 4, 4)
    K32(13, 4, 2, 4, 4) K32(14, 4, 2, 4, 4) K32(15, 4, 2, 2, 2) K32(16, 2, 1, 4, 4) K32(17, 2, 1, 2, 2)
    K32(26, 4, 2, 4, 4) K32(27, 4, 2, 4, 4) K32(28, 2, 1, 4, 4) K32(29, 1, 1, 2, 2)
    K32(30, 4, 2, 4, 4) K32(31, 2, 1, 4, 4) K32(32, 1, 1, 2, 2)
    K32(33, 4, 2, 4, 4) K32(34, 2, 1, 4, 4) K32(35, 1, 1, 2, 2)
    K32(36, 2, 2, 8, 8) K32(37, 2, 2, 4, 4)
#undef K32
    default: std::printf("no kernel for %d\n", id); std::exit(1);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(d32.data(), dd, d32.size() * 4, cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = d32[i];
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc)); CHECK(cudaFree(dd));
}

/// D of every test of an mma.sync configuration, logical row-major; m8n8k4 .f16: 4 per test.
std::vector<std::vector<std::uint64_t>> run_mma(const Config& cfg, std::vector<std::vector<Inputs>>& ins) {
  const Frags f = frags(cfg);
  const bool q4 = is884(cfg);
  const int mmas = q4 ? 4 : 1;
  const int tests = cfg.tests;
  std::vector<std::uint64_t> ra(std::size_t(tests) * 32 * f.wa), rb(std::size_t(tests) * 32 * f.wb),
      rc(std::size_t(tests) * 32 * f.wc), rd(std::size_t(tests) * 32 * f.wd);
  ins.assign(tests, {});
  for (int t = 0; t < tests; ++t) {
    for (int q = 0; q < mmas; ++q) ins[t].push_back(make_inputs(cfg, q4 ? t * 4 + q : t));
    for (int l = 0; l < 32; ++l) {
      const Inputs& in = ins[t][q4 ? (l >> 2) & 3 : 0];
      std::uint64_t* pa = &ra[(std::size_t(t) * 32 + l) * f.wa];
      std::uint64_t* pb = &rb[(std::size_t(t) * 32 + l) * f.wb];
      std::uint64_t* pc = &rc[(std::size_t(t) * 32 + l) * f.wc];
      for (int i = 0; i < f.ea; ++i) {
        const int per = per_reg(cfg.a);
        const Pos p = q4 ? a_pos_884(cfg, l, i) : a_pos(cfg, l, i / per, i % per);
        put(pa, cfg.a, i, in.a[p.row * cfg.k + p.col]);
      }
      for (int i = 0; i < f.eb; ++i) {
        const int per = per_reg(cfg.b);
        const Pos p = q4 ? b_pos_884(cfg, l, i) : b_pos(cfg, l, i / per, i % per);
        put(pb, cfg.b, i, in.b[p.row * cfg.n + p.col]);
      }
      for (int i = 0; i < f.ec; ++i) {
        const Pos p = q4 ? acc_pos_884(cfg.c, l, i) : c_pos(cfg, l, i);
        put(pc, cfg.c, i, in.c[p.row * cfg.n + p.col]);
      }
    }
  }
  launch_mma(cfg.id, ra, rb, rc, rd, f, tests, cfg.a == T::kF64);
  std::vector<std::vector<std::uint64_t>> out(tests, std::vector<std::uint64_t>(std::size_t(mmas) * cfg.m * cfg.n));
  for (int t = 0; t < tests; ++t)
    for (int l = 0; l < 32; ++l)
      for (int i = 0; i < f.ec; ++i) {
        const Pos p = q4 ? acc_pos_884(cfg.d, l, i) : c_pos(cfg, l, i);
        const int q = q4 ? (l >> 2) & 3 : 0;
        out[t][std::size_t(q) * cfg.m * cfg.n + p.row * cfg.n + p.col] = get(&rd[(std::size_t(t) * 32 + l) * f.wd], cfg.d, i);
      }
  return out;
}

// Packs elements of `bits` bits, element i at bit i * bits.
std::vector<std::uint8_t> pack(const std::vector<std::uint64_t>& v, int b) {
  std::vector<std::uint8_t> out((v.size() * b + 7) / 8 + 64, 0);
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (b >= 8) {
      for (int k = 0; k < b / 8; ++k) out[i * (b / 8) + k] = static_cast<std::uint8_t>(v[i] >> (8 * k));
    } else {
      out[i * b / 8] |= static_cast<std::uint8_t>((v[i] & ((1u << b) - 1)) << ((i * b) % 8));
    }
  }
  return out;
}

template <int M, int N, int K, class TA, class TAcc, class PA, class PAcc, bool Sat = false>
void launch_wmma(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                 const std::vector<std::uint8_t>& c, std::vector<std::uint8_t>& d, int tests, int bits_a) {
  void *da, *db, *dc, *dd;
  CHECK(cudaMalloc(&da, a.size())); CHECK(cudaMalloc(&db, b.size()));
  CHECK(cudaMalloc(&dc, c.size())); CHECK(cudaMalloc(&dd, d.size()));
  CHECK(cudaMemcpy(da, a.data(), a.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c.data(), c.size(), cudaMemcpyHostToDevice));
  wmma_k<M, N, K, TA, TAcc, PA, PAcc, Sat><<<tests, 32>>>(static_cast<const PA*>(da), static_cast<const PA*>(db),
                                                      static_cast<const PAcc*>(dc), static_cast<PAcc*>(dd), bits_a);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(d.data(), dd, d.size(), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc)); CHECK(cudaFree(dd));
}

std::vector<std::vector<std::uint64_t>> run_wmma(const Config& cfg, std::vector<std::vector<Inputs>>& ins) {
  const int tests = cfg.tests;
  std::vector<std::uint64_t> a, b, c;
  ins.assign(tests, {});
  for (int t = 0; t < tests; ++t) {
    ins[t].push_back(make_inputs(cfg, t));
    const Inputs& in = ins[t][0];
    a.insert(a.end(), in.a.begin(), in.a.end());  // row-major M x K
    for (int n = 0; n < cfg.n; ++n)               // column-major K x N
      for (int k = 0; k < cfg.k; ++k) b.push_back(in.b[k * cfg.n + n]);
    c.insert(c.end(), in.c.begin(), in.c.end());
  }
  const int ba = bits(cfg.a), bc = bits(cfg.c);
  std::vector<std::uint8_t> pa = pack(a, ba), pb = pack(b, ba), pc = pack(c, bc), pd(pc.size());
  using namespace nvcuda::wmma;
  namespace ex = nvcuda::wmma::experimental;
  switch (cfg.id) {
    case 40: launch_wmma<16, 16, 16, __half, float, __half, float>(pa, pb, pc, pd, tests, ba); break;
    case 41: launch_wmma<16, 16, 16, __half, __half, __half, __half>(pa, pb, pc, pd, tests, ba); break;
    case 42: launch_wmma<32, 8, 16, __half, float, __half, float>(pa, pb, pc, pd, tests, ba); break;
    case 43: launch_wmma<8, 32, 16, __half, float, __half, float>(pa, pb, pc, pd, tests, ba); break;
    case 44: launch_wmma<16, 16, 16, __nv_bfloat16, float, __nv_bfloat16, float>(pa, pb, pc, pd, tests, ba); break;
    case 45: launch_wmma<16, 16, 8, precision::tf32, float, float, float>(pa, pb, pc, pd, tests, ba); break;
    case 46: launch_wmma<8, 8, 4, double, double, double, double>(pa, pb, pc, pd, tests, ba); break;
    case 47: launch_wmma<16, 16, 16, unsigned char, int, unsigned char, int>(pa, pb, pc, pd, tests, ba); break;
    case 48: launch_wmma<16, 16, 16, signed char, int, signed char, int, true>(pa, pb, pc, pd, tests, ba); break;
    case 49: launch_wmma<8, 8, 32, ex::precision::s4, int, void, int>(pa, pb, pc, pd, tests, ba); break;
    case 50: launch_wmma<8, 8, 128, ex::precision::b1, int, void, int>(pa, pb, pc, pd, tests, ba); break;
    default: std::printf("no wmma kernel for %d\n", cfg.id); std::exit(1);
  }
  std::vector<std::vector<std::uint64_t>> out(tests, std::vector<std::uint64_t>(std::size_t(cfg.m) * cfg.n));
  for (int t = 0; t < tests; ++t)
    for (int i = 0; i < cfg.m * cfg.n; ++i) {
      std::uint64_t v = 0;
      const std::size_t at = (std::size_t(t) * cfg.m * cfg.n + i) * (bits(cfg.d) / 8);
      for (int k = 0; k < bits(cfg.d) / 8; ++k) v |= std::uint64_t{pd[at + k]} << (8 * k);
      out[t][i] = v;
    }
  return out;
}

// ---------------------------------------------------------------------------------------------
/// Reference: exact for integers (wrapping or saturating), long double sums for floats.
bool close_enough(const Config& cfg, const Inputs& in, int m, int n, std::uint64_t got) {
  if (!is_float(cfg.a)) {
    long long s = static_cast<std::int32_t>(in.c[m * cfg.n + n]);
    for (int k = 0; k < cfg.k; ++k) {
      const std::uint64_t x = in.a[m * cfg.k + k], y = in.b[k * cfg.n + n];
      if (cfg.a == T::kB1) s += cfg.bitop ? (x & y) : (x ^ y);
      else s += static_cast<long long>(value(cfg.a, x)) * static_cast<long long>(value(cfg.b, y));
    }
    std::int32_t want;
    if (cfg.satfinite) want = static_cast<std::int32_t>(s > 2147483647ll ? 2147483647ll : s < -2147483648ll ? -2147483648ll : s);
    else want = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<unsigned long long>(s)));
    return static_cast<std::uint32_t>(want) == static_cast<std::uint32_t>(got);
  }
  long double s = value(cfg.c, in.c[m * cfg.n + n]), mag = std::fabs(static_cast<long double>(value(cfg.c, in.c[m * cfg.n + n])));
  for (int k = 0; k < cfg.k; ++k) {
    const long double p = static_cast<long double>(value(cfg.a, in.a[m * cfg.k + k])) * value(cfg.b, in.b[k * cfg.n + n]);
    s += p;
    mag += std::fabs(p);
  }
  const double g = value(cfg.d, got);
  if (std::isnan(static_cast<double>(s)) || std::isnan(static_cast<double>(mag))) return std::isnan(g) || std::isinf(g);
  if (std::isinf(static_cast<double>(s))) return std::isinf(g) || std::isnan(g);
  const long double tol = cfg.d == T::kF16 || cfg.c == T::kF16 ? 0x1p-9L : cfg.a == T::kF64 ? 0x1p-50L : 0x1p-8L;
  const long double minv = cfg.d == T::kF16 ? 0x1p-24L : cfg.d == T::kF64 ? 0x1p-1074L : 0x1p-149L;
  if (std::isinf(g)) return std::fabs(s) > (cfg.d == T::kF16 ? 65000.0L : 3e38L);
  return std::fabs(static_cast<long double>(g) - s) <= tol * mag + 2 * minv;
}

int main(int argc, char** argv) {
  // No argument: every configuration; a number: that one; "nofp8": all but .e4m3/.e5m2.
  const bool nofp8 = argc > 1 && std::string(argv[1]) == "nofp8";
  const int only = argc > 1 && !nofp8 ? std::atoi(argv[1]) : 0;
  for (const Config& cfg : configs()) {
    if (only && cfg.id != only) continue;
    if (nofp8 && (cfg.a == T::kE4M3 || cfg.a == T::kE5M2)) continue;
    std::vector<std::vector<Inputs>> ins;
    auto out = cfg.kind == 0 ? run_mma(cfg, ins) : run_wmma(cfg, ins);
    const int hexd = bits(cfg.d) / 4;
    int fails = 0, total = 0;
    for (int t = 0; t < cfg.tests; ++t) {
      std::printf("D %d %d:", cfg.id, t);
      for (std::size_t i = 0; i < out[t].size(); ++i) std::printf(" %0*llx", hexd, static_cast<unsigned long long>(out[t][i]));
      std::printf("\n");
      const std::size_t per = static_cast<std::size_t>(cfg.m) * cfg.n;
      for (std::size_t i = 0; i < out[t].size(); ++i) {
        const Inputs& in = ins[t][i / per];
        const int m = static_cast<int>((i % per) / cfg.n), n = static_cast<int>(i % cfg.n);
        ++total;
        if (!close_enough(cfg, in, m, n, out[t][i])) ++fails;
      }
    }
    std::printf("check %d m%dn%dk%d %s.%s.%s.%s: %d/%d\n", cfg.id, cfg.m, cfg.n, cfg.k, name(cfg.d), name(cfg.a),
                name(cfg.b), name(cfg.c), fails, total);
  }
  return 0;
}
