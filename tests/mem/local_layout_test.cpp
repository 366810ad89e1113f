#include "mem/local_layout.hpp"

#include <gtest/gtest.h>

namespace warpscope::mem {
namespace {

// design.md: word i of thread t is at warp_base + i * (4 * warp_size) + 4 * t.
TEST(LocalLayout, WordIOfThreadTIsInterleaved) {
  const LocalLayout layout(32);
  EXPECT_EQ(layout.word_address(0, 0, 0), 0u);
  EXPECT_EQ(layout.word_address(0, 1, 0), 4u);
  EXPECT_EQ(layout.word_address(0, 31, 0), 124u);
  EXPECT_EQ(layout.word_address(0, 0, 1), 128u);
  EXPECT_EQ(layout.word_address(0, 5, 3), 3u * 128 + 20);
  EXPECT_EQ(layout.word_address(0x1000, 2, 1), 0x1000u + 128 + 8);
}

TEST(LocalLayout, SameOffsetAcrossTheWarpIsOneContiguousRun) {
  const LocalLayout layout(32);
  for (unsigned lane = 0; lane < 32; ++lane) EXPECT_EQ(layout.physical(0, lane, 8), 256u + 4 * lane);
}

TEST(LocalLayout, BytesInsideAWordKeepTheirOffset) {
  const LocalLayout layout(32);
  EXPECT_EQ(layout.physical(0, 3, 5), 128u + 12 + 1);  // word 1, byte 1
  EXPECT_EQ(layout.physical(0, 3, 2), 12u + 2);        // word 0, byte 2
}

TEST(LocalLayout, WideAccessesSplitIntoPerWordPieces) {
  EXPECT_EQ(LocalLayout::pieces(1), 1u);
  EXPECT_EQ(LocalLayout::pieces(2), 1u);
  EXPECT_EQ(LocalLayout::pieces(4), 1u);
  EXPECT_EQ(LocalLayout::pieces(8), 2u);
  EXPECT_EQ(LocalLayout::pieces(16), 4u);
  EXPECT_EQ(LocalLayout::piece_bytes(1), 1u);
  EXPECT_EQ(LocalLayout::piece_bytes(2), 2u);
  EXPECT_EQ(LocalLayout::piece_bytes(8), 4u);
  EXPECT_EQ(LocalLayout::piece_bytes(16), 4u);
  EXPECT_EQ(LocalLayout::piece_offset(16, 0), 16u);
  EXPECT_EQ(LocalLayout::piece_offset(16, 3), 28u);
  // Piece 3 of a 16-byte access at offset 16 of lane 2 is word 7 of that lane.
  const LocalLayout layout(32);
  EXPECT_EQ(layout.physical(0, 2, LocalLayout::piece_offset(16, 3)), 7u * 128 + 8);
}

TEST(LocalLayout, WarpBytesRoundFramesToWords) {
  const LocalLayout layout(32);
  EXPECT_EQ(layout.warp_bytes(1024), 32u * 1024);
  EXPECT_EQ(layout.warp_bytes(6), 8u * 32);
}

}  // namespace
}  // namespace warpscope::mem
