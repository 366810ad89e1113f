// The tensor-core arithmetic (src/exec/mma_numerics.hpp) against the H100: every element of
// every test of tests/hw/data/h100/tensor/mma_numerics.txt, recomputed from the probe's inputs
// (tests/hw/tensor/mma_gen.hpp regenerates them) with the rules the README there states. This
// checks the numbers alone; programs_test.cpp runs the probe itself under warpscope.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "../hw/tensor/mma_gen.hpp"
#include "exec/mma_numerics.hpp"

namespace {

using warpscope::ptx::MmaType;
namespace mm = warpscope::exec::mma_math;

MmaType to_mma(mma_gen::T t) {
  switch (t) {
    case mma_gen::T::kF16: return MmaType::kF16;
    case mma_gen::T::kBF16: return MmaType::kBF16;
    case mma_gen::T::kTF32: return MmaType::kTF32;
    case mma_gen::T::kF32: return MmaType::kF32;
    case mma_gen::T::kF64: return MmaType::kF64;
    case mma_gen::T::kE4M3: return MmaType::kE4M3;
    case mma_gen::T::kE5M2: return MmaType::kE5M2;
    case mma_gen::T::kS8: return MmaType::kS8;
    case mma_gen::T::kU8: return MmaType::kU8;
    case mma_gen::T::kS4: return MmaType::kS4;
    case mma_gen::T::kU4: return MmaType::kU4;
    case mma_gen::T::kB1: return MmaType::kB1;
    case mma_gen::T::kS32: return MmaType::kS32;
  }
  return MmaType::kNone;
}

/// "D <config> <test>: hex ..." lines of the capture: [config][test] -> elements.
const std::map<int, std::map<int, std::vector<std::uint64_t>>>& h100() {
  static const auto data = [] {
    std::map<int, std::map<int, std::vector<std::uint64_t>>> d;
    std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/tensor/mma_numerics.txt");
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("D ", 0) != 0) continue;
      std::istringstream s(line.substr(2));
      int cfg = 0, test = 0;
      char colon = 0;
      s >> cfg >> test >> colon;
      std::string hex;
      while (s >> hex) d[cfg][test].push_back(std::stoull(hex, nullptr, 16));
    }
    return d;
  }();
  return data;
}

/// D of one test computed by the model, in the probe's order (row-major; m8n8k4 .f16: 4 MMAs).
std::vector<std::uint64_t> model(const mma_gen::Config& c, int test) {
  const bool q884 = c.kind == 0 && c.m == 8 && c.n == 8 && c.k == 4 && c.a == mma_gen::T::kF16;
  const MmaType ta = to_mma(c.a), tb = to_mma(c.b), tc = to_mma(c.c), td = to_mma(c.d);
  const bool is_float = ta == MmaType::kF16 || ta == MmaType::kBF16 || ta == MmaType::kTF32;
  const bool fp8 = ta == MmaType::kE4M3 || ta == MmaType::kE5M2;
  // wmma m16n16k8 .tf32 is two HMMA of K = 4 (README); every other HMMA sums all of K at once.
  const unsigned group = c.kind == 1 && ta == MmaType::kTF32 ? 4 : static_cast<unsigned>(c.k);
  const warpscope::ptx::Rounding rnd[] = {warpscope::ptx::Rounding::kRn, warpscope::ptx::Rounding::kRz,
                                          warpscope::ptx::Rounding::kRm, warpscope::ptx::Rounding::kRp};
  std::vector<std::uint64_t> out;
  for (int q = 0; q < (q884 ? 4 : 1); ++q) {
    const mma_gen::Inputs in = mma_gen::make_inputs(c, q884 ? test * 4 + q : test);
    for (int i = 0; i < c.m; ++i)
      for (int j = 0; j < c.n; ++j) {
        std::vector<std::uint32_t> a(c.k), b(c.k);
        std::vector<std::uint64_t> a64(c.k), b64(c.k);
        for (int kk = 0; kk < c.k; ++kk) {
          a64[kk] = in.a[i * c.k + kk];
          b64[kk] = in.b[kk * c.n + j];
          a[kk] = static_cast<std::uint32_t>(a64[kk]);
          b[kk] = static_cast<std::uint32_t>(b64[kk]);
        }
        const std::uint64_t cv = in.c[i * c.n + j];
        if (ta == MmaType::kF64) out.push_back(mm::fma_chain_f64(a64.data(), b64.data(), c.k, cv, rnd[c.rnd]));
        else if (fp8) out.push_back(mm::fp8_dot(ta, tb, a.data(), b.data(), c.k, static_cast<std::uint32_t>(cv), td));
        else if (q884) out.push_back(mm::chain_884(a.data(), b.data(), tc, static_cast<std::uint32_t>(cv), td));
        else if (is_float) out.push_back(mm::fused_dot(ta, a.data(), b.data(), c.k, group, tc, static_cast<std::uint32_t>(cv), td));
        else out.push_back(mm::int_dot(ta, tb, a.data(), b.data(), c.k, static_cast<std::uint32_t>(cv), c.satfinite, c.bitop ? 2 : 1));
      }
  }
  return out;
}

