// Faults in kernels: out-of-bounds and misaligned accesses in every space, trap, assert. The
// messages name the kernel, source line, block, thread, address and width; the launch stops
// without touching memory outside the kernel's allocations, and the device stays usable.
#include <climits>

#include <gmock/gmock.h>

#include "exec_test_util.hpp"
#include "warpscope/error.hpp"

namespace warpscope::exec::test {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

class Faults : public ::testing::Test {
 protected:
  void SetUp() override {
    ptx_ = kernel_ptx("faults");
    if (ptx_.empty()) GTEST_SKIP() << "no PTX (nvcc missing?)";
    module_ = dev_.load_ptx(ptx_, "faults.ptx");
  }
  std::string fault(const char* kernel, Dim3 grid, Dim3 block, std::span<const KernelArg> args, ErrorKind kind) {
    try {
      dev_.launch(module_, kernel, grid, block, args);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      return e.what();
    }
    ADD_FAILURE() << kernel << " did not fault";
    return {};
  }
  std::string ptx_;
  // Strict: every access outside an allocation faults, also where a GPU maps the address
  // (memcheck_test.cpp has the default, MemcheckMode::kReport).
  static DeviceOptions strict() {
    DeviceOptions o;
    o.memcheck = MemcheckMode::kStrict;
    return o;
  }
  Device dev_{strict()};
  Module module_;
};

TEST_F(Faults, OutOfBoundsGlobalStore) {
  const int n = 100;
  const DevicePtr p = dev_.malloc(n * sizeof(int));
  const DevicePtr guard = dev_.malloc(1024);
  std::vector<std::uint8_t> pattern(1024, 0xab);
  dev_.copy_to_device(guard, pattern.data(), pattern.size());
  const int offset = 40;
  const KernelArg args[] = {arg(p), arg(offset)};
  const std::string msg = fault("oob_write", {1}, {64}, args, ErrorKind::kOutOfBounds);
  // Thread 60 is the first to write p[100]; its warp's store faults as a whole.
  EXPECT_THAT(msg, AllOf(HasSubstr("out-of-bounds global store of 4 bytes"),
                         HasSubstr("at address " + hex(p + 400)), HasSubstr("kernel oob_write"),
                         HasSubstr("faults.cu:6"), HasSubstr("block (0,0,0)"), HasSubstr("thread (60,0,0)"),
                         HasSubstr("0 bytes past the end of the allocation [" + hex(p) + ", " + hex(p + 400) + ")"),
                         HasSubstr("st.global.u32")));
  // Nothing outside the allocation changed; warp 0, which ran before the fault, did its work.
  EXPECT_EQ(download<std::uint8_t>(dev_, guard, 1024), pattern);
  const auto out = download<int>(dev_, p, n);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[t + offset], t);
}

TEST_F(Faults, MisalignedGlobalLoad) {
  const DevicePtr p = dev_.malloc(1024), out = dev_.malloc(1024);
  const KernelArg args[] = {arg(p), arg(out)};
  const std::string msg = fault("misaligned_read", {1}, {32}, args, ErrorKind::kMisaligned);
  EXPECT_THAT(msg, AllOf(HasSubstr("misaligned global load of 4 bytes at address " + hex(p + 2)),
                         HasSubstr("kernel misaligned_read"), HasSubstr("faults.cu:10"), HasSubstr("block (0,0,0)"),
                         HasSubstr("thread (0,0,0)"), HasSubstr("not a multiple of the access width 4")));
}

TEST_F(Faults, MisalignedEightByteStoreNamesTheThread) {
  const DevicePtr p = dev_.malloc(1024);
  const int k = 1;
  const KernelArg args[] = {arg(p), arg(k)};
  const std::string msg = fault("misaligned_double", {2, 3}, {8, 2}, args, ErrorKind::kMisaligned);
  EXPECT_THAT(msg, AllOf(HasSubstr("misaligned global store of 8 bytes at address " + hex(p + 4)),
                         HasSubstr("faults.cu:14"), HasSubstr("block (0,0,0)"), HasSubstr("thread (3,0,0)")));
}

TEST_F(Faults, OutOfBoundsSharedLoad) {
  const DevicePtr out = dev_.malloc(1024);
  const int idx = 60;
  const KernelArg args[] = {arg(out), arg(idx)};
  const std::string msg = fault("shared_oob", {1}, {64}, args, ErrorKind::kOutOfBounds);
  EXPECT_THAT(msg, AllOf(HasSubstr("out-of-bounds shared load of 4 bytes at address 0x100"),
                         HasSubstr("faults.cu:21"), HasSubstr("thread (4,0,0)"),
                         HasSubstr("outside the block's 256 bytes of shared memory")));
}

TEST_F(Faults, NullPointer) {
  const DevicePtr null = 0;
  const KernelArg args[] = {arg(null)};
  const std::string msg = fault("null_store", {1}, {32}, args, ErrorKind::kOutOfBounds);
  EXPECT_THAT(msg, AllOf(HasSubstr("global store of 4 bytes at address 0x0 "), HasSubstr("faults.cu:24"),
                         HasSubstr("null pointer")));
}

