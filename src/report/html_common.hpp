// What the HTML pages share (src/report's own header, not part of the public API): reading the
// JSON document of docs/report.md leniently, formatting values as the pages show them, the page
// frame with its inline style sheet, and the source-line helpers the launch page and the
// comparison page both use.
//
// Reading is lenient by contract (html.hpp): a missing or null field is "absent" and shows as a
// dash; a value of an unexpected type is shown as it is, never rejected.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <utility>
#include <string>
#include <vector>

namespace warpscope::report::html {

using nlohmann::json;

// ---- Reading. ----

/// The member `key` of `object`, or nullptr when `object` is not an object, lacks it, or it is null.
const json* field(const json& object, const char* key);
/// The array member `key`, or an empty array.
const json& array_field(const json& object, const char* key);
std::string string_field(const json& object, const char* key, const std::string& fallback = "");
double number_field(const json& object, const char* key, double fallback = 0);
std::uint64_t u64_field(const json& object, const char* key, std::uint64_t fallback = 0);
/// A non-negative number as an integer (negative and non-numbers are 0).
std::uint64_t to_u64(const json& v);
/// The names listed in `entry.estimated`.
std::set<std::string> estimated_set(const json& entry);
/// `name`, else the mangled `kernel`, else "(unnamed kernel)".
std::string kernel_name(const json& launch);
/// False only for a launch the launch filter left out (`"profiled": false`).
bool is_profiled(const json& launch);
/// The launch's `index`, else its position in `launches`.
json launch_index(const json& launch, std::size_t position);

// ---- Formatting (results are HTML-escaped unless the name says plain). ----

/// Plain text of a value: integers with thousands separators ("1,200,096"), other numbers with
/// two decimals (three significant digits below 0.01), absent values as a dash.
std::string plain(const json* v);
std::string plain(const json& v);
/// A number as JSON writes it, without separators (ids, data attributes, line numbers, pcs);
/// other values as plain().
std::string raw(const json* v);
/// An integer with thousands separators.
std::string grouped(std::uint64_t n);
std::string h(const json* v);
std::string h(const json& v);
/// "391 &times; 1 &times; 1" for a dim3 array.
std::string dim3(const json* v);
/// `metrics[name]` of a launch, escaped (a dash when absent).
std::string metric_text(const json& launch, const char* name);
/// The badge of a metric listed in `estimated`.
std::string estimated_marker();
/// A duration in nanoseconds with its unit, three significant digits or more: "850 ns",
/// "12.35 \u00b5s", "27.90 ms", "1.20 s" (plain text; the micro sign is UTF-8).
std::string duration_text(double ns);
/// The unit duration_text() picks for `ns` ("ns", "\u00b5s", "ms", "s") and its size in ns.
std::pair<const char*, double> duration_unit(double ns);
/// `launch.time` when the time model made a prediction (`available` true), else nullptr.
const json* prediction(const json& entry);

// ---- Page frame. ----

/// The document up to and including <body>: charset, title, the inline style sheet.
std::string page_start(const std::string& title);
extern const char* const kPageEnd;
/// The inline script that sorts a `<table class="sortable">` by the column whose header is
/// clicked (numbers by their cell's `data-sort`, else by text; empty `data-sort` last either way),
/// ascending first, then descending; the header shows it in `aria-sort`. No external assets.
extern const char* const kSortScript;
/// The report's `timing_note` as a paragraph (id "timing-note"), or "".
std::string timing_note(const json& report);
/// The architectures of a launch's `compare` entries, escaped: "kepler, fermi".
std::string compare_archs_text(const json& launch);

// ---- Source lines. ----

/// Source lines grouped by file (files in name order), each group sorted by line number.
using FileGroups = std::map<std::string, std::vector<const json*>>;
FileGroups group_lines(const json& launch);
/// "(no line information)" for the empty file name.
std::string file_label(const std::string& file);
std::string basename_of(const std::string& file);
/// The anchor of a source line's row, "src-<file number>-<line>", or "" when not in `groups`.
std::string line_anchor(const FileGroups& groups, const std::string& file, const json* line);
/// A line's excess traffic: `global_excessive_sectors` + `shared_excess_wavefronts`.
double line_excess(const json& line);
/// An instruction's: `excessive_sectors` + max(0, `wavefronts` - `ideal_wavefronts`).
double instruction_excess(const json& insn);

/// One advice item as `<li class="{cls}" data-rule>`: rule badge, `file:line` (a link to the
/// source row when `groups` holds it), pc, message and evidence.
std::string advice_item(const json& advice, const char* cls, const FileGroups* groups);

}  // namespace warpscope::report::html
