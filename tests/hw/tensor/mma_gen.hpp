// Inputs of the tensor-core numerics probe (mma_numerics.cu), shared with the tests that replay
// its H100 results (tests/tensor): the configurations, a fully specified generator of their
// matrices, and the PTX ISA's mma fragment layouts ("9.7.14.5 Matrix multiply-accumulate
// operation using mma instruction"), host-side C++17 without CUDA.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace mma_gen {

enum class T { kF16, kBF16, kTF32, kF32, kF64, kE4M3, kE5M2, kS8, kU8, kS4, kU4, kB1, kS32 };

inline int bits(T t) {
  switch (t) {
    case T::kF16: case T::kBF16: return 16;
    case T::kTF32: case T::kF32: case T::kS32: return 32;
    case T::kF64: return 64;
    case T::kE4M3: case T::kE5M2: case T::kS8: case T::kU8: return 8;
    case T::kS4: case T::kU4: return 4;
    case T::kB1: return 1;
  }
  return 0;
}
inline const char* name(T t) {
  switch (t) {
    case T::kF16: return "f16"; case T::kBF16: return "bf16"; case T::kTF32: return "tf32";
    case T::kF32: return "f32"; case T::kF64: return "f64"; case T::kE4M3: return "e4m3";
    case T::kE5M2: return "e5m2"; case T::kS8: return "s8"; case T::kU8: return "u8";
    case T::kS4: return "s4"; case T::kU4: return "u4"; case T::kB1: return "b1"; case T::kS32: return "s32";
  }
  return "?";
}

/// One probed instruction. kind: 0 = mma.sync (fragments in the ISA's layout), 1 = wmma (the
/// CUDA API: A row-major, B column-major, C and D row-major in memory).
struct Config {
  int id;
  int kind;
  int m, n, k;
  bool a_col, b_row;       // mma.m8n8k4 layouts (.col for A, .row for B); otherwise row.col
  T d, a, b, c;
  int rnd;                 // f64: 0 rn, 1 rz, 2 rm, 3 rp
  bool satfinite;
  int bitop;               // b1: 0 xor, 1 and
  int tests;
};

