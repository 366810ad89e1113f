// Global accesses outside every allocation (docs/exec.md, "Out-of-bounds accesses"): where the
// GPU maps the address (a 2 MiB granule holding part of a live allocation) they proceed on the
// memory there and are reported; elsewhere, and always under MemcheckMode::kStrict, they fault.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <numeric>
#include <vector>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

using ::testing::AllOf;
using ::testing::EndsWith;
using ::testing::HasSubstr;

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

DeviceOptions options(MemcheckMode mode, unsigned threads = 1) {
  DeviceOptions o;
  o.memcheck = mode;
  o.host_threads = threads;
  return o;
}

class Memcheck : public ::testing::Test {
 protected:
  void SetUp() override {
    ptx_ = kernel_ptx("memcheck");
    if (ptx_.empty()) GTEST_SKIP() << "no PTX (nvcc missing?)";
  }
  std::string ptx_;
};

// 1 MiB, 16 KiB, 1 MiB: the middle one is filled with 1000 + i and freed; 4096 bytes before the
// last one is then in no allocation, but in the granule the others keep mapped.
struct Pool {
  DevicePtr a = 0, x = 0, b = 0, out = 0;
  explicit Pool(Device& dev) {
    a = dev.malloc(1 << 20);
    x = dev.malloc(16 << 10);
    b = dev.malloc(1 << 20);
    out = dev.malloc(32 * sizeof(int));
    std::vector<int> fill(4096);
    std::iota(fill.begin(), fill.end(), 1000);
    dev.copy_to_device(x, fill.data(), fill.size() * sizeof(int));
    dev.free(x);
  }
};

TEST_F(Memcheck, ReadBeforeABufferSeesWhatTheMemoryHoldsAndIsReported) {
  Device dev;
  const Module m = dev.load_ptx(ptx_, "memcheck.ptx");
  const Pool pool(dev);
  const long long off = -1024;  // 4096 bytes before b
  const KernelArg args[] = {arg(pool.b), arg(off), arg(pool.out)};
  const LaunchStats s = dev.launch(m, "read_one", {1}, {32}, args);
  // What the freed buffer left there: element 3072 of it (x + 12288 = b - 4096).
  EXPECT_EQ(download<int>(dev, pool.out, 1)[0], 1000 + 3072);
  ASSERT_EQ(s.memcheck.size(), 1u);
  EXPECT_EQ(s.memcheck_errors, 1u);
  const MemcheckError& e = s.memcheck[0];
  EXPECT_EQ(e.kernel, "read_one");
  EXPECT_THAT(e.file, EndsWith("memcheck.cu"));
  EXPECT_EQ(e.line, 9u);
  EXPECT_THAT(e.ptx, HasSubstr("ld.global"));
  EXPECT_EQ(m.instructions("read_one")[e.pc].line, 9u);
  EXPECT_EQ(e.block.x, 0u);
  EXPECT_EQ(e.thread.x, 5u);
  EXPECT_EQ(e.thread.y, 0u);
  EXPECT_EQ(e.address, pool.b - 4096);
  EXPECT_EQ(e.size, 4u);
  EXPECT_EQ(e.access, "read");
  EXPECT_EQ(e.space, "global");
  EXPECT_EQ(e.allocation_base, pool.b);
  EXPECT_EQ(e.allocation_size, 1u << 20);
  EXPECT_TRUE(e.before);
  EXPECT_EQ(e.distance, 4096u);
  EXPECT_EQ(e.relation, "4096 bytes before the 1048576-byte allocation at " + hex(pool.b));
  EXPECT_EQ(e.count, 1u);
  EXPECT_THAT(e.message, AllOf(HasSubstr("invalid global read of 4 bytes at address " + hex(pool.b - 4096)),
                               HasSubstr("kernel read_one at "), HasSubstr("memcheck.cu:9"),
                               HasSubstr("block (0,0,0), thread (5,0,0)"), HasSubstr(e.relation)));
}

TEST_F(Memcheck, StrictModeFaultsAtTheFirst) {
  Device dev(options(MemcheckMode::kStrict));
  const Module m = dev.load_ptx(ptx_, "memcheck.ptx");
  const Pool pool(dev);
  const long long off = -1024;
  const KernelArg args[] = {arg(pool.b), arg(off), arg(pool.out)};
  try {
    dev.launch(m, "read_one", {1}, {32}, args);
    ADD_FAILURE() << "no fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOutOfBounds);
    EXPECT_THAT(std::string(e.what()), AllOf(HasSubstr("out-of-bounds global load of 4 bytes at address " +
                                                       hex(pool.b - 4096)),
                                             HasSubstr("thread (5,0,0)"), HasSubstr("4096 bytes before the allocation")));
  }
}

