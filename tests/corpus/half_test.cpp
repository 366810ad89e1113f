// Half-precision conversions (kernels/half.cu) against a CPU reference written here:
// float -> half rounding to nearest even (__float2half) and toward zero (__float2half_rz),
// half -> float (exact), and the round trip. Tolerance: bit-exact, except that a NaN only has
// to stay a NaN (its payload is not specified).
#include "corpus.hpp"

#include <cfloat>
#include <cstdio>

namespace corpus {
namespace {

bool half_is_nan(std::uint16_t h) { return (h & 0x7c00u) == 0x7c00u && (h & 0x03ffu) != 0; }

std::string hex16(std::uint16_t h) {
  char text[8];
  std::snprintf(text, sizeof text, "0x%04x", static_cast<unsigned>(h));
  return text;
}

// IEEE binary32 -> binary16, round to nearest even or toward zero.
std::uint16_t float_to_half(float f, bool toward_zero) {
  const std::uint32_t x = bits(f);
  const auto sign = static_cast<std::uint16_t>((x >> 16) & 0x8000u);
  const std::uint32_t exponent = (x >> 23) & 0xffu, mantissa = x & 0x7fffffu;
  if (exponent == 0xff) return static_cast<std::uint16_t>(sign | (mantissa ? 0x7e00u : 0x7c00u));
  if (exponent == 0) return sign;  // zero or float subnormal (< 2^-126): far below half's range
  const int e = static_cast<int>(exponent) - 127;  // value = m * 2^(e - 23), m has 24 bits
  const std::uint32_t m = mantissa | 0x800000u;
  if (e > 15) return static_cast<std::uint16_t>(sign | (toward_zero ? 0x7bffu : 0x7c00u));
  // Normal halves keep 11 significant bits (shift 13); subnormal ones count units of 2^-24.
  const int shift = e >= -14 ? 13 : -e - 1;
  if (shift >= 25) return sign;  // below half of the smallest subnormal: rounds to zero
  std::uint32_t q = m >> shift;
  const std::uint32_t rest = m & ((1u << shift) - 1u), half_way = 1u << (shift - 1);
  if (!toward_zero && (rest > half_way || (rest == half_way && (q & 1u)))) ++q;
  // For normals q is in [0x400, 0x800]; adding it to the exponent field lets a carry out of the
  // significand bump the exponent (up to infinity at 0x7c00).
  const std::uint32_t magnitude =
      e >= -14 ? (static_cast<std::uint32_t>(e + 15) << 10) + (q - 0x400u) : q;
  return static_cast<std::uint16_t>(sign | magnitude);
}

float half_to_float(std::uint16_t h) {
  const float sign = (h & 0x8000u) ? -1.0f : 1.0f;
  const unsigned exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0x1f) {
    return mantissa ? std::numeric_limits<float>::quiet_NaN()
                    : sign * std::numeric_limits<float>::infinity();
  }
  if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
  return sign * std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
}

// Floats around every rounding decision: a sample of halves (all of them in the subnormal
// binade and in [1, 2)), the midpoints to their successors and one float ulp either side, the
// overflow threshold, tiny values, and the specials.
std::vector<float> float_inputs() {
  std::vector<float> v;
  for (std::uint32_t h = 0; h < 0x7c00u; ++h) {
    const bool dense = h < 0x400u || (h >= 0x3c00u && h < 0x4000u);
    if (!dense && h % 37 != 0) continue;
    const float lo = half_to_float(static_cast<std::uint16_t>(h));
    const float hi = half_to_float(static_cast<std::uint16_t>(h + 1));  // 0x7c00: +inf
    const float mid = std::isinf(hi) ? 65520.0f : (lo + hi) / 2;  // exact: 12 significant bits
    for (float f : {lo, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)}) {
      v.push_back(f);
      v.push_back(-f);
    }
  }
  const float specials[] = {65504.0f, 65519.996f, 65520.0f, 65536.0f, 1e10f,
                            std::numeric_limits<float>::infinity(),
                            0x1p-25f,                  // exactly half the smallest subnormal: 0
                            0x1.000002p-25f,           // just above it: rounds up
                            0x1.8p-24f,                // a tie between 1 and 2 subnormal units
                            1e-10f, 0x1p-140f, 0.0f, std::numeric_limits<float>::quiet_NaN(),
                            FLT_MAX, 0x1.ffep-15f};
  for (float f : specials) {
    v.push_back(f);
    v.push_back(-f);
  }
  return v;
}

::testing::AssertionResult halves_match(const std::vector<float>& in,
                                        const std::vector<std::uint16_t>& got, bool toward_zero) {
  std::size_t failures = 0;
  std::string detail;
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::uint16_t want = float_to_half(in[i], toward_zero);
    const bool ok = std::isnan(in[i]) ? half_is_nan(got[i]) : got[i] == want;
    if (!ok && ++failures <= 8) {
      detail += "\n  " + describe(in[i]) + ": got " + hex16(got[i]) + ", expected " + hex16(want);
    }
  }
  if (failures == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << failures << " of " << in.size() << " differ" << detail;
}

std::vector<std::uint16_t> convert(const char* kernel, const std::vector<float>& in) {
  Device device;
  Module module = load(device, "half");
  Buffer<float> d_in(device, in);
  Buffer<std::uint16_t> d_out(device, in.size());
  launch(device, module, kernel, blocks_for(in.size(), 256), Dim3{256}, d_in.ptr(), d_out.ptr(),
         static_cast<int>(in.size()));
  return d_out.download();
}

TEST(Half, FloatToHalfRoundsToNearestEven) {
  const std::vector<float> in = float_inputs();
  EXPECT_TRUE(halves_match(in, convert("half_from_float", in), false));
}

TEST(Half, FloatToHalfTowardZero) {
  const std::vector<float> in = float_inputs();
  EXPECT_TRUE(halves_match(in, convert("half_from_float_rz", in), true));
}

// Every one of the 65536 half patterns.
TEST(Half, HalfToFloatIsExactForEveryPattern) {
  std::vector<std::uint16_t> in(65536);
  for (std::uint32_t h = 0; h < in.size(); ++h) in[h] = static_cast<std::uint16_t>(h);
  Device device;
  Module module = load(device, "half");
  Buffer<std::uint16_t> d_in(device, in);
  Buffer<float> d_out(device, in.size());
  launch(device, module, "half_to_float", blocks_for(in.size(), 256), Dim3{256}, d_in.ptr(),
         d_out.ptr(), static_cast<int>(in.size()));
  std::vector<float> want(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) want[i] = half_to_float(in[i]);
  EXPECT_TRUE(bitwise_equal(d_out.download(), want));
}

TEST(Half, RoundTrip) {
  const std::vector<float> in = float_inputs();
  Device device;
  Module module = load(device, "half");
  Buffer<float> d_in(device, in), d_out(device, in.size());
  launch(device, module, "half_round_trip", blocks_for(in.size(), 256), Dim3{256}, d_in.ptr(),
         d_out.ptr(), static_cast<int>(in.size()));
  std::vector<float> want(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) want[i] = half_to_float(float_to_half(in[i], false));
  EXPECT_TRUE(bitwise_equal(d_out.download(), want));
}

}  // namespace
}  // namespace corpus
