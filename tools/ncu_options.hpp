// `warpscope run`'s Nsight Compute options, with ncu's names and meanings:
//   -k/--kernel-name NAME|regex:EXPR, --kernel-name-base function|demangled|mangled,
//   -s/--launch-skip N, -c/--launch-count N   which launches go through the memory model
//                                             (src/common/kernel_filter.hpp); the others run
//                                             without it, as under --no-stats
//   --metrics a,b,c, --csv, --print-summary none|per-kernel
//                                             results in ncu's layouts on stdout after the
//                                             program's output (src/report/ncu_output.hpp),
//                                             instead of warpscope's summary on stderr
// The filter reaches the runtime library through WARPSCOPE_KERNEL_NAME, WARPSCOPE_KERNEL_NAME_BASE,
// WARPSCOPE_LAUNCH_SKIP and WARPSCOPE_LAUNCH_COUNT (src/runtime/cudart/launch_selection.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arch/profile.hpp"

namespace CLI {
class App;
}

namespace warpscope::cli {

struct NcuRunOptions {
  std::string kernel_name;
  std::string kernel_name_base = "function";
  std::uint64_t launch_skip = 0;
  std::int64_t launch_count = -1;  // -1: no limit
  std::string metrics;             // comma-separated, as given
  bool csv = false;
  std::string print_summary = "none";
  std::vector<std::string> resolved_metrics;  // filled by check_ncu_options

  /// Whether the results are printed in ncu's layouts instead of warpscope's summary.
  bool ncu_output() const { return csv || !metrics.empty() || print_summary != "none"; }
};

void add_ncu_options(CLI::App& run, NcuRunOptions& options);

/// Checks the options before the program starts (a bad regular expression, an unknown metric:
/// warpscope::Error naming the option) and resolves --metrics; notes go to stderr.
void check_ncu_options(NcuRunOptions& options);

/// Sets the runtime's environment for the filter (in the child, before exec).
void export_ncu_environment(const NcuRunOptions& options);

/// Prints the results in ncu's layout on stdout, and on stderr which launches were not
/// profiled (or that none was).
void print_ncu_results(const nlohmann::json& report, const NcuRunOptions& options, long pid,
                       const std::string& executable, const arch::Profile& profile);

}  // namespace warpscope::cli
