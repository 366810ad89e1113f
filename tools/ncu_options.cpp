#include "ncu_options.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <regex>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/error.hpp"
#include "common/kernel_filter.hpp"
#include "report/ncu_output.hpp"
#include "report/json_access.hpp"
#include "report/ncu_sections.hpp"
#include "report/text.hpp"

namespace warpscope::cli {

void add_ncu_options(CLI::App& cmd, NcuRunOptions& o) {
  const std::string group = "Nsight Compute's options (ncu's names and meanings)";
  cmd.add_option("-k,--kernel-name", o.kernel_name,
                 "Profile only the kernels with this name (exact), or regex:EXPR for names EXPR is found in; the "
                 "others run without the memory model")
      ->group(group);
  cmd.add_option("--kernel-name-base", o.kernel_name_base,
                 "The name --kernel-name matches: function (saxpy1), demangled (saxpy1(float *, float *, float, "
                 "unsigned long)) or mangled (_Z6saxpy1PfS_fm)")
      ->check(CLI::IsMember({"function", "demangled", "mangled"}))
      ->capture_default_str()
      ->group(group);
  cmd.add_option("-s,--launch-skip", o.launch_skip,
                 "Skip the first N launches that match the kernel filter")
      ->capture_default_str()
      ->group(group);
  cmd.add_option("-c,--launch-count", o.launch_count,
                 "Profile at most N launches that match the kernel filter (after the skipped ones)")
      ->check(CLI::NonNegativeNumber)
      ->group(group);
  cmd.add_option("--metrics", o.metrics,
                 "Report these metrics (a,b,c; regex:EXPR selects by name), in ncu's layout on stdout")
      ->group(group);
  cmd.add_flag("--csv", o.csv, "Print the results as ncu --csv --page raw does (stdout)")->group(group);
  cmd.add_option("--print-summary", o.print_summary,
                 "per-kernel: one result per kernel and launch shape, with the minimum, maximum and average over "
                 "its launches")
      ->check(CLI::IsMember({"none", "per-kernel"}))
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--section", o.sections,
                 "Print these sections (ncu's identifiers: SpeedOfLight, MemoryWorkloadAnalysis, "
                 "MemoryWorkloadAnalysis_Tables, ComputeWorkloadAnalysis, LaunchStats, Occupancy, SourceCounters; "
                 "regex:EXPR), on the details page")
      ->group(group);
  cmd.add_option("--set", o.set, "Print the sections of this set: basic, detailed, full or roofline")
      ->check(CLI::IsMember({"basic", "detailed", "full", "roofline"}))
      ->group(group);
  cmd.add_option("--page", o.page,
                 "raw (every metric), details (sections; the default with --section/--set) or source (CUDA lines "
                 "with their counters)")
      ->check(CLI::IsMember({"raw", "details", "source"}))
      ->group(group);
  cmd.add_option("--print-source", o.print_source, "With --page source: cuda (the only view warpscope has)")
      ->check(CLI::IsMember({"cuda", "ptx", "sass", "cuda,sass", "cuda,ptx", "sass,cuda", "ptx,cuda"}))
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--print-units", o.print_units,
                 "auto (text scaled as ncu scales it: Mbyte, us, Gbyte/s) or base (bytes, ns, byte/s)")
      ->check(CLI::IsMember({"auto", "base"}))
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--print-kernel-base", o.print_kernel_base, "The kernel name printed: function, demangled or mangled")
      ->check(CLI::IsMember({"function", "demangled", "mangled"}))
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--log-file", o.log_file,
                 "Write warpscope's output (the summary, or ncu's layouts) to FILE instead of stderr/stdout; the "
                 "program's own output is left alone")
      ->group(group);
  cmd.add_option("--launch-skip-before-match", o.launch_skip_before_match,
                 "Do not profile the first N launches, whatever their name")
      ->group(group);
  cmd.add_option("--kernel-id", o.kernel_id,
                 "context:stream:[regex:]name:invocation, e.g. ::regex:gemm:2 (the second launch whose name "
                 "matches gemm); context 1 and stream empty are the only ones warpscope has")
      ->group(group);
  cmd.add_option("--cache-control", o.cache_control,
                 "all: each launch starts with cold caches, as ncu flushes them (the model's only mode; none is "
                 "refused)")
      ->check(CLI::IsMember({"all", "none"}))
      ->capture_default_str()
      ->group(group);
  cmd.add_option("--target-processes", o.target_processes,
                 "all: every process of the program that uses CUDA is profiled, one report with a process column "
                 "(ncu's default); application-only: the root process alone (its children run unprofiled)")
      ->check(CLI::IsMember({"all", "application-only"}))
      ->capture_default_str()
      ->group(group);
  cmd.add_flag("--nvtx", o.nvtx, "Record the program's NVTX push/pop ranges for each launch (the JSON's \"nvtx\", "
               "and the text layout's NVTX stack)")
      ->group(group);
  cmd.add_option("--nvtx-include", o.nvtx_include,
                 "Profile only launches inside these NVTX push/pop ranges: A/B/ (B nested in A, from the outermost), "
                 "Domain@A/, regex:EXPR (implies --nvtx)")
      ->group(group);
  cmd.add_option("--nvtx-exclude", o.nvtx_exclude,
                 "Do not profile launches inside these NVTX push/pop ranges (same syntax; implies --nvtx)")
      ->group(group);
  cmd.add_option("-o,--export", o.export_name,
                 "Write the profiled launches to NAME.ncu-rep, Nsight Compute's report file (one result per launch "
                 "and profile; ncu --import reads it)")
      ->group(group);
  cmd.add_flag("-f,--force-overwrite", o.force_overwrite, "Replace an existing -o report (refused otherwise)")
      ->group(group);
  cmd.add_flag("--query-metrics", o.query_metrics, "List the metrics warpscope reports, with units and descriptions")
      ->group(group);
}

