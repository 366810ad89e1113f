// Fits candidate rules for the H100's FP8 mma.sync (.e4m3/.e5m2) arithmetic against the capture
// tests/hw/data/h100/tensor/mma_numerics.txt (configurations 13-17 of mma_gen.hpp).
//   g++ -std=c++20 -O2 -o /tmp/fp8_fit tests/hw/tools/fp8_fit.cpp && /tmp/fp8_fit [hypothesis|all] [show [family]]
// (run from the repository root, or define WARPSCOPE_ROOT). Results: fp8_fit_results.md.
// Prints, per hypothesis, the matching elements per configuration and test family; with `show`,
// a few mismatching elements with their terms.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../tensor/mma_gen.hpp"

#ifndef WARPSCOPE_ROOT
#define WARPSCOPE_ROOT "."
#endif

using namespace mma_gen;
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

struct Num {
  enum Cls { kZero, kFinite, kInf, kNaN } cls = kZero;
  bool neg = false;
  u128 sig = 0;
  int exp = 0;   // value = sig * 2^exp
  int lead = 0;  // floor(log2 |value|)
};

static int width(u128 v) {
  const auto hi = static_cast<std::uint64_t>(v >> 64);
  return hi ? 128 - std::countl_zero(hi) : 64 - std::countl_zero(static_cast<std::uint64_t>(v));
}

Num decode(T t, std::uint64_t bits) {
  const FloatFormat f = format(t);
  Num n;
  const std::uint64_t man = bits & ((std::uint64_t{1} << f.man_bits) - 1);
  const std::uint64_t be = (bits >> f.man_bits) & ((std::uint64_t{1} << f.exp_bits) - 1);
  n.neg = (bits >> (f.exp_bits + f.man_bits)) & 1;
  const std::uint64_t emax_field = (std::uint64_t{1} << f.exp_bits) - 1;
  if (be == emax_field && (f.has_inf || man == (std::uint64_t{1} << f.man_bits) - 1)) {
    n.cls = (f.has_inf && man == 0) ? Num::kInf : Num::kNaN;
    return n;
  }
  if (be == 0) {
    if (man == 0) return n;
    n.cls = Num::kFinite;
    n.sig = man;
    n.exp = 1 - f.bias - f.man_bits;
  } else {
    n.cls = Num::kFinite;
    n.sig = man | (std::uint64_t{1} << f.man_bits);
    n.exp = static_cast<int>(be) - f.bias - f.man_bits;
  }
  n.lead = n.exp + width(n.sig) - 1;
  return n;
}

/// Rounds neg*mag*2^e2 to a float of `man` fraction bits, exponent range [emin, emax]
/// (subnormals below emin). mode: 0 toward zero, 1 nearest even. Returns a Num (exact value).
/// Overflow: saturate (rz) or inf (rn).
Num round_num(bool neg, u128 mag, int e2, int man, int emin, int emax, int mode) {
  Num r;
  r.neg = neg;
  if (mag == 0) return r;
  int e = e2 + width(mag) - 1;
  if (e < emin) e = emin;
  const int lsb = e - man;
  const int shift = lsb - e2;
  u128 q;
  if (shift <= 0) q = mag << -shift;
  else if (shift >= 127) q = 0;
  else {
    q = mag >> shift;
    if (mode == 1) {
      const u128 rem = mag & ((u128{1} << shift) - 1), half = u128{1} << (shift - 1);
      if (rem > half || (rem == half && (q & 1))) ++q;
    }
  }
  if (width(q) > man + 1) {
    q >>= 1;
    ++e;
  }
  if (e > emax) {
    if (mode == 1) {
      r.cls = Num::kInf;
      return r;
    }
    q = (u128{1} << (man + 1)) - 1;
    e = emax;
  }
  if (q == 0) return r;
  r.cls = Num::kFinite;
  r.sig = q;
  r.exp = e - man;
  r.lead = r.exp + width(q) - 1;
  return r;
}

std::uint64_t encode(T t, const Num& x) {
  const FloatFormat f = format(t);
  const std::uint64_t sign = x.neg ? std::uint64_t{1} << (f.exp_bits + f.man_bits) : 0;
  if (x.cls == Num::kNaN) return t == T::kF16 ? 0x7fff : 0x7fffffff;
  const std::uint64_t inf = ((std::uint64_t{1} << f.exp_bits) - 1) << f.man_bits;
  if (x.cls == Num::kInf) return sign | inf;
  if (x.cls == Num::kZero) return sign;
  // x must be representable
  const int emin = 1 - f.bias;
  if (x.lead < emin) {
    const int sh = x.exp - (emin - f.man_bits);
    return sign | static_cast<std::uint64_t>(x.sig << sh);
  }
  const int sh = x.exp - (x.lead - f.man_bits);
  const u128 s = sh >= 0 ? x.sig << sh : x.sig >> -sh;
  return sign | (static_cast<std::uint64_t>(x.lead + f.bias) << f.man_bits) |
         (static_cast<std::uint64_t>(s) & ((std::uint64_t{1} << f.man_bits) - 1));
}