inline std::vector<Config> configs() {
  using t = T;
  return {
      {1, 0, 16, 8, 16, false, false, t::kF32, t::kF16, t::kF16, t::kF32, 0, false, 0, 48},
      {2, 0, 16, 8, 16, false, false, t::kF16, t::kF16, t::kF16, t::kF16, 0, false, 0, 48},
      {3, 0, 16, 8, 8, false, false, t::kF32, t::kF16, t::kF16, t::kF32, 0, false, 0, 24},
      {4, 0, 16, 8, 8, false, false, t::kF16, t::kF16, t::kF16, t::kF16, 0, false, 0, 24},
      {5, 0, 8, 8, 4, false, false, t::kF32, t::kF16, t::kF16, t::kF32, 0, false, 0, 24},
      {6, 0, 8, 8, 4, false, false, t::kF16, t::kF16, t::kF16, t::kF16, 0, false, 0, 24},
      {7, 0, 8, 8, 4, false, false, t::kF32, t::kF16, t::kF16, t::kF16, 0, false, 0, 24},
      {8, 0, 8, 8, 4, true, true, t::kF32, t::kF16, t::kF16, t::kF32, 0, false, 0, 12},
      {9, 0, 16, 8, 16, false, false, t::kF32, t::kBF16, t::kBF16, t::kF32, 0, false, 0, 48},
      {10, 0, 16, 8, 8, false, false, t::kF32, t::kBF16, t::kBF16, t::kF32, 0, false, 0, 24},
      {11, 0, 16, 8, 8, false, false, t::kF32, t::kTF32, t::kTF32, t::kF32, 0, false, 0, 36},
      {12, 0, 16, 8, 4, false, false, t::kF32, t::kTF32, t::kTF32, t::kF32, 0, false, 0, 24},
      {13, 0, 16, 8, 32, false, false, t::kF32, t::kE4M3, t::kE4M3, t::kF32, 0, false, 0, 36},
      {14, 0, 16, 8, 32, false, false, t::kF32, t::kE5M2, t::kE4M3, t::kF32, 0, false, 0, 24},
      {15, 0, 16, 8, 32, false, false, t::kF16, t::kE4M3, t::kE5M2, t::kF16, 0, false, 0, 24},
      {16, 0, 16, 8, 16, false, false, t::kF32, t::kE4M3, t::kE4M3, t::kF32, 0, false, 0, 24},
      {17, 0, 16, 8, 16, false, false, t::kF16, t::kE5M2, t::kE5M2, t::kF16, 0, false, 0, 24},
      {18, 0, 8, 8, 4, false, false, t::kF64, t::kF64, t::kF64, t::kF64, 0, false, 0, 24},
      {19, 0, 8, 8, 4, false, false, t::kF64, t::kF64, t::kF64, t::kF64, 1, false, 0, 12},
      {20, 0, 8, 8, 4, false, false, t::kF64, t::kF64, t::kF64, t::kF64, 2, false, 0, 12},
      {21, 0, 8, 8, 4, false, false, t::kF64, t::kF64, t::kF64, t::kF64, 3, false, 0, 12},
      {22, 0, 16, 8, 4, false, false, t::kF64, t::kF64, t::kF64, t::kF64, 0, false, 0, 12},
      {23, 0, 16, 8, 8, false, false, t::kF64, t::kF64, t::kF64, t::kF64, 0, false, 0, 12},
      {24, 0, 16, 8, 16, false, false, t::kF64, t::kF64, t::kF64, t::kF64, 0, false, 0, 24},
      {25, 0, 16, 8, 16, false, false, t::kF64, t::kF64, t::kF64, t::kF64, 1, false, 0, 12},
      {26, 0, 16, 8, 32, false, false, t::kS32, t::kS8, t::kS8, t::kS32, 0, false, 0, 12},
      {27, 0, 16, 8, 32, false, false, t::kS32, t::kU8, t::kS8, t::kS32, 0, true, 0, 12},
      {28, 0, 16, 8, 16, false, false, t::kS32, t::kU8, t::kU8, t::kS32, 0, false, 0, 12},
      {29, 0, 8, 8, 16, false, false, t::kS32, t::kS8, t::kU8, t::kS32, 0, true, 0, 12},
      {30, 0, 16, 8, 64, false, false, t::kS32, t::kS4, t::kS4, t::kS32, 0, false, 0, 12},
      {31, 0, 16, 8, 32, false, false, t::kS32, t::kU4, t::kS4, t::kS32, 0, true, 0, 12},
      {32, 0, 8, 8, 32, false, false, t::kS32, t::kU4, t::kU4, t::kS32, 0, false, 0, 12},
      {33, 0, 16, 8, 256, false, false, t::kS32, t::kB1, t::kB1, t::kS32, 0, false, 1, 12},
      {34, 0, 16, 8, 128, false, false, t::kS32, t::kB1, t::kB1, t::kS32, 0, false, 0, 12},
      {35, 0, 8, 8, 128, false, false, t::kS32, t::kB1, t::kB1, t::kS32, 0, false, 0, 12},
      {36, 0, 8, 8, 4, false, true, t::kF32, t::kF16, t::kF16, t::kF32, 0, false, 0, 12},
      {37, 0, 8, 8, 4, true, false, t::kF16, t::kF16, t::kF16, t::kF16, 0, false, 0, 12},
      {40, 1, 16, 16, 16, false, false, t::kF32, t::kF16, t::kF16, t::kF32, 0, false, 0, 24},
      {41, 1, 16, 16, 16, false, false, t::kF16, t::kF16, t::kF16, t::kF16, 0, false, 0, 24},
      {42, 1, 32, 8, 16, false, false, t::kF32, t::kF16, t::kF16, t::kF32, 0, false, 0, 12},
      {43, 1, 8, 32, 16, false, false, t::kF32, t::kF16, t::kF16, t::kF32, 0, false, 0, 12},
      {44, 1, 16, 16, 16, false, false, t::kF32, t::kBF16, t::kBF16, t::kF32, 0, false, 0, 24},
      {45, 1, 16, 16, 8, false, false, t::kF32, t::kTF32, t::kTF32, t::kF32, 0, false, 0, 24},
      {46, 1, 8, 8, 4, false, false, t::kF64, t::kF64, t::kF64, t::kF64, 0, false, 0, 12},
      {47, 1, 16, 16, 16, false, false, t::kS32, t::kU8, t::kU8, t::kS32, 0, false, 0, 12},
      {48, 1, 16, 16, 16, false, false, t::kS32, t::kS8, t::kS8, t::kS32, 0, true, 0, 12},
      {49, 1, 8, 8, 32, false, false, t::kS32, t::kS4, t::kS4, t::kS32, 0, false, 0, 12},
      {50, 1, 8, 8, 128, false, false, t::kS32, t::kB1, t::kB1, t::kS32, 0, false, 0, 12},
  };
}