namespace {

/// --kernel-id context:stream:[regex:]name:invocation, as the filter options it means.
void apply_kernel_id(NcuRunOptions& o) {
  if (o.kernel_id.empty()) return;
  if (!o.kernel_name.empty() || o.launch_skip != 0 || o.launch_count >= 0)
    fail(ErrorKind::kUsage, "--kernel-id cannot be combined with -k, -s or -c (it sets all three)");
  const std::string& id = o.kernel_id;
  const std::size_t c1 = id.find(':'), c2 = c1 == std::string::npos ? c1 : id.find(':', c1 + 1);
  const std::size_t last = id.rfind(':');
  if (c2 == std::string::npos || last <= c2)
    fail(ErrorKind::kUsage, "--kernel-id {}: expected context:stream:[regex:]name:invocation (e.g. ::regex:gemm:2)", id);
  const std::string context = id.substr(0, c1), stream = id.substr(c1 + 1, c2 - c1 - 1);
  const std::string name = id.substr(c2 + 1, last - c2 - 1), invocation = id.substr(last + 1);
  if (!context.empty() && context != "1")
    fail(ErrorKind::kUsage, "--kernel-id {}: context {} does not exist (warpscope runs one context, 1)", id, context);
  if (!stream.empty())
    fail(ErrorKind::kUsage, "--kernel-id {}: a stream filter is not supported by warpscope; leave the stream empty", id);
  if (name.empty()) fail(ErrorKind::kUsage, "--kernel-id {}: no kernel name", id);
  o.kernel_name = name;
  if (!invocation.empty()) {
    if (invocation.find_first_not_of("0123456789") != std::string::npos || std::stoull(invocation) == 0)
      fail(ErrorKind::kUsage, "--kernel-id {}: the invocation must be a number from 1 (the N-th matching launch)", id);
    o.launch_skip = std::stoull(invocation) - 1;
    o.launch_count = 1;
  }
}

}  // namespace

report::MetricUnits metric_units(const arch::Profile& p) {
  report::MetricUnits u;
  if (p.ncu_smsp_per_sm != 0) {
    u.sm = p.sm_count;
    u.smsp = p.sm_count * p.ncu_smsp_per_sm;
  }
  u.lts = p.ncu_lts_units;
  u.dram = p.ncu_dram_units;
  u.dram_bytes_per_second = p.dram_bandwidth_gbps * 1e9;
  u.sm_clock_hz = p.sm_clock_mhz * 1e6;
  u.gpu = p.name;
  return u;
}

