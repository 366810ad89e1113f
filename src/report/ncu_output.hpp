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

#include "report/metric_eval.hpp"

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
  MetricUnits units;                   // the profile's units, for rollups and rates
  bool print_units_base = false;       // --print-units base: no auto-scaling in text output
  std::string kernel_base = "demangled";  // --print-kernel-base: function | demangled | mangled
  bool nvtx = false;                   // --nvtx: the text layout shows each launch's NVTX stack
};

/// Every metric `warpscope run` can report under an Nsight Compute name, plus its own derived
/// figures (global_sectors_per_request, ...) and the launch__ facts of each launch.
const std::vector<std::string>& known_metrics();

/// Resolves --metrics: names as given, "X" without a rollup as "X.sum", "regex:EXPR" as every
/// known name EXPR is found in. Throws Error (kUsage) for a name warpscope does not report,
/// naming the nearest known ones, and for forms the model cannot answer (metric_refusal: .min/.max
/// over units, a rollup over units the profile does not count, a peak the model lacks). Derived
/// forms (metric_eval.hpp) are accepted. `notes` gets one line per rewritten name.
std::vector<std::string> resolve_metrics(const std::vector<std::string>& requested, std::vector<std::string>* notes,
                                         const MetricUnits& units = {});

/// The kernel's name as --print-kernel-base asks for it (function, demangled, mangled).
std::string printed_kernel_name(const nlohmann::json& launch, const std::string& base);

/// A metric's value for one launch as ncu prints it ("n/a" when unknown), and its number.
std::string metric_text(const nlohmann::json& launch, const std::string& metric, const MetricUnits& units);
std::optional<double> metric_number(const nlohmann::json& launch, const std::string& metric, const MetricUnits& units);

/// A metric's unit as the units row gives it ("" when it has none).
std::string metric_unit(const std::string& metric);

/// The units row's entry for a metric (Nsight Compute 2025.3: "sector", "byte", "inst", "" for
/// L1 requests, ...); nullopt for a name outside the families warpscope reports.
std::optional<std::string> ncu_unit(const std::string& metric);

/// A value as ncu prints it: integral values with thousands separators, others with two
/// decimals ("0.01", "10,073.60").
std::string ncu_number(double value);

/// ncu's stream number: 7 for the legacy default stream, 13, 14, ... for the streams the
/// program created, in creation order (as the H100 numbered them in ../shared/acceptance/h100).
long ncu_stream(std::uint64_t warpscope_stream);

/// Pieces of ncu's layouts, shared with the sections and pages (ncu_sections.hpp).
/// A dashed table as ncu draws one; the first `left_columns` columns are left-aligned, the others
/// right-aligned.
std::string ncu_text_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                           std::size_t left_columns = 1);
std::string ncu_csv_row(const std::vector<std::string>& fields);
std::vector<const nlohmann::json*> profiled_launches(const nlohmann::json& report);
/// "  name (grid)x(block), Context 1, Stream 7, Device 0, CC 9.0\n"
std::string launch_heading(const nlohmann::json& launch, const NcuContext& context, const NcuOptions& options);
/// The context of one launch: a launch of another process than the run's root (its "process",
/// docs/runtime.md) has that process's ID and name.
NcuContext launch_context(const nlohmann::json& launch, const NcuContext& context);
/// ncu's "[PID] NAME@HOST" line before the first launch of a process in the text layouts: the
/// line when the launch's process differs from `*last_pid` (which it then becomes), else "".
std::string process_heading(const nlohmann::json& launch, const NcuContext& context, long* last_pid);
/// The 11 fields every CSV row of a launch starts with (ID ... CC), and their header.
std::vector<std::string> launch_csv_fields(std::size_t id, const nlohmann::json& launch, const NcuContext& context,
                                           const NcuOptions& options);
const std::vector<std::string>& launch_csv_header();

/// The results of the report's profiled launches in the layout `options` asks for.
std::string ncu_output(const nlohmann::json& report, const NcuContext& context, const NcuOptions& options);

}  // namespace warpscope::report
