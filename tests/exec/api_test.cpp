// The public API end to end: load, allocate, launch, read back, with argument checking.
#include <cmath>
#include <cstring>
#include <functional>

#include <gmock/gmock.h>

#include "exec_test_util.hpp"
#include "warpscope/error.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::exec::test {
namespace {

TEST(Api, SaxpyMatchesHost) {
  WS_LOAD_PTX(ptx, "basic");
  Device dev;
  Module m = dev.load_ptx(ptx, "basic.ptx");
  const int n = 1000;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = 0.5f * float(i);
    y[i] = float(n - i);
  }
  const DevicePtr dx = upload(dev, x), dy = upload(dev, y);
  const float a = 2.5f;
  const KernelArg args[] = {arg(n), arg(a), arg(dx), arg(dy)};
  const LaunchStats st = dev.launch(m, "saxpy", {(n + 255) / 256}, {256}, args);
  const auto out = download<float>(dev, dy, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], std::fma(a, x[i], y[i])) << i;
  EXPECT_GT(st.warp_instructions, 0u);
  EXPECT_GT(st.thread_instructions, st.warp_instructions);
}

}  // namespace
}  // namespace warpscope::exec::test

namespace warpscope::exec::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

ErrorKind kind_of(const std::function<void()>& f, std::string* what = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (what) *what = e.what();
    return e.kind();
  }
  ADD_FAILURE() << "no error";
  return ErrorKind::kInternal;
}

TEST(Api, KernelsAndParams) {
  WS_LOAD_PTX(ptx, "basic");
  Device dev;
  Module m = dev.load_ptx(ptx, "basic.ptx");
  EXPECT_EQ(m.kernels(), (std::vector<std::string>{"saxpy", "int_ops", "float_special", "float_ops", "per_thread_start"}));
  const auto p = m.params("saxpy");
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[0].size, 4u);
  EXPECT_EQ(p[1].size, 4u);
  EXPECT_EQ(p[2].size, 8u);
  EXPECT_EQ(p[3].size, 8u);
  EXPECT_EQ(kind_of([&] { m.params("nope"); }), ErrorKind::kUsage);
  const auto insts = m.instructions("saxpy");
  ASSERT_FALSE(insts.empty());
  EXPECT_EQ(insts[0].function, "saxpy");
  EXPECT_EQ(insts[0].index, 0u);
  EXPECT_NE(insts[0].text.find("ld.param"), std::string::npos);
  EXPECT_EQ(insts.back().text, "ret; // implicit");
}

TEST(Api, LaunchArgumentsAreChecked) {
  WS_LOAD_PTX(ptx, "basic");
  Device dev;
  Module m = dev.load_ptx(ptx, "basic.ptx");
  const DevicePtr x = dev.malloc(64);
  const int n = 16;
  const float a = 1.0f;
  const double wrong = 1.0;
  std::string what;
  const KernelArg too_few[] = {arg(n), arg(a), arg(x)};
  EXPECT_EQ(kind_of([&] { dev.launch(m, "saxpy", {1}, {32}, too_few); }, &what), ErrorKind::kUsage);
  EXPECT_THAT(what, HasSubstr("takes 4 parameters, 3 arguments given"));
  const KernelArg bad_size[] = {arg(n), arg(wrong), arg(x), arg(x)};
  EXPECT_EQ(kind_of([&] { dev.launch(m, "saxpy", {1}, {32}, bad_size); }, &what), ErrorKind::kUsage);
  EXPECT_THAT(what, AllOf(HasSubstr("saxpy"), HasSubstr("parameter 1"), HasSubstr("is 4 bytes, the argument is 8 bytes")));
  const KernelArg ok[] = {arg(n), arg(a), arg(x), arg(x)};
  EXPECT_EQ(kind_of([&] { dev.launch(m, "nope", {1}, {32}, ok); }), ErrorKind::kUsage);
  EXPECT_EQ(kind_of([&] { dev.launch(m, "saxpy", {0}, {32}, ok); }), ErrorKind::kUsage);
  EXPECT_EQ(kind_of([&] { dev.launch(m, "saxpy", {1}, {2048}, ok); }), ErrorKind::kUsage);
  EXPECT_EQ(kind_of([&] { dev.launch(m, "saxpy", {1}, {32}, ok, 1 << 20); }), ErrorKind::kUsage);
  dev.memset(x, 0, 64);
  EXPECT_NO_THROW(dev.launch(m, "saxpy", {1}, {32}, ok));
}

TEST(Api, UnsupportedInstructionIsRejectedAtLoad) {
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry uses_multimem(.param .u64 p)
{
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  add.u64 %rd2, %rd1, 128;
  multimem.ld_reduce.global.add.u64 %rd3, [%rd2];
  st.global.u64 [%rd1], %rd2;
  ret;
}
)";
  Device dev;
  std::string what;
  EXPECT_EQ(kind_of([&] { dev.load_ptx(ptx, "handwritten.ptx"); }, &what), ErrorKind::kUnsupported);
  EXPECT_THAT(what, AllOf(HasSubstr("handwritten.ptx:9"), HasSubstr("multimem.ld_reduce.global.add.u64")));
  // A failed load leaves no module variables behind and the device usable.
  EXPECT_NO_THROW(dev.malloc(16));
}