// ---------------------------------------------------------------------------------------------
// The generator: splitmix64, one stream per (config, test, matrix).
// ---------------------------------------------------------------------------------------------
struct Rng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
};

struct FloatFormat {
  int exp_bits, man_bits, bias;
  bool has_inf;  // e4m3 has no infinity (S.1111.111 is NaN)
};
inline FloatFormat format(T t) {
  switch (t) {
    case T::kF16: return {5, 10, 15, true};
    case T::kBF16: return {8, 7, 127, true};
    case T::kTF32: case T::kF32: return {8, 23, 127, true};
    case T::kF64: return {11, 52, 1023, true};
    case T::kE4M3: return {4, 3, 7, false};
    case T::kE5M2: return {5, 2, 15, true};
    default: return {0, 0, 0, false};
  }
}
inline bool is_float(T t) { return format(t).exp_bits != 0; }

/// Raw bits of a value of a float type: sign, unbiased exponent (clamped to the normal range;
/// below it a subnormal), random mantissa.
inline std::uint64_t make_float(T t, Rng& r, int emin, int emax) {
  const FloatFormat f = format(t);
  const int lo = 1 - f.bias, hi = (1 << f.exp_bits) - 2 - f.bias - (f.has_inf ? 0 : 0);
  int e = r.range(emin, emax);
  std::uint64_t man = r.next() & ((std::uint64_t{1} << f.man_bits) - 1);
  std::uint64_t be;
  if (e < lo) {  // subnormal: shift the mantissa
    const int sh = lo - e;
    man = sh >= f.man_bits ? 1 : ((man | (std::uint64_t{1} << f.man_bits)) >> sh);
    be = 0;
  } else {
    if (e > hi) e = hi;
    be = static_cast<std::uint64_t>(e + f.bias);
  }
  if (t == T::kE4M3 && be == 15 && man == 7) man = 6;  // not NaN
  const std::uint64_t sign = r.next() & 1;
  return (sign << (f.exp_bits + f.man_bits)) | (be << f.man_bits) | man;
}
inline std::uint64_t special_float(T t, int which) {
  const FloatFormat f = format(t);
  const std::uint64_t exp_all = ((std::uint64_t{1} << f.exp_bits) - 1) << f.man_bits;
  const std::uint64_t sign = std::uint64_t{1} << (f.exp_bits + f.man_bits);
  switch (which % 6) {
    case 0: return f.has_inf ? exp_all : (exp_all | ((std::uint64_t{1} << f.man_bits) - 2));  // +inf / max
    case 1: return f.has_inf ? (sign | exp_all) : (sign | exp_all | ((std::uint64_t{1} << f.man_bits) - 2));
    case 2: return exp_all | ((std::uint64_t{1} << f.man_bits) - 1);  // NaN
    case 3: return sign;                                                 // -0
    case 4: return 1;                                                    // smallest subnormal
    default: return sign | ((std::uint64_t{1} << f.man_bits) - 1);      // -largest subnormal
  }
}

