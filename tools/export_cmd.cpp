#include "export_cmd.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "common/error.hpp"
#include "export/ncu_rep.hpp"
#include "profile_option.hpp"
#include "report/ncu_output.hpp"

namespace warpscope::cli {
namespace fs = std::filesystem;

namespace {

ncurep::ExportProfile export_profile(const arch::Profile& p, const std::string& gpu) {
  ncurep::ExportProfile e;
  e.name = p.name;
  e.gpu = gpu.empty() ? p.gpu + " (modelled)" : gpu;
  e.cc_major = p.cc_major;
  e.cc_minor = p.cc_minor;
  e.units = metric_units(p);
  e.device_attributes = {{"device__attribute_multiprocessor_count", p.sm_count},
                         {"device__attribute_warp_size", p.warp_size},
                         {"device__attribute_max_threads_per_block", p.max_threads_per_block},
                         {"device__attribute_max_threads_per_multiprocessor", p.max_threads_per_sm},
                         {"device__attribute_max_registers_per_block", p.registers_per_block},
                         {"device__attribute_max_registers_per_multiprocessor", p.registers_per_sm},
                         {"device__attribute_max_shared_memory_per_block_optin", p.shared_bytes_per_block},
                         {"device__attribute_max_shared_memory_per_multiprocessor", p.shared_bytes_per_sm}};
  // The chip numbers Nsight Compute resolves a report's metric units with: 384 for all three on
  // the H100 (its ncu 2025.3 export, tests/hw/data/h100/*_ncu.csv) and on the H200 (its
  // ncu 2025.3 report, tests/hw/data/h200/ncurep/probe_raw.csv); the cc 9.0 profiles (hopper,
  // h200) write them, others' chips are not known.
  if (p.cc_major == 9 && p.cc_minor == 0)
    for (const char* a : {"device__attribute_chip", "device__attribute_architecture", "device__attribute_implementation"})
      e.device_attributes.emplace_back(a, 384);
  return e;
}

/// The report's own profile: a built-in one by its "arch" name, else `fallback`.
arch::Profile profile_of(const nlohmann::json& report, const arch::Profile& fallback) {
  if (report.contains("arch") && report["arch"].is_string()) {
    try {
      return arch::builtin_profile(report["arch"].get<std::string>());
    } catch (const Error&) {
    }
  }
  return fallback;
}

/// A warpscope .ncu-rep read back as the report JSON's launches (its primary profile's block), so
/// that compare computes derived metrics from it as from a `run --json` report.
nlohmann::json as_report(const ncurep::Report& rep) {
  nlohmann::json j;
  j["launches"] = nlohmann::json::array();
  for (const auto& r : rep.results) {
    if (r.block != 0) continue;
    nlohmann::json m = nlohmann::json::object();
    for (const auto& [n, v] : r.metrics)
      if (const auto x = v.as_number()) m[n] = *x;
      else if (n == "warpscope_profile" && j.find("arch") == j.end()) j["arch"] = v.text;
    j["launches"].push_back({{"index", j["launches"].size()},
                             {"kernel", r.mangled},
                             {"grid", r.grid},
                             {"block", r.block_size},
                             {"metrics", m},
                             {"profiled", true}});
  }
  return j;
}

}  // namespace

std::string check_export_path(const NcuRunOptions& o) {
  if (o.export_name.empty()) return "";
  const std::string path = ncurep::report_path(o.export_name);
  std::error_code ec;
  const auto st = fs::status(path, ec);
  if (!ec && fs::exists(st)) {
    if (!fs::is_regular_file(st))
      fail(ErrorKind::kUsage, "-o {}: not a regular file (the report is written there; give a file name)", path);
    if (!o.force_overwrite)
      fail(ErrorKind::kUsage, "-o {}: the report file already exists; use -f (--force-overwrite) to replace it", path);
  }
  const fs::path dir = fs::path(path).has_parent_path() ? fs::path(path).parent_path() : fs::path(".");
  if (!fs::is_directory(dir, ec)) fail(ErrorKind::kIo, "-o {}: no directory {}", path, dir.string());
  if (access(dir.c_str(), W_OK) != 0) fail(ErrorKind::kIo, "-o {}: cannot write into {}", path, dir.string());
  return path;
}

bool write_export(const std::string& path, const nlohmann::json& report, const arch::Profile& profile, long pid,
                  const std::string& executable, const std::vector<std::string>& arguments) {
  // As ncu: no profiled kernel, no report file.
  if (report::profiled_launches(report).empty()) {
    std::cerr << "warpscope: no kernels were profiled; " << path << " is not written\n";
    return false;
  }
  std::vector<ncurep::ExportProfile> profiles = {export_profile(profile, "")};
  for (const auto& a : report.value("compare_archs", nlohmann::json::array()))
    if (a.is_string()) profiles.push_back(export_profile(arch::builtin_profile(a.get<std::string>()), ""));
  ncurep::ExportContext ctx;
  ctx.pid = pid;
  ctx.process = fs::path(executable).filename().string();
  ctx.executable = executable;
  for (const auto& a : arguments) ctx.arguments += (ctx.arguments.empty() ? "" : " ") + a;
  ctx.creation_time_ns = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch()).count());
  // The FileHeader version, for trying what a given Nsight Compute accepts (docs/report.md).
  if (const char* v = std::getenv("WARPSCOPE_NCU_REP_VERSION"); v != nullptr && *v != '\0')
    ctx.file_version = static_cast<std::uint32_t>(std::strtoul(v, nullptr, 10));
  ncurep::write_report_file(path, report, profiles, ctx);
  return true;
}

