// The element operations of cp.reduce.async.bulk (src/exec/bulk_reduce.hpp) on hand-worked
// operands: the PTX ISA's integer definitions (inc/dec wrap, signed vs unsigned min) and the
// floating-point rules the H100 showed (tests/hw/data/h100/tma_more): f32 add keeps subnormals
// and returns 0x7fffffff for NaN, f64 add passes NaN operands through, half-type min/max prefer
// the non-NaN operand and order -0 below +0.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "exec/bulk_reduce.hpp"
#include "warpscope/warpscope.hpp"

namespace {

using warpscope::exec::bulkred::Elem;
using warpscope::exec::bulkred::reduce;
using warpscope::exec::bulkred::valid;
using warpscope::ptx::ReduceOp;

template <class T>
T one(ReduceOp op, Elem e, T dst, T src, bool atomic = false) {
  std::uint8_t d[sizeof(T)], s[sizeof(T)];
  std::memcpy(d, &dst, sizeof(T));
  std::memcpy(s, &src, sizeof(T));
  reduce(op, e, d, s, sizeof(T), atomic);
  T r;
  std::memcpy(&r, d, sizeof(T));
  return r;
}

TEST(BulkReduce, IntegerOperations) {
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kAdd, Elem::kU32, 0xffffffffu, 2u), 1u);  // wraps
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kInc, Elem::kU32, 5u, 5u), 0u);          // old >= src: 0
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kInc, Elem::kU32, 4u, 5u), 5u);
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kDec, Elem::kU32, 0u, 7u), 7u);          // old == 0: src
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kDec, Elem::kU32, 9u, 7u), 7u);          // old > src: src
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kDec, Elem::kU32, 3u, 7u), 2u);
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kMin, Elem::kS32, 0xffffffffu, 1u), 0xffffffffu);  // -1 < 1
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kMin, Elem::kU32, 0xffffffffu, 1u), 1u);
  EXPECT_EQ(one<std::uint64_t>(ReduceOp::kMax, Elem::kS64, 0x8000000000000000ull, 0ull), 0ull);
  EXPECT_EQ(one<std::uint64_t>(ReduceOp::kMax, Elem::kU64, 0x8000000000000000ull, 0ull), 0x8000000000000000ull);
  EXPECT_EQ(one<std::uint64_t>(ReduceOp::kXor, Elem::kB64, 0xff00ff00ff00ff00ull, 0x0ff00ff00ff00ff0ull), 0xf0f0f0f0f0f0f0f0ull);
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kAnd, Elem::kB32, 0xf0f0u, 0xff00u, true), 0xf000u);  // the atomic path
}

TEST(BulkReduce, F32AddKeepsSubnormalsAndCanonicalizesNaN) {
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kAdd, Elem::kF32, 0x00000001u, 0x00000001u), 0x00000002u);
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kAdd, Elem::kF32Ftz, 0x00000001u, 0x00000001u), 0x00000000u);
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kAdd, Elem::kF32Ftz, 0x00800000u, 0x80000001u), 0x00800000u);  // input flushed
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kAdd, Elem::kF32, 0x3f800000u, 0x33800000u), 0x3f800000u);  // 1 + 2^-24: tie, even
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kAdd, Elem::kF32, 0x3f800000u, 0x34400000u), 0x3f800002u);  // 1 + 3*2^-24
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kAdd, Elem::kF32, 0x7fc00000u, 0x3f800000u), 0x7fffffffu);
  EXPECT_EQ(one<std::uint32_t>(ReduceOp::kAdd, Elem::kF32, 0x7f800000u, 0xff800000u), 0x7fffffffu);
}

TEST(BulkReduce, F64AddPassesNaNsThrough) {
  EXPECT_EQ(one<std::uint64_t>(ReduceOp::kAdd, Elem::kF64, 0x7ff0000000000001ull, 0x3ff0000000000000ull), 0x7ff0000000000001ull);
  EXPECT_EQ(one<std::uint64_t>(ReduceOp::kAdd, Elem::kF64, 0x3ff0000000000000ull, 0xfff0000000000002ull), 0xfff0000000000002ull);
  EXPECT_EQ(one<std::uint64_t>(ReduceOp::kAdd, Elem::kF64, 0x7ff8000000000006ull, 0xfff800000000000aull), 0xfff800000000000aull);
  EXPECT_EQ(one<std::uint64_t>(ReduceOp::kAdd, Elem::kF64, 0x7ff0000000000000ull, 0xfff0000000000000ull), 0xfff8000000000000ull);
  EXPECT_EQ(one<std::uint64_t>(ReduceOp::kAdd, Elem::kF64, 0x0000000000000001ull, 0x0000000000000001ull), 0x0000000000000002ull);
}

