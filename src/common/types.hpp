// Strong types shared by every layer: byte addresses, lane masks, warp-wide arrays.
//
// A byte address and a line or sector number are different types, so mixing them is a compile
// error (ChampSim's lesson). Conversions go through the named helpers below, which take the unit
// size from the architecture profile rather than from a constant.
#pragma once

#include <array>
#include <bit>
#include <compare>
#include <cstdint>
#include <functional>

namespace warpscope {

inline constexpr unsigned kMaxWarpSize = 32;

/// A byte address in one of the GPU's address spaces.
struct ByteAddr {
  std::uint64_t value = 0;
  constexpr auto operator<=>(const ByteAddr&) const = default;
  constexpr ByteAddr operator+(std::uint64_t bytes) const { return ByteAddr{value + bytes}; }
};

/// The index of an aligned block of memory (a line, segment or sector) of some size.
/// `Block{n, size}` covers bytes [n*size, (n+1)*size).
struct Block {
  std::uint64_t index = 0;
  std::uint32_t bytes = 0;
  constexpr auto operator<=>(const Block&) const = default;
  constexpr ByteAddr first_byte() const { return ByteAddr{index * bytes}; }
};

constexpr Block block_of(ByteAddr a, std::uint32_t block_bytes) {
  return Block{a.value / block_bytes, block_bytes};
}

/// Which lanes of a warp take part in an operation. Bit i is lane i.
class LaneMask {
 public:
  constexpr LaneMask() = default;
  constexpr explicit LaneMask(std::uint32_t bits) : bits_(bits) {}
  static constexpr LaneMask all(unsigned warp_size = kMaxWarpSize) {
    return LaneMask(warp_size >= 32 ? 0xffffffffu : ((1u << warp_size) - 1u));
  }
  constexpr std::uint32_t bits() const { return bits_; }
  constexpr bool test(unsigned lane) const { return (bits_ >> lane) & 1u; }
  constexpr void set(unsigned lane) { bits_ |= (1u << lane); }
  constexpr void reset(unsigned lane) { bits_ &= ~(1u << lane); }
  constexpr unsigned count() const { return static_cast<unsigned>(std::popcount(bits_)); }
  constexpr bool none() const { return bits_ == 0; }
  constexpr bool any() const { return bits_ != 0; }
  /// Lowest active lane; only meaningful when any().
  constexpr unsigned first() const { return static_cast<unsigned>(std::countr_zero(bits_)); }
  constexpr LaneMask operator&(LaneMask o) const { return LaneMask(bits_ & o.bits_); }
  constexpr LaneMask operator|(LaneMask o) const { return LaneMask(bits_ | o.bits_); }
  constexpr LaneMask operator~() const { return LaneMask(~bits_); }
  constexpr bool operator==(const LaneMask&) const = default;

  /// Calls f(lane) for every set lane in increasing order.
  template <class F>
  constexpr void for_each(F&& f) const {
    for (std::uint32_t b = bits_; b != 0; b &= b - 1) f(static_cast<unsigned>(std::countr_zero(b)));
  }

 private:
  std::uint32_t bits_ = 0;
};

/// One value per lane of a warp.
template <class T>
using PerLane = std::array<T, kMaxWarpSize>;

}  // namespace warpscope
