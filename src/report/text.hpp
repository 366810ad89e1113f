// The text report `warpscope run` prints when the program exits: a table per launch, the
// profiles side by side (--compare-arch), the worst source lines with their text, and the advice.
// Made from the report's JSON document only (docs/report.md).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace warpscope::report {

struct TextOptions {
  bool all_launches = false;  // one table row per launch even for more than 64 launches
  unsigned worst_lines = 8;   // source lines listed, ranked by excessive sectors + excess wavefronts
  unsigned advice = 10;       // advice items listed
};

std::string text_report(const nlohmann::json& report, const TextOptions& options = {});

/// The launches the launch filter left out ("profiled": false), one line per reason with their
/// indices ("#0, 2-5: --kernel-name ... does not match ..."); "" when every launch was profiled.
std::string not_profiled_text(const nlohmann::json& report);

}  // namespace warpscope::report
