// The driver API (docs/runtime.md, "The driver API"): programs linked with -lcuda run under
// lib/warpscope (libcuda.so.1 is the runtime's own library), alone or mixed with runtime calls;
// their launches are in the report; `warpscope run` lets them run.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "arch/profile.hpp"
#include "harness.hpp"
#include "read_json.hpp"
#include "run_cmd.hpp"

using rt_test::prog;
using rt_test::run_under_warpscope;

namespace {

std::string kernels_args() {
  return prog("driver_kernels.ptx") + " " + prog("driver_kernels.fatbin") + " " + prog("driver_kernels.cubin");
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace

TEST(Driver, DriverProgramBehavesAsDocumented) {
  const std::string report = prog("driver_api.json");
  const auto r = run_under_warpscope(prog("driver_api") + " " + kernels_args(), report);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("not ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
  // The default profile's device.
  EXPECT_NE(r.out.find("compute capability: 9.0"), std::string::npos) << r.out;
  // The cubin is refused with the module's name and the flags that embed PTX.
  EXPECT_NE(r.err.find("cuModuleLoadData image 1 is machine code (a cubin), which warpscope cannot run"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("nvcc -fatbin -gencode arch=compute_90,code=compute_90"), std::string::npos) << r.err;
  // A refused call says why once.
  EXPECT_EQ(count(r.err, "warpscope: cuDeviceGetLuid: a device's LUID is a Windows (WDDM) property"), 1u) << r.err;

  // The launches: scale_add (kernelParams), mixed_params (extra buffer), count_and_offset (on a
  // stream), scale_add again (cuLaunchKernelEx of a library's kernel); the refused launches are not.
  const nlohmann::json j = rt_test::read_json(report);
  const auto& l = j.at("launches");
  ASSERT_EQ(l.size(), 4u) << j.dump(1);
  EXPECT_EQ(l[0]["name"], "scale_add");
  EXPECT_EQ(l[1]["name"], "mixed_params");
  EXPECT_EQ(l[2]["name"], "count_and_offset");
  EXPECT_EQ(l[3]["name"], "scale_add");
  EXPECT_EQ(l[0]["grid"], nlohmann::json::array({8, 1, 1}));
  EXPECT_EQ(l[0]["block"], nlohmann::json::array({128, 1, 1}));
  EXPECT_NE(l[2]["stream"], 0);
  // scale_add on 1000 floats in 8 blocks of 128: 32 warps (the last with 8 active lanes) load x[i]
  // and y[i] once each: 64 requests; a full warp's 128 bytes are 4 sectors, the last warp's
  // 32 bytes one: 31 * 2 * 4 + 2 = 250 sectors (cuMemAlloc's 256-byte alignment).
  EXPECT_EQ(l[0]["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 64);
  EXPECT_EQ(l[0]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 250);
  // Launched in 4 blocks of 256 by cuLaunchKernelEx: the same warps, the same counters.
  EXPECT_EQ(l[3]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 250);
  EXPECT_NE(l[0]["module"].get<std::string>().find("cuModuleLoadData image 0 (sm_90 PTX text)"), std::string::npos)
      << l[0]["module"];
  EXPECT_NE(l[1]["module"].get<std::string>().find("compute_90 PTX from a fatbinary"), std::string::npos)
      << l[1]["module"];
}

TEST(Driver, MemoryArraysOccupancyAndStreamsBehaveAsDocumented) {
  // driver_memory.cpp checks return codes and values itself (cuda.h, the driver API reference, the
  // H100's limits, a CPU reference); here: it passes, no call is a stub, the one wait that could
  // never end is refused with a message, and the kernels on mapped, pool and texture memory are
  // launches of the report: scale_add on mapped memory, on pool memory, tex_read, and scale_add
  // by cuLaunchGrid, link_kernel of the linked modules. The cubin given to the linker is refused
  // with a message.
  const std::string report = prog("driver_memory.json");
  const auto r = run_under_warpscope(prog("driver_memory") + " " + prog("driver_kernels.ptx") + " " +
                                         prog("driver_link_a.ptx") + " " + prog("driver_link_b.ptx"),
                                     report);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("not ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("is not supported by warpscope"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cuStreamWaitValue32: the value at 0x"), std::string::npos) << r.err;
  const nlohmann::json j = rt_test::read_json(report);
  const auto& l = j.at("launches");
  EXPECT_NE(r.err.find("cuLinkAddData: fake.cubin is machine code (CU_JIT_INPUT_CUBIN), which warpscope cannot link"),
            std::string::npos)
      << r.err;
  ASSERT_EQ(l.size(), 5u) << j.dump(1);
  EXPECT_EQ(l[4]["name"], "link_kernel");
  EXPECT_EQ(l[0]["name"], "scale_add");
  EXPECT_EQ(l[1]["name"], "scale_add");
  EXPECT_EQ(l[2]["name"], "tex_read");
  EXPECT_EQ(l[3]["name"], "scale_add");
  EXPECT_EQ(l[3]["grid"], nlohmann::json::array({2, 1, 1}));
  EXPECT_EQ(l[3]["block"], nlohmann::json::array({128, 1, 1}));
  // scale_add on 1000 floats: every warp loads x[i] and y[i] once: 64 requests (as
  // DriverProgramBehavesAsDocumented), on mapped memory as on cuMemAlloc's.
  EXPECT_EQ(l[0]["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 64);
  EXPECT_EQ(l[1]["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 64);
}

TEST(Driver, RuntimeAndDriverCallsShareOneDevice) {
  const std::string report = prog("driver_mixed.json");
  const auto r = run_under_warpscope(prog("driver_mixed") + " " + prog("driver_kernels.ptx"), report);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("not ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
  const nlohmann::json j = rt_test::read_json(report);
  const auto& l = j.at("launches");
  ASSERT_EQ(l.size(), 3u) << j.dump(1);
  EXPECT_EQ(l[0]["name"], "scale_add");
  EXPECT_EQ(l[1]["name"], "twice(float*, int)");
  EXPECT_EQ(l[2]["name"], "twice(float*, int)");
}

TEST(Driver, FormerStubsAnswerAsTheH200) {
  // driver_misc.cpp checks the H200's answers itself (tests/hw/data/h200/driver_stubs); here: it
  // passes, no call is a stub, each call the H200 refuses says why once on stderr, and the one
  // kernel, launched by cuLaunchCooperativeKernelMultiDevice, is a launch of the report.
  const std::string report = prog("driver_misc.json");
  const auto r = run_under_warpscope(prog("driver_misc") + " " + prog("driver_kernels.ptx"), report);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("not ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("is not supported by warpscope"), std::string::npos) << r.err;
  for (const char* line : {"warpscope: cuMemAlloc: the v1 driver API", "warpscope: cuStreamWriteValue32: the v1 stream",
                           "warpscope: cuMemBatchDecompressAsync: memory decompression",
                           "warpscope: cuProfilerInitialize: ", "warpscope: cuDeviceGetLuid: ",
                           "warpscope: cuLibraryGetUnifiedFunction: unified functions"}) {
    EXPECT_NE(r.err.find(line), std::string::npos) << line << "\n" << r.err;
  }
  EXPECT_EQ(r.err.find("warpscope: cuMemAlloc: the v1 driver API", r.err.find("warpscope: cuMemAlloc: ") + 1),
            std::string::npos)
      << "said once: " << r.err;
  const nlohmann::json j = rt_test::read_json(report);
  const auto& l = j.at("launches");
  ASSERT_EQ(l.size(), 1u) << j.dump(1);
  EXPECT_EQ(l[0]["name"], "scale_add");
  EXPECT_EQ(l[0]["grid"], nlohmann::json::array({1, 1, 1}));
  EXPECT_EQ(l[0]["block"], nlohmann::json::array({64, 1, 1}));
}

TEST(Driver, GraphsAndStreamCaptureThroughTheDriver) {
  // driver_graph.cpp checks return codes, counts, edges, parameters and results itself (the driver
  // API reference's values); here: it passes, no call is a stub, and the graphs' kernel nodes are
  // launches of the report: the graph launched 4 times (a = 2, 2, 3, 4), the graph of
  // cuGraphAddNode once, the captured graph once; the captured cuLaunchKernel is not a launch.
  const std::string report = prog("driver_graph.json");
  const auto r = run_under_warpscope(prog("driver_graph") + " " + prog("driver_kernels.ptx"), report);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("not ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("is not supported"), std::string::npos) << r.err;
  const nlohmann::json j = rt_test::read_json(report);
  const auto& l = j.at("launches");
  ASSERT_EQ(l.size(), 6u) << j.dump(1);
  for (const auto& launch : l) {
    EXPECT_EQ(launch["name"], "scale_add");
    EXPECT_EQ(launch["grid"], nlohmann::json::array({8, 1, 1}));
    // scale_add on 1000 floats: 64 requests, 250 sectors (as DriverProgramBehavesAsDocumented).
    EXPECT_EQ(launch["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 250);
  }
}

TEST(Driver, DlopenOfLibcudaGivesTheRuntimesObject) {
  const auto r = run_under_warpscope(prog("driver_dlopen"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("same object: yes"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("cuInit: 0, cuDeviceGetCount: 0, devices: 1"), std::string::npos) << r.out;
}

TEST(Driver, WarpscopeRunLetsADriverProgramRun) {
  // Built as NVIDIA's *Drv samples are (nvcc's defaults, -lcuda): no runtime is used, so it is not
  // "linked with the static runtime".
  const auto c = warpscope::cli::check_binary(prog("driver_api"), warpscope::arch::builtin_profile("hopper"));
  EXPECT_EQ(c.kind, warpscope::cli::BinaryCheck::Kind::kDriver) << c.message;
  EXPECT_TRUE(c.runnable) << c.message;
  EXPECT_EQ(c.message, "");
  const auto m = warpscope::cli::check_binary(prog("driver_mixed"), warpscope::arch::builtin_profile("hopper"));
  EXPECT_EQ(m.kind, warpscope::cli::BinaryCheck::Kind::kShared) << m.message;
}
