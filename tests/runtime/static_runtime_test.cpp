// NVIDIA's static CUDA runtime (nvcc's default -cudart static, and CMake's) on warpscope's driver
// (docs/runtime.md, "The static CUDA runtime"): each program is built both ways, and the static
// build must print what the shared build prints and leave the same launches, with the same
// counters, in the report. The expected values of the programs' own output follow from their
// source and from the H200's answers to the same bad launches (tests/hw/data/h200/runtime_gt).
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "read_json.hpp"

using rt_test::prog;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// A launch of the report without what depends on the process and the host: the module's name
/// (the static runtime loads the program's fatbinary as a library: "cuLibraryLoadData image 0"),
/// host times and memory, and the sample access's addresses (the static runtime loads the module,
/// and allocates its __device__ variables, at its first call; warpscope's runtime at the first
/// launch, so allocations can sit at other addresses).
nlohmann::json comparable(nlohmann::json launch) {
  for (const char* k : {"module", "host_time_ns", "host_peak_rss_bytes", "wall_ms", "process"}) launch.erase(k);
  if (launch.contains("error")) {  // a fault's message names the module
    std::string e = launch["error"];
    for (const std::string name : {"cuLibraryLoadData image 0 (compute_90 PTX from a fatbinary, zstd)",
                                   "fatbinary 0 (compute_90 PTX, zstd)"})
      if (const auto at = e.find(name); at != std::string::npos) e.replace(at, name.size(), "<module>");
    launch["error"] = e;
  }
  if (launch.contains("lines"))
    for (auto& line : launch["lines"])
      if (line.contains("instructions"))
        for (auto& ins : line["instructions"]) ins.erase("sample");
  return launch;
}

class StaticRuntime : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }
  rt_test::Result run(const std::string& program, const std::string& json) {
    return rt_test::run_shell(exe_ + " run --json " + json + " -- " + program);
  }
  /// Runs the static and the shared build under `warpscope run`; both succeed, print the same,
  /// and report the same launches.
  void expect_same(const std::string& static_build, const std::string& shared_build, rt_test::Result* st = nullptr,
                   const std::string& args = "") {
    const std::string js = prog(static_build + ".static.json"), jd = prog(shared_build + ".shared.json");
    const auto s = run(prog(static_build) + args, js);
    const auto d = run(prog(shared_build) + args, jd);
    ASSERT_EQ(s.exit_code, 0) << s.out << s.err;
    ASSERT_EQ(d.exit_code, 0) << d.out << d.err;
    EXPECT_EQ(rt_test::without_timings(s.out), rt_test::without_timings(d.out));
    const auto a = rt_test::read_json(js)["launches"], b = rt_test::read_json(jd)["launches"];
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_EQ(comparable(a[i]), comparable(b[i])) << "launch " << i;
    if (st != nullptr) *st = s;
  }
  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
};

}  // namespace

TEST_F(StaticRuntime, ProgramPrintsAndReportsAsTheSharedBuild) {
  rt_test::Result r;
  expect_same("static_runtime", "static_runtime_shared", &r);
  EXPECT_EQ(r.out,
            "runtime version 13000\n"
            "device NVIDIA H100 80GB HBM3, cc 9.0, 132 SMs, warp 32\n"
            "saxpy: 0 wrong of 10000\n"
            "d_bias: 4 bytes\n"
            // y = 1 + v (0.5 + v (0.25 + 0.125 v)) + 0.5 for v = 3 and 7
            "poly: hits 8, y[3] = 8.6250, y[7] = 60.1250\n"
            // x[i] = i * 0.5 * 4
            "streams: x[1] = 2.0, x[9999] = 19998.0, query cudaSuccess\n"
            "events: elapsed time positive\n"
            // The H200's answers: launch_block_2048, launch_shared_1MiB, launch_grid_0.
            "block of 2048: cudaErrorInvalidValue, then cudaSuccess\n"
            "1 MiB of shared memory: cudaErrorInvalidValue, then cudaErrorInvalidValue\n"
            "empty grid: cudaErrorInvalidValue\n"
            "saxpy: 1024 threads per block at most, 8 blocks of 256 per SM\n"
            "hello from block 1, tag 7\n"
            "after reset: cudaSuccess\n");
  // The report names the kernels and streams as for the shared build: the legacy default stream
  // is 0, the program's two streams 1 and 2; the bad launches are not launches.
  const auto l = rt_test::read_json(prog("static_runtime.static.json"))["launches"];
  ASSERT_EQ(l.size(), 6u);
  const char* names[] = {"saxpy(float const*, float*, float, int)", "poly(float*, int)", "scale(float*, float, int)",
                         "scale(float*, float, int)", "hello(int)", "saxpy(float const*, float*, float, int)"};
  const int streams[] = {0, 0, 1, 2, 1, 0};
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(l[i]["name"], names[i]) << i;
    EXPECT_EQ(l[i]["stream"], streams[i]) << i;
  }
  EXPECT_EQ(l[0]["grid"], nlohmann::json::array({40, 1, 1}));
  EXPECT_EQ(l[2]["grid"], nlohmann::json::array({79, 1, 1}));
  EXPECT_EQ(l[3]["block"], nlohmann::json::array({512, 1, 1}));
  EXPECT_EQ(l[0]["module"], "cuLibraryLoadData image 0 (compute_90 PTX from a fatbinary, zstd)");
  EXPECT_NE(r.err.find("6 kernel launches on hopper"), std::string::npos) << r.err;
}

