// Fits a rule to the H100's wgmma .e4m3/.e5m2 results (tests/hw/data/h100/wgmma/wgmma_fp8.txt.gz):
// regenerates the probe's inputs (configurations 82-87 of tests/hw/wgmma/wgmma_probe.cu, with
// mma_gen.hpp), applies each candidate rule of hypotheses() and prints, per configuration and test
// family, the elements equal to the H100's, and the first mismatches with their exact sums.
// Results: wgmma_fp8_fit_results.md. Not part of the build.
// Build: g++ -std=c++20 -O2 -o /tmp/fit tests/hw/tools/wgmma_fp8_fit.cpp
// Run:   gzip -dc tests/hw/data/h100/wgmma/wgmma_fp8.txt.gz | /tmp/fit [all|<tag prefix>|zeros] [mismatches]
//        (mismatches > 100 also lists each mismatch's 32 products)
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../tensor/mma_gen.hpp"

using namespace mma_gen;
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

struct Probe {
  int id, n, k;
  T d, a, b;
  int scale_d, scale_a;
  int tests;
};
static const Probe kProbes[] = {
    {82, 8, 32, T::kF32, T::kE4M3, T::kE4M3, 1, 1, 24},  {83, 16, 32, T::kF32, T::kE5M2, T::kE4M3, 1, 1, 24},
    {84, 8, 32, T::kF16, T::kE4M3, T::kE5M2, 1, 1, 24},  {85, 32, 32, T::kF32, T::kE4M3, T::kE4M3, 1, 1, 12},
    {86, 8, 32, T::kF16, T::kE5M2, T::kE5M2, 1, 1, 24},  {87, 8, 32, T::kF32, T::kE4M3, T::kE5M2, 0, -1, 12},
};

// A decoded value: (neg ? -1 : 1) * sig * 2^exp; lead = floor(log2 |value|).
struct Num {
  enum Cls { kZero, kFinite, kInf, kNaN } cls = kZero;
  bool neg = false;
  std::uint64_t sig = 0;
  int exp = 0, lead = 0;
};
static Num decode(T t, std::uint64_t bits) {
  const FloatFormat f = format(t);
  Num n;
  const std::uint64_t man = bits & ((1ull << f.man_bits) - 1);
  const std::uint64_t be = (bits >> f.man_bits) & ((1ull << f.exp_bits) - 1);
  n.neg = (bits >> (f.exp_bits + f.man_bits)) & 1;
  if (be == (1ull << f.exp_bits) - 1) {
    if (f.has_inf) {
      n.cls = man == 0 ? Num::kInf : Num::kNaN;
      return n;
    }
    if (man == (1ull << f.man_bits) - 1) {
      n.cls = Num::kNaN;
      return n;
    }
  }
  if (be == 0) {
    if (man == 0) return n;
    n.cls = Num::kFinite;
    n.sig = man;
    n.exp = 1 - f.bias - f.man_bits;
  } else {
    n.cls = Num::kFinite;
    n.sig = man | (1ull << f.man_bits);
    n.exp = static_cast<int>(be) - f.bias - f.man_bits;
  }
  n.lead = n.exp + static_cast<int>(std::bit_width(n.sig)) - 1;
  return n;
}

