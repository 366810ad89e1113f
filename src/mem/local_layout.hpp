// Local memory layout (design.md, "Local memory"): a warp's private frames are interleaved so
// that the same 32-bit word of every lane forms one contiguous run: word i of lane t lives at
//   warp_base + i * (4 * warp_size) + 4 * t.
// A per-thread access of width w at frame offset o touches max(1, w / 4) such words, each in a
// different run; the hardware serves each as its own request (an STL.128 by a full warp is 4
// requests of 4 sectors on an H100, tests/hw/data/h100).
#pragma once

#include <algorithm>
#include <cstdint>

namespace warpscope::mem {

class LocalLayout {
 public:
  explicit LocalLayout(std::uint32_t warp_size = 32) : warp_size_(warp_size) {}

  /// Physical address of the byte at `offset` in `lane`'s frame.
  std::uint64_t physical(std::uint64_t warp_base, unsigned lane, std::uint64_t offset) const {
    return warp_base + (offset / 4) * (4ull * warp_size_) + 4ull * lane + offset % 4;
  }
  /// Physical address of 32-bit word `word` of `lane`'s frame.
  std::uint64_t word_address(std::uint64_t warp_base, unsigned lane, std::uint64_t word) const {
    return warp_base + word * (4ull * warp_size_) + 4ull * lane;
  }
  /// How many per-word pieces (requests) an access of `width` bytes splits into.
  static std::uint32_t pieces(std::uint32_t width) { return std::max<std::uint32_t>(1, width / 4); }
  /// Bytes of one piece.
  static std::uint32_t piece_bytes(std::uint32_t width) { return std::min<std::uint32_t>(width, 4); }
  /// Bytes a warp's frames take for `frame_bytes` per thread.
  std::uint64_t warp_bytes(std::uint64_t frame_bytes) const { return (frame_bytes + 3) / 4 * 4 * warp_size_; }

 private:
  std::uint32_t warp_size_;
};

}  // namespace warpscope::mem
