// Nsight Compute's sections, sets and pages made from the report's JSON (docs/report.md
// "Sections, sets and pages"):
//  - `--section NAME` / `--set basic|detailed|full` with `--page details` (the default page when a
//    section is asked for): per launch, "Section: <display name>" and a Metric Name / Metric Unit /
//    Metric Value table, as `ncu --section` prints it (tests/hw/data/h200/ncu_cli/section_*.txt);
//    with --csv, ncu's details CSV (one row per section metric).
//  - `--page source --print-source cuda`: each profiled launch's CUDA lines with the model's
//    per-line counters.
// A section warpscope has no metrics for (PM sampling, NVLink, ...) is named in a note, never
// filled with guesses; a row the model cannot give prints "n/a".
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/ncu_output.hpp"

namespace warpscope::report {

/// The section identifiers ncu 2025.3 lists (--list-sections), and whether warpscope fills each.
struct SectionInfo {
  std::string identifier;    // SpeedOfLight
  std::string display_name;  // GPU Speed Of Light Throughput
  bool modelled = false;
};
const std::vector<SectionInfo>& ncu_sections();

/// The rows of a section that show one metric under its Nsight Compute name (label, unit as the
/// details page prints it, metric); rows made from other figures are left out. For the sections
/// of an .ncu-rep (src/export).
struct SectionMetric {
  std::string label, unit, metric;
};
std::vector<SectionMetric> section_metrics(const std::string& section);

/// The sections of --set NAME (ncu 2025.3's basic, detailed, full); throws Error (kUsage) for an
/// unknown set.
std::vector<std::string> set_sections(const std::string& set);

/// Resolves --section values (identifiers, or regex:EXPR over them): throws Error (kUsage) for a
/// name ncu does not have; `notes` gets a line for each section warpscope does not model.
std::vector<std::string> resolve_sections(const std::vector<std::string>& requested, std::vector<std::string>* notes);

/// The details page of the profiled launches for these sections (ncu's order).
std::string details_page(const nlohmann::json& report, const NcuContext& context, const NcuOptions& options,
                         const std::vector<std::string>& sections);

/// The source page: the CUDA lines of each profiled launch with their counters.
std::string source_page(const nlohmann::json& report, const NcuContext& context, const NcuOptions& options);

/// `warpscope --query-metrics`: every metric name warpscope reports, with its unit and a
/// description, in ncu's --query-metrics layout.
std::string query_metrics_text();

}  // namespace warpscope::report