// ---------------------------------------------------------------------------------------------
// Rounding helpers on exact values held as neg * mag * 2^e2.
// ---------------------------------------------------------------------------------------------
static int width128(u128 m) {
  const std::uint64_t hi = static_cast<std::uint64_t>(m >> 64);
  return hi ? 128 - std::countl_zero(hi) : 64 - std::countl_zero(static_cast<std::uint64_t>(m));
}
enum Mode { kRZ, kRNE, kRNA, kRD, kRU };
// Rounds mag * 2^e2 to `man` fraction bits (exponent unbounded below when emin is INT32_MIN),
// returns the result as q * 2^lsb.
static u128 round_bits(u128 mag, int e2, int man, int emin, Mode mode, bool neg, int& lsb) {
  if (mag == 0) {
    lsb = e2;
    return 0;
  }
  int e = e2 + width128(mag) - 1;
  if (e < emin) e = emin;
  lsb = e - man;
  const int shift = lsb - e2;
  if (shift <= 0) return mag << -shift;
  if (shift >= 127) {
    const bool up = mode == kRU ? !neg : mode == kRD ? neg : false;
    return up ? 1 : 0;
  }
  u128 q = mag >> shift;
  const u128 rem = mag & ((u128{1} << shift) - 1), half = u128{1} << (shift - 1);
  bool up = false;
  switch (mode) {
    case kRZ: break;
    case kRNE: up = rem > half || (rem == half && (q & 1)); break;
    case kRNA: up = rem >= half; break;
    case kRD: up = neg && rem; break;
    case kRU: up = !neg && rem; break;
  }
  if (up) ++q;
  return q;
}
// To f32 / f16 bits.
static std::uint32_t to_float(T t, bool neg, u128 mag, int e2, Mode mode) {
  const FloatFormat f = format(t);
  const std::uint32_t sign = neg ? 1u << (f.exp_bits + f.man_bits) : 0;
  if (mag == 0) return sign;
  const int emin = 1 - f.bias, emax = (1 << f.exp_bits) - 2 - f.bias;
  int lsb;
  u128 q = round_bits(mag, e2, f.man_bits, emin, mode, neg, lsb);
  int e = lsb + f.man_bits;
  if (q >> (f.man_bits + 1)) {
    q >>= 1;
    ++e;
  }
  const std::uint32_t inf = ((1u << f.exp_bits) - 1) << f.man_bits;
  if (e > emax) {
    const bool to_inf = mode == kRNE || mode == kRNA || (mode == kRU && !neg) || (mode == kRD && neg);
    return sign | (to_inf ? inf : inf - 1);
  }
  const auto qq = static_cast<std::uint32_t>(q);
  if (qq < (1u << f.man_bits)) return sign | qq;
  return sign | (static_cast<std::uint32_t>(e + f.bias) << f.man_bits) | (qq - (1u << f.man_bits));
}
static double fval(T t, std::uint32_t bits) { return value(t, bits); }

// ---------------------------------------------------------------------------------------------
// Hypotheses
// ---------------------------------------------------------------------------------------------
struct Hyp {
  std::string name;
  int grid = 13;              // each term truncated to a multiple of 2^(emax - grid), emax over the group
  bool floor_terms = false;   // negative terms truncated toward -inf instead of toward zero
  int group = 32;             // products per alignment group (k order); the running sum is the next group's C
  int acc_man = 99;           // fraction bits the running sum keeps between groups (toward zero)
  bool c_after = false;       // C left out of the alignment, added exactly to the products' sum at the end
  // Final: the sum rounded to fin_man fraction bits (fin_mode), then to D (out_mode); per D type.
  int fin_man32 = 99, fin_man16 = 99;
  Mode fin_mode32 = kRZ, fin_mode16 = kRZ;
  Mode out32 = kRZ, out16 = kRNE;
};

struct Term {
  bool neg;
  std::uint64_t sig;
  int exp, lead;
};

// Special-values result, or false when every operand is finite.
static bool special(const std::vector<Num>& a, const std::vector<Num>& b, const Num& c, T td, std::uint32_t& out) {
  bool nan = false, pos = false, negv = false;
  if (c.cls == Num::kNaN) nan = true;
  if (c.cls == Num::kInf) (c.neg ? negv : pos) = true;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].cls == Num::kNaN || b[i].cls == Num::kNaN) nan = true;
    const bool ai = a[i].cls == Num::kInf, bi = b[i].cls == Num::kInf;
    if (ai || bi) {
      if ((ai && b[i].cls == Num::kZero) || (bi && a[i].cls == Num::kZero)) nan = true;
      (a[i].neg != b[i].neg ? negv : pos) = true;
    }
  }
  if (pos && negv) nan = true;
  if (!nan && !pos && !negv) return false;
  if (td == T::kF16) out = nan ? 0x7fff : negv ? 0xfc00 : 0x7c00;
  else out = nan ? 0x7fffffff : negv ? 0xff800000 : 0x7f800000;
  return true;
}

