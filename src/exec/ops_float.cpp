// f32 and f64 arithmetic (PTX ISA "Floating-Point Instructions"): add, sub, mul, fma/mad, div,
// rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh, abs, neg, min, max, copysign, testp.
//
// Rounding: .rn (the default) is the host's default mode; .rz/.rm/.rp switch the host rounding
// mode around the lane loop (this file is compiled with -frounding-math). .ftz flushes subnormal
// f32 inputs and results to sign-preserving zero; .sat clamps f32 results to [0, 1] (NaN -> 0).
// NaN results are the GPU's canonical NaN. Approximate instructions (.approx, sin, cos, lg2, ex2,
// tanh, rsqrt) use the correctly rounded or libm value, which is inside the PTX ISA's error
// bounds for them.
#include <tuple>
#include <utility>

#include "exec/ops_float.hpp"
#include "exec/segments.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;
using ptx::Type;

bool host_has_fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}

/// rcp.approx.ftz.f64: the ftz applies to the double input and result.
void rcp_approx_ftz_f64(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<double, double>(in, x, m, [](double a) {
    if (std::fpclassify(a) == FP_SUBNORMAL) a = std::copysign(0.0, a);
    double r = 1.0 / a;
    if (std::fpclassify(r) == FP_SUBNORMAL) r = std::copysign(0.0, r);
    return canon(r);
  });
}

template <class T, bool Ftz> void fabs_(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<T, T>(in, x, m, [](T a) {
    if constexpr (Ftz) a = ftz(a);
    return std::fabs(a);
  });
}
template <class T, bool Ftz> void fneg(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<T, T>(in, x, m, [](T a) {
    if constexpr (Ftz) a = ftz(a);
    return -a;
  });
}
template <class T> void copysign_(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes2<T, T, T>(in, x, m, [](T a, T b) { return std::copysign(b, a); });
}
template <class T, ptx::TestpOp Op> void testp(const Inst& in, Ctx& x, std::uint32_t m) {
  lanes1<bool, T>(in, x, m, [](T a) {
    switch (Op) {
      case ptx::TestpOp::kFinite: return std::isfinite(a);
      case ptx::TestpOp::kInfinite: return std::isinf(a);
      case ptx::TestpOp::kNumber: return !std::isnan(a);
      case ptx::TestpOp::kNotANumber: return std::isnan(a);
      case ptx::TestpOp::kNormal: return std::isnormal(a);
      case ptx::TestpOp::kSubnormal: return std::fpclassify(a) == FP_SUBNORMAL;
      case ptx::TestpOp::kNone: break;
    }
    return false;
  });
}

int rnd_of(ptx::Rounding r) {
  switch (r) {
    case ptx::Rounding::kRz: return kRZ;
    case ptx::Rounding::kRm: return kRM;
    case ptx::Rounding::kRp: return kRP;
    default: return kRN;
  }
}

template <class Op>
ExecFn pick_bin(Type t, int r, bool ftz, bool sat) {
  if constexpr (requires { Op::rn; }) {
    if (t == Type::kF32 && r == kRN) return pick_f32_rn(Op::rn, ftz, sat);
  }
  if (t == Type::kF64) {
    switch (r) {
      case kRZ: return &fbin<double, Op, kRZ, false, false>;
      case kRM: return &fbin<double, Op, kRM, false, false>;
      case kRP: return &fbin<double, Op, kRP, false, false>;
      default: return &fbin<double, Op, kRN, false, false>;
    }
  }
#define WS_F32(R)                                                                   \
  return ftz ? (sat ? &fbin<float, Op, R, true, true> : &fbin<float, Op, R, true, false>) \
             : (sat ? &fbin<float, Op, R, false, true> : &fbin<float, Op, R, false, false>)
  switch (r) {
    case kRZ: WS_F32(kRZ);
    case kRM: WS_F32(kRM);
    case kRP: WS_F32(kRP);
    default: WS_F32(kRN);
  }
#undef WS_F32
}

template <template <class, int, bool, bool> class F>
struct FmaTable {
  static ExecFn pick(Type t, int r, bool ftz, bool sat);
};

template <class T, int R, bool Ftz, bool Sat>
struct SoftFma {
  static void run(const Inst& in, Ctx& x, std::uint32_t m) { ffma<T, R, Ftz, Sat>(in, x, m); }
};
template <class T, int R, bool Ftz, bool Sat>
struct HwFma {
  static void run(const Inst& in, Ctx& x, std::uint32_t m) { ffma_hw<T, R, Ftz, Sat>(in, x, m); }
};

