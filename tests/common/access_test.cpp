#include "common/access.hpp"

#include <gtest/gtest.h>

namespace warpscope {
namespace {

WarpAccess affine(std::uint64_t base, std::int64_t stride, std::uint32_t active = 0xffffffffu) {
  WarpAccess a;
  a.active = LaneMask(active);
  for (unsigned l = 0; l < 32; ++l) a.addr[l] = base + static_cast<std::uint64_t>(stride * static_cast<std::int64_t>(l));
  return a;
}

// Both forms: the record's (any mask) and summarize32 (32 lanes, with an offset).
void expect_same_as_full(const WarpAccess& a) {
  const AddressSummary s = summarize_addresses(a);
  const AddressSummary t = summarize32(a.addr.data(), 0);
  EXPECT_EQ(s.active, t.active);
  EXPECT_EQ(s.lo, t.lo);
  EXPECT_EQ(s.hi, t.hi);
  EXPECT_EQ(s.ored, t.ored);
  EXPECT_EQ(s.affine, t.affine);
  EXPECT_EQ(s.stride, t.stride);
  EXPECT_EQ(s.run_base, t.run_base);
}

TEST(AddressSummary, ConsecutiveWords) {
  const AddressSummary s = summarize_addresses(affine(0x1000, 4));
  EXPECT_EQ(s.active, 32u);
  EXPECT_EQ(s.lo, 0x1000u);
  EXPECT_EQ(s.hi, 0x1000u + 31 * 4);
  EXPECT_EQ(s.ored & 3u, 0u);
  EXPECT_TRUE(s.affine);
  EXPECT_EQ(s.stride, 4);
  EXPECT_EQ(s.run_base, 0x1000u);
  expect_same_as_full(affine(0x1000, 4));
}

TEST(AddressSummary, BroadcastIsStrideZero) {
  const AddressSummary s = summarize_addresses(affine(0x2a0, 0));
  EXPECT_TRUE(s.affine);
  EXPECT_EQ(s.stride, 0);
  EXPECT_EQ(s.lo, 0x2a0u);
  EXPECT_EQ(s.hi, 0x2a0u);
  EXPECT_EQ(s.ored, 0x2a0u);
  expect_same_as_full(affine(0x2a0, 0));
}

TEST(AddressSummary, NegativeStride) {
  const AddressSummary s = summarize_addresses(affine(10000, -8));
  EXPECT_TRUE(s.affine);
  EXPECT_EQ(s.stride, -8);
  EXPECT_EQ(s.lo, 10000u - 31 * 8);
  EXPECT_EQ(s.hi, 10000u);
  expect_same_as_full(affine(10000, -8));
}

TEST(AddressSummary, OneLaneOffTheLineIsNotAffine) {
  WarpAccess a = affine(0, 4);
  a.addr[17] = 4;  // lane 17 reads lane 1's word
  const AddressSummary s = summarize_addresses(a);
  EXPECT_FALSE(s.affine);
  EXPECT_EQ(s.lo, 0u);
  EXPECT_EQ(s.hi, 31u * 4);
  EXPECT_EQ(s.ored, 0x7cu);  // OR of 0..124 in steps of 4
  expect_same_as_full(a);
}

TEST(AddressSummary, MisalignedLaneShowsInTheOr) {
  WarpAccess a = affine(0x100, 8);
  a.addr[5] += 2;
  const AddressSummary s = summarize_addresses(a);
  EXPECT_NE(s.ored & 7u, 0u);
  EXPECT_FALSE(s.affine);
  expect_same_as_full(a);
}

TEST(AddressSummary, WrapAroundIsNotAffine) {
  // Lane l at 2^64 - 64 + 4 l: the addresses wrap to small numbers from lane 16 on, so the
  // ends (lanes 0 and 31) are not the extremes.
  const WarpAccess a = affine(0 - std::uint64_t{64}, 4);
  const AddressSummary s = summarize_addresses(a);
  EXPECT_FALSE(s.affine);
  EXPECT_EQ(s.lo, 0u);
  EXPECT_EQ(s.hi, 0 - std::uint64_t{4});
  expect_same_as_full(a);
}

TEST(AddressSummary, PartialMaskUsesOnlyActiveLanes) {
  // Even lanes at 0x400 + 8 l; odd lanes hold garbage that must not matter.
  WarpAccess a = affine(0x400, 8, 0x55555555u);
  for (unsigned l = 1; l < 32; l += 2) a.addr[l] = 0xdead;
  const AddressSummary s = summarize_addresses(a);
  EXPECT_EQ(s.active, 16u);
  EXPECT_TRUE(s.affine);
  EXPECT_EQ(s.stride, 8);
  EXPECT_EQ(s.run_base, 0x400u);
  EXPECT_EQ(s.lo, 0x400u);
  EXPECT_EQ(s.hi, 0x400u + 30 * 8);
  EXPECT_EQ(s.ored & 7u, 0u);
}

TEST(AddressSummary, PartialMaskStrideFromAGap) {
  // Lanes 3 and 7 only, 64 bytes apart: 16 bytes per lane; lane 0 would be at 0x1000 - 48.
  WarpAccess a;
  a.active = LaneMask((1u << 3) | (1u << 7));
  a.addr[3] = 0x1000;
  a.addr[7] = 0x1040;
  const AddressSummary s = summarize_addresses(a);
  EXPECT_TRUE(s.affine);
  EXPECT_EQ(s.stride, 16);
  EXPECT_EQ(s.run_base, 0x1000u - 48);
  EXPECT_EQ(s.lo, 0x1000u);
  EXPECT_EQ(s.hi, 0x1040u);
}

TEST(AddressSummary, OneActiveLaneAndNone) {
  WarpAccess a;
  a.active = LaneMask(1u << 9);
  a.addr[9] = 0x77;
  const AddressSummary one = summarize_addresses(a);
  EXPECT_EQ(one.active, 1u);
  EXPECT_EQ(one.lo, 0x77u);
  EXPECT_EQ(one.hi, 0x77u);
  EXPECT_FALSE(one.affine);
  a.active = LaneMask(0);
  const AddressSummary none = summarize_addresses(a);
  EXPECT_EQ(none.active, 0u);
  EXPECT_GT(none.lo, none.hi);
}

TEST(AddressSummary, OffsetIsAddedToEveryLane) {
  const WarpAccess a = affine(0x100, 4);
  const AddressSummary s = summarize32(a.addr.data(), 0x40);
  EXPECT_EQ(s.lo, 0x140u);
  EXPECT_EQ(s.hi, 0x140u + 31 * 4);
  EXPECT_EQ(s.run_base, 0x140u);
  EXPECT_TRUE(s.affine);
}

TEST(AddressSummary, MinMaxCompareUnsigned) {
  // Values on both sides of 2^63 (a signed compare would order them the other way round).
  std::uint64_t v[32];
  for (unsigned l = 0; l < 32; ++l) v[l] = 0x1000 + 8 * ((l * 7) % 32);
  v[3] = 0x8000000000000001ull;
  v[20] = 0x7fffffffffffffffull;
  v[11] = 0x10;
  std::uint64_t lo = 0, hi = 0;
  minmax32(v, 0, lo, hi);
  EXPECT_EQ(lo, 0x10u);
  EXPECT_EQ(hi, 0x8000000000000001ull);
  minmax32(v, 0x10, lo, hi);  // the offset is added before comparing
  EXPECT_EQ(lo, 0x20u);
  EXPECT_EQ(hi, 0x8000000000000011ull);
  // The portable loop (minmax32 uses AVX2 where the CPU has it) gives the same.
  minmax32_portable(v, 0, lo, hi);
  EXPECT_EQ(lo, 0x10u);
  EXPECT_EQ(hi, 0x8000000000000001ull);
  minmax32_portable(v, 0x10, lo, hi);
  EXPECT_EQ(lo, 0x20u);
  EXPECT_EQ(hi, 0x8000000000000011ull);
  // The vector versions, where this CPU has them, give the same.
  if (minmax32_avx512(v, 0, lo, hi)) {
    EXPECT_EQ(lo, 0x10u);
    EXPECT_EQ(hi, 0x8000000000000001ull);
    ASSERT_TRUE(minmax32_avx512(v, 0x10, lo, hi));
    EXPECT_EQ(lo, 0x20u);
    EXPECT_EQ(hi, 0x8000000000000011ull);
  }
  if (minmax32_avx2(v, 0, lo, hi)) {
    EXPECT_EQ(lo, 0x10u);
    EXPECT_EQ(hi, 0x8000000000000001ull);
    ASSERT_TRUE(minmax32_avx2(v, 0x10, lo, hi));
    EXPECT_EQ(lo, 0x20u);
    EXPECT_EQ(hi, 0x8000000000000011ull);
  }
}

TEST(AddressSummary, MinMaxAfterTheOffsetWraps) {
  // The offset is added modulo 2^64 before comparing: 2^64 - 8 + 0x10 is 8, the lowest, and the
  // highest is then 0x1000 + 8 * 31 + 0x10 (lane 31's value).
  std::uint64_t v[32];
  for (unsigned l = 0; l < 32; ++l) v[l] = 0x1000 + 8 * l;
  v[5] = 0xfffffffffffffff8ull;
  std::uint64_t lo = 0, hi = 0;
  minmax32(v, 0x10, lo, hi);
  EXPECT_EQ(lo, 0x8u);
  EXPECT_EQ(hi, 0x1000u + 8 * 31 + 0x10);
  minmax32_portable(v, 0x10, lo, hi);
  EXPECT_EQ(lo, 0x8u);
  EXPECT_EQ(hi, 0x1000u + 8 * 31 + 0x10);
  if (minmax32_avx512(v, 0x10, lo, hi)) {
    EXPECT_EQ(lo, 0x8u);
    EXPECT_EQ(hi, 0x1000u + 8 * 31 + 0x10);
  }
  if (minmax32_avx2(v, 0x10, lo, hi)) {
    EXPECT_EQ(lo, 0x8u);
    EXPECT_EQ(hi, 0x1000u + 8 * 31 + 0x10);
  }
}

}  // namespace
}  // namespace warpscope
