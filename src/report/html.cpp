#include "report/html.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string_view>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "common/error.hpp"
#include "report/incomplete.hpp"
#include "report/access_svg.hpp"

namespace warpscope::report {
namespace {

using nlohmann::json;

// ---- Reading the document leniently: a missing or null field is "absent", never an error. ----

const json* field(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

const json& empty_array() {
  static const json kEmpty = json::array();
  return kEmpty;
}

const json& array_field(const json& object, const char* key) {
  const json* v = field(object, key);
  return v && v->is_array() ? *v : empty_array();
}

std::string string_field(const json& object, const char* key, const std::string& fallback = "") {
  const json* v = field(object, key);
  if (!v) return fallback;
  return v->is_string() ? v->get<std::string>() : v->dump();
}

double number_field(const json& object, const char* key, double fallback = 0) {
  const json* v = field(object, key);
  return v && v->is_number() ? v->get<double>() : fallback;
}

std::uint64_t to_u64(const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer()) return v.get<std::int64_t>() < 0 ? 0 : static_cast<std::uint64_t>(v.get<std::int64_t>());
  if (v.is_number_float()) return v.get<double>() < 0 ? 0 : static_cast<std::uint64_t>(v.get<double>());
  return 0;
}

std::uint64_t u64_field(const json& object, const char* key, std::uint64_t fallback = 0) {
  const json* v = field(object, key);
  return v && v->is_number() ? to_u64(*v) : fallback;
}

/// Plain text of a value as the pages show it (not yet escaped). Absent values are a dash.
std::string plain(const json* v) {
  if (!v || v->is_null()) return "\u2014";
  if (v->is_string()) return v->get<std::string>();
  if (v->is_number_unsigned()) return fmt::format("{}", v->get<std::uint64_t>());
  if (v->is_number_integer()) return fmt::format("{}", v->get<std::int64_t>());
  if (v->is_number_float()) {
    double d = v->get<double>();
    if (!std::isfinite(d)) return fmt::format("{}", d);
    if (d == std::floor(d) && std::fabs(d) < 1e15) return fmt::format("{:.0f}", d);
    if (std::fabs(d) < 0.01) return fmt::format("{:.3g}", d);
    return fmt::format("{:.2f}", d);
  }
  if (v->is_boolean()) return v->get<bool>() ? "true" : "false";
  return v->dump();
}

std::string plain(const json& v) { return plain(&v); }

}  // namespace

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

namespace {

std::string h(const json* v) { return html_escape(plain(v)); }
std::string h(const json& v) { return html_escape(plain(&v)); }

/// "391 × 1 × 1" for a dim3 array.
std::string dim3(const json* v) {
  if (!v || !v->is_array()) return h(v);
  std::string s;
  for (std::size_t i = 0; i < v->size(); ++i) s += (i ? " &times; " : "") + h((*v)[i]);
  return s;
}

std::string metric(const json& launch, const char* name) {
  const json* metrics = field(launch, "metrics");
  return h(metrics ? field(*metrics, name) : nullptr);
}

std::set<std::string> estimated_set(const json& entry) {
  std::set<std::string> names;
  for (const json& n : array_field(entry, "estimated"))
    if (n.is_string()) names.insert(n.get<std::string>());
  return names;
}

std::string kernel_name(const json& launch) {
  std::string name = string_field(launch, "name");
  return name.empty() ? string_field(launch, "kernel", "(unnamed kernel)") : name;
}

// ---- Page frame. ----

constexpr const char* kCss = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5em; color: #1a1a1a;
       background: #ffffff; font-size: 14px; }
h1 { font-size: 1.5em; margin: 0.2em 0; }
h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
h3 { font-size: 1.05em; margin: 1.2em 0 0.4em; }
a { color: #1f5fbf; }
code, .code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
table { border-collapse: collapse; margin: 0.4em 0; }
th, td { border: 1px solid #d5d5d5; padding: 2px 6px; vertical-align: top; }
th { background: #f0f0f0; font-weight: 600; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table#launches tbody tr:nth-child(even), table#metrics tbody tr:nth-child(even) { background: #fafafa; }
tr.faulted td { color: #a40000; }
td.dim { white-space: nowrap; }
div.src-wrap { overflow-x: auto; }
dl.summary { display: grid; grid-template-columns: max-content auto; gap: 2px 12px; margin: 0.6em 0; }
dl.summary dt { font-weight: 600; color: #555; }
dl.summary dd { margin: 0; }
.note { color: #555; font-style: italic; max-width: 60em; }
.error { color: #a40000; font-weight: 600; }
.estimated { display: inline-block; font-size: 10px; color: #8a4b00; background: #fff0d9; border: 1px solid #f0c080;
             border-radius: 3px; padding: 0 3px; margin-left: 4px; vertical-align: middle; }
ol.advice-list { padding-left: 1.5em; }
li.advice, li.compare-advice { margin: 0.5em 0 0.9em; }
.rule { font-weight: 600; color: #fff; background: #b35806; border-radius: 3px; padding: 0 5px; font-size: 12px; }
.message { margin: 0.2em 0; }
div.evidence { font-size: 12px; color: #333; }
span.ev { display: inline-block; border: 1px solid #ddd; border-radius: 3px; padding: 0 5px; margin: 1px 2px 1px 0;
          background: #fafafa; white-space: nowrap; }
span.ev-key { color: #666; }
tr.zero td { color: #999; }
table#compare tr.differs td.metric-name { font-weight: 600; }
table.src { font-size: 12px; }
table.src td.ln { color: #777; text-align: right; }
table.src td.code { white-space: pre; }
table.src tr.src-insn td { color: #555; font-size: 11px; border-top-style: dotted; }
table.src tr.src-insn td.code { padding-left: 2em; }
.space { font-size: 10px; color: #555; border: 1px solid #bbb; border-radius: 3px; padding: 0 3px; margin-left: 6px; }
figure.access-svg { margin: 0.8em 0 1.6em; max-width: 1100px; }
figure.access-svg figcaption { margin-bottom: 0.3em; }
figure.access-svg svg { width: 100%; height: auto; border: 1px solid #ddd; }
.legend-swatch { display: inline-block; width: 2.5em; height: 0.9em; vertical-align: middle;
                 background: linear-gradient(to right, rgba(215, 48, 39, 0), rgba(215, 48, 39, 0.75)); border: 1px solid #ccc; }
)";

std::string page_start(const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"generator\" content=\"warpscope\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
      html_escape(title), kCss);
}

constexpr const char* kPageEnd = "</body>\n</html>\n";

std::string timing_note(const json& report) {
  std::string note = string_field(report, "timing_note");
  if (note.empty()) return "";
  return fmt::format("<p class=\"note timing-note\" id=\"timing-note\">{}</p>\n", html_escape(note));
}

// ---- index.html ----

std::string arch_summary(const json& report) {
  std::string s = "<dl class=\"summary\">\n";
  s += fmt::format("<dt>Architecture</dt><dd id=\"arch\">{}</dd>\n", h(field(report, "arch")));
  std::vector<std::string> others;
  for (const json& a : array_field(report, "compare_archs")) others.push_back(h(a));
  if (!others.empty())
    s += fmt::format("<dt>Compared with</dt><dd id=\"compare-archs\">{}</dd>\n", fmt::join(others, ", "));
  if (const json* gpu = field(report, "gpu")) s += fmt::format("<dt>GPU</dt><dd>{}</dd>\n", h(gpu));
  return s + "</dl>\n";
}

}  // namespace

std::string html_launch_file(const json& launch, std::size_t launch_position) {
  const json* index = field(launch, "index");
  if (index && (index->is_number_unsigned() || (index->is_number_integer() && index->get<std::int64_t>() >= 0)))
    return fmt::format("launch_{}.html", to_u64(*index));
  return fmt::format("launch_{}.html", launch_position);
}

std::string html_index_page(const json& report) {
  std::string s = page_start("warpscope report");
  s += "<h1>warpscope report</h1>\n";
  const json* tool = field(report, "tool");
  if (tool)
    s += fmt::format("<p class=\"note\">{} {}</p>\n", html_escape(string_field(*tool, "name", "warpscope")),
                     html_escape(string_field(*tool, "version")));
  s += arch_summary(report);
  s += timing_note(report);
  if (const json* mm = field(report, "memory_model"); mm && mm->is_boolean() && !mm->get<bool>())
    s += "<p class=\"note\">Built without the memory model: memory metrics are absent.</p>\n";
  if (const json* ptxas = field(report, "ptxas"); ptxas && field(*ptxas, "available") &&
                                                  *field(*ptxas, "available") == false)
    s += fmt::format("<p class=\"note\">ptxas not available: register counts are unknown. {}</p>\n",
                     html_escape(string_field(*ptxas, "note")));
  if (const json* sticky = field(report, "sticky_error"))
    s += fmt::format("<p class=\"error\" id=\"sticky-error\">The program hit {}: {}</p>\n",
                     html_escape(string_field(*sticky, "code")), html_escape(string_field(*sticky, "message")));

  s += stopped_html(report);
  const json& launches = array_field(report, "launches");
  s += fmt::format("<h2>Launches ({})</h2>\n", launches.size());
  s += "<table id=\"launches\">\n<thead><tr>"
       "<th class=\"num\">#</th><th>kernel</th><th>grid</th><th>block</th><th class=\"num\">registers</th>"
       "<th class=\"num\" title=\"global load and store requests\">global requests</th>"
       "<th class=\"num\">sectors / request</th><th class=\"num\">bus utilization %</th>"
       "<th class=\"num\" title=\"L1 hit rate of global loads\">L1 hit %</th><th class=\"num\">L2 hit %</th>"
       "<th class=\"num\">local bytes</th><th class=\"num\">shared wavefronts / conflicts</th>"
       "<th class=\"num\">advice</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const json& l = launches[i];
    bool faulted = field(l, "error") != nullptr;
    s += fmt::format("<tr class=\"launch{}\" data-index=\"{}\">", faulted ? " faulted" : "",
                     h(field(l, "index") ? *field(l, "index") : json(i)));
    s += fmt::format("<td class=\"num\">{}</td>", h(field(l, "index") ? *field(l, "index") : json(i)));
    s += fmt::format("<td class=\"name\"><a href=\"{}\">{}</a>{}</td>", html_escape(html_launch_file(l, i)),
                     html_escape(kernel_name(l)),
                     faulted                  ? " <span class=\"error\">(faulted)</span>"
                     : field(l, "incomplete") ? " <span class=\"error\">(incomplete)</span>"
                                              : "");
    s += fmt::format("<td class=\"dim\">{}</td><td class=\"dim\">{}</td>", dim3(field(l, "grid")),
                     dim3(field(l, "block")));
    s += fmt::format("<td class=\"num\">{}</td>", h(field(l, "registers")));
    s += fmt::format("<td class=\"num\">{}</td>", metric(l, "global_requests"));
    s += fmt::format("<td class=\"num\">{}</td>", metric(l, "global_sectors_per_request"));
    s += fmt::format("<td class=\"num\">{}</td>", metric(l, "global_bus_utilization_pct"));
    s += fmt::format("<td class=\"num\">{}</td>", metric(l, "l1_hit_rate_global_ld_pct"));
    s += fmt::format("<td class=\"num\">{}</td>", metric(l, "l2_hit_rate_pct"));
    s += fmt::format("<td class=\"num\">{}</td>", metric(l, "local_bytes"));
    s += fmt::format("<td class=\"num\">{} / {}</td>", metric(l, "shared_wavefronts"),
                     metric(l, "shared_bank_conflicts"));
    s += fmt::format("<td class=\"num\">{}</td>", array_field(l, "advice").size());
    s += "</tr>\n";
  }
  s += "</tbody>\n</table>\n";
  if (launches.empty()) s += "<p class=\"note\">The program launched no kernel.</p>\n";
  return s + kPageEnd;
}

namespace {

// ---- A launch page. ----

/// The counters of a source line, in table order: (JSON key, column heading, tooltip).
struct Column {
  const char* key;
  const char* heading;
  const char* tip;
};
constexpr Column kLineColumns[] = {
    {"executions", "exec", "warp-level instructions executed on this line"},
    {"thread_executions", "thread exec", "thread-level instructions executed"},
    {"global_requests", "global req", "global load/store requests"},
    {"global_sectors", "sectors", "global sectors (or lines/segments) moved"},
    {"global_ideal_sectors", "ideal", "fewest sectors that could hold the bytes asked for"},
    {"global_excessive_sectors", "excess", "sectors - ideal sectors"},
    {"global_bytes_requested", "bytes req", "bytes the threads asked for"},
    {"global_bytes_moved", "bytes moved", "bytes the transactions moved"},
    {"l1_hit_sectors", "L1 hit", "sectors that hit in L1"},
    {"l2_hit_sectors", "L2 hit", "sectors that hit in L2"},
    {"local_requests", "local req", "local-memory requests"},
    {"local_sectors", "local sect", "local-memory sectors"},
    {"shared_wavefronts", "shared wf", "shared-memory wavefronts"},
    {"shared_ideal_wavefronts", "ideal wf", "wavefronts without bank conflicts"},
    {"shared_excess_wavefronts", "excess wf", "wavefronts - ideal wavefronts (bank conflicts)"},
};
constexpr std::size_t kLineColumnCount = std::size(kLineColumns);

double line_excess(const json& line) {
  return number_field(line, "global_excessive_sectors") + number_field(line, "shared_excess_wavefronts");
}

double instruction_excess(const json& insn) {
  double wf = number_field(insn, "wavefronts") - number_field(insn, "ideal_wavefronts");
  return number_field(insn, "excessive_sectors") + std::max(0.0, wf);
}

std::string file_label(const std::string& file) { return file.empty() ? "(no line information)" : file; }

std::string basename_of(const std::string& file) {
  auto slash = file.find_last_of('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

/// Source lines grouped by file (files sorted by name), each group sorted by line number.
using FileGroups = std::map<std::string, std::vector<const json*>>;

FileGroups group_lines(const json& launch) {
  FileGroups groups;
  for (const json& line : array_field(launch, "lines")) groups[string_field(line, "file")].push_back(&line);
  for (auto& [file, lines] : groups)
    std::stable_sort(lines.begin(), lines.end(), [](const json* a, const json* b) {
      return number_field(*a, "line") < number_field(*b, "line");
    });
  return groups;
}

/// The anchor of a source line's row: "src-<file number>-<line>".
std::string line_anchor(const FileGroups& groups, const std::string& file, const json* line) {
  auto it = groups.find(file);
  if (it == groups.end()) return "";
  return fmt::format("src-{}-{}", std::distance(groups.begin(), it), plain(line));
}

std::string launch_header(const json& report, const json& launch, std::size_t position, std::size_t count) {
  std::string s = fmt::format(
      "<nav><a href=\"index.html\">&larr; all launches</a> &middot; launch {} of {}</nav>\n",
      position + 1, count);
  s += fmt::format("<h1 class=\"kernel-name\" id=\"kernel-name\">{}</h1>\n", html_escape(kernel_name(launch)));
  if (const json* mangled = field(launch, "kernel"))
    s += fmt::format("<p class=\"mangled\"><code>{}</code></p>\n", h(mangled));
  s += "<dl class=\"summary\">\n";
  s += fmt::format("<dt>Architecture</dt><dd id=\"arch\">{}</dd>\n", h(field(report, "arch")));
  s += fmt::format("<dt>Launch</dt><dd>{}</dd>\n", h(field(launch, "index") ? *field(launch, "index") : json(position)));
  s += fmt::format("<dt>Grid</dt><dd id=\"grid\">{}</dd>\n", dim3(field(launch, "grid")));
  s += fmt::format("<dt>Block</dt><dd id=\"block\">{}</dd>\n", dim3(field(launch, "block")));
  s += fmt::format("<dt>Dynamic shared memory</dt><dd>{} bytes</dd>\n", h(field(launch, "dynamic_shared_bytes")));
  s += fmt::format("<dt>Registers per thread</dt><dd>{}</dd>\n", h(field(launch, "registers")));
  if (field(launch, "stream")) s += fmt::format("<dt>Stream</dt><dd>{}</dd>\n", h(field(launch, "stream")));
  if (field(launch, "wall_ms"))
    s += fmt::format("<dt>Wall time</dt><dd>{} ms (emulator)</dd>\n", h(field(launch, "wall_ms")));
  if (field(launch, "module")) s += fmt::format("<dt>Module</dt><dd><code>{}</code></dd>\n", h(field(launch, "module")));
  s += "</dl>\n";
  if (const json* error = field(launch, "error"))
    s += fmt::format("<p class=\"error\" id=\"launch-error\">The launch faulted: {}</p>\n", h(error));
  s += incomplete_html(launch);
  return s;
}

std::string estimated_marker() {
  return "<span class=\"estimated\" title=\"produced by a rule, not by exact address arithmetic\">estimated</span>";
}

std::string metrics_section(const json& report, const json& launch) {
  std::string s = fmt::format("<h2 id=\"metrics-heading\">Metrics ({})</h2>\n", h(field(report, "arch")));
  const json* metrics = field(launch, "metrics");
  if (!metrics || !metrics->is_object() || metrics->empty())
    return s + "<p class=\"note\">No metrics for this launch.</p>\n";
  std::set<std::string> estimated = estimated_set(launch);
  s += "<table id=\"metrics\">\n<thead><tr><th>metric</th><th class=\"num\">value</th></tr></thead>\n<tbody>\n";
  for (const auto& [name, value] : metrics->items()) {
    bool est = estimated.count(name) != 0;
    bool zero = value.is_number() && value.get<double>() == 0;
    s += fmt::format("<tr class=\"metric{}{}\" data-metric=\"{}\"><td class=\"metric-name\"><code>{}</code>{}</td>"
                     "<td class=\"num\">{}</td></tr>\n",
                     est ? " is-estimated" : "", zero ? " zero" : "", html_escape(name), html_escape(name), est ? estimated_marker() : "",
                     h(value));
  }
  s += "</tbody>\n</table>\n";
  if (!estimated.empty())
    s += "<p class=\"note\">Metrics marked estimated depend on CTA scheduling and cache replacement, which the "
         "model approximates.</p>\n";
  return s;
}

std::string evidence_list(const json& advice) {
  const json* evidence = field(advice, "evidence");
  if (!evidence || !evidence->is_object() || evidence->empty()) return "";
  std::vector<std::string> items;
  for (const auto& [key, value] : evidence->items())
    items.push_back(fmt::format("<span class=\"ev\"><span class=\"ev-key\">{}</span> {}</span>", html_escape(key),
                                h(value)));
  return fmt::format("<div class=\"evidence\">{}</div>\n", fmt::join(items, " "));
}

std::string advice_item(const json& advice, const char* cls, const FileGroups* groups) {
  std::string rule = string_field(advice, "rule", "advice");
  std::string file = string_field(advice, "file");
  std::string where;
  if (field(advice, "line") && !(file.empty() && number_field(advice, "line") == 0)) {
    std::string label = html_escape(fmt::format("{}:{}", basename_of(file_label(file)), plain(field(advice, "line"))));
    std::string anchor = groups ? line_anchor(*groups, file, field(advice, "line")) : "";
    where = anchor.empty() ? label : fmt::format("<a href=\"#{}\">{}</a>", anchor, label);
  }
  if (field(advice, "pc")) where += fmt::format(" pc {}", h(field(advice, "pc")));
  return fmt::format("<li class=\"{}\" data-rule=\"{}\"><div><span class=\"rule\">{}</span> {}</div>"
                     "<p class=\"message\">{}</p>\n{}</li>\n",
                     cls, html_escape(rule), html_escape(rule), where,
                     html_escape(string_field(advice, "message")), evidence_list(advice));
}

std::string advice_section(const json& launch, const FileGroups& groups) {
  std::string s = "<h2 id=\"advice-heading\">Advice</h2>\n";
  const json& advice = array_field(launch, "advice");
  if (advice.empty()) return s + "<p class=\"note\" id=\"no-advice\">No advice for this launch.</p>\n";
  s += "<ol class=\"advice-list\" id=\"advice\">\n";
  for (const json& a : advice) s += advice_item(a, "advice", &groups);
  return s + "</ol>\n";
}

std::string compare_section(const json& report, const json& launch) {
  const json& compare = array_field(launch, "compare");
  if (compare.empty()) return "";
  // Columns: the primary architecture, then every compared one. Rows: the primary's metrics in
  // order, then any metric only a compared architecture has.
  std::vector<const json*> entries{&launch};
  std::vector<std::string> archs{plain(field(report, "arch"))};
  for (const json& c : compare) {
    entries.push_back(&c);
    archs.push_back(plain(field(c, "arch")));
  }
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const json* e : entries)
    if (const json* m = field(*e, "metrics"); m && m->is_object())
      for (const auto& [name, value] : m->items())
        if (seen.insert(name).second) names.push_back(name);
  std::vector<std::set<std::string>> estimated;
  for (const json* e : entries) estimated.push_back(estimated_set(*e));

  std::string s = "<h2 id=\"compare-heading\">Architectures side by side</h2>\n<table id=\"compare\">\n<thead><tr><th>metric</th>";
  for (const std::string& a : archs) s += fmt::format("<th class=\"num arch\">{}</th>", html_escape(a));
  s += "</tr></thead>\n<tbody>\n";
  for (const std::string& name : names) {
    std::vector<std::string> cells;
    std::set<std::string> distinct;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      const json* m = field(*entries[i], "metrics");
      const json* v = m ? field(*m, name.c_str()) : nullptr;
      distinct.insert(plain(v));
      cells.push_back(fmt::format("<td class=\"num\">{}{}</td>", h(v),
                                  estimated[i].count(name) ? estimated_marker() : ""));
    }
    s += fmt::format("<tr class=\"metric{}\" data-metric=\"{}\"><td class=\"metric-name\"><code>{}</code></td>{}</tr>\n",
                     distinct.size() > 1 ? " differs" : "", html_escape(name), html_escape(name),
                     fmt::join(cells, ""));
  }
  s += "<tr class=\"advice-count\"><td class=\"metric-name\">advice items</td>";
  for (const json* e : entries) s += fmt::format("<td class=\"num\">{}</td>", array_field(*e, "advice").size());
  s += "</tr>\n</tbody>\n</table>\n";
  for (std::size_t i = 1; i < entries.size(); ++i) {
    const json& advice = array_field(*entries[i], "advice");
    if (advice.empty()) continue;
    s += fmt::format("<h3>Advice on {}</h3>\n<ol class=\"advice-list compare-advice-list\">\n", html_escape(archs[i]));
    for (const json& a : advice) s += advice_item(a, "compare-advice", nullptr);
    s += "</ol>\n";
  }
  return s;
}

/// One warp access of an instruction's sample as the picture wants it.
AccessPicture picture_of(const json& line, const json& insn, const json& sample) {
  AccessPicture pic;
  pic.width = static_cast<std::uint32_t>(u64_field(sample, "width", u64_field(insn, "width", 4)));
  if (pic.width == 0) pic.width = 4;
  const json& addresses = array_field(sample, "addresses");
  for (std::size_t lane = 0; lane < addresses.size() && lane < kMaxWarpSize; ++lane)
    if (addresses[lane].is_number()) {
      pic.addr[lane] = to_u64(addresses[lane]);
      pic.active.set(static_cast<unsigned>(lane));
    }
  for (const json& t : array_field(sample, "transactions"))
    if (t.is_array() && t.size() >= 2 && t[0].is_number() && t[1].is_number())
      pic.transactions.push_back({to_u64(t[0]), static_cast<std::uint32_t>(to_u64(t[1]))});
  pic.unit_name = string_field(sample, "unit", "sector");
  pic.bytes_requested = u64_field(sample, "bytes_requested");
  pic.bytes_moved = u64_field(sample, "bytes_moved");
  pic.wavefronts = static_cast<std::uint32_t>(u64_field(sample, "wavefronts"));
  pic.title = fmt::format("line {}: {}, cta {} warp {}", plain(field(line, "line")), string_field(insn, "ptx"),
                          plain(field(sample, "cta")), plain(field(sample, "warp")));
  return pic;
}

/// The instructions to draw: the top few by excess among those with a sample, best first (in
/// file, line, pc order on ties).
std::vector<const json*> worst_instructions(const FileGroups& groups) {
  struct Candidate {
    double excess;
    const json* insn;
  };
  std::vector<Candidate> candidates;
  for (const auto& [file, lines] : groups)
    for (const json* line : lines)
      for (const json& insn : array_field(*line, "instructions"))
        if (const json* sample = field(insn, "sample"); sample && sample->is_object())
          candidates.push_back({instruction_excess(insn), &insn});
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.excess > b.excess; });
  constexpr std::size_t kPictures = 5;
  std::vector<const json*> worst;
  for (std::size_t i = 0; i < candidates.size() && i < kPictures; ++i) worst.push_back(candidates[i].insn);
  return worst;
}

std::string instruction_summary(const std::string& file, const json& line, const json& insn) {
  return fmt::format("{}:{} pc {} <code>{}</code> ({} {}): {} excessive sectors, {} wavefronts (ideal {})",
                     html_escape(basename_of(file_label(file))), h(field(line, "line")), h(field(insn, "pc")),
                     h(field(insn, "ptx")), h(field(insn, "space")), h(field(insn, "op")),
                     h(field(insn, "excessive_sectors")), h(field(insn, "wavefronts")),
                     h(field(insn, "ideal_wavefronts")));
}

std::string access_figure(std::size_t number, const std::string& file, const json& line, const json& insn) {
  const json& sample = *field(insn, "sample");
  std::string caption = fmt::format("Access {}: {}; drawn: the warp access with the most excess", number + 1,
                                    instruction_summary(file, line, insn));
  if (number_field(sample, "wavefronts") > 0)
    caption += fmt::format(" ({} wavefronts)", h(field(sample, "wavefronts")));
  return fmt::format("<figure class=\"access-svg\" id=\"access-{}\" data-line=\"{}\" data-pc=\"{}\">\n"
                     "<figcaption>{}</figcaption>\n{}</figure>\n",
                     number, h(field(line, "line")), h(field(insn, "pc")), caption,
                     render_access_svg(picture_of(line, insn, sample)));
}

std::string counter_cells(const json& line) {
  std::string s;
  for (const Column& c : kLineColumns) s += fmt::format("<td class=\"num\">{}</td>", h(field(line, c.key)));
  return s;
}

/// An instruction's counters under the line's columns: the global ones for a global access, the
/// local ones for a local access, the shared ones for a shared access.
std::string instruction_cells(const json& insn) {
  std::vector<std::string> cells(kLineColumnCount);
  auto put = [&](const char* column, const json* v) {
    for (std::size_t i = 0; i < kLineColumnCount; ++i)
      if (std::string_view(kLineColumns[i].key) == column) cells[i] = h(v);
  };
  put("executions", field(insn, "executions"));
  put("thread_executions", field(insn, "active_lanes"));
  std::string space = string_field(insn, "space");
  if (space == "global") {
    put("global_requests", field(insn, "requests"));
    put("global_sectors", field(insn, "sectors"));
    put("global_ideal_sectors", field(insn, "ideal_sectors"));
    put("global_excessive_sectors", field(insn, "excessive_sectors"));
    put("global_bytes_requested", field(insn, "bytes_requested"));
    put("global_bytes_moved", field(insn, "bytes_moved"));
    put("l1_hit_sectors", field(insn, "l1_hit_sectors"));
    put("l2_hit_sectors", field(insn, "l2_hit_sectors"));
  } else if (space == "local") {
    put("local_requests", field(insn, "requests"));
    put("local_sectors", field(insn, "sectors"));
  } else if (space == "shared") {
    put("shared_wavefronts", field(insn, "wavefronts"));
    put("shared_ideal_wavefronts", field(insn, "ideal_wavefronts"));
    if (field(insn, "wavefronts") && field(insn, "ideal_wavefronts")) {
      json excess = std::max(0.0, number_field(insn, "wavefronts") - number_field(insn, "ideal_wavefronts"));
      put("shared_excess_wavefronts", &excess);
    }
  }
  std::string s;
  for (const std::string& c : cells) s += fmt::format("<td class=\"num\">{}</td>", c);
  return s;
}

std::string source_section(const FileGroups& groups) {
  std::string s = "<h2 id=\"source-heading\">Source</h2>\n";
  if (groups.empty()) return s + "<p class=\"note\">No source lines were recorded for this launch.</p>\n";
  double worst = 0;
  for (const auto& [file, lines] : groups)
    for (const json* line : lines) worst = std::max(worst, line_excess(*line));
  std::vector<const json*> pictured = worst_instructions(groups);
  s += "<p class=\"note\">Each CUDA source line with an executed instruction, its memory instructions (PTX) "
       "below it. A line's shade <span class=\"legend-swatch\"></span> is its excess traffic (excessive global "
       "sectors plus shared excess wavefronts) relative to the worst line of this launch.</p>\n";
  if (!pictured.empty()) {
    // The pictures sit under their instructions; list them here, worst first.
    s += "<p>Worst accesses, drawn under their lines (lanes on top, the transactions they cause below):</p>\n"
         "<ol class=\"worst-list\">\n";
    for (std::size_t i = 0; i < pictured.size(); ++i)
      for (const auto& [file, lines] : groups)
        for (const json* line : lines)
          for (const json& insn : array_field(*line, "instructions"))
            if (&insn == pictured[i])
              s += fmt::format("<li><a href=\"#access-{}\">{}</a></li>\n", i, instruction_summary(file, *line, insn));
    s += "</ol>\n";
  }
  std::string head = "<thead><tr><th class=\"num\">line</th><th>source</th>";
  for (const Column& c : kLineColumns)
    head += fmt::format("<th class=\"num\" title=\"{}\">{}</th>", html_escape(c.tip), html_escape(c.heading));
  head += "</tr></thead>\n";

  std::size_t file_number = 0;
  for (const auto& [file, lines] : groups) {
    s += fmt::format("<h3 class=\"src-file\" id=\"file-{}\"><code>{}</code></h3>\n", file_number,
                     html_escape(file_label(file)));
    s += fmt::format("<div class=\"src-wrap\">\n<table class=\"src\" data-file=\"{}\">\n{}<tbody>\n",
                     html_escape(file), head);
    for (const json* line : lines) {
      double excess = line_excess(*line);
      double shade = worst > 0 ? 0.75 * excess / worst : 0;
      std::string style =
          shade > 0 ? fmt::format(" style=\"background-color: rgba(215, 48, 39, {:.3f})\"", shade) : "";
      std::string number = h(field(*line, "line"));
      s += fmt::format("<tr class=\"src-line\" id=\"src-{}-{}\" data-file=\"{}\" data-line=\"{}\" "
                       "data-excess=\"{}\" data-shade=\"{:.3f}\"{}><td class=\"ln\">{}</td><td class=\"code\">{}</td>"
                       "{}</tr>\n",
                       file_number, number, html_escape(file), number, html_escape(plain(json(excess))), shade,
                       style, number, html_escape(string_field(*line, "text")), counter_cells(*line));
      for (const json& insn : array_field(*line, "instructions")) {
        s += fmt::format("<tr class=\"src-insn\" data-line=\"{}\" data-pc=\"{}\"><td class=\"ln\"></td>"
                         "<td class=\"code\">{}<span class=\"space\">{} {}</span></td>{}</tr>\n",
                         number, h(field(insn, "pc")), h(field(insn, "ptx")), h(field(insn, "space")),
                         h(field(insn, "op")), instruction_cells(insn));
        auto it = std::find(pictured.begin(), pictured.end(), &insn);
        if (it != pictured.end())
          s += fmt::format("<tr class=\"src-figure\" data-line=\"{}\"><td class=\"ln\"></td>"
                           "<td colspan=\"{}\">{}</td></tr>\n",
                           number, kLineColumnCount + 1,
                           access_figure(static_cast<std::size_t>(it - pictured.begin()), file, *line, insn));
      }
    }
    s += "</tbody>\n</table>\n</div>\n";
    ++file_number;
  }
  return s;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(ErrorKind::kIo, "cannot write '{}': {}", path.string(), std::generic_category().message(errno));
  out << text;
  out.close();
  if (!out) fail(ErrorKind::kIo, "cannot write '{}': {}", path.string(), std::generic_category().message(errno));
}

}  // namespace

std::string html_launch_page(const json& report, std::size_t launch_position) {
  const json& launches = array_field(report, "launches");
  if (launch_position >= launches.size())
    fail(ErrorKind::kUsage, "launch {} does not exist (the report has {})", launch_position, launches.size());
  const json& launch = launches[launch_position];
  FileGroups groups = group_lines(launch);
  std::string s = page_start(fmt::format("{} — warpscope", kernel_name(launch)));
  s += launch_header(report, launch, launch_position, launches.size());
  s += metrics_section(report, launch);
  s += advice_section(launch, groups);
  s += compare_section(report, launch);
  s += source_section(groups);
  s += timing_note(report);
  return s + kPageEnd;
}

void write_html_report(const json& report, const std::string& dir) {
  std::filesystem::path root(dir);
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  if (ec || !std::filesystem::is_directory(root))
    fail(ErrorKind::kIo, "cannot create directory '{}': {}", dir,
         ec ? ec.message() : std::string("a file of that name exists"));
  write_file(root / "index.html", html_index_page(report));
  const json& launches = array_field(report, "launches");
  for (std::size_t i = 0; i < launches.size(); ++i)
    write_file(root / html_launch_file(launches[i], i), html_launch_page(report, i));
}

}  // namespace warpscope::report
