// The HTML report of `warpscope run --html DIR`: an index of the launches (sortable, with the
// predicted duration and limiter), one page per launch
// (the kernel, its worst source lines and advice, a memory chart in the spirit of Nsight
// Compute's Memory Workload Analysis, the source shaded by excess traffic, pictures of the worst
// accesses, every metric grouped by unit behind a disclosure element) and, for `--compare-arch`,
// one side-by-side page per launch. docs/report.md, "HTML", describes the pages element by element.
//
// Made from the JSON document of docs/report.md only (report reads statistics, never the
// simulator). Pages are self-contained: inline CSS and SVG, nothing fetched, no script but the
// index's small inline table sorter; they fit a 1280-pixel-wide window without scrolling sideways.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace warpscope::report {

/// Creates `dir` (and its parents) and writes `index.html`, `launch_<index>.html` for every
/// launch of `report` (docs/report.md) and `launch_<index>_compare.html` for every launch with a
/// `compare` entry. Fields the schema marks optional may be absent; a malformed value is shown as
/// it is rather than rejected. Throws warpscope::Error (kIo) naming the path when the directory or
/// a file cannot be written.
void write_html_report(const nlohmann::json& report, const std::string& dir);

/// The pages themselves, for tests and for callers that write elsewhere. A launch position past
/// the end is a warpscope::Error (kUsage).
std::string html_index_page(const nlohmann::json& report);
std::string html_launch_page(const nlohmann::json& report, std::size_t launch_position);
std::string html_compare_page(const nlohmann::json& report, std::size_t launch_position);

/// The file name of a launch's page (`launch_<index>.html`), as index.html links to it.
std::string html_launch_file(const nlohmann::json& launch, std::size_t launch_position);
/// The file name of its side-by-side page (`launch_<index>_compare.html`).
std::string html_compare_file(const nlohmann::json& launch, std::size_t launch_position);

/// HTML-escapes text for element content and attribute values (& < > " ').
std::string html_escape(const std::string& text);

}  // namespace warpscope::report
