#include "help.hpp"

#include "ncu_options.hpp"

#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "common/nearest.hpp"

namespace warpscope::cli {

const char* main_help_footer() {
  return R"(Examples:
  warpscope run -- ./app args...            run a CUDA program (built by nvcc or CMake, either CUDA
                                            runtime) and report every kernel launch's memory traffic
  warpscope run examples/saxpy.cu -- 1000   compile a .cu file (cached) and run it
  warpscope pattern --index 'lane*2'        one warp access: requests, sectors, bus utilization
  warpscope sanitize -- ./app               compute-sanitizer's memcheck on the CPU (--tool racecheck,
                                            synccheck; --leak-check full; docs/sanitize.md)
  warpscope --version                       the version
  warpscope run --help                      every option of run (ncu's among them), with examples
  warpscope pattern --help                  every option of pattern, with examples
  warpscope sanitize --help                 every option of sanitize)";
}

const char* run_help_footer() {
  return R"(Usage: warpscope run [options] -- ./app args...   or   warpscope run [options] app.cu [-- args...]

Examples (one for every option):
  warpscope run -- ./app                             the summary on stderr after the program's output
  warpscope run examples/nbody.cu -- all 512 1       compile with nvcc -cudart shared -lineinfo (cached)
  warpscope run --nvcc-flags '-O3 -DN=64' app.cu     extra nvcc flags for a .cu file
  warpscope run --cache-dir /tmp/ws app.cu           where compiled .cu files are kept
  warpscope run --arch fermi -- ./app                another GPU's memory model (hopper by default)
  warpscope run --arch-file my_gpu.json -- ./app     a profile of your own (fields as src/arch/profiles)
  warpscope run --compare-arch kepler,volta -- ./app other profiles side by side, same execution
  warpscope run --json report.json -- ./app          the whole report as JSON (docs/report.md)
  warpscope run --html report/ -- ./app              index.html and a page per launch
  warpscope run --threads 4 -- ./app                 CTAs on 4 host threads (same counters for any N)
  warpscope run --sample-ctas 0.1 -- ./app           every 10th CTA feeds the memory model, scaled up
  warpscope run --no-stats -- ./app                  instruction counts only, no memory model
  warpscope run --memcheck strict -- ./app           out-of-bounds global accesses stop the launch
  warpscope run --error-exitcode 3 -- ./app          exit with 3 when memcheck reported an error (as compute-sanitizer)
  warpscope run --import report.json --csv           print a saved --json report again, without running
  warpscope run --event-time wall -- ./app           cudaEventElapsedTime: emulator time, not predicted GPU time
  warpscope run --timeout 30 -- ./app               a launch running over 30 s stops with a report (exit 124)
  warpscope run --quiet --no-summary -- ./app        no runtime notes, no summary
  warpscope run --all-launches -- ./app              a summary row per launch even for many launches
  warpscope run --any-ptx -- ./app                   run PTX built for a newer GPU than the profile's
  warpscope run --cudart-dir build/lib/warpscope -- ./app   where libcudart.so.13 is

Nsight Compute's options, as ncu spells them (ncu on the left, warpscope on the right):
  ncu -k saxpy1 ./app                          warpscope run -k saxpy1 -- ./app
  ncu --kernel-name regex:'saxpy[12]' ./app    warpscope run --kernel-name regex:'saxpy[12]' -- ./app
  ncu --kernel-name-base demangled -k regex:'float \*' ./app
                                               warpscope run --kernel-name-base demangled -k regex:'float \*' -- ./app
  ncu -k regex:saxpy -s 2 -c 1 ./app           warpscope run -k regex:saxpy -s 2 -c 1 -- ./app
  ncu --launch-skip 1 --launch-count 3 ./app   warpscope run --launch-skip 1 --launch-count 3 -- ./app
  ncu --metrics dram__bytes_read.sum ./app     warpscope run --metrics dram__bytes_read.sum -- ./app
  ncu --csv --page raw --metrics a,b ./app     warpscope run --csv --metrics a,b -- ./app
  ncu --print-summary per-kernel --metrics smsp__inst_executed.sum ./app
                                               warpscope run --print-summary per-kernel --metrics smsp__inst_executed.sum -- ./app
  ncu --metrics lts__t_sector_hit_rate.pct,dram__bytes.sum.per_second,smsp__inst_executed.avg ./app
                                               warpscope run --metrics lts__t_sector_hit_rate.pct,... -- ./app
  ncu --query-metrics                          warpscope run --query-metrics
  ncu --section SpeedOfLight --section Occupancy ./app
                                               warpscope run --section SpeedOfLight --section Occupancy -- ./app
  ncu --set full ./app                         warpscope run --set full -- ./app
  ncu --page source --print-source cuda ./app  warpscope run --page source --print-source cuda -- ./app
  ncu --print-units base --section SpeedOfLight ./app
                                               warpscope run --print-units base --section SpeedOfLight -- ./app
  ncu --print-kernel-base mangled --csv ./app  warpscope run --print-kernel-base mangled --csv -- ./app
  ncu --log-file out.csv --csv ./app           warpscope run --log-file out.csv --csv -- ./app
  ncu --kernel-id ::regex:gemm:2 ./app         warpscope run --kernel-id ::regex:gemm:2 -- ./app
  ncu --launch-skip-before-match 5 -k gemm ./app
                                               warpscope run --launch-skip-before-match 5 -k gemm -- ./app
  ncu --nvtx --nvtx-include work/ ./app        warpscope run --nvtx --nvtx-include work/ -- ./app
  ncu --nvtx --nvtx-exclude setup/ ./app       warpscope run --nvtx --nvtx-exclude setup/ -- ./app
  ncu --cache-control all ./app                warpscope run --cache-control all -- ./app   (none is refused)
  ncu --target-processes application-only ./run.sh
                                               warpscope run --target-processes application-only -- ./run.sh
  ncu --import r.ncu-rep --csv                 warpscope run --import report.json --csv   (a report saved with --json)
  ncu -o saxpy ./app                           warpscope run -o saxpy -- ./app   (saxpy.ncu-rep; ncu --import reads it)
  ncu --export saxpy --force-overwrite ./app   warpscope run --export saxpy --force-overwrite -- ./app   (-f: replaces an existing report)
  ncu --import gpu.ncu-rep --csv --page raw    warpscope import gpu.ncu-rep --csv   (any report, a real GPU's too)
                                               warpscope compare gpu.ncu-rep report.json   (the GPU's results beside warpscope's)
Launches the filter leaves out run without the memory model (as under --no-stats); the report
marks them "profiled": false; cudaEventElapsedTime still counts a left-out launch with the
predicted time of a profiled launch of the same kernel and shape. With --metrics, --csv,
--print-summary, --section, --set or --page the results are printed on stdout (or --log-file)
after the program's output, in ncu's layout, instead of warpscope's summary.)";
}

const char* pattern_help_footer() {
  return R"(Examples (one for every option):
  warpscope pattern --index 'lane+1'                       4-byte words one element off alignment
  warpscope pattern --index 'lane*32' --width 8            a stride of 32 eight-byte words
  warpscope pattern --arch fermi --cache ca --index lane   Fermi's 128-byte L1 lines
  warpscope pattern --arch-file my_gpu.json --index lane   a profile of your own
  warpscope pattern --base 4 --index lane                  element 0 at byte address 4
  warpscope pattern --active 0x0000ffff --index lane       only lanes 0-15 active
  warpscope pattern --space shared --index 'lane*2'        shared-memory banks: a 2-way conflict
  warpscope pattern --space local --width 16 --op store --index 0   a 16-byte local store
  warpscope pattern --index 'lane*3' --json out.json --svg out.svg  write the result and a picture)";
}

