#include "report/html_common.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "report/html.hpp"

namespace warpscope::report::html {

// ---- Reading. ----

const json* field(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return nullptr;
  return &*it;
}

const json& array_field(const json& object, const char* key) {
  static const json kEmpty = json::array();
  const json* v = field(object, key);
  return v && v->is_array() ? *v : kEmpty;
}

std::string string_field(const json& object, const char* key, const std::string& fallback) {
  const json* v = field(object, key);
  if (!v) return fallback;
  return v->is_string() ? v->get<std::string>() : v->dump();
}

double number_field(const json& object, const char* key, double fallback) {
  const json* v = field(object, key);
  return v && v->is_number() ? v->get<double>() : fallback;
}

std::uint64_t to_u64(const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer()) return v.get<std::int64_t>() < 0 ? 0 : static_cast<std::uint64_t>(v.get<std::int64_t>());
  if (v.is_number_float()) {
    double d = v.get<double>();
    return !(d > 0) ? 0 : d >= 1.8e19 ? UINT64_MAX : static_cast<std::uint64_t>(d);
  }
  return 0;
}

std::uint64_t u64_field(const json& object, const char* key, std::uint64_t fallback) {
  const json* v = field(object, key);
  return v && v->is_number() ? to_u64(*v) : fallback;
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

bool is_profiled(const json& launch) {
  const json* p = field(launch, "profiled");
  return !(p && p->is_boolean() && !p->get<bool>());
}

json launch_index(const json& launch, std::size_t position) {
  const json* index = field(launch, "index");
  return index ? *index : json(position);
}

// ---- Formatting. ----

std::string grouped(std::uint64_t n) {
  std::string digits = fmt::format("{}", n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {

std::string grouped_signed(std::int64_t n) {
  return n < 0 ? "-" + grouped(static_cast<std::uint64_t>(-(n + 1)) + 1) : grouped(static_cast<std::uint64_t>(n));
}

}  // namespace

std::string plain(const json* v) {
  if (!v || v->is_null()) return "\u2014";
  if (v->is_string()) return v->get<std::string>();
  if (v->is_number_unsigned()) return grouped(v->get<std::uint64_t>());
  if (v->is_number_integer()) return grouped_signed(v->get<std::int64_t>());
  if (v->is_number_float()) {
    double d = v->get<double>();
    if (!std::isfinite(d)) return fmt::format("{}", d);
    if (d == std::floor(d) && std::fabs(d) < 1e15) return grouped_signed(static_cast<std::int64_t>(d));
    if (std::fabs(d) < 0.01) return fmt::format("{:.3g}", d);
    if (std::fabs(d) >= 1e15) return fmt::format("{:.6g}", d);
    // Two decimals, the integer part grouped.
    std::string fixed = fmt::format("{:.2f}", std::fabs(d));
    auto dot = fixed.find('.');
    std::uint64_t whole = std::stoull(fixed.substr(0, dot));
    return (d < 0 ? "-" : "") + grouped(whole) + fixed.substr(dot);
  }
  if (v->is_boolean()) return v->get<bool>() ? "true" : "false";
  return v->dump();
}

std::string plain(const json& v) { return plain(&v); }

std::string raw(const json* v) {
  if (v && (v->is_number_integer() || v->is_number_unsigned())) return v->dump();
  if (v && v->is_number_float()) {
    double d = v->get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) return fmt::format("{:.0f}", d);
    return fmt::format("{}", d);
  }
  return plain(v);
}
std::string h(const json* v) { return html_escape(plain(v)); }
std::string h(const json& v) { return html_escape(plain(&v)); }

std::string dim3(const json* v) {
  if (!v || !v->is_array()) return h(v);
  std::string s;
  for (std::size_t i = 0; i < v->size(); ++i) s += (i ? " &times; " : "") + h((*v)[i]);
  return s;
}

std::string metric_text(const json& launch, const char* name) {
  const json* metrics = field(launch, "metrics");
  return h(metrics ? field(*metrics, name) : nullptr);
}

std::string estimated_marker() {
  return "<span class=\"estimated\" title=\"produced by a rule, not by exact address arithmetic\">estimated</span>";
}

std::pair<const char*, double> duration_unit(double ns) {
  const double size = std::fabs(ns);
  if (size < 1e3) return {"ns", 1};
  if (size < 1e6) return {"\u00b5s", 1e3};
  if (size < 1e9) return {"ms", 1e6};
  return {"s", 1e9};
}

std::string duration_text(double ns) {
  if (!std::isfinite(ns)) return "\u2014";
  auto [unit, size] = duration_unit(ns);
  return size == 1 ? fmt::format("{:.0f} ns", ns) : fmt::format("{:.2f} {}", ns / size, unit);
}

const json* prediction(const json& entry) {
  const json* t = field(entry, "time");
  if (!t || !t->is_object()) return nullptr;
  const json* available = field(*t, "available");
  if (!available || !available->is_boolean() || !available->get<bool>()) return nullptr;
  return field(*t, "duration_ns") && field(*t, "duration_ns")->is_number() ? t : nullptr;
}

// ---- Page frame. ----

namespace {

// One style sheet for every page. Widths: nothing is wider than the window (tables are 100 % at
// most and their long texts wrap), so a 1280-pixel window never scrolls sideways.
constexpr const char* kCss = R"(
* { box-sizing: border-box; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 0 auto;
       padding: 12px 20px 40px; color: #1a1a1a; background: #ffffff; font-size: 14px; max-width: 1400px; }
h1 { font-size: 1.45em; margin: 0.2em 0; overflow-wrap: anywhere; }
h2 { font-size: 1.15em; margin: 1.3em 0 0.4em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
h3 { font-size: 1.0em; margin: 1em 0 0.3em; }
a { color: #1f5fbf; }
nav { font-size: 13px; color: #555; }
code, .code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
table { border-collapse: collapse; margin: 0.4em 0; max-width: 100%; }
th, td { border: 1px solid #d5d5d5; padding: 2px 5px; vertical-align: top; }
th { background: #f0f0f0; font-weight: 600; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.num { white-space: nowrap; }
tbody tr:nth-child(even) { background: #fafafa; }
td.dim { white-space: nowrap; }
.note { color: #555; font-style: italic; max-width: 75em; }
.error { color: #a40000; font-weight: 600; }
.estimated { display: inline-block; font-size: 10px; color: #8a4b00; background: #fff0d9; border: 1px solid #f0c080;
             border-radius: 3px; padding: 0 3px; margin-left: 4px; vertical-align: middle; font-style: normal; }
.badge { display: inline-block; font-size: 11px; border-radius: 3px; padding: 0 5px; margin-left: 6px;
         vertical-align: middle; font-weight: 600; white-space: nowrap; }
.badge.not-profiled { color: #555; background: #eee; border: 1px solid #ccc; }
.badge.faulted { color: #fff; background: #a40000; }
dl.facts { display: flex; flex-wrap: wrap; gap: 4px 22px; margin: 0.5em 0 0.2em; }
dl.facts div { display: flex; gap: 6px; align-items: baseline; }
dl.facts dt { color: #555; font-size: 12px; }
dl.facts dd { margin: 0; font-weight: 600; }
p.mangled { margin: 0; color: #666; overflow-wrap: anywhere; }
/* index */
table#launches { width: 100%; font-size: 13px; }
table#launches th { font-size: 12px; vertical-align: bottom; }
table.sortable th { cursor: pointer; user-select: none; }
table.sortable th:hover { background: #e4e9f2; }
table.sortable th[aria-sort="ascending"]::after { content: " \25b2"; font-size: 9px; }
table.sortable th[aria-sort="descending"]::after { content: " \25bc"; font-size: 9px; }
td.limiter { white-space: nowrap; }
table#launches td.name { overflow-wrap: anywhere; min-width: 14em; }
table#launches tr.not-profiled td { color: #888; }
table#launches tr.not-profiled td.name a { color: #6d87b0; }
tr.faulted td { color: #a40000; }
/* advice */
ol.advice-list { padding-left: 1.6em; margin: 0.3em 0; }
li.advice, li.compare-advice { margin: 0.3em 0 0.7em; }
.rule { font-weight: 600; color: #fff; background: #b35806; border-radius: 3px; padding: 0 5px; font-size: 12px; }
.message { margin: 0.2em 0; }
div.evidence { font-size: 12px; color: #333; }
span.ev { display: inline-block; border: 1px solid #ddd; border-radius: 3px; padding: 0 5px; margin: 1px 2px 1px 0;
          background: #fafafa; white-space: nowrap; }
span.ev-key { color: #666; }
/* worst lines */
table#worst-lines { width: 100%; table-layout: fixed; }
table#worst-lines td.code { white-space: pre; overflow: hidden; text-overflow: ellipsis; }
table#worst-lines col.where { width: 12em; } table#worst-lines col.n { width: 8.5em; }
/* predicted time */
div.time-figures { display: flex; flex-wrap: wrap; gap: 8px 28px; align-items: flex-start; }
div.time-figures figure { margin: 0.2em 0; max-width: 100%; }
div.time-figures figcaption { font-size: 12px; color: #555; margin-bottom: 0.2em; }
div.time-figures svg { max-width: 100%; height: auto; display: block; }
/* memory chart */
figure#memory-chart { margin: 0.4em 0 0.8em; }
figure#memory-chart svg { width: 100%; max-width: 1180px; height: auto; display: block; }
figure#memory-chart figcaption { font-size: 12px; color: #555; margin-top: 0.3em; }
/* source */
table.src { font-size: 12px; width: 100%; }
table.src td.ln { color: #777; text-align: right; white-space: nowrap; }
table.src tr.src-line[style] td.ln { color: #1a1a1a; }
table.src td.code { white-space: pre-wrap; overflow-wrap: anywhere; }
table.src th.group { text-align: center; }
table.src tr.src-insn td { color: #555; font-size: 11px; border-top-style: dotted; }
table.src tr.src-insn td.code { padding-left: 2em; }
.space { font-size: 10px; color: #555; border: 1px solid #bbb; border-radius: 3px; padding: 0 3px; margin-left: 6px;
         white-space: nowrap; }
a.pic { font-size: 10px; margin-left: 6px; white-space: nowrap; }
figure.access-svg { margin: 0.6em 0 1.4em; }
figure.access-svg figcaption { margin-bottom: 0.3em; overflow-wrap: anywhere; }
figure.access-svg svg { width: 100%; max-width: 1180px; height: auto; border: 1px solid #ddd; }
.legend-swatch { display: inline-block; width: 2.5em; height: 0.9em; vertical-align: middle;
                 background: linear-gradient(to right, rgba(215, 48, 39, 0), rgba(215, 48, 39, 0.75)); border: 1px solid #ccc; }
/* metric tables */
details { margin: 0.5em 0; }
details > summary { cursor: pointer; font-weight: 600; }
details#all-metrics > summary { font-size: 1.15em; border-bottom: 1px solid #ccc; padding: 0.2em 0; margin-top: 1em; }
details.zeros > summary { font-weight: normal; color: #666; font-size: 12px; }
div.metric-groups { columns: 2 560px; column-gap: 24px; }
section.metric-group { break-inside: avoid; }
table.metrics { width: 100%; font-size: 12px; }
table.metrics td.metric-name { overflow-wrap: anywhere; }
tr.zero td { color: #999; }
/* comparison */
table#compare { width: 100%; font-size: 12px; }
table#compare td.metric-name { overflow-wrap: anywhere; }
table#compare tr.group th { background: #e4e9f2; }
table#compare tr.differs td.metric-name { font-weight: 600; }
table#compare td.diff { background: #fde2c8; }
table#compare span.delta { color: #8a4b00; font-size: 10px; margin-left: 4px; }
table#compare-advice { width: 100%; table-layout: fixed; font-size: 12px; }
table#compare-summary { font-size: 13px; min-width: 40em; }
table#compare-summary tbody th { font-weight: 600; background: #f7f7f7; }
table#compare-summary td.unit { color: #555; white-space: nowrap; }
table#compare-summary td.diff { background: #fde2c8; }
table#compare-summary tr#summary-duration td.num { font-size: 15px; font-weight: 600; }
table#compare-summary span.delta { color: #8a4b00; font-size: 10px; margin-left: 4px; }
table#compare-advice td { overflow-wrap: anywhere; }
)";

}  // namespace

std::string page_start(const std::string& title) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"warpscope\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n",
      html_escape(title), kCss);
}

const char* const kPageEnd = "</body>\n</html>\n";

// Rows keep their first order on ties (data-pos, set once); cells without a value (empty
// data-sort, or a dash) sort last in both directions.
const char* const kSortScript = R"js(<script>
(function () {
  function key(row, col) {
    var cell = row.cells[col];
    if (!cell) return null;
    var v = cell.getAttribute('data-sort');
    if (v === null) v = cell.textContent.trim();
    if (v === '' || v === '\u2014') return null;
    var n = Number(v);
    return isNaN(n) ? v.toLowerCase() : n;
  }
  function sortBy(table, th, col) {
    var dir = th.getAttribute('aria-sort') === 'ascending' ? -1 : 1;
    Array.prototype.forEach.call(th.parentNode.cells, function (h) { h.removeAttribute('aria-sort'); });
    th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
    var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a, col), y = key(b, col), order = a.getAttribute('data-pos') - b.getAttribute('data-pos');
      if (x === null || y === null) return x === y ? order : x === null ? 1 : -1;
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -dir : x > y ? dir : 0) || order;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    Array.prototype.forEach.call(table.tBodies[0].rows, function (r, i) { r.setAttribute('data-pos', i); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, col) {
      th.tabIndex = 0;
      th.title = (th.title ? th.title + ' \u2014 ' : '') + 'click to sort';
      th.addEventListener('click', function () { sortBy(table, th, col); });
      th.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); sortBy(table, th, col); }
      });
    });
  });
})();
</script>
)js";

std::string timing_note(const json& report) {
  std::string note = string_field(report, "timing_note");
  if (note.empty()) return "";
  return fmt::format("<p class=\"note timing-note\" id=\"timing-note\">{}</p>\n", html_escape(note));
}

std::string compare_archs_text(const json& launch) {
  std::vector<std::string> archs;
  for (const json& c : array_field(launch, "compare")) archs.push_back(h(field(c, "arch")));
  return fmt::format("{}", fmt::join(archs, ", "));
}

// ---- Source lines. ----

FileGroups group_lines(const json& launch) {
  FileGroups groups;
  for (const json& line : array_field(launch, "lines")) groups[string_field(line, "file")].push_back(&line);
  for (auto& [file, lines] : groups)
    std::stable_sort(lines.begin(), lines.end(),
                     [](const json* a, const json* b) { return number_field(*a, "line") < number_field(*b, "line"); });
  return groups;
}

std::string file_label(const std::string& file) { return file.empty() ? "(no line information)" : file; }

std::string basename_of(const std::string& file) {
  auto slash = file.find_last_of('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

std::string line_anchor(const FileGroups& groups, const std::string& file, const json* line) {
  auto it = groups.find(file);
  if (it == groups.end() || !line) return "";
  return fmt::format("src-{}-{}", std::distance(groups.begin(), it), html_escape(raw(line)));
}

double line_excess(const json& line) {
  return number_field(line, "global_excessive_sectors") + number_field(line, "shared_excess_wavefronts");
}

double instruction_excess(const json& insn) {
  double wf = number_field(insn, "wavefronts") - number_field(insn, "ideal_wavefronts");
  return number_field(insn, "excessive_sectors") + std::max(0.0, wf);
}

namespace {

std::string evidence_list(const json& advice) {
  const json* evidence = field(advice, "evidence");
  if (!evidence || !evidence->is_object() || evidence->empty()) return "";
  std::vector<std::string> items;
  for (const auto& [key, value] : evidence->items()) {
    if (value.is_array() || value.is_object()) {
      // The instructions of a merged item (evidence.instructions): their pcs, not their JSON.
      if (key != "instructions" || !value.is_array()) continue;
      std::vector<std::string> pcs;
      for (const auto& i : value)
        if (i.is_object() && i.contains("pc")) pcs.push_back(h(i["pc"]));
      items.push_back(fmt::format("<span class=\"ev\"><span class=\"ev-key\">instructions</span> pc {}</span>",
                                  fmt::join(pcs, ", ")));
      continue;
    }
    items.push_back(
        fmt::format("<span class=\"ev\"><span class=\"ev-key\">{}</span> {}</span>", html_escape(key), h(value)));
  }
  return fmt::format("<div class=\"evidence\">{}</div>\n", fmt::join(items, " "));
}

}  // namespace

std::string advice_item(const json& advice, const char* cls, const FileGroups* groups) {
  std::string rule = string_field(advice, "rule", "advice");
  std::string file = string_field(advice, "file");
  std::string where;
  if (field(advice, "line") && !(file.empty() && number_field(advice, "line") == 0)) {
    std::string label = html_escape(fmt::format("{}:{}", basename_of(file_label(file)), raw(field(advice, "line"))));
    std::string anchor = groups ? line_anchor(*groups, file, field(advice, "line")) : "";
    where = anchor.empty() ? label : fmt::format("<a href=\"#{}\">{}</a>", anchor, label);
  }
  if (field(advice, "pc")) where += fmt::format(" pc {}", h(field(advice, "pc")));
  return fmt::format(
      "<li class=\"{}\" data-rule=\"{}\"><div><span class=\"rule\">{}</span> {}</div>"
      "<p class=\"message\">{}</p>\n{}</li>\n",
      cls, html_escape(rule), html_escape(rule), where, html_escape(string_field(advice, "message")),
      evidence_list(advice));
}

}  // namespace warpscope::report::html
