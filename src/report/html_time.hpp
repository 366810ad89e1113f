// The time model's section of a launch page (docs/time.md): predicted duration and limiter,
// Speed Of Light bars, and the launch as a point on an instruction roofline (SVG).
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace warpscope::report::html {

/// "" when the launch has no prediction.
std::string time_section(const nlohmann::json& launch);

}  // namespace warpscope::report::html
