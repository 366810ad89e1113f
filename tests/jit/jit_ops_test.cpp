// The instructions the JIT emits inline since kCodeVersion 2 and 3 (f64 add/sub/mul/div/fma .rn,
// setp on f64, integer min/max/abs, f32/f64 abs/neg/min/max, cvt between integers, from integers
// to floats, between floats and from floats to integers), on operands chosen
// for their edges (NaNs with payloads, signalling NaNs, signed zeros, infinities, subnormals, the
// most negative integers): the JIT's output equals the interpreter's bit for bit, and every
// instruction of the kernel's one straight-line run but the parameter loads and cvta is native.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "exec/segments.hpp"
#include "jit/jit.hpp"
#include "warpscope/warpscope.hpp"

namespace {

using warpscope::Device;
using warpscope::Dim3;
namespace jit = warpscope::jit;

// Each thread reads three 64-bit words x, y, z (as f64, and their low halves as f32 and 32-bit
// integers) and writes 40 words of results. One run: no branch before `ret`. Of its 92
// instructions 4 call their function (2 ld.param, 2 cvta); the other 88 are native.
constexpr const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry ops(.param .u64 pin, .param .u64 pout)
{
  .reg .pred %p<4>;
  .reg .b16 %h<6>;
  .reg .b32 %r<20>;
  .reg .b64 %rd<30>;
  .reg .f32 %f<12>;
  .reg .f64 %fd<20>;
  ld.param.u64 %rd1, [pin];
  ld.param.u64 %rd2, [pout];
  cvta.to.global.u64 %rd3, %rd1;
  cvta.to.global.u64 %rd4, %rd2;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd5, %r1, 24;
  add.s64 %rd6, %rd3, %rd5;
  ld.global.f64 %fd1, [%rd6];
  ld.global.f64 %fd2, [%rd6+8];
  ld.global.f64 %fd3, [%rd6+16];
  mul.wide.u32 %rd7, %r1, 320;
  add.s64 %rd8, %rd4, %rd7;
  add.rn.f64 %fd4, %fd1, %fd2;
  st.global.f64 [%rd8], %fd4;
  sub.f64 %fd5, %fd1, %fd2;
  st.global.f64 [%rd8+8], %fd5;
  mul.rn.f64 %fd6, %fd1, %fd2;
  st.global.f64 [%rd8+16], %fd6;
  div.rn.f64 %fd7, %fd1, %fd2;
  st.global.f64 [%rd8+24], %fd7;
  fma.rn.f64 %fd8, %fd1, %fd2, %fd3;
  st.global.f64 [%rd8+32], %fd8;
  abs.f64 %fd9, %fd1;
  st.global.f64 [%rd8+40], %fd9;
  neg.f64 %fd10, %fd2;
  st.global.f64 [%rd8+48], %fd10;
  min.f64 %fd11, %fd1, %fd2;
  st.global.f64 [%rd8+56], %fd11;
  max.f64 %fd12, %fd1, %fd2;
  st.global.f64 [%rd8+64], %fd12;
  setp.lt.f64 %p1, %fd1, %fd2;
  selp.f64 %fd13, %fd1, %fd3, %p1;
  st.global.f64 [%rd8+72], %fd13;
  setp.neu.f64 %p2, %fd1, %fd2;
  selp.f64 %fd14, %fd2, %fd3, %p2;
  st.global.f64 [%rd8+80], %fd14;
  mov.b64 %rd10, %fd1;
  mov.b64 %rd11, %fd2;
  cvt.u32.u64 %r2, %rd10;
  cvt.u32.u64 %r3, %rd11;
  mov.b32 %f1, %r2;
  mov.b32 %f2, %r3;
  abs.f32 %f3, %f1;
  st.global.f32 [%rd8+88], %f3;
  neg.f32 %f4, %f2;
  st.global.f32 [%rd8+96], %f4;
  min.f32 %f5, %f1, %f2;
  st.global.f32 [%rd8+104], %f5;
  max.f32 %f6, %f1, %f2;
  st.global.f32 [%rd8+112], %f6;
  min.s32 %r4, %r2, %r3;
  st.global.u32 [%rd8+120], %r4;
  max.u32 %r5, %r2, %r3;
  st.global.u32 [%rd8+128], %r5;
  abs.s32 %r6, %r2;
  st.global.u32 [%rd8+136], %r6;
  min.u64 %rd12, %rd10, %rd11;
  st.global.u64 [%rd8+144], %rd12;
  max.s64 %rd13, %rd10, %rd11;
  st.global.u64 [%rd8+152], %rd13;
  abs.s64 %rd14, %rd11;
  st.global.u64 [%rd8+160], %rd14;
  cvt.s64.s32 %rd15, %r2;
  st.global.u64 [%rd8+168], %rd15;
  cvt.u64.u32 %rd16, %r3;
  st.global.u64 [%rd8+176], %rd16;
  cvt.s16.s64 %h1, %rd11;
  cvt.s64.s16 %rd17, %h1;
  st.global.u64 [%rd8+184], %rd17;
  cvt.u16.u32 %h2, %r2;
  cvt.s32.s16 %r7, %h2;
  st.global.u32 [%rd8+192], %r7;
  min.s16 %h3, %h1, %h2;
  st.global.u16 [%rd8+200], %h3;
  cvt.rn.f32.s32 %f7, %r2;
  st.global.f32 [%rd8+208], %f7;
  cvt.rn.f64.u64 %fd15, %rd11;
  st.global.f64 [%rd8+216], %fd15;
  cvt.f64.f32 %fd16, %f1;
  st.global.f64 [%rd8+224], %fd16;
  cvt.rn.f32.f64 %f8, %fd1;
  st.global.f32 [%rd8+232], %f8;
  cvt.rzi.s32.f64 %r8, %fd2;
  st.global.u32 [%rd8+240], %r8;
  cvt.rni.u16.f32 %h4, %f2;
  st.global.u16 [%rd8+248], %h4;
  cvt.rmi.f64.f64 %fd17, %fd2;
  st.global.f64 [%rd8+256], %fd17;
  cvt.rpi.s64.f32 %rd18, %f1;
  st.global.u64 [%rd8+264], %rd18;
  cvt.rni.s32.f64 %r9, %fd1;
  st.global.u32 [%rd8+272], %r9;
  ret;
}
)";

