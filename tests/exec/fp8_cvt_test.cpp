// The 8-bit float conversions (smallfloat.hpp encode_fp8 / fp8_to_f16) on values whose encodings
// follow from the formats' definitions (PTX ISA 9.0, 5.2.5.3; OCP 8-bit floats): e4m3 1.4.3 bias 7,
// largest 448 = 0x7e, no infinity; e5m2 1.5.2 bias 15, largest 57344 = 0x7b. The H100's answer on
// every f16 and 2^20 floats is compared in tests/accuracy/fp8_cvt_test.cpp.
#include <gtest/gtest.h>

#include <cmath>

#include "exec/smallfloat.hpp"

namespace warpscope::exec {
namespace {

TEST(Fp8Convert, E4m3Encodings) {
  EXPECT_EQ(encode_fp8(1.0, true, false), 0x38);               // 0.0111.000
  EXPECT_EQ(encode_fp8(-1.0, true, false), 0xb8);
  EXPECT_EQ(encode_fp8(448.0, true, false), 0x7e);             // 0.1111.110, the largest
  EXPECT_EQ(encode_fp8(464.0, true, false), 0x7e);             // half-way to 480: ties to even (110)
  EXPECT_EQ(encode_fp8(1e6, true, false), 0x7e);               // .satfinite
  EXPECT_EQ(encode_fp8(-INFINITY, true, false), 0xfe);
  EXPECT_EQ(encode_fp8(std::ldexp(1.0, -9), true, false), 0x01);   // the smallest subnormal
  EXPECT_EQ(encode_fp8(std::ldexp(1.0, -10), true, false), 0x00);  // half of it: ties to even (0)
  EXPECT_EQ(encode_fp8(std::ldexp(3.0, -11), true, false), 0x01);  // 0.75 of it rounds up
  EXPECT_EQ(encode_fp8(std::ldexp(15.0, -10), true, false), 0x08); // 7.5 x 2^-9 -> 8 x 2^-9 = 2^-6, the smallest normal
  EXPECT_EQ(encode_fp8(1.0625, true, false), 0x38);            // 1 + 2^-4: half-way, ties to even (1.0)
  EXPECT_EQ(encode_fp8(1.1875, true, false), 0x3a);            // 1 + 3 x 2^-4: half-way, ties to even (1.25)
  EXPECT_EQ(encode_fp8(NAN, true, false), 0x7f);
  EXPECT_EQ(encode_fp8(-0.0, true, false), 0x80);
}

TEST(Fp8Convert, E5m2EncodingsAndRelu) {
  EXPECT_EQ(encode_fp8(1.0, false, false), 0x3c);    // 0.01111.00
  EXPECT_EQ(encode_fp8(57344.0, false, false), 0x7b);  // 0.11110.11, the largest
  EXPECT_EQ(encode_fp8(61440.0, false, false), 0x7b);  // half-way to infinity: .satfinite
  EXPECT_EQ(encode_fp8(INFINITY, false, false), 0x7b);
  EXPECT_EQ(encode_fp8(std::ldexp(1.0, -16), false, false), 0x01);  // the smallest subnormal
  EXPECT_EQ(encode_fp8(-2.5, false, true), 0x00);      // .relu
  EXPECT_EQ(encode_fp8(-0.0, false, true), 0x00);
  EXPECT_EQ(encode_fp8(NAN, false, true), 0x7f);
}

TEST(Fp8Convert, ToHalf) {
  EXPECT_EQ(fp8_to_f16(0x38, true, false), 0x3c00);   // 1.0
  EXPECT_EQ(fp8_to_f16(0x7e, true, false), 0x5f00);   // 448 = 1.75 x 2^8
  EXPECT_EQ(fp8_to_f16(0x01, true, false), 0x1800);   // 2^-9: a normal half
  EXPECT_EQ(fp8_to_f16(0xff, true, false), 0x7fff);   // NaN
  EXPECT_EQ(fp8_to_f16(0x7c, false, false), 0x7c00);  // e5m2 infinity
  EXPECT_EQ(fp8_to_f16(0xfc, false, false), 0xfc00);
  EXPECT_EQ(fp8_to_f16(0x7d, false, false), 0x7fff);  // e5m2 NaN
  EXPECT_EQ(fp8_to_f16(0xbc, false, true), 0x0000);   // .relu of -1.0
  EXPECT_EQ(fp8_to_f16(0x01, false, false), 0x0100);  // e5m2 2^-16 = 2^8 x the smallest half subnormal
}

}  // namespace
}  // namespace warpscope::exec