TEST_F(StaticRuntime, RuntimeApiChecksPassAsForTheSharedBuild) {
  rt_test::Result r;
  expect_same("api_test_static", "api_test", &r);
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
  // The static runtime's graphs are the driver's (cuGraph*): cudaGraphCreate works, no stub speaks.
  EXPECT_EQ(count(r.err, "warpscope: cuGraph"), 0u) << r.err;
}

TEST_F(StaticRuntime, SaxpyExampleAsTheSharedBuild) {
  rt_test::Result r;
  expect_same("saxpy_static", "saxpy", &r, " 100003");
  EXPECT_NE(r.out.find("all saxpy variants OK"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("5 kernel launches on hopper"), std::string::npos) << r.err;
}

TEST_F(StaticRuntime, KernelFaultIsStickyAsForTheSharedBuild) {
  rt_test::Result r;
  expect_same("fault_nvidia_static", "fault", &r);
  EXPECT_NE(r.out.find("sync: cudaErrorIllegalAddress"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("memcpy after: cudaErrorIllegalAddress"), std::string::npos) << r.out;
}

// -rdc=true: the static runtime loads the device link's image (machine code only) with
// cuLibraryLoadData; warpscope's driver links the translation units of the executable's
// __nv_relfatbin instead, as its runtime does for the shared build.
TEST_F(StaticRuntime, RelocatableDeviceCodeAsTheSharedBuild) {
  rt_test::Result r;
  expect_same("rdc_static", "rdc", &r);
  EXPECT_NE(r.out.find("counter 40/40: OK"), std::string::npos) << r.out;
  expect_same("cdp_static", "cdp", &r);
  EXPECT_NE(r.out.find("0 device errors: OK"), std::string::npos) << r.out;
}

TEST_F(StaticRuntime, CMakeBuiltProgramRuns) {
  // CMake's default CUDA runtime is the static one (libcudart_static.a, -lcudadevrt).
  expect_same("cmake_static", "static_runtime_shared");
}

TEST_F(StaticRuntime, DriverTraceNamesTheTablesInOrder) {
  const auto r = rt_test::run_shell("WARPSCOPE_DRIVER_TRACE=1 " + exe_ + " run --quiet --no-summary -- " +
                                    prog("static_runtime"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const char* order[] = {
      "cuGetProcAddress cuInit version 2000: found",
      "cuGetExportTable {f8cff951-2146-8b4e-b9e2-fb469e7c0dd9}: no such table",
      "cuGetExportTable {6bd5fb6c-5bf4-e74a-8987-d93912fd9df9} (cudart interface)",
      "cuGetExportTable {a094798c-2e74-2e74-93f2-0800200c0a66} (tools runtime callback hooks)",
      "cudart interface: primary context of device 0",
      "cuGetExportTable {42d85a81-23f6-cb47-8298-f6e78a3aecdc} (tools thread-local storage)",
      "cuGetExportTable {c693336e-1121-df11-a8c3-68f355d89593} (context-local storage)",
      "cuGetExportTable {263e8860-7cd2-6143-92f6-bbd5006dfa7e} (context checks)",
      "cuGetExportTable {d4082055-bde6-704b-8d34-ba123c66e1f2} (integrity check)",
      "integrity check: version 13000",
      "integrity check: version 13001",
      "integrity check: version 13002",
      "context-local storage: put key",
  };
  std::size_t at = 0;
  for (const char* line : order) {
    const std::size_t next = r.err.find(std::string("warpscope: driver trace: ") + line, at);
    ASSERT_NE(next, std::string::npos) << line << "\n" << r.err;
    at = next;
  }
  // cudaDeviceReset: the runtime forgets its state before the driver resets the context.
  EXPECT_NE(r.err.find("context-local storage: delete key"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("does not serve"), std::string::npos) << r.err;
}

TEST(StaticRuntimeTables, EntriesBehaveAsTheStaticRuntimeNeeds) {
  const auto r = rt_test::run_under_warpscope(prog("export_tables") + " " + prog("driver_kernels.fatbin"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("not ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
  // An entry warpscope does not serve is named once, with the table, its id and the runtime's version.
  EXPECT_EQ(count(r.err, "warpscope: the program's static CUDA runtime (CUDA 13.0) called entry 1 of the driver's "
                         "private heap access table {195bcbf4-d67d-024a-acc5-1d29cea631ae}, which warpscope's driver "
                         "does not serve"),
            1u)
      << r.err;
  // A newer runtime's version is named with the reason it stops.
  EXPECT_NE(r.err.find("asks for the driver API of CUDA 13.1; warpscope's driver is CUDA 13.0's"), std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("stops with cudaErrorInsufficientDriver"), std::string::npos) << r.err;
}
