// The video instructions (PTX ISA 9.x, "Scalar Video Instructions" and "SIMD Video
// Instructions"): vadd vsub vabsdiff vmin vmax vshl vshr vmad vset, and the 2- and 4-way SIMD
// forms vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4 vset2/4, with their selectors,
// saturation, secondary operations and merges, each as the ISA's pseudocode defines it:
//
// - scalar: the selected byte, half-word or word of a and b is sign- or zero-extended (by its
//   type) to an .s33 value; the primary operation gives an .s34 intermediate (vshl's shifted
//   value is cut to 34 bits as well); optSaturate clamps it to the destination's range (.s32/.u32
//   by dtype, the byte or half-word range when d has a selector); then either the secondary
//   operation (.add/.min/.max with c, c extended by dtype) or the merge of the result's low byte
//   or half-word into c at d's selector.
// - vmad: the 128-bit product of the extended operands, negated as ~product + 1 when exactly one
//   of a, b is negated, else c negated as ~c + 1; .po adds 1; c extended by the final sign; the
//   sum shifted right by .shr7/.shr15 (arithmetic), cut to 64 bits and clamped by .sat.
// - SIMD: each element picked by the selector from the half-words (bytes) of {b, a}, extended by
//   its type; .sat clamps each to the 16-bit (8-bit) range of dtype; .add accumulates the masked
//   elements into c, else the masked elements replace c's elements.
#include "exec/ops_common.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;
using ptx::Type;

// Inst::aux: kind | op2 << 8 | cmp << 16 | dsel (scalar) or mask (SIMD) << 24.
// Inst::aux2: flag bits below | scale << 16.  Inst::imm: asel | bsel << 32 (see sel_code).
enum Flag : std::uint32_t {
  kASigned = 1, kBSigned = 2, kDSigned = 4, kSat = 8, kClampMode = 16, kPo = 32, kNegA = 64, kNegB = 128, kNegC = 256,
};
enum Kind : std::uint32_t { kAdd, kSub, kAbsdiff, kMin, kMax, kShl, kShr, kSet, kAvrg };
enum Op2 : std::uint32_t { kNoOp2, kOp2Add, kOp2Min, kOp2Max };