TEST_F(Faults, OutOfBoundsLocalLoad) {
  const DevicePtr out = dev_.malloc(1024);
  dev_.memset(out, 0, 1024);
  const int idx = 9;
  const KernelArg args[] = {arg(out), arg(idx)};
  const std::string msg = fault("local_oob", {1}, {32}, args, ErrorKind::kOutOfBounds);
  EXPECT_THAT(msg, AllOf(HasSubstr("out-of-bounds local load of 4 bytes"), HasSubstr("faults.cu:52"),
                         HasSubstr("thread (0,0,0)"), HasSubstr("bytes of local memory")));
}

TEST_F(Faults, MangledKernelNameIsDemangled) {
  const DevicePtr p = dev_.malloc(16);
  const int n = 2;
  const KernelArg args[] = {arg(p), arg(n)};
  const std::string msg = fault("_Z11mangled_oobPfi", {1}, {32}, args, ErrorKind::kOutOfBounds);
  EXPECT_THAT(msg, AllOf(HasSubstr("mangled_oob(float*, int) [_Z11mangled_oobPfi]"), HasSubstr("faults.cu:37"),
                         HasSubstr("thread (2,0,0)")));
}

TEST_F(Faults, TrapNamesBlockAndThread) {
  const DevicePtr out = dev_.malloc(64 * sizeof(int));
  const KernelArg args[] = {arg(out)};
  const std::string msg = fault("trapper", {3}, {64}, args, ErrorKind::kTrap);
  EXPECT_THAT(msg, AllOf(HasSubstr("trap in kernel trapper"), HasSubstr("faults.cu:28"),
                         HasSubstr("block (1,0,0)"), HasSubstr("thread (37,0,0)")));
}

TEST_F(Faults, FailedAssertIsATrap) {
  const DevicePtr out = dev_.malloc(64 * sizeof(int));
  const KernelArg args[] = {arg(out)};
  const std::string msg = fault("asserter", {1}, {32}, args, ErrorKind::kTrap);
  EXPECT_THAT(msg, AllOf(HasSubstr("assertion `threadIdx.x != 5` failed"), HasSubstr("faults.cu:33"),
                         HasSubstr("thread (5,0,0)")));
}

TEST_F(Faults, DeviceIsUsableAfterAFault) {
  const DevicePtr out = dev_.malloc(64 * sizeof(int));
  const KernelArg args[] = {arg(out)};
  EXPECT_THROW(dev_.launch(module_, "trapper", {2}, {64}, args), Error);
  dev_.launch(module_, "trapper", {1}, {64}, args);  // block 0 does not trap
  for (int v : download<int>(dev_, out, 64)) EXPECT_EQ(v, 2);
}

TEST_F(Faults, DivisionByZeroGivesTheHardwareResult) {
  const std::vector<int> a = {7, -7, 0, INT_MIN, 100, -100, 5, INT_MIN};
  const std::vector<int> b = {0, 0, 0, -1, 7, 7, -2, 0};
  const std::vector<unsigned> ua = {7, 0, 0xffffffffu, 100, 3, 9, 1, 2};
  const std::vector<unsigned> ub = {0, 0, 0, 7, 2, 9, 0, 1};
  const int n = static_cast<int>(a.size());
  const DevicePtr da = upload(dev_, a), db = upload(dev_, b), dua = upload(dev_, ua), dub = upload(dev_, ub);
  const DevicePtr q = dev_.malloc(n * 4), r = dev_.malloc(n * 4), uq = dev_.malloc(n * 4), ur = dev_.malloc(n * 4);
  const KernelArg args[] = {arg(da), arg(db), arg(q), arg(r), arg(dua), arg(dub), arg(uq), arg(ur)};
  dev_.launch(module_, "div_zero", {1}, {static_cast<std::uint32_t>(n)}, args);
  const auto vq = download<int>(dev_, q, n), vr = download<int>(dev_, r, n);
  const auto vuq = download<unsigned>(dev_, uq, n), vur = download<unsigned>(dev_, ur, n);
  const std::vector<int> want_q = {-1, 1, -1, INT_MIN, 14, -14, -2, 1};
  const std::vector<int> want_r = {7, -7, 0, 0, 2, -2, 1, INT_MIN};
  const std::vector<unsigned> want_uq = {0xffffffffu, 0xffffffffu, 0xffffffffu, 14, 1, 1, 0xffffffffu, 2};
  const std::vector<unsigned> want_ur = {7, 0, 0xffffffffu, 2, 1, 0, 1, 0};
  EXPECT_EQ(vq, want_q);
  EXPECT_EQ(vr, want_r);
  EXPECT_EQ(vuq, want_uq);
  EXPECT_EQ(vur, want_ur);
}

}  // namespace
}  // namespace warpscope::exec::test
