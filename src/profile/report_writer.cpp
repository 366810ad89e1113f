// The report document and its life cycle (docs/runtime.md, "Processes and the report's life").
//  - WARPSCOPE_REPORT=FILE: the whole document is written to FILE when the program exits (or a
//    signal or --timeout stops it), as before.
//  - WARPSCOPE_REPORT_DIR=DIR (what `warpscope run` sets): every process that uses CUDA writes
//    DIR/<pid>.stream.jsonl as it goes, one line per finished launch, each written with one
//    write(2) the moment the launch ends, so that a host crash or a SIGKILL loses no finished
//    launch; and DIR/<pid>.json, the whole document, when it exits normally. warpscope run merges
//    the processes' documents (src/report/processes.hpp).
#include <fcntl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "analysis/ptxas.hpp"
#include "profile/launch_selection.hpp"
#include "profile/report_writer.hpp"

namespace warpscope::profiling {
namespace {

std::string env_of(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

std::string read_small_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  std::string s((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return s;
}

}  // namespace

nlohmann::json launch_json(const LaunchRecord& r, std::size_t index) {
  nlohmann::json l;
  l["kernel"] = r.kernel;
  l["name"] = r.name;
  l["grid"] = {r.grid.x, r.grid.y, r.grid.z};
  l["block"] = {r.block.x, r.block.y, r.block.z};
  l["dynamic_shared_bytes"] = r.dynamic_shared;
  l["registers"] = r.registers < 0 ? nlohmann::json(nullptr) : nlohmann::json(r.registers);
  l["stream"] = r.stream;
  l["module"] = r.module;
  l["wall_ms"] = r.wall_ms;
  l["host_time_ns"] = r.host_time_ns;
  l["host_peak_rss_bytes"] = r.host_peak_rss_bytes;
  l["index"] = index;
  l["metrics"] = r.metrics;
  l["estimated"] = r.estimated;
  l["lines"] = r.lines;
  l["advice"] = r.advice;
  l["compare"] = r.compare;
  l["memcheck"] = r.memcheck;
  if (!r.sanitizer.is_null()) l["sanitizer"] = r.sanitizer;
  if (!r.host_stack.is_null()) l["host_stack"] = r.host_stack;
  l.update(r.extra);
  if (!r.error.empty()) l["error"] = r.error;
  l["profiled"] = r.profiled;
  if (!r.profiled) l["not_profiled"] = r.not_profiled;
  if (!r.nvtx.is_null()) l["nvtx"] = r.nvtx;
  if (!r.launched_from_device.is_null()) l["launched_from_device"] = r.launched_from_device;
  if (!r.incomplete.is_null()) l["incomplete"] = r.incomplete;
  return l;
}

namespace {

/// Writes all of `s` to `fd` (a stream line: one write(2) unless the kernel splits it).
bool write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

// The unit a profile's global transactions are counted in (metrics global_transactions).
std::string transaction_unit(const arch::Profile& p) {
  switch (p.coalescing) {
    case arch::Coalescing::kCc10: return "64/128/256-byte segments per coalesced half-warp, else 32 bytes per thread";
    case arch::Coalescing::kCc12: return "32/64/128-byte segments per half-warp";
    case arch::Coalescing::kLines:
      return fmt::format("{}-byte lines (loads cached in L1), 32-byte segments (uncached loads, stores)", p.line_bytes);
    case arch::Coalescing::kSectors: return fmt::format("{}-byte sectors", p.sector_bytes);
  }
  return "";
}

std::uint64_t monotonic_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<std::uint64_t>(ts.tv_nsec);
}

bool ReportWriter::configure() {
  path_ = env_of("WARPSCOPE_REPORT");
  const std::string dir = env_of("WARPSCOPE_REPORT_DIR");
  const pid_t pid = getpid();
  process_["pid"] = pid;
  process_["ppid"] = getppid();
  process_["start_ns"] = monotonic_ns();
  {
    // The executable's file name (what ncu's "Process Name" shows) and the command line.
    char exe[4096];
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const std::string path = n > 0 ? std::string(exe, static_cast<std::size_t>(n)) : std::string();
    process_["exe"] = path;
    process_["name"] = path.substr(path.find_last_of('/') + 1);
    std::string cmdline = read_small_file("/proc/self/cmdline");
    nlohmann::json args = nlohmann::json::array();
    std::size_t start = 0;
    while (start < cmdline.size()) {
      const std::size_t end = cmdline.find('\0', start);
      args.push_back(cmdline.substr(start, (end == std::string::npos ? cmdline.size() : end) - start));
      if (end == std::string::npos) break;
      start = end + 1;
    }
    process_["args"] = std::move(args);
  }
  const std::string root = env_of("WARPSCOPE_ROOT_PID");
  const bool is_root = root.empty() || std::atoll(root.c_str()) == static_cast<long long>(pid);
  process_["root"] = is_root;
  if (env_of("WARPSCOPE_TARGET_PROCESSES") == "application-only" && !is_root) {
    // ncu's --target-processes application-only: a child process runs, unprofiled, and writes
    // no report (docs/runtime.md).
    path_.clear();
    return false;
  }
  if (!dir.empty()) {
    path_ = fmt::format("{}/{}.json", dir, pid);
    stream_path_ = fmt::format("{}/{}.stream.jsonl", dir, pid);
  }
  return true;
}

nlohmann::json ReportWriter::header_json(const HeaderFacts& facts) const {
  nlohmann::json j;
  j["tool"] = {{"name", "warpscope"}, {"version", WARPSCOPE_VERSION}};
  j["arch"] = facts.profile.name;
  j["gpu"] = facts.profile.gpu;
  j["transaction_unit"] = transaction_unit(facts.profile);
  j["memory_model"] = facts.memory_model;
  j["schema_version"] = 1;
  {
    // Where registers, stack frames and spills come from (docs/analysis.md "ptxas").
    nlohmann::json px;
    const std::string choice = env_of("WARPSCOPE_PTXAS");
    if (choice == "none") {
      px = {{"available", false}, {"path", ""}, {"note", "WARPSCOPE_PTXAS=none"}};
    } else {
      analysis::ptxas::SearchPaths where = analysis::ptxas::SearchPaths::from_environment();
      if (!choice.empty()) where.fallback = choice;
      const analysis::ptxas::Located found = analysis::ptxas::find_ptxas(where);
      px = {{"available", found.found()}, {"path", found.path}, {"note", found.reason}};
    }
    j["ptxas"] = std::move(px);
  }
  j["compare_archs"] = nlohmann::json::array();
  for (const arch::Profile& p : facts.compare) j["compare_archs"].push_back(p.name);
  j["event_time"] = facts.event_time_wall ? "wall" : "predicted";
  j["timing_note"] = facts.event_time_wall
                         ? "cudaEventElapsedTime and wall_ms are the emulator's wall time, not GPU time"
                         : "cudaEventElapsedTime is the predicted GPU time of the launches between the records (the "
                           "time model, docs/time.md; estimated); wall_ms is the emulator's wall time";
  if (facts.launch_filter != nullptr) j["launch_filter"] = launch_filter_json(facts.launch_filter->options());
  j["process"] = process_;
  return j;
}

void stamp_launch_end(LaunchRecord& rec) {
  rec.host_time_ns = monotonic_ns();
  rusage usage{};
  if (getrusage(RUSAGE_SELF, &usage) == 0) rec.host_peak_rss_bytes = static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;
}

void ReportWriter::stream_launch(const std::function<nlohmann::json()>& header, const LaunchRecord& rec,
                                 std::size_t index, double gpu_ns, std::uint64_t unpredicted_launches) {
  if (stream_path_.empty() || stream_failed_) return;
  stream_line(header, {{"launch", launch_json(rec, index)},
                       {"predicted_gpu_ns", gpu_ns},
                       {"unpredicted_launches", unpredicted_launches}});
}

void ReportWriter::stream_line(const std::function<nlohmann::json()>& header, const nlohmann::json& line) {
  if (!stream_path_.empty() && !stream_failed_) {
    if (stream_fd_ < 0) {
      stream_fd_ = open(stream_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (stream_fd_ < 0 || !write_all(stream_fd_, nlohmann::json({{"header", header()}}).dump() + "\n")) {
        std::fprintf(stderr, "warpscope: cannot write the launch stream %s: %s\n", stream_path_.c_str(),
                     std::strerror(errno));
        stream_failed_ = true;
      }
    }
    if (!stream_failed_) {
      if (!write_all(stream_fd_, line.dump() + "\n")) {
        std::fprintf(stderr, "warpscope: cannot write the launch stream %s: %s\n", stream_path_.c_str(),
                     std::strerror(errno));
        stream_failed_ = true;
      }
    }
  }
}

nlohmann::json report_document(nlohmann::json header, const std::vector<LaunchRecord>& launches, double gpu_ns,
                               std::uint64_t unpredicted_launches) {
  nlohmann::json j = std::move(header);
  j["predicted_gpu_ns"] = gpu_ns;
  j["unpredicted_launches"] = unpredicted_launches;
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& r : launches) arr.push_back(launch_json(r, arr.size()));
  j["launches"] = std::move(arr);
  return j;
}

void ReportWriter::write(const nlohmann::json& j) const {
  if (path_.empty()) return;
  const std::string& report_path = path_;
  // In warpscope run's own folder the document is written whole to a temporary file and renamed,
  // so that a reader never sees half of it (a crash while writing leaves the launch stream). A
  // WARPSCOPE_REPORT path is written in place: it may be a device or a link, never replaced.
  const bool own_folder = !stream_path_.empty();
  const std::string target = own_folder ? report_path + fmt::format(".tmp{}", getpid()) : report_path;
  std::ofstream out(target);
  if (!out) {
    std::fprintf(stderr, "warpscope: cannot write the report to %s\n", report_path.c_str());
    return;
  }
  out << j.dump(1) << "\n";
  out.flush();
  if (!out) {
    // A full disk or a device that takes nothing: said, and warpscope run fails (it finds no report).
    std::fprintf(stderr, "warpscope: the report could not be written to %s (%s)\n", report_path.c_str(),
                 std::strerror(errno));
    if (own_folder) std::remove(target.c_str());
    return;
  }
  out.close();
  if (own_folder && std::rename(target.c_str(), report_path.c_str()) != 0) {
    std::fprintf(stderr, "warpscope: the report could not be written to %s (%s)\n", report_path.c_str(),
                 std::strerror(errno));
    std::remove(target.c_str());
  }
}

}  // namespace warpscope::profiling
