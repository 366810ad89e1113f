// A launch's instruction counters from the machine code (src/analysis/sass_counts.hpp), put into
// its report: smsp__inst_executed.sum and smsp__thread_inst_executed.sum replace the PTX counts,
// the executed opcodes go to `sass`, and each line gets `sass_executions` /
// `sass_thread_executions` (docs/report.md).
#pragma once

#include <string>
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

/// What Nsight Compute's Source page needs of a launch (docs/report.md "Source counters"), added to
/// `sass`: "function" (the cubin's function: its `.text.<function>` section), "code_bytes",
/// "instructions" ([offset, ptx_pc, warp, thread, thread_pred_on] of each executed machine
/// instruction), "memory" ([pc, offset]: each PTX memory instruction of `lines` that exactly one
/// memory instruction of the machine code carries, `@!PT` ones aside), "memory_unplaced" (the others),
/// "memory_never" ([offset, space, op, bytes] of executed `@!PT` shared accesses). The cubin itself is
/// referred to by "cubin_key" (cubin_key()) and carried once per report (Runtime).
void add_source_correlation(nlohmann::json& sass, const analysis::sass::LaunchSassCounts& counts,
                            const analysis::sass::Function& function, const nlohmann::json& lines);

/// A cubin's key in the report: 16 hex digits of its FNV-1a hash.
std::string cubin_key(const std::vector<std::uint8_t>& cubin);

/// The cubin as base64 (RFC 4648, with padding): the form it takes in the JSON report.
std::string base64(const std::vector<std::uint8_t>& bytes);

}  // namespace warpscope::profiling
