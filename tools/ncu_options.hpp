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
// WARPSCOPE_LAUNCH_SKIP and WARPSCOPE_LAUNCH_COUNT (src/profile/launch_selection.hpp).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arch/profile.hpp"
#include "report/metric_eval.hpp"

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
  std::string print_units = "auto";        // --print-units auto|base
  std::string print_kernel_base = "demangled";  // --print-kernel-base function|demangled|mangled
  std::vector<std::string> sections;      // --section (repeatable)
  std::string set;                        // --set basic|detailed|full|roofline
  std::string page;                       // --page raw|details|source ("": not given)
  std::string print_source = "cuda";      // --print-source (with --page source)
  std::string log_file;                   // --log-file: warpscope's output goes there
  std::uint64_t launch_skip_before_match = 0;
  std::string kernel_id;                  // --kernel-id context:stream:[regex:]name:invocation
  std::string cache_control = "all";      // --cache-control all|none
  std::string target_processes = "all";   // --target-processes all|application-only
  bool query_metrics = false;             // --query-metrics
  bool nvtx = false;                      // --nvtx (implied by --nvtx-include/-exclude)
  std::vector<std::string> nvtx_include, nvtx_exclude;
  std::string export_name;                // -o/--export NAME: NAME.ncu-rep (export_cmd.hpp)
  bool force_overwrite = false;           // -f/--force-overwrite: replace an existing report
  std::vector<std::string> resolved_metrics;   // filled by check_ncu_options
  std::vector<std::string> resolved_sections;  // filled by check_ncu_options (details page)

  /// Whether the results are printed in ncu's layouts instead of warpscope's summary.
  bool ncu_output() const {
    return csv || !metrics.empty() || print_summary != "none" || !sections.empty() || !set.empty() || !page.empty();
  }
};

void add_ncu_options(CLI::App& run, NcuRunOptions& options);

/// Checks the options before the program starts (a bad regular expression, an unknown metric:
/// warpscope::Error naming the option) and resolves --metrics; notes go to stderr.
void check_ncu_options(NcuRunOptions& options, const arch::Profile& profile);

/// Sets the runtime's environment for the filter (in the child, before exec).
void export_ncu_environment(const NcuRunOptions& options);

/// Prints the results in ncu's layout on stdout, and on stderr which launches were not
/// profiled (or that none was).
/// ncu's results; `out` is stdout, or the --log-file.
void print_ncu_results(const nlohmann::json& report, const NcuRunOptions& options, long pid,
                       const std::string& executable, const arch::Profile& profile, std::ostream& out);

/// The profile's units and peaks for derived metrics (rollups, rates).
report::MetricUnits metric_units(const arch::Profile& profile);

/// The options of Nsight Compute that warpscope does not have (for "unknown option" messages).
bool is_ncu_only_option(const std::string& name);

}  // namespace warpscope::cli
