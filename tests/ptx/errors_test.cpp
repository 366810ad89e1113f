// Every error names origin, line and column; unknown instructions are kUnsupported.
#include <gtest/gtest.h>

#include <string>

#include "ptx_test_util.hpp"

namespace warpscope::ptx {
namespace {

using test::error_of;
using test::kernel_error;
using test::kHeader;

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

TEST(PtxErrors, SyntaxErrorNamesLineAndColumn) {
  // Body line 9: missing comma before the address.
  std::string msg = kernel_error("ld.global.f32 %f1 [%rd1];");
  EXPECT_CONTAINS(msg, "test.ptx:9:19:");
  EXPECT_CONTAINS(msg, "expected ',' or ';'");
  msg = kernel_error("add.s32 %r1, %r2, %r3;\n  mov.u32 %r1 %r2;");
  EXPECT_CONTAINS(msg, "test.ptx:10:15:");
  msg = error_of(".version 9.0\n.target sm_90\n.address_size 64\n.entry k(\n.param .u32 a\n{\nret;\n}\n",
                 ErrorKind::kParse);
  EXPECT_CONTAINS(msg, "test.ptx:6:1:");
  msg = error_of(".version 9.0\n.target sm_90\n.address_size 64\n.entry k()\n{\n  ret;\n", ErrorKind::kParse);
  EXPECT_CONTAINS(msg, "unterminated function body");
  msg = error_of(std::string(kHeader) + "$\x01", ErrorKind::kParse);
  EXPECT_CONTAINS(msg, "test.ptx:4:2:");
  msg = error_of(std::string(kHeader) + ".bogus 1;\n", ErrorKind::kParse);
  EXPECT_CONTAINS(msg, "test.ptx:4:1: unexpected directive '.bogus'");
}

TEST(PtxErrors, UnknownOpcodeIsUnsupportedWithNameAndLine) {
  std::string msg = kernel_error("add.s32 %r1, %r1, 1;\nfrobnicate.b32 %r1, %r2;", ErrorKind::kUnsupported);
  EXPECT_CONTAINS(msg, "frobnicate.b32");
  EXPECT_CONTAINS(msg, "line 10");
  EXPECT_CONTAINS(msg, "test.ptx:10:1:");
  msg = kernel_error("tex.2dms.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %r2, %r3, %r4}];", ErrorKind::kUnsupported);
  EXPECT_CONTAINS(msg, "multisample textures are not supported");
  // Sparse mma (mma.sp) is not implemented; wmma/mma are (tests/tensor).
  msg = kernel_error("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2}, {%r3}, "
                     "{%f1, %f2, %f3, %f4}, %r4, 0x0;",
                     ErrorKind::kUnsupported);
  EXPECT_CONTAINS(msg, "'.sp'");
  // An opcode the decoder does not know is refused by name (multicast memory is not modelled).
  msg = kernel_error("multimem.ld_reduce.global.add.u32 %r1, [%rd1];", ErrorKind::kUnsupported);
  EXPECT_CONTAINS(msg, "unsupported PTX instruction 'multimem.ld_reduce.global.add.u32' (line 9)");
}

TEST(PtxErrors, CachePolicyFormsAreTheIsas) {
  // createpolicy: a form, .b64, a primary priority; the secondary is evict_first or evict_unchanged.
  EXPECT_CONTAINS(kernel_error("createpolicy.L2::evict_last.b64 %rd1;", ErrorKind::kUnsupported),
                  "createpolicy needs .fractional, .range or .cvt");
  EXPECT_CONTAINS(kernel_error("createpolicy.fractional.L2::evict_last.b32 %r1;", ErrorKind::kUnsupported),
                  "createpolicy needs .b64");
  EXPECT_CONTAINS(kernel_error("createpolicy.fractional.b64 %rd1;", ErrorKind::kUnsupported),
                  "the primary priority is .L2::evict_last, _normal, _first or _unchanged");
  EXPECT_CONTAINS(kernel_error("createpolicy.fractional.L2::evict_first.L2::evict_last.b64 %rd1, 0.5;",
                               ErrorKind::kUnsupported),
                  "the secondary priority is .L2::evict_first or .L2::evict_unchanged");
  EXPECT_CONTAINS(kernel_error("createpolicy.fractional.L2::evict_last.L2::evict_first.L2::evict_first.b64 %rd1;",
                               ErrorKind::kUnsupported),
                  "conflicts with an earlier modifier");
  EXPECT_CONTAINS(kernel_error("createpolicy.range.global.L2::evict_last.b64 %rd1, %rd2, 4096, 4096;"),
                  "createpolicy.range needs an address [a]");
  EXPECT_CONTAINS(kernel_error("createpolicy.range.global.L2::evict_last.b64 %rd1, [%rd2], 4096;"),
                  "createpolicy.range takes 4 (d, [a], primary-size, total-size) operands");
  EXPECT_CONTAINS(kernel_error("createpolicy.fractional.L2::evict_last.b64 %rd1, [%rd2];"),
                  "createpolicy takes no address here");
  EXPECT_CONTAINS(kernel_error("createpolicy.range.shared.L2::evict_last.b64 %rd1, [%rd2], 1, 2;", ErrorKind::kUnsupported),
                  "only .global addresses take a cache hint");
  // applypriority takes .L2::evict_normal, discard .L2; both the size 128.
  EXPECT_CONTAINS(kernel_error("applypriority.global.L2::evict_last [%rd1], 128;", ErrorKind::kUnsupported),
                  "applypriority needs .L2::evict_normal");
  EXPECT_CONTAINS(kernel_error("discard.global [%rd1], 128;", ErrorKind::kUnsupported), "discard needs .L2");
  EXPECT_CONTAINS(kernel_error("discard.global.L2 [%rd1], 64;"), "discard takes the size 128");
}

TEST(PtxErrors, BrxIdxNeedsABranchTargetsListDeclaredBefore) {
  EXPECT_CONTAINS(kernel_error("brx.idx %r1, ts;"), "expected a .branchtargets list declared before brx.idx");
  EXPECT_CONTAINS(kernel_error("ts: .branchtargets L0;\nts: .branchtargets L0;\nL0: ret;"), "'.branchtargets' 'ts' declared twice");
  EXPECT_CONTAINS(kernel_error("ts: .branchtargets NOWHERE;\nbrx.idx %r1, ts;"), "undefined label 'NOWHERE'");
}

TEST(PtxErrors, VideoOperandsAreChecked) {
  // Selectors: scalar .b0-.b3/.h0/.h1, 2-way .hxy (d: .h0/.h1/.h10), 4-way .bxyzw (d: bytes).
  EXPECT_CONTAINS(kernel_error("vadd.s32.s32.s32 %r1, %r2.h2, %r3;"), "'.h2' is not a selector of this operand");
  EXPECT_CONTAINS(kernel_error("vadd2.s32.s32.s32 %r1, %r2.h4, %r3, %r4;"), "'.h4' is not a selector");
  EXPECT_CONTAINS(kernel_error("vadd4.s32.s32.s32 %r1.b01, %r2, %r3, %r4;"), "'.b01' is not a selector");
  EXPECT_CONTAINS(kernel_error("add.s32 %r1, %r2.b0, %r3;"), "only allowed in video instructions");
  EXPECT_CONTAINS(kernel_error("vadd.s32.s32.s32 %r1.h0, %r2, %r3;"), "a merge (d.h0) needs the operand c");
  EXPECT_CONTAINS(kernel_error("vadd.s32.s32.s32 %r1, %r2, %r3, %r4;"), "needs a secondary operation or a merge");
  EXPECT_CONTAINS(kernel_error("vadd2.s32.s32.s32.sat.add %r1, %r2, %r3, %r4;"), ".sat cannot be used");
  EXPECT_CONTAINS(kernel_error("vadd.s32.s32.f32 %r1, %r2, %r3;"), "each .u32 or .s32");
  EXPECT_CONTAINS(kernel_error("vmad.s32.s32.s32.po %r1, -%r2, %r3, %r4;"), "vmad.po takes no negated operand");
  EXPECT_CONTAINS(kernel_error("vsub.s32.s32.s32 %r1, -%r2, %r3;"), "only predicates can be negated");
  EXPECT_CONTAINS(kernel_error("vadd2.s32.s32.s32.min %r1, %r2, %r3, %r4;", ErrorKind::kUnsupported),
                  "only secondary operation is .add");
  EXPECT_CONTAINS(kernel_error("vshl.s32.s32.u32 %r1, %r2, %r3;", ErrorKind::kUnsupported), "need the mode");
  EXPECT_CONTAINS(kernel_error("vset.s32.s32.lo %r1, %r2, %r3;", ErrorKind::kUnsupported), "vset compares with");
}

TEST(PtxErrors, TextureOperandsAreChecked) {
  std::string msg = kernel_error("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f1}];");
  EXPECT_CONTAINS(msg, ".2d takes 2 coordinates, found 1");
  msg = kernel_error("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%r1, {%f1, %f2}];");
  EXPECT_CONTAINS(msg, "64-bit register holding its object handle");
  msg = kernel_error("suld.b.2d.v2.b32.trap {%r1}, [%rd1, {%r1, %r2}];");
  EXPECT_CONTAINS(msg, "vector has 1 elements, the instruction moves 2");
  msg = kernel_error("tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, tsamp, {%f1, %f2}];");
  EXPECT_CONTAINS(msg, "separate samplers are not supported");
}

TEST(PtxErrors, UnknownModifierCombinationIsUnsupported) {
  std::string msg = kernel_error("ld.global.foo.f32 %f1, [%rd1];", ErrorKind::kUnsupported);
  EXPECT_CONTAINS(msg, "'.foo'");
  EXPECT_CONTAINS(msg, "line 9");
  msg = kernel_error("mbarrier.test_wait.shared::cluster.b64 %p1, [%rd1], %rd2;", ErrorKind::kUnsupported);
  EXPECT_CONTAINS(msg, "shared::cluster");
  msg = kernel_error("add.wide.s32 %rd1, %r1, %r2;", ErrorKind::kUnsupported);
  EXPECT_CONTAINS(msg, "'.wide'");
  msg = kernel_error("bra.f32 $L;\n$L: ret;", ErrorKind::kUnsupported);
  EXPECT_CONTAINS(msg, "takes no type");
  msg = kernel_error("ld.global.ca.cg.f32 %f1, [%rd1];", ErrorKind::kUnsupported);
  EXPECT_CONTAINS(msg, "conflicts");
  msg = kernel_error("cvt.rn.f32.s32.u32 %f1, %r1;", ErrorKind::kUnsupported);
  EXPECT_CONTAINS(msg, "too many types");
  EXPECT_CONTAINS(kernel_error("mul.wide.f32 %f1, %f2, %f3;", ErrorKind::kUnsupported), "'.wide'");
  EXPECT_CONTAINS(kernel_error("add.rn.s32 %r1, %r2, %r3;", ErrorKind::kUnsupported), "rounding needs a float type");
  EXPECT_CONTAINS(kernel_error("sqrt.u32 %r1, %r2;", ErrorKind::kUnsupported), "needs a float type");
  EXPECT_CONTAINS(kernel_error("redux.sync.cas.b32 %r1, %r2, -1;", ErrorKind::kUnsupported), "redux.sync takes");
}

TEST(PtxErrors, UndefinedRegister) {
  std::string msg = kernel_error("add.s32 %r1, %r99, 1;");
  EXPECT_CONTAINS(msg, "test.ptx:9:14: undefined register '%r99'");
  msg = kernel_error("ld.global.f32 %f1, [%rd9];");
  EXPECT_CONTAINS(msg, "undefined register '%rd9'");
  msg = kernel_error("@%p9 ret;");
  EXPECT_CONTAINS(msg, "test.ptx:9:1: undefined register '%p9'");
  msg = kernel_error("mov.b32 {%r1, %nope}, %r2;");
  EXPECT_CONTAINS(msg, "undefined register '%nope'");
  msg = kernel_error("mov.u64 %rd1, nosuchsymbol;");
  EXPECT_CONTAINS(msg, "undefined symbol 'nosuchsymbol'");
  msg = kernel_error("{ .reg .b32 inner; }\nmov.b32 %r1, inner;");
  EXPECT_CONTAINS(msg, "undefined symbol 'inner'");  // out of scope
}

TEST(PtxErrors, DanglingLabel) {
  std::string msg = kernel_error("@%p1 bra $L__nowhere;\nret;");
  EXPECT_CONTAINS(msg, "test.ptx:9:10: undefined label '$L__nowhere'");
  msg = kernel_error("$L: ret;\n$L: ret;");
  EXPECT_CONTAINS(msg, "test.ptx:10:1: label '$L' defined twice");
  msg = kernel_error("bra $L_end;\n$L_end:");
  EXPECT_CONTAINS(msg, "branch target is not an instruction");
}

TEST(PtxErrors, OperandShapes) {
  EXPECT_CONTAINS(kernel_error("add.s32 %r1, %r2;"), "test.ptx:9:1: 'add.s32': expected 3 operands, found 2");
  EXPECT_CONTAINS(kernel_error("ld.global.v4.f32 {%f1, %f2}, [%rd1];"),
                  "vector has 2 elements, the instruction moves 4");
  EXPECT_CONTAINS(kernel_error("ld.global.v2.f32 %f1, [%rd1];"), "expected a vector of 2 elements");
  EXPECT_CONTAINS(kernel_error("ld.global.f32 %f1, %rd1;"), "expected an address");
  EXPECT_CONTAINS(kernel_error("st.global.f32 %rd1, %f1;"), "expected an address");
  EXPECT_CONTAINS(kernel_error("mov.b64 %rd1, {%r1, %rs1};"), "vector elements hold 48 bits, mov.b64 moves 64");
  EXPECT_CONTAINS(kernel_error("@%r1 ret;"), "a guard must be a predicate register");
  EXPECT_CONTAINS(kernel_error("setp.lt.s32 %r1, %r2, %r3;"), "the destination must be a predicate");
  EXPECT_CONTAINS(kernel_error("setp.lt.and.s32 %p1, %r2, %r3;"), "third, predicate source");
  EXPECT_CONTAINS(kernel_error("selp.b32 %r1, %r2, %r3, %r4;"), "must be a predicate");
  EXPECT_CONTAINS(kernel_error("add.s32 %r1|%p1, %r2, %r3;"), "no second destination");
  EXPECT_CONTAINS(kernel_error("mov.u32 %r1;"), "expected 2 operands");
  EXPECT_CONTAINS(kernel_error("add.s32 5, %r2, %r3;"), "destination must be a register");
  EXPECT_CONTAINS(kernel_error("mov.u32 %r1, %tid.w;"), "undefined register '%tid.w'");
  EXPECT_CONTAINS(kernel_error("atom.global.cas.b32 %r1, [%rd1], %r2;"), "atom.cas takes 4 operands");
  EXPECT_CONTAINS(kernel_error("shfl.sync.up.b32 %r1, %r2, 1, 0;"), "member mask");
  EXPECT_CONTAINS(kernel_error("ld.global.f32 %f1, [%p1];"), "must be 32 or 64 bits wide");
  EXPECT_CONTAINS(kernel_error("add.s32 %r1, !%r2, 1;"), "only predicates can be negated");
  EXPECT_CONTAINS(kernel_error("add %r1, %r2, 1;"), "missing type");
  EXPECT_CONTAINS(kernel_error("cvt.f32 %f1, %r1;"), "needs two types");
  EXPECT_CONTAINS(kernel_error("ld.global.f32 %f1, [%rd1], %rd2;"), "without .L2::cache_hint");
}

TEST(PtxErrors, CallsMustMatchTheCallee) {
  std::string head = std::string(kHeader) + ".func (.param .b32 r) f(.param .b32 a)\n{\n ret;\n}\n";
  std::string msg = error_of(head + ".entry k()\n{\n .param .b32 p; .param .b32 q;\n call.uni (q), f, (p, p);\n ret;\n}\n",
                             ErrorKind::kParse);
  EXPECT_CONTAINS(msg, "'f' takes 1 arguments, call passes 2");
  msg = error_of(head + ".entry k()\n{\n .param .b32 p;\n call.uni f, (p);\n ret;\n}\n", ErrorKind::kParse);
  EXPECT_CONTAINS(msg, "'f' returns 1 values, call expects 0");
  msg = error_of(head + ".entry k()\n{\n .param .b32 p;\n call.uni g, (p);\n ret;\n}\n", ErrorKind::kParse);
  EXPECT_CONTAINS(msg, "undefined function 'g'");
  msg = error_of(std::string(kHeader) + ".entry e()\n{\n ret;\n}\n.entry k()\n{\n call.uni e;\n ret;\n}\n",
                 ErrorKind::kParse);
  EXPECT_CONTAINS(msg, "cannot call kernel 'e'");
}

TEST(PtxErrors, DeclarationsAndDirectives) {
  EXPECT_CONTAINS(kernel_error(".reg .b32 %r1;"), "register '%r1' declared twice");
  EXPECT_CONTAINS(error_of(std::string(kHeader) + ".global .u32 x;\n.global .u32 x;\n", ErrorKind::kParse),
                  "test.ptx:5:14: 'x' declared twice");
  EXPECT_CONTAINS(error_of(std::string(kHeader) + ".global .u32 x[2] = {1, 2, 3};\n", ErrorKind::kParse),
                  "has 3 values for 2 elements");
  EXPECT_CONTAINS(error_of(std::string(kHeader) + ".global .u64 p = nowhere;\n", ErrorKind::kParse),
                  "undefined symbol 'nowhere'");
  EXPECT_CONTAINS(error_of(std::string(kHeader) + ".global .b8 x[];\n", ErrorKind::kParse), "has no size");
  EXPECT_CONTAINS(kernel_error(".loc 7 1 1\nret;"), "test.ptx:9:1: '.loc' names file 7");
  EXPECT_CONTAINS(error_of(std::string(kHeader) + ".entry k()\n{\n}\n.entry k()\n{\n}\n", ErrorKind::kParse),
                  "function 'k' defined twice");
  EXPECT_CONTAINS(error_of(".version 9.0\n.target sm_90\n.address_size 48\n", ErrorKind::kParse),
                  "test.ptx:3:15: address size must be 32 or 64");
  EXPECT_CONTAINS(error_of(std::string(kHeader) + ".local .u32 x;\n", ErrorKind::kParse), "not allowed at module level");
  EXPECT_CONTAINS(error_of(std::string(kHeader) + ".section .debug_info {\n.b8 1\n", ErrorKind::kParse),
                  "unterminated .section");
}

TEST(PtxErrors, HostileNestingIsBoundedNotFatal) {
  std::string deep(10000, '{');
  EXPECT_CONTAINS(error_of(std::string(kHeader) + ".entry k()\n{\n" + deep, ErrorKind::kParse),
                  "nested too deeply");
  std::string init = ".global .u32 x[4] = " + std::string(100, '{');
  EXPECT_CONTAINS(error_of(std::string(kHeader) + init, ErrorKind::kParse), "nested too deeply");
  EXPECT_CONTAINS(kernel_error(".reg .b32 %x<99999999>;", ErrorKind::kParse), "register range too large");
  EXPECT_CONTAINS(error_of(std::string(kHeader) + ".global .b8 big[1099511627776][1099511627776];\n", ErrorKind::kParse),
                  "array too large");
  EXPECT_CONTAINS(error_of(std::string(kHeader) + ".global .b8 big[4294967296] = {1};\n", ErrorKind::kUnsupported),
                  "initialized data larger than");
}

TEST(PtxErrors, FuzzRegressions) {
  // `.version` given as a float literal without a dot once did pointer arithmetic past npos.
  EXPECT_CONTAINS(error_of(".version 1e5\n", ErrorKind::kParse), "test.ptx:1:10: malformed .version");
  EXPECT_CONTAINS(error_of(".version 9.0x\n", ErrorKind::kParse), "malformed number");
  EXPECT_EQ(load_module(".version 9\n", "t").version_major, 9u);
  // An unsized array with a zero inner dimension and an empty initializer has size 0.
  Module m = load_module(std::string(kHeader) + ".global .b8 x[][0] = {};\n", "t");
  EXPECT_EQ(m.variables.at(0).size, 0u);
}

TEST(PtxErrors, EmptyAndHeaderOnlyModulesLoad) {
  EXPECT_NO_THROW(load_module("", "empty.ptx"));
  Module m = load_module(kHeader, "h.ptx");
  EXPECT_TRUE(m.functions.empty());
  EXPECT_EQ(m.origin, "h.ptx");
}

}  // namespace
}  // namespace warpscope::ptx
