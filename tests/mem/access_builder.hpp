// Builds WarpAccess records for tests: address of lane l = base + index(l) * width.
#pragma once

#include <cstdint>
#include <functional>

#include "common/access.hpp"

namespace warpscope::mem::test {

inline WarpAccess make_access(Space space, Op op, std::uint8_t width, std::uint64_t base,
                              const std::function<std::int64_t(unsigned)>& index,
                              std::uint32_t active = 0xffffffffu, CacheOp cache = CacheOp::kDefault) {
  WarpAccess a;
  a.space = space;
  a.op = op;
  a.width = width;
  a.cache = cache;
  a.active = LaneMask(active);
  for (unsigned lane = 0; lane < 32; ++lane)
    a.addr[lane] = base + static_cast<std::uint64_t>(index(lane) * static_cast<std::int64_t>(width));
  return a;
}

inline WarpAccess global_load(std::uint8_t width, const std::function<std::int64_t(unsigned)>& index,
                              CacheOp cache = CacheOp::kDefault, std::uint32_t active = 0xffffffffu,
                              std::uint64_t base = 0) {
  return make_access(Space::kGlobal, Op::kLoad, width, base, index, active, cache);
}

}  // namespace warpscope::mem::test
