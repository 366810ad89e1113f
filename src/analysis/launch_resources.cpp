#include "analysis/launch_resources.hpp"

#include <fmt/format.h>

#include "analysis/cluster_occupancy.hpp"
#include "analysis/occupancy.hpp"
#include "common/error.hpp"

namespace warpscope::analysis {
namespace {

/// An advice entry about the whole kernel (no source line or instruction); the caller adds
/// "message" and "evidence".
nlohmann::json kernel_advice(const char* rule) {
  return {{"rule", rule}, {"file", ""}, {"line", 0}, {"pc", nullptr}};
}

/// Thread-block clusters (profiles that have them): the launch's cluster and how many clusters run
/// at once on the GPCs (cluster_occupancy.hpp), under ncu's launch__cluster_* names (a launch
/// without clusters: sizes and max_active 0, as ncu reports it).
void add_cluster_occupancy(const arch::Profile& profile, const KernelFacts& f, std::uint32_t blocks_per_sm,
                           nlohmann::json& occ, nlohmann::json& metrics) {
  const std::uint64_t size = std::uint64_t(f.cluster.x) * f.cluster.y * f.cluster.z;
  const std::uint64_t active = size > 0 ? max_active_clusters(profile, blocks_per_sm, size) : 0;
  metrics["launch__cluster_dim_x"] = f.cluster.x;
  metrics["launch__cluster_dim_y"] = f.cluster.y;
  metrics["launch__cluster_dim_z"] = f.cluster.z;
  metrics["launch__cluster_size"] = size;
  metrics["launch__cluster_max_active"] = active;
  metrics["launch__cluster_max_potential_size"] = max_potential_cluster_size(profile, blocks_per_sm, f.non_portable_cluster);
  if (size == 0) return;
  occ["cluster_size"] = size;
  occ["max_active_clusters"] = active;
  occ["cluster_wave_ctas"] = active * size;  // CTAs resident at once: one wave of the launch
}

}  // namespace

nlohmann::json launch_resources(const arch::Profile& profile, const KernelFacts& f, Dim3 grid, Dim3 block,
                                std::uint64_t dynamic_shared, nlohmann::json& metrics, nlohmann::json& estimated,
                                nlohmann::json& advice) {
  nlohmann::json out;
  nlohmann::json r;
  r["from_ptxas"] = f.from_ptxas;
  r["registers"] = f.registers < 0 ? nlohmann::json(nullptr) : nlohmann::json(f.registers);
  r["stack_frame_bytes"] = f.from_ptxas ? nlohmann::json(f.stack_frame_bytes) : nlohmann::json(nullptr);
  r["spill_store_bytes"] = f.from_ptxas ? nlohmann::json(f.spill_store_bytes) : nlohmann::json(nullptr);
  r["spill_load_bytes"] = f.from_ptxas ? nlohmann::json(f.spill_load_bytes) : nlohmann::json(nullptr);
  r["static_shared_bytes"] = f.static_shared_bytes;
  r["ptx_local_bytes"] = f.ptx_local_bytes;
  r["local_in_registers"] = f.from_ptxas && f.stack_frame_bytes == 0 && f.ptx_local_bytes > 0;
  nlohmann::json groupings = nlohmann::json::array();
  for (const KernelFacts::Grouping& g : f.lane_groupings)
    groupings.push_back({{"pc", g.pc}, {"file", g.file}, {"line", g.line}, {"text", g.text}});
  r["lane_groupings"] = std::move(groupings);
  out["resources"] = std::move(r);

  const std::uint64_t threads_per_block = std::uint64_t(block.x) * block.y * block.z;
  const std::uint64_t threads = threads_per_block * grid.x * grid.y * grid.z;
  if (f.registers >= 0) metrics["launch__registers_per_thread"] = f.registers;
  OccupancyInput in;
  in.threads_per_block = static_cast<std::uint32_t>(threads_per_block);
  in.registers_per_thread = f.registers < 0 ? 0 : static_cast<std::uint32_t>(f.registers);
  in.static_shared_bytes = f.static_shared_bytes;
  in.dynamic_shared_bytes = dynamic_shared;
  nlohmann::json occ;
  try {
    const Occupancy o = compute_occupancy(profile, in);
    auto lim = [](std::uint32_t v) { return v == UINT32_MAX ? nlohmann::json(nullptr) : nlohmann::json(v); };
    occ["blocks_per_sm"] = o.blocks_per_sm;
    occ["active_warps_per_sm"] = o.active_warps_per_sm;
    occ["max_warps_per_sm"] = profile.max_warps_per_sm;
    occ["occupancy_pct"] = 100.0 * o.occupancy;
    occ["limited_by"] = std::string(to_string(o.limited_by));
    occ["limit_warps"] = lim(o.limit_warps);
    occ["limit_blocks"] = lim(o.limit_blocks);
    occ["limit_registers"] = lim(o.limit_registers);
    occ["limit_shared"] = lim(o.limit_shared);
    occ["registers_known"] = f.registers >= 0;
    if (!profile.cluster_gpc_sms.empty()) add_cluster_occupancy(profile, f, o.blocks_per_sm, occ, metrics);
    metrics["launch__occupancy_limit_warps"] = o.limit_warps;
    metrics["launch__occupancy_limit_blocks"] = o.limit_blocks;
    // A resource the kernel does not use (no shared memory on a profile without a per-block
    // reservation) limits nothing: like the occupancy calculator, report the SM's block limit.
    // Registers ptxas did not report are left out rather than given a number.
    const auto or_blocks = [&](std::uint32_t v) { return v == UINT32_MAX ? o.limit_blocks : v; };
    if (o.limit_registers != UINT32_MAX) metrics["launch__occupancy_limit_registers"] = o.limit_registers;
    metrics["launch__occupancy_limit_shared_mem"] = or_blocks(o.limit_shared);
    metrics["sm__maximum_warps_per_active_cycle_pct"] = 100.0 * o.occupancy;
    if (f.registers > 0 && o.limited_by == OccupancyLimit::kRegisters && o.occupancy < 1.0) {
      const std::uint32_t full = registers_for_full_occupancy(profile);
      nlohmann::json a = kernel_advice("register_limited_occupancy");
      a["message"] = fmt::format(
          "{} registers per thread limit an SM to {} blocks of {} threads ({:.0f} % occupancy); the register file "
          "holds {} threads at this count, and {} registers per thread would let it hold the SM's {} threads "
          "(__launch_bounds__ or -maxrregcount trade registers for occupancy, at the risk of spills)",
          f.registers, o.blocks_per_sm, threads_per_block, 100.0 * o.occupancy,
          threads_allowed_by_registers(profile, static_cast<std::uint32_t>(f.registers)), full,
          profile.max_threads_per_sm);
      a["evidence"] = {{"registers", f.registers}, {"occupancy_pct", 100.0 * o.occupancy},
                       {"blocks_per_sm", o.blocks_per_sm}, {"registers_for_full_occupancy", full}};
      advice.push_back(std::move(a));
    }
  } catch (const Error& e) {
    occ["error"] = e.what();
  }
  out["occupancy"] = std::move(occ);

  if (f.from_ptxas && (f.spill_store_bytes > 0 || f.spill_load_bytes > 0)) {
    const std::uint64_t st = threads * f.spill_store_bytes, ld = threads * f.spill_load_bytes;
    metrics["local_spill_store_bytes_estimated"] = st;
    metrics["local_spill_load_bytes_estimated"] = ld;
    metrics["local_spill_store_sectors_estimated"] = (st + profile.sector_bytes - 1) / profile.sector_bytes;
    metrics["local_spill_load_sectors_estimated"] = (ld + profile.sector_bytes - 1) / profile.sector_bytes;
    for (const char* n : {"local_spill_store_bytes_estimated", "local_spill_load_bytes_estimated",
                          "local_spill_store_sectors_estimated", "local_spill_load_sectors_estimated"})
      estimated.push_back(n);
    nlohmann::json a = kernel_advice("spill");
    a["message"] = fmt::format(
        "ptxas spills registers: {} bytes of spill stores and {} bytes of spill loads per thread at {} registers "
        "(about {} and {} bytes of local traffic for this launch, estimated); spills go to local memory (L1, then "
        "device memory): relax __launch_bounds__/-maxrregcount or reduce live values",
        f.spill_store_bytes, f.spill_load_bytes, f.registers, st, ld);
    a["evidence"] = {{"spill_store_bytes", f.spill_store_bytes}, {"spill_load_bytes", f.spill_load_bytes},
                     {"registers", f.registers}, {"estimated_store_bytes", st}, {"estimated_load_bytes", ld}};
    if (f.machine_spills != 0) {
      a["message"] = a["message"].get<std::string>() +
                     fmt::format("; counted from the machine code: {} spill instructions made {} local requests and {} "
                                 "sectors in this launch (lines[].instructions show each, with the source line it runs with)",
                                 f.machine_spills, f.machine_spill_requests, f.machine_spill_sectors);
      a["evidence"]["machine_spill_instructions"] = f.machine_spills;
      a["evidence"]["machine_spill_requests"] = f.machine_spill_requests;
      a["evidence"]["machine_spill_sectors"] = f.machine_spill_sectors;
    }
    advice.push_back(std::move(a));
  }
  return out;
}

}  // namespace warpscope::analysis
