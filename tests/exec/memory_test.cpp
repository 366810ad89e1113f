// Functional memory: generic addressing of shared, local and global memory, local arrays, vector
// accesses, atomics, module variables and the host-side memory API.
#include <gmock/gmock.h>

#include "exec_test_util.hpp"
#include "warpscope/error.hpp"

namespace warpscope::exec::test {
namespace {

TEST(Memory, GenericPointersReachSharedLocalAndGlobal) {
  WS_LOAD_PTX(ptx, "generic");
  Device dev;
  Module m = dev.load_ptx(ptx, "generic.ptx");
  std::vector<int> g(64);
  for (int i = 0; i < 64; ++i) g[i] = i * 3;
  const DevicePtr dg = upload(dev, g), dout = dev.malloc(64 * sizeof(int));
  const int k = 3;
  const KernelArg args[] = {arg(dg), arg(dout), arg(k)};
  dev.launch(m, "generic_spaces", {1}, {64}, args);
  const auto out = download<int>(dev, dout, 64);
  const auto g2 = download<int>(dev, dg, 64);
  for (int t = 0; t < 64; ++t) {
    EXPECT_EQ(out[t], t + 100 + ((t + k) & 7) * k + 7) << t;
    EXPECT_EQ(g2[t], t * 3 + 1) << t;
  }
}

TEST(Memory, LocalArrayWithDynamicIndex) {
  WS_LOAD_PTX(ptx, "generic");
  Device dev;
  Module m = dev.load_ptx(ptx, "generic.ptx");
  std::vector<int> idx(96);
  for (int i = 0; i < 96; ++i) idx[i] = (i * 5) % 23;
  const DevicePtr di = upload(dev, idx), dout = dev.malloc(96 * sizeof(int));
  const KernelArg args[] = {arg(di), arg(dout)};
  dev.launch(m, "local_array", {1}, {96}, args);
  const auto out = download<int>(dev, dout, 96);
  for (int t = 0; t < 96; ++t) EXPECT_EQ(out[t], t * 100 + (idx[t] & 15)) << t;
}

TEST(Memory, VectorLoadsAndStores) {
  WS_LOAD_PTX(ptx, "generic");
  Device dev;
  Module m = dev.load_ptx(ptx, "generic.ptx");
  const int n = 64;
  std::vector<float> f(n * 4);
  std::vector<double> d(n * 2);
  for (int i = 0; i < n * 4; ++i) f[i] = float(i) + 0.5f;
  for (int i = 0; i < n * 2; ++i) d[i] = double(i) * 1.25;
  const DevicePtr df = upload(dev, f), dfo = dev.malloc(n * 16), dd = upload(dev, d), ddo = dev.malloc(n * 16);
  const KernelArg args[] = {arg(df), arg(dfo), arg(dd), arg(ddo)};
  dev.launch(m, "vectors", {2}, {32}, args);
  const auto fo = download<float>(dev, dfo, n * 4);
  const auto dob = download<double>(dev, ddo, n * 2);
  for (int t = 0; t < n; ++t) {
    for (int c = 0; c < 4; ++c) EXPECT_EQ(fo[t * 4 + c], f[t * 4 + 3 - c]);
    EXPECT_EQ(dob[t * 2], d[t * 2 + 1]);
    EXPECT_EQ(dob[t * 2 + 1], d[t * 2]);
  }
}

TEST(Memory, ModuleVariablesAndSymbols) {
  WS_LOAD_PTX(ptx, "generic");
  Device dev;
  Module m = dev.load_ptx(ptx, "generic.ptx");
  const float coeffs[4] = {1.5f, -2.0f, 0.25f, 8.0f};
  dev.copy_to_symbol(m, "coeffs", coeffs, sizeof coeffs);
  EXPECT_EQ(dev.symbol_size(m, "table"), 12u);
  EXPECT_EQ(dev.symbol_address(m, "table") % 256, 0u);
  EXPECT_NE(dev.symbol_address(m, "coeffs"), 0u);
  const DevicePtr dout = dev.malloc(64 * sizeof(float));
  const KernelArg args[] = {arg(dout)};
  dev.launch(m, "use_symbols", {1}, {40}, args);
  const auto out = download<float>(dev, dout, 40);
  const int table[3] = {10, 20, 30};
  for (int t = 0; t < 40; ++t) EXPECT_EQ(out[t], coeffs[t & 3] * float(table[t % 3]) + float(table[1 + t % 2])) << t;
  int counter = 0;
  dev.copy_from_symbol(&counter, m, "counter", sizeof counter);
  EXPECT_EQ(counter, 45);
  EXPECT_THROW(dev.symbol_address(m, "no_such_symbol"), Error);
  EXPECT_THROW(dev.copy_to_symbol(m, "coeffs", coeffs, sizeof coeffs, 4), Error);
}

TEST(Memory, Atomics) {
  WS_LOAD_PTX(ptx, "atomics");
  std::vector<int> results[2];
  for (unsigned threads : {1u, 4u}) {
    DeviceOptions opt;
    opt.host_threads = threads;
    Device dev(opt);
    Module m = dev.load_ptx(ptx, "atomics.ptx");
    std::vector<int> ic(17, 0);
    ic[1] = -1;
    ic[2] = 1 << 30;
    ic[3] = -1;
    ic[6] = -1;
    const DevicePtr dic = upload(dev, ic);
    const DevicePtr duc = upload(dev, std::vector<unsigned>{0, 0});
    const DevicePtr dfc = upload(dev, std::vector<float>{0});
    const DevicePtr ddc = upload(dev, std::vector<double>{0});
    const DevicePtr dlc = upload(dev, std::vector<unsigned long long>{0});
    const DevicePtr dord = dev.malloc(64 * sizeof(int));
    const KernelArg args[] = {arg(dic), arg(duc), arg(dfc), arg(ddc), arg(dlc), arg(dord)};
    dev.launch(m, "atomics", {4}, {64}, args);
    const auto o = download<int>(dev, dic, 17);
    const auto u = download<unsigned>(dev, duc, 2);
    int max17 = -1;
    for (int t = 0; t < 256; ++t) max17 = std::max(max17, t * 7 % 1000);
    EXPECT_EQ(o[0], 256 * 255 / 2);
    EXPECT_EQ(o[1], max17);
    EXPECT_EQ(o[2], 1000 - 255);
    EXPECT_EQ(static_cast<unsigned>(o[3]), 0x80000000u);
    EXPECT_EQ(o[4], 0x7fffffff);
    EXPECT_EQ(o[5], 0);
    EXPECT_EQ(o[6], 255);
    EXPECT_EQ(o[7], 64);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(o[8 + i], 32);
    EXPECT_EQ(o[16], 12345);
    EXPECT_EQ(u[0], 256u % 17u);
    EXPECT_EQ(u[1], 1000u - 255u);
    EXPECT_EQ(download<float>(dev, dfc, 1)[0], 384.0f);
    EXPECT_EQ(download<double>(dev, ddc, 1)[0], 64.0);
    EXPECT_EQ(download<unsigned long long>(dev, dlc, 1)[0], 768u);
    // Lanes of a warp take tickets in lane order, warps in warp order.
    const auto order = download<int>(dev, dord, 64);
    for (int t = 0; t < 64; ++t) EXPECT_EQ(order[t], t);
    results[threads == 1 ? 0 : 1] = o;
  }
  EXPECT_EQ(results[0], results[1]);
}

TEST(Memory, HostApi) {
  Device dev;
  const DevicePtr a = dev.malloc(100), b = dev.malloc(1), c = dev.malloc(300);
  EXPECT_NE(a, 0u);
  EXPECT_EQ(a % 256, 0u);
  EXPECT_EQ(b % 256, 0u);
  EXPECT_EQ(c % 256, 0u);
  EXPECT_NE(a, b);
  std::vector<std::uint8_t> v(100);
  for (int i = 0; i < 100; ++i) v[i] = static_cast<std::uint8_t>(i);
  dev.copy_to_device(a, v.data(), 100);
  dev.copy_on_device(c + 10, a, 100);
  dev.memset(c, 0x5a, 10);
  const auto back = download<std::uint8_t>(dev, c, 110);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(back[i], 0x5a);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(back[10 + i], i);
  EXPECT_THROW(dev.copy_to_device(a + 50, v.data(), 100), Error);  // overruns the allocation
  EXPECT_THROW(dev.copy_to_host(v.data(), 0x1000, 4), Error);
  EXPECT_THROW(dev.free(a + 8), Error);
  dev.free(b);
  const DevicePtr d = dev.malloc(16);
  EXPECT_EQ(d, b);  // freed addresses are reused, like cudaMalloc's
  dev.free(0);      // like cudaFree(nullptr)
}

TEST(Memory, CapacityIsEnforced) {
  DeviceOptions opt;
  opt.global_memory_bytes = 1 << 20;
  Device dev(opt);
  const DevicePtr a = dev.malloc(600 << 10);
  try {
    dev.malloc(600 << 10);
    ADD_FAILURE() << "second allocation should not fit";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kUsage);
    EXPECT_THAT(e.what(), ::testing::HasSubstr("out of device memory"));
  }
  dev.free(a);
  EXPECT_NO_THROW(dev.malloc(600 << 10));
}

}  // namespace
}  // namespace warpscope::exec::test
