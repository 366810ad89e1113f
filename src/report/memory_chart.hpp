// The memory chart of a launch page, in the spirit of Nsight Compute's Memory Workload Analysis
// chart: the kernel on the left, its requests flowing right into the L1/TEX cache (global,
// local, texture and surface traffic) and shared memory, the L1's misses into L2, and L2's into
// DRAM, each arrow labelled with its instructions, requests, sectors, bytes and hit rate.
//
// Two steps, so the numbers can be checked apart from the drawing: memory_chart() reads a
// launch's `metrics` (Nsight Compute's names, docs/report.md) into flows; render_memory_chart()
// draws them as one inline SVG. Bytes of a sector flow are sectors × 32 (Nsight Compute's sector
// is 32 bytes); a hit rate is lookup hits / sectors of the same flow. A metric the launch does not
// have leaves its field empty (drawn as a dash), never 0.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace warpscope::report {

struct ChartFlow {
  std::string key;    // "global_ld", "local_st", "texture", "surface_ld", "shared_ld", "l2_read", "dram_read", ...
  std::string label;  // "Global load"
  std::optional<std::uint64_t> instructions, requests, sectors, hits, bytes, wavefronts, conflicts;
  std::vector<std::string> sources;  // the metric names the numbers come from
  /// hits / sectors in percent, when both are known and sectors > 0.
  std::optional<double> hit_pct() const;
};

struct MemoryChart {
  std::vector<ChartFlow> to_l1;      // kernel -> L1/TEX: global and local (LSU), texture and surface (TEX)
  std::vector<ChartFlow> to_shared;  // kernel -> shared memory: wavefronts and bank conflicts
  std::vector<ChartFlow> to_l2;      // L1 -> L2: sectors read, written, atomics, reductions
  std::vector<ChartFlow> to_dram;    // L2 -> DRAM: bytes read and written
  std::optional<double> l1_hit_pct;  // all L1/TEX sector lookups of to_l1 that hit
  std::optional<double> l2_hit_pct;  // `l2_hit_rate_pct` (Nsight Compute's L2 Hit Rate: all sectors)
};

/// True when `metrics` holds any L1/TEX, L2 or DRAM counter (a launch run without the memory
/// model, or left out by the launch filter, has only instruction counts).
bool has_memory_metrics(const nlohmann::json& metrics);

/// The flows of a launch's `metrics`. Global load and store, L2 reads and writes and DRAM reads
/// and writes are always listed; the others (atomics, reductions, local, texture, surface,
/// shared) only when one of their counters is not zero.
MemoryChart memory_chart(const nlohmann::json& metrics);

/// The chart as an `<svg class="memory-chart">` element, 1180 units wide (scaled by CSS); each
/// arrow is a `<g class="flow" data-flow="KEY" data-requests=... data-sectors=... data-bytes=...
/// data-hit-pct=...>` with the numbers it shows (attributes of absent numbers are left out).
std::string render_memory_chart(const MemoryChart& chart);

}  // namespace warpscope::report
