// Nsight Compute's report file on the command line (src/export/ncu_rep.hpp):
//   warpscope run -o NAME [-f] ...       NAME.ncu-rep of the profiled launches (checked before the
//                                        program runs; written after it)
//   warpscope import REPORT.ncu-rep      any .ncu-rep's results (a real GPU's too): ncu's raw page
//                                        as text or --csv, or --json
//   warpscope compare MEASURED.ncu-rep PREDICTED
//                                        a real GPU's results beside warpscope's (PREDICTED: a
//                                        `run --json` report or a `run -o` .ncu-rep), metric by metric
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arch/profile.hpp"
#include "ncu_options.hpp"

namespace CLI {
class App;
}

namespace warpscope::cli {

/// The .ncu-rep path -o asks for, checked as ncu checks it before profiling: NAME gets .ncu-rep
/// unless it ends with it; an existing report is refused without -f; a path that exists must be a
/// regular file; the directory must be writable. "" without -o.
std::string check_export_path(const NcuRunOptions& options);

/// Writes the report's profiled launches to `path` (the report's own profile, then the
/// --compare-arch ones named in its "compare_archs"); with none profiled, says so and writes
/// nothing, as ncu.
bool write_export(const std::string& path, const nlohmann::json& report, const arch::Profile& profile, long pid,
                  const std::string& executable, const std::vector<std::string>& arguments);

struct ImportOptions {
  std::string path;
  bool csv = false;
  bool json = false;
};

struct CompareOptions {
  std::string measured;
  std::string predicted;
  std::string arch;  // for derived metrics; default: the prediction's own profile
  bool csv = false;
};

void add_import_command(CLI::App& app, ImportOptions& options);
void add_compare_command(CLI::App& app, CompareOptions& options);
int run_import(const ImportOptions& options);
int run_compare(const CompareOptions& options);

}  // namespace warpscope::cli
