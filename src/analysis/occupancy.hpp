// Occupancy: how many blocks of a kernel one SM holds at once, by the rules of NVIDIA's CUDA
// Occupancy Calculator, and which resource limits it.
//
// Rules (per SM, from the profile):
//  - warps:     floor(max_warps_per_sm / warps_per_block), warps_per_block = ceil(threads / 32)
//  - blocks:    max_blocks_per_sm
//  - registers: a warp is given ceil(regs * 32 / register_allocation_unit) * unit registers;
//               the SM holds floor(registers_per_sm / that) warps, rounded down to a multiple of
//               warp_allocation_granularity; blocks = that / warps_per_block. 0 registers: no limit.
//  - shared:    each block takes ceil((static + dynamic) / shared_allocation_unit) * unit bytes
//               plus shared_reserved_per_block; blocks = floor(shared_bytes_per_sm / that).
// The result is the smallest of the four. Checked against cudaOccupancyMaxActiveBlocksPer-
// Multiprocessor on an H100 for every row of tests/hw/data/h100/runtime_probe.csv.
#pragma once

#include <cstdint>
#include <string_view>

#include "arch/profile.hpp"

namespace warpscope::analysis {

enum class OccupancyLimit { kWarps, kBlocks, kRegisters, kSharedMemory, kNone };
std::string_view to_string(OccupancyLimit limit);

struct OccupancyInput {
  std::uint32_t threads_per_block = 0;
  std::uint32_t registers_per_thread = 0;
  std::uint64_t static_shared_bytes = 0;
  std::uint64_t dynamic_shared_bytes = 0;
};

struct Occupancy {
  std::uint32_t blocks_per_sm = 0;
  std::uint32_t warps_per_block = 0;
  std::uint32_t active_warps_per_sm = 0;
  double occupancy = 0;  // active warps / max warps per SM
  // Blocks each resource alone would allow (UINT32_MAX where it imposes no limit).
  std::uint32_t limit_warps = 0, limit_blocks = 0, limit_registers = 0, limit_shared = 0;
  OccupancyLimit limited_by = OccupancyLimit::kNone;  // the smallest; ties favour the order above
};

/// Throws Error(kUsage) when the block cannot run at all (too many threads, registers or bytes
/// of shared memory for one block), naming the resource.
Occupancy compute_occupancy(const arch::Profile& profile, const OccupancyInput& input);

/// The seeds' register-file arithmetic (seed 001), without allocation granularity:
/// registers a thread may use if the SM is to hold its maximum number of threads, and
/// threads the register file holds at `registers` per thread.
std::uint32_t registers_for_full_occupancy(const arch::Profile& profile);
std::uint32_t threads_allowed_by_registers(const arch::Profile& profile, std::uint32_t registers);

}  // namespace warpscope::analysis
