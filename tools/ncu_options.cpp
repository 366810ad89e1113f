#include "ncu_options.hpp"

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/error.hpp"
#include "common/kernel_filter.hpp"
#include "report/ncu_output.hpp"
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
}

void check_ncu_options(NcuRunOptions& o) {
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
  std::vector<std::string> notes;
  o.resolved_metrics = report::resolve_metrics(requested, &notes);
  for (const auto& n : notes) std::cerr << "warpscope: " << n << "\n";
}

void export_ncu_environment(const NcuRunOptions& o) {
  if (!o.kernel_name.empty()) setenv("WARPSCOPE_KERNEL_NAME", o.kernel_name.c_str(), 1);
  setenv("WARPSCOPE_KERNEL_NAME_BASE", o.kernel_name_base.c_str(), 1);
  if (o.launch_skip != 0) setenv("WARPSCOPE_LAUNCH_SKIP", std::to_string(o.launch_skip).c_str(), 1);
  if (o.launch_count >= 0) setenv("WARPSCOPE_LAUNCH_COUNT", std::to_string(o.launch_count).c_str(), 1);
}

void print_ncu_results(const nlohmann::json& report, const NcuRunOptions& o, long pid, const std::string& executable,
                       const arch::Profile& profile) {
  report::NcuContext ctx;
  ctx.pid = pid;
  ctx.process = std::filesystem::path(executable).filename().string();
  ctx.cc = fmt::format("{}.{}", profile.cc_major, profile.cc_minor);
  report::NcuOptions n;
  n.metrics = o.resolved_metrics;
  n.csv = o.csv;
  n.print_summary = o.print_summary;
  std::cout << report::ncu_output(report, ctx, n) << std::flush;
  std::size_t total = 0, skipped = 0;
  for (const auto& l : report.value("launches", nlohmann::json::array())) {
    ++total;
    if (!l.value("profiled", true)) ++skipped;
  }
  if (total == skipped) {
    std::cerr << "warpscope: no kernels were profiled" << (total ? " (the launch filter selected none)" : "") << "\n";
  }
  if (skipped != 0) std::cerr << report::not_profiled_text(report);
}

}  // namespace warpscope::cli
