// A launch's instruction counters from the machine code (src/analysis/sass_counts.hpp), put into
// its report: smsp__inst_executed.sum and smsp__thread_inst_executed.sum replace the PTX counts,
// the executed opcodes go to `sass`, and each line gets `sass_executions` /
// `sass_thread_executions` (docs/report.md).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/sass_counts.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::profiling {

/// The machine code's counts of one launch, or nullopt when the kernel has none (`sass` null).
std::optional<analysis::sass::LaunchSassCounts> sass_counts(const analysis::sass::Function* sass,
                                                          const std::vector<analysis::sass::PtxInst>& ptx,
                                                          const LaunchStats& stats);

/// Writes `counts` into a launch's metrics, estimated list and lines (the primary profile's).
void apply_sass_counts(const analysis::sass::LaunchSassCounts& counts, const std::vector<InstructionInfo>& code,
                       nlohmann::json& metrics, nlohmann::json& estimated, nlohmann::json& lines);

/// `sass` of a launch: {"exact": bool, "notes": [why not exact], "opcodes": {"FFMA": {"warp": n,
/// "thread": n, "class": "fp32"}, ...}}.
nlohmann::json sass_json(const analysis::sass::LaunchSassCounts& counts);

}  // namespace warpscope::profiling
