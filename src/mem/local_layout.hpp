// Local memory layout: where a thread's private (local) bytes live in device memory.
//
// Contract (design.md, "Local memory"; CUDA C Programming Guide, "Local Memory": "local memory
// is organized such that consecutive 32-bit words are accessed by consecutive thread IDs"):
//  - Word i (32-bit) of lane t of a warp lives at   warp_base + i * (4 * warp_size) + 4 * t,
//    so the same frame offset across a warp is one contiguous run of 4 * warp_size bytes
//    (128 B for 32 lanes). A byte at frame offset o is at word o / 4, byte o % 4 of that word.
//  - A per-thread access of width w at frame offset o splits into pieces(w) = max(1, w / 4)
//    per-word pieces; piece k covers frame offset o + 4k and piece_bytes(w) = min(w, 4) bytes.
//    Each piece lands in a different run, so the hardware serves each as its own request (an
//    STL.128 by a full warp is 4 requests of 4 sectors on an H100, tests/hw/data/h100).
//  - warp_bytes(f): bytes one warp's frames occupy for f bytes per thread (f rounded up to a
//    whole word). The memory hierarchy places each warp's frames at its own warp_base.
// Header-only, no state besides the warp size; every function is constant time.
#pragma once

#include <algorithm>
#include <cstdint>

namespace warpscope::mem {

class LocalLayout {
 public:
  explicit LocalLayout(std::uint32_t warp_size = 32) : warp_size_(warp_size) {}

  /// Physical address of 32-bit word `word` of `lane`'s frame.
  std::uint64_t word_address(std::uint64_t warp_base, unsigned lane, std::uint64_t word) const {
    return warp_base + word * (4ull * warp_size_) + 4ull * lane;
  }
  /// Physical address of the byte at frame offset `offset` of `lane`.
  std::uint64_t physical(std::uint64_t warp_base, unsigned lane, std::uint64_t offset) const {
    return word_address(warp_base, lane, offset / 4) + offset % 4;
  }

  /// How many per-word pieces (requests) an access of `width` bytes splits into: max(1, w/4).
  static constexpr std::uint32_t pieces(std::uint32_t width) { return std::max<std::uint32_t>(1, width / 4); }
  /// Bytes of one piece: min(w, 4).
  static constexpr std::uint32_t piece_bytes(std::uint32_t width) { return std::min<std::uint32_t>(width, 4); }
  /// Frame offset of piece `k` of an access at frame offset `offset`.
  static constexpr std::uint64_t piece_offset(std::uint64_t offset, std::uint32_t k) { return offset + 4ull * k; }

  /// Bytes a warp's frames occupy for `frame_bytes` per thread.
  std::uint64_t warp_bytes(std::uint64_t frame_bytes) const { return (frame_bytes + 3) / 4 * 4 * warp_size_; }
  std::uint32_t warp_size() const { return warp_size_; }

 private:
  std::uint32_t warp_size_;
};

}  // namespace warpscope::mem
