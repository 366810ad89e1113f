// The 8-bit float conversions against the H100 (tests/hw/fp8/fp8_cvt.cu, tests/hw/data/h100/fp8):
// every result byte of cvt .e4m3x2/.e5m2x2 from 2^20 + 24 floats and all 65536 halves, with and
// without .relu, and of cvt .f16x2 from all 65536 byte pairs, equals the H100's.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "../runtime/harness.hpp"

namespace {

TEST(Fp8Cvt, EveryConversionAsOnTheH100) {
  const std::string data = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/fp8/";
  const std::string exe = rt_test::prog("fp8_cvt"), got = exe + ".bin";
  std::remove(got.c_str());
  const rt_test::Result r = rt_test::run_under_warpscope(exe + " " + got, "", "WARPSCOPE_QUIET=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, rt_test::slurp(data + "fp8_cvt.txt")) << r.err;
  const rt_test::Result h100 = rt_test::run_shell("gzip -dc '" + data + "fp8_cvt.bin.gz'");
  ASSERT_EQ(h100.exit_code, 0) << h100.err;
  const std::string a = rt_test::slurp(got), &b = h100.out;
  ASSERT_EQ(a.size(), b.size());
  std::size_t diff = 0, first = a.size();
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != b[i] && diff++ == 0) first = i;
  EXPECT_EQ(diff, 0u) << "first differing byte at offset " << first;
}

}  // namespace