// Sums terms aligned to their largest lead, each truncated to 2^(emax - grid) (grid < 0: exact,
// as far as 120 bits below emax); returns neg * mag * 2^e2.
static void aligned_sum(const std::vector<Term>& ts, int grid, bool floor_terms, bool& neg, u128& mag, int& e2) {
  int emax = INT32_MIN, emin_t = INT32_MAX;
  for (const Term& t : ts) emax = std::max(emax, t.lead), emin_t = std::min(emin_t, t.exp);
  neg = false, mag = 0, e2 = 0;
  if (emax == INT32_MIN) return;
  const int g = grid >= 0 ? emax - grid : std::max(emin_t, emax - 120);
  i128 sum = 0;
  for (const Term& t : ts) {
    const int sh = t.exp - g;
    u128 v = sh >= 0 ? u128(t.sig) << sh : (sh > -64 ? u128(t.sig >> -sh) : 0);
    const bool inexact = sh < 0 && (sh <= -64 || (t.sig & ((1ull << -sh) - 1)) != 0);
    if (floor_terms && t.neg && inexact) ++v;
    sum += t.neg ? -i128(v) : i128(v);
  }
  neg = sum < 0;
  mag = neg ? u128(-sum) : u128(sum);
  e2 = g;
}

static std::uint32_t candidate(const Hyp& h, T ta, T tb, T td, const std::uint64_t* arow, const std::uint64_t* bcol,
                               int bstride, int k, std::uint64_t cbits, bool scale_d, int scale_a) {
  std::vector<Num> a(k), b(k);
  for (int i = 0; i < k; ++i) {
    a[i] = decode(ta, arow[i]);
    if (scale_a < 0) a[i].neg = !a[i].neg;
    b[i] = decode(tb, bcol[i * bstride]);
  }
  const Num c = scale_d ? decode(td, cbits) : Num{};  // scale-d false: C = +0
  std::uint32_t sp;
  if (special(a, b, c, td, sp)) return sp;
  // -0 only when every term is -0 (not in the captured data: it has only +0 results).
  bool all_neg_zero = c.cls == Num::kZero && c.neg;
  for (int i = 0; i < k; ++i)
    all_neg_zero = all_neg_zero && (a[i].cls == Num::kZero || b[i].cls == Num::kZero) && (a[i].neg != b[i].neg);
  // The running sum, neg * mag * 2^e2: C first unless added at the end.
  bool aneg = c.neg;
  u128 amag = c.cls == Num::kFinite && !h.c_after ? c.sig : 0;
  int ae2 = c.exp;
  for (int g0 = 0; g0 < k; g0 += h.group) {
    std::vector<Term> ts;
    if (amag) ts.push_back({aneg, static_cast<std::uint64_t>(amag), ae2, ae2 + width128(amag) - 1});
    for (int i = g0; i < std::min(k, g0 + h.group); ++i)
      if (a[i].cls == Num::kFinite && b[i].cls == Num::kFinite)
        ts.push_back({a[i].neg != b[i].neg, a[i].sig * b[i].sig, a[i].exp + b[i].exp, a[i].lead + b[i].lead});
    bool neg;
    u128 mag;
    int e2, lsb;
    aligned_sum(ts, h.grid, h.floor_terms, neg, mag, e2);
    u128 q = h.acc_man < 64 ? round_bits(mag, e2, h.acc_man, INT32_MIN / 2, kRZ, neg, lsb) : (lsb = e2, mag);
    while (q >> 62) {  // keep it a 64-bit term (only drops bits below the ones kept above)
      q >>= 1;
      ++lsb;
    }
    aneg = neg, amag = q, ae2 = lsb;
  }
  if (h.c_after && c.cls == Num::kFinite) {
    std::vector<Term> ts;
    if (amag) ts.push_back({aneg, static_cast<std::uint64_t>(amag), ae2, ae2 + width128(amag) - 1});
    ts.push_back({c.neg, c.sig, c.exp, c.lead});
    aligned_sum(ts, -1, false, aneg, amag, ae2);
  }
  const FloatFormat f = format(td);
  if (amag == 0) return all_neg_zero ? 1u << (f.exp_bits + f.man_bits) : 0;
  const int fin = td == T::kF16 ? h.fin_man16 : h.fin_man32;
  if (fin < 64) {
    int lsb;
    amag = round_bits(amag, ae2, fin, INT32_MIN / 2, td == T::kF16 ? h.fin_mode16 : h.fin_mode32, aneg, lsb);
    ae2 = lsb;
  }
  return to_float(td, aneg, amag, ae2, td == T::kF16 ? h.out16 : h.out32);
}

