// Device printf (kernels/printf.cu), captured through DeviceOptions::printf_output.
// Tolerance: exact text. The expected text is what the host's snprintf makes of the same format
// strings and values (CUDA's printf follows the C printf conversions; float arguments are
// promoted to double as in any variadic call).
#include "corpus.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

namespace corpus {
namespace {

template <class... Args>
std::string format(const char* fmt, Args... args) {
  char text[512];
  const int length = std::snprintf(text, sizeof text, fmt, args...);
  EXPECT_GE(length, 0);
  return std::string(text, static_cast<std::size_t>(std::max(length, 0)));
}

std::vector<std::string> sorted_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST(Printf, ConversionsMatchTheHostPrintf) {
  std::ostringstream captured;
  warpscope::DeviceOptions options;
  options.printf_output = &captured;
  Device device(options);
  Module module = load(device, "printf");
  const int i = -1234;
  const unsigned u = 0xdeadbeefu;
  const long long ll = -9000000000123LL;
  const unsigned long long ull = 18000000000000000001ull;
  const float f = 3.14159274f;
  const double d = -2.718281828459045;
  const char c = 'W';
  launch(device, module, "printf_formats", Dim3{1}, Dim3{1}, i, u, ll, ull, f, d, c);
  const double fd = f;
  std::string want;
  want += format("int=%d neg=%d unsigned=%u hex=%x HEX=%08X\n", i, -i, u, u, u);
  want += format("ll=%lld ull=%llu\n", ll, ull);
  want += format("float=%f %.3f %e %g\n", fd, fd, fd, fd);
  want += format("double=%.10f %.3e\n", d, d);
  want += format("char=%c str=%s pct=%%\n", static_cast<int>(c), "literal");
  want += format("[%5d|%-5d|%+d]\n", i, i, i);
  EXPECT_EQ(captured.str(), want);
}

TEST(Printf, EveryPrintingThreadPrintsOneLine) {
  std::ostringstream captured;
  warpscope::DeviceOptions options;
  options.printf_output = &captured;
  Device device(options);
  Module module = load(device, "printf");
  launch(device, module, "printf_threads", Dim3{3}, Dim3{40}, 77);
  std::string want;
  for (int b = 0; b < 3; ++b)
    for (int t = 0; t < 40; t += 2) want += format("tag %d block %d thread %d\n", 77, b, t);
  EXPECT_EQ(sorted_lines(captured.str()), sorted_lines(want));
}

TEST(Printf, StringArgumentInDeviceMemory) {
  std::ostringstream captured;
  warpscope::DeviceOptions options;
  options.printf_output = &captured;
  Device device(options);
  Module module = load(device, "printf");
  const std::string text = "warpscope";
  Buffer<char> d_text(device, std::vector<char>(text.c_str(), text.c_str() + text.size() + 1));
  launch(device, module, "printf_string_arg", Dim3{1}, Dim3{1}, d_text.ptr(), 17);
  EXPECT_EQ(captured.str(), format("<%s> <%6d> <%d>\n", text.c_str(), 17, 34));
}

}  // namespace
}  // namespace corpus