Num to_format(T t, bool neg, u128 mag, int e2, int mode) {
  const FloatFormat f = format(t);
  return round_num(neg, mag, e2, f.man_bits, 1 - f.bias, (1 << f.exp_bits) - 2 - f.bias, mode);
}

// ---------------------------------------------------------------------------------------------
struct Elem {
  const Config* cfg;
  int test, fam, m, n;
  std::vector<Num> a, b;  // k of each
  Num c;
  std::uint64_t got;
};

/// A hypothesis: computes D bits of one element.
struct Hyp {
  std::string name;
  std::function<std::uint64_t(const Elem&)> f;
};

/// Special values: NaN/inf handling shared by every hypothesis. Returns true if handled.
bool specials(const Elem& e, std::uint64_t& out) {
  bool nan = e.c.cls == Num::kNaN, pos = false, negv = false;
  if (e.c.cls == Num::kInf) (e.c.neg ? negv : pos) = true;
  for (size_t i = 0; i < e.a.size(); ++i) {
    const Num &x = e.a[i], &y = e.b[i];
    if (x.cls == Num::kNaN || y.cls == Num::kNaN) nan = true;
    const bool xi = x.cls == Num::kInf, yi = y.cls == Num::kInf;
    if (xi || yi) {
      if ((xi && y.cls == Num::kZero) || (yi && x.cls == Num::kZero)) nan = true;
      (x.neg != y.neg ? negv : pos) = true;
    }
  }
  if (pos && negv) nan = true;
  if (!nan && !pos && !negv) return false;
  const T td = e.cfg->d;
  Num r;
  r.cls = nan ? Num::kNaN : Num::kInf;
  r.neg = negv;
  out = encode(td, r);
  return true;
}

struct Term {
  bool neg;
  u128 sig;
  int exp, lead;
};

/// Generic model parameters.
struct Model {
  std::vector<std::vector<int>> groups;  // k indices of each group, in order (empty = one group of all)
  int wp = 25;          // products truncated to a multiple of 2^(emax - wp)
  int wc = 25;          // C (accumulator) truncated to a multiple of 2^(emax - wc)
  bool c_in_emax = true;
  int c_where = 0;      // 0: accumulator joins every group; 1: C added after all groups (separate step)
  int acc_man = 23;     // the accumulator between groups: fraction bits
  int acc_mode = 0;     // 0 rz, 1 rn
  int fin_mode = -1;    // final rounding to D: -1 = default (f32 rz, f16 rn)
  bool via_f32 = false; // f16 D: round to f32 (rz) first, then to f16 (rn)
  int cadd_mode = 0;    // c_where 1: 0 = aligned-truncated add with wc bits, 1 = exact add
  int acc_emin = -126;
  int acc_emax = 127;
};