// ---------------------------------------------------------------------------------------------
struct Data {
  std::map<std::pair<int, int>, std::vector<std::uint32_t>> d;
};
static Data load(std::istream& in) {
  Data data;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("D ", 0) != 0) continue;
    std::istringstream ss(line.substr(2));
    int cfg, test;
    char colon;
    ss >> cfg >> test >> colon;
    std::vector<std::uint32_t> v;
    std::string w;
    while (ss >> w) v.push_back(static_cast<std::uint32_t>(std::stoul(w, nullptr, 16)));
    data.d[{cfg, test}] = std::move(v);
  }
  return data;
}

static double exact_sum(const Probe& p, const Inputs& in, int r, int c) {
  long double s = p.scale_d ? value(p.d, in.c[r * p.n + c]) : 0.0L;
  for (int k = 0; k < p.k; ++k) s += (long double)value(p.a, in.a[r * p.k + k]) * value(p.b, in.b[k * p.n + c]) * p.scale_a;
  return static_cast<double>(s);
}

static void run(const Data& data, const Hyp& h, int verbose) {
  long tot_ok = 0, tot = 0;
  std::printf("== %s\n", h.name.c_str());
  for (const Probe& p : kProbes) {
    const Config cfg{p.id, 2, 64, p.n, p.k, false, false, p.d, p.a, p.b, p.d, 0, false, 0, p.tests};
    long fam_ok[6] = {}, fam_n[6] = {};
    int shown = 0;
    for (int test = 0; test < p.tests; ++test) {
      auto it = data.d.find({p.id, test});
      if (it == data.d.end()) continue;
      const Inputs in = make_inputs(cfg, test);
      for (int r = 0; r < 64; ++r)
        for (int c = 0; c < p.n; ++c) {
          const std::uint32_t hw = it->second[r * p.n + c];
          const std::uint32_t mine =
              candidate(h, p.a, p.b, p.d, &in.a[r * p.k], &in.b[c], p.n, p.k, in.c[r * p.n + c], p.scale_d, p.scale_a);
          const bool ok = hw == mine;
          ++fam_n[test % 6];
          if (ok) ++fam_ok[test % 6];
          if (!ok && shown < verbose) {
            ++shown;
            const double ex = exact_sum(p, in, r, c);
            std::printf("  cfg %d test %d r %d c %d: hw %08x (%.9g) mine %08x (%.9g) exact %.12g C %.9g\n", p.id, test, r,
                        c, hw, fval(p.d, hw), mine, fval(p.d, mine), ex, p.scale_d ? value(p.d, in.c[r * p.n + c]) : 0.0);
            if (verbose > 100) {
              for (int k = 0; k < p.k; ++k) {
                const double pr = value(p.a, in.a[r * p.k + k]) * value(p.b, in.b[k * p.n + c]) * p.scale_a;
                std::printf("    k%2d %02llx*%02llx = %.9g (lead %d)\n", k, (unsigned long long)in.a[r * p.k + k],
                            (unsigned long long)in.b[k * p.n + c], pr, pr == 0 ? -999 : std::ilogb(pr));
              }
            }
          }
        }
    }
    long ok = 0, n = 0;
    std::printf("  cfg %d:", p.id);
    for (int f = 0; f < 6; ++f) {
      std::printf(" f%d %ld/%ld", f, fam_ok[f], fam_n[f]);
      ok += fam_ok[f];
      n += fam_n[f];
    }
    std::printf("  = %ld/%ld\n", ok, n);
    tot_ok += ok;
    tot += n;
  }
  std::printf("  total %ld/%ld\n", tot_ok, tot);
}

static const char* mode_name(Mode m) {
  switch (m) {
    case kRZ: return "rz";
    case kRNE: return "rne";
    case kRNA: return "rna";
    case kRD: return "rd";
    case kRU: return "ru";
  }
  return "?";
}
static std::string describe(const Hyp& h) {
  std::string s = "grid e-" + std::to_string(h.grid);
  if (h.floor_terms) s += " (negative terms floored)";
  if (h.group < 32) s += ", groups of " + std::to_string(h.group) + " (running sum " + (h.acc_man < 64 ? std::to_string(h.acc_man) + " fraction bits rz" : "exact") + ")";
  if (h.c_after) s += ", C added after the products";
  s += "; f32: " + (h.fin_man32 < 64 ? std::to_string(h.fin_man32) + " bits " + mode_name(h.fin_mode32) + ", " : std::string()) + mode_name(h.out32);
  s += "; f16: " + (h.fin_man16 < 64 ? std::to_string(h.fin_man16) + " bits " + mode_name(h.fin_mode16) + ", " : std::string()) + mode_name(h.out16);
  return s;
}

