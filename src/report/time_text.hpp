// The time model's part of the text report (docs/time.md): predicted duration and limiter per
// launch, and with --compare-arch the predicted durations side by side.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace warpscope::report {

/// "== predicted GPU time" table of the report's launches (at most `limit` rows; more launches
/// are summed per kernel), or "" when no launch has a prediction.
std::string time_table(const nlohmann::json& report, std::size_t limit = 16);

/// The closing line about the timings the program prints (event_time: predicted or wall).
std::string event_time_note(const nlohmann::json& report);

}  // namespace warpscope::report
