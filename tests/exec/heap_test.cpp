// Device-side malloc/free/new/delete: results, alignment, exhaustion, the heap's size rules, and
// the same addresses for any thread count.
#include <set>

#include <gmock/gmock.h>

#include "exec_test_util.hpp"
#include "warpscope/error.hpp"

namespace warpscope::exec::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

class Heap : public ::testing::Test {
 protected:
  void SetUp() override {
    ptx_ = kernel_ptx("heap");
    if (ptx_.empty()) GTEST_SKIP() << "no PTX (nvcc missing?)";
  }
  std::string ptx_;
};

TEST_F(Heap, MallocFillSumFree) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  const int blocks = 3, threads = 64, total = blocks * threads, n = 10;
  const DevicePtr ptrs = dev.malloc(total * 8), sums = dev.malloc(total * 4);
  const KernelArg args[] = {arg(n), arg(ptrs), arg(sums)};
  EXPECT_FALSE(dev.heap_created());
  dev.launch(m, "alloc_fill", {blocks}, {threads}, args);
  EXPECT_TRUE(dev.heap_created());
  const auto s = download<int>(dev, sums, total);
  const auto p = download<std::uint64_t>(dev, ptrs, total);
  for (int t = 0; t < total; ++t) {
    EXPECT_EQ(s[t], n * t + n * (n - 1) / 2) << t;
    EXPECT_NE(p[t], 0u);
    EXPECT_EQ(p[t] % 16, 0u) << t;
  }
}

TEST_F(Heap, BlocksOutliveTheLaunchAndAreDistinct) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  const int total = 2 * 96;
  const DevicePtr ptrs = dev.malloc(total * 8);
  const std::uint64_t bytes = 24;
  const KernelArg keep[] = {arg(bytes), arg(ptrs)};
  dev.launch(m, "alloc_keep", {2}, {96}, keep);
  const auto p = download<std::uint64_t>(dev, ptrs, total);
  std::set<std::uint64_t> distinct(p.begin(), p.end());
  EXPECT_EQ(distinct.size(), std::size_t(total));
  // Blocks are handed out in CTA, warp, lane order, lowest address first (24 bytes take 32).
  for (int t = 1; t < total; ++t) EXPECT_EQ(p[t], p[t - 1] + 32) << t;
  // Another kernel writes through them, inside each block; then they are freed.
  const int offset = 5;
  const KernelArg write[] = {arg(ptrs), arg(offset)};
  dev.launch(m, "write_through", {2}, {96}, write);
  const KernelArg rel[] = {arg(ptrs)};
  dev.launch(m, "release", {2}, {96}, rel);
  // Freed: the same requests get the same addresses again.
  dev.launch(m, "alloc_keep", {2}, {96}, keep);
  EXPECT_EQ(download<std::uint64_t>(dev, ptrs, total), p);
}

TEST_F(Heap, AccessPastABlockFaults) {
  // The heap's memory is mapped, so by default (memcheck report) an overrun proceeds and is
  // reported, as on a GPU; strict mode stops at it.
  DeviceOptions o;
  o.memcheck = MemcheckMode::kStrict;
  Device dev(o);
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  const DevicePtr ptrs = dev.malloc(32 * 8);
  const std::uint64_t bytes = 16;
  const KernelArg keep[] = {arg(bytes), arg(ptrs)};
  dev.launch(m, "alloc_keep", {1}, {32}, keep);
  const int offset = 4;  // int 4 of a 16-byte block
  const KernelArg write[] = {arg(ptrs), arg(offset)};
  try {
    dev.launch(m, "write_through", {1}, {32}, write);
    FAIL() << "no fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kOutOfBounds);
    EXPECT_THAT(e.what(), HasSubstr("device malloc"));
  }
}

