// Probe: which matrix element each lane's wmma fragment registers hold on this GPU.
//
// The PTX ISA leaves the wmma fragment layout unspecified ("9.7.14.4.1 Matrix Fragments for
// WMMA"), but programs read and write fragment elements (x[i]), so warpscope uses the layout the
// H100 uses. For every fragment type nvcc 13 offers on sm_90 this program:
//  - load: loads matrices whose elements encode their own (row, column) with load_matrix_sync
//    and prints, for each lane and each element of the fragment's registers, the (row, column)
//    it received. Elements of few bits carry the index in slices over several loads.
//  - store: fills an accumulator fragment with (lane, element) codes, stores it with
//    store_matrix_sync and prints where each (lane, element) landed.
//  - used: for the multiplicand fragments that hold some elements twice (f16 A and B), which
//    copy mma_sync reads: the fragment is filled with (lane, element) codes, the other operand is
//    a shifted identity, and D = A*B shows, for each (row, k, n), the code of the copy used.
// The output is deterministic text; tests/tensor compares warpscope's run of this program with
// the H100's (tests/hw/data/h100/tensor/wmma_fragments.txt).
#include <mma.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace nvcuda;
using namespace nvcuda::wmma;
namespace ex = nvcuda::wmma::experimental;

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("CUDA error %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                  \
    }                                                                                \
  } while (0)

// ---------------------------------------------------------------------------------------------
// Element codecs: how a probe value is written to memory and read back from a register.
// ---------------------------------------------------------------------------------------------
enum class Elem { kF16, kBF16, kTF32, kF32, kF64, kS32, kU8, kS8, kU4, kS4, kB1 };

constexpr int elem_bits(Elem e) {
  switch (e) {
    case Elem::kF16: case Elem::kBF16: return 16;
    case Elem::kTF32: case Elem::kF32: case Elem::kS32: return 32;
    case Elem::kF64: return 64;
    case Elem::kU8: case Elem::kS8: return 8;
    case Elem::kU4: case Elem::kS4: return 4;
    case Elem::kB1: return 1;
  }
  return 0;
}
// Bits of an index one element carries exactly.
constexpr int slice_bits(Elem e) {
  switch (e) {
    case Elem::kF16: return 11;
    case Elem::kBF16: return 8;
    case Elem::kTF32: return 10;
    case Elem::kF32: case Elem::kS32: case Elem::kF64: return 16;
    case Elem::kU8: case Elem::kS8: return 8;
    case Elem::kU4: case Elem::kS4: return 4;
    case Elem::kB1: return 1;
  }
  return 0;
}

std::uint16_t to_half_bits(unsigned v) {  // small integers only
  __half h = __float2half(static_cast<float>(v));
  std::uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
std::uint16_t to_bf16_bits(unsigned v) {
  __nv_bfloat16 h = __float2bfloat16(static_cast<float>(v));
  std::uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}

/// The raw bits of value v in element type e.
std::uint64_t encode(Elem e, unsigned v) {
  switch (e) {
    case Elem::kF16: return to_half_bits(v);
    case Elem::kBF16: return to_bf16_bits(v);
    case Elem::kTF32: case Elem::kF32: { float f = static_cast<float>(v); std::uint32_t b; std::memcpy(&b, &f, 4); return b; }
    case Elem::kF64: { double f = v; std::uint64_t b; std::memcpy(&b, &f, 8); return b; }
    default: return v;
  }
}
/// The value in raw element bits (inverse of encode), or -1 when it is not an encoded value.
long decode(Elem e, std::uint64_t bits) {
  double f = 0;
  switch (e) {
    case Elem::kF16: { __half h; std::uint16_t b = static_cast<std::uint16_t>(bits); std::memcpy(&h, &b, 2); f = __half2float(h); break; }
    case Elem::kBF16: { __nv_bfloat16 h; std::uint16_t b = static_cast<std::uint16_t>(bits); std::memcpy(&h, &b, 2); f = __bfloat162float(h); break; }
    case Elem::kTF32: case Elem::kF32: { float g; std::uint32_t b = static_cast<std::uint32_t>(bits); std::memcpy(&g, &b, 4); f = g; break; }
    case Elem::kF64: std::memcpy(&f, &bits, 8); break;
    default: return static_cast<long>(bits);
  }
  if (f < 0 || f != static_cast<double>(static_cast<long>(f))) return -1;
  return static_cast<long>(f);
}

void put_elem(std::vector<std::uint8_t>& mem, Elem e, std::size_t pos, std::uint64_t bits) {
  const int b = elem_bits(e);
  if (b >= 8) {
    std::memcpy(mem.data() + pos * (b / 8), &bits, b / 8);
  } else {
    const std::size_t bit = pos * b;
    const std::uint8_t mask = static_cast<std::uint8_t>(((1u << b) - 1) << (bit % 8));
    mem[bit / 8] = static_cast<std::uint8_t>((mem[bit / 8] & ~mask) | ((bits << (bit % 8)) & mask));
  }
}
std::uint64_t get_elem(const std::vector<std::uint8_t>& mem, Elem e, std::size_t pos) {
  const int b = elem_bits(e);
  std::uint64_t v = 0;
  if (b >= 8) {
    std::memcpy(&v, mem.data() + pos * (b / 8), b / 8);
  } else {
    const std::size_t bit = pos * b;
    v = (mem[bit / 8] >> (bit % 8)) & ((1u << b) - 1);
  }
  return v;
}
/// Element i (of `bits` each) of a fragment's raw words.
std::uint64_t frag_elem(const std::uint32_t* words, int bits, int i) {
  if (bits == 64) return words[2 * i] | (static_cast<std::uint64_t>(words[2 * i + 1]) << 32);
  const int per = 32 / bits;
  const std::uint32_t w = words[i / per];
  return bits == 32 ? w : (w >> ((i % per) * bits)) & ((1u << bits) - 1);
}
void set_frag_elem(std::uint32_t* words, int bits, int i, std::uint64_t v) {
  if (bits == 64) {
    words[2 * i] = static_cast<std::uint32_t>(v);
    words[2 * i + 1] = static_cast<std::uint32_t>(v >> 32);
    return;
  }
  const int per = 32 / bits;
  if (bits == 32) { words[i] = static_cast<std::uint32_t>(v); return; }
  const std::uint32_t mask = ((1u << bits) - 1) << ((i % per) * bits);
  words[i / per] = (words[i / per] & ~mask) | ((static_cast<std::uint32_t>(v) << ((i % per) * bits)) & mask);
}

// ---------------------------------------------------------------------------------------------
// Kernels: one warp, the fragment's raw words to out[lane * words + w] (and back for stores).
// ---------------------------------------------------------------------------------------------
template <class Frag>
__host__ __device__ constexpr int frag_words() { return static_cast<int>(sizeof(Frag::x) / 4); }

template <class Frag, class Ptr>
__global__ void load_ab(const Ptr* in, unsigned ldm, std::uint32_t* out) {
  Frag f;
  load_matrix_sync(f, in, ldm);
  const std::uint32_t* w = reinterpret_cast<const std::uint32_t*>(&f.x[0]);
  for (int i = 0; i < frag_words<Frag>(); ++i) out[threadIdx.x * frag_words<Frag>() + i] = w[i];
}
template <class Frag, class Ptr>
__global__ void load_acc(const Ptr* in, unsigned ldm, bool col, std::uint32_t* out) {
  Frag f;
  load_matrix_sync(f, in, ldm, col ? mem_col_major : mem_row_major);
  const std::uint32_t* w = reinterpret_cast<const std::uint32_t*>(&f.x[0]);
  for (int i = 0; i < frag_words<Frag>(); ++i) out[threadIdx.x * frag_words<Frag>() + i] = w[i];
}
template <class Frag, class Ptr>
__global__ void store_acc(const std::uint32_t* words, Ptr* out, unsigned ldm, bool col) {
  Frag f;
  std::uint32_t* w = reinterpret_cast<std::uint32_t*>(&f.x[0]);
  for (int i = 0; i < frag_words<Frag>(); ++i) w[i] = words[threadIdx.x * frag_words<Frag>() + i];
  store_matrix_sync(out, f, ldm, col ? mem_col_major : mem_row_major);
}
// A's fragment from raw words, B loaded from memory (col-major), D = A*B stored row-major.
template <int M, int N, int K, class LA>
__global__ void used_a(const std::uint32_t* words, const __half* b, float* d) {
  using FA = fragment<matrix_a, M, N, K, __half, LA>;
  FA fa;
  std::uint32_t* w = reinterpret_cast<std::uint32_t*>(&fa.x[0]);
  for (int i = 0; i < frag_words<FA>(); ++i) w[i] = words[threadIdx.x * frag_words<FA>() + i];
  fragment<matrix_b, M, N, K, __half, col_major> fb;
  load_matrix_sync(fb, b, K);
  fragment<accumulator, M, N, K, float> fc;
  fill_fragment(fc, 0.0f);
  mma_sync(fc, fa, fb, fc);
  store_matrix_sync(d, fc, N, mem_row_major);
}
template <int M, int N, int K, class LB>
__global__ void used_b(const std::uint32_t* words, const __half* a, float* d) {
  using FB = fragment<matrix_b, M, N, K, __half, LB>;
  FB fb;
  std::uint32_t* w = reinterpret_cast<std::uint32_t*>(&fb.x[0]);
  for (int i = 0; i < frag_words<FB>(); ++i) w[i] = words[threadIdx.x * frag_words<FB>() + i];
  fragment<matrix_a, M, N, K, __half, row_major> fa;
  load_matrix_sync(fa, a, K);
  fragment<accumulator, M, N, K, float> fc;
  fill_fragment(fc, 0.0f);
  mma_sync(fc, fa, fb, fc);
  store_matrix_sync(d, fc, N, mem_row_major);
}

// ---------------------------------------------------------------------------------------------
// Host side
// ---------------------------------------------------------------------------------------------
struct Matrix {
  int rows, cols;
  bool col_major;
  int ld() const { return col_major ? rows : cols; }
  std::size_t pos(int r, int c) const { return col_major ? std::size_t(c) * rows + r : std::size_t(r) * cols + c; }
};

template <class Frag, class Ptr, bool kAcc>
void probe_load(const char* name, Elem e, Matrix m) {
  constexpr int words = frag_words<Frag>();
  const int bits = elem_bits(e);
  const int per_lane = words * 32 / bits;
  const int n = m.rows * m.cols;
  int index_bits = 0;
  while ((1 << index_bits) < n) ++index_bits;
  const int sb = slice_bits(e);
  const int slices = (index_bits + sb - 1) / sb;
  std::vector<long> index(32 * per_lane, 0);
  std::vector<bool> bad(32 * per_lane, false);
  const std::size_t bytes = (std::size_t(n) * bits + 7) / 8;
  void* din;
  std::uint32_t* dout;
  CHECK(cudaMalloc(&din, bytes + 256));
  CHECK(cudaMalloc(&dout, 32 * words * 4));
  for (int s = 0; s < slices; ++s) {
    std::vector<std::uint8_t> mem(bytes, 0);
    for (int r = 0; r < m.rows; ++r)
      for (int c = 0; c < m.cols; ++c) {
        const unsigned idx = static_cast<unsigned>(r * m.cols + c);
        put_elem(mem, e, m.pos(r, c), encode(e, (idx >> (s * sb)) & ((1u << sb) - 1)));
      }
    CHECK(cudaMemcpy(din, mem.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dout, 0xff, 32 * words * 4));
    if constexpr (kAcc) {
      load_acc<Frag, Ptr><<<1, 32>>>(static_cast<const Ptr*>(din), m.ld(), m.col_major, dout);
    } else {
      load_ab<Frag, Ptr><<<1, 32>>>(static_cast<const Ptr*>(din), m.ld(), dout);
    }
    CHECK(cudaGetLastError());
    std::vector<std::uint32_t> got(32 * words);
    CHECK(cudaMemcpy(got.data(), dout, got.size() * 4, cudaMemcpyDeviceToHost));
    for (int l = 0; l < 32; ++l)
      for (int i = 0; i < per_lane; ++i) {
        const long v = decode(e, frag_elem(&got[l * words], bits, i));
        if (v < 0 || v >= (1L << sb)) bad[l * per_lane + i] = true;
        else index[l * per_lane + i] |= v << (s * sb);
      }
  }
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  std::printf("load %s rows=%d cols=%d words=%d elements=%d\n", name, m.rows, m.cols, words, per_lane);
  for (int l = 0; l < 32; ++l) {
    std::printf("lane %2d:", l);
    for (int i = 0; i < per_lane; ++i) {
      const long idx = index[l * per_lane + i];
      if (bad[l * per_lane + i] || idx >= n) std::printf(" ?");
      else std::printf(" %ld,%ld", idx / m.cols, idx % m.cols);
    }
    std::printf("\n");
  }
}

template <class Frag, class Ptr>
void probe_store(const char* name, Elem e, Matrix m) {
  constexpr int words = frag_words<Frag>();
  const int bits = elem_bits(e);
  const int per_lane = words * 32 / bits;
  std::vector<std::uint32_t> w(32 * words, 0);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < per_lane; ++i) set_frag_elem(&w[l * words], bits, i, encode(e, 1 + l * per_lane + i));
  const std::size_t bytes = std::size_t(m.rows) * m.cols * bits / 8;
  std::uint32_t* dw;
  void* dout;
  CHECK(cudaMalloc(&dw, w.size() * 4));
  CHECK(cudaMalloc(&dout, bytes));
  CHECK(cudaMemcpy(dw, w.data(), w.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(dout, 0, bytes));
  store_acc<Frag, Ptr><<<1, 32>>>(dw, static_cast<Ptr*>(dout), m.ld(), m.col_major);
  CHECK(cudaGetLastError());
  std::vector<std::uint8_t> mem(bytes);
  CHECK(cudaMemcpy(mem.data(), dout, bytes, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(dw));
  CHECK(cudaFree(dout));
  // Where (lane, element) went: print per lane, like the loads.
  std::vector<long> where(32 * per_lane, -1);
  for (int r = 0; r < m.rows; ++r)
    for (int c = 0; c < m.cols; ++c) {
      const long v = decode(e, get_elem(mem, e, m.pos(r, c)));
      if (v >= 1 && v <= 32 * per_lane) where[v - 1] = r * m.cols + c;
    }
  std::printf("store %s rows=%d cols=%d words=%d elements=%d\n", name, m.rows, m.cols, words, per_lane);
  for (int l = 0; l < 32; ++l) {
    std::printf("lane %2d:", l);
    for (int i = 0; i < per_lane; ++i) {
      const long idx = where[l * per_lane + i];
      if (idx < 0) std::printf(" -");
      else std::printf(" %ld,%ld", idx / m.cols, idx % m.cols);
    }
    std::printf("\n");
  }
}

// Which copy of A[r][k] (f16 fragments hold some elements more than once) mma_sync reads, for
// each output column n: printed per (r, k) as the distinct lane.element codes over n, with the
// columns n that read each.
template <int M, int N, int K, class LA>
void probe_used_a(const char* name) {
  using FA = fragment<matrix_a, M, N, K, __half, LA>;
  constexpr int words = frag_words<FA>();
  const int per_lane = words * 2;
  std::vector<std::uint32_t> w(32 * words);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < per_lane; ++i) set_frag_elem(&w[l * words], 16, i, encode(Elem::kF16, 1 + l * per_lane + i));
  std::uint32_t* dw;
  __half* db;
  float* dd;
  CHECK(cudaMalloc(&dw, w.size() * 4));
  CHECK(cudaMalloc(&db, K * N * 2));
  CHECK(cudaMalloc(&dd, M * N * 4));
  CHECK(cudaMemcpy(dw, w.data(), w.size() * 4, cudaMemcpyHostToDevice));
  // used[(r*K + k)*N + n] = code read
  std::vector<long> used(std::size_t(M) * K * N, -1);
  for (int s = 0; s < K; ++s) {
    std::vector<std::uint16_t> b(K * N);  // column-major: b[n*K + k]
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n) b[n * K + k] = to_half_bits(k == (n + s) % K ? 1 : 0);
    CHECK(cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice));
    used_a<M, N, K, LA><<<1, 32>>>(dw, db, dd);
    CHECK(cudaGetLastError());
    std::vector<float> d(M * N);
    CHECK(cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost));
    for (int r = 0; r < M; ++r)
      for (int n = 0; n < N; ++n) used[(std::size_t(r) * K + (n + s) % K) * N + n] = static_cast<long>(d[r * N + n]);
  }
  CHECK(cudaFree(dw));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dd));
  std::printf("used %s rows=%d cols=%d\n", name, M, K);
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k) {
      std::printf("%d,%d:", r, k);
      for (int n0 = 0; n0 < N; ++n0) {
        const long code = used[(std::size_t(r) * K + k) * N + n0];
        bool first = true;
        for (int n1 = 0; n1 < n0; ++n1) first &= used[(std::size_t(r) * K + k) * N + n1] != code;
        if (!first) continue;
        if (code < 1) std::printf(" ?");
        else std::printf(" %ld.%ld", (code - 1) / per_lane, (code - 1) % per_lane);
        std::printf("[");
        for (int n = 0, any = 0; n < N; ++n)
          if (used[(std::size_t(r) * K + k) * N + n] == code) std::printf(any++ ? ",%d" : "%d", n);
        std::printf("]");
      }
      std::printf("\n");
    }
}

