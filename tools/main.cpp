// The warpscope command line. Each subcommand lives in its own file; this one only dispatches
// and turns warpscope::Error into a one-line message. Exit codes: 2 for input warpscope refuses (an
// option, a path, a program, a profile, a fatbinary: a message naming it), 1 for an internal error;
// otherwise the program's own (docs/runtime.md, "Exit status").
#include <iostream>

#include <CLI/CLI.hpp>

#include "common/error.hpp"
#include "export_cmd.hpp"
#include "help.hpp"
#include "pattern_cmd.hpp"
#include "report/ncu_sections.hpp"
#include "run_cmd.hpp"
#include "sanitize_cmd.hpp"

int main(int argc, char** argv) {
  CLI::App app{"warpscope: how CUDA kernels use GPU memory, emulated warp by warp on the CPU"};
  app.require_subcommand(0, 1);
  bool query_metrics = false;
  app.add_flag("--query-metrics", query_metrics, "List the metrics warpscope reports (as `run --query-metrics`)");
  app.set_version_flag("--version", "warpscope " WARPSCOPE_VERSION);
  warpscope::cli::PatternOptions pattern;
  warpscope::cli::add_pattern_command(app, pattern);
  warpscope::cli::RunOptions run;
  warpscope::cli::add_run_command(app, run);
  warpscope::cli::SanitizeOptions sanitize;
  warpscope::cli::add_sanitize_command(app, sanitize);
  warpscope::cli::ImportOptions import;
  warpscope::cli::add_import_command(app, import);
  warpscope::cli::CompareOptions compare;
  warpscope::cli::add_compare_command(app, compare);
  app.footer(warpscope::cli::main_help_footer());
  app.get_subcommand("pattern")->footer(warpscope::cli::pattern_help_footer());
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // An unknown option: name the nearest known one.
    if (dynamic_cast<const CLI::Success*>(&e) == nullptr && dynamic_cast<const CLI::CallForHelp*>(&e) == nullptr &&
        dynamic_cast<const CLI::CallForAllHelp*>(&e) == nullptr && dynamic_cast<const CLI::CallForVersion*>(&e) == nullptr)
      std::cerr << warpscope::cli::unknown_option_hint(app, argc, argv);
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;  // a bad command line is bad input (CLI11's own codes are not kept)
  }
  if (query_metrics) {
    std::cout << warpscope::report::query_metrics_text() << std::flush;
    return 0;
  }
  if (app.get_subcommands().empty()) {
    std::cerr << "warpscope: a command is required: run, sanitize, pattern, import or compare (warpscope --help)\n";
    return 2;
  }
  try {
    if (app.got_subcommand("pattern")) return warpscope::cli::run_pattern(pattern);
    if (app.got_subcommand("run")) return warpscope::cli::run_run(run);
    if (app.got_subcommand("sanitize")) return warpscope::cli::run_sanitize(sanitize);
    if (app.got_subcommand("import")) return warpscope::cli::run_import(import);
    if (app.got_subcommand("compare")) return warpscope::cli::run_compare(compare);
  } catch (const warpscope::Error& e) {
    std::cerr << "warpscope: " << warpscope::to_string(e.kind()) << ": " << e.what() << "\n";
    return e.kind() == warpscope::ErrorKind::kInternal ? 1 : 2;
  } catch (const std::exception& e) {
    // Nothing may end warpscope with an abort: a failure no check named is an internal error.
    std::cerr << "warpscope: internal error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
