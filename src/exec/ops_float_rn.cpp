// Round-to-nearest f32 add, sub, mul, div, fma, rcp, sqrt and rsqrt: the lane loops of
// ops_float.hpp instantiated in a file compiled without -frounding-math (and with
// -fno-math-errno), so that GCC vectorizes them. Same bits as ops_float.cpp's scalar loops: each
// of these operations is correctly rounded in the host's default mode, vector or scalar.
#include "exec/ops_float.hpp"
#include "exec/segments.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

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

#if defined(__x86_64__)
// A whole warp without packing: a register slot is 64 bits with the f32 in its low half, so four
// slots are one 256-bit vector whose even 32-bit elements are four lanes' floats and whose odd
// elements are the slots' upper halves. The operation runs on all eight elements (each element
// is computed on its own, so the upper halves cannot disturb the floats), NaN results become the
// canonical NaN (as canon()), and the upper halves are cleared (as put<float>()). Same bits as the
// lane loops: IEEE add, sub, mul and fma are correctly rounded in vector and scalar form.
[[gnu::target("avx2")]] inline __m256i finish_f32_slots(__m256 r) {
  const __m256 nan = _mm256_cmp_ps(r, r, _CMP_UNORD_Q);
  const __m256 canonical = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
  const __m256i bits = _mm256_castps_si256(_mm256_blendv_ps(r, canonical, nan));
  return _mm256_and_si256(bits, _mm256_set1_epi64x(0xffffffffll));
}

[[gnu::target("avx2")]] inline __m256 load_f32_slots(const std::uint64_t* p) {
  return _mm256_loadu_ps(reinterpret_cast<const float*>(p));
}

template <class Op>
[[gnu::target("avx2")]] inline __m256 vec_op(__m256 a, __m256 b) {
  if constexpr (std::is_same_v<Op, FAdd>) return _mm256_add_ps(a, b);
  else if constexpr (std::is_same_v<Op, FSub>) return _mm256_sub_ps(a, b);
  else if constexpr (std::is_same_v<Op, FMul>) return _mm256_mul_ps(a, b);
  else return _mm256_div_ps(a, b);
}

template <class Op>
[[gnu::target("avx2")]] void fbin_slots_avx2(const Inst& in, Ctx& x, std::uint32_t m) {
  if (m != kFullMask) {
    fbin<float, Op, kRN, false, false>(in, x, m);
    return;
  }
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  std::uint64_t* d = x.reg(in.d);
  for (unsigned l = 0; l < kLanes; l += 4) {
    const __m256 r = vec_op<Op>(load_f32_slots(a + l), load_f32_slots(b + l));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), finish_f32_slots(r));
  }
}

[[gnu::target("avx2,fma")]] void ffma_slots_avx2(const Inst& in, Ctx& x, std::uint32_t m) {
  if (m != kFullMask) {
    ffma_hw<float, kRN, false, false>(in, x, m);
    return;
  }
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = x.reg(in.c);
  std::uint64_t* d = x.reg(in.d);
  for (unsigned l = 0; l < kLanes; l += 4) {
    const __m256 r = _mm256_fmadd_ps(load_f32_slots(a + l), load_f32_slots(b + l), load_f32_slots(c + l));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), finish_f32_slots(r));
  }
}

template <class Op>
[[gnu::target("avx2")]] void funary_slots_avx2(const Inst& in, Ctx& x, std::uint32_t m) {
  if (m != kFullMask) {
    funary<float, Op, kRN, false>(in, x, m);
    return;
  }
  const std::uint64_t* a = x.reg(in.a);
  std::uint64_t* d = x.reg(in.d);
  const __m256 one = _mm256_set1_ps(1.0f);
  for (unsigned l = 0; l < kLanes; l += 4) {
    const __m256 v = load_f32_slots(a + l);
    __m256 r;
    if constexpr (std::is_same_v<Op, URcp>) r = _mm256_div_ps(one, v);
    else if constexpr (std::is_same_v<Op, USqrt>) r = _mm256_sqrt_ps(v);
    else r = _mm256_div_ps(one, _mm256_sqrt_ps(v));  // URsqrt: 1 / sqrt(a), two roundings
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + l), finish_f32_slots(r));
  }
}
#endif

template <class Op>
ExecFn bin(bool ftz, bool sat) {
#if defined(__x86_64__)
  if (!ftz && !sat && host_has_avx2()) return &fbin_slots_avx2<Op>;
#endif
  if (host_has_avx2())
    return ftz ? (sat ? &fbin_avx2<Op, true, true> : &fbin_avx2<Op, true, false>)
               : (sat ? &fbin_avx2<Op, false, true> : &fbin_avx2<Op, false, false>);
  return ftz ? (sat ? &fbin<float, Op, kRN, true, true> : &fbin<float, Op, kRN, true, false>)
             : (sat ? &fbin<float, Op, kRN, false, true> : &fbin<float, Op, kRN, false, false>);
}

template <class Op>
ExecFn unary(bool ftz) {
#if defined(__x86_64__)
  if (!ftz && host_has_avx2()) return &funary_slots_avx2<Op>;
#endif
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
#if defined(__x86_64__)
      // (kFma is only picked when the host has FMA, hence AVX2-era x86-64.)
      if (!ftz && !sat && host_has_avx2()) return &ffma_slots_avx2;
#endif
      return ftz ? (sat ? &ffma_hw<float, kRN, true, true> : &ffma_hw<float, kRN, true, false>)
                 : (sat ? &ffma_hw<float, kRN, false, true> : &ffma_hw<float, kRN, false, false>);
    case RnOp::kRcp: return unary<URcp>(ftz);
    case RnOp::kSqrt: return unary<USqrt>(ftz);
    case RnOp::kRsqrt: return unary<URsqrt>(ftz);
  }
  return nullptr;
}

bool describe_f32_rn(ExecFn f, JitDesc& d) {
  static const std::pair<RnOp, JitOp> ops[] = {{RnOp::kAdd, JitOp::kFAdd}, {RnOp::kSub, JitOp::kFSub},
                                               {RnOp::kMul, JitOp::kFMul}, {RnOp::kDiv, JitOp::kFDiv},
                                               {RnOp::kFma, JitOp::kFFma}, {RnOp::kRcp, JitOp::kFRcp},
                                               {RnOp::kSqrt, JitOp::kFSqrt}, {RnOp::kRsqrt, JitOp::kFRsqrt}};
  for (const auto& [rn, op] : ops) {
    // Without .ftz and .sat every variant pick_f32_rn chooses computes canon(op(a, b)).
    if (pick_f32_rn(rn, false, false) == f) {
      d.op = op;
      return true;
    }
  }
  return false;
}

}  // namespace warpscope::exec