bool is_ncu_only_option(const std::string& name) {
  static const char* kNcu[] = {
      "--app-replay-buffer", "--app-replay-match", "--app-replay-mode", "--apply-rules", "--call-stack",
      "--call-stack-type", "--check-exit-code", "--chips", "--clock-control", "--config-file", "--config-file-path",
      "--devices", "--disable-extra-suffixes", "--disable-profiler-start-stop", "--filter-mode",
      "--forward-signals", "--graph-profiling", "--hostname", "--import-sass", "--import-source",
      "--injection-path-32", "--injection-path-64", "--kill", "--list-chips", "--list-metrics", "--list-rules",
      "--list-sections", "--list-sets", "--max-connections", "--mode", "--mps", "--mps-num-clients", "--mps-timeout",
      "--native-exclude", "--native-include", "--null-stdin", "--nvtx-push-pop-scope", "--open-in-ui", "--pipeline-boost-state", "--pm-sampling-buffer-size",
      "--pm-sampling-interval", "--pm-sampling-max-passes", "--port", "--preload-library", "--print-details",
      "--print-fp", "--print-metric-attribution", "--print-metric-instances", "--print-metric-name",
      "--print-nvtx-rename", "--print-rule-details", "--profile-from-start", "--python-exclude", "--python-include",
      "--query-metrics-collection", "--query-metrics-mode", "--range-filter", "--range-replay-options",
      "--rename-kernels", "--rename-kernels-export", "--rename-kernels-path", "--replay-mode", "--resolve-source-file",
      "--rule", "--section-folder", "--section-folder-recursive", "--section-folder-restore", "--source-folders",
      "--support-32bit", "--target-processes-filter", "--verbose",
      "--warp-sampling-buffer-size", "--warp-sampling-interval", "--warp-sampling-max-passes"};
  for (const char* n : kNcu)
    if (name == n) return true;
  return false;
}

void check_ncu_options(NcuRunOptions& o, const arch::Profile& profile) {
  apply_kernel_id(o);
  if (o.page == "source" && o.print_source != "cuda")
    fail(ErrorKind::kUsage, "--print-source {}: warpscope's source page has the CUDA lines only (the machine code and "
         "PTX of each memory instruction are in --json, \"instructions\")", o.print_source);
  if (!o.page.empty() && o.page != "details" && (!o.sections.empty() || !o.set.empty()))
    fail(ErrorKind::kUsage, "--section and --set print on the details page, not --page {}", o.page);
  std::vector<std::string> notes;
  if (!o.sections.empty() || !o.set.empty() || o.page == "details") {
    std::vector<std::string> asked = o.sections;
    if (!o.set.empty()) {
      const auto s = report::set_sections(o.set);
      asked.insert(asked.end(), s.begin(), s.end());
    }
    if (asked.empty()) asked = report::set_sections("basic");  // ncu's default set
    o.resolved_sections = report::resolve_sections(asked, &notes);
  }
  if (!o.nvtx_include.empty() || !o.nvtx_exclude.empty()) o.nvtx = true;
  for (const auto* list : {&o.nvtx_include, &o.nvtx_exclude})
    for (const auto& e : *list) {
      if (e.rfind("regex:", 0) == 0) {
        try {
          (void)std::regex(e.substr(6), std::regex::ECMAScript);
        } catch (const std::regex_error& err) {
          fail(ErrorKind::kUsage, "--nvtx-include/-exclude {}: not a regular expression: {}", e, err.what());
        }
      } else if (e.empty() || e.back() != '/') {
        fail(ErrorKind::kUsage,
             "--nvtx-include/-exclude {}: warpscope matches push/pop ranges only, written A/ or A/B/ (start/end "
             "ranges are not recorded)", e);
      }
    }
  if (o.cache_control == "none")
    fail(ErrorKind::kUsage, "--cache-control none: not modelled; every launch starts with cold L1 and L2 caches in "
         "warpscope, as under ncu's default --cache-control all");


  KernelFilterOptions f;
  f.kernel_name = o.kernel_name;
  f.base = o.kernel_name_base;
  (void)KernelFilter(f);  // throws for a bad base or regular expression
  std::vector<std::string> requested;
  std::stringstream in(o.metrics);
  for (std::string m; std::getline(in, m, ',');) {
    const auto b = m.find_first_not_of(" \t"), e = m.find_last_not_of(" \t");
    if (b != std::string::npos) requested.push_back(m.substr(b, e - b + 1));
  }
  if (!o.metrics.empty() && requested.empty()) fail(ErrorKind::kUsage, "--metrics: no metric named");
  o.resolved_metrics = report::resolve_metrics(requested, &notes, metric_units(profile));
  for (const auto& n : notes) std::cerr << "warpscope: " << n << "\n";
}