void add_import_command(CLI::App& app, ImportOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "import", "Print the results of an Nsight Compute report (.ncu-rep, a real GPU's or warpscope's) in ncu's "
                "raw-page layout");
  cmd->add_option("report", o.path, "The .ncu-rep file")->required();
  cmd->add_flag("--csv", o.csv, "As ncu --csv --page raw prints it");
  cmd->add_flag("--json", o.json, "As JSON: the devices, and per result its names, grid, block and metrics");
}

void add_compare_command(CLI::App& app, CompareOptions& o) {
  CLI::App* cmd = app.add_subcommand(
      "compare", "Put a real GPU's Nsight Compute report beside warpscope's prediction of the same program, "
                 "metric by metric");
  cmd->add_option("measured", o.measured, "The GPU's report (.ncu-rep)")->required();
  cmd->add_option("predicted", o.predicted, "warpscope's report of the same program: `run --json` or `run -o`")
      ->required();
  cmd->add_option("--arch", o.arch,
                  "The profile for derived metrics: " + builtin_arch_names() + " (default: the prediction's own)");
  cmd->add_flag("--csv", o.csv, "One CSV row per result and metric");
}

int run_import(const ImportOptions& o) {
  const auto rep = ncurep::read_report_file(o.path);
  if (o.json) {
    std::cout << ncurep::report_json(rep).dump(2) << "\n";
  } else {
    std::cout << (o.csv ? ncurep::raw_csv(rep) : ncurep::raw_text(rep)) << std::flush;
  }
  if (rep.results.empty()) std::cerr << "warpscope: " << o.path << " has no results\n";
  return 0;
}

int run_compare(const CompareOptions& o) {
  const auto measured = ncurep::read_report_file(o.measured);
  nlohmann::json predicted;
  if (o.predicted.ends_with(".ncu-rep")) {
    predicted = as_report(ncurep::read_report_file(o.predicted));
  } else {
    std::ifstream in(o.predicted);
    if (!in) fail(ErrorKind::kIo, "{}: cannot read", o.predicted);
    try {
      in >> predicted;
    } catch (const std::exception& e) {
      fail(ErrorKind::kIo, "{}: not a warpscope JSON report: {}", o.predicted, e.what());
    }
    if (!predicted.is_object() || !predicted.contains("launches"))
      fail(ErrorKind::kIo, "{}: not a warpscope JSON report (no \"launches\")", o.predicted);
  }
  const arch::Profile& fallback = arch::builtin_profile(arch::kDefaultProfile);
  const arch::Profile profile = o.arch.empty() ? profile_of(predicted, fallback) : arch::builtin_profile(o.arch);
  std::cout << ncurep::compare_text(measured, predicted, metric_units(profile), o.csv) << std::flush;
  return 0;
}

}  // namespace warpscope::cli
