// Asynchronous copies and mbarriers (tests/exec/kernels/async.cu): results against host
// references, the records of cp.async, and the errors the PTX ISA's undefined cases and
// never-completing waits give. Expected values follow from the PTX ISA 9.0 (sections 9.7.9.25
// and 9.7.13.15); the mbarrier state words are checked against the H100 in
// tests/stats/async_h100_test.cpp.
#include <gmock/gmock.h>

#include "exec_test_util.hpp"
#include "warpscope/error.hpp"

namespace warpscope::exec::test {
namespace {

using ::testing::HasSubstr;

class Async : public ::testing::Test {
 protected:
  void SetUp() override {
    ptx_ = kernel_ptx("async");
    if (ptx_.empty()) GTEST_SKIP() << "no PTX (nvcc missing?)";
    module_ = dev_.load_ptx(ptx_, "async.ptx");
  }
  std::string launch_error(const char* kernel, Dim3 grid, Dim3 block, std::span<const KernelArg> args, ErrorKind kind) {
    try {
      dev_.launch(module_, kernel, grid, block, args);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
      return e.what();
    }
    ADD_FAILURE() << kernel << " did not fail";
    return {};
  }
  static unsigned char src_byte(std::size_t i) { return static_cast<unsigned char>((i * 7 + 3) & 0xff); }
  DevicePtr source(std::size_t n) {
    std::vector<unsigned char> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = src_byte(i);
    return upload(dev_, v);
  }
  std::string ptx_;
  Device dev_;
  Module module_;
};

TEST_F(Async, CopyFormsZeroFillAndIgnoreSrc) {
  const DevicePtr src = source(4096), out = dev_.malloc(6 * 512);
  const KernelArg args[] = {arg(src), arg(out)};
  RecordingSink sink;
  dev_.set_access_sink(&sink);
  dev_.launch(module_, "cp_async_forms", {1}, {32}, args);
  dev_.set_access_sink(nullptr);
  const auto got = download<unsigned char>(dev_, out, 6 * 512);
  std::vector<unsigned char> want(6 * 512, 0xee);
  auto copy = [&](std::size_t dst, std::size_t from, unsigned size, unsigned src_size) {
    for (unsigned b = 0; b < size; ++b) want[dst + b] = b < src_size ? src_byte(from + b) : 0;
  };
  for (unsigned l = 0; l < 32; ++l) {
    copy(4 * l, 4 * l, 4, 4);
    copy(512 + 8 * l, 8 * l, 8, 8);
    copy(1024 + 16 * l, 16 * l, 16, 16);
    copy(1536 + 16 * l, 512 + 16 * l, 16, 16);
    copy(2048 + 16 * l, 16 * l, 16, l % 17);      // src-size: the rest zero-filled
    copy(2560 + 4 * l, 4 * l, 4, (l & 1) ? 0 : 4);  // ignore-src for odd lanes: zeros
  }
  for (std::size_t i = 0; i < want.size(); ++i) ASSERT_EQ(got[i], want[i]) << "byte " << i;

  // Each cp.async is two records, the global side then the shared side (part 1), op ldgsts.
  std::vector<WarpAccess> copies;
  for (const WarpAccess& r : sink.records)
    if (r.op == Op::kLdgsts) copies.push_back(r);
  ASSERT_EQ(copies.size(), 12u);
  const unsigned widths[] = {4, 8, 16, 16, 16, 4};
  const CacheOp caches[] = {CacheOp::kCa, CacheOp::kCa, CacheOp::kCa, CacheOp::kCg, CacheOp::kCg, CacheOp::kCa};
  for (unsigned k = 0; k < 6; ++k) {
    const WarpAccess& g = copies[2 * k];
    const WarpAccess& s = copies[2 * k + 1];
    EXPECT_EQ(g.space, Space::kGlobal) << k;
    EXPECT_EQ(s.space, Space::kShared) << k;
    EXPECT_EQ(g.part, 0) << k;
    EXPECT_EQ(s.part, 1) << k;
    EXPECT_EQ(g.pc, s.pc) << k;
    EXPECT_EQ(g.width, widths[k]) << k;
    EXPECT_EQ(g.cache, caches[k]) << k;
    EXPECT_EQ(g.active.bits(), 0xffffffffu) << k;
    EXPECT_EQ(g.addr[1] - g.addr[0], widths[k]) << k;
    EXPECT_EQ(s.addr[1] - s.addr[0], widths[k]) << k;
  }
  EXPECT_EQ(copies[0].addr[0], src);
  EXPECT_EQ(copies[6].addr[0], src + 512);
  // src-size l % 17: lanes 0 and 17 read nothing, every lane but 16 fills zeros.
  EXPECT_EQ(copies[8].fill_lanes, ~(1u << 16));
  EXPECT_EQ(copies[8].no_read_lanes, (1u << 0) | (1u << 17));
  EXPECT_EQ(copies[10].fill_lanes, 0xaaaaaaaau);
  EXPECT_EQ(copies[10].no_read_lanes, 0xaaaaaaaau);
  EXPECT_EQ(copies[0].fill_lanes, 0u);
}

TEST_F(Async, SrcSizeZeroReadsNothing) {
  const DevicePtr out = dev_.malloc(512);
  const KernelArg args[] = {arg(DevicePtr{0}), arg(out)};
  dev_.launch(module_, "cp_async_zero_size", {1}, {32}, args);
  for (unsigned char c : download<unsigned char>(dev_, out, 512)) ASSERT_EQ(c, 0);
}

TEST_F(Async, MisalignedSourceIsAFault) {
  const DevicePtr src = source(1024);
  const KernelArg args[] = {arg(src)};
  const std::string e = launch_error("cp_async_misaligned", {1}, {32}, args, ErrorKind::kMisaligned);
  EXPECT_THAT(e, HasSubstr("asynchronous copy of 8 bytes"));
  EXPECT_THAT(e, HasSubstr("thread (0,0,0)"));
  EXPECT_THAT(e, HasSubstr("async.cu:55"));
}

TEST_F(Async, SrcSizeLargerThanCpSizeIsUndefined) {
  const DevicePtr src = source(1024);
  const unsigned n = 9;
  const KernelArg args[] = {arg(src), arg(n)};
  const std::string e = launch_error("cp_async_src_size_too_large", {1}, {32}, args, ErrorKind::kUndefined);
  EXPECT_THAT(e, HasSubstr("src-size of 9 bytes, larger than its cp-size of 8"));
}

struct Gemm {
  int M, N, K;
  std::vector<float> A, B;
  Gemm(int m, int n, int k) : M(m), N(n), K(k), A(std::size_t(m) * k), B(std::size_t(k) * n) {
    for (std::size_t i = 0; i < A.size(); ++i) A[i] = static_cast<float>(static_cast<int>((i * 37) % 17) - 8) * 0.25f;
    for (std::size_t i = 0; i < B.size(); ++i) B[i] = static_cast<float>(static_cast<int>((i * 11) % 13) - 6) * 0.5f;
  }
  // Products and sums of these small multiples of 1/8 are exact in float: any order gives the
  // same bits.
  std::vector<float> reference() const {
    std::vector<float> C(std::size_t(M) * N);
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        float acc = 0;
        for (int k = 0; k < K; ++k) acc += A[std::size_t(i) * K + k] * B[std::size_t(k) * N + j];
        C[std::size_t(i) * N + j] = acc;
      }
    return C;
  }
};

TEST_F(Async, DoubleBufferedTiledGemm) {
  for (const char* kernel : {"gemm_double_buffered", "gemm_double_buffered16"}) {
    const Gemm g(48, 64, 80);
    const DevicePtr a = upload(dev_, g.A), b = upload(dev_, g.B), c = dev_.malloc(std::size_t(g.M) * g.N * 4);
    const KernelArg args[] = {arg(a), arg(b), arg(c), arg(g.M), arg(g.N), arg(g.K)};
    dev_.launch(module_, kernel, {unsigned(g.N / 16), unsigned(g.M / 16)}, {16, 16}, args);
    EXPECT_EQ(download<float>(dev_, c, std::size_t(g.M) * g.N), g.reference()) << kernel;
  }
}

TEST_F(Async, CudaPipelines) {
  const int blocks = 3, n = 128, chunks = 7;
  std::vector<float> in(std::size_t(blocks) * chunks * n);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 1000);
  const DevicePtr din = upload(dev_, in), dout = dev_.malloc(blocks * n * 4);
  const KernelArg args[] = {arg(din), arg(dout), arg(chunks)};
  dev_.launch(module_, "pipeline_thread_sum", {blocks}, {n}, args, 3 * n * 4);
  auto out = download<float>(dev_, dout, blocks * n);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < n; ++t) {
      float want = 0;
      for (int c = 0; c < chunks; ++c) want += in[std::size_t(b) * chunks * n + c * n + t];
      ASSERT_EQ(out[b * n + t], want) << "thread scope, block " << b << " thread " << t;
    }
  dev_.launch(module_, "pipeline_block_sum", {blocks}, {n}, args);
  out = download<float>(dev_, dout, blocks * n);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < n; ++t) {
      float want = 0;
      for (int c = 0; c < chunks; ++c) want += in[std::size_t(b) * chunks * n + c * n + (n - 1 - t)];
      ASSERT_EQ(out[b * n + t], want) << "block scope, block " << b << " thread " << t;
    }
}