/// Logical matrices of one test, each element's raw bits, row-major (A: m x k, B: k x n,
/// C: m x n). Families (test % 6): 0 moderate, 1 wide exponents, 2 large C, 3 near-cancelling
/// pairs, 4 tiny values, 5 special values sprinkled.
struct Inputs {
  std::vector<std::uint64_t> a, b, c;
};
inline Inputs make_inputs(const Config& cfg, int test) {
  Inputs in;
  const int fam = test % 6;
  Rng r{0x5eed0000ull + static_cast<std::uint64_t>(cfg.id) * 1000003ull + static_cast<std::uint64_t>(test) * 7919ull};
  auto element = [&](T t, bool acc) -> std::uint64_t {
    if (!is_float(t)) {
      const int b = bits(t);
      std::uint64_t v = r.next() & (b == 64 ? ~0ull : ((std::uint64_t{1} << b) - 1));
      if (t == T::kS32 && fam == 2) {  // near the ends: saturation and wrap-around
        const std::int64_t big = (r.next() & 1) ? 2147483647ll - r.range(0, 3000) : -2147483647ll - 1 + r.range(0, 3000);
        v = static_cast<std::uint32_t>(big);
      } else if (t == T::kS32 && fam != 1) {
        v = static_cast<std::uint32_t>(static_cast<std::int32_t>(r.next() % 200001) - 100000);
      }
      return v;
    }
    const FloatFormat f = format(t);
    const int lo = 1 - f.bias, hi = (1 << f.exp_bits) - 2 - f.bias;
    auto clampe = [&](int e) { return e < lo - f.man_bits ? lo - f.man_bits : (e > hi ? hi : e); };
    switch (fam) {
      case 0: return make_float(t, r, clampe(-3), clampe(3));
      case 1: return make_float(t, r, clampe(acc ? -12 : -12), clampe(12));
      case 2: return acc ? make_float(t, r, clampe(8), clampe(16)) : make_float(t, r, clampe(-4), clampe(0));
      case 3: return acc ? make_float(t, r, clampe(-20), clampe(-10)) : make_float(t, r, clampe(-2), clampe(2));
      case 4: return acc ? make_float(t, r, clampe(lo - 4), clampe(lo + 2)) : make_float(t, r, clampe(lo / 2 - 3), clampe(lo / 2 + 2));
      default:
        if (r.range(0, 15) == 0) return special_float(t, r.range(0, 5));
        return make_float(t, r, clampe(-3), clampe(3));
    }
  };
  in.a.resize(static_cast<std::size_t>(cfg.m) * cfg.k);
  in.b.resize(static_cast<std::size_t>(cfg.k) * cfg.n);
  in.c.resize(static_cast<std::size_t>(cfg.m) * cfg.n);
  for (auto& v : in.a) v = element(cfg.a, false);
  for (auto& v : in.b) v = element(cfg.b, false);
  for (auto& v : in.c) v = element(cfg.c, true);
  if (fam == 3 && is_float(cfg.a)) {
    // Near-cancelling pairs: A[m][k+1] = A[m][k], B[k+1][n] = -B[k][n] with the last mantissa
    // bit flipped.
    for (int m = 0; m < cfg.m; ++m)
      for (int k = 0; k + 1 < cfg.k; k += 2) in.a[m * cfg.k + k + 1] = in.a[m * cfg.k + k];
    const int sign_bit = bits(cfg.b) - 1;
    for (int k = 0; k + 1 < cfg.k; k += 2)
      for (int n = 0; n < cfg.n; ++n)
        in.b[(k + 1) * cfg.n + n] = (in.b[k * cfg.n + n] ^ (std::uint64_t{1} << sign_bit)) ^ (r.next() & 1);
  }
  return in;
}

