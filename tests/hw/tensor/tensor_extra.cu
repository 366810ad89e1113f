// Probe, second capture: what the first one left as estimates.
//  1. wmma.load/store traffic of the fragment types and storage orders wmma_traffic.cu did not
//     have (column-major .bf16/.tf32/.f64 multiplicands, column-major accumulators, the
//     m32n8k16 and m8n32k16 accumulators, more 8-bit and .f16 shapes), one launch each:
//       launch <n>: <global|shared> <matrix> <type> <shape> <layout> ld=<elements>
//  2. stmatrix where lanes write the same bytes: which lane's value remains.
//       stsm_collide x<N>: <16 bytes of row 0 as halves>
//  3. .f16 accumulation of mma m16n8k16 and wmma m16n16k16 on sums one ulp-half above a tie, to
//     tell rounding the exact sum to nearest .f16 from rounding it to .f32 first:
//       f16acc <case>: <D[0][0] bits>
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace nvcuda;
using namespace nvcuda::wmma;

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

constexpr int kSmemBytes = 32768;

template <class Frag>
__device__ void sink(const Frag& f, std::uint32_t* out) {
  const std::uint32_t* w = reinterpret_cast<const std::uint32_t*>(&f.x[0]);
  std::uint32_t x = 0;
  for (unsigned i = 0; i < sizeof(f.x) / 4; ++i) x ^= w[i];
  out[threadIdx.x] = x;
}
template <class Frag, class P, bool Shared>
__global__ void load_ab(const P* g, unsigned ld, std::uint32_t* out) {
  __shared__ __align__(128) std::uint8_t sm[kSmemBytes];
  Frag f;
  load_matrix_sync(f, Shared ? reinterpret_cast<const P*>(sm) : g, ld);
  sink(f, out);
}
template <class Frag, class P, bool Shared>
__global__ void load_c(const P* g, unsigned ld, bool col, std::uint32_t* out) {
  __shared__ __align__(128) std::uint8_t sm[kSmemBytes];
  Frag f;
  load_matrix_sync(f, Shared ? reinterpret_cast<const P*>(sm) : g, ld, col ? mem_col_major : mem_row_major);
  sink(f, out);
}
template <class Frag, class P, bool Shared>
__global__ void store_d(P* g, unsigned ld, bool col, std::uint32_t* out) {
  __shared__ __align__(128) std::uint8_t sm[kSmemBytes];
  Frag f;
  fill_fragment(f, static_cast<typename Frag::element_type>(threadIdx.x & 3));
  store_matrix_sync(Shared ? reinterpret_cast<P*>(sm) : g, f, ld, col ? mem_col_major : mem_row_major);
  if (Shared) {
    __syncwarp();
    out[threadIdx.x] = reinterpret_cast<const std::uint32_t*>(sm)[threadIdx.x * 7];
  }
}

int launch_no = 0;
void done(const char* where, const char* what) {
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("launch %d: %s %s\n", launch_no++, where, what);
}

