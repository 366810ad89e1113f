// Cases for the integer and packing instructions of tests/exec/kernels/ptx_forms.cu, each with the
// result the PTX ISA 9.0 defines, derived by hand in the comments (never by running warpscope).
// Shared by tests/exec/ptx_forms_test.cpp (the interpreter) and tests/hw/ptx/ptx_forms.cu (the same
// kernel on a GPU, self-checking). Float operands are given as their bits; results are the 32
// bits of the destination register (16-bit destinations zero-extended).
#pragma once

namespace ptx_forms {

enum Form : unsigned {
  kFns,                 // fns.b32 d, a(mask), b(base), c(offset, s32)
  kBmskClamp,           // bmsk.clamp.b32 d, a, b
  kBmskWrap,            // bmsk.wrap.b32 d, a, b
  kSzextClampS, kSzextWrapS, kSzextClampU, kSzextWrapU,  // szext.{clamp,wrap}.{s32,u32} d, a, b
  kDp4aUU, kDp4aUS, kDp4aSU, kDp4aSS,                    // dp4a.atype.btype d, a, b, c
  kDp2aLoUU, kDp2aLoUS, kDp2aLoSU, kDp2aLoSS,            // dp2a.lo.atype.btype d, a, b, c
  kDp2aHiUU, kDp2aHiUS, kDp2aHiSU, kDp2aHiSS,            // dp2a.hi.atype.btype d, a, b, c
  kF16x2Rn, kF16x2Rz, kF16x2RnRelu, kF16x2RnSatfinite, kF16x2RnReluSatfinite,  // cvt.*.f16x2.f32 d, a, b
  kBf16x2Rn, kBf16x2RzRelu, kBf16x2RnSatfinite,          // cvt.*.bf16x2.f32 d, a, b
  kF16RnSatfinite, kBf16RnRelu,                          // cvt.rn.satfinite.f16.f32 / cvt.rn.relu.bf16.f32 d, a
  kTf32Rna, kTf32RnaSatfinite, kTf32Rn, kTf32Rz, kTf32RnRelu,  // cvt.*.tf32.f32 d, a
  kE4m3x2F32, kE5m2x2F32Relu,                            // cvt.rn.satfinite{.relu}.e?m?x2.f32 d, a, b
  kE4m3x2F16x2, kE5m2x2F16x2Relu,                        // cvt.rn.satfinite{.relu}.e?m?x2.f16x2 d, a
  kF16x2E4m3x2, kF16x2E5m2x2Relu,                        // cvt.rn{.relu}.f16x2.e?m?x2 d, a
  kPackU16, kPackS16, kPackU8, kPackS8,                  // cvt.pack.sat.*.s32{.b32} d, a, b{, c}
  kFormCount
};

struct Case {
  unsigned form, a, b, c, expect;
};

// clang-format off
inline constexpr Case kCases[] = {
  // fns: from bit `base`, the |offset|-th set bit upwards (offset > 0) or downwards (offset < 0);
  // offset 0: base itself if set; none: 0xffffffff. 0xaaaaaaaa has the odd bits set.
  {kFns, 0xaaaaaaaau, 3, 1, 3},                   // the ISA's examples
  {kFns, 0xaaaaaaaau, 3, 0xffffffffu, 3},
  {kFns, 0xaaaaaaaau, 2, 1, 3},
  {kFns, 0xaaaaaaaau, 2, 0xffffffffu, 1},
  {kFns, 0xaaaaaaaau, 2, 0, 0xffffffffu},         // offset 0, bit 2 clear
  {kFns, 0xaaaaaaaau, 5, 0, 5},                   // offset 0, bit 5 set
  {kFns, 0x80000001u, 0, 2, 31},                  // bit 0 is the 1st, bit 31 the 2nd
  {kFns, 0x80000001u, 0, 3, 0xffffffffu},         // no 3rd
  {kFns, 0x0000f000u, 31, 0xfffffffdu, 13},       // down from 31: 15, 14, 13
  // bmsk: ones from bit a1 = a & 31 for b1 = b & 31 bits; a1 + b1 >= 32 runs to bit 31; b1 = 0 is
  // 0; .clamp: a >= 32 gives 0, b >= 32 runs to bit 31.
  {kBmskWrap, 1, 2, 0, 0x6},                      // the ISA's example
  {kBmskWrap, 4, 8, 0, 0x00000ff0},
  {kBmskWrap, 28, 8, 0, 0xf0000000u},             // 28 + 8 >= 32
  {kBmskWrap, 0, 0, 0, 0},
  {kBmskWrap, 33, 2, 0, 0x6},                     // a wraps to 1
  {kBmskWrap, 1, 34, 0, 0x6},                     // b wraps to 2
  {kBmskClamp, 33, 2, 0, 0},                      // a >= 32
  {kBmskClamp, 4, 40, 0, 0xfffffff0u},            // b >= 32
  {kBmskClamp, 4, 8, 0, 0x00000ff0},
  {kBmskClamp, 0, 32, 0, 0xffffffffu},
  // szext: the low N = b & 31 bits of a, sign- (.s32) or zero-extended (.u32); N = 0 gives 0;
  // .clamp with b >= 32 gives a unchanged.
  {kSzextWrapU, 0xffffffffu, 0, 0, 0},            // the ISA's example
  {kSzextWrapS, 0x000000f0u, 8, 0, 0xfffffff0u},  // bit 7 set
  {kSzextWrapU, 0x000000f0u, 8, 0, 0x000000f0u},
  {kSzextWrapS, 0x12345678u, 16, 0, 0x00005678u}, // bit 15 clear
  {kSzextWrapS, 0x1234abcdu, 16, 0, 0xffffabcdu}, // bit 15 set
  {kSzextWrapS, 0x000000f0u, 40, 0, 0xfffffff0u}, // N wraps to 8
  {kSzextClampS, 0x000000f0u, 40, 0, 0x000000f0u},
  {kSzextClampS, 0x80000000u, 32, 0, 0x80000000u},
  {kSzextWrapS, 0x80000000u, 32, 0, 0},           // N wraps to 0
  {kSzextClampU, 0xdeadbeefu, 4, 0, 0xf},
  {kSzextClampS, 0xdeadbeefu, 4, 0, 0xffffffffu}, // 0xf with bit 3 set: -1
  {kSzextWrapS, 5, 1, 0, 0xffffffffu},            // one bit, set: -1
  // dp4a: c + the sum of the byte products, a's bytes (low first) 0x80 0x7f 0xff 0x01 = 128 127 255 1
  // unsigned, -128 127 -1 1 signed; b's 0x80 0x03 0xfe 0x02 = 128 3 254 2 / -128 3 -2 2.
  {kDp4aUU, 0x01ff7f80u, 0x02fe0380u, 1000, 82537},                  // 16384+381+64770+2+1000
  {kDp4aUS, 0x01ff7f80u, 0x02fe0380u, 1000, 0xffffc369u},            // -16384+381-510+2+1000 = -15511
  {kDp4aSU, 0x01ff7f80u, 0x02fe0380u, 1000, 0xffffc469u},            // -16384+381-254+2+1000 = -15255
  {kDp4aSS, 0x01ff7f80u, 0x02fe0380u, 1000, 17769},                  // 16384+381+2+2+1000
  {kDp4aSS, 0x01ff7f80u, 0x02fe0380u, 0xfffffc18u, 15769},           // c = -1000
  {kDp4aUU, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0x0003f803u},     // 4*255*255 + 2^32-1, mod 2^32
  // dp2a: c + a's two halves (low first) times two bytes of b: b0, b1 (.lo) or b2, b3 (.hi).
  // a = 0x8001ffff: halves 65535 32769 / -1 -32767; b = 0x807f02ff: bytes 255 2 127 128 /
  // -1 2 127 -128; c = 5.
  {kDp2aLoUU, 0x8001ffffu, 0x807f02ffu, 5, 16776968},                // 65535*255 + 32769*2 + 5
  {kDp2aLoUS, 0x8001ffffu, 0x807f02ffu, 5, 8},                       // -65535 + 65538 + 5
  {kDp2aLoSU, 0x8001ffffu, 0x807f02ffu, 5, 0xfffeff08u},             // -255 - 65534 + 5 = -65784
  {kDp2aLoSS, 0x8001ffffu, 0x807f02ffu, 5, 0xffff0008u},             // 1 - 65534 + 5 = -65528
  {kDp2aHiUU, 0x8001ffffu, 0x807f02ffu, 5, 12517382},                // 65535*127 + 32769*128 + 5
  {kDp2aHiUS, 0x8001ffffu, 0x807f02ffu, 5, 4128518},                 // 65535*127 - 32769*128 + 5
  {kDp2aHiSU, 0x8001ffffu, 0x807f02ffu, 5, 0xffc00006u},             // -127 - 32767*128 + 5 = -4194298
  {kDp2aHiSS, 0x8001ffffu, 0x807f02ffu, 5, 4194054},                 // -127 + 32767*128 + 5
  // cvt to f16x2 / bf16x2 from two f32: a into the upper half, b into the lower. f16: 1.0 = 0x3c00,
  // largest finite 65504 = 0x7bff, infinity 0x7c00, canonical NaN 0x7fff, spacing 2^-10 at 1.
  {kF16x2Rn, 0x3f800000u, 0xc0000000u, 0, 0x3c00c000u},    // 1.0, -2.0
  {kF16x2Rn, 0x477ff000u, 0x3f801000u, 0, 0x7c003c00u},    // 65520: half-way to 2^16, ties to even (inf); 1+2^-11: to 1.0
  {kF16x2Rz, 0x477ff000u, 0x3f801800u, 0, 0x7bff3c00u},    // 65520 -> 65504; 1 + 0.75*2^-10 -> 1.0
  {kF16x2RnRelu, 0x49742400u, 0xbf000000u, 0, 0x7c000000u},  // 1e6 -> inf (no .satfinite); -0.5 -> 0
  {kF16x2RnSatfinite, 0x7f800000u, 0xc9742400u, 0, 0x7bfffbffu},  // inf, -1e6 -> +-65504
  {kF16x2RnReluSatfinite, 0xc0400000u, 0x7fc00000u, 0, 0x00007fffu},  // -3 -> 0; NaN -> canonical NaN
  // bf16: the upper 16 bits of an f32 after rounding to 7 mantissa bits; largest finite 0x7f7f.
  {kBf16x2Rn, 0x3f800000u, 0x3f818000u, 0, 0x3f803f82u},   // 1.0; 1+2^-7+2^-8: half-way, ties to even (0x3f82)
  {kBf16x2RzRelu, 0x3f81ffffu, 0xbf800000u, 0, 0x3f810000u},  // truncated; -1 -> 0
  {kBf16x2RnSatfinite, 0x7f800000u, 0xff800000u, 0, 0x7f7fff7fu},  // +-inf -> +-largest finite
  {kF16RnSatfinite, 0x49742400u, 0, 0, 0x7bff},             // 1e6 -> 65504
  {kF16RnSatfinite, 0x7fc00000u, 0, 0, 0x7fff},             // NaN
  {kBf16RnRelu, 0xc0a00000u, 0, 0, 0},                      // -5 -> 0
  {kBf16RnRelu, 0x40000000u, 0, 0, 0x4000},                 // 2.0
  // tf32: f32 rounded to 10 mantissa bits (the low 13 bits of the result 0); .rna ties away.
  {kTf32Rna, 0x3f801000u, 0, 0, 0x3f802000u},      // 1 + 2^-11: half-way, away from 0
  {kTf32Rna, 0x3f800fffu, 0, 0, 0x3f800000u},      // below half-way
  {kTf32Rna, 0x7f7fffffu, 0, 0, 0x7f800000u},      // the largest f32 rounds up to infinity
  {kTf32RnaSatfinite, 0x7f7fffffu, 0, 0, 0x7f7fe000u},  // ... or to the largest tf32
  {kTf32RnaSatfinite, 0xff800000u, 0, 0, 0xff7fe000u},  // -inf -> -largest
  {kTf32Rn, 0x3f801000u, 0, 0, 0x3f800000u},       // half-way, ties to even (1.0)
  {kTf32Rn, 0x3f803000u, 0, 0, 0x3f804000u},       // 1 + 3*2^-11: half-way, ties to even (1 + 2^-9)
  {kTf32Rz, 0x3f803fffu, 0, 0, 0x3f802000u},       // truncated
  {kTf32RnRelu, 0xbf800000u, 0, 0, 0},             // -1 -> 0
  // 8-bit floats, a into the upper byte: e4m3 (bias 7, largest 448 = 0x7e, NaN 0x7f, 1.0 = 0x38,
  // 4.0 = 0x48); e5m2 (bias 15, largest 57344 = 0x7b, 1.0 = 0x3c, infinity 0x7c).
  {kE4m3x2F32, 0x3f800000u, 0xc3e00000u, 0, 0x38feu},       // 1.0; -448
  {kE4m3x2F32, 0x49742400u, 0x7fc00000u, 0, 0x7e7fu},       // 1e6 -> 448 (.satfinite); NaN
  {kE5m2x2F32Relu, 0x7f800000u, 0xc0200000u, 0, 0x7b00u},   // inf -> 57344; -2.5 -> 0
  {kE4m3x2F16x2, 0x3c00c400u, 0, 0, 0x38c8u},               // halves 1.0, -4.0
  {kE5m2x2F16x2Relu, 0xbc003c00u, 0, 0, 0x003cu},           // halves -1.0 -> 0, 1.0
  {kF16x2E4m3x2, 0x38c8u, 0, 0, 0x3c00c400u},               // 1.0, -4.0
  {kF16x2E5m2x2Relu, 0xbc7cu, 0, 0, 0x00007c00u},           // -1.0 -> 0; infinity
  // cvt.pack.sat: a and b saturated to the type, a above b; the 8-bit forms put c's low 16 bits on top.
  {kPackU16, 70000, 0xfffffffbu, 0, 0xffff0000u},           // 70000 -> 65535; -5 -> 0
  {kPackS16, 0xffff63c0u, 1234, 0, 0x800004d2u},            // -40000 -> -32768; 1234
  {kPackU8, 300, 7, 0x1234abcdu, 0xabcdff07u},              // 300 -> 255; 7; c = 0x...abcd
  {kPackS8, 0xffffffffu, 0xffffff38u, 0x5555u, 0x5555ff80u},  // -1; -200 -> -128
};
// clang-format on

inline constexpr unsigned kCaseCount = sizeof(kCases) / sizeof(kCases[0]);

}  // namespace ptx_forms
