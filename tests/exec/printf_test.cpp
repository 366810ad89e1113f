// Device printf: formats like CUDA's printf and prints in (block, warp, lane) order.
#include <algorithm>
#include <sstream>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

TEST(Printf, FormatsAndOrder) {
  WS_LOAD_PTX(ptx, "printf");
  std::ostringstream out;
  DeviceOptions opt;
  opt.printf_output = &out;
  Device dev(opt);
  Module m = dev.load_ptx(ptx, "printf.ptx");
  const int k = 7;
  const double d = 2.71828;
  const KernelArg args[] = {arg(k), arg(d)};
  dev.launch(m, "hello", {2}, {40}, args);
  // Warp 0 of block 0 prints its 32 lines, then thread 0's second line; then warp 1 (8 threads),
  // then block 1.
  std::string want;
  char buf[256];
  auto line = [&](int b, int t) {
    std::snprintf(buf, sizeof buf, "block %d thread %d k=%d d=%.3f\n", b, t, k, d);
    want += buf;
  };
  for (int t = 0; t < 32; ++t) line(0, t);
  want += "str|   42|42   |003.1|ff|FF|10|A|1.234568e+04|0.0001|-5|18446744073709551615|3000000000|%|0x1234\n";
  for (int t = 32; t < 40; ++t) line(0, t);
  for (int t = 0; t < 40; ++t) line(1, t);
  EXPECT_EQ(out.str(), want);
}

TEST(Printf, SameOutputWithSeveralHostThreads) {
  WS_LOAD_PTX(ptx, "printf");
  std::string results[2];
  for (unsigned threads : {1u, 3u}) {
    std::ostringstream out;
    DeviceOptions opt;
    opt.printf_output = &out;
    opt.host_threads = threads;
    Device dev(opt);
    Module m = dev.load_ptx(ptx, "printf.ptx");
    const int k = 1;
    const double d = 0.5;
    const KernelArg args[] = {arg(k), arg(d)};
    dev.launch(m, "hello", {9}, {33}, args);
    // 300 CTAs: on 3 threads, chunks of 3 consecutive CTAs; the text stays in CTA order.
    dev.launch(m, "hello", {300}, {33}, args);
    results[threads == 1 ? 0 : 1] = out.str();
  }
  EXPECT_EQ(results[0], results[1]);
  EXPECT_EQ(std::count(results[0].begin(), results[0].end(), '\n'), (9 + 300) * 33 + 2);
}

}  // namespace
}  // namespace warpscope::exec::test