std::uint64_t run_model(const Model& md, const Elem& e) {
  std::uint64_t out;
  if (specials(e, out)) return out;
  const int k = static_cast<int>(e.a.size());
  std::vector<std::vector<int>> groups = md.groups;
  if (groups.empty()) {
    groups.emplace_back();
    for (int i = 0; i < k; ++i) groups[0].push_back(i);
  }
  Num acc = md.c_where == 0 ? e.c : Num{};
  const T td = e.cfg->d;
  for (size_t gi = 0; gi < groups.size(); ++gi) {
    const auto& g = groups[gi];
    std::vector<Term> ts;
    bool all_neg = acc.cls == Num::kZero ? acc.neg : false;
    if (gi > 0 && md.c_where == 1 && acc.cls == Num::kZero) all_neg = acc.neg;
    for (int i : g) {
      const Num &x = e.a[i], &y = e.b[i];
      if (x.cls == Num::kFinite && y.cls == Num::kFinite)
        ts.push_back({x.neg != y.neg, x.sig * y.sig, x.exp + y.exp, x.lead + y.lead});
      else
        all_neg = all_neg && (x.neg != y.neg);
    }
    if (md.c_where == 0 && gi == 0) all_neg = e.c.cls == Num::kZero && e.c.neg;
    int emax = INT32_MIN;
    for (auto& t : ts) emax = std::max(emax, t.lead);
    if (md.c_in_emax && acc.cls == Num::kFinite) emax = std::max(emax, acc.lead);
    if (emax == INT32_MIN) {
      if (acc.cls == Num::kFinite) continue;  // only C (c not in emax and no products)
      Num z;
      z.neg = all_neg && ts.empty();
      // -0 only when every term is -0
      bool alln = (acc.cls == Num::kZero ? acc.neg : false);
      for (int i : g) alln = alln && (e.a[i].neg != e.b[i].neg);
      z.neg = alln;
      acc = z;
      continue;
    }
    const int lowest = emax - 60;  // base of the integer sum
    i128 sum = 0;
    auto add = [&](bool neg, u128 sig, int exp, int w) {
      const int grid = emax - w;
      // truncate to grid
      u128 v;
      if (exp >= grid) v = sig << (exp - lowest);
      else {
        const int sh = grid - exp;
        v = sh >= 127 ? 0 : (sig >> sh) << (grid - lowest);
      }
      sum += neg ? -static_cast<i128>(v) : static_cast<i128>(v);
    };
    if (acc.cls == Num::kFinite) {
      if (md.c_in_emax || acc.lead <= emax) add(acc.neg, acc.sig, acc.exp, md.wc);
      else add(acc.neg, acc.sig, acc.exp, md.wc + (acc.lead - emax));  // not used
    }
    for (auto& t : ts) add(t.neg, t.sig, t.exp, md.wp);
    const bool neg = sum < 0;
    const u128 mag = static_cast<u128>(neg ? -sum : sum);
    const bool last = gi + 1 == groups.size() && md.c_where == 0;
    if (last) {
      int mode = md.fin_mode >= 0 ? md.fin_mode : (td == T::kF16 ? 1 : 0);
      if (td == T::kF16 && md.via_f32) {
        Num f = to_format(T::kF32, neg, mag, lowest, 0);
        if (f.cls != Num::kFinite) return encode(td, f);
        Num h = to_format(T::kF16, f.neg, f.sig, f.exp, mode);
        return encode(td, h);
      }
      if (mag == 0) {
        Num z;
        z.neg = false;
        return encode(td, z);
      }
      return encode(td, to_format(td, neg, mag, lowest, mode));
    }
    acc = round_num(neg, mag, lowest, md.acc_man, md.acc_emin, md.acc_emax, md.acc_mode);
    if (acc.cls == Num::kInf) {  // the HMMA's accumulator overflowed: the rest is that infinity (or NaN)
      if (md.c_where == 1 && e.c.cls == Num::kFinite) return encode(td, acc);
      return encode(td, acc);
    }
  }
  if (md.c_where == 1) {
    // acc (products) + C
    Num c = e.c;
    int mode = md.fin_mode >= 0 ? md.fin_mode : (td == T::kF16 ? 1 : 0);
    if (acc.cls == Num::kZero && c.cls == Num::kZero) {
      Num z;
      z.neg = acc.neg && c.neg;
      return encode(td, z);
    }
    int emax = INT32_MIN;
    if (acc.cls == Num::kFinite) emax = acc.lead;
    if (c.cls == Num::kFinite) emax = std::max(emax, c.lead);
    const int lowest = emax - 80;
    i128 sum = 0;
    auto add = [&](const Num& x, int w) {
      if (x.cls != Num::kFinite) return;
      u128 v;
      const int grid = md.cadd_mode == 1 ? lowest : emax - w;
      if (x.exp >= grid) v = x.sig << (x.exp - lowest);
      else {
        const int sh = grid - x.exp;
        v = sh >= 127 ? 0 : (x.sig >> sh) << (grid - lowest);
      }
      sum += x.neg ? -static_cast<i128>(v) : static_cast<i128>(v);
    };
    add(acc, md.wc);
    add(c, md.wc);
    const bool neg = sum < 0;
    const u128 mag = static_cast<u128>(neg ? -sum : sum);
    if (mag == 0) return encode(td, Num{});
    return encode(td, to_format(td, neg, mag, lowest, mode));
  }
  return encode(td, acc);
}

