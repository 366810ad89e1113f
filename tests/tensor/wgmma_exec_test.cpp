// wgmma in the interpreter, with hand-written PTX: a product from shared-memory descriptors, the
// .e4m3/.e5m2 products, the errors of warpgroups that are not whole, of descriptors outside
// shared memory, of refused forms (a non-zero matrix base offset, shapes sm_90a does not have).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "warpscope/error.hpp"
#include "warpscope/warpscope.hpp"

namespace {

using namespace warpscope;

// Every thread fills shared memory with .f16 ones (4096 bytes), then one
// wgmma.m64n8k16.f32.f16.f16 with A at shared 0 and B at 2048, K-major without swizzle
// (LBO 128, SBO 256); C = 1.0 and scale-d = %p1 (tid < 1024: true). Thread t stores d0..d3.
std::string wgmma_kernel(const std::string& inst, const std::string& desc_b = "0x0000001000080080") {
  return std::string(".version 9.0\n.target sm_90a\n.address_size 64\n") + R"(
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .f32 %f<8>;
  .reg .pred %p<2>;
  .reg .b64 %rd<8>;
  .shared .align 1024 .b8 sm[4096];
  mov.u32 %r1, %tid.x;
  mov.u32 %r3, sm;
  mov.u32 %r4, %r1;
fill:
  shl.b32 %r5, %r4, 2;
  add.u32 %r6, %r3, %r5;
  st.shared.u32 [%r6], 0x3c003c00;
  add.u32 %r4, %r4, 128;
  setp.lt.u32 %p1, %r4, 1024;
  @%p1 bra fill;
  bar.sync 0;
  setp.lt.u32 %p1, %r1, 1024;
  cvt.u64.u32 %rd4, %r3;
  shr.u64 %rd4, %rd4, 4;
  mov.b64 %rd5, 0x0000001000080000;
  add.u64 %rd5, %rd5, %rd4;
  mov.b64 %rd6, )" + desc_b + R"(;
  add.u64 %rd6, %rd6, %rd4;
  mov.f32 %f4, 0f3F800000;
  mov.f32 %f5, 0f3F800000;
  mov.f32 %f6, 0f3F800000;
  mov.f32 %f7, 0f3F800000;
  wgmma.fence.sync.aligned;
  )" + inst + R"(
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r1, 16;
  add.u64 %rd3, %rd1, %rd2;
  st.global.v4.f32 [%rd3], {%f4, %f5, %f6, %f7};
  ret;
}
)";
}

const char* kWgmma = "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f4, %f5, %f6, %f7}, %rd5, %rd6, %p1, 1, 1, 0, 0;";

void expect_error(const std::string& ptx, ErrorKind kind, const std::vector<std::string>& parts, unsigned threads = 128) {
  Device dev;
  try {
    const Module m = dev.load_ptx(ptx, "t.ptx");
    const DevicePtr out = dev.malloc(16 * 128);
    dev.launch(m, "k", Dim3{1, 1, 1}, Dim3{threads, 1, 1}, std::vector<KernelArg>{arg(out)});
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
  }
}

TEST(ExecWgmma, OnesTimesOnesPlusCIsKPlusOne) {
  Device dev;
  const Module m = dev.load_ptx(wgmma_kernel(kWgmma), "t.ptx");
  const DevicePtr out = dev.malloc(16 * 128);
  dev.launch(m, "k", Dim3{1, 1, 1}, Dim3{128, 1, 1}, std::vector<KernelArg>{arg(out)});
  std::vector<float> v(4 * 128);
  dev.copy_to_host(v.data(), out, 16 * 128);
  for (float x : v) EXPECT_EQ(x, 17.0f);  // 16 products of 1 x 1, plus C = 1
}

