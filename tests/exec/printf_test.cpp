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

namespace {
// The last n lines of text.
std::string tail_lines(const std::string& text, std::size_t n) {
  std::size_t at = text.size();
  for (std::size_t i = 0; i <= n && at != 0; ++i) {
    const std::size_t nl = text.rfind('\n', at - 1);
    if (i == n) return text.substr(nl == std::string::npos ? 0 : nl + 1);
    if (nl == std::string::npos) return text;
    at = nl;
  }
  return text.substr(at == 0 ? 0 : at + 1);
}
}  // namespace

// The printf FIFO (cudaLimitPrintfFifoSize) is circular: when a launch's calls outgrow it, the
// oldest are overwritten and the newest that fit are printed, whatever the thread count; the next
// launch starts with an empty FIFO.
TEST(Printf, OutputBeyondTheFifoKeepsTheNewestCalls) {
  WS_LOAD_PTX(ptx, "printf");
  std::string full, full_one_block;
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
    out.str("");
    EXPECT_EQ(dev.launch(m, "hello", {1}, {40}, args).printf_dropped, 0u);
    full_one_block = out.str();
  }
  EXPECT_EQ(std::count(full.begin(), full.end(), '\n'), 4 * 40 + 1);
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
    EXPECT_EQ(out.str(), tail_lines(full, 10)) << threads;
    EXPECT_TRUE(dev.printf_launched());
    EXPECT_THROW(dev.set_printf_fifo_size(1 << 20), Error);
    // The next launch starts with an empty FIFO.
    out.str("");
    const std::size_t one_block = static_cast<std::size_t>(std::count(full_one_block.begin(), full_one_block.end(), '\n'));
    // Its newest calls include the one with a %s argument and 13 arguments, which takes more than
    // 40 bytes (but at most 119): 9 calls fit.
    EXPECT_EQ(dev.launch(m, "hello", {1}, {40}, args).printf_dropped, one_block - 9);
    EXPECT_EQ(out.str(), tail_lines(full_one_block, 9));
  }
}

}  // namespace
}  // namespace warpscope::exec::test
