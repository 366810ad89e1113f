// The front end's matrix instructions (src/ptx/mma.hpp): the qualifiers as the IR keeps them,
// the forms sm_90 has, and the messages for the ones it does not or for operands that do not fit.
#include <gtest/gtest.h>

#include <string>

#include "ptx/mma.hpp"
#include "ptx/ptx.hpp"
#include "warpscope/error.hpp"

namespace {

using namespace warpscope;
using warpscope::ptx::MmaType;
using warpscope::ptx::Opcode;

std::string kernel(const std::string& body) {
  return ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
         "  .reg .b32 %r<40>;\n  .reg .f32 %f<20>;\n  .reg .f64 %fd<20>;\n  .reg .b64 %rd<4>;\n"
         "  ld.param.u64 %rd1, [p];\n" +
         body + "\n  ret;\n}\n";
}

const ptx::Instruction& second(const ptx::Module& m) { return m.functions[0].instructions[1]; }

std::string error_of(const std::string& body, ErrorKind kind) {
  try {
    ptx::load_module(kernel(body), "t.ptx");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error for: " << body;
  return "";
}

TEST(PtxMma, WmmaLoadQualifiers) {
  const auto m = ptx::load_module(
      kernel("wmma.load.a.sync.aligned.row.m16n16k16.shared.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1], %r9;"),
      "t.ptx");
  const auto& in = second(m);
  EXPECT_EQ(in.op, Opcode::kWmmaLoad);
  EXPECT_EQ(in.mma.matrix, 'a');
  EXPECT_EQ(in.mma.m, 16);
  EXPECT_EQ(in.mma.n, 16);
  EXPECT_EQ(in.mma.k, 16);
  EXPECT_FALSE(in.mma.a_col);
  EXPECT_EQ(in.mma.types[0], MmaType::kF16);
  EXPECT_EQ(in.space, ptx::StateSpace::kShared);
  EXPECT_TRUE(in.sync);
  EXPECT_TRUE(in.aligned);
  // Qualifiers in another order, as the PTX ISA's examples write them.
  ptx::load_module(kernel("wmma.load.b.sync.aligned.m16n16k16.row.f16 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];"),
                   "t.ptx");
}

TEST(PtxMma, MmaAndBitQualifiers) {
  const auto m = ptx::load_module(
      kernel("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, "
             "{%r9, %r10}, {%r11, %r12, %r13, %r14};"),
      "t.ptx");
  const auto& in = second(m);
  EXPECT_EQ(in.op, Opcode::kMma);
  EXPECT_EQ(in.mma.bitop, 2);
  EXPECT_EQ(in.mma.ntypes, 4);
  EXPECT_EQ(in.mma.types[1], MmaType::kB1);
  const auto f = ptx::mma_form(in, "t.ptx");
  EXPECT_EQ(f.regs[0], 4);
  EXPECT_EQ(f.regs[1], 4);
  EXPECT_EQ(f.regs[2], 2);
}

TEST(PtxMma, FormsOfSm90) {
  const char* ok[] = {
      "mma.sync.aligned.m8n8k4.row.col.rz.f64.f64.f64.f64 {%fd1, %fd2}, {%fd3}, {%fd4}, {%fd5, %fd6};",
      "mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%fd1, %fd2, %fd3, %fd4}, {%fd5, %fd6, %fd7, %fd8, %fd9, %fd10, "
      "%fd11, %fd12}, {%fd13, %fd14, %fd15, %fd16}, {%fd1, %fd2, %fd3, %fd4};",
      "mma.sync.aligned.m8n8k4.col.row.f32.f16.f16.f16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2}, {%r3, %r4}, "
      "{%r5, %r6, %r7, %r8};",
      "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32 {%r1, %r2, %r3, %r4}, {%r5, %r6, %r7, %r8}, {%r9, %r10}, "
      "{%r1, %r2, %r3, %r4};",
      "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, "
      "{%f5, %f6, %f7, %f8};",
      "ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r1, %r2, %r3, %r4}, [%rd1];",
      "stmatrix.sync.aligned.m8n8.x1.shared.b16 [%rd1], {%r1};",
      "movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;",
      "wmma.mma.sync.aligned.row.col.m16n16k16.f32.f16 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, {%r1, %r2, %r3, %r4, "
      "%r5, %r6, %r7, %r8}, {%r9, %r10, %r11, %r12, %r13, %r14, %r15, %r16}, {%r17, %r18, %r19, %r20};",
      "wmma.mma.xor.popc.sync.aligned.row.col.m8n8k128.s32.b1.b1.s32 {%r1, %r2}, {%r3}, {%r4}, {%r5, %r6};",
      "wmma.store.d.sync.aligned.col.m8n8k4.global.f64 [%rd1], {%fd1, %fd2}, %r1;",
  };
  for (const char* body : ok) EXPECT_NO_THROW(ptx::load_module(kernel(body), "t.ptx")) << body;
}

TEST(PtxMma, RefusedFormsSayWhy) {
  std::string msg = error_of("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1, %r2}, [%rd1];", ErrorKind::kUnsupported);
  EXPECT_NE(msg.find("sm_100a"), std::string::npos) << msg;
  msg = error_of("mma.sync.aligned.m16n8k16.row.row.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, "
                 "{%r5, %r6}, {%f5, %f6, %f7, %f8};",
                 ErrorKind::kUnsupported);
  EXPECT_NE(msg.find(".row.col"), std::string::npos) << msg;
  msg = error_of("wmma.load.a.sync.aligned.col.m8n8k32.s4 {%r1}, [%rd1];", ErrorKind::kUnsupported);
  EXPECT_NE(msg.find("sub-byte"), std::string::npos) << msg;
  msg = error_of("mma.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, "
                 "{%f5, %f6, %f7, %f8};",
                 ErrorKind::kUnsupported);
  EXPECT_NE(msg.find(".sync.aligned"), std::string::npos) << msg;
  msg = error_of("mma.sync.aligned.m16n8k32.row.col.kind::f8f6f4.f32.e2m1.e2m1.f32 {%f1, %f2, %f3, %f4}, "
                 "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};",
                 ErrorKind::kUnsupported);
  EXPECT_NE(msg.find("kind::f8f6f4"), std::string::npos) << msg;
}

TEST(PtxMma, FragmentsMustHoldTheFormsRegisters) {
  std::string msg = error_of("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3}, "
                             "{%r5, %r6}, {%f5, %f6, %f7, %f8};",
                             ErrorKind::kParse);
  EXPECT_NE(msg.find("second fragment"), std::string::npos) << msg;
  EXPECT_NE(msg.find("holds 4 registers, found 3"), std::string::npos) << msg;
  msg = error_of("wmma.load.c.sync.aligned.row.m8n8k4.f64 {%r1, %r2}, [%rd1];", ErrorKind::kParse);
  EXPECT_NE(msg.find("64-bit registers"), std::string::npos) << msg;
}

}  // namespace
