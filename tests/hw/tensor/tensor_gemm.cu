// The team's tensor-core GEMMs, each checked against a CPU reference (exact for integer types,
// the PTX ISA's accumulation precision for floats):
//  - mma_ldmatrix: f16 x f16 -> f32 with shared-memory tiles read by ldmatrix.x4 (A) and
//    ldmatrix.x4.trans (B stored row-major), mma.sync.m16n8k16;
//  - mma_stmatrix: the same product rounded to f16 and written through stmatrix.x4 into shared
//    memory, then copied out with 16-byte stores;
//  - mma_movmatrix: the f16 product transposed in registers with movmatrix (D^T written);
//  - wmma_<type>: one warp per output tile, fragments loaded straight from global memory, for
//    f16 -> f32, f16 -> f16, bf16, tf32, f64, u8, s8, s4 and b1 (xor and and);
//  - wmma_shared_f16: A and B tiles staged in shared memory, wmma.load from there.
// Prints one line per kernel, "<name>: ok" or "<name>: WRONG ...", then "PASSED" or "FAILED".
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>
#include <vector>

using namespace nvcuda;
namespace ex = nvcuda::wmma::experimental;

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

constexpr int M = 64, N = 64, K = 128;

// ---------------------------------------------------------------------------------------------
// mma.sync with ldmatrix: block 64x64, 4 warps of 32x32 (2 x 4 tiles of 16x8), K steps of 32.
// ---------------------------------------------------------------------------------------------
constexpr int kPad = 8;  // halves of padding per shared row: rows 80 bytes apart, no conflicts