void export_ncu_environment(const NcuRunOptions& o) {
  if (!o.kernel_name.empty()) setenv("WARPSCOPE_KERNEL_NAME", o.kernel_name.c_str(), 1);
  setenv("WARPSCOPE_KERNEL_NAME_BASE", o.kernel_name_base.c_str(), 1);
  if (o.launch_skip != 0) setenv("WARPSCOPE_LAUNCH_SKIP", std::to_string(o.launch_skip).c_str(), 1);
  if (o.launch_count >= 0) setenv("WARPSCOPE_LAUNCH_COUNT", std::to_string(o.launch_count).c_str(), 1);
  auto lines = [](const std::vector<std::string>& v) {
    std::string s;
    for (const auto& e : v) s += e + "\n";
    return s;
  };
  if (!o.nvtx_include.empty()) setenv("WARPSCOPE_NVTX_INCLUDE", lines(o.nvtx_include).c_str(), 1);
  if (!o.nvtx_exclude.empty()) setenv("WARPSCOPE_NVTX_EXCLUDE", lines(o.nvtx_exclude).c_str(), 1);
  if (o.launch_skip_before_match != 0)
    setenv("WARPSCOPE_LAUNCH_SKIP_BEFORE_MATCH", std::to_string(o.launch_skip_before_match).c_str(), 1);
  setenv("WARPSCOPE_TARGET_PROCESSES", o.target_processes.c_str(), 1);
}

void print_ncu_results(const nlohmann::json& report, const NcuRunOptions& o, long pid, const std::string& executable,
                       const arch::Profile& profile, std::ostream& out) {
  report::NcuContext ctx;
  ctx.pid = pid;
  ctx.process = std::filesystem::path(executable).filename().string();
  ctx.cc = fmt::format("{}.{}", profile.cc_major, profile.cc_minor);
  report::NcuOptions n;
  n.metrics = o.resolved_metrics;
  n.csv = o.csv;
  n.print_summary = o.print_summary;
  n.units = metric_units(profile);
  n.print_units_base = o.print_units == "base";
  n.kernel_base = o.print_kernel_base;
  n.nvtx = o.nvtx;
  if (o.page == "source") {
    out << report::source_page(report, ctx, n) << std::flush;
  } else if (!o.resolved_sections.empty() && o.metrics.empty()) {
    out << report::details_page(report, ctx, n, o.resolved_sections) << std::flush;
  } else {
    if (!o.resolved_sections.empty()) out << report::details_page(report, ctx, n, o.resolved_sections);
    out << report::ncu_output(report, ctx, n) << std::flush;
  }
  std::size_t total = 0, skipped = 0;
  for (const auto& l : report::array_member(report, "launches")) {
    ++total;
    if (!l.value("profiled", true)) ++skipped;
  }
  std::ostream& notes = &out == &std::cout ? std::cerr : out;
  if (total == skipped) {
    notes << "warpscope: no kernels were profiled" << (total ? " (the launch filter selected none)" : "") << "\n";
  }
  if (skipped != 0) notes << report::not_profiled_text(report);
}

}  // namespace warpscope::cli
