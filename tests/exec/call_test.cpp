// Calls of __noinline__ functions: parameters and results through .param space, divergent calls,
// divergence and early returns inside the callee, recursion, structures returned by value.
#include <cmath>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

int collatz(int x) {
  int s = 0;
  while (x != 1) {
    if (s > 500) return -1;
    x = (x & 1) ? 3 * x + 1 : x / 2;
    ++s;
  }
  return s;
}
int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }

TEST(Calls, NoinlineFunctionsRecursionAndStructResults) {
  WS_LOAD_PTX(ptx, "calls");
  Device dev;
  Module m = dev.load_ptx(ptx, "calls.ptx");
  const int n = 160;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[i] = 0.25f * float(i) - 3.0f;
  const DevicePtr din = upload(dev, in), fout = dev.malloc(n * 4), iout = dev.malloc(n * 16), dout = dev.malloc(n * 8);
  const KernelArg args[] = {arg(din), arg(fout), arg(iout), arg(dout)};
  dev.launch(m, "calls", {2}, {80}, args);
  const auto f = download<float>(dev, fout, n);
  const auto iv = download<int>(dev, iout, n * 4);
  const auto d = download<double>(dev, dout, n);
  for (int t = 0; t < n; ++t) {
    EXPECT_EQ(f[t], std::fma(in[t], float(t % 7), 1.0f)) << t;
    EXPECT_EQ(iv[t * 4 + 0], t % 3 != 0 ? collatz(t + 1) : 0) << t;
    EXPECT_EQ(iv[t * 4 + 1], fact(t % 10)) << t;
    EXPECT_EQ(iv[t * 4 + 2], t);
    EXPECT_EQ(iv[t * 4 + 3], -t);
    EXPECT_EQ(d[t], double(float(t) * 0.5f + float(t)) + double(t) * 0.25) << t;
  }
}

}  // namespace
}  // namespace warpscope::exec::test
