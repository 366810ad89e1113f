// The .e4m3/.e5m2 wgmma arithmetic (src/exec/wgmma_fp8.hpp, qgmma_dot) against the H100: every
// element of tests/hw/data/h100/wgmma/wgmma_fp8.txt.gz recomputed from the probe's inputs
// (mma_gen.hpp regenerates them; configurations 82-87 of tests/hw/wgmma/wgmma_probe.cu), and
// hand-derived cases of the rule. wgmma_programs_test.cpp runs the probe itself under warpscope.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/tensor/mma_gen.hpp"
#include "exec/wgmma_fp8.hpp"

namespace {

using warpscope::ptx::MmaType;
using warpscope::exec::mma_math::qgmma_dot;

MmaType to_mma(mma_gen::T t) {
  switch (t) {
    case mma_gen::T::kE4M3: return MmaType::kE4M3;
    case mma_gen::T::kE5M2: return MmaType::kE5M2;
    case mma_gen::T::kF16: return MmaType::kF16;
    default: return MmaType::kF32;
  }
}

/// "D <config> <test>: hex ..." lines of the capture: [config][test] -> elements.
std::map<int, std::map<int, std::vector<std::uint32_t>>> h100() {
  std::map<int, std::map<int, std::vector<std::uint32_t>>> d;
  const std::string cmd =
      "gzip -dc '" + std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/wgmma/wgmma_fp8.txt.gz'";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return d;
  std::string text;
  char buf[65536];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, n);
  pclose(p);
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("D ", 0) != 0) continue;
    std::istringstream s(line.substr(2));
    int cfg = 0, test = 0;
    char colon = 0;
    s >> cfg >> test >> colon;
    std::string hex;
    while (s >> hex) d[cfg][test].push_back(static_cast<std::uint32_t>(std::stoul(hex, nullptr, 16)));
  }
  return d;
}

// The probe's .e4m3/.e5m2 configurations (wgmma_probe.cu): id, N, D, A, B, scale-d, imm-scale-a, tests.
struct Fp8Probe {
  int id, n;
  mma_gen::T d, a, b;
  bool scale_d;
  int scale_a, tests;
};
constexpr Fp8Probe kProbes[] = {
    {82, 8, mma_gen::T::kF32, mma_gen::T::kE4M3, mma_gen::T::kE4M3, true, 1, 24},
    {83, 16, mma_gen::T::kF32, mma_gen::T::kE5M2, mma_gen::T::kE4M3, true, 1, 24},
    {84, 8, mma_gen::T::kF16, mma_gen::T::kE4M3, mma_gen::T::kE5M2, true, 1, 24},
    {85, 32, mma_gen::T::kF32, mma_gen::T::kE4M3, mma_gen::T::kE4M3, true, 1, 12},
    {86, 8, mma_gen::T::kF16, mma_gen::T::kE5M2, mma_gen::T::kE5M2, true, 1, 24},
    {87, 8, mma_gen::T::kF32, mma_gen::T::kE4M3, mma_gen::T::kE5M2, false, -1, 12},
};