TEST_F(Async, CooperativeGroupsAndBulkCopies) {
  const int blocks = 2, n = 256;
  std::vector<float> in(blocks * n);
  for (int i = 0; i < blocks * n; ++i) in[i] = static_cast<float>(i) * 0.5f;
  const DevicePtr din = upload(dev_, in), dout = dev_.malloc(blocks * n * 4);
  const KernelArg args[] = {arg(din), arg(dout)};
  dev_.launch(module_, "cg_copy_reverse", {blocks}, {n}, args);
  auto out = download<float>(dev_, dout, blocks * n);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < n; ++t) ASSERT_EQ(out[b * n + t], in[b * n + n - 1 - t]);
  dev_.launch(module_, "barrier_bulk_copy", {blocks}, {n}, args);
  out = download<float>(dev_, dout, blocks * n);
  for (int b = 0; b < blocks; ++b)
    for (int t = 0; t < n; ++t) ASSERT_EQ(out[b * n + t], 2.0f * in[b * n + n - 1 - t]);
}

TEST_F(Async, MbarrierProducerConsumer) {
  const int rounds = 9, warps = 4;
  std::vector<int> in(rounds * 32);
  for (int i = 0; i < rounds * 32; ++i) in[i] = i * 3 - 50;
  const DevicePtr din = upload(dev_, in), dout = dev_.malloc((warps - 1) * 32 * 4);
  const KernelArg args[] = {arg(din), arg(dout), arg(rounds)};
  dev_.launch(module_, "mbar_producer_consumer", {2}, {unsigned(warps * 32)}, args);
  const auto out = download<int>(dev_, dout, (warps - 1) * 32);
  for (int w = 1; w < warps; ++w)
    for (int l = 0; l < 32; ++l) {
      int want = 0;
      for (int r = 0; r < rounds; ++r) want += in[r * 32 + l] * w;
      EXPECT_EQ(out[(w - 1) * 32 + l], want) << "warp " << w << " lane " << l;
    }
}