template <bool S>
void traffic(void* g, std::uint32_t* out) {
  const char* w = S ? "shared" : "global";
#define AB(USE, M, N, K, T, L, P, LD, TEXT)                                                \
  load_ab<fragment<USE, M, N, K, T, L>, P, S><<<1, 32>>>(static_cast<const P*>(g), LD, out); \
  done(w, TEXT " ld=" #LD);
#define LC(M, N, K, T, P, LD, COL, TEXT)                                                                     \
  load_c<fragment<accumulator, M, N, K, T>, P, S><<<1, 32>>>(static_cast<const P*>(g), LD, COL, out); \
  done(w, TEXT " ld=" #LD);
#define SD(M, N, K, T, P, LD, COL, TEXT)                                                           \
  store_d<fragment<accumulator, M, N, K, T>, P, S><<<1, 32>>>(static_cast<P*>(g), LD, COL, out); \
  done(w, TEXT " ld=" #LD);
  AB(matrix_a, 16, 16, 16, __nv_bfloat16, col_major, __nv_bfloat16, 16, "a bf16 m16n16k16 col")
  AB(matrix_b, 16, 16, 16, __nv_bfloat16, row_major, __nv_bfloat16, 16, "b bf16 m16n16k16 row")
  AB(matrix_a, 32, 8, 16, __nv_bfloat16, row_major, __nv_bfloat16, 16, "a bf16 m32n8k16 row")
  AB(matrix_b, 8, 32, 16, __nv_bfloat16, col_major, __nv_bfloat16, 16, "b bf16 m8n32k16 col")
  AB(matrix_a, 16, 16, 8, precision::tf32, col_major, float, 16, "a tf32 m16n16k8 col")
  AB(matrix_b, 16, 16, 8, precision::tf32, row_major, float, 16, "b tf32 m16n16k8 row")
  AB(matrix_a, 8, 8, 4, double, col_major, double, 8, "a f64 m8n8k4 col")
  AB(matrix_b, 8, 8, 4, double, row_major, double, 8, "b f64 m8n8k4 row")
  AB(matrix_b, 16, 16, 16, unsigned char, row_major, unsigned char, 16, "b u8 m16n16k16 row")
  AB(matrix_a, 32, 8, 16, signed char, row_major, signed char, 16, "a s8 m32n8k16 row")
  AB(matrix_b, 8, 32, 16, unsigned char, col_major, unsigned char, 16, "b u8 m8n32k16 col")
  AB(matrix_a, 8, 32, 16, __half, row_major, __half, 16, "a f16 m8n32k16 row")
  AB(matrix_a, 8, 32, 16, __half, col_major, __half, 8, "a f16 m8n32k16 col")
  AB(matrix_b, 32, 8, 16, __half, row_major, __half, 8, "b f16 m32n8k16 row")
  AB(matrix_a, 32, 8, 16, __half, col_major, __half, 32, "a f16 m32n8k16 col")
  LC(16, 16, 16, __half, __half, 16, true, "c f16 m16n16k16 col")
  LC(8, 8, 4, double, double, 8, true, "c f64 m8n8k4 col")
  LC(16, 16, 16, int, int, 16, true, "c s32 m16n16k16 col")
  LC(32, 8, 16, float, float, 8, false, "c f32 m32n8k16 row")
  LC(32, 8, 16, float, float, 32, true, "c f32 m32n8k16 col")
  LC(8, 32, 16, float, float, 32, false, "c f32 m8n32k16 row")
  LC(8, 32, 16, float, float, 8, true, "c f32 m8n32k16 col")
  LC(8, 32, 16, __half, __half, 32, false, "c f16 m8n32k16 row")
  SD(16, 16, 16, __half, __half, 16, true, "d f16 m16n16k16 col")
  SD(8, 8, 4, double, double, 8, true, "d f64 m8n8k4 col")
  SD(32, 8, 16, float, float, 8, false, "d f32 m32n8k16 row")
  SD(8, 32, 16, float, float, 32, false, "d f32 m8n32k16 row")
  SD(8, 32, 16, float, float, 8, true, "d f32 m8n32k16 col")
  SD(8, 32, 16, __half, __half, 8, true, "d f16 m8n32k16 col")
#undef AB
#undef LC
#undef SD
}

// stmatrix.x<X> with every lane on row address 0 (matrix i's rows all at byte 0): each lane stores
// its own values; which remain?
template <int X>
__global__ void stsm_collide(std::uint16_t* out) {
  __shared__ __align__(128) std::uint16_t sm[64];
  for (int i = threadIdx.x; i < 64; i += 32) sm[i] = 0xffff;
  __syncwarp();
  const std::uint32_t addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(sm));
  const std::uint32_t v0 = threadIdx.x | (0x100u + threadIdx.x) << 16;
  const std::uint32_t v1 = (0x200u + threadIdx.x) | (0x300u + threadIdx.x) << 16;
  if constexpr (X == 1) asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" :: "r"(addr), "r"(v0));
  if constexpr (X == 2) asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" :: "r"(addr), "r"(v0), "r"(v1));
  __syncwarp();
  for (int i = threadIdx.x; i < 8; i += 32) out[i] = sm[i];
}

// D[0][0] of mma m16n8k16 / wmma m16n16k16 with .f16 accumulators: C = c, A[0][0] * B[0][0] and
// A[0][1] * B[1][0] the only products.
__global__ void f16acc_mma(std::uint16_t c, std::uint16_t a0, std::uint16_t b0, std::uint16_t a1, std::uint16_t b1,
                           std::uint16_t* out) {
  const int lane = threadIdx.x;
  // Lane 0 holds A[0][0..1] in a0 (low, high), B[0..1][0] in b0, C[0][0..1] in c0.
  const std::uint32_t ra0 = lane == 0 ? (a0 | (std::uint32_t{a1} << 16)) : 0u;
  const std::uint32_t rb0 = lane == 0 ? (b0 | (std::uint32_t{b1} << 16)) : 0u;
  const std::uint32_t rc0 = lane == 0 ? c : 0u;
  std::uint32_t d0, d1;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
               : "=r"(d0), "=r"(d1)
               : "r"(ra0), "r"(0u), "r"(0u), "r"(0u), "r"(rb0), "r"(0u), "r"(rc0), "r"(0u));
  if (lane == 0) out[0] = static_cast<std::uint16_t>(d0);
}
__global__ void f16acc_wmma(const __half* a, const __half* b, const __half* c, __half* d) {
  fragment<matrix_a, 16, 16, 16, __half, row_major> fa;
  fragment<matrix_b, 16, 16, 16, __half, col_major> fb;
  fragment<accumulator, 16, 16, 16, __half> fc;
  load_matrix_sync(fa, a, 16);
  load_matrix_sync(fb, b, 16);
  load_matrix_sync(fc, c, 16, mem_row_major);
  mma_sync(fc, fa, fb, fc);
  store_matrix_sync(d, fc, 16, mem_row_major);
}

int main() {
  void* g;
  std::uint32_t* out;
  CHECK(cudaMalloc(&g, kSmemBytes));
  CHECK(cudaMemset(g, 0, kSmemBytes));
  CHECK(cudaMalloc(&out, 32 * 4));
  traffic<false>(g, out);
  traffic<true>(g, out);
  std::uint16_t* h;
  CHECK(cudaMalloc(&h, 64 * 2));
  std::uint16_t got[8];
  stsm_collide<1><<<1, 32>>>(h);
  done("shared", "stsm_collide x1");
  CHECK(cudaMemcpy(got, h, 16, cudaMemcpyDeviceToHost));
  std::printf("stsm_collide x1:");
  for (auto v : got) std::printf(" %04x", v);
  std::printf("\n");
  stsm_collide<2><<<1, 32>>>(h);
  done("shared", "stsm_collide x2");
  CHECK(cudaMemcpy(got, h, 16, cudaMemcpyDeviceToHost));
  std::printf("stsm_collide x2:");
  for (auto v : got) std::printf(" %04x", v);
  std::printf("\n");
  // C = 1, products 2^-11 (half an ulp of 1.0) and x: x = 2^-24 (exact sum above the tie: to
  // nearest .f16 gives 1 + 2^-10; via .f32 toward zero first, the tie, 1.0), x = -2^-24, x = 0,
  // and C = 1 + 2^-10 (odd) with x = 0 (the tie rounds to even: 1 + 2^-9).
  struct Case {
    const char* name;
    std::uint16_t c, a0, b0, a1, b1;
  } cases[] = {{"tie_plus_2^-24", 0x3c00, 0x1000, 0x3c00, 0x0c00, 0x0c00},
               {"tie_minus_2^-24", 0x3c00, 0x1000, 0x3c00, 0x8c00, 0x0c00},
               {"tie_exact", 0x3c00, 0x1000, 0x3c00, 0x0000, 0x0000},
               {"odd_tie", 0x3c01, 0x1000, 0x3c00, 0x0000, 0x0000},
               {"tie_plus_2^-25", 0x3c00, 0x1000, 0x3c00, 0x0c00, 0x0800}};
  for (const Case& k : cases) {
    f16acc_mma<<<1, 32>>>(k.c, k.a0, k.b0, k.a1, k.b1, h);
    done("f16acc", k.name);
    std::uint16_t v;
    CHECK(cudaMemcpy(&v, h, 2, cudaMemcpyDeviceToHost));
    // The same through wmma: A[0][0..1], B (column-major) [0..1][0], C[0][0].
    __half ha[256], hb[256], hc[256];
    std::memset(ha, 0, sizeof ha);
    std::memset(hb, 0, sizeof hb);
    std::memset(hc, 0, sizeof hc);
    std::memcpy(&ha[0], &k.a0, 2);
    std::memcpy(&ha[1], &k.a1, 2);
    std::memcpy(&hb[0], &k.b0, 2);
    std::memcpy(&hb[1], &k.b1, 2);
    std::memcpy(&hc[0], &k.c, 2);
    __half *da, *db, *dc, *dd;
    CHECK(cudaMalloc(&da, 512)); CHECK(cudaMalloc(&db, 512)); CHECK(cudaMalloc(&dc, 512)); CHECK(cudaMalloc(&dd, 512));
    CHECK(cudaMemcpy(da, ha, 512, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, hb, 512, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dc, hc, 512, cudaMemcpyHostToDevice));
    f16acc_wmma<<<1, 32>>>(da, db, dc, dd);
    done("f16acc_wmma", k.name);
    std::uint16_t w;
    CHECK(cudaMemcpy(&w, dd, 2, cudaMemcpyDeviceToHost));
    std::printf("f16acc %s: mma %04x wmma %04x\n", k.name, v, w);
    CHECK(cudaFree(da)); CHECK(cudaFree(db)); CHECK(cudaFree(dc)); CHECK(cudaFree(dd));
  }
  CHECK(cudaFree(g));
  CHECK(cudaFree(out));
  CHECK(cudaFree(h));
  return 0;
}
