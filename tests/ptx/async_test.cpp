// cp.async, cp.async.bulk and mbarrier in the front end: the IR of every operand form nvcc 13
// emits (PTX ISA 9.0, 9.7.9.25 and 9.7.13.15), the errors of forms the ISA does not allow, and
// labels scoped to their { } block (an inlined wait loop appears twice in one function).
#include <gtest/gtest.h>

#include <string>

#include "ptx_test_util.hpp"

namespace warpscope::ptx {
namespace {

using test::kernel_error;
using test::load_kernel;

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << (haystack)

TEST(PtxAsync, CopyForms) {
  Module m = load_kernel(
      "cp.async.ca.shared.global [%r1], [%rd1], 4;\n"
      "cp.async.ca.shared::cta.global [%r1+8], [%rd1], 8, %r2;\n"
      "cp.async.cg.shared.global.L2::128B [%r1], [%rd1+16], 16, %p1;\n"
      "cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, %rd2;\n"
      "cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, 8, %rd2;\n"
      "cp.async.commit_group;\n"
      "cp.async.wait_group 1;\n"
      "cp.async.wait_all;\n"
      "cp.async.mbarrier.arrive.noinc.shared.b64 [%r3];\n"
      "cp.async.mbarrier.arrive.b64 [%rd3];\n"
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3];\n");
  const auto& in = m.functions[0].instructions;
  ASSERT_EQ(in.size(), 11u);
  EXPECT_EQ(in[0].op, Opcode::kCpAsync);
  EXPECT_EQ(in[0].cache, CacheOperator::kCa);
  EXPECT_EQ(in[0].space, StateSpace::kShared);
  EXPECT_EQ(in[0].src_space, StateSpace::kGlobal);
  EXPECT_EQ(in[0].operands[2].imm, 4u);
  EXPECT_EQ(in[1].space, StateSpace::kShared);
  EXPECT_EQ(in[1].operands[0].offset, 8);
  EXPECT_EQ(in[1].operands.size(), 4u);
  EXPECT_EQ(in[2].cache, CacheOperator::kCg);
  EXPECT_EQ(in[2].l2_prefetch_bytes, 128u);
  EXPECT_TRUE(in[3].l2_cache_hint);
  EXPECT_EQ(in[4].operands.size(), 5u);
  EXPECT_EQ(in[5].op, Opcode::kCpAsyncCommitGroup);
  EXPECT_EQ(in[6].op, Opcode::kCpAsyncWaitGroup);
  EXPECT_EQ(in[6].operands[0].imm, 1u);
  EXPECT_EQ(in[7].op, Opcode::kCpAsyncWaitAll);
  EXPECT_EQ(in[8].op, Opcode::kCpAsyncMbarrierArrive);
  EXPECT_TRUE(in[8].noinc);
  EXPECT_EQ(in[8].type, Type::kB64);
  EXPECT_FALSE(in[9].noinc);
  EXPECT_EQ(in[9].space, StateSpace::kGeneric);
  EXPECT_EQ(in[10].op, Opcode::kCpAsyncBulk);
  EXPECT_TRUE(in[10].complete_tx);
  EXPECT_EQ(in[10].space, StateSpace::kSharedCluster);
  EXPECT_EQ(in[10].src_space, StateSpace::kGlobal);
  EXPECT_EQ(to_string(in[10].op), "cp.async.bulk");
  EXPECT_EQ(to_string(in[8].op), "cp.async.mbarrier.arrive");
}

TEST(PtxAsync, MbarrierForms) {
  Module m = load_kernel(
      "mbarrier.init.shared.b64 [%r1], %r2;\n"
      "mbarrier.arrive.shared.b64 %rd1, [%r1];\n"
      "mbarrier.arrive.shared::cta.b64 %rd1, [%r1], %r2;\n"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];\n"
      "mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 _, [%r1], 64;\n"
      "mbarrier.arrive.noComplete.shared.b64 %rd1, [%r1], 2;\n"
      "mbarrier.arrive_drop.b64 %rd1, [%rd2];\n"
      "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%r1], 16;\n"
      "mbarrier.complete_tx.b64 [%rd2], 16;\n"
      "mbarrier.test_wait.shared.b64 %p1, [%r1], %rd1;\n"
      "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 %p1, [%r1], %r2, 1000;\n"
      "mbarrier.pending_count.b64 %r3, %rd1;\n"
      "mbarrier.inval.shared.b64 [%r1];\n");
  const auto& in = m.functions[0].instructions;
  ASSERT_EQ(in.size(), 13u);
  EXPECT_EQ(in[0].op, Opcode::kMbarrierInit);
  EXPECT_EQ(in[1].op, Opcode::kMbarrierArrive);
  EXPECT_EQ(in[1].operands.size(), 2u);
  EXPECT_EQ(in[2].operands.size(), 3u);
  EXPECT_EQ(in[3].space, StateSpace::kSharedCluster);
  EXPECT_EQ(in[3].operands[0].kind, OperandKind::kSink);
  EXPECT_EQ(in[3].order, MemOrder::kRelease);
  EXPECT_EQ(in[3].scope, Scope::kCluster);
  EXPECT_TRUE(in[4].expect_tx);
  EXPECT_TRUE(in[5].no_complete);
  EXPECT_EQ(in[6].op, Opcode::kMbarrierArriveDrop);
  EXPECT_EQ(in[6].space, StateSpace::kGeneric);
  EXPECT_EQ(in[7].op, Opcode::kMbarrierExpectTx);
  EXPECT_EQ(in[8].op, Opcode::kMbarrierCompleteTx);
  EXPECT_EQ(in[9].op, Opcode::kMbarrierTestWait);
  EXPECT_FALSE(in[9].parity);
  EXPECT_EQ(in[10].op, Opcode::kMbarrierTryWait);
  EXPECT_TRUE(in[10].parity);
  EXPECT_EQ(in[10].order, MemOrder::kAcquire);
  EXPECT_EQ(in[10].operands.size(), 4u);
  EXPECT_EQ(in[11].op, Opcode::kMbarrierPendingCount);
  EXPECT_EQ(in[12].op, Opcode::kMbarrierInval);
}

TEST(PtxAsync, FormsTheIsaDoesNotHave) {
  EXPECT_CONTAINS(kernel_error("cp.async.cg.shared.global [%r1], [%rd1], 8;"), "cp.async.cg copies 16 bytes");
  EXPECT_CONTAINS(kernel_error("cp.async.ca.shared.global [%r1], [%rd1], 2;"), "cp-size must be 4, 8 or 16");
  EXPECT_CONTAINS(kernel_error("cp.async.ca.shared.global [%r1], [%rd1], %r2;"), "expected an immediate");
  EXPECT_CONTAINS(kernel_error("cp.async.shared.global [%r1], [%rd1], 4;"), "cp.async needs .ca or .cg");
  EXPECT_CONTAINS(kernel_error("cp.async.ca.global.shared [%rd1], [%r1], 4;"), "cp.async copies .shared{::cta}.global");
  EXPECT_CONTAINS(kernel_error("cp.async.ca.shared.global [%r1], [%rd1], 4, 4, %rd2;"),
                  "extra operand without .L2::cache_hint");
  EXPECT_CONTAINS(kernel_error("cp.async.ca.shared.global.L2::cache_hint [%r1], [%rd1], 4;"),
                  ".L2::cache_hint needs a cache-policy operand");
  EXPECT_CONTAINS(kernel_error("mbarrier.arrive.noComplete.shared.b64 %rd1, [%r1];"),
                  ".noComplete and .expect_tx take a third operand");
  EXPECT_CONTAINS(kernel_error("mbarrier.init.shared.b32 [%r1], %r2;"), "an mbarrier object is .b64");
  EXPECT_CONTAINS(kernel_error("mbarrier.test_wait.shared.b64 %r1, [%r1], %rd1;"), "must be a predicate register");
  EXPECT_CONTAINS(kernel_error("mbarrier.init.shared::cluster.b64 [%r1], %r2;", ErrorKind::kUnsupported),
                  "distributed shared memory is not supported");
  EXPECT_CONTAINS(kernel_error("mbarrier.try_wait.noinc.shared.b64 %p1, [%r1], %rd1;", ErrorKind::kUnsupported),
                  "unsupported modifier '.noinc'");
  // Bulk copies (PTX ISA 9.0, 9.7.9.25.4): one completion mechanism; a tile copy's coordinates
  // match its dimensionality.
  EXPECT_CONTAINS(kernel_error("cp.async.bulk.global.shared::cta [%rd1], [%r1], 64;"),
                  "completes through .mbarrier::complete_tx::bytes or .bulk_group");
  EXPECT_CONTAINS(kernel_error("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                               "[%r1], [%rd1, {%r2, %r3, %r5}], [%r4];"),
                  ".2d takes 2 coordinates, found 3");
  EXPECT_CONTAINS(kernel_error("cp.async.bulk.tensor.shared::cluster.global.tile.mbarrier::complete_tx::bytes "
                               "[%r1], [%rd1, {%r2, %r3}], [%r4];"),
                  "missing dimensionality");
  EXPECT_CONTAINS(kernel_error("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2}], 16, [%r4];"),
                  "coordinates on a bulk copy without .tensor");
}

TEST(PtxAsync, BulkAndTensorForms) {
  // What nvcc 13 emits for cuda::device::experimental's TMA functions and the bulk-group forms.
  Module m = load_kernel(
      "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r2, %r3}], [%r4];\n"
      "cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group.L2::cache_hint [%rd1, {%r1, %r2, %r3, %r4, %r5}], [%r6], %rd2;\n"
      "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [%r1], 64;\n"
      "cp.async.bulk.commit_group;\n"
      "cp.async.bulk.wait_group.read 0;\n"
      "cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1], 64;\n"
      "cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd1, {%r2, %r3}];\n"
      "prefetch.param.tensormap [%rd1];\n"
      "fence.proxy.async.shared::cta;\n"
      "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;\n");
  const auto& in = m.functions[0].instructions;
  ASSERT_EQ(in.size(), 10u);
  EXPECT_EQ(in[0].op, Opcode::kCpAsyncBulkTensor);
  EXPECT_EQ(in[0].tensor_dims, 2);
  EXPECT_EQ(in[0].tensor_mode, TensorMode::kTile);
  EXPECT_TRUE(in[0].complete_tx);
  EXPECT_EQ(in[0].operands[1].elements.size(), 2u);
  EXPECT_EQ(in[1].tensor_dims, 5);
  EXPECT_TRUE(in[1].bulk_group);
  EXPECT_EQ(in[1].space, StateSpace::kGlobal);
  EXPECT_EQ(in[1].src_space, StateSpace::kShared);
  EXPECT_EQ(in[2].op, Opcode::kCpAsyncBulk);
  EXPECT_TRUE(in[2].bulk_group);
  EXPECT_EQ(in[3].op, Opcode::kCpAsyncBulkCommitGroup);
  EXPECT_EQ(in[4].op, Opcode::kCpAsyncBulkWaitGroup);
  EXPECT_TRUE(in[4].wait_read);
  EXPECT_EQ(in[5].op, Opcode::kCpReduceAsyncBulk);
  EXPECT_EQ(in[5].reduce, ReduceOp::kAdd);
  EXPECT_EQ(in[6].op, Opcode::kCpAsyncBulkPrefetch);
  EXPECT_TRUE(in[6].tensor);
  EXPECT_TRUE(in[7].tensormap);
  EXPECT_TRUE(in[8].proxy);
  EXPECT_EQ(in[9].operands.size(), 2u);
}

TEST(PtxAsync, LabelsAreScopedToTheirBlock) {
  // nvcc inlines a wait loop with its label twice into one function.
  Module m = load_kernel(
      "{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared.b64 p, [%r1], 0;\n @!p bra W;\n}\n"
      "{\n .reg .pred p;\n W: mbarrier.try_wait.parity.shared.b64 p, [%r1], 1;\n @!p bra W;\n}\n"
      "bra DONE;\n"
      "{\n bra DONE;\n}\n"
      "DONE: ret;\n");
  const auto& in = m.functions[0].instructions;
  ASSERT_EQ(in.size(), 7u);
  EXPECT_EQ(in[1].operands[0].target, 0u);  // each loop branches to its own label
  EXPECT_EQ(in[3].operands[0].target, 2u);
  EXPECT_EQ(in[4].operands[0].target, 6u);  // an outer label is seen from inside a block
  EXPECT_EQ(in[5].operands[0].target, 6u);
  EXPECT_CONTAINS(kernel_error("{\n W: ret;\n W: ret;\n}"), "label 'W' defined twice");
  EXPECT_CONTAINS(kernel_error("{\n W: ret;\n}\nbra W;"), "undefined label 'W'");
}

}  // namespace
}  // namespace warpscope::ptx
