#include "stats/host_mapped.hpp"

#include <algorithm>

namespace warpscope::stats {

void add_host_mapped(const WarpAccess& a, const AddressRanges& ranges, HostMappedBytes& out) {
  if (ranges.empty() || a.space != Space::kGlobal) return;
  const bool reads = a.op == Op::kLoad || a.op == Op::kAtomic || a.op == Op::kReduction || a.op == Op::kLdgsts;
  const bool writes = a.op == Op::kStore || a.op == Op::kAtomic || a.op == Op::kReduction;
  if (!reads && !writes) return;
  std::uint64_t bytes = 0;
  a.active.for_each([&](unsigned l) {
    const std::uint64_t x = a.addr[l];
    // The last range that begins at or before x.
    auto it = std::upper_bound(ranges.begin(), ranges.end(), x,
                               [](std::uint64_t v, const std::pair<std::uint64_t, std::uint64_t>& r) { return v < r.first; });
    if (it != ranges.begin() && x < std::prev(it)->second) bytes += a.width;
  });
  if (reads) out.read += bytes;
  if (writes) out.written += bytes;
}

}  // namespace warpscope::stats
