// Thread-block clusters on the GPU's scheduling units (GPCs): how many clusters of a launch run
// at once (cudaOccupancyMaxActiveClusters) and the largest cluster that fits at all
// (cudaOccupancyMaxPotentialClusterSize).
//
// Rule (measured on an H100, tests/hw/data/h100/cluster_sched, all 1152 answers of its sweep over
// block size x dynamic shared memory x cluster size 1..16 reproduced): a cluster's CTAs run on
// distinct SMs of one unit (profile cluster_gpc_sms), and an SM holds at most
// s = min(blocks per SM by the occupancy rules, cluster_max_blocks_per_sm) CTAs of a cluster
// launch, so a unit of n SMs holds floor(n * s / c) clusters of c CTAs when c <= n, none
// otherwise; the device holds the sum over its units. The launches of that capture ran exactly that
// many clusters at once (their CTAs' %smid and globaltimer).
#pragma once

#include <cstdint>

#include "arch/profile.hpp"

namespace warpscope::analysis {

/// Clusters of `cluster_size` CTAs resident at once when one SM holds `blocks_per_sm` CTAs of the
/// kernel (compute_occupancy). 0 when the profile has no clusters or none fits.
std::uint64_t max_active_clusters(const arch::Profile& profile, std::uint32_t blocks_per_sm,
                                  std::uint64_t cluster_size);

/// CTAs the largest cluster may have that still fits on the device: the largest size up to
/// cluster_max_size (non-portable sizes allowed) or cluster_max_portable_size with at least one
/// resident cluster; 0 when none fits or the profile has no clusters.
std::uint32_t max_potential_cluster_size(const arch::Profile& profile, std::uint32_t blocks_per_sm,
                                         bool non_portable);

/// CTAs resident at once in a launch of clusters of `cluster_size` CTAs (max_active_clusters x
/// cluster_size): one wave of the launch. Without clusters (size 1 and no cluster launch), the
/// caller uses blocks_per_sm x sm_count instead.
std::uint64_t cluster_wave_ctas(const arch::Profile& profile, std::uint32_t blocks_per_sm,
                                std::uint64_t cluster_size);

}  // namespace warpscope::analysis
