// The time model's section of a launch page (docs/time.md): predicted duration and limiter,
// the Speed Of Light bars on one shared 0-100 % axis, and an instruction roofline (SVG, log-log)
// with the DRAM and L2 roofs, their ridge points labelled, the launch's points and the program's
// other launches as faint points.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpscope::report::html {

/// One launch on the roofline: warp instructions per DRAM byte and per L2 byte (0: that level
/// moved no bytes, no point), and warp instructions per second.
struct RooflinePoint {
  double dram_intensity = 0, l2_intensity = 0, inst_per_s = 0;
  std::string label;  // "launch 3"
};

/// The launch's roofline point from its `time` (mix.total, components.dram_bytes / l2_bytes,
/// duration_ns); false when it has no prediction or no instructions.
bool roofline_point(const nlohmann::json& launch, RooflinePoint& point);

/// "" when the launch has no prediction. `others` are the report's launches (the launch itself,
/// found by address, is skipped) drawn faintly on the roofline; nullptr for none.
std::string time_section(const nlohmann::json& launch, const nlohmann::json* others = nullptr);

}  // namespace warpscope::report::html
