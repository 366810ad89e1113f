// Test helpers: warp access records built from a per-lane rule.
#pragma once

#include <cstdint>

#include "common/access.hpp"

namespace warpscope::mem::test {

/// cudaMalloc aligns allocations to at least 256 bytes (seed 002); tests put arrays there.
inline constexpr std::uint64_t kBase = 0x10000;

/// Lane l accesses byte address addr_of_lane(l).
template <class F>
WarpAccess access(Space space, Op op, unsigned width, F addr_of_lane, std::uint32_t active = 0xffffffffu,
                  CacheOp cache = CacheOp::kDefault) {
  WarpAccess a;
  a.space = space;
  a.op = op;
  a.width = static_cast<std::uint8_t>(width);
  a.cache = cache;
  a.active = LaneMask(active);
  for (unsigned lane = 0; lane < kMaxWarpSize; ++lane) a.addr[lane] = static_cast<std::uint64_t>(addr_of_lane(lane));
  return a;
}

template <class F>
WarpAccess load(unsigned width, F addr_of_lane, CacheOp cache = CacheOp::kDefault, std::uint32_t active = 0xffffffffu) {
  return access(Space::kGlobal, Op::kLoad, width, addr_of_lane, active, cache);
}

template <class F>
WarpAccess store(unsigned width, F addr_of_lane, std::uint32_t active = 0xffffffffu) {
  return access(Space::kGlobal, Op::kStore, width, addr_of_lane, active);
}

/// Lane l accesses element index(l) of an array of `width`-byte words at byte address `base`.
template <class F>
WarpAccess make_access(Space space, Op op, unsigned width, std::uint64_t base, F index,
                       std::uint32_t active = 0xffffffffu, CacheOp cache = CacheOp::kDefault) {
  return access(
      space, op, width, [&](unsigned lane) { return base + static_cast<std::uint64_t>(index(lane)) * width; }, active,
      cache);
}

/// A global load of element index(l) of an array at byte address 0.
template <class F>
WarpAccess global_load(unsigned width, F index, CacheOp cache = CacheOp::kDefault) {
  return make_access(Space::kGlobal, Op::kLoad, width, 0, index, 0xffffffffu, cache);
}

}  // namespace warpscope::mem::test