TEST(QgmmaDot, EveryElementOfTheProbeAsTheH100) {
  const auto data = h100();
  ASSERT_EQ(data.size(), 6u) << "wgmma_fp8.txt.gz not read";
  long checked = 0;
  for (const Fp8Probe& p : kProbes) {
    const mma_gen::Config cfg{p.id, 2, 64, p.n, 32, false, false, p.d, p.a, p.b, p.d, 0, false, 0, p.tests};
    const auto it = data.find(p.id);
    ASSERT_NE(it, data.end()) << "configuration " << p.id;
    ASSERT_EQ(static_cast<int>(it->second.size()), p.tests);
    for (const auto& [test, want] : it->second) {
      ASSERT_EQ(want.size(), std::size_t(64) * p.n);
      const mma_gen::Inputs in = mma_gen::make_inputs(cfg, test);
      int wrong = 0;
      for (int r = 0; r < 64; ++r)
        for (int c = 0; c < p.n; ++c) {
          std::uint32_t a[32], b[32];
          for (int k = 0; k < 32; ++k) {
            a[k] = static_cast<std::uint32_t>(in.a[r * 32 + k]) ^ (p.scale_a < 0 ? 0x80u : 0u);  // imm-scale-a -1
            b[k] = static_cast<std::uint32_t>(in.b[k * p.n + c]);
          }
          const std::uint32_t cv = p.scale_d ? static_cast<std::uint32_t>(in.c[r * p.n + c]) : 0u;
          const std::uint32_t got = qgmma_dot(to_mma(p.a), to_mma(p.b), a, b, 32, cv, to_mma(p.d));
          const std::uint32_t h = want[std::size_t(r) * p.n + c];
          ++checked;
          if (got != h && ++wrong <= 3)
            ADD_FAILURE() << "config " << p.id << " test " << test << " row " << r << " col " << c << ": rule 0x"
                          << std::hex << got << ", H100 0x" << h << std::dec;
        }
      EXPECT_EQ(wrong, 0) << "config " << p.id << " test " << test;
    }
  }
  EXPECT_EQ(checked, 92160);
}

// Hand-derived cases of the rule (wgmma_fp8.hpp). e4m3 0x38 = 1, 0x08 = 2^-6, 0x01 = 2^-9 (the
// smallest subnormal), 0x7e = 448, 0x7f NaN; e5m2 0x3c = 1, 0x28 = 2^-5, 0x20 = 2^-7, 0x1c = 2^-8,
// 0x7b = 57344, 0x7c = infinity.
constexpr MmaType kE4 = MmaType::kE4M3, kE5 = MmaType::kE5M2, kF32 = MmaType::kF32, kF16 = MmaType::kF16;

std::uint32_t dot(MmaType ta, MmaType tb, std::vector<std::uint32_t> a, std::vector<std::uint32_t> b, std::uint32_t c,
                  MmaType td) {
  a.resize(32, 0);  // the rest of K: zero products
  b.resize(32, 0);
  return qgmma_dot(ta, tb, a.data(), b.data(), 32, c, td);
}

TEST(QgmmaDot, TermsAreTruncatedToThirteenBitsBelowTheLargest) {
  // C = 1 + 2^-20: C is the largest term (exponent 0), the grid is 2^-13, C loses 2^-20.
  EXPECT_EQ(dot(kE4, kE4, {}, {}, 0x3f800008u, kF32), 0x3f800000u);
  // C = 1 and 2^-6 x 2^-9 = 2^-15: below the grid, dropped (an f32 sum would give 0x3f800100).
  EXPECT_EQ(dot(kE4, kE4, {0x08}, {0x01}, 0x3f800000u, kF32), 0x3f800000u);
  // ... and toward zero when negative: 1 - 2^-15 gives 1, not 1 - 2^-13.
  EXPECT_EQ(dot(kE4, kE4, {0x88}, {0x01}, 0x3f800000u, kF32), 0x3f800000u);
  // 2^-6 x 2^-6 = 2^-12 is on the grid: 1 + 2^-12.
  EXPECT_EQ(dot(kE4, kE4, {0x08}, {0x08}, 0x3f800000u, kF32), 0x3f800800u);
  // When the sum cancels, the grid shows: C = 1 + 2^-13, -1 x 1 and 2^-6 x 2^-8 = 2^-14 (e4m3
  // 0x02 = 2^-8): 2^-14 is below the grid, the sum is 2^-13 (not 1.5 x 2^-13).
  EXPECT_EQ(dot(kE4, kE4, {0xb8, 0x08}, {0x38, 0x02}, 0x3f800400u, kF32), 0x39000000u);
  // C = 2^-20 alone (no product): nothing is truncated, C comes back.
  EXPECT_EQ(dot(kE4, kE4, {}, {}, 0x35800000u, kF32), 0x35800000u);
}

