// What ptxas and the occupancy rules say about one launch: the kernel's resources, the
// theoretical occupancy on a profile and what limits it, the spill traffic estimated from
// ptxas's figures, and the advice that follows (seeds 000 and 001).
//
// Spill traffic: ptxas reports the bytes of spill stores and loads in the code (static). The
// estimate assumes every thread runs each spill instruction once and that spills are coalesced
// (a spill slot is at the same offset in every thread's frame: 4 sectors per 4-byte warp access),
// so it is threads x bytes; it is marked estimated.
#pragma once

#include <cstdint>

#include <nlohmann/json.hpp>

#include "arch/profile.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::analysis {

struct KernelFacts {
  int registers = -1;  // -1: unknown (no ptxas)
  bool from_ptxas = false;
  std::uint64_t stack_frame_bytes = 0, spill_store_bytes = 0, spill_load_bytes = 0;
  std::uint64_t static_shared_bytes = 0;
  std::uint64_t ptx_local_bytes = 0;  // the PTX .local depot
  // The spill loads and stores of the machine code, counted in this launch (src/analysis/sass.hpp;
  // sm_90 only): how many there are, and their requests and sectors.
  std::uint64_t machine_spills = 0, machine_spill_requests = 0, machine_spill_sectors = 0;
  // PTX local loads whose lanes are grouped as the machine code's copies run them (LaneGrouping).
  struct Grouping {
    std::uint32_t pc = 0;
    std::string file;
    std::uint32_t line = 0;
    std::string text;
  };
  std::vector<Grouping> lane_groupings;
  // The launch's thread-block clusters (0x0x0: not a cluster launch) and whether the kernel
  // allows non-portable cluster sizes (cudaFuncAttributeNonPortableClusterSizeAllowed).
  Dim3 cluster{0, 0, 0};
  bool non_portable_cluster = false;
};

/// Adds to one profile's part of a launch: `resources` and `occupancy` objects (returned as
/// {"resources": ..., "occupancy": ...}), metrics under Nsight Compute's launch__ names and the
/// spill estimates (also listed in `estimated`), and resource advice (spills, register-limited
/// occupancy) appended to `advice`.
nlohmann::json launch_resources(const arch::Profile& profile, const KernelFacts& facts, Dim3 grid, Dim3 block,
                                std::uint64_t dynamic_shared, nlohmann::json& metrics, nlohmann::json& estimated,
                                nlohmann::json& advice);

}  // namespace warpscope::analysis
