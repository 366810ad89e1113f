// A fault inside a native segment: the same error (kind and message) as the interpreter's, and
// the JIT does compile the run it happens in.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "exec/segments.hpp"
#include "jit/jit.hpp"
#include "warpscope/warpscope.hpp"

namespace {

using warpscope::Device;
using warpscope::Dim3;

// One straight-line run: lane l loads the float at p + l * 4096 (out of bounds from lane 1 on, as
// the buffer is 64 bytes), doubles it and stores it back.
constexpr const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry oob(.param .u64 p)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<5>;
  .reg .f32 %f<3>;
  ld.param.u64 %rd1, [p];
  cvta.to.global.u64 %rd2, %rd1;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 4096;
  add.s64 %rd4, %rd2, %rd3;
  ld.global.f32 %f1, [%rd4];
  add.f32 %f2, %f1, %f1;
  st.global.f32 [%rd4], %f2;
  ret;
}
)";

struct Outcome {
  std::string message;
  warpscope::ErrorKind kind = warpscope::ErrorKind::kInternal;
  std::vector<float> data;
};

Outcome run(std::uint32_t threads) {
  warpscope::DeviceOptions opts;
  opts.memcheck = warpscope::MemcheckMode::kStrict;  // accesses outside every allocation fault
  Device dev(opts);
  const warpscope::Module m = dev.load_ptx(kPtx, "oob.ptx");
  const warpscope::DevicePtr p = dev.malloc(64);
  std::vector<float> init(16, 1.5f);
  dev.copy_to_device(p, init.data(), 64);
  Outcome o;
  const warpscope::KernelArg args[] = {warpscope::arg(p)};
  try {
    dev.launch(m, "oob", Dim3{1, 1, 1}, Dim3{threads, 1, 1}, args, 0);
  } catch (const warpscope::Error& e) {
    o.message = e.what();
    o.kind = e.kind();
  }
  o.data.resize(16);
  dev.copy_to_host(o.data.data(), p, 64);
  return o;
}

TEST(JitFault, SameErrorAsTheInterpreter) {
  if (!warpscope::jit::install()) GTEST_SKIP() << "no JIT in this build";
  warpscope::exec::set_jit_enabled(false);
  const Outcome interp = run(32);
  const Outcome interp_one = run(1);
  const std::uint64_t before = warpscope::jit::stats().segments;
  warpscope::exec::set_jit_enabled(true);
  const Outcome jit = run(32);
  const Outcome jit_one = run(1);
  EXPECT_GT(warpscope::jit::stats().segments, before);
  ASSERT_FALSE(interp.message.empty());
  EXPECT_NE(interp.message.find("thread (1,0,0)"), std::string::npos) << interp.message;
  EXPECT_EQ(jit.message, interp.message);
  EXPECT_EQ(jit.kind, interp.kind);
  EXPECT_EQ(jit.data, interp.data);  // a faulting instruction changes nothing
  // One thread: no fault, the float doubled.
  EXPECT_TRUE(interp_one.message.empty()) << interp_one.message;
  EXPECT_EQ(jit_one.message, interp_one.message);
  EXPECT_EQ(jit_one.data, interp_one.data);
  EXPECT_EQ(jit_one.data[0], 3.0f);
}

}  // namespace
