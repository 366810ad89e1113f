// TMA im2col (src/exec/tensormap.hpp): cuTensorMapEncodeIm2col's checks as the H100's driver
// answers them and the pixel walk of an im2col load, both from tests/hw/data/h100/tma_im2col
// (README.md there: checks.txt names, probe.txt cases).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "exec/tensormap.hpp"
#include "warpscope/warpscope.hpp"

namespace tma = warpscope::exec::tma;

namespace {

// The probe's case 0: a 4-D UINT32 NHWC tensor C=16, W=5, H=4, N=2, corners 0/0, 16 channels x 8 pixels.
struct Fixture4D {
  std::uint64_t dims[5] = {16, 5, 4, 2, 1};  // the fifth: for the 5-D check
  std::uint64_t strides[4] = {64, 320, 1280, 2560};
  std::uint32_t estr[5] = {1, 1, 1, 1, 1};
  int lower[3] = {0, 0, 0}, upper[3] = {0, 0, 0};
  alignas(64) std::uint8_t map[128] = {};
  tma::Im2colArgs args() {
    tma::Im2colArgs a;
    a.t.data_type = 2;
    a.t.rank = 4;
    a.t.global_address = 0x10000;
    a.t.dims = dims;
    a.t.strides = strides;
    a.t.element_strides = estr;
    a.lower = lower;
    a.upper = upper;
    a.channels = 16;
    a.pixels = 8;
    return a;
  }
};

template <class F>
std::string check(F change) {
  Fixture4D g;
  tma::Im2colArgs a = g.args();
  change(a, g);
  return tma::check_im2col(a, g.map);
}

TEST(Im2col, EncoderRefusesWhatTheH100DriverRefuses) {
  EXPECT_EQ(check([](tma::Im2colArgs&, Fixture4D&) {}), "");
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D&) { a.t.rank = 2; }), "tensorRank 2 (1 to 5; 3 to 5 with interleave; im2col: 3 to 5)");
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D&) { a.channels = 257; }), "channelsPerPixel = 257 (1 to 256)");
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D&) { a.channels = 0; }), "channelsPerPixel = 0 (1 to 256)");
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D&) { a.channels = 2; }), "channelsPerPixel * elementSize = 8 bytes, not a multiple of 16");
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D&) { a.channels = 12; }), "");  // 48 bytes: accepted
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D&) { a.pixels = 0; }), "pixelsPerColumn = 0 (1 to 1024)");
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D&) { a.pixels = 1024; }), "");
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D&) { a.pixels = 1025; }), "pixelsPerColumn = 1025 (1 to 1024)");
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D&) { a.t.swizzle = 1; }),
            "channelsPerPixel * elementSize = 64 bytes exceeds the 32-byte swizzle span");
  EXPECT_EQ(check([](tma::Im2colArgs&, Fixture4D& g) { g.lower[0] = -128; }), "");
  EXPECT_EQ(check([](tma::Im2colArgs&, Fixture4D& g) { g.lower[0] = -129; }),
            "pixelBoxLowerCorner[0] = -129 or pixelBoxUpperCorner[0] = 0 out of [-128, 127] for a 4-D tensor");
  EXPECT_EQ(check([](tma::Im2colArgs&, Fixture4D& g) { g.upper[0] = 127; }), "");
  EXPECT_EQ(check([](tma::Im2colArgs&, Fixture4D& g) { g.upper[0] = 128; }),
            "pixelBoxLowerCorner[0] = 0 or pixelBoxUpperCorner[0] = 128 out of [-128, 127] for a 4-D tensor");
  EXPECT_EQ(check([](tma::Im2colArgs&, Fixture4D& g) { g.lower[0] = 3, g.upper[0] = -3; }),
            "the pixel bounding box of dimension 1 is empty (lower corner 3 above globalDim - 1 + upper corner = 1)");
  EXPECT_EQ(check([](tma::Im2colArgs&, Fixture4D& g) { g.lower[0] = 127; }),
            "the pixel bounding box of dimension 1 is empty (lower corner 127 above globalDim - 1 + upper corner = 4)");
  EXPECT_EQ(check([](tma::Im2colArgs&, Fixture4D& g) { g.estr[1] = 9; }), "elementStrides[1] = 9 (1 to 8)");
  EXPECT_EQ(check([](tma::Im2colArgs&, Fixture4D& g) { g.estr[0] = 2; }), "");
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D&) { a.t.oob_fill = 1; }), "oobFill NAN_REQUEST_ZERO_FMA with the integer type UINT32");
  // 5-D: the driver accepted corners -9 and 8 (outside the documented 4 bits).
  EXPECT_EQ(check([](tma::Im2colArgs& a, Fixture4D& g) {
              a.t.rank = 5, g.lower[0] = -9, g.upper[1] = 8;
            }),
            "");
}