std::int64_t clampi(std::int64_t v, std::int64_t lo, std::int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

bool compare(std::uint32_t cmp, std::int64_t a, std::int64_t b) {
  switch (static_cast<ptx::CmpOp>(cmp)) {
    case ptx::CmpOp::kEq: return a == b;
    case ptx::CmpOp::kNe: return a != b;
    case ptx::CmpOp::kLt: return a < b;
    case ptx::CmpOp::kLe: return a <= b;
    case ptx::CmpOp::kGt: return a > b;
    default: return a >= b;  // kGe (the decoder takes no other)
  }
}

std::int64_t primary(std::uint32_t kind, std::uint32_t cmp, std::int64_t a, std::int64_t b) {
  switch (kind) {
    case kAdd: return a + b;
    case kSub: return a - b;
    case kAbsdiff: return a > b ? a - b : b - a;
    case kMin: return a < b ? a : b;
    case kMax: return a > b ? a : b;
    case kSet: return compare(cmp, a, b) ? 1 : 0;
    default: {  // kAvrg
      const std::int64_t s = a + b;
      return s >= 0 ? (s + 1) >> 1 : s >> 1;
    }
  }
}

/// partSelectSignExtend: sel 0 = the word, 1..4 = byte 0..3, 5/6 = half-word 0/1.
std::int64_t part(std::uint32_t x, bool sign, std::uint32_t sel) {
  if (sel == 0) return sign ? std::int64_t(static_cast<std::int32_t>(x)) : std::int64_t(x);
  if (sel <= 4) {
    const std::uint32_t v = (x >> (8 * (sel - 1))) & 0xff;
    return sign ? std::int64_t(static_cast<std::int8_t>(v)) : std::int64_t(v);
  }
  const std::uint32_t v = (x >> (16 * (sel - 5))) & 0xffff;
  return sign ? std::int64_t(static_cast<std::int16_t>(v)) : std::int64_t(v);
}

void scalar(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint32_t kind = in.aux & 0xff, op2 = (in.aux >> 8) & 0xff, cmp = (in.aux >> 16) & 0xff,
                      dsel = in.aux >> 24, f = in.aux2;
  const std::uint32_t asel = static_cast<std::uint32_t>(in.imm) & 0xff, bsel = static_cast<std::uint32_t>(in.imm >> 32) & 0xff;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = in.c == kNoSlot ? nullptr : x.reg(in.c);
  const bool dsigned = f & kDSigned;
  for_lanes(m, [&](unsigned l) {
    const std::int64_t ta = part(static_cast<std::uint32_t>(a[l]), f & kASigned, asel);
    std::int64_t tb = part(static_cast<std::uint32_t>(b[l]), f & kBSigned, bsel);
    std::int64_t tmp;
    if (kind == kShl || kind == kShr) {
      if (f & kClampMode) tb = tb > 32 ? 32 : tb;
      else tb &= 0x1f;
      if (kind == kShl) {
        const std::uint64_t bits = (static_cast<std::uint64_t>(ta) << tb) & ((1ull << 34) - 1);
        tmp = static_cast<std::int64_t>(bits << 30) >> 30;  // the .s34 intermediate
      } else {
        tmp = ta >> tb;
      }
    } else {
      tmp = primary(kind, cmp, ta, tb);
    }
    if (f & kSat) {  // optSaturate
      if (dsel >= 1 && dsel <= 4) tmp = dsigned ? clampi(tmp, INT8_MIN, INT8_MAX) : clampi(tmp, 0, UINT8_MAX);
      else if (dsel >= 5) tmp = dsigned ? clampi(tmp, INT16_MIN, INT16_MAX) : clampi(tmp, 0, UINT16_MAX);
      else tmp = dsigned ? clampi(tmp, INT32_MIN, INT32_MAX) : clampi(tmp, 0, UINT32_MAX);
    }
    std::uint32_t r = static_cast<std::uint32_t>(tmp);
    if (op2 != kNoOp2) {  // optSecondaryOp; c has dtype's sign
      const std::uint32_t cv = static_cast<std::uint32_t>(c[l]);
      const std::int64_t tc = dsigned ? std::int64_t(static_cast<std::int32_t>(cv)) : std::int64_t(cv);
      r = static_cast<std::uint32_t>(op2 == kOp2Add ? tmp + tc : op2 == kOp2Min ? std::min(tmp, tc) : std::max(tmp, tc));
    } else if (dsel != 0) {  // optMerge
      const std::uint32_t cv = static_cast<std::uint32_t>(c[l]);
      const unsigned shift = dsel <= 4 ? 8 * (dsel - 1) : 16 * (dsel - 5);
      const std::uint32_t field = (dsel <= 4 ? 0xffu : 0xffffu) << shift;
      r = ((r << shift) & field) | (cv & ~field);
    }
    d[l] = r;
  });
}

void vmad(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint32_t f = in.aux2, scale = in.aux2 >> 16;
  const std::uint32_t asel = static_cast<std::uint32_t>(in.imm) & 0xff, bsel = static_cast<std::uint32_t>(in.imm >> 32) & 0xff;
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = x.reg(in.c);
  const bool na = f & kNegA, nb = f & kNegB, nc = f & kNegC;
  const bool signed_final = (f & kASigned) || (f & kBSigned) || (na != nb) || nc;
  for_lanes(m, [&](unsigned l) {
    const std::int64_t ta = part(static_cast<std::uint32_t>(a[l]), f & kASigned, asel);
    const std::int64_t tb = part(static_cast<std::uint32_t>(b[l]), f & kBSigned, bsel);
    i128 tmp = static_cast<i128>(ta) * tb;
    std::uint32_t cv = static_cast<std::uint32_t>(c[l]);
    int lsb = 0;
    if (f & kPo) {
      lsb = 1;
    } else if (na != nb) {
      tmp = ~tmp;
      lsb = 1;
    } else if (nc) {
      cv = ~cv;
      lsb = 1;
    }
    const i128 c128 = signed_final ? i128(static_cast<std::int32_t>(cv)) : i128(cv);
    tmp = tmp + c128 + lsb;
    const std::uint64_t result = static_cast<std::uint64_t>(static_cast<u128>(tmp >> scale));
    std::uint32_t r;
    if (f & kSat) {
      r = signed_final ? static_cast<std::uint32_t>(clampi(static_cast<std::int64_t>(result), INT32_MIN, INT32_MAX))
                       : static_cast<std::uint32_t>(std::min<std::uint64_t>(result, UINT32_MAX));
    } else {
      r = static_cast<std::uint32_t>(result);
    }
    d[l] = r;
  });
}

/// The SIMD forms; N = 2 (half-words) or 4 (bytes). imm holds the selectors, one nibble per
/// element (element i's index into the pool of a's then b's elements).
template <unsigned N>
void simd(const Inst& in, Ctx& x, std::uint32_t m) {
  constexpr unsigned kW = 32 / N;
  constexpr std::uint32_t kMask = N == 2 ? 0xffffu : 0xffu;
  const std::uint32_t kind = in.aux & 0xff, op2 = (in.aux >> 8) & 0xff, cmp = (in.aux >> 16) & 0xff,
                      mask = in.aux >> 24, f = in.aux2;
  const std::uint32_t asel = static_cast<std::uint32_t>(in.imm), bsel = static_cast<std::uint32_t>(in.imm >> 32);
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = x.reg(in.c);
  const std::int64_t lo = (f & kDSigned) ? -std::int64_t(kMask / 2) - 1 : 0;
  const std::int64_t hi = (f & kDSigned) ? std::int64_t(kMask / 2) : std::int64_t(kMask);
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t pool = (b[l] << 32) | (a[l] & 0xffffffffu);
    const std::uint32_t cv = static_cast<std::uint32_t>(c[l]);
    auto elem = [&](std::uint32_t sel, unsigned i, bool sign) {
      const std::uint32_t v = static_cast<std::uint32_t>(pool >> (kW * ((sel >> (4 * i)) & 0xf))) & kMask;
      if (!sign) return std::int64_t(v);
      return N == 2 ? std::int64_t(static_cast<std::int16_t>(v)) : std::int64_t(static_cast<std::int8_t>(v));
    };
    std::uint32_t r = op2 == kOp2Add ? cv : 0;
    for (unsigned i = 0; i < N; ++i) {
      std::int64_t t = primary(kind, cmp, elem(asel, i, f & kASigned), elem(bsel, i, f & kBSigned));
      if (f & kSat) t = clampi(t, lo, hi);
      const bool on = (mask >> i) & 1;
      if (op2 == kOp2Add) {
        if (on) r += static_cast<std::uint32_t>(t);
      } else {
        const std::uint32_t e = on ? static_cast<std::uint32_t>(t) & kMask : (cv >> (kW * i)) & kMask;
        r |= e << (kW * i);
      }
    }
    d[l] = r;
  });
}