constexpr unsigned kThreads = 32;
constexpr unsigned kOutWords = 40;

// The high halves are special doubles, the low halves special floats and integers.
constexpr std::uint64_t kPatterns[16] = {
    0x7ff8000000000123ull,  // quiet NaN with a payload; f32 subnormal
    0x7ff0000000000001ull,  // signalling NaN; f32 subnormal 1
    0x8000000000000000ull,  // -0; f32 +0
    0x0000000000000000ull,  // +0
    0x7ff0000000000000ull,  // +inf
    0xfff0000000000000ull,  // -inf
    0x0000000000000001ull,  // the smallest subnormal
    0x3ff8000080000000ull,  // 1.5...; f32 -0, INT_MIN
    0xc002000000000000ull,  // -2.25
    0x7fefffffffffffffull,  // the largest double
    0x3ff0000000000000ull,  // 1
    0xbff00000ffc00001ull,  // -1...; f32 negative NaN with a payload
    0x400000007f800000ull,  // 2...; f32 +inf
    0x000fffffffffffffull,  // the largest subnormal; low half -1 (an f32 NaN)
    0xc004000000000000ull,  // -2.5 (a tie for .rni); f32 +0
    0xc3e0000000000000ull,  // -2^63
};

std::vector<std::uint64_t> run_ops() {
  Device dev;
  const warpscope::Module m = dev.load_ptx(kPtx, "ops.ptx");
  std::vector<std::uint64_t> in(kThreads * 3), out(kThreads * kOutWords, 0);
  for (unsigned l = 0; l < kThreads; ++l) {
    in[l * 3 + 0] = kPatterns[l % 16];
    in[l * 3 + 1] = kPatterns[(l * 7 + 3) % 16];
    in[l * 3 + 2] = kPatterns[(l * 5 + 1) % 16];
  }
  const warpscope::DevicePtr din = dev.malloc(in.size() * 8), dout = dev.malloc(out.size() * 8);
  dev.copy_to_device(din, in.data(), in.size() * 8);
  dev.copy_to_device(dout, out.data(), out.size() * 8);
  const warpscope::KernelArg args[] = {warpscope::arg(din), warpscope::arg(dout)};
  dev.launch(m, "ops", Dim3{1, 1, 1}, Dim3{kThreads, 1, 1}, args, 0);
  dev.copy_to_host(out.data(), dout, out.size() * 8);
  return out;
}

TEST(JitOps, SameBitsAsTheInterpreterAllNative) {
  if (!jit::install()) GTEST_SKIP() << "no JIT in this build";
  warpscope::exec::set_jit_enabled(false);
  const std::vector<std::uint64_t> want = run_ops();
  // A compiler of its own without the disk cache: this test compiles.
  const auto compiler = jit::make_compiler(jit::Options{false, {}});
  warpscope::exec::set_segment_compiler(compiler.get());
  warpscope::exec::set_jit_enabled(true);
  const jit::Stats before = jit::stats();
  const std::vector<std::uint64_t> got = run_ops();
  const jit::Stats after = jit::stats();
  jit::install();
  EXPECT_EQ(after.kernels - before.kernels, 1u);
  EXPECT_EQ(after.segments - before.segments, 1u);
  EXPECT_EQ(after.instructions - before.instructions, 92u);
  EXPECT_EQ(after.native - before.native, 88u);
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got[i], want[i]) << "thread " << i / kOutWords << ", word " << i % kOutWords << std::hex << ": jit 0x"
                               << got[i] << ", interpreter 0x" << want[i];
  }
  // Spot checks against the rules themselves (thread 0: x = qNaN 0x7ff8000000000123,
  // y = kPatterns[3] = +0, z = kPatterns[1]): x + y is the canonical NaN; abs keeps the payload.
  EXPECT_EQ(want[0], 0x7fffffffffffffffull);
  EXPECT_EQ(want[5], 0x7ff8000000000123ull);
  // min/max with one NaN operand give the other (+0).
  EXPECT_EQ(want[7], 0u);
  EXPECT_EQ(want[8], 0u);
  // cvt.rni.s32.f64 of x (word 34, a u32 store): NaN -> 0, -2.5 -> -2 (ties to even), the largest
  // double -> INT_MAX, -2^63 -> INT_MIN (clamped).
  auto rni = [&](unsigned thread) { return want[thread * kOutWords + 34]; };
  EXPECT_EQ(rni(0), 0u);
  EXPECT_EQ(rni(14), 0xfffffffeu);
  EXPECT_EQ(rni(9), 0x7fffffffu);
  EXPECT_EQ(rni(15), 0x80000000u);
}

}  // namespace