TEST_F(Memcheck, AnAddressTheGpuDoesNotMapStillFaults) {
  Device dev;
  const Module m = dev.load_ptx(ptx_, "memcheck.ptx");
  const DevicePtr p = dev.malloc(256);  // the heap's first granule
  const DevicePtr out = dev.malloc(256);
  // 1 MiB away: the same granule, mapped.
  const long long near = (1 << 20) / 4;
  const KernelArg ok[] = {arg(p), arg(near), arg(out)};
  const LaunchStats s = dev.launch(m, "read_one", {1}, {32}, ok);
  ASSERT_EQ(s.memcheck.size(), 1u);
  // Allocations below 2 MiB take 512-byte steps (the driver's, tests/hw/data/h100/runtime_gt):
  // out is at p + 512 and ends at p + 768.
  EXPECT_EQ(out, p + 512);
  EXPECT_EQ(s.memcheck[0].relation, "1047808 bytes after the end of the 256-byte allocation at " + hex(out));
  // 4 MiB away: no live allocation in that granule.
  const long long far = (4 << 20) / 4;
  const KernelArg bad[] = {arg(p), arg(far), arg(out)};
  try {
    dev.launch(m, "read_one", {1}, {32}, bad);
    ADD_FAILURE() << "no fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOutOfBounds);
    EXPECT_THAT(std::string(e.what()), AllOf(HasSubstr("at address " + hex(p + (4 << 20))),
                                             HasSubstr("the GPU does not map this address")));
  }
}

TEST_F(Memcheck, CountsEveryLaneAndIsTheSameForAnyThreadCount) {
  std::vector<LaunchStats> runs;
  for (unsigned threads : {1u, 3u}) {
    Device dev(options(MemcheckMode::kReport, threads));
    const Module m = dev.load_ptx(ptx_, "memcheck.ptx");
    const DevicePtr out = dev.malloc(256 * sizeof(int));
    const DevicePtr p = dev.malloc(256 * sizeof(int));
    const long long off = 256;  // every lane reads past p's end
    const KernelArg args[] = {arg(p), arg(off), arg(out)};
    runs.push_back(dev.launch(m, "read_at", {4}, {64}, args));
    ASSERT_EQ(runs.back().memcheck.size(), 1u);
    const MemcheckError& e = runs.back().memcheck[0];
    EXPECT_EQ(e.count, 256u);
    EXPECT_EQ(e.address, p + 1024);
    EXPECT_EQ(e.block.x, 0u);
    EXPECT_EQ(e.thread.x, 0u);
    EXPECT_EQ(e.relation, "0 bytes after the end of the 1024-byte allocation at " + hex(p));
    for (int v : download<int>(dev, out, 256)) EXPECT_EQ(v, 0);
  }
  EXPECT_EQ(runs[0].memcheck_errors, 256u);
  EXPECT_EQ(runs[1].memcheck_errors, 256u);
  EXPECT_EQ(runs[0].memcheck[0].message, runs[1].memcheck[0].message);
}

TEST_F(Memcheck, WritesAndAtomicsInThePaddingPersistAndANewAllocationReadsZero) {
  Device dev;
  const Module m = dev.load_ptx(ptx_, "memcheck.ptx");
  const DevicePtr out = dev.malloc(32 * sizeof(int));
  const DevicePtr p = dev.malloc(100);  // 256 bytes with the padding
  const long long off = 25;             // bytes 100..227
  const int value = 9;
  const KernelArg w[] = {arg(p), arg(off), arg(value)};
  LaunchStats s = dev.launch(m, "write_at", {1}, {32}, w);
  ASSERT_EQ(s.memcheck.size(), 1u);
  EXPECT_EQ(s.memcheck[0].access, "write");
  EXPECT_EQ(s.memcheck[0].count, 32u);
  const long long at = 30;
  const KernelArg add[] = {arg(p), arg(at)};
  s = dev.launch(m, "add_at", {1}, {32}, add);
  ASSERT_EQ(s.memcheck.size(), 1u);
  EXPECT_EQ(s.memcheck[0].access, "reduction");  // atomicAdd whose result is unused: red.global
  const KernelArg r[] = {arg(p), arg(off), arg(out)};
  s = dev.launch(m, "read_at", {1}, {32}, r);
  const std::vector<int> got = download<int>(dev, out, 32);
  for (int i = 0; i < 32; ++i) EXPECT_EQ(got[i], i == 5 ? 9 + 32 : 9) << i;
  dev.free(p);
  const DevicePtr q = dev.malloc(100);
  ASSERT_EQ(q, p);
  dev.launch(m, "read_at", {1}, {32}, r);
  for (int v : download<int>(dev, out, 32)) EXPECT_EQ(v, 0);
}

}  // namespace
}  // namespace warpscope::exec::test
