// Shared-memory wavefronts and bank conflicts. Expected values: the H100's counters for
// tests/hw/patterns.cu's shared_stride kernels (tests/hw/data/h100/README.md), and the cc 1.x
// 16-bank rule worked by hand.
#include <gtest/gtest.h>

#include "access_builder.hpp"
#include "mem/shared_banks.hpp"

namespace warpscope::mem {
namespace {

SharedBankResult run(const char* arch, Op op, std::uint8_t width, std::int64_t stride, std::uint32_t active = 0xffffffffu) {
  WarpAccess a = test::make_access(Space::kShared, op, width, 0,
                                   [&](unsigned lane) { return (std::int64_t(lane) * stride) % 1024; }, active);
  return shared_access(arch::builtin_profile(arch), a);
}

struct Case {
  std::uint8_t width;
  std::int64_t stride;
  std::uint32_t load_wavefronts, load_conflicts, store_wavefronts, store_conflicts;
};

// Measured on an H100 with Nsight Compute (one warp, element i of a T[1024] array at lane*stride).
const Case kH100[] = {
    {4, 1, 1, 0, 1, 0},   {4, 2, 2, 1, 2, 1},   {4, 32, 32, 31, 32, 31}, {4, 0, 1, 0, 1, 0},   {4, 33, 1, 0, 1, 0},
    {8, 1, 2, 0, 2, 0},   {8, 2, 4, 2, 4, 2},   {8, 32, 32, 30, 32, 30}, {8, 0, 1, 0, 2, 0},   {8, 33, 2, 0, 2, 0},
    {16, 1, 4, 0, 4, 0},  {16, 2, 8, 4, 8, 4},  {16, 32, 32, 28, 32, 28}, {16, 0, 2, 0, 4, 0}, {16, 33, 4, 0, 4, 0},
};

TEST(SharedBanks, MatchesTheH100) {
  for (const Case& c : kH100) {
    SharedBankResult ld = run("hopper", Op::kLoad, c.width, c.stride);
    SharedBankResult st = run("hopper", Op::kStore, c.width, c.stride);
    EXPECT_EQ(ld.wavefronts, c.load_wavefronts) << int(c.width) << " B stride " << c.stride;
    EXPECT_EQ(ld.bank_conflicts, c.load_conflicts) << int(c.width) << " B stride " << c.stride;
    EXPECT_EQ(st.wavefronts, c.store_wavefronts) << int(c.width) << " B stride " << c.stride;
    EXPECT_EQ(st.bank_conflicts, c.store_conflicts) << int(c.width) << " B stride " << c.stride;
  }
}

TEST(SharedBanks, FermiServesWideWordsInHalfAndQuarterWarps) {
  // 128-byte passes for loads and stores alike: float2 consecutive = 2 passes of 16 lanes.
  EXPECT_EQ(run("fermi", Op::kLoad, 8, 1).wavefronts, 2u);
  EXPECT_EQ(run("fermi", Op::kLoad, 8, 0).wavefronts, 2u);
  EXPECT_EQ(run("fermi", Op::kLoad, 16, 1).wavefronts, 4u);
  EXPECT_EQ(run("fermi", Op::kLoad, 4, 2).bank_conflicts, 1u);
}

TEST(SharedBanks, TeslaHas16BanksServedPerHalfWarp) {
  SharedBankResult r = run("tesla", Op::kLoad, 4, 1);
  EXPECT_EQ(r.wavefronts, 2u);  // one per half-warp
  EXPECT_EQ(r.bank_conflicts, 0u);
  r = run("tesla", Op::kLoad, 4, 16);  // every lane of a half-warp in bank 0
  EXPECT_EQ(r.wavefronts, 32u);
  EXPECT_EQ(r.bank_conflicts, 30u);
  r = run("tesla", Op::kLoad, 4, 1, 0x0000ffffu);  // one half-warp only
  EXPECT_EQ(r.wavefronts, 1u);
}

TEST(SharedBanks, BytesRequestedAreDistinct) {
  EXPECT_EQ(run("hopper", Op::kLoad, 4, 1).bytes_requested, 128u);
  EXPECT_EQ(run("hopper", Op::kLoad, 4, 0).bytes_requested, 4u);
  EXPECT_EQ(run("hopper", Op::kLoad, 16, 1).bytes_requested, 512u);
}

}  // namespace
}  // namespace warpscope::mem