__device__ inline std::uint32_t smem_addr(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

template <int Out>  // 0: f32 D, 1: f16 D through stmatrix, 2: f16 D^T through movmatrix
__global__ void mma_ldmatrix(const __half* a, const __half* b, void* d) {
  __shared__ __align__(16) __half sa[64][32 + kPad];
  __shared__ __align__(16) __half sb[32][64 + kPad];
  __shared__ __align__(16) __half sd[64][64 + kPad];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = (warp / 2) * 32, wn = (warp % 2) * 32;
  const int bm = blockIdx.y * 64, bn = blockIdx.x * 64;
  float acc[2][4][4] = {};
  for (int k0 = 0; k0 < K; k0 += 32) {
    for (int i = threadIdx.x; i < 64 * 32 / 8; i += blockDim.x) {  // 16-byte copies
      const int r = i / 4, c = (i % 4) * 8;
      *reinterpret_cast<uint4*>(&sa[r][c]) = *reinterpret_cast<const uint4*>(&a[(bm + r) * K + k0 + c]);
    }
    for (int i = threadIdx.x; i < 32 * 64 / 8; i += blockDim.x) {
      const int r = i / 8, c = (i % 8) * 8;
      *reinterpret_cast<uint4*>(&sb[r][c]) = *reinterpret_cast<const uint4*>(&b[(k0 + r) * N + bn + c]);
    }
    __syncthreads();
    for (int kk = 0; kk < 32; kk += 16) {
      std::uint32_t fa[2][4], fb[4][2];
      for (int tm = 0; tm < 2; ++tm) {
        // x4: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15)
        const int r = wm + tm * 16 + (lane % 16), c = kk + (lane / 16) * 8;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(fa[tm][0]), "=r"(fa[tm][1]), "=r"(fa[tm][2]), "=r"(fa[tm][3])
                     : "r"(smem_addr(&sa[r][c])));
      }
      for (int tn = 0; tn < 4; tn += 2) {
        // x4.trans over B (k-major rows): (k 0-7, n 0-7), (k 8-15, n 0-7), (k 0-7, n 8-15), (k 8-15, n 8-15)
        const int r = kk + (lane % 8) + ((lane / 8) % 2) * 8, c = wn + tn * 8 + (lane / 16) * 8;
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(fb[tn][0]), "=r"(fb[tn][1]), "=r"(fb[tn + 1][0]), "=r"(fb[tn + 1][1])
                     : "r"(smem_addr(&sb[r][c])));
      }
      for (int tm = 0; tm < 2; ++tm)
        for (int tn = 0; tn < 4; ++tn)
          asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};"
                       : "+f"(acc[tm][tn][0]), "+f"(acc[tm][tn][1]), "+f"(acc[tm][tn][2]), "+f"(acc[tm][tn][3])
                       : "r"(fa[tm][0]), "r"(fa[tm][1]), "r"(fa[tm][2]), "r"(fa[tm][3]), "r"(fb[tn][0]), "r"(fb[tn][1]));
    }
    __syncthreads();
  }
  const int g = lane / 4, t = lane % 4;
  if constexpr (Out == 0) {
    float* df = static_cast<float*>(d);
    for (int tm = 0; tm < 2; ++tm)
      for (int tn = 0; tn < 4; ++tn)
        for (int h = 0; h < 2; ++h) {
          const int r = bm + wm + tm * 16 + g + 8 * h, c = bn + wn + tn * 8 + 2 * t;
          *reinterpret_cast<float2*>(&df[r * N + c]) = make_float2(acc[tm][tn][2 * h], acc[tm][tn][2 * h + 1]);
        }
  } else {
    // f16 fragments: per 16x8 tile two registers (rows g and g + 8).
    std::uint32_t h2[2][4][2];
    for (int tm = 0; tm < 2; ++tm)
      for (int tn = 0; tn < 4; ++tn)
        for (int h = 0; h < 2; ++h) {
          __half2 v = __floats2half2_rn(acc[tm][tn][2 * h], acc[tm][tn][2 * h + 1]);
          std::memcpy(&h2[tm][tn][h], &v, 4);
        }
    if constexpr (Out == 2) {  // transpose each 8x8 in registers: D^T tiles
      for (int tm = 0; tm < 2; ++tm)
        for (int tn = 0; tn < 4; ++tn)
          for (int h = 0; h < 2; ++h)
            asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(h2[tm][tn][h]) : "r"(h2[tm][tn][h]));
    }
    for (int tm = 0; tm < 2; ++tm)
      for (int tn = 0; tn < 4; tn += 2) {
        // x4: matrices (rows 0-7, n tn), (rows 8-15, n tn), (rows 0-7, n tn+1), (rows 8-15, n tn+1);
        // for D^T the 8x8 blocks go to the transposed place.
        const int mat = lane / 8, j = lane % 8;
        const int rb = tm * 16 + (mat % 2) * 8, cb = (tn + mat / 2) * 8;
        const int r = Out == 1 ? wm + rb + j : wn + cb + j, c = Out == 1 ? wn + cb : wm + rb;
        asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};"
                     :: "r"(smem_addr(&sd[r][c])), "r"(h2[tm][tn][0]), "r"(h2[tm][tn][1]), "r"(h2[tm][tn + 1][0]),
                        "r"(h2[tm][tn + 1][1]));
      }
    __syncthreads();
    __half* dh = static_cast<__half*>(d);
    for (int i = threadIdx.x; i < 64 * 64 / 8; i += blockDim.x) {
      const int r = i / 8, c = (i % 8) * 8;
      const int gr = Out == 1 ? bm + r : bn + r, gc = Out == 1 ? bn + c : bm + c;
      *reinterpret_cast<uint4*>(&dh[gr * (Out == 1 ? N : M) + gc]) = *reinterpret_cast<const uint4*>(&sd[r][c]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// wmma from global memory: one warp per output tile. A row-major (ld K), B column-major (ld K),
// C and D row-major (ld N). Sub-byte pointers address elements of 4 or 1 bits (ld in elements).
// ---------------------------------------------------------------------------------------------
template <int TM, int TN, int TK, class TA, class TAcc, class PA, class PAcc, int Op>
__global__ void wmma_global(const PA* a, const PA* b, const PAcc* c, PAcc* d, int bits) {
  const int tiles_n = N / TN;
  const int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int tm = tile / tiles_n, tn = tile % tiles_n;
  if (tm * TM >= M) return;
  wmma::fragment<wmma::accumulator, TM, TN, TK, TAcc> acc;
  wmma::load_matrix_sync(acc, c + tm * TM * N + tn * TN, N, wmma::mem_row_major);
  for (int k0 = 0; k0 < K; k0 += TK) {
    wmma::fragment<wmma::matrix_a, TM, TN, TK, TA, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, TM, TN, TK, TA, wmma::col_major> fb;
    const char* pa = reinterpret_cast<const char*>(a) + (static_cast<std::size_t>(tm * TM) * K + k0) * bits / 8;
    const char* pb = reinterpret_cast<const char*>(b) + (static_cast<std::size_t>(tn * TN) * K + k0) * bits / 8;
    wmma::load_matrix_sync(fa, reinterpret_cast<const PA*>(pa), K);
    wmma::load_matrix_sync(fb, reinterpret_cast<const PA*>(pb), K);
    if constexpr (Op == 1) wmma::bmma_sync(acc, fa, fb, acc, wmma::experimental::bmmaBitOpXOR);
    else if constexpr (Op == 2) wmma::bmma_sync(acc, fa, fb, acc, wmma::experimental::bmmaBitOpAND);
    else wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d + tm * TM * N + tn * TN, acc, N, wmma::mem_row_major);
}

// wmma through shared memory: a block of 4 warps computes 32x32; A and B 32x16 slices staged in
// shared memory with 8 halves of padding per row.
__global__ void wmma_shared_f16(const __half* a, const __half* b, float* d) {
  __shared__ __align__(32) __half sa[32][16 + 16];
  __shared__ __align__(32) __half sb[32][16 + 16];  // B column-major: sb[n][k]
  const int warp = threadIdx.x / 32;
  const int bm = blockIdx.y * 32, bn = blockIdx.x * 32;
  const int wm = (warp / 2) * 16, wn = (warp % 2) * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k0 = 0; k0 < K; k0 += 16) {
    for (int i = threadIdx.x; i < 32 * 16 / 8; i += blockDim.x) {
      const int r = i / 2, c = (i % 2) * 8;
      *reinterpret_cast<uint4*>(&sa[r][c]) = *reinterpret_cast<const uint4*>(&a[(bm + r) * K + k0 + c]);
      *reinterpret_cast<uint4*>(&sb[r][c]) = *reinterpret_cast<const uint4*>(&b[(bn + r) * K + k0 + c]);
    }
    __syncthreads();
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
    wmma::load_matrix_sync(fa, &sa[wm][0], 32);
    wmma::load_matrix_sync(fb, &sb[wn][0], 32);
    wmma::mma_sync(acc, fa, fb, acc);
    __syncthreads();
  }
  wmma::store_matrix_sync(d + (bm + wm) * N + bn + wn, acc, N, wmma::mem_row_major);
}

// ---------------------------------------------------------------------------------------------
// Host: inputs, references, checks
// ---------------------------------------------------------------------------------------------
std::uint64_t rng_state = 0x7e57ab1e;
std::uint32_t rnd() {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return static_cast<std::uint32_t>(rng_state >> 33);
}
float rnd_unit() { return static_cast<float>(rnd() % 2001) / 1000.0f - 1.0f; }  // [-1, 1], 3 decimals

int failures = 0;
void report(const char* name, double worst, double bound, long bad) {
  if (bad == 0) {
    std::printf("%s: ok\n", name);
  } else {
    ++failures;
    std::printf("%s: WRONG (%ld elements off, worst error %.3g, bound %.3g)\n", name, bad, worst, bound);
  }
}

template <class T>
T* upload(const std::vector<T>& v) {
  T* p;
  CHECK(cudaMalloc(&p, v.size() * sizeof(T) + 64));
  CHECK(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return p;
}
template <class T>
std::vector<T> download(const T* p, std::size_t n) {
  std::vector<T> v(n);
  CHECK(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

/// Checks float results: |got - ref| <= rel * sum|a*b| + |c| terms (the accumulation's bound).
void check_float(const char* name, const std::vector<double>& got, const std::vector<double>& ref,
                 const std::vector<double>& mag, double rel) {
  long bad = 0;
  double worst = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double err = std::fabs(got[i] - ref[i]);
    const double bound = rel * mag[i] + 1e-30;
    if (!(err <= bound)) ++bad;
    if (err > worst) worst = err;
  }
  report(name, worst, rel, bad);
}

int main() {
  // f16 inputs (values with 3 decimals in [-1, 1], rounded to half).
  std::vector<__half> ah(M * K), bh_rm(K * N), bh_cm(K * N);
  std::vector<double> af(M * K), bf(K * N);
  for (int i = 0; i < M * K; ++i) { ah[i] = __float2half(rnd_unit()); af[i] = __half2float(ah[i]); }
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n) {
      const __half v = __float2half(rnd_unit());
      bh_rm[k * N + n] = v;
      bh_cm[n * K + k] = v;
      bf[k * N + n] = __half2float(v);
    }
  std::vector<double> ref(M * N, 0), mag(M * N, 0);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k) {
        ref[m * N + n] += af[m * K + k] * bf[k * N + n];
        mag[m * N + n] += std::fabs(af[m * K + k] * bf[k * N + n]);
      }
  __half* da = upload(ah);
  __half* db_rm = upload(bh_rm);
  __half* db_cm = upload(bh_cm);
  {
    float* dd;
    CHECK(cudaMalloc(&dd, M * N * 4));
    mma_ldmatrix<0><<<dim3(N / 64, M / 64), 128>>>(da, db_rm, dd);
    CHECK(cudaGetLastError());
    auto got = download(dd, M * N);
    check_float("mma_ldmatrix", std::vector<double>(got.begin(), got.end()), ref, mag, 0x1p-20);
    CHECK(cudaFree(dd));
  }
  for (int out = 1; out <= 2; ++out) {
    __half* dd;
    CHECK(cudaMalloc(&dd, M * N * 2));
    if (out == 1) mma_ldmatrix<1><<<dim3(N / 64, M / 64), 128>>>(da, db_rm, dd);
    else mma_ldmatrix<2><<<dim3(N / 64, M / 64), 128>>>(da, db_rm, dd);
    CHECK(cudaGetLastError());
    auto got = download(dd, M * N);
    std::vector<double> g(M * N), r(M * N), mg(M * N);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        g[m * N + n] = __half2float(out == 1 ? got[m * N + n] : got[n * M + m]);
        r[m * N + n] = ref[m * N + n];
        mg[m * N + n] = mag[m * N + n] + 2 * std::fabs(ref[m * N + n]);  // + rounding to half
      }
    check_float(out == 1 ? "mma_stmatrix" : "mma_movmatrix", g, r, mg, 0x1p-10);
    CHECK(cudaFree(dd));
  }
  {
    float* dd;
    CHECK(cudaMalloc(&dd, M * N * 4));
    wmma_shared_f16<<<dim3(N / 32, M / 32), 128>>>(da, db_cm, dd);
    CHECK(cudaGetLastError());
    auto got = download(dd, M * N);
    check_float("wmma_shared_f16", std::vector<double>(got.begin(), got.end()), ref, mag, 0x1p-20);
    CHECK(cudaFree(dd));
  }
  // wmma from global memory, per type. C is a random matrix of the accumulator type.
  auto run_float = [&](const char* name, auto tag_a, auto tag_acc, int tm, int tn, double rel) {
    using TA = decltype(tag_a);
    using TAcc = decltype(tag_acc);
    (void)tm; (void)tn;
    std::vector<TA> ha(M * K), hb(K * N);  // hb column-major
    std::vector<TAcc> hc(M * N);
    std::vector<double> ra(M * K), rb(K * N), r(M * N), mg(M * N);
    for (int i = 0; i < M * K; ++i) { ha[i] = static_cast<TA>(rnd_unit()); ra[i] = static_cast<double>(ha[i]); }
    for (int i = 0; i < K * N; ++i) { hb[i] = static_cast<TA>(rnd_unit()); rb[i] = static_cast<double>(hb[i]); }
    for (int i = 0; i < M * N; ++i) { hc[i] = static_cast<TAcc>(rnd_unit()); r[i] = static_cast<double>(hc[i]); mg[i] = std::fabs(r[i]); }
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n)
        for (int k = 0; k < K; ++k) {
          const double p = ra[m * K + k] * rb[n * K + k];
          r[m * N + n] += p;
          mg[m * N + n] += std::fabs(p);
        }
    return std::make_tuple(ha, hb, hc, r, mg, rel, std::string(name));
  };
  auto finish_float = [&](auto& t, auto launch) {
    auto& [ha, hb, hc, r, mg, rel, name] = t;
    auto* pa = upload(ha);
    auto* pb = upload(hb);
    auto* pc = upload(hc);
    using TAcc = typename std::remove_reference_t<decltype(hc)>::value_type;
    TAcc* pd;
    CHECK(cudaMalloc(&pd, M * N * sizeof(TAcc)));
    launch(pa, pb, pc, pd);
    CHECK(cudaGetLastError());
    auto got = download(pd, M * N);
    std::vector<double> g(M * N);
    for (int i = 0; i < M * N; ++i) g[i] = static_cast<double>(got[i]);
    check_float(name.c_str(), g, r, mg, rel);
    CHECK(cudaFree(pa)); CHECK(cudaFree(pb)); CHECK(cudaFree(pc)); CHECK(cudaFree(pd));
  };
  {
    auto t = run_float("wmma_f16_f32", __half{}, float{}, 16, 16, 0x1p-20);
    finish_float(t, [](auto pa, auto pb, auto pc, auto pd) {
      wmma_global<16, 16, 16, __half, float, __half, float, 0><<<(M / 16) * (N / 16) / 4, 128>>>(pa, pb, pc, pd, 16);
    });
  }
  {
    auto t = run_float("wmma_f16_f16", __half{}, __half{}, 32, 8, 0x1p-9);
    finish_float(t, [](auto pa, auto pb, auto pc, auto pd) {
      wmma_global<32, 8, 16, __half, __half, __half, __half, 0><<<(M / 32) * (N / 8) / 4, 128>>>(pa, pb, pc, pd, 16);
    });
  }
  {
    auto t = run_float("wmma_bf16", __nv_bfloat16{}, float{}, 8, 32, 0x1p-20);
    finish_float(t, [](auto pa, auto pb, auto pc, auto pd) {
      wmma_global<8, 32, 16, __nv_bfloat16, float, __nv_bfloat16, float, 0><<<(M / 8) * (N / 32) / 4, 128>>>(pa, pb, pc, pd, 16);
    });
  }
  {
    // tf32: the tensor cores read 10 of each f32's 23 mantissa bits, so the bound allows
    // 2^-10 per factor.
    auto t = run_float("wmma_tf32", float{}, float{}, 16, 16, 0x1p-8);
    finish_float(t, [](auto pa, auto pb, auto pc, auto pd) {
      wmma_global<16, 16, 8, wmma::precision::tf32, float, float, float, 0><<<(M / 16) * (N / 16) / 4, 128>>>(pa, pb, pc, pd, 32);
    });
  }
  {
    auto t = run_float("wmma_f64", double{}, double{}, 8, 8, 0x1p-50);
    finish_float(t, [](auto pa, auto pb, auto pc, auto pd) {
      wmma_global<8, 8, 4, double, double, double, double, 0><<<(M / 8) * (N / 8) / 4, 128>>>(pa, pb, pc, pd, 64);
    });
  }
  // Integer types: exact.
  auto run_int = [&](const char* name, int bits, bool is_signed, int op, auto launch) {
    const int per_byte = 8 / bits > 0 ? 8 / bits : 1;
    std::vector<std::uint8_t> ha(M * K * bits / 8), hb(K * N * bits / 8);
    std::vector<long long> ra(M * K), rb(K * N);
    auto fill = [&](std::vector<std::uint8_t>& bytes, std::vector<long long>& vals) {
      for (std::size_t i = 0; i < vals.size(); ++i) {
        const std::uint32_t raw = rnd() & ((bits >= 8 ? 0xffu : (1u << bits) - 1));
        long long v = raw;
        if (is_signed && (raw >> (bits - 1)) & 1) v -= (1ll << bits);
        vals[i] = v;
        if (bits >= 8) bytes[i] = static_cast<std::uint8_t>(raw);
        else bytes[i / per_byte] |= static_cast<std::uint8_t>(raw << ((i % per_byte) * bits));
      }
    };
    fill(ha, ra);
    fill(hb, rb);
    std::vector<int> hc(M * N);
    for (auto& v : hc) v = static_cast<int>(rnd() % 20001) - 10000;
    auto* pa = upload(ha);
    auto* pb = upload(hb);
    auto* pc = upload(hc);
    int* pd;
    CHECK(cudaMalloc(&pd, M * N * 4));
    launch(pa, pb, pc, pd);
    CHECK(cudaGetLastError());
    auto got = download(pd, M * N);
    long bad = 0;
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        long long s = hc[m * N + n];
        for (int k = 0; k < K; ++k) {
          const long long x = ra[m * K + k], y = rb[n * K + k];
          s += op == 0 ? x * y : op == 1 ? (x ^ y) : (x & y);
        }
        if (static_cast<int>(s) != got[m * N + n]) ++bad;
      }
    report(name, bad ? 1 : 0, 0, bad);
    CHECK(cudaFree(pa)); CHECK(cudaFree(pb)); CHECK(cudaFree(pc)); CHECK(cudaFree(pd));
  };
  run_int("wmma_u8", 8, false, 0, [](auto pa, auto pb, auto pc, auto pd) {
    wmma_global<16, 16, 16, unsigned char, int, unsigned char, int, 0><<<(M / 16) * (N / 16) / 4, 128>>>(
        reinterpret_cast<const unsigned char*>(pa), reinterpret_cast<const unsigned char*>(pb), pc, pd, 8);
  });
  run_int("wmma_s8", 8, true, 0, [](auto pa, auto pb, auto pc, auto pd) {
    wmma_global<32, 8, 16, signed char, int, signed char, int, 0><<<(M / 32) * (N / 8) / 4, 128>>>(
        reinterpret_cast<const signed char*>(pa), reinterpret_cast<const signed char*>(pb), pc, pd, 8);
  });
  run_int("wmma_s4", 4, true, 0, [](auto pa, auto pb, auto pc, auto pd) {
    wmma_global<8, 8, 32, ex::precision::s4, int, void, int, 0><<<(M / 8) * (N / 8) / 4, 128>>>(pa, pb, pc, pd, 4);
  });
  run_int("wmma_b1_xor", 1, false, 1, [](auto pa, auto pb, auto pc, auto pd) {
    wmma_global<8, 8, 128, ex::precision::b1, int, void, int, 1><<<(M / 8) * (N / 8) / 4, 128>>>(pa, pb, pc, pd, 1);
  });
  run_int("wmma_b1_and", 1, false, 2, [](auto pa, auto pb, auto pc, auto pd) {
    wmma_global<8, 8, 128, ex::precision::b1, int, void, int, 2><<<(M / 8) * (N / 8) / 4, 128>>>(pa, pb, pc, pd, 1);
  });
  CHECK(cudaFree(da)); CHECK(cudaFree(db_rm)); CHECK(cudaFree(db_cm));
  std::printf(failures == 0 ? "PASSED\n" : "FAILED\n");
  return failures == 0 ? 0 : 1;
}