TEST_F(Async, CudaBarrierPhases) {
  const int n = 96;
  const DevicePtr out = dev_.malloc(n * 4);
  const KernelArg args[] = {arg(out)};
  dev_.launch(module_, "cuda_barrier_exchange", {1}, {n}, args);
  const auto got = download<int>(dev_, out, n);
  for (int t = 0; t < n; ++t) EXPECT_EQ(got[t], 3 * t + 1) << t;
}

TEST_F(Async, CudaStdBarrierInSharedMemory) {
  const int n = 96;
  const DevicePtr out = dev_.malloc(n * 4);
  int missing = 0;
  const KernelArg args[] = {arg(out), arg(missing)};
  dev_.launch(module_, "std_barrier_exchange", {2}, {n}, args);
  const auto got = download<int>(dev_, out, n);
  for (int t = 0; t < n; ++t) EXPECT_EQ(got[t], 5 * ((t + 1) % n)) << t;
  // One arrival short: its acquire-load loop on shared memory never ends.
  missing = 1;
  const KernelArg args2[] = {arg(out), arg(missing)};
  const std::string e = launch_error("std_barrier_exchange", {1}, {n}, args2, ErrorKind::kDeadlock);
  EXPECT_THAT(e, HasSubstr("spin deadlock in kernel std_barrier_exchange, block (0,0,0)"));
  EXPECT_THAT(e, HasSubstr("spins on an unchanged value of shared memory at "));
  EXPECT_THAT(e, HasSubstr("ld.acquire.sys"));
}

TEST_F(Async, WaitThatNeverCompletesIsADeadlock) {
  const DevicePtr out = dev_.malloc(64 * 4);
  const KernelArg args[] = {arg(out)};
  const std::string e = launch_error("mbar_never_completes", {1}, {64}, args, ErrorKind::kDeadlock);
  EXPECT_THAT(e, HasSubstr("mbarrier deadlock in kernel mbar_never_completes"));
  EXPECT_THAT(e, HasSubstr("block (0,0,0)"));
  EXPECT_THAT(e, HasSubstr("warp 0: lane 0 (thread (0,0,0)) waits at"));
  EXPECT_THAT(e, HasSubstr("warp 1: lane 0 (thread (32,0,0)) waits at"));
  // 64 threads arrived on a barrier that expects 65.
  EXPECT_THAT(e, HasSubstr("now in phase parity 0: 1 of 65 arrivals pending, tx-count 0"));
  EXPECT_THAT(e, HasSubstr("(all lanes wait there)"));
}

