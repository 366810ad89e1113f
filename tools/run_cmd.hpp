// `warpscope run`: runs an unmodified CUDA program on warpscope's CUDA runtime replacement
// (lib/warpscope/libcudart.so.13, put first on LD_LIBRARY_PATH) and prints what each kernel
// launch did to the memory system. The program's arguments, stdin, stdout, stderr and exit code
// pass through unchanged; the summary goes to stderr after it exits. Options reach the library
// through the environment: WARPSCOPE_ARCH / WARPSCOPE_ARCH_FILE, WARPSCOPE_REPORT (the JSON
// report's path), WARPSCOPE_THREADS, WARPSCOPE_QUIET, WARPSCOPE_ANY_PTX.
//
// `warpscope run app.cu [-- args]` first compiles the file with nvcc (-cudart shared -lineinfo
// -arch=<profile's target>), caching the executable by a hash of the source, flags and nvcc
// version under $WARPSCOPE_CACHE_DIR, $XDG_CACHE_HOME/warpscope or ~/.cache/warpscope.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "arch/profile.hpp"
#include "ncu_options.hpp"

namespace CLI {
class App;
}

namespace warpscope::cli {

struct RunOptions {
  std::string arch = std::string(arch::kDefaultProfile);
  std::string arch_file;
  std::string json_path;
  std::string html_dir;      // --html DIR: index.html and a page per launch
  std::string compare_arch;  // --compare-arch A,B,...: more profiles' memory models, side by side
  double sample_ctas = 1.0;  // --sample-ctas F: only a fraction of the CTAs feed the memory model
  std::string cudart_dir;  // where libcudart.so.13 is; default: next to the executable
  std::string cache_dir;
  std::string nvcc_flags;  // extra flags for `run app.cu`
  unsigned threads = 0;  // 0: one per core
  bool no_stats = false;  // no memory model: instruction counts only
  bool quiet = false;       // no notes from the library, no progress line
  double timeout = 0;       // --timeout SECONDS per launch (WARPSCOPE_TIMEOUT); 0: none
  bool no_summary = false;
  bool all_launches = false;  // one summary line per launch even for many launches
  bool any_ptx = false;       // accept PTX newer than the profile (with a warning)
  std::string import_path;    // --import: a saved JSON report to print again
  int error_exitcode = 0;     // --error-exitcode: the exit code when memcheck found errors (0: the program's)
  std::string memcheck = "report";  // --memcheck report|off|strict (WARPSCOPE_MEMCHECK)
  std::string event_time = "predicted";  // --event-time predicted|wall (WARPSCOPE_EVENT_TIME)
  NcuRunOptions ncu;  // -k, -s, -c, --kernel-name-base, --metrics, --csv, --print-summary
  std::vector<std::string> command;
};

/// How a program was built, as far as running it under warpscope is concerned.
struct BinaryCheck {
  // kDriver: the driver API only (DT_NEEDED libcuda.so.1, no runtime of NVIDIA's inside): runnable, its
  // modules come at run time.
  enum class Kind { kShared, kWarpscopeStatic, kNvidiaStatic, kOtherCudart, kDriver, kNotCuda, kNotElf } kind = Kind::kNotElf;
  bool runnable = true;
  std::string message;  // why not, with the nvcc flags to rebuild with; or a warning
};

/// Inspects an executable: its libcudart dependency and the PTX its fatbinaries carry.
BinaryCheck check_binary(const std::string& path, const arch::Profile& profile);

/// The nvcc flags that make a program warpscope can run on `profile`.
std::string rebuild_flags(const arch::Profile& profile);

/// Compiles a .cu file (cached); returns the executable's path. Throws Error.
std::string compile_cu(const std::string& source, const arch::Profile& profile, const std::string& extra_flags,
                       const std::string& cache_dir);

/// The per-launch summary printed after the program exits.
std::string summary_text(const nlohmann::json& report, bool all_launches);

/// Where lib/warpscope/libcudart.so.13 is: --cudart-dir, $WARPSCOPE_CUDART_DIR, or relative to
/// the warpscope executable (../lib/warpscope). Throws Error when it is not found.
std::string find_cudart_dir(const std::string& option);

/// The folder every process of a run writes its launch stream and report into (docs/runtime.md,
/// "Processes and the report's life"): made under /tmp with `prefix`, removed with everything in
/// it when this goes away. Throws Error(kIo) when it cannot be made.
class ReportFolder {
 public:
  explicit ReportFolder(const char* prefix);
  ~ReportFolder();
  ReportFolder(const ReportFolder&) = delete;
  ReportFolder& operator=(const ReportFolder&) = delete;
  const std::string& path() const { return path_; }
  /// In the program's process, before exec: the runtime writes here, and this process is the root.
  void export_to_child() const;

 private:
  std::string path_;
};

/// The path execvp would run for `cmd` (PATH searched when it has no slash).
std::string resolve_executable(const std::string& cmd);
/// Fails with Error(kUsage) unless `exe` (as `given` on the command line) is an executable file.
void check_program_path(const std::string& exe, const std::string& given);

void add_run_command(CLI::App& app, RunOptions& options);
/// Runs the program; returns its exit code (128 + signal when it was killed: 130 after SIGINT,
/// 143 after SIGTERM; 124 when a launch ran past --timeout).
int run_run(const RunOptions& options);

}  // namespace warpscope::cli