tma::EncodedMap encode(Fixture4D& f, void (*change)(tma::Im2colArgs&, Fixture4D&)) {
  tma::Im2colArgs a = f.args();
  change(a, f);
  EXPECT_EQ(tma::check_im2col(a, f.map), "");
  return tma::encode_im2col(a);
}

/// The walked pixels as "w,h,n" strings.
std::vector<std::string> walk(const tma::EncodedMap& m, std::vector<std::int32_t> start, std::vector<std::uint16_t> offs) {
  std::vector<tma::Pixel> px;
  const auto why = tma::im2col_pixels(m, start.data(), offs.data(), px);
  EXPECT_FALSE(why.has_value()) << why->what;
  std::vector<std::string> out;
  for (const auto& p : px) out.push_back(std::to_string(p[1]) + "," + std::to_string(p[2]) + "," + std::to_string(p[3]));
  return out;
}

TEST(Im2col, WalkAsMeasured) {
  Fixture4D f;
  // Case 1: corners -1/-1 on W=5, H=4: w runs -1..3, h -1..2, then the next image.
  tma::EncodedMap m = encode(f, [](tma::Im2colArgs& a, Fixture4D& g) {
    g.lower[0] = g.lower[1] = g.upper[0] = g.upper[1] = -1;
    a.pixels = 32;
  });
  EXPECT_EQ(tma::box_bytes(m), 2048u);
  auto w = walk(m, {0, -1, -1, 0}, {0, 0});
  ASSERT_EQ(w.size(), 32u);
  EXPECT_EQ(w[0], "-1,-1,0");
  EXPECT_EQ(w[4], "3,-1,0");
  EXPECT_EQ(w[5], "-1,0,0");
  EXPECT_EQ(w[19], "3,2,0");
  EXPECT_EQ(w[20], "-1,-1,1");
  EXPECT_EQ(w[31], "0,1,1");
  // Case 2: offsets (2, 1) move every pixel, not the walk.
  w = walk(m, {0, -1, -1, 0}, {2, 1});
  EXPECT_EQ(w[0], "1,0,0");
  EXPECT_EQ(w[5], "1,1,0");
  // Case 3: a start inside the box restarts rows at the lower corner (pixel 7 = (2,1) first).
  Fixture4D f3;
  m = encode(f3, [](tma::Im2colArgs& a, Fixture4D&) { a.channels = 8, a.pixels = 16; });
  w = walk(m, {8, 2, 1, 0}, {0, 0});
  EXPECT_EQ(w[2], "4,1,0");
  EXPECT_EQ(w[3], "0,2,0");
  EXPECT_EQ(w[13], "0,0,1");
  // Case 5: element strides 2 on W=6, H=5 walk w 0, 2, 4 and h 0, 2, 4.
  Fixture4D f5;
  m = encode(f5, [](tma::Im2colArgs& a, Fixture4D& g) {
    g.dims[1] = 6, g.dims[2] = 5, g.estr[1] = g.estr[2] = 2, a.pixels = 16;
  });
  w = walk(m, {0, 0, 0, 0}, {0, 0});
  EXPECT_EQ(w[2], "4,0,0");
  EXPECT_EQ(w[3], "0,2,0");
  EXPECT_EQ(w[8], "4,4,0");
  EXPECT_EQ(w[9], "0,0,1");
}

