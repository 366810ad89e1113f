// libFuzzer target for the command line (tools/): any argument list must give a result or a
// message (CLI11's parse error, warpscope::Error), never a crash, an uncaught exception or a hang.
// The input is the argument list, one argument per line. What it exercises without running a
// program: CLI11's parsing of every `pattern` and `run` option, `pattern` itself (the index
// expression parser and the memory model on one access, tools/expr.cpp and pattern_cmd.cpp), and
// the checks `run` makes before a program starts (profiles, --compare-arch, ncu's options:
// metric names, sections, --kernel-id, NVTX filters, tools/ncu_options.cpp).
//   cmake --preset fuzz && cmake --build build-fuzz --target cli_fuzz
//   build-fuzz/bin/cli_fuzz -max_total_time=600 -timeout=10 -dict=fuzz/cli.dict <work-dir> fuzz/corpus/cli
// The corpus also runs as an ordinary test (cli_fuzz_corpus, tests/tools/CMakeLists.txt).
// Options that write files (--json, --svg, --html, --log-file, -o) are dropped from the input:
// the fuzzer must not write where its input says.
#include <cstddef>
#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "arch/profile.hpp"
#include "common/error.hpp"
#include "ncu_options.hpp"
#include "pattern_cmd.hpp"
#include "run_cmd.hpp"

namespace {

bool writes_files(const std::string& a) {
  for (const char* w : {"--json", "--svg", "--html", "--log-file", "--export", "-o", "--cache-dir", "--import"})
    if (a == w || a.rfind(std::string(w) + "=", 0) == 0) return true;
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  std::vector<std::string> args = {"warpscope"};
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  for (std::string line; std::getline(in, line) && args.size() < 24;) {
    if (writes_files(line)) {
      std::getline(in, line);  // and its value
      continue;
    }
    args.push_back(line);
  }
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());

  CLI::App app{"warpscope"};
  app.require_subcommand(0, 1);
  warpscope::cli::PatternOptions pattern;
  warpscope::cli::add_pattern_command(app, pattern);
  warpscope::cli::RunOptions run;
  warpscope::cli::add_run_command(app, run);
  std::ostringstream sink;
  std::streambuf* out = std::cout.rdbuf(sink.rdbuf());
  std::streambuf* err = std::cerr.rdbuf(sink.rdbuf());
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
    if (app.got_subcommand("pattern") && pattern.json_path.empty() && pattern.svg_path.empty()) {
      (void)warpscope::cli::run_pattern(pattern);
    } else if (app.got_subcommand("run") && run.json_path.empty() && run.html_dir.empty()) {
      const warpscope::arch::Profile profile = warpscope::arch::builtin_profile(run.arch);
      warpscope::cli::NcuRunOptions ncu = run.ncu;
      ncu.log_file.clear();
      warpscope::cli::check_ncu_options(ncu, profile);
    }
  } catch (const CLI::ParseError&) {
  } catch (const warpscope::Error&) {
  }
  std::cout.rdbuf(out);
  std::cerr.rdbuf(err);
  return 0;
}
