#include "analysis/cluster_occupancy.hpp"

#include <algorithm>

namespace warpscope::analysis {

std::uint64_t max_active_clusters(const arch::Profile& p, std::uint32_t blocks_per_sm, std::uint64_t cluster_size) {
  if (cluster_size == 0 || p.cluster_gpc_sms.empty()) return 0;
  const std::uint64_t slots = std::min(blocks_per_sm, p.cluster_max_blocks_per_sm);
  std::uint64_t clusters = 0;
  for (const std::uint32_t sms : p.cluster_gpc_sms)
    if (cluster_size <= sms) clusters += sms * slots / cluster_size;
  return clusters;
}

std::uint32_t max_potential_cluster_size(const arch::Profile& p, std::uint32_t blocks_per_sm, bool non_portable) {
  const std::uint32_t limit = non_portable ? p.cluster_max_size : p.cluster_max_portable_size;
  for (std::uint32_t c = limit; c > 0; --c)
    if (max_active_clusters(p, blocks_per_sm, c) > 0) return c;
  return 0;
}

std::uint64_t cluster_wave_ctas(const arch::Profile& p, std::uint32_t blocks_per_sm, std::uint64_t cluster_size) {
  return max_active_clusters(p, blocks_per_sm, cluster_size) * cluster_size;
}

}  // namespace warpscope::analysis