namespace {

/// Every name an option of `app` answers to ("--kernel-name", "-k").
std::vector<std::string> option_names(const CLI::App& app) {
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_options()) {
    for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    for (const auto& s : o->get_snames()) names.push_back("-" + s);
  }
  return names;
}

}  // namespace

std::string unknown_option_hint(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* current = &app;
  std::string out;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--") break;
    if (arg.empty() || arg[0] != '-' || arg == "-") {
      const CLI::App* sub = nullptr;
      for (const CLI::App* s : current->get_subcommands({}))
        if (s->check_name(std::string(arg))) sub = s;
      if (sub == nullptr) break;  // the program and its arguments (run), or a value
      current = sub;
      continue;
    }
    const std::string name(arg.substr(0, arg.find('=')));
    const CLI::Option* known = nullptr;
    for (const CLI::Option* o : current->get_options())
      if (o->check_name(name)) known = o;
    if (known != nullptr) {
      // An option with a value given separately: skip the value.
      if (known->get_type_size() != 0 && arg.find('=') == std::string_view::npos) ++i;
      continue;
    }
    if (is_ncu_only_option(name)) {
      out += "warpscope: " + name + " is an Nsight Compute option that warpscope does not have (warpscope run --help "
             "lists the ones it has)\n";
      continue;
    }
    const auto close = nearest(name, option_names(*current), 1);
    out += "warpscope: unknown option " + name;
    out += close.empty() ? "" : "; did you mean " + close.front() + "?";
    out += "\n";
  }
  return out;
}

}  // namespace warpscope::cli