TEST(ExecWgmma, ScaleDFalseDropsCAndImmScaleNegates) {
  Device dev;
  const std::string inst =
      "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f4, %f5, %f6, %f7}, %rd5, %rd6, 0, -1, 1, 0, 0;";
  const Module m = dev.load_ptx(wgmma_kernel(inst), "t.ptx");
  const DevicePtr out = dev.malloc(16 * 128);
  dev.launch(m, "k", Dim3{1, 1, 1}, Dim3{128, 1, 1}, std::vector<KernelArg>{arg(out)});
  std::vector<float> v(4 * 128);
  dev.copy_to_host(v.data(), out, 16 * 128);
  for (float x : v) EXPECT_EQ(x, -16.0f);
}

TEST(ExecWgmma, PartialWarpgroupIsUndefined) {
  expect_error(wgmma_kernel(kWgmma), ErrorKind::kUndefined, {"a warpgroup is four warps", "warps 0-3", "96 threads"}, 96);
}

TEST(ExecWgmma, DescriptorOutsideSharedMemoryFaults) {
  // B's start address 0x3ff0 << 4 is far beyond the block's 4096 bytes.
  expect_error(wgmma_kernel(kWgmma, "0x0000001000083ff0"), ErrorKind::kOutOfBounds,
               {"wgmma.mma_async reads an element of B", "outside the block's 4096 bytes of shared memory"});
}

TEST(ExecWgmma, NonZeroBaseOffsetIsRefused) {
  expect_error(wgmma_kernel(kWgmma, "0x0002001000080080"), ErrorKind::kUnsupported, {"base offset is 1", "only 0"});
}

// The shared bytes alternate 0x00, 0x3c: as .e4m3 0 and 1.5, as .e5m2 0 and 1. Along K = 32
// every odd element is non-zero: 16 products.
TEST(ExecWgmma, Fp8ProductsSumWithC) {
  auto run = [](const std::string& inst) {
    Device dev;
    const Module m = dev.load_ptx(wgmma_kernel(inst), "t.ptx");
    const DevicePtr out = dev.malloc(16 * 128);
    dev.launch(m, "k", Dim3{1, 1, 1}, Dim3{128, 1, 1}, std::vector<KernelArg>{arg(out)});
    std::vector<float> v(4 * 128);
    dev.copy_to_host(v.data(), out, 16 * 128);
    return v;
  };
  for (float x : run("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e5m2 {%f4, %f5, %f6, %f7}, %rd5, %rd6, %p1, 1, 1;"))
    EXPECT_EQ(x, 25.0f);  // 16 x 1.5 x 1 + C = 1
  // scale-d false drops C, imm-scale-a -1 negates A (the e4m3 sign bit).
  for (float x : run("wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%f4, %f5, %f6, %f7}, %rd5, %rd6, 0, -1, 1;"))
    EXPECT_EQ(x, -36.0f);  // -16 x 1.5 x 1.5
}

TEST(PtxWgmma, ShapesAndOperandsSm90aDoesNotHaveAreRefused) {
  expect_error(wgmma_kernel("wgmma.mma_async.sync.aligned.m64n8k8.f32.f16.f16 {%f4, %f5, %f6, %f7}, %rd5, %rd6, "
                            "%p1, 1, 1, 0, 0;"),
               ErrorKind::kUnsupported, {"no shape .m64n8k8"});
  expect_error(wgmma_kernel("wgmma.mma_async.sync.aligned.m64n8k16.f16.bf16.bf16 {%f4, %f5}, %rd5, %rd6, %p1, 1, 1, 0, 0;"),
               ErrorKind::kUnsupported, {".bf16 multiplicands accumulate in .f32"});
  expect_error(wgmma_kernel("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f4, %f5, %f6}, %rd5, %rd6, %p1, 1, 1, 0, 0;"),
               ErrorKind::kParse, {"accumulator", "vector of 4 registers"});
  expect_error(wgmma_kernel("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f4, %f5, %f6, %f7}, %rd5, %rd6, %p1, 2, 1, 0, 0;"),
               ErrorKind::kParse, {"imm-scale", "1 or -1"});
}

}  // namespace
