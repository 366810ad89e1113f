// The saxpy variants of seed 003 (kernels/saxpy.cu), each on N = 1000 elements launched as
// 8 blocks of 128 threads: the last 24 threads fail `i < N` and must leave the tail of y alone,
// and in saxpy_half the warp covering 480..511 straddles N / 2 = 500.
//
// Tolerance: bit-exact. a = 2.5 has 3 significant bits and x keeps at most 21, so a * x is
// exact and y +- a * x rounds once, whether or not nvcc contracted it into an fma (it does in
// some of these kernels and not in others).
#include "corpus.hpp"

#include <functional>

namespace corpus {
namespace {

constexpr float kA = 2.5f;
constexpr std::uint64_t kN = 1000;
constexpr std::size_t kAllocated = 1024;
constexpr std::uint32_t kBlock = 128;

struct Inputs {
  std::vector<float> x, y, z;
};

Inputs make_inputs() {
  Rng rng(3);
  Inputs in;
  for (std::size_t i = 0; i < kAllocated; ++i) {
    in.x.push_back(truncate_mantissa(rng.uniform_f(-4.0f, 4.0f), 3));
    in.y.push_back(rng.uniform_f(-4.0f, 4.0f));
    in.z.push_back(truncate_mantissa(rng.uniform_f(-4.0f, 4.0f), 3));
  }
  return in;
}

// new y[i] for i < N, given the inputs; elements at N and beyond must not change.
using Reference = std::function<float(std::uint64_t i, const Inputs& in)>;

float plus(const Inputs& in, std::uint64_t i) { return in.y[i] + kA * in.x[i]; }
float minus(const Inputs& in, std::uint64_t i) { return in.y[i] - kA * in.x[i]; }

void check_variant(const char* kernel, bool with_z, const Reference& reference) {
  Device device;
  Module module = load(device, "saxpy");
  const Inputs in = make_inputs();
  Buffer<float> x(device, in.x), y(device, in.y), z(device, in.z);
  const Dim3 grid = blocks_for(kAllocated, kBlock);
  if (with_z) {
    launch(device, module, kernel, grid, Dim3{kBlock}, x.ptr(), y.ptr(), z.ptr(), kA, kN);
  } else {
    launch(device, module, kernel, grid, Dim3{kBlock}, x.ptr(), y.ptr(), kA, kN);
  }
  std::vector<float> want = in.y;
  for (std::uint64_t i = 0; i < kN; ++i) want[i] = reference(i, in);
  EXPECT_TRUE(bitwise_equal(y.download(), want)) << kernel;
  EXPECT_TRUE(bitwise_equal(x.download(), in.x)) << kernel << " must not write x";
}

TEST(Saxpy, Plain) {
  check_variant("saxpy_plain", false,
                [](std::uint64_t i, const Inputs& in) { return plus(in, i); });
}

TEST(Saxpy, EvenThreadsOnly) {
  check_variant("saxpy_even", false, [](std::uint64_t i, const Inputs& in) {
    return i % 2 == 0 ? plus(in, i) : in.y[i];
  });
}

TEST(Saxpy, IfElseSameArrays) {
  check_variant("saxpy_ifelse", false, [](std::uint64_t i, const Inputs& in) {
    return i % 2 == 0 ? plus(in, i) : minus(in, i);
  });
}

TEST(Saxpy, IfElseSecondBranchReadsAnotherArray) {
  check_variant("saxpy_ifelse_other", true, [](std::uint64_t i, const Inputs& in) {
    return i % 2 == 0 ? plus(in, i) : in.y[i] - kA * in.z[i];
  });
}

TEST(Saxpy, BothValuesLoadedBeforeTheBranch) {
  check_variant("saxpy_regs", false, [](std::uint64_t i, const Inputs& in) {
    return i % 2 == 0 ? plus(in, i) : minus(in, i);
  });
}

TEST(Saxpy, SplitAtHalfN) {
  check_variant("saxpy_half", false, [](std::uint64_t i, const Inputs& in) {
    return i < kN / 2 ? plus(in, i) : minus(in, i);
  });
}

// The kernels take `unsigned long N`: an N above 2^32 must compare as 64 bits (every thread
// then passes `i < N`; saxpy_half takes its first branch everywhere).
TEST(Saxpy, SizeArgumentIsSixtyFourBits) {
  Device device;
  Module module = load(device, "saxpy");
  const Inputs in = make_inputs();
  Buffer<float> x(device, in.x), y(device, in.y);
  const std::uint64_t huge_n = (std::uint64_t{1} << 32) + 7;
  launch(device, module, "saxpy_half", blocks_for(kAllocated, kBlock), Dim3{kBlock}, x.ptr(),
         y.ptr(), kA, huge_n);
  std::vector<float> want(kAllocated);
  for (std::size_t i = 0; i < kAllocated; ++i) want[i] = plus(in, i);
  EXPECT_TRUE(bitwise_equal(y.download(), want));
}

}  // namespace
}  // namespace corpus
