// Small hand-written PTX snippets -> exact IR.
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "ptx_test_util.hpp"

namespace warpscope::ptx {
namespace {

using test::load;
using test::load_kernel;
using test::only_instruction;
using test::text_of;

TEST(PtxIr, ModuleHeaderKernelAndParams) {
  Module m = load(
      ".visible .entry _Z1kPfi(\n"
      "  .param .u64 .ptr .global .align 16 _Z1kPfi_param_0,\n"
      "  .param .u32 _Z1kPfi_param_1,\n"
      "  .param .align 8 .b8 _Z1kPfi_param_2[24]\n"
      ")\n"
      ".maxntid 256, 1, 1\n"
      ".minnctapersm 2\n"
      "{\n"
      "  .reg .b32 %r<3>;\n"
      "  .reg .b64 %SP;\n"
      "  ret;\n"
      "}\n");
  EXPECT_EQ(m.version_major, 9u);
  EXPECT_EQ(m.version_minor, 0u);
  EXPECT_EQ(m.target, (std::vector<std::string>{"sm_90"}));
  EXPECT_EQ(m.address_size, 64u);
  ASSERT_EQ(m.functions.size(), 1u);
  const Function& f = m.functions[0];
  EXPECT_EQ(f.name, "_Z1kPfi");
  EXPECT_EQ(f.kind, FunctionKind::kEntry);
  EXPECT_EQ(f.linkage, Linkage::kVisible);
  EXPECT_FALSE(f.is_declaration);
  ASSERT_EQ(f.params.size(), 3u);
  EXPECT_EQ(f.params[0].type, Type::kU64);
  EXPECT_EQ(f.params[0].ptr_space, StateSpace::kGlobal);
  EXPECT_EQ(f.params[0].ptr_align, 16u);
  EXPECT_EQ(f.params[0].offset, 0u);
  EXPECT_EQ(f.params[1].size, 4u);
  EXPECT_EQ(f.params[1].offset, 8u);
  EXPECT_EQ(f.params[2].size, 24u);
  EXPECT_EQ(f.params[2].offset, 16u);
  EXPECT_EQ(f.param_bytes, 40u);
  EXPECT_EQ(f.maxntid, (std::array<std::uint32_t, 3>{256, 1, 1}));
  EXPECT_EQ(f.minnctapersm, 2u);
  ASSERT_EQ(f.registers.size(), 4u);
  EXPECT_EQ(f.registers[0].name, "%r0");
  EXPECT_EQ(f.registers[2].name, "%r2");
  EXPECT_EQ(f.registers[2].type, Type::kB32);
  EXPECT_EQ(f.registers[3].name, "%SP");
  EXPECT_EQ(f.registers[3].type, Type::kB64);
  EXPECT_EQ(f.find_register("%SP"), 3u);
  ASSERT_EQ(f.instructions.size(), 1u);
  EXPECT_EQ(f.instructions[0].op, Opcode::kRet);
  EXPECT_EQ(f.instructions[0].ptx, (PtxPos{14, 3}));
}

TEST(PtxIr, VectorLoadWithAllQualifiers) {
  Module m = load_kernel("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%f1, %f2, _, %f0}, [%rd1+16];");
  const Instruction& in = only_instruction(m);
  const Function& f = m.functions[0];
  EXPECT_EQ(in.op, Opcode::kLd);
  EXPECT_EQ(in.text, "ld.global.nc.L1::no_allocate.L2::256B.v4.f32");
  EXPECT_EQ(in.space, StateSpace::kGlobal);
  EXPECT_TRUE(in.non_coherent);
  EXPECT_EQ(in.l1_eviction, Eviction::kNoAllocate);
  EXPECT_EQ(in.l2_prefetch_bytes, 256u);
  EXPECT_EQ(in.vec, 4u);
  EXPECT_EQ(in.type, Type::kF32);
  ASSERT_EQ(in.operands.size(), 2u);
  const Operand& v = in.operands[0];
  EXPECT_EQ(v.kind, OperandKind::kVector);
  ASSERT_EQ(v.elements.size(), 4u);
  EXPECT_EQ(v.elements[0].kind, OperandKind::kReg);
  EXPECT_EQ(f.registers[v.elements[0].reg].name, "%f1");
  EXPECT_EQ(v.elements[2].kind, OperandKind::kSink);
  EXPECT_EQ(f.registers[v.elements[3].reg].name, "%f0");
  const Operand& a = in.operands[1];
  EXPECT_EQ(a.kind, OperandKind::kAddress);
  EXPECT_EQ(a.addr_base, AddressBase::kReg);
  EXPECT_EQ(f.registers[a.reg].name, "%rd1");
  EXPECT_EQ(a.offset, 16);
  EXPECT_EQ(a.pos, (PtxPos{9, 66}));
  EXPECT_EQ(text_of(m, 0, 0), "ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%f1, %f2, _, %f0}, [%rd1+16];");
}

TEST(PtxIr, MemoryOrderScopeCacheOperators) {
  Module m = load_kernel(
      "ld.volatile.shared.u32 %r1, [%rd1];\n"
      "ld.relaxed.gpu.global.b32 %r1, [%rd1];\n"
      "ld.acquire.sys.global.b64 %rd1, [%rd1+-8];\n"
      "ld.global.cg.f32 %f1, [%rd1];\n"
      "ld.global.L1::evict_last.L2::cache_hint.f32 %f1, [%rd1], %rd2;\n"
      "st.global.wt.v2.f32 [%rd1], {%f1, %f2};\n"
      "st.release.cta.shared::cta.u32 [%rd1], 7;\n"
      "ldu.global.f32 %f1, [%rd1];\n"
      "ld.local.u8 %rs1, [%rd1];\n"
      "ld.const.f32 %f1, [%rd1];\n"
      "ld.u32 %r1, [%rd1];\n"
      "ld.param.u64 %rd1, [k_p0];\n");
  const auto& in = m.functions[0].instructions;
  EXPECT_EQ(in[0].order, MemOrder::kVolatile);
  EXPECT_EQ(in[0].space, StateSpace::kShared);
  EXPECT_EQ(in[1].order, MemOrder::kRelaxed);
  EXPECT_EQ(in[1].scope, Scope::kGpu);
  EXPECT_EQ(in[2].order, MemOrder::kAcquire);
  EXPECT_EQ(in[2].scope, Scope::kSys);
  EXPECT_EQ(in[2].operands[1].offset, -8);
  EXPECT_EQ(in[3].cache, CacheOperator::kCg);
  EXPECT_EQ(in[4].l1_eviction, Eviction::kLast);
  EXPECT_TRUE(in[4].l2_cache_hint);
  EXPECT_EQ(in[4].operands.size(), 3u);
  EXPECT_EQ(in[5].op, Opcode::kSt);
  EXPECT_EQ(in[5].cache, CacheOperator::kWt);
  EXPECT_EQ(in[5].vec, 2u);
  EXPECT_EQ(in[5].operands[1].kind, OperandKind::kVector);
  EXPECT_EQ(in[6].order, MemOrder::kRelease);
  EXPECT_EQ(in[6].scope, Scope::kCta);
  EXPECT_EQ(in[6].space, StateSpace::kShared);
  EXPECT_EQ(in[6].operands[1].kind, OperandKind::kImm);
  EXPECT_EQ(in[7].op, Opcode::kLdu);
  EXPECT_EQ(in[8].space, StateSpace::kLocal);
  EXPECT_EQ(in[8].type, Type::kU8);
  EXPECT_EQ(in[9].space, StateSpace::kConst);
  EXPECT_EQ(in[10].space, StateSpace::kGeneric);
  EXPECT_EQ(in[11].space, StateSpace::kParam);
  EXPECT_EQ(in[11].operands[1].addr_base, AddressBase::kSymbol);
  EXPECT_EQ(in[11].operands[1].symbol, (SymbolRef{SymbolKind::kParam, 0}));
}

TEST(PtxIr, Immediates) {
  Module m = load_kernel(
      "mov.u32 %r1, 0x10;\n"
      "mov.s32 %r1, -5;\n"
      "mov.b32 %r1, 0b101;\n"
      "mov.b32 %r1, 017;\n"
      "mov.f32 %f1, 0f3F800000;\n"
      "mov.f64 %fd1, 0d3FF8000000000000;\n"
      "mov.f64 %fd1, 1.5;\n"
      "mov.f32 %f1, -0f3F800000;\n");
  const auto& in = m.functions[0].instructions;
  auto imm = [&](std::size_t i) { return in[i].operands[1]; };
  EXPECT_EQ(imm(0).kind, OperandKind::kImm);
  EXPECT_EQ(imm(0).imm_kind, ImmKind::kInt);
  EXPECT_EQ(imm(0).imm, 16u);
  EXPECT_EQ(static_cast<std::int64_t>(imm(1).imm), -5);
  EXPECT_EQ(imm(2).imm, 5u);
  EXPECT_EQ(imm(3).imm, 15u);
  EXPECT_EQ(imm(4).imm_kind, ImmKind::kF32);
  EXPECT_EQ(imm(4).imm, 0x3F800000u);
  EXPECT_EQ(imm(5).imm_kind, ImmKind::kF64);
  EXPECT_EQ(std::bit_cast<double>(imm(5).imm), 1.5);
  EXPECT_EQ(imm(6).imm_kind, ImmKind::kF64);
  EXPECT_EQ(std::bit_cast<double>(imm(6).imm), 1.5);
  EXPECT_EQ(imm(7).imm, 0xBF800000u);
  EXPECT_EQ(text_of(m, 0, 1), "mov.s32 %r1, -5;");
  EXPECT_EQ(text_of(m, 0, 4), "mov.f32 %f1, 0f3F800000;");
}

TEST(PtxIr, IntegerArithmeticModifiers) {
  Module m = load_kernel(
      "mul.wide.s32 %rd1, %r1, 4;\n"
      "mad.lo.cc.u32 %r1, %r2, %r3, %r4;\n"
      "madc.hi.cc.u32 %r1, %r2, %r3, %r4;\n"
      "addc.cc.u32 %r1, %r2, %r3;\n"
      "sub.cc.u32 %r1, %r2, %r3;\n"
      "mul24.lo.s32 %r1, %r2, %r3;\n"
      "bfind.shiftamt.u32 %r1, %r2;\n"
      "prmt.b32.f4e %r1, %r2, %r3, %r4;\n"
      "bfi.b32 %r1, %r2, %r3, 8, 4;\n"
      "shf.l.wrap.b32 %r1, %r2, %r3, %r4;\n"
      "lop3.b32 %r1, %r2, %r3, %r4, 0x96;\n"
      "dp4a.u32.s32 %r1, %r2, %r3, %r4;\n");
  const auto& in = m.functions[0].instructions;
  EXPECT_EQ(in[0].op, Opcode::kMul);
  EXPECT_EQ(in[0].mul, MulMode::kWide);
  EXPECT_EQ(in[0].type, Type::kS32);
  EXPECT_EQ(in[1].op, Opcode::kMad);
  EXPECT_EQ(in[1].mul, MulMode::kLo);
  EXPECT_TRUE(in[1].carry_out);
  EXPECT_EQ(in[2].op, Opcode::kMadc);
  EXPECT_EQ(in[2].mul, MulMode::kHi);
  EXPECT_EQ(in[3].op, Opcode::kAddc);
  EXPECT_TRUE(in[3].carry_out);
  EXPECT_EQ(in[4].op, Opcode::kSub);
  EXPECT_TRUE(in[4].carry_out);
  EXPECT_EQ(in[5].op, Opcode::kMul24);
  EXPECT_TRUE(in[6].shiftamt);
  EXPECT_EQ(in[7].prmt, PrmtMode::kF4e);
  EXPECT_EQ(in[8].operands.size(), 5u);
  EXPECT_TRUE(in[9].shf_left);
  EXPECT_FALSE(in[9].clamp);
  EXPECT_EQ(in[10].op, Opcode::kLop3);
  EXPECT_EQ(in[11].type, Type::kU32);
  EXPECT_EQ(in[11].src_type, Type::kS32);
}

TEST(PtxIr, FloatModifiersAndConversions) {
  Module m = load_kernel(
      "fma.rn.ftz.sat.f32 %f1, %f2, %f3, %f4;\n"
      "div.full.f32 %f1, %f2, %f3;\n"
      "div.rn.f64 %fd1, %fd2, %fd3;\n"
      "rcp.approx.ftz.f64 %fd1, %fd2;\n"
      "ex2.approx.ftz.f32 %f1, %f2;\n"
      "min.NaN.f32 %f1, %f2, %f3;\n"
      "testp.notanumber.f64 %p1, %fd1;\n"
      "cvt.rzi.s32.f32 %r1, %f1;\n"
      "cvt.rn.f32.s32 %f1, %r1;\n"
      "cvt.rn.f16x2.f32 %r1, %f1, %f2;\n"
      "cvt.f32.bf16 %f1, %rs1;\n"
      "cvt.sat.u8.s32 %rs1, %r1;\n"
      "cvt.rmi.f32.f32 %f1, %f2;\n"
      "copysign.f32 %f1, %f2, %f3;\n");
  const auto& in = m.functions[0].instructions;
  EXPECT_EQ(in[0].op, Opcode::kFma);
  EXPECT_EQ(in[0].rounding, Rounding::kRn);
  EXPECT_TRUE(in[0].ftz);
  EXPECT_TRUE(in[0].sat);
  EXPECT_TRUE(in[1].full);
  EXPECT_EQ(in[2].rounding, Rounding::kRn);
  EXPECT_TRUE(in[3].approx);
  EXPECT_TRUE(in[3].ftz);
  EXPECT_EQ(in[4].op, Opcode::kEx2);
  EXPECT_TRUE(in[5].nan);
  EXPECT_EQ(in[6].testp, TestpOp::kNotANumber);
  EXPECT_EQ(in[7].rounding, Rounding::kRzi);
  EXPECT_EQ(in[7].type, Type::kS32);
  EXPECT_EQ(in[7].src_type, Type::kF32);
  EXPECT_EQ(in[8].rounding, Rounding::kRn);
  EXPECT_EQ(in[9].type, Type::kF16x2);
  EXPECT_EQ(in[9].operands.size(), 3u);
  EXPECT_EQ(in[10].src_type, Type::kBF16);
  EXPECT_TRUE(in[11].sat);
  EXPECT_EQ(in[12].rounding, Rounding::kRmi);
  EXPECT_EQ(in[13].op, Opcode::kCopysign);
}

TEST(PtxIr, SetpWithCombiningAndTwoDestinations) {
  Module m = load_kernel(
      "setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p0;\n"
      "setp.gtu.f32 %p1, %f1, %f2;\n"
      "setp.num.f64 %p1, %fd1, %fd2;\n"
      "selp.b32 %r1, 1, 0, %p1;\n"
      "set.lt.u32.f32 %r1, %f1, %f2;\n"
      "and.pred %p1, %p2, %p3;\n"
      "not.pred %p1, %p2;\n");
  const Function& f = m.functions[0];
  const auto& in = f.instructions;
  EXPECT_EQ(in[0].cmp, CmpOp::kLt);
  EXPECT_EQ(in[0].bool_op, BoolOp::kAnd);
  EXPECT_EQ(in[0].dest2.kind, OperandKind::kReg);
  EXPECT_EQ(f.registers[in[0].dest2.reg].name, "%p2");
  EXPECT_TRUE(in[0].operands[3].negate);
  EXPECT_EQ(text_of(m, 0, 0), "setp.lt.and.s32 %p1|%p2, %r1, %r2, !%p0;");
  EXPECT_EQ(in[1].cmp, CmpOp::kGtu);
  EXPECT_EQ(in[2].cmp, CmpOp::kNum);
  EXPECT_EQ(in[3].op, Opcode::kSelp);
  EXPECT_EQ(in[4].type, Type::kU32);
  EXPECT_EQ(in[4].src_type, Type::kF32);
  EXPECT_EQ(in[5].type, Type::kPred);
}

// The PTX ISA's sink `_` as the first of a pair of destinations: `elect.sync _|p, mask` (CCCL 3.0
// emits it in every thrust::transform), `setp _|p` (the second destination alone).
TEST(PtxIr, ASinkAsTheFirstOfTwoDestinations) {
  Module m = load_kernel(
      "elect.sync _|%p1, -1;\n"
      "setp.lt.and.s32 _|%p2, %r1, %r2, %p0;\n");
  const Function& f = m.functions[0];
  const auto& in = f.instructions;
  EXPECT_EQ(in[0].op, Opcode::kElect);
  EXPECT_EQ(in[0].operands[0].kind, OperandKind::kSink);
  EXPECT_EQ(in[0].dest2.kind, OperandKind::kReg);
  EXPECT_EQ(f.registers[in[0].dest2.reg].name, "%p1");
  EXPECT_EQ(in[1].operands[0].kind, OperandKind::kSink);
  EXPECT_EQ(f.registers[in[1].dest2.reg].name, "%p2");
}

TEST(PtxIr, BranchesLabelsAndGuards) {
  Module m = load_kernel(
      "@!%p1 bra $L__BB0_2;\n"
      "bra.uni $L__BB0_1;\n"
      "$L__BB0_1:\n"
      "add.s32 %r1, %r1, 1;\n"
      "$L__BB0_2:\n"
      "@%p2 ret;\n");
  const Function& f = m.functions[0];
  ASSERT_EQ(f.instructions.size(), 4u);
  const Instruction& b = f.instructions[0];
  ASSERT_TRUE(b.guard.has_value());
  EXPECT_TRUE(b.guard->negated);
  EXPECT_EQ(f.registers[b.guard->reg].name, "%p1");
  EXPECT_EQ(b.operands[0].kind, OperandKind::kLabel);
  EXPECT_EQ(b.operands[0].target, 3u);
  EXPECT_EQ(f.labels[b.operands[0].label].name, "$L__BB0_2");
  EXPECT_TRUE(f.instructions[1].uni);
  EXPECT_EQ(f.instructions[1].operands[0].target, 2u);
  EXPECT_EQ(f.find_label("$L__BB0_1"), f.instructions[1].operands[0].label);
  EXPECT_EQ(f.labels[f.find_label("$L__BB0_1")].target, 2u);
  EXPECT_FALSE(f.instructions[3].guard->negated);
  EXPECT_EQ(text_of(m, 0, 0), "@!%p1 bra $L__BB0_2;");
}

TEST(PtxIr, CallSequenceWithNestedScopesAndReturnValues) {
  Module m = load(
      ".extern .func (.param .b32 func_retval0) vprintf\n"
      "(\n  .param .b64 vprintf_param_0,\n  .param .b64 vprintf_param_1\n)\n;\n"
      ".func (.param .b32 func_retval0) f(.param .b32 f_param_0) .noreturn\n"
      "{\n .reg .b32 %r<2>;\n ld.param.b32 %r1, [f_param_0];\n st.param.b32 [func_retval0+0], %r1;\n ret;\n}\n"
      ".visible .entry k()\n{\n .reg .b32 %r<3>; .reg .b64 %rd<2>;\n"
      " { // callseq 0, 0\n"
      " .reg .b32 temp_param_reg;\n"
      " .param .b32 param0;\n"
      " st.param.b32 [param0+0], %r1;\n"
      " .param .b32 retval0;\n"
      " call.uni (retval0), \n f, \n (\n param0\n );\n"
      " ld.param.b32 %r2, [retval0+0];\n"
      " } // callseq 0\n"
      " { .param .b64 param0; .param .b64 param1;\n"
      "   .param .b32 retval0;\n"
      "   call.uni (retval0), vprintf, (param0, param1);\n"
      " }\n"
      " ret;\n}\n");
  ASSERT_EQ(m.functions.size(), 3u);
  const Function& vp = m.functions[0];
  EXPECT_TRUE(vp.is_declaration);
  EXPECT_EQ(vp.linkage, Linkage::kExtern);
  EXPECT_EQ(vp.returns.size(), 1u);
  EXPECT_EQ(vp.params.size(), 2u);
  const Function& f = m.functions[1];
  EXPECT_EQ(f.kind, FunctionKind::kFunc);
  EXPECT_TRUE(f.noreturn);
  EXPECT_EQ(f.instructions[1].operands[0].symbol, (SymbolRef{SymbolKind::kReturn, 0}));
  const Function& k = m.functions[2];
  ASSERT_EQ(k.instructions.size(), 5u);
  const Instruction& call = k.instructions[1];
  EXPECT_EQ(call.op, Opcode::kCall);
  EXPECT_TRUE(call.uni);
  EXPECT_EQ(call.operands[0].symbol, (SymbolRef{SymbolKind::kFunction, 1}));
  ASSERT_EQ(call.call_results.size(), 1u);
  ASSERT_EQ(call.call_args.size(), 1u);
  EXPECT_EQ(call.call_args[0].kind, OperandKind::kSymbol);
  EXPECT_EQ(k.variables[call.call_args[0].symbol.index].name, "param0");
  EXPECT_EQ(k.variables[call.call_args[0].symbol.index].scope, 1u);
  EXPECT_EQ(k.variables[call.call_results[0].symbol.index].name, "retval0");
  const Register& temp = k.registers[k.find_register("temp_param_reg")];
  EXPECT_EQ(temp.scope, 1u);
  // The second call sequence's param0 is a different variable than the first one's.
  const Instruction& call2 = k.instructions[3];
  EXPECT_EQ(call2.operands[0].symbol, (SymbolRef{SymbolKind::kFunction, 0}));
  EXPECT_EQ(call2.call_results.size(), 1u);
  EXPECT_NE(call2.call_args[0].symbol.index, call.call_args[0].symbol.index);
  EXPECT_EQ(text_of(m, 2, 1), "call.uni (retval0), f, (param0);");
}

TEST(PtxIr, InlineAsmScopesShadowAndUnpack) {
  Module m = load_kernel(
      "{.reg .f16 low,high;\n"
      " mov.b32 {low,high}, %r1;\n"
      " mov.b16 %rs3, low;}\n"
      "{.reg .f16 low,high;\n"
      " mov.b32 {low,high}, %r2;}\n"
      "mov.b64 %rd1, {%r1, %r2};\n");
  const Function& f = m.functions[0];
  const auto& in = f.instructions;
  ASSERT_EQ(in.size(), 4u);
  EXPECT_EQ(in[0].operands[0].kind, OperandKind::kVector);
  RegId low1 = in[0].operands[0].elements[0].reg;
  RegId low2 = in[2].operands[0].elements[0].reg;
  EXPECT_EQ(f.registers[low1].name, "low");
  EXPECT_EQ(f.registers[low1].type, Type::kF16);
  EXPECT_NE(low1, low2);
  EXPECT_EQ(in[1].operands[1].reg, low1);
  EXPECT_EQ(in[3].operands[1].kind, OperandKind::kVector);
  EXPECT_EQ(text_of(m, 0, 3), "mov.b64 %rd1, {%r1, %r2};");
}

TEST(PtxIr, SpecialRegistersAndSymbolAddresses) {
  Module m = load(
      ".global .align 1 .b8 $str[3] = {104, 105, 0};\n"
      ".visible .entry k()\n{\n"
      " .local .align 16 .b8 __local_depot0[32];\n"
      " .reg .b64 %SP; .reg .b64 %SPL; .reg .b32 %r<9>; .reg .b64 %rd<4>;\n"
      " mov.u64 %SPL, __local_depot0;\n"
      " cvta.local.u64 %SP, %SPL;\n"
      " mov.u32 %r1, %tid.y;\n"
      " mov.u32 %r2, %lanemask_lt;\n"
      " mov.u64 %rd1, %clock64;\n"
      " mov.u32 %r3, %dynamic_smem_size;\n"
      " mov.u32 %r4, %nctaid.z;\n"
      " mov.u64 %rd2, $str;\n"
      " cvta.global.u64 %rd3, %rd2;\n"
      " ret;\n}\n");
  const Function& f = m.functions[0];
  const auto& in = f.instructions;
  EXPECT_EQ(f.variables.size(), 1u);
  EXPECT_EQ(f.variables[0].space, StateSpace::kLocal);
  EXPECT_EQ(f.variables[0].size, 32u);
  EXPECT_EQ(f.variables[0].align, 16u);
  EXPECT_EQ(in[0].operands[1].kind, OperandKind::kSymbol);
  EXPECT_EQ(in[0].operands[1].symbol, (SymbolRef{SymbolKind::kFunctionVar, 0}));
  EXPECT_EQ(in[1].op, Opcode::kCvta);
  EXPECT_EQ(in[1].space, StateSpace::kLocal);
  EXPECT_FALSE(in[1].to_space);
  EXPECT_EQ(in[2].operands[1].kind, OperandKind::kSpecial);
  EXPECT_EQ(in[2].operands[1].sreg, SpecialReg::kTid);
  EXPECT_EQ(in[2].operands[1].component, 1u);
  EXPECT_EQ(in[3].operands[1].sreg, SpecialReg::kLanemaskLt);
  EXPECT_EQ(in[4].operands[1].sreg, SpecialReg::kClock64);
  EXPECT_EQ(in[5].operands[1].sreg, SpecialReg::kDynamicSmemSize);
  EXPECT_EQ(in[6].operands[1].sreg, SpecialReg::kNctaid);
  EXPECT_EQ(in[6].operands[1].component, 2u);
  EXPECT_EQ(in[7].operands[1].symbol, (SymbolRef{SymbolKind::kModuleVar, 0}));
  EXPECT_EQ(text_of(m, 0, 2), "mov.u32 %r1, %tid.y;");
  EXPECT_EQ(text_of(m, 0, 7), "mov.u64 %rd2, $str;");
}

TEST(PtxIr, ModuleVariablesAndInitializers) {
  Module m = load(
      ".global .align 4 .b8 data[6] = {1, 2, 3};\n"
      ".const .align 4 .f32 c[3] = {0f3F800000, 2.0, 3};\n"
      ".global .align 8 .u64 ptr = generic(data)+2;\n"
      ".global .align 8 .u64 table[2] = {data, c};\n"
      ".extern .shared .align 16 .b8 dyn[];\n"
      ".shared .align 4 .b8 buf[1024];\n"
      ".visible .global .u32 x;\n"
      ".weak .global .align 4 .u32 w = -1;\n"
      ".global .align 1 .b8 s[] = {97, 0};\n"
      ".global .align 4 .u32 m2[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
      ".global .attribute(.managed) .align 4 .u32 managed;\n");
  ASSERT_EQ(m.variables.size(), 11u);
  const Variable& data = m.variables[0];
  EXPECT_EQ(data.space, StateSpace::kGlobal);
  EXPECT_EQ(data.size, 6u);
  EXPECT_EQ(data.init, (std::vector<std::uint8_t>{1, 2, 3, 0, 0, 0}));
  const Variable& c = m.variables[1];
  EXPECT_EQ(c.space, StateSpace::kConst);
  float fl[3];
  ASSERT_EQ(c.init.size(), 12u);
  std::memcpy(fl, c.init.data(), 12);
  EXPECT_EQ(fl[0], 1.0f);
  EXPECT_EQ(fl[1], 2.0f);
  EXPECT_EQ(fl[2], 3.0f);
  const Variable& ptr = m.variables[2];
  ASSERT_EQ(ptr.relocations.size(), 1u);
  EXPECT_TRUE(ptr.relocations[0].generic);
  EXPECT_EQ(ptr.relocations[0].addend, 2);
  EXPECT_EQ(ptr.relocations[0].symbol, (SymbolRef{SymbolKind::kModuleVar, 0}));
  const Variable& table = m.variables[3];
  ASSERT_EQ(table.relocations.size(), 2u);
  EXPECT_EQ(table.relocations[1].offset, 8u);
  EXPECT_FALSE(table.relocations[1].generic);
  const Variable& dyn = m.variables[4];
  EXPECT_TRUE(dyn.unsized);
  EXPECT_EQ(dyn.size, 0u);
  EXPECT_EQ(dyn.linkage, Linkage::kExtern);
  EXPECT_EQ(dyn.space, StateSpace::kShared);
  EXPECT_EQ(m.variables[5].size, 1024u);
  EXPECT_FALSE(m.variables[6].has_init);
  EXPECT_EQ(m.variables[6].linkage, Linkage::kVisible);
  EXPECT_EQ(m.variables[7].init, (std::vector<std::uint8_t>{0xff, 0xff, 0xff, 0xff}));
  EXPECT_EQ(m.variables[8].size, 2u);
  EXPECT_EQ(m.variables[9].size, 24u);
  EXPECT_EQ(m.variables[9].init[20], 6u);
  EXPECT_EQ(m.find_variable("managed")->size, 4u);
}

TEST(PtxIr, SourceLocationsFilesAndInlinedAt) {
  Module m = load(
      ".visible .entry k()\n{\n .reg .b32 %r<3>;\n"
      " .loc 1 9 3\n"
      " mov.u32 %r1, 1;\n"
      " .loc 1 4 3, function_name $L__info_string0, inlined_at 1 9 3\n"
      " mov.u32 %r1, 2;\n"
      " .loc 2 1 73, function_name $L__info_string1, inlined_at 1 4 3\n"
      " mov.u32 %r1, 3;\n"
      " ret;\n}\n"
      ".file 2 \"/inc/b.h\"\n"
      ".file 1 \"/src/a.cu\", 1700000000, 1234\n"
      ".section .debug_str\n{\n"
      "$L__info_string0:\n.b8 109,105,100,0\n"
      "$L__info_string1:\n.b8 105,110\n.b8 0\n"
      "}\n"
      ".section .debug_info\n{\n.b32 42\n.b8 1 // c\n$L__x:\n.b64 $L__info_string0\n{ }\n}\n");
  ASSERT_EQ(m.files.size(), 2u);
  EXPECT_EQ(m.files[0].number, 1u);
  EXPECT_EQ(m.files[0].path, "/src/a.cu");
  EXPECT_EQ(m.files[0].timestamp, 1700000000u);
  EXPECT_EQ(m.files[0].size, 1234u);
  const auto& in = m.functions[0].instructions;
  EXPECT_EQ(m.file_path(in[0].loc), "/src/a.cu");
  EXPECT_EQ(in[0].loc.line, 9u);
  EXPECT_EQ(in[0].loc.column, 3u);
  EXPECT_EQ(in[0].loc.inlined_at, kNone32);
  EXPECT_EQ(m.describe(in[0].loc), "/src/a.cu:9:3");
  ASSERT_EQ(m.inline_sites.size(), 2u);
  // Instruction 1: line 4 of a.cu, inlined from `mid` at a.cu:9.
  EXPECT_EQ(in[1].loc.line, 4u);
  const InlineSite& s1 = m.inline_sites[in[1].loc.inlined_at];
  EXPECT_EQ(s1.callee, "mid");
  EXPECT_EQ(s1.callee_label, "$L__info_string0");
  EXPECT_EQ(s1.call_site.line, 9u);
  EXPECT_EQ(s1.call_site.inlined_at, kNone32);
  // Instruction 2: b.h:1, inlined into mid at a.cu:4, which was inlined at a.cu:9.
  EXPECT_EQ(m.file_path(in[2].loc), "/inc/b.h");
  const InlineSite& s2 = m.inline_sites[in[2].loc.inlined_at];
  EXPECT_EQ(s2.callee, "in");
  EXPECT_EQ(s2.call_site.line, 4u);
  EXPECT_EQ(s2.call_site.inlined_at, in[1].loc.inlined_at);
  EXPECT_EQ(m.outermost(in[2].loc), in[0].loc);
  EXPECT_EQ(m.functions[0].loc, in[0].loc);
  // ret keeps the last .loc
  EXPECT_EQ(in[3].loc, in[2].loc);
}

TEST(PtxIr, SynchronisationWarpAndAtomics) {
  Module m = load_kernel(
      "bar.sync 0;\n"
      "barrier.sync.aligned 1, 64;\n"
      "bar.arrive 2, 128;\n"
      "bar.red.popc.u32 %r1, 0, %p1;\n"
      "bar.red.and.pred %p1, 0, !%p2;\n"
      "bar.warp.sync -1;\n"
      "membar.gl;\n"
      "membar.cta;\n"
      "fence.acq_rel.gpu;\n"
      "fence.sc.sys;\n"
      "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;\n"
      "shfl.sync.idx.b32 %r1, %r2, %r3, 31, %r4;\n"
      "vote.sync.ballot.b32 %r1, %p1, -1;\n"
      "vote.sync.all.pred %p1, !%p2, -1;\n"
      "vote.sync.uni.pred %p1, %p2, -1;\n"
      "activemask.b32 %r1;\n"
      "match.any.sync.b64 %r1, %rd1, -1;\n"
      "match.all.sync.b32 %r1|%p1, %r2, -1;\n"
      "redux.sync.min.s32 %r1, %r2, -1;\n"
      "atom.global.cas.b32 %r1, [%rd1], %r2, %r3;\n"
      "atom.shared.add.u32 %r1, [%rd1], 1;\n"
      "atom.relaxed.gpu.global.add.f64 %fd1, [%rd1], %fd2;\n"
      "atom.add.noftz.f16 %rs1, [%rd1], %rs2;\n"
      "atom.global.exch.b64 %rd1, [%rd1+8], %rd2;\n"
      "red.global.add.u32 [%rd1], 1;\n"
      "red.release.sys.shared.max.s32 [%rd1], %r1;\n"
      "nanosleep.u32 100;\n"
      "prefetch.global.L2 [%rd1];\n"
      "prefetchu.L1 [%rd1];\n"
      "trap;\nbrkpt;\nexit;\n");
  const auto& in = m.functions[0].instructions;
  EXPECT_EQ(in[0].op, Opcode::kBarSync);
  EXPECT_TRUE(in[0].aligned);
  EXPECT_EQ(in[1].op, Opcode::kBarSync);
  EXPECT_EQ(in[1].operands.size(), 2u);
  EXPECT_EQ(in[2].op, Opcode::kBarArrive);
  EXPECT_EQ(in[3].reduce, ReduceOp::kPopc);
  EXPECT_EQ(in[4].reduce, ReduceOp::kAnd);
  EXPECT_TRUE(in[4].operands[2].negate);
  EXPECT_EQ(in[5].op, Opcode::kBarWarpSync);
  EXPECT_EQ(in[6].op, Opcode::kMembar);
  EXPECT_EQ(in[6].scope, Scope::kGpu);
  EXPECT_EQ(in[7].scope, Scope::kCta);
  EXPECT_EQ(in[8].order, MemOrder::kAcqRel);
  EXPECT_EQ(in[9].order, MemOrder::kSc);
  EXPECT_EQ(in[9].scope, Scope::kSys);
  EXPECT_EQ(in[10].shfl, ShflMode::kBfly);
  EXPECT_TRUE(in[10].sync);
  EXPECT_EQ(in[10].dest2.kind, OperandKind::kReg);
  EXPECT_EQ(in[11].dest2.kind, OperandKind::kNone);
  EXPECT_EQ(in[12].vote, VoteMode::kBallot);
  EXPECT_EQ(in[13].vote, VoteMode::kAll);
  EXPECT_EQ(in[14].vote, VoteMode::kUni);
  EXPECT_EQ(in[15].op, Opcode::kActivemask);
  EXPECT_EQ(in[16].vote, VoteMode::kAny);
  EXPECT_EQ(in[17].vote, VoteMode::kAll);
  EXPECT_EQ(in[17].dest2.kind, OperandKind::kReg);
  EXPECT_EQ(in[18].reduce, ReduceOp::kMin);
  EXPECT_EQ(in[18].type, Type::kS32);
  EXPECT_EQ(in[19].reduce, ReduceOp::kCas);
  EXPECT_EQ(in[19].operands.size(), 4u);
  EXPECT_EQ(in[20].space, StateSpace::kShared);
  EXPECT_EQ(in[21].order, MemOrder::kRelaxed);
  EXPECT_EQ(in[21].scope, Scope::kGpu);
  EXPECT_EQ(in[21].type, Type::kF64);
  EXPECT_TRUE(in[22].noftz);
  EXPECT_EQ(in[22].space, StateSpace::kGeneric);
  EXPECT_EQ(in[23].reduce, ReduceOp::kExch);
  EXPECT_EQ(in[24].op, Opcode::kRed);
  EXPECT_EQ(in[25].order, MemOrder::kRelease);
  EXPECT_EQ(in[25].reduce, ReduceOp::kMax);
  EXPECT_EQ(in[26].op, Opcode::kNanosleep);
  EXPECT_EQ(in[27].level, CacheLevel::kL2);
  EXPECT_EQ(in[28].op, Opcode::kPrefetchu);
  EXPECT_EQ(in[29].op, Opcode::kTrap);
  EXPECT_EQ(in[30].op, Opcode::kBrkpt);
  EXPECT_EQ(in[31].op, Opcode::kExit);
}

TEST(PtxIr, PragmasDirectivesAndWeakFunctions) {
  Module m = load(
      ".weak .func g(.reg .b32 a)\n{\n .pragma \"nounroll\";\n add.s32 a, a, 1;\n ret;\n}\n"
      ".entry k .reqntid 128 .maxnreg 32 .explicitcluster .reqnctapercluster 2, 1, 1\n{\n"
      " exit;\n}\n");
  const Function& g = m.functions[0];
  EXPECT_EQ(g.linkage, Linkage::kWeak);
  EXPECT_EQ(g.params[0].space, StateSpace::kReg);
  EXPECT_EQ(g.registers[g.params[0].reg].name, "a");
  EXPECT_EQ(g.pragmas, (std::vector<std::string>{"nounroll"}));
  const Function& k = m.functions[1];
  EXPECT_EQ(k.linkage, Linkage::kInternal);
  EXPECT_EQ(k.reqntid, (std::array<std::uint32_t, 3>{128, 1, 1}));
  EXPECT_EQ(k.maxnreg, 32u);
  EXPECT_TRUE(k.explicitcluster);
  EXPECT_EQ(k.reqnctapercluster, (std::array<std::uint32_t, 3>{2, 1, 1}));
}

TEST(PtxIr, TypeHelpers) {
  EXPECT_EQ(type_bytes(Type::kF16x2), 4u);
  EXPECT_EQ(type_bytes(Type::kB128), 16u);
  EXPECT_EQ(type_bits(Type::kPred), 1u);
  EXPECT_TRUE(is_signed_int(Type::kS8));
  EXPECT_TRUE(is_unsigned_int(Type::kU64));
  EXPECT_TRUE(is_bits(Type::kB16));
  EXPECT_TRUE(is_float(Type::kBF16));
  EXPECT_FALSE(is_float(Type::kU32));
  EXPECT_EQ(to_string(Type::kBF16x2), "bf16x2");
  EXPECT_EQ(to_string(Opcode::kBarWarpSync), "bar.warp.sync");
  EXPECT_EQ(to_string(CmpOp::kGeu), "geu");
  EXPECT_EQ(to_string(SpecialReg::kLanemaskGe), "lanemask_ge");
}

}  // namespace
}  // namespace warpscope::ptx
