#include "analysis/occupancy.hpp"

#include <algorithm>
#include <limits>

#include "common/error.hpp"

namespace warpscope::analysis {
namespace {

constexpr std::uint32_t kUnlimited = std::numeric_limits<std::uint32_t>::max();

std::uint64_t round_up(std::uint64_t x, std::uint64_t unit) { return (x + unit - 1) / unit * unit; }

}  // namespace

std::string_view to_string(OccupancyLimit limit) {
  switch (limit) {
    case OccupancyLimit::kWarps: return "warps";
    case OccupancyLimit::kBlocks: return "blocks";
    case OccupancyLimit::kRegisters: return "registers";
    case OccupancyLimit::kSharedMemory: return "shared memory";
    case OccupancyLimit::kNone: return "none";
  }
  return "?";
}

Occupancy compute_occupancy(const arch::Profile& p, const OccupancyInput& in) {
  if (in.threads_per_block == 0 || in.threads_per_block > p.max_threads_per_block)
    fail(ErrorKind::kUsage, "{} threads per block: {} allows 1 to {}", in.threads_per_block, p.name,
         p.max_threads_per_block);
  if (in.registers_per_thread > p.max_registers_per_thread)
    fail(ErrorKind::kUsage, "{} registers per thread: {} allows at most {}", in.registers_per_thread, p.name,
         p.max_registers_per_thread);
  const std::uint64_t shared = in.static_shared_bytes + in.dynamic_shared_bytes;
  if (shared > p.shared_bytes_per_block)
    fail(ErrorKind::kUsage, "{} bytes of shared memory per block: {} allows at most {}", shared, p.name,
         p.shared_bytes_per_block);

  Occupancy o;
  o.warps_per_block = (in.threads_per_block + p.warp_size - 1) / p.warp_size;
  o.limit_warps = p.max_warps_per_sm / o.warps_per_block;
  o.limit_blocks = p.max_blocks_per_sm;

  o.limit_registers = kUnlimited;
  if (in.registers_per_thread > 0) {
    std::uint64_t per_warp = round_up(std::uint64_t{in.registers_per_thread} * p.warp_size, p.register_allocation_unit);
    std::uint64_t warps = p.registers_per_sm / per_warp;
    warps = warps / p.warp_allocation_granularity * p.warp_allocation_granularity;
    if (per_warp * o.warps_per_block > p.registers_per_block)
      fail(ErrorKind::kUsage, "{} registers per thread x {} threads exceed the {} registers a block may use on {}",
           in.registers_per_thread, in.threads_per_block, p.registers_per_block, p.name);
    o.limit_registers = static_cast<std::uint32_t>(warps / o.warps_per_block);
  }

  o.limit_shared = kUnlimited;
  if (shared > 0 || p.shared_reserved_per_block > 0) {
    std::uint64_t per_block = round_up(shared, p.shared_allocation_unit) + p.shared_reserved_per_block;
    o.limit_shared = static_cast<std::uint32_t>(p.shared_bytes_per_sm / per_block);
  }

  o.blocks_per_sm = std::min({o.limit_warps, o.limit_blocks, o.limit_registers, o.limit_shared});
  if (o.blocks_per_sm == o.limit_warps) o.limited_by = OccupancyLimit::kWarps;
  else if (o.blocks_per_sm == o.limit_blocks) o.limited_by = OccupancyLimit::kBlocks;
  else if (o.blocks_per_sm == o.limit_registers) o.limited_by = OccupancyLimit::kRegisters;
  else o.limited_by = OccupancyLimit::kSharedMemory;
  o.active_warps_per_sm = o.blocks_per_sm * o.warps_per_block;
  o.occupancy = static_cast<double>(o.active_warps_per_sm) / p.max_warps_per_sm;
  return o;
}

std::uint32_t registers_for_full_occupancy(const arch::Profile& p) {
  return std::min(p.max_registers_per_thread, p.registers_per_sm / p.max_threads_per_sm);
}

std::uint32_t threads_allowed_by_registers(const arch::Profile& p, std::uint32_t registers) {
  if (registers == 0) return p.max_threads_per_sm;
  return std::min(p.max_threads_per_sm, p.registers_per_sm / registers);
}

}  // namespace warpscope::analysis