TEST(Im2col, WhatTheH100FaultsOnOrWasNotMeasuredIsRefused) {
  Fixture4D f;
  const tma::EncodedMap m = encode(f, [](tma::Im2colArgs&, Fixture4D&) {});
  std::vector<tma::Pixel> px;
  const std::uint16_t offs[2] = {0, 0};
  const std::int32_t past[4] = {0, 6, 0, 0};  // case 15: the H100 stops (illegal instruction)
  auto why = tma::im2col_pixels(m, past, offs, px);
  ASSERT_TRUE(why.has_value());
  EXPECT_FALSE(why->unsupported);
  EXPECT_EQ(why->what, "an im2col copy starting at coordinate 1 = 6 past its bounding box [0, 4]: the H100 stops with an illegal instruction");
  const std::int32_t before[4] = {0, -1, 0, 0};
  why = tma::im2col_pixels(m, before, offs, px);
  ASSERT_TRUE(why.has_value());
  EXPECT_TRUE(why->unsupported);
  const std::int32_t image[4] = {0, 0, 0, 2};
  ASSERT_TRUE(tma::im2col_pixels(m, image, offs, px).has_value());
  const std::uint16_t big[2] = {0x8000, 0};
  const std::int32_t ok[4] = {0, 0, 0, 0};
  why = tma::im2col_pixels(m, ok, big, px);
  ASSERT_TRUE(why.has_value());
  EXPECT_TRUE(why->unsupported);
}

/// The error loading a kernel with `inst` gives (empty: it loads).
std::string load_error(const std::string& inst) {
  const std::string ptx = ".version 8.0\n.target sm_90\n.address_size 64\n"
                          ".visible .entry k(.param .u64 p)\n{\n  .reg .b64 %rd<3>;\n  .reg .b32 %r<6>;\n  .reg .b16 %rs<4>;\n"
                          "  ld.param.u64 %rd1, [p];\n  mov.u32 %r1, 0;\n  mov.u16 %rs1, 0;\n  " +
                          inst + "\n  ret;\n}\n";
  warpscope::Device dev;
  try {
    dev.load_ptx(ptx, "im2col.ptx");
  } catch (const warpscope::Error& e) {
    EXPECT_EQ(e.kind(), warpscope::ErrorKind::kUnsupported) << e.what();
    return e.what();
  }
  return {};
}

// .im2col loads and .im2col_no_offs stores and reductions load (the store direction's only im2col
// form, measured: tests/hw/data/h100/tma_im2col/store_probe.txt); a 2-D .im2col_no_offs store and a
// load in that mode are refused, naming the line.
TEST(Im2col, LoadsAndNoOffsetStoresAreAcceptedAtLoad) {
  EXPECT_EQ(load_error("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r2, %r3, %r4}], [%r5], {%rs1, %rs2};"), "");
  EXPECT_EQ(load_error("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r2, %r3}], [%r5], {%rs1};"), "");
  EXPECT_EQ(load_error("cp.async.bulk.tensor.3d.global.shared::cta.im2col_no_offs.bulk_group [%rd1, {%r1, %r2, %r3}], [%r1];"), "");
  EXPECT_EQ(load_error("cp.reduce.async.bulk.tensor.3d.global.shared::cta.add.im2col_no_offs.bulk_group [%rd1, {%r1, %r2, %r3}], [%r1];"), "");
  const std::string st = load_error("cp.async.bulk.tensor.2d.global.shared::cta.im2col_no_offs.bulk_group [%rd1, {%r1, %r2}], [%r1];");
  EXPECT_NE(st.find("fewer than 3 dimensions"), std::string::npos) << st;
  EXPECT_NE(st.find("im2col.ptx:"), std::string::npos) << st;
  const std::string ld = load_error(
      "cp.async.bulk.tensor.3d.shared::cluster.global.im2col_no_offs.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r2, %r3}], [%r5];");
  EXPECT_NE(ld.find("a tensor load in a mode other than .tile and .im2col"), std::string::npos) << ld;
  const std::string coords = load_error(
      "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r2, %r3}], [%r5], {%rs1, %rs2};");
  EXPECT_NE(coords.find("3 coordinates for .4d"), std::string::npos) << coords;
  const std::string offs = load_error(
      "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%r1], [%rd1, {%r1, %r2, %r3, %r4}], [%r5], {%rs1};");
  EXPECT_NE(offs.find("without its 2 im2col offsets"), std::string::npos) << offs;
}

}  // namespace