class H100Numerics : public ::testing::TestWithParam<mma_gen::Config> {};

TEST_P(H100Numerics, EveryElementOfEveryTestAsTheH100) {
  const mma_gen::Config& c = GetParam();
  const auto it = h100().find(c.id);
  ASSERT_NE(it, h100().end()) << "configuration " << c.id << " missing from the capture";
  ASSERT_EQ(static_cast<int>(it->second.size()), c.tests);
  for (const auto& [test, want] : it->second) {
    const std::vector<std::uint64_t> got = model(c, test);
    ASSERT_EQ(got.size(), want.size());
    int wrong = 0;
    for (std::size_t e = 0; e < got.size(); ++e) {
      if (got[e] == want[e]) continue;
      if (++wrong <= 3)
        ADD_FAILURE() << "config " << c.id << " test " << test << " element " << e << ": model 0x" << std::hex << got[e]
                      << ", H100 0x" << want[e] << std::dec;
    }
    EXPECT_EQ(wrong, 0) << "config " << c.id << " test " << test;
  }
}

INSTANTIATE_TEST_SUITE_P(Configs, H100Numerics, ::testing::ValuesIn(mma_gen::configs()),
                         [](const ::testing::TestParamInfo<mma_gen::Config>& i) { return "config" + std::to_string(i.param.id); });

// Hand-checked cases of the fused-dot rule (README, tests/hw/data/h100/tensor).
TEST(FusedDot, TruncatesBelowTheAlignedGridAndRoundsTowardZero) {
  // C = 2^24 (f32 0x4b800000) and one product 1 x 1: the grid is 2^(24-25) = 0.5, so 1 survives:
  // 2^24 + 1 is not an f32; toward zero it is 2^24.
  const std::uint32_t one = 0x3c00;  // f16 1.0
  std::uint32_t a[1] = {one}, b[1] = {one};
  EXPECT_EQ(mm::fused_dot(MmaType::kF16, a, b, 1, 1, MmaType::kF32, 0x4b800000u, MmaType::kF32), 0x4b800000u);
  // C = 2^26: the grid is 2, and the product 1 is truncated away entirely.
  EXPECT_EQ(mm::fused_dot(MmaType::kF16, a, b, 1, 1, MmaType::kF32, 0x4c800000u, MmaType::kF32), 0x4c800000u);
  // C = -2^26 + ...: truncation is toward zero for negative terms too: -1 x 1 below the grid of 2
  // leaves -2^26.
  std::uint32_t m1[1] = {0xbc00};
  EXPECT_EQ(mm::fused_dot(MmaType::kF16, m1, b, 1, 1, MmaType::kF32, 0xcc800000u, MmaType::kF32), 0xcc800000u);
  // NaN: the canonical one; inf - inf: NaN; inf: itself.
  std::uint32_t inf[1] = {0x7c00}, ninf[1] = {0xfc00};
  EXPECT_EQ(mm::fused_dot(MmaType::kF16, inf, b, 1, 1, MmaType::kF32, 0, MmaType::kF32), 0x7f800000u);
  EXPECT_EQ(mm::fused_dot(MmaType::kF16, inf, b, 1, 1, MmaType::kF32, 0xff800000u, MmaType::kF32), 0x7fffffffu);
  EXPECT_EQ(mm::fused_dot(MmaType::kF16, ninf, b, 1, 1, MmaType::kF16, 0, MmaType::kF16), 0xfc00u);
  // .tf32 ignores the low 13 bits: 1 + 2^-23 times 1 is 1.
  std::uint32_t t1[1] = {0x3f800001u}, t2[1] = {0x3f800000u};
  EXPECT_EQ(mm::fused_dot(MmaType::kTF32, t1, t2, 1, 1, MmaType::kF32, 0, MmaType::kF32), 0x3f800000u);
}

TEST(IntDot, WrapsOrSaturates) {
  std::uint32_t a[1] = {0x7f}, b[1] = {0x7f};  // s8 127 x 127
  EXPECT_EQ(mm::int_dot(MmaType::kS8, MmaType::kS8, a, b, 1, 0x7fffffffu, false, 0), 0x7fffffffu + 16129u);
  EXPECT_EQ(mm::int_dot(MmaType::kS8, MmaType::kS8, a, b, 1, 0x7fffffffu, true, 0), 0x7fffffffu);
  std::uint32_t x[1] = {0xf}, y[1] = {0x8};  // s4 -1 x -8 = 8
  EXPECT_EQ(mm::int_dot(MmaType::kS4, MmaType::kS4, x, y, 1, 0, false, 0), 8u);
  std::uint32_t p[1] = {1}, q[1] = {0};
  EXPECT_EQ(mm::int_dot(MmaType::kB1, MmaType::kB1, p, q, 1, 5, false, 1), 6u);
  EXPECT_EQ(mm::int_dot(MmaType::kB1, MmaType::kB1, p, q, 1, 5, false, 2), 5u);
}

}  // namespace
