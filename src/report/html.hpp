// The HTML report of `warpscope run --html DIR`: an index of the launches and one page per
// launch (metrics, advice, the other architectures side by side, the kernel's CUDA source shaded
// by excess traffic, and pictures of the worst accesses).
//
// Made from the JSON document of docs/report.md only (report reads statistics, never the
// simulator). Pages are self-contained: inline CSS and SVG, no scripts, no external resources.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace warpscope::report {

/// Creates `dir` (and its parents) and writes `index.html` and `launch_<index>.html` for every
/// launch of `report` (docs/report.md). Fields the schema marks optional may be absent; a
/// malformed value is shown as it is rather than rejected. Throws warpscope::Error (kIo) naming
/// the path when the directory or a file cannot be written.
void write_html_report(const nlohmann::json& report, const std::string& dir);

/// The pages themselves, for tests and for callers that write elsewhere.
std::string html_index_page(const nlohmann::json& report);
std::string html_launch_page(const nlohmann::json& report, std::size_t launch_position);

/// The file name of a launch's page (`launch_<index>.html`), as index.html links to it.
std::string html_launch_file(const nlohmann::json& launch, std::size_t launch_position);

/// HTML-escapes text for element content and attribute values (& < > " ').
std::string html_escape(const std::string& text);

}  // namespace warpscope::report
