// The statistics of a launch as the report's JSON (docs/report.md is the schema): the launch's
// metrics under Nsight Compute's names, the list of modelled ("estimated") ones, and the per-line
// table with its memory instructions and their sample accesses.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/collector.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::stats {

/// Reads source files once and hands out their lines ("" for a file or line that is missing).
class SourceCache {
 public:
  const std::string& line(const std::string& file, std::uint32_t line);

 private:
  std::map<std::string, std::vector<std::string>> files_;
};

/// `metrics` of a launch: ncu-named counters and derived figures (docs/report.md).
nlohmann::json metrics_json(const ModelResult& model, const LaunchStats& exec);

/// Nsight Compute's .min and .max over SMs of the L1's global and local counters and the shared
/// wavefronts, as the model places CTAs (ModelResult::per_sm): {"<base name>": {"min": m, "max": M}}
/// with the base names of metrics_json's `.sum` metrics (docs/report.md "unit_extremes").
nlohmann::json unit_extremes_json(const ModelResult& model);
/// The metrics of metrics_json() that the model estimates rather than derives exactly.
nlohmann::json estimated_json(const ModelResult& model);
/// `lines` of a launch: every CUDA source line with an executed instruction, in file and line
/// order, with its memory instructions. `code` is Module::instructions(kernel).
nlohmann::json lines_json(const ModelResult& model, const LaunchStats& exec, const std::vector<InstructionInfo>& code,
                          SourceCache& sources);
/// `local_arrays` of a launch: the private arrays the PTX keeps in local memory, found from the
/// frame offsets the local instructions touched (overlapping or adjacent ranges are one array),
/// each with the line that first writes it, the accesses whose offset changed at run time (the
/// index the compiler could not resolve: `dynamic_index[pc]`, from analysis::dynamic_local_index,
/// or an offset that changed at run time) and whether that index was uniform across the warp.
nlohmann::json local_arrays_json(const ModelResult& model, const std::vector<InstructionInfo>& code,
                                 const std::vector<bool>& dynamic_index);
/// CTA sampling: multiplies the counters the memory model made from the sampled CTAs by `scale`
/// (CTAs launched / CTAs sampled) in `metrics` and in each line of `lines` (not the interpreter's
/// instruction counts, which cover every CTA, nor ratios), and lists every scaled metric in
/// `estimated`. `lines[].instructions` keep the sampled CTAs' own counts.
void scale_sampled(nlohmann::json& metrics, nlohmann::json& estimated, nlohmann::json& lines, double scale);
/// One instruction's entry of `lines[].instructions`.
nlohmann::json instruction_json(const InstructionStats& s, std::uint32_t pc, const InstructionInfo* info);

}  // namespace warpscope::stats