template <template <class, int, bool, bool> class F>
ExecFn FmaTable<F>::pick(Type t, int r, bool ftz, bool sat) {
  if (t == Type::kF64) {
    switch (r) {
      case kRZ: return &F<double, kRZ, false, false>::run;
      case kRM: return &F<double, kRM, false, false>::run;
      case kRP: return &F<double, kRP, false, false>::run;
      default: return &F<double, kRN, false, false>::run;
    }
  }
#define WS_F32(R)                                                                                         \
  return ftz ? (sat ? &F<float, R, true, true>::run : &F<float, R, true, false>::run)                     \
             : (sat ? &F<float, R, false, true>::run : &F<float, R, false, false>::run)
  switch (r) {
    case kRZ: WS_F32(kRZ);
    case kRM: WS_F32(kRM);
    case kRP: WS_F32(kRP);
    default: WS_F32(kRN);
  }
#undef WS_F32
}

ExecFn pick_fma(Type t, int r, bool ftz, bool sat) {
  if (t == Type::kF32 && r == kRN && host_has_fma()) return pick_f32_rn(RnOp::kFma, ftz, sat);
  return host_has_fma() ? FmaTable<HwFma>::pick(t, r, ftz, sat) : FmaTable<SoftFma>::pick(t, r, ftz, sat);
}

template <class Op>
ExecFn pick_unary(Type t, int r, bool ftz) {
  if constexpr (requires { Op::rn; }) {
    if (t == Type::kF32 && r == kRN) return pick_f32_rn(Op::rn, ftz, false);
  }
  if (t == Type::kF64) {
    switch (r) {
      case kRZ: return &funary<double, Op, kRZ, false>;
      case kRM: return &funary<double, Op, kRM, false>;
      case kRP: return &funary<double, Op, kRP, false>;
      default: return &funary<double, Op, kRN, false>;
    }
  }
  switch (r) {
    case kRZ: return ftz ? &funary<float, Op, kRZ, true> : &funary<float, Op, kRZ, false>;
    case kRM: return ftz ? &funary<float, Op, kRM, true> : &funary<float, Op, kRM, false>;
    case kRP: return ftz ? &funary<float, Op, kRP, true> : &funary<float, Op, kRP, false>;
    default: return ftz ? &funary<float, Op, kRN, true> : &funary<float, Op, kRN, false>;
  }
}

template <ptx::TestpOp Op>
ExecFn pick_testp(Type t) {
  return t == Type::kF64 ? &testp<double, Op> : &testp<float, Op>;
}

}  // namespace