TEST_F(Async, WaitThatNeverCompletesInACooperativeLaunch) {
  const DevicePtr out = dev_.malloc(64 * 4);
  const KernelArg args[] = {arg(out)};
  LaunchOptions o;
  o.cooperative = true;
  try {
    dev_.launch(module_, "mbar_never_completes", {2}, {64}, args, o);
    ADD_FAILURE() << "no deadlock";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kDeadlock);
    EXPECT_THAT(e.what(), HasSubstr("grid deadlock in cooperative kernel mbar_never_completes"));
    EXPECT_THAT(e.what(), HasSubstr("blocks 0-1: warps 0-1 waiting on an mbarrier phase that does not complete at"));
  }
}

TEST_F(Async, WaitBehindABarrierIsADeadlock) {
  const DevicePtr out = dev_.malloc(64 * 4);
  const KernelArg args[] = {arg(out)};
  const std::string e = launch_error("mbar_wait_vs_barrier", {1}, {64}, args, ErrorKind::kDeadlock);
  EXPECT_THAT(e, HasSubstr("warp 0: waits at barrier 0 at "));
  EXPECT_THAT(e, HasSubstr("async.cu:284; warp 1"));
  EXPECT_THAT(e, HasSubstr("warp 1: lane 0 (thread (32,0,0)) waits at "));
  EXPECT_THAT(e, HasSubstr("async.cu:287 for"));
  EXPECT_THAT(e, HasSubstr("for the phase of parity 0 of the mbarrier at shared offset"));
  EXPECT_THAT(e, HasSubstr("32 of 32 arrivals pending"));
}

TEST_F(Async, UninitializedMbarrierIsUndefined) {
  const DevicePtr out = dev_.malloc(32 * 4);
  const KernelArg args[] = {arg(out)};
  const std::string e = launch_error("mbar_uninitialized", {1}, {32}, args, ErrorKind::kUndefined);
  EXPECT_THAT(e, HasSubstr("an object that mbarrier.init has not initialized"));
  EXPECT_THAT(e, HasSubstr("thread (0,0,0)"));
}

TEST_F(Async, NoCompleteThatCompletesIsUndefined) {
  const DevicePtr out = dev_.malloc(64 * 4);
  const KernelArg args[] = {arg(out)};
  const std::string e = launch_error("mbar_too_many_arrivals", {1}, {64}, args, ErrorKind::kUndefined);
  // Lanes 0-2 take the pending count from 4 to 1; lane 3's arrival would complete the phase.
  EXPECT_THAT(e, HasSubstr("mbarrier.arrive.noComplete completed the current phase"));
  EXPECT_THAT(e, HasSubstr("thread (3,0,0)"));
}

}  // namespace
}  // namespace warpscope::exec::test

namespace warpscope::exec::test {
namespace {

TEST_F(Async, BulkStoreToGlobalWithABulkGroup) {
  const DevicePtr out = dev_.malloc(136 * 4);
  const std::vector<unsigned> init(136, 0xeeeeeeeeu);
  dev_.copy_to_device(out, init.data(), init.size() * 4);
  const KernelArg args[] = {arg(out)};
  RecordingSink sink;
  dev_.set_access_sink(&sink);
  dev_.launch(module_, "bulk_store", {1}, {32}, args);
  dev_.set_access_sink(nullptr);
  const auto got = download<unsigned>(dev_, out, 136);
  for (unsigned i = 0; i < 136; ++i) EXPECT_EQ(got[i], i >= 4 && i < 132 ? (i - 4) * 3 + 1 : 0xeeeeeeeeu) << i;
  // The global side: Op::kBulkStore records of 32 lanes x 16 bytes (one record: 512 bytes).
  unsigned records = 0;
  for (const WarpAccess& a : sink.records) {
    if (a.op != Op::kBulkStore) continue;
    ++records;
    EXPECT_EQ(a.active.bits(), 0xffffffffu);
    EXPECT_EQ(a.addr[0], out + 16);
    EXPECT_FALSE(a.tensor);
  }
  EXPECT_EQ(records, 1u);
}

}  // namespace
}  // namespace warpscope::exec::test
