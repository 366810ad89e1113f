// Round-to-nearest f32 add, sub, mul, div, fma, rcp, sqrt and rsqrt: the lane loops of
// ops_float.hpp instantiated in a file compiled without -frounding-math (and with
// -fno-math-errno), so that GCC vectorizes them. Same bits as ops_float.cpp's scalar loops: each
// of these operations is correctly rounded in the host's default mode, vector or scalar.
#include "exec/ops_float.hpp"

namespace warpscope::exec {

namespace {

// The same loops compiled for AVX2 (8 lanes per instruction, and the 32-to-64-bit moves of the
// register slots in one instruction), chosen when the CPU has it.
bool host_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
template <class Op, bool Ftz, bool Sat>
[[gnu::target("avx2")]] void fbin_avx2(const Inst& in, Ctx& x, std::uint32_t m) {
  fbin<float, Op, kRN, Ftz, Sat>(in, x, m);
}
template <class Op, bool Ftz>
[[gnu::target("avx2")]] void funary_avx2(const Inst& in, Ctx& x, std::uint32_t m) {
  funary<float, Op, kRN, Ftz>(in, x, m);
}

template <class Op>
ExecFn bin(bool ftz, bool sat) {
  if (host_has_avx2())
    return ftz ? (sat ? &fbin_avx2<Op, true, true> : &fbin_avx2<Op, true, false>)
               : (sat ? &fbin_avx2<Op, false, true> : &fbin_avx2<Op, false, false>);
  return ftz ? (sat ? &fbin<float, Op, kRN, true, true> : &fbin<float, Op, kRN, true, false>)
             : (sat ? &fbin<float, Op, kRN, false, true> : &fbin<float, Op, kRN, false, false>);
}

template <class Op>
ExecFn unary(bool ftz) {
  if (host_has_avx2()) return ftz ? &funary_avx2<Op, true> : &funary_avx2<Op, false>;
  return ftz ? &funary<float, Op, kRN, true> : &funary<float, Op, kRN, false>;
}

}  // namespace

ExecFn pick_f32_rn(RnOp op, bool ftz, bool sat) {
  switch (op) {
    case RnOp::kAdd: return bin<FAdd>(ftz, sat);
    case RnOp::kSub: return bin<FSub>(ftz, sat);
    case RnOp::kMul: return bin<FMul>(ftz, sat);
    case RnOp::kDiv: return bin<FDiv>(ftz, sat);
    case RnOp::kFma:
      return ftz ? (sat ? &ffma_hw<float, kRN, true, true> : &ffma_hw<float, kRN, true, false>)
                 : (sat ? &ffma_hw<float, kRN, false, true> : &ffma_hw<float, kRN, false, false>);
    case RnOp::kRcp: return unary<URcp>(ftz);
    case RnOp::kSqrt: return unary<USqrt>(ftz);
    case RnOp::kRsqrt: return unary<URsqrt>(ftz);
  }
  return nullptr;
}

}  // namespace warpscope::exec
