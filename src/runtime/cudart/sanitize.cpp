// What `warpscope sanitize` needs from the runtime (docs/sanitize.md): the API calls that
// failed, the device allocations never freed (--leak-check full) and each launch's racecheck and
// synccheck findings, all in the report's JSON; tools/sanitize_cmd.cpp prints them in
// compute-sanitizer's layout.
#include <fmt/format.h>

#include "runtime/cudart/runtime.hpp"

namespace warpscope::cudart {

namespace {

nlohmann::json site_json(const SanitizerSite& s) {
  return {{"pc", s.pc}, {"file", s.file}, {"line", s.line}, {"thread", {s.thread.x, s.thread.y, s.thread.z}},
          {"access", s.access}};
}

}  // namespace

nlohmann::json sanitizer_findings_json(const LaunchStats& stats) {
  nlohmann::json out = nlohmann::json::array();
  for (const SanitizerFinding& f : stats.sanitizer) {
    nlohmann::json j = {{"tool", f.tool},
                        {"kind", f.kind},
                        {"severity", f.warning ? "warning" : "error"},
                        {"kernel", f.kernel},
                        {"block", {f.block.x, f.block.y, f.block.z}},
                        {"first", site_json(f.first)},
                        {"count", f.count}};
    if (f.tool == "racecheck" && f.kind != "incomplete") {
      j["address"] = f.address;
      j["space"] = f.space;
      if (f.space == "global") j["first_block"] = {f.first_block.x, f.first_block.y, f.first_block.z};
      j["second"] = site_json(f.second);
    } else if (f.tool == "initcheck") {
      j["address"] = f.address;
      j["size"] = f.size;
    } else {
      j["detail"] = f.detail;
    }
    out.push_back(std::move(j));
  }
  // initcheck: reports past the kept ones (the first 1000 of the launch), counted.
  if (stats.sanitizer_unkept != 0)
    out.push_back({{"tool", "initcheck"}, {"kind", "unkept"}, {"count", stats.sanitizer_unkept}});
  return out;
}

void Runtime::note_api_error(const char* api, cudaError_t e) {
  if (sanitize_tool.empty() || e == kSuccess) return;
  // compute-sanitizer leaves out the answers that poll: cudaErrorNotReady of the queries.
  const std::string name = api;
  if (e == kErrNotReady && (name == "cudaEventQuery" || name == "cudaStreamQuery")) return;
  api_errors.push_back({{"api", name},
                        {"code", static_cast<int>(e)},
                        {"name", error_name(e)},
                        {"string", error_string(e)},
                        {"after_launch", launches.size()}});
}

void Runtime::note_unused(std::uint64_t base, std::uint64_t bytes) {
  if (!track_unused || !device_) return;
  const auto runs = device_->unwritten(base, bytes);
  if (runs.empty()) return;
  nlohmann::json r = nlohmann::json::array();
  for (const auto& [off, n] : runs) r.push_back({off, n});
  unused.push_back({{"address", base}, {"size", bytes}, {"unwritten", std::move(r)}});
}

void Runtime::note_leaks() {
  if (track_unused && device_) {
    for (const auto& [base, bytes] : allocations) note_unused(base, bytes);
  }
  if (!leak_check) return;
  for (const auto& [base, bytes] : allocations) leaks.push_back({{"address", base}, {"size", bytes}});
}

nlohmann::json Runtime::sanitizer_json() const {
  if (sanitize_tool.empty()) return nullptr;
  return {{"tool", sanitize_tool}, {"leak_check", leak_check}, {"api_errors", api_errors}, {"leaks", leaks},
          {"unused", unused}};
}

}  // namespace warpscope::cudart