// ---------------------------------------------------------------------------------------------
int main(int argc, char** argv) {
  const std::string root = WARPSCOPE_ROOT;
  std::map<int, std::map<int, std::vector<std::uint64_t>>> cap;
  {
    std::ifstream in(root + "/tests/hw/data/h100/tensor/mma_numerics.txt");
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("D ", 0) != 0) continue;
      std::istringstream s(line.substr(2));
      int cfg = 0, test = 0;
      char colon = 0;
      s >> cfg >> test >> colon;
      std::string hex;
      while (s >> hex) cap[cfg][test].push_back(std::stoull(hex, nullptr, 16));
    }
  }
  static std::vector<Config> cfgs = configs();
  std::vector<Elem> elems;
  for (const Config& c : cfgs) {
    if (c.id < 13 || c.id > 17) continue;
    for (int t = 0; t < c.tests; ++t) {
      const Inputs in = make_inputs(c, t);
      for (int m = 0; m < c.m; ++m)
        for (int n = 0; n < c.n; ++n) {
          Elem e;
          e.cfg = &c;
          e.test = t;
          e.fam = t % 6;
          e.m = m;
          e.n = n;
          for (int kk = 0; kk < c.k; ++kk) {
            e.a.push_back(decode(c.a, in.a[m * c.k + kk]));
            e.b.push_back(decode(c.b, in.b[kk * c.n + n]));
          }
          e.c = decode(c.c, in.c[m * c.n + n]);
          e.got = cap[c.id][t][m * c.n + n];
          elems.push_back(e);
        }
    }
  }

  std::vector<Hyp> hyps;
  auto natural = [](int k, int g) {
    std::vector<std::vector<int>> r;
    for (int i = 0; i < k; i += g) {
      r.emplace_back();
      for (int j = i; j < i + g && j < k; ++j) r.back().push_back(j);
    }
    return r;
  };
  auto add_model = [&](const std::string& name, std::function<Model(const Config&)> mk) {
    hyps.push_back({name, [mk](const Elem& e) { return run_model(mk(*e.cfg), e); }});
  };
  for (int g : {4, 8, 16, 32})
    for (int w : {25, 24, 23, 16, 15, 14, 13})
      add_model("g" + std::to_string(g) + "_w" + std::to_string(w), [g, w, natural](const Config& c) {
        Model m;
        m.groups = natural(c.k, g);
        m.wp = m.wc = w;
        return m;
      });

  for (int g : {8, 16, 32})
    for (int w : {60, 25, 24, 23, 22, 21, 20, 16, 14, 13})
      for (int cm : {0, 1})
        for (int fm : {0, 1})
          add_model("cafter_g" + std::to_string(g) + "_w" + std::to_string(w) + (cm ? "_cexact" : "_ctrunc") + (fm ? "_rn" : "_rz"),
                    [g, w, cm, fm, natural](const Config& c) {
                      Model m;
                      m.groups = natural(c.k, g);
                      m.wp = w;
                      m.wc = 25;
                      m.c_where = 1;
                      m.cadd_mode = cm;
                      m.fin_mode = c.d == T::kF16 ? 1 : fm;
                      m.acc_man = 23;
                      return m;
                    });

  for (int g : {4, 8, 16, 32})
    for (int w : {60, 27, 26, 25, 24, 23, 22})
      for (int am : {0, 1, 2})
        for (int cw : {0, 1})
          add_model("B_g" + std::to_string(g) + "_w" + std::to_string(w) + "_acc" + std::to_string(am) + "_cw" + std::to_string(cw),
                    [g, w, am, cw, natural](const Config& c) {
                      Model m;
                      m.groups = natural(c.k, g);
                      m.wp = w;
                      m.wc = cw == 0 ? 80 : 25;
                      m.c_in_emax = cw == 1;
                      m.c_where = cw == 0 ? 1 : 0;
                      m.cadd_mode = 1;
                      m.fin_mode = c.d == T::kF16 ? 1 : (cw == 0 ? 1 : 0);
                      m.acc_man = am == 2 ? 80 : 23;
                      m.acc_mode = am == 1 ? 1 : 0;
                      return m;
                    });

  // The sm_90 emulation (ptxas): F2FP unpacks to f16, HMMA (C = 0) over k % 4 in {0,1}, HMMA over
  // k % 4 in {2,3} accumulating the first, then FADD/HADD2 with C.
  auto split4 = [](int k, bool swap) {
    std::vector<std::vector<int>> r(2);
    for (int i = 0; i < k; ++i) r[((i % 4) >= 2) ^ swap].push_back(i);
    return r;
  };
  for (int sw : {0, 1})
    for (int part : {0, 1})
      add_model(std::string("H_") + (part ? "halves" : "mod4") + (sw ? "_swap" : ""), [sw, part, split4, natural](const Config& c) {
        Model m;
        m.groups = part ? natural(c.k, c.k / 2) : split4(c.k, false);
        if (sw) std::swap(m.groups[0], m.groups[1]);
        m.wp = m.wc = 25;
        m.c_in_emax = true;
        m.c_where = 1;
        m.cadd_mode = 1;
        m.fin_mode = 1;
        if (c.d == T::kF16) {
          m.acc_man = 10;
          m.acc_mode = 1;
          m.acc_emin = -14;
          m.acc_emax = 15;
        } else {
          m.acc_man = 23;
          m.acc_mode = 0;
        }
        return m;
      });

  // Perturbations of H_mod4, to see that the capture tells them apart.
  auto hmod4 = [split4](const Config& c) {
    Model m;
    m.groups = split4(c.k, false);
    m.wp = m.wc = 25;
    m.c_in_emax = true;
    m.c_where = 1;
    m.cadd_mode = 1;
    m.fin_mode = 1;
    if (c.d == T::kF16) {
      m.acc_man = 10;
      m.acc_mode = 1;
      m.acc_emin = -14;
      m.acc_emax = 15;
    } else {
      m.acc_man = 23;
      m.acc_mode = 0;
    }
    return m;
  };
  add_model("H_mod4_w24", [hmod4](const Config& c) { Model m = hmod4(c); m.wp = m.wc = 24; return m; });
  add_model("H_mod4_w26", [hmod4](const Config& c) { Model m = hmod4(c); m.wp = m.wc = 26; return m; });
  add_model("H_mod4_cadd_rz", [hmod4](const Config& c) { Model m = hmod4(c); m.fin_mode = 0; return m; });
  add_model("H_mod4_acc_rn", [hmod4](const Config& c) { Model m = hmod4(c); if (c.d == T::kF32) m.acc_mode = 1; return m; });
  add_model("H_mod4_f16acc_rz", [hmod4](const Config& c) { Model m = hmod4(c); if (c.d == T::kF16) m.acc_mode = 0; return m; });
  add_model("H_mod4_c_in_first", [hmod4](const Config& c) {
    Model m = hmod4(c);
    m.c_where = 0;
    m.fin_mode = -1;
    return m;
  });

  const std::string only = argc > 1 ? argv[1] : "";
  const bool show = argc > 2 && std::string(argv[2]) == "show";
  const int fam_only = argc > 3 ? std::atoi(argv[3]) : -1;
  for (const Hyp& h : hyps) {
    if (!only.empty() && only != "all" && h.name != only) continue;
    std::map<int, std::pair<int, int>> per_cfg;
    std::map<std::pair<int, int>, std::pair<int, int>> per_fam;
    int shown = 0;
    for (const Elem& e : elems) {
      if (fam_only >= 0 && e.fam != fam_only) continue;
      const std::uint64_t want = h.f(e);
      const bool ok = want == e.got;
      per_cfg[e.cfg->id].first += ok;
      per_cfg[e.cfg->id].second++;
      per_fam[{e.cfg->id, e.fam}].first += ok;
      per_fam[{e.cfg->id, e.fam}].second++;
      if (!ok && show && shown < 40) {
        ++shown;
        std::printf("cfg %d test %d (%d,%d) got %llx model %llx  got=%.9g model=%.9g\n", e.cfg->id, e.test, e.m, e.n,
                    (unsigned long long)e.got, (unsigned long long)want, value(e.cfg->d, e.got),
                    value(e.cfg->d, want));
        std::printf("   C=%.17g(lead %d)", value(e.cfg->c, encode(e.cfg->c, e.c)), e.c.lead);
        for (size_t i = 0; i < e.a.size(); ++i) {
          if (e.a[i].cls == Num::kFinite && e.b[i].cls == Num::kFinite) {
            const double p = std::ldexp(static_cast<double>(e.a[i].sig * e.b[i].sig), e.a[i].exp + e.b[i].exp) *
                             (e.a[i].neg != e.b[i].neg ? -1 : 1);
            std::printf(" [%zu]%.17g", i, p);
          }
        }
        std::printf("\n");
      }
    }
    int tot = 0, all = 0;
    std::printf("%-24s", h.name.c_str());
    std::printf(" fam1: %d %d %d %d %d |", per_fam[{13, 1}].first, per_fam[{14, 1}].first, per_fam[{15, 1}].first,
                per_fam[{16, 1}].first, per_fam[{17, 1}].first);
    for (auto& [id, p] : per_cfg) {
      std::printf(" c%d %4d/%4d", id, p.first, p.second);
      tot += p.first;
      all += p.second;
    }
    std::printf("  | %d/%d\n", tot, all);
    if (!only.empty()) {
      for (auto& [key, p] : per_fam) std::printf("   cfg %d fam %d: %d/%d\n", key.first, key.second, p.first, p.second);
    }
  }
}