bool decode_float(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const Type t = ins.type;
  if (t != Type::kF32 && t != Type::kF64) return false;
  const auto& ops = ins.operands;
  const int r = rnd_of(ins.rounding);
  const bool f32 = t == Type::kF32;
  const bool ftz = ins.ftz && f32;
  const bool sat = ins.sat && f32;
  if (ins.sat && !f32) dc.unsupported(".sat on .f64");
  auto un = [&] {
    out.d = dc.dst(ops[0]);
    out.a = dc.src(ops[1], t);
  };
  auto bin = [&] {
    un();
    out.b = dc.src(ops[2], t);
  };
  switch (ins.op) {
    case Opcode::kAdd: bin(); out.fn = pick_bin<FAdd>(t, r, ftz, sat); return true;
    case Opcode::kSub: bin(); out.fn = pick_bin<FSub>(t, r, ftz, sat); return true;
    case Opcode::kMul: bin(); out.fn = pick_bin<FMul>(t, r, ftz, sat); return true;
    case Opcode::kFma:
    case Opcode::kMad:
      bin();
      out.c = dc.src(ops[3], t);
      out.fn = pick_fma(t, r, ftz, sat);
      return true;
    case Opcode::kDiv:
      bin();
      // div.approx / div.full (f32) and div.rnd: the correctly rounded quotient.
      out.fn = pick_bin<FDiv>(t, ins.approx || ins.full ? kRN : r, ftz, sat);
      return true;
    case Opcode::kMin:
    case Opcode::kMax:
      bin();
      if (ins.xorsign_abs) dc.unsupported("min/max .xorsign.abs");
      if (ins.op == Opcode::kMin) out.fn = ins.nan ? pick_bin<FMinNaN>(t, kRN, ftz, false) : pick_bin<FMin>(t, kRN, ftz, false);
      else out.fn = ins.nan ? pick_bin<FMaxNaN>(t, kRN, ftz, false) : pick_bin<FMax>(t, kRN, ftz, false);
      return true;
    case Opcode::kRcp:
      un();
      if (!f32 && ins.approx && ins.ftz) out.fn = &rcp_approx_ftz_f64;
      else out.fn = pick_unary<URcp>(t, ins.approx ? kRN : r, ftz);
      return true;
    case Opcode::kSqrt: un(); out.fn = pick_unary<USqrt>(t, ins.approx ? kRN : r, ftz); return true;
    case Opcode::kRsqrt: un(); out.fn = pick_unary<URsqrt>(t, kRN, ftz || (ins.ftz && !f32)); return true;
    case Opcode::kSin: un(); out.fn = pick_unary<USin>(t, kRN, ftz); return true;
    case Opcode::kCos: un(); out.fn = pick_unary<UCos>(t, kRN, ftz); return true;
    case Opcode::kLg2: un(); out.fn = pick_unary<ULg2>(t, kRN, ftz); return true;
    case Opcode::kEx2: un(); out.fn = pick_unary<UEx2>(t, kRN, ftz); return true;
    case Opcode::kTanh: un(); out.fn = pick_unary<UTanh>(t, kRN, ftz); return true;
    case Opcode::kAbs:
      un();
      out.fn = f32 ? (ftz ? &fabs_<float, true> : &fabs_<float, false>) : &fabs_<double, false>;
      return true;
    case Opcode::kNeg:
      un();
      out.fn = f32 ? (ftz ? &fneg<float, true> : &fneg<float, false>) : &fneg<double, false>;
      return true;
    case Opcode::kCopysign:
      bin();
      out.fn = f32 ? &copysign_<float> : &copysign_<double>;
      return true;
    case Opcode::kTestp:
      un();
      switch (ins.testp) {
        case ptx::TestpOp::kFinite: out.fn = pick_testp<ptx::TestpOp::kFinite>(t); break;
        case ptx::TestpOp::kInfinite: out.fn = pick_testp<ptx::TestpOp::kInfinite>(t); break;
        case ptx::TestpOp::kNumber: out.fn = pick_testp<ptx::TestpOp::kNumber>(t); break;
        case ptx::TestpOp::kNotANumber: out.fn = pick_testp<ptx::TestpOp::kNotANumber>(t); break;
        case ptx::TestpOp::kNormal: out.fn = pick_testp<ptx::TestpOp::kNormal>(t); break;
        case ptx::TestpOp::kSubnormal: out.fn = pick_testp<ptx::TestpOp::kSubnormal>(t); break;
        case ptx::TestpOp::kNone: dc.unsupported("testp without an operation");
      }
      return true;
    default: return false;
  }
}

bool describe_float(ExecFn f, JitDesc& d) {
  // f64 round to nearest (as decoded: the default rounding, no .ftz/.sat for f64): canon(op(a, b)).
  const std::pair<ExecFn, JitOp> f64[] = {{pick_bin<FAdd>(Type::kF64, kRN, false, false), JitOp::kDAdd},
                                          {pick_bin<FSub>(Type::kF64, kRN, false, false), JitOp::kDSub},
                                          {pick_bin<FMul>(Type::kF64, kRN, false, false), JitOp::kDMul},
                                          {pick_bin<FDiv>(Type::kF64, kRN, false, false), JitOp::kDDiv},
                                          {pick_fma(Type::kF64, kRN, false, false), JitOp::kDFma}};
  for (const auto& [g, op] : f64) {
    if (g == f) {
      d.op = op;
      d.bits = 64;
      return true;
    }
  }
  // abs and neg (sign bit only, no canon) and min/max (canon(FMin/FMax)) without .ftz or .NaN.
  const std::tuple<ExecFn, JitOp, std::uint8_t> sign[] = {
      {&fabs_<float, false>, JitOp::kFAbs, 32}, {&fabs_<double, false>, JitOp::kFAbs, 64},
      {&fneg<float, false>, JitOp::kFNeg, 32}, {&fneg<double, false>, JitOp::kFNeg, 64},
      {pick_bin<FMin>(Type::kF32, kRN, false, false), JitOp::kFMin, 32},
      {pick_bin<FMin>(Type::kF64, kRN, false, false), JitOp::kFMin, 64},
      {pick_bin<FMax>(Type::kF32, kRN, false, false), JitOp::kFMax, 32},
      {pick_bin<FMax>(Type::kF64, kRN, false, false), JitOp::kFMax, 64}};
  for (const auto& [g, op, bits] : sign) {
    if (g == f) {
      d.op = op;
      d.bits = bits;
      return true;
    }
  }
  return false;
}

}  // namespace warpscope::exec
