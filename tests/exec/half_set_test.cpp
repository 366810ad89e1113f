// set with half-precision operands (.f16 .bf16 .f16x2 .bf16x2) and half-precision destinations,
// against the PTX ISA's set: "true" is 1.0 of a floating-point destination type (f16 0x3c00,
// bf16 0x3f80, f32 0x3f800000) and all ones of an integer one (0xffff for .u16, 0xffffffff for
// .u32, 0xffff per half of an x2 comparison), false is 0; an x2 comparison sets each half on its
// own; .ftz flushes subnormal inputs; BoolOp combines the comparison with c. cuda_fp16.h's
// comparisons (__heq, ...) emit these. ptxas 13 accepts every line for sm_90, and the H200 gave
// these values (tests/hw/data/h200/cdp_halfset).
#include <string>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

const std::string kPtx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p) {
  .reg .b16 %h<20>;
  .reg .b32 %r<40>;
  .reg .f32 %f<3>;
  .reg .pred %p<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  mov.b16 %h1, 0x3C00;
  mov.b16 %h2, 0x4000;
  mov.b16 %h3, 0x7E00;
  mov.b16 %h4, 0x0001;
  mov.b16 %h5, 0x0000;
  mov.b16 %h6, 0x3F80;
  mov.b32 %r30, 0x42003C00;
  mov.b32 %r31, 0x40004000;
  mov.b32 %r32, 0x40403F80;
  mov.f32 %f1, 0f3F800000;
  mov.f32 %f2, 0f40000000;
  mov.b32 %r33, 0;
  setp.ne.s32 %p1, %r33, 0;
  set.lt.f16.f16 %h10, %h1, %h2;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+0], %r1;
  set.gt.f16.f16 %h10, %h1, %h2;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+4], %r1;
  set.lt.u32.f16 %r1, %h1, %h2;
  st.global.u32 [%rd1+8], %r1;
  set.lt.u16.f16 %h10, %h1, %h2;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+12], %r1;
  set.nan.f16.f16 %h10, %h3, %h1;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+16], %r1;
  set.gt.f16.f16 %h10, %h4, %h5;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+20], %r1;
  set.gt.ftz.f16.f16 %h10, %h4, %h5;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+24], %r1;
  set.lt.and.f16.f16 %h10, %h1, %h2, %p1;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+28], %r1;
  set.lt.or.f16.f16 %h10, %h2, %h1, !%p1;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+32], %r1;
  set.lt.f16x2.f16x2 %r1, %r30, %r31;
  st.global.u32 [%rd1+36], %r1;
  set.lt.u32.f16x2 %r1, %r30, %r31;
  st.global.u32 [%rd1+40], %r1;
  set.gt.s32.f16x2 %r1, %r30, %r31;
  st.global.u32 [%rd1+44], %r1;
  set.lt.bf16x2.bf16x2 %r1, %r32, %r31;
  st.global.u32 [%rd1+48], %r1;
  set.lt.u32.bf16 %r1, %h6, %h2;
  st.global.u32 [%rd1+52], %r1;
  set.lt.f16.f32 %h10, %f1, %f2;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+56], %r1;
  set.lt.bf16.f32 %h10, %f1, %f2;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+60], %r1;
  set.gt.bf16.f32 %h10, %f1, %f2;
  cvt.u32.u16 %r1, %h10;
  st.global.u32 [%rd1+64], %r1;
  set.lt.f32.f32 %r1, %f1, %f2;
  st.global.u32 [%rd1+68], %r1;
  mov.b32 %r34, -1;
  mov.b32 %r35, 1;
  set.lt.u32.s32 %r1, %r34, %r35;
  st.global.u32 [%rd1+72], %r1;
  set.lt.and.u32.f16x2 %r1, %r30, %r31, !%p1;
  st.global.u32 [%rd1+76], %r1;
  ret;
}
)";

TEST(HalfSet, EveryFormHasTheIsaResult) {
  Device dev;
  Module m = dev.load_ptx(kPtx, "half_set.ptx");
  const DevicePtr out = dev.malloc(20 * sizeof(unsigned));
  const KernelArg args[] = {arg(out)};
  dev.launch(m, "k", {1}, {1}, args);
  const auto got = download<unsigned>(dev, out, 20);
  const unsigned want[20] = {
      0x3c00u,      // set.lt.f16.f16 1.0, 2.0
      0u,           // set.gt.f16.f16 1.0, 2.0
      0xffffffffu,  // set.lt.u32.f16
      0xffffu,      // set.lt.u16.f16
      0x3c00u,      // set.nan.f16.f16 NaN, 1.0
      0x3c00u,      // set.gt.f16.f16 (smallest subnormal), 0
      0u,           // set.gt.ftz.f16.f16: the subnormal is 0
      0u,           // set.lt.and.f16.f16 ..., false
      0x3c00u,      // set.lt.or.f16.f16 2.0, 1.0, !false
      0x00003c00u,  // set.lt.f16x2.f16x2 {1.0, 3.0}, {2.0, 2.0}: low half only
      0x0000ffffu,  // set.lt.u32.f16x2
      0xffff0000u,  // set.gt.s32.f16x2: high half only
      0x00003f80u,  // set.lt.bf16x2.bf16x2 {1.0, 3.0}, {2.0, 2.0}
      0xffffffffu,  // set.lt.u32.bf16 1.0, 2.0
      0x3c00u,      // set.lt.f16.f32 1.0f, 2.0f
      0x3f80u,      // set.lt.bf16.f32
      0u,           // set.gt.bf16.f32
      0x3f800000u,  // set.lt.f32.f32
      0xffffffffu,  // set.lt.u32.s32 -1, 1
      0x0000ffffu,  // set.lt.and.u32.f16x2 ..., !false
  };
  // The H200 gave every value (tests/hw/data/h200/cdp_halfset/half_set_output.txt); for the 16-bit
  // destinations the low 16 bits: its ptxas dropped the cvt.u32.u16 after three of them (the upper
  // half then repeats the result), where the PTX ISA zero-extends, as warpscope does.
  const bool half_dst[20] = {1, 1, 0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0, 0};
  for (unsigned i = 0; i < 20; ++i) {
    EXPECT_EQ(got[i], want[i]) << "case " << i << std::hex << ": got 0x" << got[i];
    if (half_dst[i]) {
      EXPECT_EQ(got[i] >> 16, 0u) << "case " << i << ": cvt.u32.u16 zero-extends";
    }
  }
}

}  // namespace
}  // namespace warpscope::exec::test
