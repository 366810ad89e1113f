// Dynamic parallelism in the interpreter (src/exec/cdp.cpp): the device runtime's
// GetParameterBufferV2 / LaunchDeviceV2 pair as nvcc emits it for `child<<<g, b, s, stream>>>`
// make LaunchStats::device_launches, in CTA, warp and lane order, with the parameters the threads
// wrote; the launcher runs them (src/runtime, Runtime.DynamicParallelism). A device runtime call
// warpscope does not run is refused at load, naming it.
#include <cstring>
#include <string>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

// parent(p): each of its threads launches child(p, 100 + tid) on <<<(2,1,1), (32,1,1), 16, stream>>>
// with stream = tid (1 is odd: any handle the device runtime accepts; 3 is cudaStreamTailLaunch).
const std::string kPtx = R"(.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b64 func_retval0) __cudaCDP2GetParameterBufferV2(
  .param .b64 p0, .param .align 4 .b8 p1[12], .param .align 4 .b8 p2[12], .param .b32 p3);
.extern .func (.param .b32 func_retval0) __cudaCDP2LaunchDeviceV2(.param .b64 p0, .param .b64 p1);
.visible .entry child(.param .u64 child_p, .param .u32 child_v) {
  ret;
}
.visible .entry parent(.param .u64 parent_p, .param .u64 parent_err) {
  .reg .pred %p<2>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd2, [parent_p];
  ld.param.u64 %rd6, [parent_err];
  mov.u64 %rd3, child;
  mov.u32 %r1, %tid.x;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd3;
  .param .align 4 .b8 param1[12];
  st.param.b32 [param1+0], 2;
  st.param.b32 [param1+4], 1;
  st.param.b32 [param1+8], 1;
  .param .align 4 .b8 param2[12];
  st.param.b32 [param2+0], 32;
  st.param.b32 [param2+4], 1;
  st.param.b32 [param2+8], 1;
  .param .b32 param3;
  st.param.b32 [param3+0], 16;
  .param .b64 retval0;
  call.uni (retval0), __cudaCDP2GetParameterBufferV2, (param0, param1, param2, param3);
  ld.param.b64 %rd1, [retval0+0];
  }
  setp.eq.s64 %p1, %rd1, 0;
  @%p1 bra DONE;
  add.s32 %r2, %r1, 100;
  st.u64 [%rd1], %rd2;
  st.u32 [%rd1+8], %r2;
  cvt.u64.u32 %rd4, %r1;
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd1;
  .param .b64 param1;
  st.param.b64 [param1+0], %rd4;
  .param .b32 retval0;
  call.uni (retval0), __cudaCDP2LaunchDeviceV2, (param0, param1);
  ld.param.b32 %r3, [retval0+0];
  }
  mul.wide.u32 %rd5, %r1, 4;
  add.s64 %rd7, %rd6, %rd5;
  st.global.u32 [%rd7], %r3;
DONE:
  ret;
}
)";

TEST(Cdp, LaunchesComeInThreadOrderWithTheirParameters) {
  Device dev;
  Module m = dev.load_ptx(kPtx, "cdp.ptx");
  const DevicePtr p = dev.malloc(16), err = dev.malloc(4 * 4);
  const KernelArg args[] = {arg(p), arg(err)};
  const LaunchStats s = dev.launch(m, "parent", {1}, {4}, args);
  ASSERT_EQ(s.device_launches.size(), 4u);
  for (unsigned t = 0; t < 4; ++t) {
    const DeviceLaunch& d = s.device_launches[t];
    EXPECT_EQ(d.kernel, "child");
    EXPECT_EQ(d.grid.x, 2u);
    EXPECT_EQ(d.block.x, 32u);
    EXPECT_EQ(d.shared_bytes, 16u);
    EXPECT_EQ(d.cta, 0u);
    EXPECT_EQ(d.thread, t);
    EXPECT_EQ(d.tail, t == 3);  // stream 0x3: cudaStreamTailLaunch
    // child(.u64, .u32): 12 parameter bytes, the pointer then 100 + tid.
    ASSERT_EQ(d.params.size(), 12u);
    std::uint64_t ptr = 0;
    std::uint32_t v = 0;
    std::memcpy(&ptr, d.params.data(), 8);
    std::memcpy(&v, d.params.data() + 8, 4);
    EXPECT_EQ(ptr, p);
    EXPECT_EQ(v, 100u + t);
  }
  // Every LaunchDeviceV2 returned cudaSuccess.
  EXPECT_EQ(download<unsigned>(dev, err, 4), (std::vector<unsigned>{0, 0, 0, 0}));
}

TEST(Cdp, AnUnsupportedDeviceRuntimeCallIsRefusedByName) {
  const std::string ptx = R"(.version 8.0
.target sm_90
.address_size 64
.extern .func (.param .b32 func_retval0) __cudaCDP2Malloc(.param .b64 p0, .param .b64 p1);
.visible .entry k(.param .u64 p) {
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [p];
  {
  .param .b64 param0;
  st.param.b64 [param0+0], %rd1;
  .param .b64 param1;
  st.param.b64 [param1+0], 64;
  .param .b32 retval0;
  call.uni (retval0), __cudaCDP2Malloc, (param0, param1);
  ld.param.b32 %r1, [retval0+0];
  }
  ret;
}
)";
  Device dev;
  const DevicePtr d = dev.malloc(8);
  try {
    Module m = dev.load_ptx(ptx, "cdp_malloc.ptx");
    const KernelArg args[] = {arg(d)};
    dev.launch(m, "k", {1}, {1}, args);
    ADD_FAILURE() << "__cudaCDP2Malloc ran";
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("the device runtime call `__cudaCDP2Malloc` (dynamic parallelism)"), std::string::npos) << msg;
  }
}

}  // namespace
}  // namespace warpscope::exec::test
