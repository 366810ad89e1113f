// Shared-memory wavefronts and bank conflicts. Expected values: the H100's counters for
// tests/hw/patterns.cu's shared_stride kernels (tests/hw/data/h100/README.md), and the cc 1.x
// 16-bank rule worked by hand.
#include "mem/shared_banks.hpp"

#include <gtest/gtest.h>

#include "access_builder.hpp"
#include "warpscope/error.hpp"

namespace warpscope::mem {
namespace {

SharedBankResult run(const char* arch, Op op, std::uint8_t width, std::int64_t stride,
                     std::uint32_t active = 0xffffffffu) {
  WarpAccess a = test::make_access(
      Space::kShared, op, width, 0, [&](unsigned lane) { return (std::int64_t(lane) * stride) % 1024; }, active);
  return shared_access(arch::builtin_profile(arch), a);
}

struct Case {
  std::uint8_t width;
  std::int64_t stride;
  std::uint32_t load_wavefronts, load_conflicts, store_wavefronts, store_conflicts;
};

// Measured on an H100 with Nsight Compute (one warp, element i of a T[1024] array at lane*stride).
const Case kH100[] = {
    {4, 1, 1, 0, 1, 0},  {4, 2, 2, 1, 2, 1},  {4, 32, 32, 31, 32, 31},  {4, 0, 1, 0, 1, 0},  {4, 33, 1, 0, 1, 0},
    {8, 1, 2, 0, 2, 0},  {8, 2, 4, 2, 4, 2},  {8, 32, 32, 30, 32, 30},  {8, 0, 1, 0, 2, 0},  {8, 33, 2, 0, 2, 0},
    {16, 1, 4, 0, 4, 0}, {16, 2, 8, 4, 8, 4}, {16, 32, 32, 28, 32, 28}, {16, 0, 2, 0, 4, 0}, {16, 33, 4, 0, 4, 0},
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

// The rule's required cases (hopper, full warp, 4-byte words unless said).
TEST(SharedBanks, RuleCases) {
  SharedBankResult r = run("hopper", Op::kLoad, 4, 1);
  EXPECT_EQ(r.wavefronts, 1u);
  EXPECT_EQ(r.ideal_wavefronts, 1u);
  r = run("hopper", Op::kLoad, 4, 2);
  EXPECT_EQ(r.wavefronts, 2u);
  EXPECT_EQ(r.ideal_wavefronts, 1u);
  EXPECT_EQ(r.bank_conflicts, 1u);
  r = run("hopper", Op::kLoad, 4, 32);
  EXPECT_EQ(r.wavefronts, 32u);
  EXPECT_EQ(r.bank_conflicts, 31u);
  // Column of a [32][4] float array: words 4l sit in 8 banks, 4 distinct words each.
  r = run("hopper", Op::kLoad, 4, 4);
  EXPECT_EQ(r.wavefronts, 4u);
  EXPECT_EQ(r.ideal_wavefronts, 1u);
  EXPECT_EQ(r.bank_conflicts, 3u);
  // float2 / float4 consecutive: as many wavefronts as 128-byte rows, no conflict.
  for (Op op : {Op::kLoad, Op::kStore}) {
    r = run("hopper", op, 8, 1);
    EXPECT_EQ(r.wavefronts, 2u);
    EXPECT_EQ(r.bank_conflicts, 0u);
    r = run("hopper", op, 16, 1);
    EXPECT_EQ(r.wavefronts, 4u);
    EXPECT_EQ(r.ideal_wavefronts, 4u);
    EXPECT_EQ(r.bank_conflicts, 0u);
  }
  // 16-byte words on 128-byte rows (stride 32 words = 8 elements): a store phase of 8 lanes hits
  // banks 0-3 with 8 distinct words: 8 wavefronts per phase, 32 in all.
  r = run("hopper", Op::kStore, 16, 8);
  EXPECT_EQ(r.lanes_per_phase, 8u);
  EXPECT_EQ(r.phase_count, 4u);
  EXPECT_EQ(r.wavefronts, 32u);
  EXPECT_EQ(r.ideal_wavefronts, 4u);
  EXPECT_EQ(r.bank_conflicts, 28u);
  for (unsigned p = 0; p < 4; ++p) {
    EXPECT_EQ(r.phases[p].wavefronts, 8u);
    EXPECT_EQ(r.phases[p].lanes.bits(), 0xffu << (8 * p));
    EXPECT_EQ(r.phases[p].first_addr, 1024u * p);
  }
}

TEST(SharedBanks, LanesPerPhase) {
  const arch::Profile& hopper = arch::builtin_profile("hopper");
  const arch::Profile& fermi = arch::builtin_profile("fermi");
  const arch::Profile& tesla = arch::builtin_profile("tesla");
  const unsigned widths[] = {1, 2, 4, 8, 16};
  const unsigned hopper_ld[] = {32, 32, 32, 32, 16}, hopper_st[] = {32, 32, 32, 16, 8};
  const unsigned fermi_all[] = {32, 32, 32, 16, 8}, tesla_all[] = {16, 16, 16, 8, 4};
  for (unsigned i = 0; i < 5; ++i) {
    EXPECT_EQ(shared_lanes_per_phase(hopper, Op::kLoad, widths[i]), hopper_ld[i]);
    EXPECT_EQ(shared_lanes_per_phase(hopper, Op::kStore, widths[i]), hopper_st[i]);
    EXPECT_EQ(shared_lanes_per_phase(fermi, Op::kLoad, widths[i]), fermi_all[i]);
    EXPECT_EQ(shared_lanes_per_phase(fermi, Op::kStore, widths[i]), fermi_all[i]);
    EXPECT_EQ(shared_lanes_per_phase(tesla, Op::kLoad, widths[i]), tesla_all[i]);
  }
}

TEST(SharedBanks, NarrowWordsShareBankWords) {
  // 32 consecutive bytes are 8 bank words in 8 banks: 1 wavefront.
  SharedBankResult r = run("hopper", Op::kLoad, 1, 1);
  EXPECT_EQ(r.wavefronts, 1u);
  EXPECT_EQ(r.bytes_requested, 32u);
  // Bytes 128 apart are all in bank 0, in 32 different words.
  r = shared_access(arch::builtin_profile("hopper"),
                    test::access(Space::kShared, Op::kStore, 1, [](unsigned l) { return 128 * l; }));
  EXPECT_EQ(r.wavefronts, 32u);
  EXPECT_EQ(r.bank_conflicts, 31u);
  // Two halves of one word: broadcast, 1 wavefront.
  r = run("hopper", Op::kLoad, 2, 0);
  EXPECT_EQ(r.wavefronts, 1u);
}

TEST(SharedBanks, InactiveLanesDoNothing) {
  // Lanes 0 and 16, 128 bytes apart (both bank 0): one phase of 32 on the H100, two on cc 1.x.
  SharedBankResult r = run("hopper", Op::kLoad, 4, 32, 0x00010001u);
  EXPECT_EQ(r.wavefronts, 2u);
  EXPECT_EQ(r.ideal_wavefronts, 1u);
  EXPECT_EQ(r.bank_conflicts, 1u);
  r = run("tesla", Op::kLoad, 4, 32, 0x00010001u);
  EXPECT_EQ(r.wavefronts, 2u);
  EXPECT_EQ(r.bank_conflicts, 0u);
  r = run("hopper", Op::kLoad, 4, 1, 0);
  EXPECT_EQ(r.wavefronts, 0u);
  EXPECT_EQ(r.ideal_wavefronts, 0u);
  EXPECT_EQ(r.phase_count, 0u);
  EXPECT_EQ(r.bytes_requested, 0u);
}

// Addresses far apart (more than 1024 words between the lowest and the highest) follow the same
// rule; the implementation takes another path for them (shared_banks.cpp).
TEST(SharedBanks, FarApartAddressesFollowTheSameRule) {
  const arch::Profile& h = arch::builtin_profile("hopper");
  auto at = [&](auto addr, std::uint32_t active = 0xffffffffu) {
    return shared_access(h, test::access(Space::kShared, Op::kLoad, 4, addr, active));
  };
  // 4 KB apart: every lane in bank 0, 32 distinct words.
  SharedBankResult r = at([](unsigned l) { return 4096 * l; });
  EXPECT_EQ(r.wavefronts, 32u);
  EXPECT_EQ(r.ideal_wavefronts, 1u);
  EXPECT_EQ(r.bank_conflicts, 31u);
  EXPECT_EQ(r.bytes_requested, 128u);
  EXPECT_EQ(r.phases[0].first_addr, 0u);
  // Two half-warps 64 KB apart (16384 words, a multiple of 32): banks 0-15 each hold two words.
  r = at([](unsigned l) { return (l % 16) * 4 + (l / 16) * 65536; });
  EXPECT_EQ(r.wavefronts, 2u);
  EXPECT_EQ(r.ideal_wavefronts, 1u);
  EXPECT_EQ(r.bytes_requested, 128u);
  // Two broadcasts 64 KB apart: bank 0, two words.
  r = at([](unsigned l) { return (l / 16) * 65536; });
  EXPECT_EQ(r.wavefronts, 2u);
  EXPECT_EQ(r.ideal_wavefronts, 1u);
  EXPECT_EQ(r.bytes_requested, 8u);
  // Two lanes 1023 words apart (banks 0 and 31): one wavefront; 1024 words apart (bank 0 twice): two.
  r = at([](unsigned l) { return l == 0 ? 0 : 4092; }, 0b11u);
  EXPECT_EQ(r.wavefronts, 1u);
  r = at([](unsigned l) { return l == 0 ? 0 : 4096; }, 0b11u);
  EXPECT_EQ(r.wavefronts, 2u);
  EXPECT_EQ(r.bank_conflicts, 1u);
  // The lowest address is lane 31's.
  r = at([](unsigned l) { return 8192 * (32 - l); });
  EXPECT_EQ(r.phases[0].first_addr, 8192u);
  EXPECT_EQ(r.wavefronts, 32u);
}

TEST(SharedBanks, MisalignedIsAnError) {
  WarpAccess a = test::access(Space::kShared, Op::kLoad, 8, [](unsigned l) { return 8 * l + 4; });
  try {
    shared_access(arch::builtin_profile("hopper"), a);
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kMisaligned);
  }
}

}  // namespace
}  // namespace warpscope::mem