TEST_F(Heap, ExhaustionReturnsNull) {
  DeviceOptions o;
  o.malloc_heap_bytes = 64 * 1024;
  Device dev(o);
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  const int total = 64;
  const DevicePtr ptrs = dev.malloc(total * 8);
  const std::uint64_t bytes = 4000;  // 16 blocks of 4000 bytes fit in 64 KiB
  const KernelArg keep[] = {arg(bytes), arg(ptrs)};
  dev.launch(m, "alloc_keep", {2}, {32}, keep);
  const auto p = download<std::uint64_t>(dev, ptrs, total);
  for (int t = 0; t < total; ++t) {
    if (t < 16) EXPECT_NE(p[t], 0u) << t;
    else EXPECT_EQ(p[t], 0u) << t;
  }
  // A request larger than the heap gets NULL too, and free(NULL) is fine.
  const std::uint64_t huge = 1ull << 40;
  const KernelArg big[] = {arg(huge), arg(ptrs)};
  dev.launch(m, "alloc_keep", {1}, {32}, big);
  for (std::uint64_t v : download<std::uint64_t>(dev, ptrs, 32)) EXPECT_EQ(v, 0u);
  const KernelArg rel[] = {arg(ptrs)};
  dev.launch(m, "release", {1}, {32}, rel);
}

TEST_F(Heap, SizeIsFixedOnceAKernelUsedIt) {
  Device dev;
  EXPECT_EQ(dev.malloc_heap_size(), 8u << 20);
  dev.set_malloc_heap_size(1 << 20);
  EXPECT_EQ(dev.malloc_heap_size(), 1u << 20);
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  const DevicePtr ptrs = dev.malloc(32 * 8);
  const std::uint64_t bytes = 1 << 16;
  const KernelArg keep[] = {arg(bytes), arg(ptrs)};
  dev.launch(m, "alloc_keep", {1}, {32}, keep);
  // 1 MiB holds 16 blocks of 64 KiB.
  int non_null = 0;
  for (std::uint64_t v : download<std::uint64_t>(dev, ptrs, 32)) non_null += v != 0;
  EXPECT_EQ(non_null, 16);
  EXPECT_THROW(dev.set_malloc_heap_size(2 << 20), Error);
  EXPECT_EQ(dev.malloc_heap_size(), 1u << 20);
  // The host cannot free a block of the device heap.
  EXPECT_THROW(dev.free(download<std::uint64_t>(dev, ptrs, 1)[0]), Error);
}

TEST_F(Heap, NewAndDelete) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  const DevicePtr out = dev.malloc(64 * 4);
  const KernelArg args[] = {arg(out)};
  dev.launch(m, "new_delete", {1}, {64}, args);
  const auto v = download<int>(dev, out, 64);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(v[t], 3 * t + t * (t + 1) / 2) << t;
}

TEST_F(Heap, AlignedMalloc) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  const DevicePtr ptrs = dev.malloc(8 * 8);
  const KernelArg args[] = {arg(ptrs)};
  dev.launch(m, "aligned", {1}, {8}, args);
  for (std::uint64_t v : download<std::uint64_t>(dev, ptrs, 8)) {
    EXPECT_NE(v, 0u);
    EXPECT_EQ(v % 256, 0u);
  }
}

TEST_F(Heap, VirtualCallsThroughVtablesDivergeByTarget) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  const DevicePtr out = dev.malloc(48 * 4);
  const KernelArg args[] = {arg(out)};
  dev.launch(m, "virtual_calls", {1}, {48}, args);
  const auto v = download<int>(dev, out, 48);
  for (int t = 0; t < 48; ++t) EXPECT_EQ(v[t], t % 3 == 0 ? t * t : 2 * t) << t;
}

TEST_F(Heap, FreeOfAPointerNotFromMallocFaults) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  const DevicePtr buf = dev.malloc(64);
  const KernelArg args[] = {arg(buf)};
  try {
    dev.launch(m, "bad_free", {1}, {1}, args);
    FAIL() << "no fault";
  } catch (const Error& e) {
    // A cudaMalloc'ed pointer: an illegal address, as on the H100
    // (tests/hw/data/h100/runtime_gt/checks/coop_heap_probe.out, badfree).
    EXPECT_EQ(e.kind(), ErrorKind::kOutOfBounds);
    EXPECT_THAT(e.what(), AllOf(HasSubstr("free of 0x"), HasSubstr("not the start of a block allocated by device-side"),
                                HasSubstr("outside the device heap"),
                                HasSubstr("kernel bad_free"), HasSubstr("heap.cu:"), HasSubstr("thread (0,0,0)")));
  }
}

