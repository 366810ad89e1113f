// What `warpscope --help`, `warpscope run --help` and `warpscope pattern --help` end with: an
// example for every option (for `run`, ncu's command line next to warpscope's), and the hint an
// unknown option gets ("did you mean --kernel-name?").
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace warpscope::cli {

const char* main_help_footer();
const char* run_help_footer();
const char* pattern_help_footer();

/// For a command line CLI11 rejected with unexpected arguments: "unknown option --kernal-name;
/// did you mean --kernel-name?" for each option-like argument (before a `--`) that no option of
/// the (sub)command it follows has, with the nearest of its options; "" when none is near.
std::string unknown_option_hint(const CLI::App& app, int argc, const char* const* argv);

}  // namespace warpscope::cli
