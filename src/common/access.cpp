#include "common/access.hpp"

#include <algorithm>
#include <bit>

namespace warpscope {

std::string_view to_string(Space s) {
  switch (s) {
    case Space::kGlobal: return "global";
    case Space::kLocal: return "local";
    case Space::kShared: return "shared";
    case Space::kConst: return "const";
  }
  return "?";
}

std::string_view to_string(Op o) {
  switch (o) {
    case Op::kLoad: return "load";
    case Op::kStore: return "store";
    case Op::kAtomic: return "atomic";
    case Op::kReduction: return "reduction";
  }
  return "?";
}

std::string_view to_string(CacheOp c) {
  switch (c) {
    case CacheOp::kDefault: return "default";
    case CacheOp::kCa: return "ca";
    case CacheOp::kCg: return "cg";
  }
  return "?";
}

AddressSummary summarize_addresses(const WarpAccess& a) {
  const std::uint32_t m = a.active.bits();
  if (m == 0xffffffffu && kMaxWarpSize == 32) return summarize32(a.addr.data(), 0);
  AddressSummary s;
  s.active = static_cast<unsigned>(std::popcount(m));
  if (m == 0) return s;
  const unsigned first = static_cast<unsigned>(std::countr_zero(m));
  const std::uint64_t a0 = a.addr[first];
  std::uint64_t lo = ~std::uint64_t{0}, hi = 0, ored = 0;
  for (std::uint32_t b = m; b != 0; b &= b - 1) {
    const unsigned l = static_cast<unsigned>(std::countr_zero(b));
    lo = std::min(lo, a.addr[l]);
    hi = std::max(hi, a.addr[l]);
    ored |= a.addr[l];
  }
  s.lo = lo;
  s.hi = hi;
  s.ored = ored;
  if (s.active == 1) return s;
  // Affine: lane l at a0 + (l - first) * d for every active lane, d from the first two.
  const unsigned second = static_cast<unsigned>(std::countr_zero(m & (m - 1)));
  const unsigned last = 31u - static_cast<unsigned>(std::countl_zero(m));
  const auto diff = static_cast<std::int64_t>(a.addr[second] - a0);
  const std::int64_t gap = second - first;
  if (gap != 1 && diff % gap != 0) return s;
  const std::int64_t d = gap == 1 ? diff : diff / gap;
  for (std::uint32_t b = m; b != 0; b &= b - 1) {
    const unsigned l = static_cast<unsigned>(std::countr_zero(b));
    if (a.addr[l] != a0 + static_cast<std::uint64_t>(d) * (l - first)) return s;
  }
  // The ends must be the extremes (no wrap-around of 2^64 in between).
  const std::uint64_t an = a.addr[last];
  if ((d >= 0 ? lo != a0 || hi != an : lo != an || hi != a0)) return s;
  s.affine = true;
  s.stride = d;
  s.run_base = a0 - static_cast<std::uint64_t>(d) * first;
  return s;
}

}  // namespace warpscope
