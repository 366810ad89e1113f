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

// The printf FIFO (cudaLimitPrintfFifoSize): once a call does not fit, it and every later call of
// the launch are dropped, whatever the thread count; the next launch starts with an empty FIFO.
TEST(Printf, OutputBeyondTheFifoIsDropped) {
  WS_LOAD_PTX(ptx, "printf");
  std::string full;
  {
    std::ostringstream out;
    DeviceOptions opt;
    opt.printf_output = &out;
    Device dev(opt);
    Module m = dev.load_ptx(ptx, "printf.ptx");
    const int k = 7;
    const double d = 1.5;
    const KernelArg args[] = {arg(k), arg(d)};
    EXPECT_EQ(dev.launch(m, "hello", {4}, {40}, args).printf_dropped, 0u);
    full = out.str();
  }
  for (unsigned threads : {1u, 2u}) {
    std::ostringstream out;
    DeviceOptions opt;
    opt.printf_output = &out;
    opt.host_threads = threads;
    Device dev(opt);
    // "block %d thread %d k=%d d=%.3f\n": 16 bytes of record + 24 of arguments = 40 bytes a call.
    dev.set_printf_fifo_size(10 * 40 + 39);
    Module m = dev.load_ptx(ptx, "printf.ptx");
    const int k = 7;
    const double d = 1.5;
    const KernelArg args[] = {arg(k), arg(d)};
    const LaunchStats s = dev.launch(m, "hello", {4}, {40}, args);
    const std::size_t calls = 4 * 40 + 1;
    EXPECT_EQ(s.printf_dropped, calls - 10) << threads;
    std::size_t end = 0;
    for (int i = 0; i < 10; ++i) end = full.find('\n', end) + 1;
    EXPECT_EQ(out.str(), full.substr(0, end)) << threads;
    EXPECT_TRUE(dev.printf_launched());
    EXPECT_THROW(dev.set_printf_fifo_size(1 << 20), Error);
    // The FIFO is flushed when the next kernel starts: its first 10 calls are printed again.
    out.str("");
    EXPECT_EQ(dev.launch(m, "hello", {1}, {40}, args).printf_dropped, 41u - 10u);
    EXPECT_EQ(out.str(), full.substr(0, end));
  }
}

}  // namespace
}  // namespace warpscope::exec::test
