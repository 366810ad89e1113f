// Results in Nsight Compute's layouts, made from the report's JSON (docs/report.md), so that a
// script written for ncu reads warpscope's output unchanged:
//  - `--csv` (ncu --csv --page raw): a header row "ID","Process ID","Process Name","Host
//    Name","Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC" followed by
//    the metrics in name order, a units row, then one row per profiled launch; every field
//    quoted, numbers as ncu prints them ("12,336", "10,073.60")
//  - without --csv: ncu's text blocks, "Section: Command line profiler metrics" per launch
//  - `--print-summary per-kernel`: one group per kernel and launch shape (name, block, grid)
//    with Invocations and each metric's Minimum, Maximum and Average over the group's launches
// The layouts, units and number formatting are those of Nsight Compute 2025.3's exports in
// tests/hw/data/h100 (tests/report/ncu_output_test.cpp). Only launches with "profiled": true
// appear; IDs count them from 0, as ncu's IDs count profiled results.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpscope::report {

/// What a result row says about where it ran.
struct NcuContext {
  long pid = 0;
  std::string process;             // the executable's file name
  std::string host = "127.0.0.1";  // what ncu writes for a process on the same machine
  std::string cc = "9.0";          // the profile's compute capability
};

struct NcuOptions {
  std::vector<std::string> metrics;    // --metrics (resolved by resolve_metrics); empty: all
  bool csv = false;                    // --csv
  std::string print_summary = "none";  // --print-summary: none | per-kernel
};

/// Every metric `warpscope run` can report under an Nsight Compute name, plus its own derived
/// figures (global_sectors_per_request, ...) and the launch__ facts of each launch.
const std::vector<std::string>& known_metrics();

/// Resolves --metrics: names as given, "X" without a rollup as "X.sum", "regex:EXPR" as every
/// known name EXPR is found in. Throws Error (kUsage) for a name warpscope does not report,
/// naming the nearest known ones, and for ncu's .avg/.min/.max rollups, which are over hardware
/// units (SMs, L2 slices) the model does not have. `notes` gets one line per rewritten name.
std::vector<std::string> resolve_metrics(const std::vector<std::string>& requested, std::vector<std::string>* notes);

/// The units row's entry for a metric (Nsight Compute 2025.3: "sector", "byte", "inst", "" for
/// L1 requests, ...); nullopt for a name outside the families warpscope reports.
std::optional<std::string> ncu_unit(const std::string& metric);

/// A value as ncu prints it: integral values with thousands separators, others with two
/// decimals ("0.01", "10,073.60").
std::string ncu_number(double value);

/// ncu's stream number: 7 for the legacy default stream, 13, 14, ... for the streams the
/// program created, in creation order (as the H100 numbered them in ../shared/acceptance/h100).
long ncu_stream(std::uint64_t warpscope_stream);

/// The results of the report's profiled launches in the layout `options` asks for.
std::string ncu_output(const nlohmann::json& report, const NcuContext& context, const NcuOptions& options);

}  // namespace warpscope::report
