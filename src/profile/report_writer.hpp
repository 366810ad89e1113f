// The report document of one process (report_writer.cpp; docs/runtime.md "Processes and the
// report's life", the JSON keys in docs/report.md): a finished launch's record, the launch stream
// that warpscope run's folder gets as launches end, and the whole document at the end.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/sass_counts.hpp"
#include "arch/profile.hpp"
#include "common/kernel_filter.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::profiling {

/// One launch as the report writes it.
struct LaunchRecord {
  std::string kernel;
  std::string name;
  warpscope::Dim3 grid, block;
  std::size_t dynamic_shared = 0;
  int registers = -1;
  std::uint64_t stream = 0;
  double wall_ms = 0;
  std::string module;
  nlohmann::json metrics;    // the primary profile's, docs/report.md
  nlohmann::json estimated;
  nlohmann::json lines;
  nlohmann::json advice;
  nlohmann::json compare;    // [{arch, metrics, estimated, lines, advice, ...}] for --compare-arch
  nlohmann::json extra = nlohmann::json::object();  // resources, occupancy, local_arrays
  nlohmann::json memcheck;   // {"mode", "errors", "first": [...]} (docs/report.md)
  nlohmann::json sanitizer;  // racecheck/synccheck findings (src/runtime/cudart/sanitize.cpp), or null
  nlohmann::json host_stack;  // warpscope sanitize: the launching call's host frames, or null
  nlohmann::json incomplete;  // null, or where a launch that did not end stopped (stopping.cpp)
  // The machine code's executed instructions (sm_90 profiles with ptxas's cubin; the time model
  // reads them): per opcode and per instruction. Empty for other profiles and without a cubin.
  std::optional<analysis::sass::LaunchSassCounts> sass_counts;
  std::string error;
  bool profiled = true;      // false: the launch filter (-k/-s/-c) left it out of the memory model
  std::string not_profiled;  // why, when not profiled
  nlohmann::json nvtx;       // the NVTX ranges the launching thread was in (--nvtx; nvtx.hpp), or null
  // A launch made by device code (dynamic parallelism): the parent launch's index in the report,
  // and the launching CTA and thread (linear). Null for host launches.
  nlohmann::json launched_from_device;
  std::uint64_t host_time_ns = 0;  // CLOCK_MONOTONIC when it ended: orders several processes' launches
  std::uint64_t host_peak_rss_bytes = 0;  // the process's peak resident memory when it ended
};

/// The report's object of one launch, `index` its place in the process's launches.
nlohmann::json launch_json(const LaunchRecord& r, std::size_t index);
/// Notes when the launch ended and the process's peak resident memory then.
void stamp_launch_end(LaunchRecord& rec);
/// The document: `header` with the launches and the end-of-run totals (the predicted GPU time of
/// every launch, the launches the time model could not predict).
nlohmann::json report_document(nlohmann::json header, const std::vector<LaunchRecord>& launches, double gpu_ns,
                               std::uint64_t unpredicted_launches);

/// What the report's header says of the run besides the process.
struct HeaderFacts {
  const arch::Profile& profile;
  const std::vector<arch::Profile>& compare;  // --compare-arch
  bool memory_model = true;                   // false under --no-stats
  bool event_time_wall = false;               // --event-time wall
  const KernelFilter* launch_filter = nullptr;  // -k/-s/-c, or null
};

/// Where this process's report goes, and its launch stream.
class ReportWriter {
 public:
  /// Reads WARPSCOPE_REPORT, WARPSCOPE_REPORT_DIR (warpscope run's folder: <pid>.json and the
  /// stream <pid>.stream.jsonl) and notes the process (pid, executable, arguments, root). False
  /// for a child process that --target-processes application-only leaves out: it writes no
  /// report and runs without the memory model.
  bool configure();
  /// The document's path ("": none).
  const std::string& path() const { return path_; }
  /// The report's header.
  nlohmann::json header_json(const HeaderFacts& facts) const;
  /// Appends a finished launch to the launch stream, when there is one, with one write(2); the
  /// stream's first line is `header()`. A stream that cannot be written is said once and left.
  void stream_launch(const std::function<nlohmann::json()>& header, const LaunchRecord& rec, std::size_t index,
                     double gpu_ns, std::uint64_t unpredicted_launches);
  /// Appends a line `line` (an object: {"api_error": ..., "tool": ...} for warpscope sanitize's
  /// API errors, written as they happen so that a process that aborts keeps them) to the stream.
  void stream_line(const std::function<nlohmann::json()>& header, const nlohmann::json& line);
  /// Writes the document to path() (nothing when there is none); in warpscope run's folder
  /// through a temporary file renamed in place.
  void write(const nlohmann::json& document) const;

 private:
  std::string path_;
  nlohmann::json process_;   // the report's "process": pid, ppid, name, exe, args, root, start_ns
  std::string stream_path_;  // WARPSCOPE_REPORT_DIR/<pid>.stream.jsonl, or "" (no stream)
  int stream_fd_ = -1;
  bool stream_failed_ = false;
};

/// The unit a profile's global transactions are counted in (metrics global_transactions).
std::string transaction_unit(const arch::Profile& p);
/// CLOCK_MONOTONIC in nanoseconds (comparable between processes of one machine).
std::uint64_t monotonic_ns();

}  // namespace warpscope::profiling