TEST(QgmmaDot, F32ResultKeepsThirteenFractionBitsTowardZero) {
  // 1 + 1 + 1 + 1 + 2^-12: the grid is 2^-13, the sum 4 + 2^-12 has 14 fraction bits below its
  // leading one; toward zero to 13 it is 4 (an f32 sum would give 0x40800200).
  EXPECT_EQ(dot(kE4, kE4, {0x38, 0x38, 0x38, 0x38, 0x08}, {0x38, 0x38, 0x38, 0x38, 0x08}, 0, kF32), 0x40800000u);
  // Negative: -4 - 2^-12 gives -4.
  EXPECT_EQ(dot(kE4, kE4, {0xb8, 0xb8, 0xb8, 0xb8, 0x88}, {0x38, 0x38, 0x38, 0x38, 0x08}, 0, kF32), 0xc0800000u);
  // 448 x 448 = 200704 = 49 x 2^12: exact.
  EXPECT_EQ(dot(kE4, kE4, {0x7e}, {0x7e}, 0, kF32), 0x48440000u);
}

TEST(QgmmaDot, F16ResultRoundsTheTruncatedSumToNearestEven) {
  // 1 + 2^-11 (2^-6 x 2^-5): a tie between 1 and 1 + 2^-10, to even: 1.
  EXPECT_EQ(dot(kE4, kE5, {0x38, 0x08}, {0x3c, 0x28}, 0, kF16), 0x3c00u);
  // + 2^-13 (2^-6 x 2^-7): above the tie, up.
  EXPECT_EQ(dot(kE4, kE5, {0x38, 0x08, 0x08}, {0x3c, 0x28, 0x20}, 0, kF16), 0x3c01u);
  // + 2^-14 (2^-6 x 2^-8) instead: below the grid, dropped, so the tie goes to even again.
  EXPECT_EQ(dot(kE4, kE5, {0x38, 0x08, 0x08}, {0x3c, 0x28, 0x1c}, 0, kF16), 0x3c00u);
  // 57344^2 overflows f16: infinity.
  EXPECT_EQ(dot(kE5, kE5, {0x7b}, {0x7b}, 0, kF16), 0x7c00u);
  EXPECT_EQ(dot(kE5, kE5, {0xfb}, {0x7b}, 0, kF16), 0xfc00u);
}

TEST(QgmmaDot, SpecialValuesAndSignedZeros) {
  EXPECT_EQ(dot(kE4, kE4, {0x7f}, {0x38}, 0, kF32), 0x7fffffffu);    // e4m3 NaN
  EXPECT_EQ(dot(kE5, kE4, {0x7c}, {0x00}, 0, kF32), 0x7fffffffu);    // inf x 0
  EXPECT_EQ(dot(kE5, kE4, {0x7c}, {0x38}, 0, kF32), 0x7f800000u);    // inf x 1
  EXPECT_EQ(dot(kE5, kE4, {0x7c, 0xfc}, {0x38, 0x38}, 0, kF32), 0x7fffffffu);  // inf - inf
  EXPECT_EQ(dot(kE4, kE4, {0x38}, {0x38}, 0xff800000u, kF32), 0xff800000u);     // C = -inf
  EXPECT_EQ(dot(kE5, kE5, {0x7c}, {0x3c}, 0x7e00u, kF16), 0x7fffu);             // C NaN
  EXPECT_EQ(dot(kE4, kE4, {0x38, 0xb8}, {0x38, 0x38}, 0, kF32), 0u);            // exact cancellation: +0
  const std::uint32_t nz = 0x80, one = 0x38;
  EXPECT_EQ(qgmma_dot(kE4, kE4, &nz, &one, 1, 0x80000000u, kF32), 0x80000000u);  // every term -0
  EXPECT_EQ(dot(kE4, kE4, {0x80}, {0x38}, 0, kF32), 0u);                        // -0 + +0
}

}  // namespace
