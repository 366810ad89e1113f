// CPU reference of the video instruction forms of tests/exec/kernels/video.cu, written from the
// PTX ISA 9.x pseudocode ("Scalar Video Instructions": partSelectSignExtend, optSaturate,
// optSecondaryOp, optMerge, the .s33 operands and .s34 intermediate; vmad's 128-bit semantics;
// "SIMD Video Instructions": extractAndSignExt_2/_4, extractMaskBits, CLAMP to the element
// range). Plain C++ so that tests/hw/ptx/video.cu can use it on the host too.
#pragma once

#include <cstdint>

namespace video_ref {

using i64 = long long;

inline i64 clamp(i64 v, i64 lo, i64 hi) { return v < lo ? lo : (v > hi ? hi : v); }

/// partSelectSignExtend: sel "" (the word), "b0".."b3", "h0", "h1".
inline i64 select(std::uint32_t x, bool is_signed, const char* sel) {
  if (sel[0] == 0) return is_signed ? i64(std::int32_t(x)) : i64(x);
  const int k = sel[1] - '0';
  if (sel[0] == 'b') {
    const std::uint32_t v = (x >> (8 * k)) & 0xffu;
    return is_signed ? i64(std::int8_t(v)) : i64(v);
  }
  const std::uint32_t v = (x >> (16 * k)) & 0xffffu;
  return is_signed ? i64(std::int16_t(v)) : i64(v);
}

enum Op { ADD, SUB, ABSDIFF, MIN, MAX, SHL, SHR, SET, AVRG };
enum Cmp { NONE, EQ, NE, LT, LE, GT, GE };

inline bool cmp(Cmp c, i64 a, i64 b) {
  switch (c) {
    case EQ: return a == b;
    case NE: return a != b;
    case LT: return a < b;
    case LE: return a <= b;
    case GT: return a > b;
    default: return a >= b;
  }
}

/// A scalar form: vop.dtype.atype.btype{.sat}{.op2} d{.dsel}, a{.asel}, b{.bsel}{, c}
/// op2: 0 none, 'a' add, 'n' min, 'x' max. shift_clamp: vshl/vshr .clamp (else .wrap).
inline std::uint32_t scalar(Op op, bool ds, bool as, bool bs, bool sat, char op2, const char* dsel, const char* asel,
                            const char* bsel, std::uint32_t a, std::uint32_t b, std::uint32_t c, Cmp cc = NONE,
                            bool shift_clamp = false) {
  const i64 ta = select(a, as, asel);
  i64 tb = select(b, bs, bsel);
  i64 tmp = 0;
  switch (op) {
    case ADD: tmp = ta + tb; break;
    case SUB: tmp = ta - tb; break;
    case ABSDIFF: tmp = ta > tb ? ta - tb : tb - ta; break;
    case MIN: tmp = ta < tb ? ta : tb; break;
    case MAX: tmp = ta > tb ? ta : tb; break;
    case SET: tmp = cmp(cc, ta, tb) ? 1 : 0; break;
    case SHL:
    case SHR:
      if (shift_clamp && tb > 32) tb = 32;
      if (!shift_clamp) tb &= 0x1f;
      if (op == SHR) {
        tmp = ta >> tb;
      } else {
        // .s34: keep bits 0..33 of the shifted value, bit 33 the sign
        const std::uint64_t v = (std::uint64_t(ta) << tb) & 0x3ffffffffull;
        tmp = (v & 0x200000000ull) ? i64(v) - i64(0x400000000ll) : i64(v);
      }
      break;
    default: break;
  }
  if (sat) {  // optSaturate
    if (dsel[0] == 'b') tmp = ds ? clamp(tmp, -128, 127) : clamp(tmp, 0, 255);
    else if (dsel[0] == 'h') tmp = ds ? clamp(tmp, -32768, 32767) : clamp(tmp, 0, 65535);
    else tmp = ds ? clamp(tmp, -2147483648ll, 2147483647ll) : clamp(tmp, 0, 4294967295ll);
  }
  const i64 tc = ds ? i64(std::int32_t(c)) : i64(c);
  if (op2 == 'a') return std::uint32_t(tmp + tc);
  if (op2 == 'n') return std::uint32_t(tmp < tc ? tmp : tc);
  if (op2 == 'x') return std::uint32_t(tmp > tc ? tmp : tc);
  const std::uint32_t r = std::uint32_t(tmp);
  if (dsel[0] == 0) return r;  // optMerge
  const int k = dsel[1] - '0';
  if (dsel[0] == 'h') return k == 0 ? ((r & 0xffffu) | (c & 0xffff0000u)) : (((r & 0xffffu) << 16) | (c & 0x0000ffffu));
  const std::uint32_t keep[4] = {0xffffff00u, 0xffff00ffu, 0xff00ffffu, 0x00ffffffu};
  return ((r & 0xffu) << (8 * k)) | (c & keep[k]);
}

/// vmad.dtype.atype.btype{.po}{.sat}{.shrN} d, {-}a{.asel}, {-}b{.bsel}, {-}c
inline std::uint32_t vmad(bool as, bool bs, bool sat, bool po, int shr, bool na, bool nb, bool nc, const char* asel,
                          const char* bsel, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  const i64 ta = select(a, as, asel), tb = select(b, bs, bsel);
  const bool signed_final = as || bs || (na != nb) || nc;
  __extension__ typedef __int128 i128;
  i128 tmp = i128(ta) * i128(tb);
  int lsb = 0;
  if (po) {
    lsb = 1;
  } else if (na != nb) {
    tmp = ~tmp;
    lsb = 1;
  } else if (nc) {
    c = ~c;
    lsb = 1;
  }
  const i128 c128 = signed_final ? i128(std::int32_t(c)) : i128(c);
  tmp = tmp + c128 + lsb;
  const std::uint64_t result = std::uint64_t(tmp >> shr);  // (tmp >> shr) & 0xffffffffffffffff
  if (!sat) return std::uint32_t(result);
  if (signed_final) return std::uint32_t(clamp(i64(result), -2147483648ll, 2147483647ll));
  return result > 0xffffffffull ? 0xffffffffu : std::uint32_t(result);
}

/// A SIMD form with N = 2 or 4 elements: sel strings without the letter ("10", "7531"), "" for
/// the default; mask "" for all elements; add: the .add accumulate (else the merge).
inline std::uint32_t simd(int n, Op op, bool ds, bool as, bool bs, bool sat, bool add, const char* mask,
                          const char* asel, const char* bsel, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                          Cmp cc = NONE) {
  const int w = 32 / n;
  const std::uint32_t emask = n == 2 ? 0xffffu : 0xffu;
  const char* da = n == 2 ? "10" : "3210";
  const char* db = n == 2 ? "32" : "7654";
  if (asel[0] == 0) asel = da;
  if (bsel[0] == 0) bsel = db;
  auto len = [](const char* s) { int k = 0; while (s[k]) ++k; return k; };
  // the elements of a then b, in order: a's half-words (bytes) 0.., then b's
  auto pick = [&](const char* sel, int i, bool sgn) -> i64 {
    const int idx = sel[len(sel) - 1 - i] - '0';
    const std::uint32_t word = idx < n ? a : b;
    const std::uint32_t v = (word >> (w * (idx % n))) & emask;
    if (!sgn) return i64(v);
    return n == 2 ? i64(std::int16_t(v)) : i64(std::int8_t(v));
  };
  bool on[4] = {mask[0] == 0, mask[0] == 0, mask[0] == 0, mask[0] == 0};
  for (int k = 0; mask[k]; ++k) on[mask[k] - '0'] = true;
  std::uint32_t d = add ? c : 0;
  for (int i = 0; i < n; ++i) {
    const i64 va = pick(asel, i, as), vb = pick(bsel, i, bs);
    i64 t = 0;
    switch (op) {
      case ADD: t = va + vb; break;
      case SUB: t = va - vb; break;
      case AVRG: t = (va + vb) >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1; break;
      case ABSDIFF: t = va > vb ? va - vb : vb - va; break;
      case MIN: t = va < vb ? va : vb; break;
      case MAX: t = va > vb ? va : vb; break;
      case SET: t = cmp(cc, va, vb) ? 1 : 0; break;
      default: break;
    }
    if (sat) {
      const i64 hi = ds ? i64(emask >> 1) : i64(emask), lo = ds ? -i64(emask >> 1) - 1 : 0;
      t = clamp(t, lo, hi);
    }
    if (add) {
      if (on[i]) d += std::uint32_t(t);
    } else {
      const std::uint32_t e = on[i] ? (std::uint32_t(t) & emask) : ((c >> (w * i)) & emask);
      d |= e << (w * i);
    }
  }
  return d;
}

/// The forms of tests/exec/kernels/video.cu, in its order.
inline std::uint32_t form(int k, std::uint32_t a, std::uint32_t b, std::uint32_t c) {
  const bool S = true, U = false;
  switch (k) {
    case 0: return scalar(ADD, S, U, S, true, 0, "", "b0", "h0", a, b, c);
    case 1: return scalar(SUB, S, S, U, true, 0, "", "h1", "h1", a, b, c);
    case 2: return scalar(ABSDIFF, S, S, S, true, 0, "h0", "b0", "b2", a, b, c);
    case 3: return scalar(MIN, S, S, S, true, 'a', "", "", "", a, b, c);
    case 4: return scalar(MAX, U, U, U, false, 'x', "", "b3", "b1", a, b, c);
    case 5: return scalar(ADD, U, U, U, true, 0, "b2", "h0", "h1", a, b, c);
    case 6: return scalar(SHL, S, U, U, false, 0, "", "", "b0", a, b, c, NONE, true);
    case 7: return scalar(SHR, U, U, U, false, 0, "", "", "h1", a, b, c, NONE, false);
    case 8: return scalar(SHR, S, S, U, false, 'a', "", "h1", "b0", a, b, c, NONE, true);
    case 9: return vmad(S, S, true, false, 0, false, false, true, "", "", a, b, c);
    case 10: return vmad(S, S, false, false, 15, false, false, false, "h0", "h0", a, b, c);
    case 11: return vmad(S, S, false, true, 7, false, false, false, "b1", "h0", a, b, c);
    case 12: return vmad(S, S, false, false, 0, true, false, false, "h0", "h1", a, b, c);
    case 13: return scalar(SET, U, S, U, false, 0, "", "", "", a, b, c, LT);
    case 14: return scalar(SET, U, U, U, false, 'a', "", "", "h1", a, b, c, NE);
    case 15: return scalar(SET, U, S, S, false, 0, "b1", "b3", "b0", a, b, c, GE);
    case 16: return simd(2, ADD, S, S, U, true, false, "", "", "", a, b, c);
    case 17: return simd(2, SUB, S, S, S, true, false, "0", "10", "32", a, b, c);
    case 18: return simd(2, MIN, S, U, U, false, true, "10", "00", "22", a, b, c);
    case 19: return simd(2, AVRG, U, U, U, false, false, "", "21", "03", a, b, c);
    case 20: return simd(2, ABSDIFF, S, S, S, false, true, "1", "", "", a, b, c);
    case 21: return simd(2, MAX, U, S, S, true, false, "", "", "", a, b, c);
    case 22: return simd(2, SET, U, S, U, false, false, "", "", "", a, b, c, LT);
    case 23: return simd(2, SET, U, U, U, false, true, "", "", "", a, b, c, NE);
    case 24: return simd(4, ADD, S, S, S, true, false, "", "", "", a, b, c);
    case 25: return simd(4, SUB, U, U, U, true, false, "20", "7531", "6420", a, b, c);
    case 26: return simd(4, ABSDIFF, U, U, U, false, true, "", "", "", a, b, c);
    case 27: return simd(4, AVRG, S, S, S, false, false, "310", "", "", a, b, c);
    case 28: return simd(4, MIN, S, S, U, false, false, "", "0123", "4455", a, b, c);
    case 29: return simd(4, MAX, S, U, S, true, false, "3", "", "", a, b, c);
    case 30: return simd(4, SET, U, S, S, false, false, "", "", "", a, b, c, GT);
    default: return simd(4, SET, U, U, U, false, true, "21", "", "", a, b, c, LE);
  }
}

inline constexpr int kForms = 32;

/// The inputs of thread t: edge values for the first threads, a fixed LCG after them.
inline void inputs(int t, std::uint32_t& a, std::uint32_t& b, std::uint32_t& c) {
  static const std::uint32_t edge[] = {0u, 1u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0x7f7f7f7fu, 0x80808080u,
                                       0x00ff00ffu, 0x8000ffffu, 0x12345678u, 0xfedcba98u, 0x0000001fu,
                                       0x00000021u, 0x00280000u, 0x7fff8000u, 0x01020304u};
  const int ne = int(sizeof(edge) / sizeof(edge[0]));
  if (t < ne * ne) {
    a = edge[t % ne];
    b = edge[(t / ne) % ne];
    c = edge[(t * 7 + 3) % ne];
    return;
  }
  std::uint32_t s = 0x9e3779b9u * std::uint32_t(t + 1);
  auto next = [&s]() { s = s * 1664525u + 1013904223u; return s ^ (s >> 13); };
  a = next();
  b = next();
  c = next();
}

}  // namespace video_ref
