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
/// The metrics of metrics_json() that the model estimates rather than derives exactly.
nlohmann::json estimated_json(const ModelResult& model);
/// `lines` of a launch: every CUDA source line with an executed instruction, in file and line
/// order, with its memory instructions. `code` is Module::instructions(kernel).
nlohmann::json lines_json(const ModelResult& model, const LaunchStats& exec, const std::vector<InstructionInfo>& code,
                          SourceCache& sources);
/// One instruction's entry of `lines[].instructions`.
nlohmann::json instruction_json(const InstructionStats& s, std::uint32_t pc, const InstructionInfo* info);

}  // namespace warpscope::stats