template <int M, int N, int K, class LB>
void probe_used_b(const char* name) {
  using FB = fragment<matrix_b, M, N, K, __half, LB>;
  constexpr int words = frag_words<FB>();
  const int per_lane = words * 2;
  std::vector<std::uint32_t> w(32 * words);
  for (int l = 0; l < 32; ++l)
    for (int i = 0; i < per_lane; ++i) set_frag_elem(&w[l * words], 16, i, encode(Elem::kF16, 1 + l * per_lane + i));
  std::uint32_t* dw;
  __half* da;
  float* dd;
  CHECK(cudaMalloc(&dw, w.size() * 4));
  CHECK(cudaMalloc(&da, M * K * 2));
  CHECK(cudaMalloc(&dd, M * N * 4));
  CHECK(cudaMemcpy(dw, w.data(), w.size() * 4, cudaMemcpyHostToDevice));
  // used[(k*N + n)*M + m] = code read
  std::vector<long> used(std::size_t(K) * N * M, -1);
  for (int s = 0; s < K; ++s) {
    std::vector<std::uint16_t> a(M * K);  // row-major
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k) a[m * K + k] = to_half_bits(k == (m + s) % K ? 1 : 0);
    CHECK(cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
    used_b<M, N, K, LB><<<1, 32>>>(dw, da, dd);
    CHECK(cudaGetLastError());
    std::vector<float> d(M * N);
    CHECK(cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost));
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) used[(std::size_t((m + s) % K) * N + n) * M + m] = static_cast<long>(d[m * N + n]);
  }
  CHECK(cudaFree(dw));
  CHECK(cudaFree(da));
  CHECK(cudaFree(dd));
  std::printf("used %s rows=%d cols=%d\n", name, K, N);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n) {
      std::printf("%d,%d:", k, n);
      for (int m0 = 0; m0 < M; ++m0) {
        const long code = used[(std::size_t(k) * N + n) * M + m0];
        bool first = true;
        for (int m1 = 0; m1 < m0; ++m1) first &= used[(std::size_t(k) * N + n) * M + m1] != code;
        if (!first) continue;
        if (code < 1) std::printf(" ?");
        else std::printf(" %ld.%ld", (code - 1) / per_lane, (code - 1) % per_lane);
        std::printf("[");
        for (int m = 0, any = 0; m < M; ++m)
          if (used[(std::size_t(k) * N + n) * M + m] == code) std::printf(any++ ? ",%d" : "%d", m);
        std::printf("]");
      }
      std::printf("\n");
    }
}

