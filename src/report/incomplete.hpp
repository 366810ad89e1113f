// Runs and launches that did not end (docs/report.md: the top-level "stopped" and a launch's
// "incomplete"): the text summary's section and the HTML pages' paragraphs. Made from the
// report's JSON only; "" when there is nothing to say.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace warpscope::report {

/// "[incomplete] " before the kernel's name in a launch table row, or "".
std::string incomplete_marker(const nlohmann::json& launch);
/// The text section: why the run stopped and, per incomplete launch, where its warps were.
std::string incomplete_text(const nlohmann::json& report);
/// The launch page's paragraph and list of places (HTML), or "".
std::string incomplete_html(const nlohmann::json& launch);
/// The index page's paragraph for a run that a signal or --timeout stopped, or "".
std::string stopped_html(const nlohmann::json& report);

}  // namespace warpscope::report