namespace warpscope::mem {
namespace {

// 32-bit shared atomics (ATOMS.ADD) by one warp, word index per lane as in
// tests/hw/timing/shared_atomics.cu; wavefronts and bank conflicts per warp instruction are the
// H200's (tests/hw/data/h200/shared_atomics/shared_atomics_ncu.csv: op_atom wavefronts and bank
// conflicts over 2,048 instructions). Lanes on the same word are not merged.
TEST(SharedBanks, AtomicsServeEachLaneAsTheH200) {
  struct AtomCase {
    const char* name;
    std::uint32_t (*word)(unsigned lane);
    std::uint32_t wavefronts, conflicts;
  };
  const AtomCase cases[] = {
      {"distinct", [](unsigned l) { return l; }, 1, 0},
      {"same", [](unsigned) { return 0u; }, 32, 31},
      {"two", [](unsigned l) { return l & 1u; }, 16, 15},
      {"four", [](unsigned l) { return l & 3u; }, 8, 7},
      {"eight", [](unsigned l) { return l & 7u; }, 4, 3},
      {"sixteen", [](unsigned l) { return l & 15u; }, 2, 1},
      {"bank32", [](unsigned l) { return l * 32; }, 32, 31},
      {"bank4", [](unsigned l) { return (l & 3u) * 32; }, 32, 31},
      {"bank2x16", [](unsigned l) { return (l & 15u) * 32 + (l >> 4); }, 16, 15},
  };
  for (const AtomCase& c : cases) {
    for (Op op : {Op::kAtomic, Op::kReduction}) {
      WarpAccess a = test::make_access(Space::kShared, op, 4, 0, [&](unsigned lane) { return std::int64_t{c.word(lane)}; });
      const SharedBankResult r = shared_access(arch::builtin_profile("hopper"), a);
      EXPECT_EQ(r.wavefronts, c.wavefronts) << c.name;
      EXPECT_EQ(r.bank_conflicts, c.conflicts) << c.name;
    }
  }
  // The same addresses as stores keep the broadcast rule: one wavefront for one word.
  WarpAccess st = test::make_access(Space::kShared, Op::kStore, 4, 0, [](unsigned) { return std::int64_t{0}; });
  EXPECT_EQ(shared_access(arch::builtin_profile("hopper"), st).wavefronts, 1u);
}

}  // namespace
}  // namespace warpscope::mem
