// Nsight Compute's report file (.ncu-rep), written from the report's JSON (docs/report.md) and read
// back, whoever wrote it (docs/report.md "Nsight Compute's report file" has the layout and where
// each fact comes from):
//
//   "NVR\0"                                   4 bytes of magic
//   u32 (little-endian) size, FileHeader      the format's version
//   blocks, to the end of the file:
//     u32 size, BlockHeader                   counts of sources and results, the payload's size,
//                                             the session, the process, the string table
//     payload: NumSources × (u32 size, source message), then NumResults × (u32 size, ProfileResult)
//
// A ProfileResult is one profiled launch: names, grid, block, stream, and its metrics, each a name
// (an index into the block's string table) and one typed value.
//
// `warpscope run -o NAME` writes one block per profile (the --arch profile first, then each
// --compare-arch one), every block with the whole string table and one result per profiled launch;
// each result holds every metric `--csv` prints, with the same values, the launch__ facts, the
// profile's device__attribute_* and the sections warpscope fills (ncu_sections.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/metric_eval.hpp"

namespace warpscope::ncurep {

/// The FileHeader version warpscope writes: the lowest that Nsight Compute 2022.3 reads (6 and
/// below are refused, docs/report.md). WARPSCOPE_NCU_REP_VERSION overrides it (tools/).
inline constexpr std::uint32_t kFileVersion = 7;

/// ncu's name for a report: NAME.ncu-rep, unless NAME already ends with .ncu-rep.
std::string report_path(const std::string& name);

/// What a profile (the --arch one or a --compare-arch one) says about its GPU.
struct ExportProfile {
  std::string name;  // "hopper"
  std::string gpu;   // the device name shown (device__attribute_display_name)
  int cc_major = 0, cc_minor = 0;
  report::MetricUnits units;
  /// device__attribute_* numbers of the profile (multiprocessor_count, warp_size, ...).
  std::vector<std::pair<std::string, std::uint64_t>> device_attributes;
};

/// Where the profiled launches ran, as a session of ncu records it.
struct ExportContext {
  long pid = 0;
  std::string process;             // the executable's file name
  std::string host = "127.0.0.1";
  std::string executable;          // its path
  std::string arguments;           // its arguments, space-separated
  std::string command_line;        // warpscope's own command line
  std::uint64_t creation_time_ns = 0;  // since the epoch
  std::uint32_t file_version = kFileVersion;
};

/// The .ncu-rep bytes of the report's profiled launches: one block per profile, `profiles[0]` the
/// report's own (its launches' "metrics"), the others its launches' "compare" entries by "arch".
std::string write_report(const nlohmann::json& report, const std::vector<ExportProfile>& profiles,
                         const ExportContext& context);

/// Writes them to `path` (a temporary file renamed into place: a report is there whole or not at
/// all). Throws Error (kIo) when it cannot.
void write_report_file(const std::string& path, const nlohmann::json& report, const std::vector<ExportProfile>& profiles,
                       const ExportContext& context);

/// A metric value as the file types it.
struct Value {
  enum class Kind { kNone, kString, kFloat, kDouble, kUint32, kUint64 };
  Kind kind = Kind::kNone;
  std::string text;   // kString
  double number = 0;  // the others
  /// The value as a number (nullopt for a string or none).
  std::optional<double> as_number() const;
};

struct Result {
  std::size_t block = 0;        // the block it came from
  std::uint32_t pid = 0;
  std::string process, host;    // the block's process
  std::string mangled, function, demangled;
  std::array<std::uint64_t, 3> grid{}, block_size{};
  std::uint32_t context = 0, stream = 0;
  std::string comments;
  std::vector<std::pair<std::string, Value>> metrics;  // in the file's order
  std::vector<std::string> sections;                   // the identifiers of its sections
  std::uint64_t source_reference = 0;                  // Source.Reference
  /// Instanced metrics (a value list; warpscope's source counters have no aggregate value and
  /// are not in `metrics`, Nsight Compute's have both): per metric, (correlation id, value) pairs in
  /// the file's order (docs/report.md).
  std::vector<std::pair<std::string, std::vector<std::pair<Value, Value>>>> instances;
  /// The value of a metric (nullptr when it has none).
  const Value* find(const std::string& name) const;
  /// The instances of an instanced metric (nullptr when it has none).
  const std::vector<std::pair<Value, Value>>* find_instances(const std::string& name) const;
};

struct Device {
  std::uint32_t id = 0;
  std::string name;
  std::vector<std::pair<std::string, Value>> attributes;
};

/// A source message of a block (SourceData): the code results refer to by `reference`.
struct Source {
  std::uint64_t reference = 0;
  std::size_t binary_bytes = 0;     // the cubin's size (0: none)
  std::uint32_t sass_level = 0, cuda_sm_version = 0;
  std::vector<std::string> files;   // SourceFiles' names
  struct Function {
    std::string name;
    std::uint64_t address = 0;
    std::uint32_t symbol_index = 0;
  };
  std::vector<Function> functions;  // RelocationData.Functions
};

struct Report {
  std::uint32_t version = 0;
  std::vector<Result> results;
  std::vector<Device> devices;                               // from the session
  std::vector<std::pair<std::string, std::string>> tools;    // VersionInfo: provider, version
  std::string comments;                                      // the session's
  std::size_t blocks = 0;
  std::size_t sources = 0;  // source messages read (source_data)
  std::vector<Source> source_data;
};

/// Reads an .ncu-rep; throws Error (kIo) naming `what` and the byte offset when the framing or a
/// message is not the format's.
Report read_report(std::span<const std::uint8_t> bytes, const std::string& what);
Report read_report_file(const std::string& path);

/// The report as JSON: {"version", "tools", "devices", "results": [{"kernel", "name", "grid", ...,
/// "metrics": {name: number or string}}]}.
nlohmann::json report_json(const Report& report);

/// The results in ncu's raw-page layouts (as `warpscope run --csv` and its text layout print them):
/// the 11 launch columns, then every metric in name order.
std::string raw_csv(const Report& report);
std::string raw_text(const Report& report);

/// A measured report (a real GPU's) beside warpscope's prediction of the same program (the report
/// JSON of `warpscope run --json`): per launch, every metric both have with the measured value, the
/// predicted one and their ratio. Launches pair by order among those of the same kernel.
std::string compare_text(const Report& measured, const nlohmann::json& predicted, const report::MetricUnits& units,
                         bool csv);

}  // namespace warpscope::ncurep
