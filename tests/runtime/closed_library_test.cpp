// GPU code warpscope cannot interpret (machine code only, in a library) and programs without
// GPU code of their own (docs/runtime.md "Closed libraries").
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "arch/profile.hpp"
#include "harness.hpp"
#include "run_cmd.hpp"

using rt_test::prog;
using rt_test::run_under_warpscope;

TEST(ClosedLibrary, ProgramWithoutKernelsRuns) {
  const auto c = warpscope::cli::check_binary(prog("host_only"), warpscope::arch::builtin_profile("hopper"));
  EXPECT_TRUE(c.runnable) << c.message;
  EXPECT_TRUE(c.message.empty()) << c.message;
  const auto r = run_under_warpscope(prog("host_only"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("host only: OK"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("PTX"), std::string::npos) << r.err;
}

TEST(ClosedLibrary, MachineCodeOnlyLibraryIsNamed) {
  const auto r = run_under_warpscope(prog("sass_lib_user"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  // The launch fails as on a GPU without a matching image, after a message naming the library.
  EXPECT_NE(r.out.find("launch: cudaErrorNoKernelImageForDevice"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("libsasslib.so (" + prog("libsasslib.so") + ")"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("machine code only (SASS for sm_90), without PTX"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("warpscope interprets PTX"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("built without PTX"), std::string::npos) << r.err;
}

TEST(ClosedLibrary, CublasIsNamedWithTheReason) {
  if (!std::filesystem::exists(prog("cublas_user"))) GTEST_SKIP() << "cuBLAS not installed";
  const auto r = run_under_warpscope(prog("cublas_user"));
  // cuBLAS carries its own CUDA runtime: it fails by itself (warpscope's driver lacks cuGetExportTable); warpscope says
  // why first.
  EXPECT_NE(r.err.find("warpscope: libcublas"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("is a closed CUDA library"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("machine code (SASS for sm_"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("its own CUDA runtime"), std::string::npos) << r.err;
  // And `warpscope run` does not refuse it for want of PTX in the program itself.
  const auto c = warpscope::cli::check_binary(prog("cublas_user"), warpscope::arch::builtin_profile("hopper"));
  EXPECT_TRUE(c.runnable) << c.message;
  EXPECT_TRUE(c.message.empty()) << c.message;
}
