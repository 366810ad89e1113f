// Tensor maps (src/exec/tensormap.hpp): the encoders' argument checks as the CUDA driver API
// documents them (CUDA_ERROR_INVALID_VALUE cases), and the TMA box layout measured on an H100
// (tests/hw/data/h100/tma/README.md).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>

#include "exec/tensormap.hpp"

namespace tma = warpscope::exec::tma;

namespace {

struct Fixture2D {
  std::uint64_t dims[2] = {100, 40};
  std::uint64_t strides[1] = {400};
  std::uint32_t box[2] = {32, 8};
  std::uint32_t estr[2] = {1, 1};
  alignas(64) std::uint8_t map[128] = {};
  tma::TiledArgs args() {
    tma::TiledArgs a;
    a.data_type = 2;  // UINT32
    a.rank = 2;
    a.global_address = 0x10000;
    a.dims = dims;
    a.strides = strides;
    a.box = box;
    a.element_strides = estr;
    return a;
  }
};

TEST(TensorMap, ValidTiledMapRoundTrips) {
  Fixture2D f;
  tma::TiledArgs a = f.args();
  a.swizzle = 3;
  ASSERT_EQ(tma::check_tiled(a, f.map), "");
  const tma::EncodedMap m = tma::encode_tiled(a);
  std::memcpy(f.map, &m, sizeof m);
  const auto d = tma::decode(f.map);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->rank, 2);
  EXPECT_EQ(d->dims[0] + 1u, 100u);
  EXPECT_EQ(d->strides[0], 400u);
  EXPECT_EQ(tma::box_bytes(*d), 1024u);  // 32 x 8 x 4 bytes: the probe's complete-tx count
  EXPECT_EQ(tma::describe(*d), "2-D UINT32 tensor 100x40 at 0x10000, box 32x8, 128B swizzle");
  std::uint8_t zero[128] = {};
  EXPECT_FALSE(tma::decode(zero).has_value());
}

TEST(TensorMap, DriverRejectsWhatItDocuments) {
  Fixture2D f;
  EXPECT_EQ(tma::check_tiled(f.args(), f.map + 1), "tensorMap is not 64-byte aligned");
  auto bad = [&](auto change) {
    Fixture2D g;
    tma::TiledArgs a = g.args();
    change(a, g);
    return tma::check_tiled(a, g.map);
  };
  EXPECT_EQ(bad([](tma::TiledArgs& a, Fixture2D&) { a.global_address = 0x10008; }), "globalAddress 0x10008 is not 16-byte aligned");
  EXPECT_EQ(bad([](tma::TiledArgs& a, Fixture2D&) { a.rank = 6; }), "tensorRank 6 (1 to 5; 3 to 5 with interleave; im2col: 3 to 5)");
  EXPECT_EQ(bad([](tma::TiledArgs&, Fixture2D& g) { g.strides[0] = 404; }), "globalStrides[0] = 404 (a multiple of 16 below 2^40)");
  EXPECT_EQ(bad([](tma::TiledArgs&, Fixture2D& g) { g.box[1] = 257; }), "boxDim[1] = 257 (1 to 256)");
  EXPECT_EQ(bad([](tma::TiledArgs&, Fixture2D& g) { g.box[0] = 6; }), "boxDim[0] * elementSize = 24 bytes, not a multiple of 16");
  EXPECT_EQ(bad([](tma::TiledArgs&, Fixture2D& g) { g.estr[1] = 9; }), "elementStrides[1] = 9 (1 to 8)");
  EXPECT_EQ(bad([](tma::TiledArgs& a, Fixture2D&) { a.swizzle = 2; }),
            "boxDim[0] * elementSize = 128 bytes exceeds the 64-byte swizzle span");
  EXPECT_EQ(bad([](tma::TiledArgs& a, Fixture2D&) { a.oob_fill = 1; }),
            "oobFill NAN_REQUEST_ZERO_FMA with the integer type UINT32");
  EXPECT_EQ(bad([](tma::TiledArgs&, Fixture2D& g) { g.dims[1] = 0; }), "globalDim[1] = 0 (1 to 2^32)");
}

// The H100's swizzled layouts (probe cases 2-4, 6): which 16-byte chunk of the box lands where.
TEST(TensorMap, SwizzleAsMeasured) {
  // 128B: row r's chunk c goes to chunk c ^ (r % 8) (case 4: row 1 starts with its chunk 1).
  EXPECT_EQ(tma::swizzle(128 + 0, tma::Swizzle::k128B), 128u + 16);
  EXPECT_EQ(tma::swizzle(7 * 128 + 16, tma::Swizzle::k128B), 7u * 128 + 6 * 16);
  EXPECT_EQ(tma::swizzle(8 * 128 + 16, tma::Swizzle::k128B), 8u * 128 + 16);
  // 64B: rows of 64 bytes, address bits 7-8 pick the XOR (case 3: rows 0, 1 unchanged, row 2's chunk 1 first).
  EXPECT_EQ(tma::swizzle(64 + 16, tma::Swizzle::k64B), 64u + 16);
  EXPECT_EQ(tma::swizzle(128 + 16, tma::Swizzle::k64B), 128u);
  EXPECT_EQ(tma::swizzle(256 + 0, tma::Swizzle::k64B), 256u + 32);
  // 32B: bit 7 flips bit 4 (case 2: row 4 of 32 bytes starts with its chunk 1).
  EXPECT_EQ(tma::swizzle(128, tma::Swizzle::k32B), 144u);
  EXPECT_EQ(tma::swizzle(96, tma::Swizzle::k32B), 96u);
  EXPECT_EQ(tma::swizzle(200, tma::Swizzle::kNone), 200u);
  // Case 6: 64-byte rows under the 128-byte swizzle take 128 bytes each.
  EXPECT_EQ(tma::row_pitch(64, tma::Swizzle::k128B), 128u);
  EXPECT_EQ(tma::row_pitch(64, tma::Swizzle::kNone), 64u);
  EXPECT_EQ(tma::row_pitch(32, tma::Swizzle::k32B), 32u);
}

}  // namespace