template <class T, class L>
constexpr bool is_col() { return std::is_same_v<L, col_major>; }

// Multiplicand fragments of one element type in the three 16-element shapes.
template <class T, class Ptr>
void ab_three_shapes(const char* tname, Elem e) {
  char name[96];
#define AB(M, N, K, USE, L, R, C)                                                                 \
  std::snprintf(name, sizeof name, "%s.m%dn%dk%d.%s.%s", tname, M, N, K, #USE, #L);              \
  probe_load<fragment<USE, M, N, K, T, L>, Ptr, false>(name, e, Matrix{R, C, is_col<T, L>()});
  AB(16, 16, 16, matrix_a, row_major, 16, 16) AB(16, 16, 16, matrix_a, col_major, 16, 16)
  AB(16, 16, 16, matrix_b, row_major, 16, 16) AB(16, 16, 16, matrix_b, col_major, 16, 16)
  AB(32, 8, 16, matrix_a, row_major, 32, 16) AB(32, 8, 16, matrix_a, col_major, 32, 16)
  AB(32, 8, 16, matrix_b, row_major, 16, 8) AB(32, 8, 16, matrix_b, col_major, 16, 8)
  AB(8, 32, 16, matrix_a, row_major, 8, 16) AB(8, 32, 16, matrix_a, col_major, 8, 16)
  AB(8, 32, 16, matrix_b, row_major, 16, 32) AB(8, 32, 16, matrix_b, col_major, 16, 32)
#undef AB
}

template <class T, class Ptr>
void acc_three_shapes(const char* tname, Elem e) {
  char name[96];
#define ACC(M, N, K)                                                                                \
  for (int col = 0; col < 2; ++col) {                                                               \
    std::snprintf(name, sizeof name, "%s.m%dn%dk%d.accumulator.%s", tname, M, N, K, col ? "col" : "row"); \
    probe_load<fragment<accumulator, M, N, K, T>, Ptr, true>(name, e, Matrix{M, N, col != 0});     \
    probe_store<fragment<accumulator, M, N, K, T>, Ptr>(name, e, Matrix{M, N, col != 0});          \
  }
  ACC(16, 16, 16) ACC(32, 8, 16) ACC(8, 32, 16)
#undef ACC
}

int main() {
  char name[96];
  ab_three_shapes<__half, __half>("f16", Elem::kF16);
  acc_three_shapes<__half, __half>("f16", Elem::kF16);
  acc_three_shapes<float, float>("f32", Elem::kF32);
  ab_three_shapes<__nv_bfloat16, __nv_bfloat16>("bf16", Elem::kBF16);
  ab_three_shapes<signed char, signed char>("s8", Elem::kS8);
  ab_three_shapes<unsigned char, unsigned char>("u8", Elem::kU8);
  acc_three_shapes<int, int>("s32", Elem::kS32);
#define ONE(T, PTR, E, TN, M, N, K, USE, L, R, C)                                                   \
  std::snprintf(name, sizeof name, "%s.m%dn%dk%d.%s.%s", TN, M, N, K, #USE, #L);                   \
  probe_load<fragment<USE, M, N, K, T, L>, PTR, false>(name, E, Matrix{R, C, is_col<T, L>()});
#define ACC1(T, PTR, E, TN, M, N, K)                                                                \
  for (int col = 0; col < 2; ++col) {                                                               \
    std::snprintf(name, sizeof name, "%s.m%dn%dk%d.accumulator.%s", TN, M, N, K, col ? "col" : "row"); \
    probe_load<fragment<accumulator, M, N, K, T>, PTR, true>(name, E, Matrix{M, N, col != 0});      \
    probe_store<fragment<accumulator, M, N, K, T>, PTR>(name, E, Matrix{M, N, col != 0});           \
  }
  ONE(precision::tf32, float, Elem::kTF32, "tf32", 16, 16, 8, matrix_a, row_major, 16, 8)
  ONE(precision::tf32, float, Elem::kTF32, "tf32", 16, 16, 8, matrix_a, col_major, 16, 8)
  ONE(precision::tf32, float, Elem::kTF32, "tf32", 16, 16, 8, matrix_b, row_major, 8, 16)
  ONE(precision::tf32, float, Elem::kTF32, "tf32", 16, 16, 8, matrix_b, col_major, 8, 16)
  ACC1(float, float, Elem::kF32, "f32", 16, 16, 8)
  ONE(double, double, Elem::kF64, "f64", 8, 8, 4, matrix_a, row_major, 8, 4)
  ONE(double, double, Elem::kF64, "f64", 8, 8, 4, matrix_a, col_major, 8, 4)
  ONE(double, double, Elem::kF64, "f64", 8, 8, 4, matrix_b, row_major, 4, 8)
  ONE(double, double, Elem::kF64, "f64", 8, 8, 4, matrix_b, col_major, 4, 8)
  ACC1(double, double, Elem::kF64, "f64", 8, 8, 4)
  ONE(ex::precision::s4, void, Elem::kS4, "s4", 8, 8, 32, matrix_a, row_major, 8, 32)
  ONE(ex::precision::s4, void, Elem::kS4, "s4", 8, 8, 32, matrix_b, col_major, 32, 8)
  ONE(ex::precision::u4, void, Elem::kU4, "u4", 8, 8, 32, matrix_a, row_major, 8, 32)
  ONE(ex::precision::u4, void, Elem::kU4, "u4", 8, 8, 32, matrix_b, col_major, 32, 8)
  ACC1(int, int, Elem::kS32, "s32", 8, 8, 32)
  ONE(ex::precision::b1, void, Elem::kB1, "b1", 8, 8, 128, matrix_a, row_major, 8, 128)
  ONE(ex::precision::b1, void, Elem::kB1, "b1", 8, 8, 128, matrix_b, col_major, 128, 8)
  ACC1(int, int, Elem::kS32, "s32", 8, 8, 128)
#undef ONE
#undef ACC1
  probe_used_a<16, 16, 16, row_major>("f16.m16n16k16.matrix_a.row_major");
  probe_used_a<16, 16, 16, col_major>("f16.m16n16k16.matrix_a.col_major");
  probe_used_a<32, 8, 16, row_major>("f16.m32n8k16.matrix_a.row_major");
  probe_used_a<32, 8, 16, col_major>("f16.m32n8k16.matrix_a.col_major");
  probe_used_a<8, 32, 16, row_major>("f16.m8n32k16.matrix_a.row_major");
  probe_used_a<8, 32, 16, col_major>("f16.m8n32k16.matrix_a.col_major");
  probe_used_b<16, 16, 16, row_major>("f16.m16n16k16.matrix_b.row_major");
  probe_used_b<16, 16, 16, col_major>("f16.m16n16k16.matrix_b.col_major");
  probe_used_b<32, 8, 16, row_major>("f16.m32n8k16.matrix_b.row_major");
  probe_used_b<32, 8, 16, col_major>("f16.m32n8k16.matrix_b.col_major");
  probe_used_b<8, 32, 16, row_major>("f16.m8n32k16.matrix_b.row_major");
  probe_used_b<8, 32, 16, col_major>("f16.m8n32k16.matrix_b.col_major");
  std::printf("done\n");
  return 0;
}