/// The value of raw element bits as a double (exact for every type here; tf32 uses all 32 bits).
inline double value(T t, std::uint64_t v) {
  if (!is_float(t)) {
    switch (t) {
      case T::kS8: return static_cast<std::int8_t>(v);
      case T::kS4: return static_cast<double>(static_cast<std::int64_t>(v << 60) >> 60);
      case T::kS32: return static_cast<std::int32_t>(v);
      default: return static_cast<double>(v);
    }
  }
  const FloatFormat f = format(t);
  const std::uint64_t man = v & ((std::uint64_t{1} << f.man_bits) - 1);
  const std::uint64_t be = (v >> f.man_bits) & ((std::uint64_t{1} << f.exp_bits) - 1);
  const bool neg = (v >> (f.exp_bits + f.man_bits)) & 1;
  double x;
  if (be == (std::uint64_t{1} << f.exp_bits) - 1 && (f.has_inf || man == (std::uint64_t{1} << f.man_bits) - 1)) {
    x = (man == 0 && f.has_inf) ? INFINITY : NAN;
  } else if (be == 0) {
    x = std::ldexp(static_cast<double>(man), 1 - f.bias - f.man_bits);
  } else {
    x = std::ldexp(static_cast<double>(man | (std::uint64_t{1} << f.man_bits)), static_cast<int>(be) - f.bias - f.man_bits);
  }
  return neg ? -x : x;
}

// ---------------------------------------------------------------------------------------------
// mma.sync fragment layouts (PTX ISA 9.0, 9.7.14.5.x). Registers are 32 bits, except f64
// fragments whose registers are one element each.
// ---------------------------------------------------------------------------------------------
struct Pos {
  int row, col;
};
/// Elements per 32-bit register (f64: 1 per register).
inline int per_reg(T t) { return bits(t) >= 32 ? 1 : 32 / bits(t); }

/// Where element e of register j of `lane` lies in A (m x k), for every shape but m8n8k4 .f16.
inline Pos a_pos(const Config& c, int lane, int j, int e) {
  const int g = lane >> 2, t = lane & 3, w = per_reg(c.a);
  const int rowblocks = c.m == 16 ? 2 : 1;
  return {g + 8 * (j % rowblocks), (j / rowblocks) * 4 * w + t * w + e};
}
inline Pos b_pos(const Config& c, int lane, int j, int e) {
  const int g = lane >> 2, t = lane & 3, w = per_reg(c.b);
  return {j * 4 * w + t * w + e, g};
}
/// Accumulator element i (0..3 for m16n8, 0..1 for m8n8) of lane.
inline Pos c_pos(const Config&, int lane, int i) {
  const int g = lane >> 2, t = lane & 3;
  return {g + 8 * (i >> 1), 2 * t + (i & 1)};
}
// m8n8k4 with .f16: four MMAs, MMA q on lanes 4q..4q+3 ("low group") and 16+4q..16+4q+3.
inline Pos a_pos_884(const Config& c, int lane, int i) {  // i = 0..3
  const int hi = lane >= 16 ? 4 : 0;
  if (!c.a_col) return {(lane % 4) + hi, i};
  return {(i % 4) + hi, lane % 4};
}
inline Pos b_pos_884(const Config& c, int lane, int i) {
  const int hi = lane >= 16 ? 4 : 0;
  if (c.b_row) return {lane % 4, i + hi};
  return {i, (lane % 4) + hi};
}
/// Accumulator element i (0..7) of lane, for an accumulator of type t (C and D may differ).
inline Pos acc_pos_884(T t, int lane, int i) {
  const int hi = lane >= 16 ? 4 : 0;
  if (t == T::kF16) return {(lane % 4) + hi, i};
  const int x = (lane & 1) + (i & 2);
  return {x + hi, (i & 4) + (lane & 2) + (i & 1)};
}
/// Which of the four m8n8k4 MMAs a lane takes part in (lanes 4q..4q+3 and 16+4q..16+4q+3).
inline int mma884_of(int lane) { return (lane >> 2) & 3; }

}  // namespace mma_gen