TEST(BulkReduce, HalfTypes) {
  EXPECT_EQ(one<std::uint16_t>(ReduceOp::kAdd, Elem::kF16, 0x0001, 0x0001), 0x0002);  // .noftz: subnormals kept
  EXPECT_EQ(one<std::uint16_t>(ReduceOp::kAdd, Elem::kF16, 0x3c00, 0x3c00), 0x4000);
  EXPECT_EQ(one<std::uint16_t>(ReduceOp::kAdd, Elem::kF16, 0x7c00, 0xfc00), 0x7fff);
  EXPECT_EQ(one<std::uint16_t>(ReduceOp::kAdd, Elem::kF16, 0x3c00, 0x1000), 0x3c00);  // 1 + 2^-11: tie, even
  EXPECT_EQ(one<std::uint16_t>(ReduceOp::kAdd, Elem::kBF16, 0x3f80, 0x3f80), 0x4000);
  EXPECT_EQ(one<std::uint16_t>(ReduceOp::kMin, Elem::kF16, 0x0000, 0x8000), 0x8000);
  EXPECT_EQ(one<std::uint16_t>(ReduceOp::kMax, Elem::kF16, 0x8000, 0x0000), 0x0000);
  EXPECT_EQ(one<std::uint16_t>(ReduceOp::kMin, Elem::kF16, 0x7e00, 0x3c00), 0x3c00);
  EXPECT_EQ(one<std::uint16_t>(ReduceOp::kMax, Elem::kBF16, 0x3f80, 0xffc1), 0x3f80);
  EXPECT_EQ(one<std::uint16_t>(ReduceOp::kMax, Elem::kBF16, 0x7fc1, 0xffc1), 0x7fff);
}

TEST(BulkReduce, TheIsaCombinationsOnly) {
  EXPECT_TRUE(valid(ReduceOp::kAdd, Elem::kU64));
  EXPECT_FALSE(valid(ReduceOp::kAdd, Elem::kS64));
  EXPECT_FALSE(valid(ReduceOp::kInc, Elem::kU64));
  EXPECT_FALSE(valid(ReduceOp::kAnd, Elem::kU32));
  EXPECT_FALSE(valid(ReduceOp::kMin, Elem::kF32));
  EXPECT_TRUE(valid(ReduceOp::kMax, Elem::kBF16));
  EXPECT_FALSE(valid(ReduceOp::kExch, Elem::kB32));
}

/// The load error of a kernel made of one reduction instruction (empty: it loads).
std::string load_error(const std::string& inst) {
  const std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 p)\n{\n  .reg .b64 %rd<3>;\n  .reg .b32 %r<4>;\n"
                          "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 0;\n  mov.u32 %r2, 0;\n  mov.u32 %r3, 0;\n  " +
                          inst + "\n  ret;\n}\n";
  warpscope::Device dev;
  try {
    dev.load_ptx(ptx, "reduce.ptx");
  } catch (const warpscope::Error& e) {
    EXPECT_EQ(e.kind(), warpscope::ErrorKind::kUnsupported) << e.what();
    return e.what();
  }
  return {};
}

TEST(BulkReduce, WhatIsNotModelledIsRefusedAtLoad) {
  EXPECT_EQ(load_error("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [%r1], 64;"), "");
  EXPECT_EQ(load_error("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd1, {%r2, %r3}], [%r1];"), "");
  // Into a peer's shared memory (ops_dsmem_bulk.cpp): the PTX ISA's pairs load, others are refused.
  EXPECT_EQ(load_error("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.add.u32 [%r1], [%r2], 64, [%r3];"), "");
  EXPECT_EQ(load_error("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.xor.b32 [%r1], [%r2], 64, [%r3];"), "");
  EXPECT_EQ(load_error("cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r1], [%r2], 64, [%r3];"), "");
  for (const char* bad : {"min.u64", "and.b64", "add.f32", "inc.s32"}) {
    const std::string cluster = load_error(
        std::string("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.") + bad + " [%r1], [%r2], 64, [%r3];");
    EXPECT_NE(cluster.find("not a combination the PTX ISA lists for a shared::cluster destination"), std::string::npos) << cluster;
    EXPECT_NE(cluster.find("reduce.ptx:12"), std::string::npos) << cluster;
  }
  // .im2col_no_offs reductions run (tests/hw/data/h100/tma_im2col/store_probe.txt); 2-D ones are not in the ISA.
  EXPECT_EQ(load_error("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.im2col_no_offs.bulk_group [%rd1, {%r1, %r2, %r3}], [%r1];"), "");
  const std::string im2col =
      load_error("cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.im2col_no_offs.bulk_group [%rd1, {%r1, %r2}], [%r1];");
  EXPECT_NE(im2col.find("fewer than 3 dimensions"), std::string::npos) << im2col;
}

}  // namespace
