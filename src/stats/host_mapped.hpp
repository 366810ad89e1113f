// Zero-copy traffic (docs/mem.md, "Host-mapped memory"): the bytes a launch's global loads,
// stores and atomics read from or write to host memory mapped into the device's address space
// (cudaHostAlloc with cudaHostAllocMapped), which the GPU reaches over the host link, not DRAM.
// An input of the time model (docs/time.md, "Serialised costs").
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "common/access.hpp"

namespace warpscope::stats {

struct HostMappedBytes {
  std::uint64_t read = 0, written = 0;  // bytes the lanes asked for (an atomic: both)
};

/// Host-mapped address ranges [begin, end), sorted by begin and disjoint.
using AddressRanges = std::vector<std::pair<std::uint64_t, std::uint64_t>>;

/// Adds the bytes of `a`'s active lanes whose addresses fall in `ranges` (global space only).
void add_host_mapped(const WarpAccess& a, const AddressRanges& ranges, HostMappedBytes& out);

}  // namespace warpscope::stats
