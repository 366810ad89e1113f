// `warpscope sanitize [options] -- PROGRAM ARGS`: compute-sanitizer's memcheck, racecheck and
// synccheck on warpscope's CUDA runtime (docs/sanitize.md). The program runs as under `warpscope
// run` (tools/run_cmd.cpp) without the memory model; the runtime records what the tool found
// in the JSON report (WARPSCOPE_SANITIZE, WARPSCOPE_LEAK_CHECK) and this command prints it in
// compute-sanitizer's layout, "========= " before every line, after the program's own output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace CLI {
class App;
}

namespace warpscope::cli {

struct SanitizeOptions {
  std::string tool = "memcheck";         // --tool memcheck|racecheck|initcheck|synccheck
  std::string leak_check = "no";         // --leak-check full|no
  int error_exitcode = 0;                // --error-exitcode N
  std::uint64_t print_limit = 100;       // --print-limit N (0: unlimited)
  std::string racecheck_report = "analysis";  // --racecheck-report hazard|analysis|all
  std::string racecheck_memory = "shared";    // --racecheck-memory shared|all (all: global memory too)
  std::string initcheck_memory = "global";    // --initcheck-memory global|all (all: shared memory too)
  std::string check_api_memory_access = "yes";  // --check-api-memory-access (initcheck)
  std::string track_unused_memory = "no";        // --track-unused-memory[=yes|no] (initcheck)
  std::string show_backtrace = "yes";    // --show-backtrace yes|host|device|no (host frames: yes, host)
  std::string log_file;                  // --log-file FILE
  std::string save;                      // --save FILE: the JSON report, or with --xml the reports as XML
  bool xml = false;                      // --xml (with --save)
  std::string arch = "hopper";
  std::string cudart_dir;
  std::string cache_dir;
  std::string nvcc_flags;
  unsigned threads = 0;
  std::vector<std::string> command;
};

/// What the report says, in compute-sanitizer's layout: every line after the header, and the
/// number of errors (memcheck and synccheck: the ERROR SUMMARY's; racecheck: hazards displayed
/// at the error level).
struct SanitizeText {
  std::string text;
  std::uint64_t errors = 0;
  std::vector<nlohmann::ordered_json> records;  // each printed report, for --xml (sanitize_xml.hpp)
};
SanitizeText sanitize_text(const nlohmann::json& report, const SanitizeOptions& options);

void add_sanitize_command(CLI::App& app, SanitizeOptions& options);
/// Runs the program under the tool; returns its exit code, or --error-exitcode when the program
/// succeeded and the tool found errors.
int run_sanitize(const SanitizeOptions& options);

}  // namespace warpscope::cli
