// PTX forms without a CUDA intrinsic of their own, written as inline PTX: fns, bmsk, szext, dp4a,
// dp2a, the packing conversions (f16x2, bf16x2, tf32, 8-bit float pairs, cvt.pack), and the
// thread's dynamic stack (alloca, stacksave, stackrestore). tests/exec/ptx_forms_test.cpp runs them
// in the interpreter, tests/hw/ptx/ptx_forms.cu on a GPU; both compare with
// tests/exec/ptx_forms_cases.hpp.
#include "../ptx_forms_cases.hpp"

__device__ unsigned ptx_form(unsigned form, unsigned a, unsigned b, unsigned c) {
  using namespace ptx_forms;
  unsigned d = 0;
  unsigned short h = 0;
  switch (form) {
    case kFns: asm("fns.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kBmskClamp: asm("bmsk.clamp.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kBmskWrap: asm("bmsk.wrap.b32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kSzextClampS: asm("szext.clamp.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kSzextWrapS: asm("szext.wrap.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kSzextClampU: asm("szext.clamp.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kSzextWrapU: asm("szext.wrap.u32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kDp4aUU: asm("dp4a.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp4aUS: asm("dp4a.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp4aSU: asm("dp4a.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp4aSS: asm("dp4a.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp2aLoUU: asm("dp2a.lo.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp2aLoUS: asm("dp2a.lo.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp2aLoSU: asm("dp2a.lo.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp2aLoSS: asm("dp2a.lo.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp2aHiUU: asm("dp2a.hi.u32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp2aHiUS: asm("dp2a.hi.u32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp2aHiSU: asm("dp2a.hi.s32.u32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kDp2aHiSS: asm("dp2a.hi.s32.s32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kF16x2Rn: asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kF16x2Rz: asm("cvt.rz.f16x2.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kF16x2RnRelu: asm("cvt.rn.relu.f16x2.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kF16x2RnSatfinite: asm("cvt.rn.satfinite.f16x2.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kF16x2RnReluSatfinite: asm("cvt.rn.relu.satfinite.f16x2.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kBf16x2Rn: asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kBf16x2RzRelu: asm("cvt.rz.relu.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kBf16x2RnSatfinite: asm("cvt.rn.satfinite.bf16x2.f32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kF16RnSatfinite: asm("cvt.rn.satfinite.f16.f32 %0, %1;" : "=h"(h) : "r"(a)); d = h; break;
    case kBf16RnRelu: asm("cvt.rn.relu.bf16.f32 %0, %1;" : "=h"(h) : "r"(a)); d = h; break;
    case kTf32Rna: asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(d) : "r"(a)); break;
    case kTf32RnaSatfinite: asm("cvt.rna.satfinite.tf32.f32 %0, %1;" : "=r"(d) : "r"(a)); break;
    case kTf32Rn: asm("cvt.rn.tf32.f32 %0, %1;" : "=r"(d) : "r"(a)); break;
    case kTf32Rz: asm("cvt.rz.tf32.f32 %0, %1;" : "=r"(d) : "r"(a)); break;
    case kTf32RnRelu: asm("cvt.rn.relu.tf32.f32 %0, %1;" : "=r"(d) : "r"(a)); break;
    case kE4m3x2F32: asm("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(h) : "r"(a), "r"(b)); d = h; break;
    case kE5m2x2F32Relu: asm("cvt.rn.satfinite.relu.e5m2x2.f32 %0, %1, %2;" : "=h"(h) : "r"(a), "r"(b)); d = h; break;
    case kE4m3x2F16x2: asm("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(h) : "r"(a)); d = h; break;
    case kE5m2x2F16x2Relu: asm("cvt.rn.satfinite.relu.e5m2x2.f16x2 %0, %1;" : "=h"(h) : "r"(a)); d = h; break;
    case kF16x2E4m3x2: asm("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(d) : "h"(static_cast<unsigned short>(a))); break;
    case kF16x2E5m2x2Relu: asm("cvt.rn.relu.f16x2.e5m2x2 %0, %1;" : "=r"(d) : "h"(static_cast<unsigned short>(a))); break;
    case kPackU16: asm("cvt.pack.sat.u16.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kPackS16: asm("cvt.pack.sat.s16.s32 %0, %1, %2;" : "=r"(d) : "r"(a), "r"(b)); break;
    case kPackU8: asm("cvt.pack.sat.u8.s32.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    case kPackS8: asm("cvt.pack.sat.s8.s32.b32 %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c)); break;
    default: d = 0xdeadbeefu; break;
  }
  return d;
}

/// One case per thread: in[4 t .. 4 t + 3] = form, a, b, c; out[t] = the result.
extern "C" __global__ void run_forms(const unsigned* in, unsigned* out, unsigned n) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) out[t] = ptx_form(in[4 * t], in[4 * t + 1], in[4 * t + 2], in[4 * t + 3]);
}

// --- the dynamic stack ------------------------------------------------------------------------

/// alloca in a function: the memory is freed when it returns (PTX ISA, alloca), so a loop of calls
/// does not overflow the stack although all of them together need more than it has.
__device__ __noinline__ unsigned stack_sum(unsigned n) {
  unsigned long long p;
  asm volatile("alloca.u64 %0, %1;" : "=l"(p) : "l"(static_cast<unsigned long long>(n) * 4));
  for (unsigned i = 0; i < n; ++i) asm volatile("st.local.u32 [%0], %1;" ::"l"(p + 4 * i), "r"(i));
  unsigned s = 0;
  for (unsigned i = 0; i < n; ++i) {
    unsigned v;
    asm volatile("ld.local.u32 %0, [%1];" : "=r"(v) : "l"(p + 4 * i));
    s += v;
  }
  return s;
}

/// out[8 t ..]: [0] the sum of 64 calls of stack_sum(100) (64 x 4950 = 316800; 400 bytes each, 25600
/// in all); [1] the allocation's start modulo 64 (alignment operand 64: 0); [2] the stack pointer
/// after stackrestore equals the one stacksave returned (1); [3] the allocation lies below the
/// saved stack pointer with room for its size (the stack grows down: 1); [4] the value stored in
/// the allocation and read back (thread id + 7); [5] two allocations do not overlap (1).
extern "C" __global__ void stack_ops(unsigned* out) {
  const unsigned t = threadIdx.x;
  unsigned sum = 0;
  for (int k = 0; k < 64; ++k) sum += stack_sum(100);
  unsigned long long sp0, p, q, sp1;
  const unsigned long long size = 40 + t;
  asm volatile("stacksave.u64 %0;" : "=l"(sp0));
  asm volatile("alloca.u64 %0, %1, 64;" : "=l"(p) : "l"(size));
  asm volatile("alloca.u64 %0, %1;" : "=l"(q) : "l"(size));
  asm volatile("st.local.u32 [%0], %1;" ::"l"(p), "r"(t + 7));
  asm volatile("st.local.u32 [%0], %1;" ::"l"(q), "r"(t + 1000));
  unsigned v;
  asm volatile("ld.local.u32 %0, [%1];" : "=r"(v) : "l"(p));
  asm volatile("stackrestore.u64 %0;" ::"l"(sp0));
  asm volatile("stacksave.u64 %0;" : "=l"(sp1));
  unsigned* o = out + 8 * t;
  o[0] = sum;
  o[1] = static_cast<unsigned>(p % 64);
  o[2] = sp1 == sp0;
  o[3] = p < sp0 && sp0 - p >= size;
  o[4] = v;
  o[5] = q + size <= p || p + size <= q;
}

/// An allocation larger than the thread's stack.
extern "C" __global__ void stack_overflow(unsigned bytes) {
  unsigned long long p;
  asm volatile("alloca.u64 %0, %1;" : "=l"(p) : "l"(static_cast<unsigned long long>(bytes)));
  asm volatile("st.local.u32 [%0], %1;" ::"l"(p), "r"(1));
}