/// A scalar selector's code for `part`: "" 0, b0..b3 1..4, h0/h1 5/6.
std::uint32_t scalar_sel(const std::string& s) {
  if (s.empty()) return 0;
  return s[0] == 'b' ? 1 + static_cast<std::uint32_t>(s[1] - '0') : 5 + static_cast<std::uint32_t>(s[1] - '0');
}

/// A SIMD selector as nibbles (element i = the i-th digit from the right), or its default.
std::uint32_t simd_sel(const std::string& s, std::uint32_t dflt) {
  if (s.empty()) return dflt;
  std::uint32_t v = 0;
  for (std::size_t i = 1; i < s.size(); ++i) v = (v << 4) | static_cast<std::uint32_t>(s[i] - '0');
  return v;
}

/// A SIMD destination mask: the elements its digits name (default all).
std::uint32_t simd_mask(const std::string& s, unsigned n) {
  if (s.empty()) return (1u << n) - 1;
  std::uint32_t v = 0;
  for (std::size_t i = 1; i < s.size(); ++i) v |= 1u << (s[i] - '0');
  return v;
}

}  // namespace

bool decode_video(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  if (!ptx::is_video(ins.op)) return false;
  const auto& ops = ins.operands;
  const Opcode op = ins.op;
  const bool vset = op == Opcode::kVset || op == Opcode::kVset2 || op == Opcode::kVset4;
  const unsigned n = op >= Opcode::kVadd4 ? 4 : op >= Opcode::kVadd2 ? 2 : 1;
  const Type at = vset ? ins.type : ins.src_type, bt = vset ? ins.src_type : ins.src2_type;
  std::uint32_t kind = kAdd;
  switch (op) {
    case Opcode::kVadd: case Opcode::kVadd2: case Opcode::kVadd4: kind = kAdd; break;
    case Opcode::kVsub: case Opcode::kVsub2: case Opcode::kVsub4: kind = kSub; break;
    case Opcode::kVabsdiff: case Opcode::kVabsdiff2: case Opcode::kVabsdiff4: kind = kAbsdiff; break;
    case Opcode::kVmin: case Opcode::kVmin2: case Opcode::kVmin4: kind = kMin; break;
    case Opcode::kVmax: case Opcode::kVmax2: case Opcode::kVmax4: kind = kMax; break;
    case Opcode::kVavrg2: case Opcode::kVavrg4: kind = kAvrg; break;
    case Opcode::kVshl: kind = kShl; break;
    case Opcode::kVshr: kind = kShr; break;
    default: kind = kSet; break;  // vset, vset2, vset4 (vmad has its own function)
  }
  std::uint32_t op2 = kNoOp2;
  if (ins.reduce == ptx::ReduceOp::kAdd) op2 = kOp2Add;
  else if (ins.reduce == ptx::ReduceOp::kMin) op2 = kOp2Min;
  else if (ins.reduce == ptx::ReduceOp::kMax) op2 = kOp2Max;
  std::uint32_t f = 0;
  if (at == Type::kS32) f |= kASigned;
  if (bt == Type::kS32) f |= kBSigned;
  if (!vset && ins.type == Type::kS32) f |= kDSigned;
  if (ins.sat) f |= kSat;
  if (ins.clamp) f |= kClampMode;
  if (ins.po) f |= kPo;
  out.d = dc.dst(ops[0]);
  out.a = dc.src(ops[1], at);
  out.b = dc.src(ops[2], bt);
  if (ops.size() > 3) out.c = dc.src(ops[3], vset ? Type::kU32 : ins.type);
  for (const ptx::Operand* o : {&ops[1], &ops[2]})
    if (o->kind != ptx::OperandKind::kReg && !o->sel.empty()) dc.unsupported("a selector on a non-register");
  if (op == Opcode::kVmad) {
    // The H200 disagrees with the ISA's pseudocode where a type is unsigned: vmad.u32.u32.u32.shr15
    // shifts as if c were signed, vmad.s32.s32.u32.sat with -c does not saturate a product of an
    // unsigned b (tests/hw/data/h200/issue29/video.txt, forms 9 and 10: 419 of 1024 threads). The
    // all-signed forms match it; the others are refused rather than answered differently.
    if (at != Type::kS32 || bt != Type::kS32 || ins.type != Type::kS32)
      dc.unsupported("vmad with an unsigned type (.u32): the H200's results differ from the PTX ISA's definition "
                     "(measured); only vmad.s32.s32.s32 is run");
    if (ops[1].negate) f |= kNegA;
    if (ops[2].negate) f |= kNegB;
    if (ops[3].negate) f |= kNegC;
    out.aux2 = f | (std::uint32_t(ins.video_scale) << 16);
    out.imm = static_cast<std::int64_t>(scalar_sel(ops[1].sel) | (std::uint64_t(scalar_sel(ops[2].sel)) << 32));
    out.fn = &vmad;
    return true;
  }
  out.aux2 = f;
  const std::uint32_t cmp = static_cast<std::uint32_t>(ins.cmp);
  if (n == 1) {
    out.aux = kind | (op2 << 8) | (cmp << 16) | (scalar_sel(ops[0].sel) << 24);
    out.imm = static_cast<std::int64_t>(scalar_sel(ops[1].sel) | (std::uint64_t(scalar_sel(ops[2].sel)) << 32));
    out.fn = &scalar;
    return true;
  }
  // Defaults: a .h10 / .b3210, b .h32 / .b7654 (the ISA's), d all elements.
  const std::uint32_t asel = simd_sel(ops[1].sel, n == 2 ? 0x10 : 0x3210);
  const std::uint32_t bsel = simd_sel(ops[2].sel, n == 2 ? 0x32 : 0x7654);
  out.aux = kind | (op2 << 8) | (cmp << 16) | (simd_mask(ops[0].sel, n) << 24);
  out.imm = static_cast<std::int64_t>(asel | (std::uint64_t(bsel) << 32));
  out.fn = n == 2 ? &simd<2> : &simd<4>;
  return true;
}

}  // namespace warpscope::exec
