#include "stats/atomic_contention.hpp"

#include <algorithm>
#include <array>

namespace warpscope::stats {

void AtomicCounter::note(const WarpAccess& a, bool float_add, std::vector<AtomicNote>& addresses,
                         std::vector<AtomicNote>& lines, bool warp_aggregated) {
  if (a.space != Space::kGlobal || (a.op != Op::kAtomic && a.op != Op::kReduction) || a.active.none()) return;
  // Distinct addresses of the record with their lane counts (at most 32: a linear scan).
  std::array<std::uint64_t, kMaxWarpSize> addr{};
  std::array<std::uint32_t, kMaxWarpSize> lanes{};
  unsigned n = 0;
  a.active.for_each([&](unsigned l) {
    unsigned i = 0;
    while (i < n && addr[i] != a.addr[l]) ++i;
    if (i == n) addr[n++] = a.addr[l];
    if (!warp_aggregated || lanes[i] == 0) ++lanes[i];
  });
  for (unsigned i = 0; i < n; ++i) addresses.push_back({addr[i], lanes[i], float_add ? lanes[i] : 0u});
  // Steps per 32-byte sector (its busiest address's lanes), summed per 128-byte line.
  std::array<std::uint64_t, kMaxWarpSize> sector{}, line{};
  std::array<std::uint32_t, kMaxWarpSize> sector_steps{}, line_steps{};
  unsigned ns = 0, nl = 0;
  for (unsigned i = 0; i < n; ++i) {
    const std::uint64_t s = addr[i] / 32;
    unsigned k = 0;
    while (k < ns && sector[k] != s) ++k;
    if (k == ns) sector[ns++] = s;
    sector_steps[k] = std::max(sector_steps[k], lanes[i]);
  }
  for (unsigned k = 0; k < ns; ++k) {
    const std::uint64_t l = sector[k] / 4;
    unsigned j = 0;
    while (j < nl && line[j] != l) ++j;
    if (j == nl) line[nl++] = l;
    line_steps[j] += sector_steps[k];
  }
  for (unsigned j = 0; j < nl; ++j) lines.push_back({line[j], line_steps[j], 0u});
}

void AtomicCounter::add(const std::vector<AtomicNote>& addresses, const std::vector<AtomicNote>& lines) {
  for (const AtomicNote& n : addresses) {
    auto it = addresses_.find(n.key);
    if (it == addresses_.end()) {
      if (addresses_.size() >= kMaxAddresses) {
        capped_ = true;
        continue;
      }
      it = addresses_.emplace(n.key, Counts{}).first;
    }
    it->second.ops += n.ops;
    it->second.float_ops += n.float_ops;
  }
  for (const AtomicNote& n : lines) {
    auto it = lines_.find(n.key);
    if (it == lines_.end()) {
      if (lines_.size() >= kMaxAddresses) {
        capped_ = true;
        continue;
      }
      it = lines_.emplace(n.key, 0).first;
    }
    it->second += n.ops;
  }
}

AtomicContention AtomicCounter::result() const {
  AtomicContention r;
  r.addresses = addresses_.size();
  r.capped = capped_;
  for (const auto& [address, c] : addresses_) {
    // Ties: the lowest address, so that the result does not depend on the map's order.
    if (c.ops > r.address_ops || (c.ops == r.address_ops && address < r.address)) {
      r.address_ops = c.ops;
      r.address = address;
    }
    r.address_float_ops = std::max(r.address_float_ops, c.float_ops);
  }
  for (const auto& [l, steps] : lines_) r.line_steps = std::max(r.line_steps, steps);
  return r;
}

}  // namespace warpscope::stats