// The hypotheses tried, in the order of the analysis (wgmma_fp8_fit_results.md).
static std::vector<Hyp> hypotheses() {
  std::vector<Hyp> hs;
  auto add = [&](const std::string& tag, Hyp h) {
    h.name = tag + ": " + describe(h);
    hs.push_back(h);
  };
  // H1: fused_dot of the f16/bf16 wgmma (grid e-25, f32 rz, f16 rne).
  { Hyp h; h.grid = 25; add("H1", h); }
  // H2: a coarser grid, nothing else.
  for (int g : {12, 13, 14, 16}) { Hyp h; h.grid = g; add("H2", h); }
  // H3: the sum also rounded to F fraction bits (f32 and f16 alike, rz or rne), then D.
  for (int g : {12, 13, 14})
    for (int fin : {12, 13, 14})
      for (Mode m : {kRZ, kRNE}) {
        Hyp h;
        h.grid = g;
        h.fin_man32 = h.fin_man16 = fin;
        h.fin_mode32 = h.fin_mode16 = m;
        add("H3", h);
      }
  // H4: the f16 side: the 13-bit step or not, rz or rne into f16.
  for (int fin : {13, 14, 15, 16, 99})
    for (Mode o : {kRZ, kRNE}) {
      Hyp h;
      h.fin_man32 = 13;
      h.fin_man16 = fin;
      h.out16 = o;
      add("H4", h);
    }
  // H5: alignment groups of 4/8/16 products, the running sum carried at 13 or 23 fraction bits.
  for (int g : {4, 8, 16})
    for (int acc : {13, 23}) {
      Hyp h;
      h.group = g;
      h.acc_man = acc;
      h.fin_man32 = 13;
      add("H5", h);
    }
  // H6: C outside the alignment.
  { Hyp h; h.c_after = true; h.fin_man32 = 13; add("H6", h); }
  // H7: directed variants: negative terms floored; the 13-bit f32 step toward -inf.
  { Hyp h; h.floor_terms = true; h.fin_man32 = 13; add("H7", h); }
  { Hyp h; h.fin_man32 = 13; h.fin_mode32 = kRD; add("H7", h); }
  // FINAL: grid e-13; f32: 13 fraction bits toward zero; f16: to nearest even.
  { Hyp h; h.fin_man32 = 13; add("FINAL", h); }
  return hs;
}

// The zero results of the capture: how many, their signs, and whether every term was zero.
static void zeros(const Data& data) {
  for (const Probe& p : kProbes) {
    const Config cfg{p.id, 2, 64, p.n, p.k, false, false, p.d, p.a, p.b, p.d, 0, false, 0, p.tests};
    int pos = 0, negz = 0, all_zero_terms = 0;
    for (int test = 0; test < p.tests; ++test) {
      const Inputs in = make_inputs(cfg, test);
      const auto& hw = data.d.at({p.id, test});
      for (int r = 0; r < 64; ++r)
        for (int c = 0; c < p.n; ++c) {
          const std::uint32_t v = hw[r * p.n + c];
          if ((v & (p.d == T::kF16 ? 0x7fffu : 0x7fffffffu)) != 0) continue;
          (v ? negz : pos)++;
          bool all = !p.scale_d || value(p.d, in.c[r * p.n + c]) == 0;
          for (int k = 0; k < p.k; ++k) all = all && value(p.a, in.a[r * p.k + k]) * value(p.b, in.b[k * p.n + c]) == 0;
          all_zero_terms += all;
        }
    }
    std::printf("cfg %d: +0 %d, -0 %d, of which every term zero %d\n", p.id, pos, negz, all_zero_terms);
  }
}

int main(int argc, char** argv) {
  const Data data = load(std::cin);
  const std::string which = argc > 1 ? argv[1] : "all";
  const int verbose = argc > 2 ? std::atoi(argv[2]) : 0;
  if (which == "zeros") return zeros(data), 0;
  for (const Hyp& h : hypotheses())
    if (which == "all" || h.name.rfind(which, 0) == 0) run(data, h, verbose);
}