// The live blocks for memcheck's leak report: each with the bytes malloc was asked for (not the
// 32 bytes a 24-byte request takes), in address order; none once freed.
TEST_F(Heap, LiveBlocksListTheBytesAsked) {
  Device dev;
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  EXPECT_TRUE(dev.heap_blocks().empty());
  const DevicePtr ptrs = dev.malloc(4 * 8);
  const std::uint64_t bytes = 24;
  const KernelArg keep[] = {arg(bytes), arg(ptrs)};
  dev.launch(m, "alloc_keep", {1}, {4}, keep);
  const auto p = download<std::uint64_t>(dev, ptrs, 4);
  const std::vector<std::pair<std::uint64_t, std::uint64_t>> want = {{p[0], 24}, {p[1], 24}, {p[2], 24}, {p[3], 24}};
  EXPECT_EQ(dev.heap_blocks(), want);
  const KernelArg rel[] = {arg(ptrs)};
  dev.launch(m, "release", {1}, {4}, rel);
  EXPECT_TRUE(dev.heap_blocks().empty());
}

// Under sanitize's memcheck (SanitizeChecks::memcheck) a bad free is a finding per thread and ends
// the launch as a trap (cudaErrorLaunchFailure), as the H200's compute-sanitizer does
// (tests/hw/data/h200/sanitize/heap): the second free of 2 threads' blocks is a "double_free" of
// each block's start; a free of a cudaMalloc pointer + 4 an "invalid_free".
TEST_F(Heap, UnderMemcheckBadFreesAreFindingsAndATrap) {
  DeviceOptions o;
  o.sanitize.memcheck = true;
  Device dev(o);
  Module m = dev.load_ptx(ptx_, "heap.ptx");
  const DevicePtr ptrs = dev.malloc(2 * 8), buf = dev.malloc(64);
  const std::uint64_t bytes = 100;
  const KernelArg keep[] = {arg(bytes), arg(ptrs)}, rel[] = {arg(ptrs)}, bad[] = {arg(buf)};
  dev.launch(m, "alloc_keep", {1}, {2}, keep);
  const auto p = download<std::uint64_t>(dev, ptrs, 2);
  std::vector<SanitizerFinding> found;
  LaunchOptions lo;
  lo.sanitizer_findings = &found;
  dev.launch(m, "release", {1}, {2}, rel, lo);
  EXPECT_TRUE(found.empty());
  try {
    dev.launch(m, "release", {1}, {2}, rel, lo);
    FAIL() << "no fault";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kTrap);
    EXPECT_THAT(e.what(), HasSubstr("double free"));
  }
  ASSERT_EQ(found.size(), 2u);
  for (unsigned t = 0; t < 2; ++t) {
    EXPECT_EQ(found[t].tool, "memcheck");
    EXPECT_EQ(found[t].kind, "double_free");
    EXPECT_EQ(found[t].address, p[t]);
    EXPECT_EQ(found[t].first.thread.x, t);
    EXPECT_THAT(found[t].first.file, HasSubstr("heap.cu"));
  }
  found.clear();
  EXPECT_THROW(dev.launch(m, "bad_free", {1}, {1}, bad, lo), Error);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].kind, "invalid_free");
  EXPECT_EQ(found[0].address, buf + 4);
}

TEST_F(Heap, SameAddressesForAnyThreadCount) {
  std::vector<std::uint64_t> got[2];
  for (unsigned threads : {1u, 2u}) {
    DeviceOptions o;
    o.host_threads = threads;
    Device dev(o);
    Module m = dev.load_ptx(ptx_, "heap.ptx");
    const int total = 40 * 64;
    const DevicePtr ptrs = dev.malloc(total * 8);
    const std::uint64_t bytes = 100;
    const KernelArg keep[] = {arg(bytes), arg(ptrs)};
    dev.launch(m, "alloc_keep", {40}, {64}, keep);
    got[threads - 1] = download<std::uint64_t>(dev, ptrs, total);
  }
  EXPECT_EQ(got[0], got[1]);
}

}  // namespace
}  // namespace warpscope::exec::test
