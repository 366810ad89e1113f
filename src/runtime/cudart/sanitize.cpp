// What `warpscope sanitize` needs from the runtime (docs/sanitize.md): the API calls that
// failed, the device allocations never freed (--leak-check full) and each launch's racecheck and
// synccheck findings, all in the report's JSON; tools/sanitize_cmd.cpp prints them in
// compute-sanitizer's layout.
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "common/host_backtrace.hpp"
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
      if (f.space == "global" || f.space == "cluster") j["first_block"] = {f.first_block.x, f.first_block.y, f.first_block.z};
      if (f.space == "cluster") j["second_block"] = {f.second_block.x, f.second_block.y, f.second_block.z};
      j["second"] = site_json(f.second);
    } else if (f.tool == "initcheck") {
      j["address"] = f.address;
      j["size"] = f.size;
      j["space"] = f.space;  // "global", or "shared" (--initcheck-memory all)
    } else if (f.tool == "memcheck") {
      j["address"] = f.address;
      j["size"] = f.size;
      j["access"] = f.detail;
      j["lane"] = f.second.pc;
    } else {
      j["detail"] = f.detail;
    }
    out.push_back(std::move(j));
  }
  // initcheck: reports past the kept ones (the first 1000 of the launch), counted.
  if (stats.sanitizer_unkept != 0)
    out.push_back({{"tool", "initcheck"},
                   {"kind", "unkept"},
                   {"count", stats.sanitizer_unkept},
                   // past 4 Mi reads: not checked against other CTAs' writes (may include such reads)
                   {"unchecked", stats.sanitizer_unkept_unchecked}});
  return out;
}

void Runtime::configure_sanitizer() {
  auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v == nullptr ? "" : v);
  };
  sanitize_tool = env("WARPSCOPE_SANITIZE");
  track_unused = sanitize_tool == "initcheck" && env("WARPSCOPE_TRACK_UNUSED") == "1";
  leak_check = env("WARPSCOPE_LEAK_CHECK") == "full";
  host_backtrace = !sanitize_tool.empty() && env("WARPSCOPE_HOST_BACKTRACE") == "1";
  check_api_memory_access = env("WARPSCOPE_CHECK_API_MEMORY_ACCESS") != "no";
}

nlohmann::json Runtime::host_stack() const {
  if (!host_backtrace) return nullptr;
  nlohmann::json frames = nlohmann::json::array();
  // This function's own address names warpscope's module: its frames are left out.
  for (const HostFrame& f : warpscope::host_backtrace(reinterpret_cast<const void*>(&sanitizer_findings_json)))
    frames.push_back({{"function", f.function}, {"module", f.module}, {"path", f.path}, {"offset", f.offset}});
  return frames;
}

void Runtime::note_allocation(std::uint64_t base) {
  if (host_backtrace && (leak_check || track_unused)) allocation_stacks[base] = host_stack();
}

void Runtime::check_host_copy(std::uint64_t src, std::size_t bytes) {
  if (sanitize_tool != "initcheck" || !check_api_memory_access || !device_) return;
  // One report per 32-byte sector (aligned in the address space) holding unwritten bytes, at the
  // sector's first unwritten byte: the H200 reports 8 for a 256-byte copy of unwritten memory
  // (tests/hw/data/h200/sanitize/initcheck.txt, mode d2h).
  const auto runs = device_->unwritten(src, bytes);
  std::uint64_t last_sector = ~std::uint64_t{0};
  const nlohmann::json stack = host_stack();
  for (const auto& [off, n] : runs) {
    for (std::uint64_t a = src + off; a < src + off + n;) {
      const std::uint64_t sector = a & ~std::uint64_t{31};
      if (sector != last_sector) {
        api_accesses.push_back({{"api", current_api}, {"address", src}, {"size", bytes}, {"access", a},
                                {"direction", "source"}, {"after_launch", launches.size()}, {"host_stack", stack}});
        last_sector = sector;
      }
      a = sector + 32;
    }
  }
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
                        {"after_launch", launches.size()},
                        {"host_stack", host_stack()}});
  // Into the launch stream at once: a program that then aborts (std::terminate, abort(), a fatal
  // signal) writes no document, and warpscope sanitize reads the stream (docs/sanitize.md).
  if (!forked_child()) report_.stream_line([this] { return header_json(); }, {{"api_error", api_errors.back()}, {"tool", sanitize_tool}});
}

void Runtime::note_unused(std::uint64_t base, std::uint64_t bytes) {
  if (!track_unused || !device_) return;
  const auto runs = device_->unwritten(base, bytes);
  if (runs.empty()) return;
  nlohmann::json r = nlohmann::json::array();
  for (const auto& [off, n] : runs) r.push_back({off, n});
  auto stack = allocation_stacks.find(base);
  unused.push_back({{"address", base},
                    {"size", bytes},
                    {"unwritten", std::move(r)},
                    {"host_stack", stack == allocation_stacks.end() ? nlohmann::json(nullptr) : stack->second}});
}

void Runtime::note_leaks() {
  if (track_unused && device_) {
    for (const auto& [base, bytes] : allocations) note_unused(base, bytes);
  }
  if (!leak_check) return;
  for (const auto& [base, bytes] : allocations) {
    auto stack = allocation_stacks.find(base);
    leaks.push_back({{"address", base},
                     {"size", bytes},
                     {"host_stack", stack == allocation_stacks.end() ? nlohmann::json(nullptr) : stack->second}});
  }
  // Device-side malloc/new blocks never freed: the H200's memcheck lists them with the bytes
  // malloc was asked for, in address order, without a host backtrace (tests/hw/data/h200/sanitize/heap).
  if (device_) {
    for (const auto& [base, bytes] : device_->heap_blocks())
      leaks.push_back({{"address", base}, {"size", bytes}, {"device_heap", true}, {"host_stack", nullptr}});
  }
}

nlohmann::json Runtime::sanitizer_json() const {
  if (sanitize_tool.empty()) return nullptr;
  return {{"tool", sanitize_tool}, {"leak_check", leak_check}, {"api_errors", api_errors}, {"leaks", leaks},
          {"unused", unused}, {"api_accesses", api_accesses}};
}

}  // namespace warpscope::cudart