TEST(Api, ParseErrorsPropagate) {
  Device dev;
  EXPECT_EQ(kind_of([&] { dev.load_ptx(".version 8.0\n.target sm_90\n.address_size 64\n.entry k( {", "bad.ptx"); }),
            ErrorKind::kParse);
}

TEST(Api, SameResultsWithOneOrSeveralHostThreads) {
  WS_LOAD_PTX(ptx_div, "divergence");
  WS_LOAD_PTX(ptx_bar, "barriers");
  std::vector<int> results[2];
  LaunchStats stats[2][2];
  for (unsigned threads : {1u, 2u}) {
    DeviceOptions opt;
    opt.host_threads = threads;
    Device dev(opt);
    Module md = dev.load_ptx(ptx_div, "divergence.ptx");
    Module mb = dev.load_ptx(ptx_bar, "barriers.ptx");
    const int n = 64 * 128;
    std::vector<int> in(n);
    for (int i = 0; i < n; ++i) in[i] = (i * 7877) % 3001 - 1500;
    const DevicePtr din = upload(dev, in), d1 = dev.malloc(n * 4), d2 = dev.malloc(64 * 4);
    const KernelArg a1[] = {arg(din), arg(d1)};
    stats[threads - 1][0] = dev.launch(md, "branches", {64}, {128}, a1);
    const KernelArg a2[] = {arg(din), arg(d2)};
    stats[threads - 1][1] = dev.launch(mb, "block_sum", {32}, {256}, a2);
    auto r = download<int>(dev, d1, n);
    const auto s = download<int>(dev, d2, 32);
    r.insert(r.end(), s.begin(), s.end());
    results[threads - 1] = r;
  }
  EXPECT_EQ(results[0], results[1]);
  for (int k = 0; k < 2; ++k) {
    EXPECT_EQ(stats[0][k].warp_instructions, stats[1][k].warp_instructions);
    EXPECT_EQ(stats[0][k].thread_instructions, stats[1][k].thread_instructions);
  }
}

TEST(Api, FirstFaultingBlockIsReportedWithSeveralThreads) {
  WS_LOAD_PTX(ptx, "faults");
  for (unsigned threads : {1u, 4u}) {
    DeviceOptions opt;
    opt.host_threads = threads;
    Device dev(opt);
    Module m = dev.load_ptx(ptx, "faults.ptx");
    const DevicePtr out = dev.malloc(64 * 4);
    const KernelArg args[] = {arg(out)};
    std::string what;
    EXPECT_EQ(kind_of([&] { dev.launch(m, "trapper", {16}, {64}, args); }, &what), ErrorKind::kTrap);
    EXPECT_THAT(what, HasSubstr("block (1,0,0), thread (37,0,0)"));
    // 4096 CTAs: threads take chunks of 32 (4 threads) consecutive CTAs; the fault is still the
    // lowest CTA's.
    EXPECT_EQ(kind_of([&] { dev.launch(m, "trapper", {4096}, {64}, args); }, &what), ErrorKind::kTrap);
    EXPECT_THAT(what, HasSubstr("block (1,0,0), thread (37,0,0)"));
  }
}

}  // namespace
}  // namespace warpscope::exec::test

namespace warpscope::exec::test {
namespace {

// setmaxnreg (sm_90a) only hints the register allocator: the kernel computes as without it; a
// count outside 24..256 or not a multiple of 8 is refused at load (PTX ISA, setmaxnreg).
std::string setmaxnreg_ptx(int count) {
  return R"(.version 8.0
.target sm_90a
.address_size 64
.visible .entry k(.param .u64 p)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [p];
  setmaxnreg.inc.sync.aligned.u32 )" + std::to_string(count) + R"(;
  griddepcontrol.wait;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  add.u32 %r2, %r1, 7;
  st.global.u32 [%rd3], %r2;
  griddepcontrol.launch_dependents;
  ret;
}
)";
}

TEST(Api, SetmaxnregAndGriddepcontrolChangeNoResult) {
  Device dev;
  Module m = dev.load_ptx(setmaxnreg_ptx(232), "setmaxnreg.ptx");
  const DevicePtr out = dev.malloc(128 * sizeof(unsigned));
  const KernelArg args[] = {arg(out)};
  dev.launch(m, "k", {1}, {128}, args);
  const auto got = download<unsigned>(dev, out, 128);
  for (unsigned t = 0; t < 128; ++t) EXPECT_EQ(got[t], t + 7) << t;
  std::string what;
  EXPECT_EQ(kind_of([&] { dev.load_ptx(setmaxnreg_ptx(20), "bad.ptx"); }, &what), ErrorKind::kUnsupported);
  EXPECT_THAT(what, HasSubstr("setmaxnreg with register count 20"));
}

}  // namespace
}  // namespace warpscope::exec::test
