// index.html: the run (tool, architectures, GPU, launch filter) and one row per launch with its
// predicted duration and limiter, sortable by any column (a small inline script, kSortScript).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/html.hpp"
#include "report/html_common.hpp"
#include "report/incomplete.hpp"

namespace warpscope::report {
namespace {

using namespace html;

std::string run_summary(const json& report) {
  std::string s = "<dl class=\"facts\">";
  s += fmt::format("<div><dt>architecture</dt><dd id=\"arch\">{}</dd></div>", h(field(report, "arch")));
  std::vector<std::string> others;
  for (const json& a : array_field(report, "compare_archs")) others.push_back(h(a));
  if (!others.empty())
    s += fmt::format("<div><dt>compared with</dt><dd id=\"compare-archs\">{}</dd></div>", fmt::join(others, ", "));
  if (const json* gpu = field(report, "gpu")) s += fmt::format("<div><dt>GPU</dt><dd>{}</dd></div>", h(gpu));
  if (const json* filter = field(report, "launch_filter"); filter && filter->is_object()) {
    std::vector<std::string> options;
    if (const json* k = field(*filter, "kernel_name")) options.push_back("--kernel-name " + plain(k));
    if (const json* b = field(*filter, "kernel_name_base"); b && plain(b) != "function")
      options.push_back("--kernel-name-base " + plain(b));
    if (const json* n = field(*filter, "launch_skip"); n && number_field(*filter, "launch_skip") != 0)
      options.push_back("--launch-skip " + raw(n));
    if (const json* n = field(*filter, "launch_count")) options.push_back("--launch-count " + raw(n));
    s += fmt::format("<div><dt>launch filter</dt><dd id=\"launch-filter\"><code>{}</code></dd></div>",
                     html_escape(fmt::format("{}", fmt::join(options, " "))));
  }
  return s + "</dl>\n";
}

/// The product of a dim3 array's numbers (threads per block, blocks per grid), "" when not one.
std::string dim3_sort_key(const json* v) {
  if (!v || !v->is_array() || v->empty()) return "";
  std::uint64_t n = 1;
  for (const json& d : *v) {
    if (!d.is_number()) return "";
    n *= to_u64(d);
  }
  return fmt::format("{}", n);
}

/// A numeric cell: the value as the page shows it, the plain number in data-sort ("" when absent).
std::string number_cell(const json* v, const char* cls = "num") {
  std::string key = v && v->is_number() ? raw(v) : "";
  return fmt::format("<td class=\"{}\" data-sort=\"{}\">{}</td>", cls, html_escape(key), h(v));
}

const json* metric(const json& launch, const char* name) {
  const json* metrics = field(launch, "metrics");
  return metrics ? field(*metrics, name) : nullptr;
}

std::string launch_row(const json& l, std::size_t i) {
  bool faulted = field(l, "error") != nullptr;
  bool profiled = is_profiled(l);
  json number = launch_index(l, i);
  std::string index = html_escape(raw(&number));
  std::string cls = std::string("launch") + (faulted ? " faulted" : "") + (profiled ? "" : " not-profiled");
  std::string s = fmt::format("<tr class=\"{}\" data-index=\"{}\"><td class=\"num\" data-sort=\"{}\">{}</td>", cls,
                              index, index, index);
  std::string badges;
  if (faulted) badges += " <span class=\"badge faulted\">faulted</span>";
  else if (field(l, "incomplete")) badges += " <span class=\"badge faulted\">incomplete</span>";
  if (!profiled)
    badges += fmt::format(" <span class=\"badge not-profiled\" title=\"{}\">not profiled</span>",
                          html_escape(string_field(l, "not_profiled", "left out by the launch filter")));
  if (!array_field(l, "compare").empty())
    badges += fmt::format(" <a class=\"compare-link\" href=\"{}\" title=\"{}\">side by side</a>",
                          html_escape(html_compare_file(l, i)), compare_archs_text(l));
  s += fmt::format("<td class=\"name\" data-sort=\"{}\"><a href=\"{}\">{}</a>{}</td>", html_escape(kernel_name(l)),
                   html_escape(html_launch_file(l, i)), html_escape(kernel_name(l)), badges);
  s += fmt::format("<td class=\"dim\" data-sort=\"{}\">{}</td><td class=\"dim\" data-sort=\"{}\">{}</td>",
                   dim3_sort_key(field(l, "grid")), dim3(field(l, "grid")), dim3_sort_key(field(l, "block")),
                   dim3(field(l, "block")));
  s += number_cell(field(l, "registers"));
  // The time model's prediction: the duration with its unit (sorted by nanoseconds), the limiter.
  if (const json* t = prediction(l)) {
    double ns = number_field(*t, "duration_ns");
    s += fmt::format("<td class=\"num time\" data-sort=\"{}\" data-ns=\"{}\">{}</td>", raw(field(*t, "duration_ns")),
                     raw(field(*t, "duration_ns")), html_escape(duration_text(ns)));
    s += fmt::format("<td class=\"limiter\" data-sort=\"{0}\">{0}</td>", html_escape(string_field(*t, "limiter", "")));
  } else {
    s += "<td class=\"num time\" data-sort=\"\">\u2014</td><td class=\"limiter\" data-sort=\"\">\u2014</td>";
  }
  for (const char* name : {"global_requests", "global_sectors_per_request", "global_bus_utilization_pct",
                           "l1_hit_rate_global_ld_pct", "l2_hit_rate_pct", "local_bytes"})
    s += number_cell(metric(l, name));
  const json* wavefronts = metric(l, "shared_wavefronts");
  s += fmt::format("<td class=\"num\" data-sort=\"{}\">{} / {}</td>",
                   wavefronts && wavefronts->is_number() ? raw(wavefronts) : "", metric_text(l, "shared_wavefronts"),
                   metric_text(l, "shared_bank_conflicts"));
  std::string advice = profiled ? fmt::format("{}", array_field(l, "advice").size()) : std::string();
  s += fmt::format("<td class=\"num\" data-sort=\"{}\">{}</td></tr>\n", advice,
                   profiled ? advice : std::string("\u2014"));
  return s;
}

}  // namespace

std::string html_index_page(const json& report) {
  std::string s = page_start("warpscope report");
  s += "<h1>warpscope report</h1>\n";
  if (const json* tool = field(report, "tool"))
    s += fmt::format("<p class=\"note\">{} {}</p>\n", html_escape(string_field(*tool, "name", "warpscope")),
                     html_escape(string_field(*tool, "version")));
  s += run_summary(report);
  s += timing_note(report);
  if (const json* mm = field(report, "memory_model"); mm && mm->is_boolean() && !mm->get<bool>())
    s += "<p class=\"note\">Built without the memory model: memory metrics are absent.</p>\n";
  if (const json* ptxas = field(report, "ptxas");
      ptxas && field(*ptxas, "available") && *field(*ptxas, "available") == false)
    s += fmt::format("<p class=\"note\">ptxas not available: register counts are unknown. {}</p>\n",
                     html_escape(string_field(*ptxas, "note")));
  if (const json* sticky = field(report, "sticky_error"))
    s += fmt::format("<p class=\"error\" id=\"sticky-error\">The program hit {}: {}</p>\n",
                     html_escape(string_field(*sticky, "code")), html_escape(string_field(*sticky, "message")));

  s += stopped_html(report);
  const json& launches = array_field(report, "launches");
  std::size_t profiled = 0;
  for (const json& l : launches) profiled += is_profiled(l);
  s += profiled == launches.size() ? fmt::format("<h2>Launches ({})</h2>\n", launches.size())
                                   : fmt::format("<h2>Launches ({}, {} profiled)</h2>\n", launches.size(), profiled);
  // Column names follow Nsight Compute's where it has one ("L2 Hit Rate" is lts__t_sector_hit_rate:
  // every L2 sector lookup, reads and writes); the tooltips say what each counts.
  s += "<table id=\"launches\" class=\"sortable\">\n<thead><tr>"
       "<th class=\"num\" data-col=\"index\" title=\"launch index\">#</th>"
       "<th data-col=\"kernel\">kernel</th><th data-col=\"grid\" title=\"blocks (sorted by their count)\">grid</th>"
       "<th data-col=\"block\" title=\"threads per block (sorted by their count)\">block</th>"
       "<th class=\"num\" data-col=\"registers\" title=\"registers per thread\">regis&shy;ters</th>"
       "<th class=\"num\" data-col=\"duration\" title=\"gpu__time_duration.sum predicted by the time model "
       "(docs/time.md), not measured\">predicted duration</th>"
       "<th data-col=\"limiter\" title=\"what the time model found limits the launch\">limiter</th>"
       "<th class=\"num\" data-col=\"global_requests\" title=\"global load, store and atomic requests\">global "
       "requests</th>"
       "<th class=\"num\" data-col=\"global_sectors_per_request\" title=\"32-byte global sectors per request\">"
       "sectors / request</th>"
       "<th class=\"num\" data-col=\"global_bus_utilization_pct\" title=\"global bytes requested / bytes moved\">"
       "global bus utili&shy;zation %</th>"
       "<th class=\"num\" data-col=\"l1_hit_rate_global_ld_pct\" title=\"L1/TEX sector hits of global loads / "
       "global load sectors\">L1 Hit Rate % (global loads)</th>"
       "<th class=\"num\" data-col=\"l2_hit_rate_pct\" title=\"lts__t_sector_hit_rate: L2 sector hits / all L2 "
       "sector lookups (reads, writes, atomics, reductions)\">L2 Hit Rate %</th>"
       "<th class=\"num\" data-col=\"local_bytes\" title=\"local-memory sectors x 32\">local bytes</th>"
       "<th class=\"num\" data-col=\"shared\" title=\"shared-memory wavefronts / bank conflicts (sorted by "
       "wavefronts)\">shared wave&shy;fronts / conflicts</th>"
       "<th class=\"num\" data-col=\"advice\" title=\"advice items\">advice</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < launches.size(); ++i) s += launch_row(launches[i], i);
  s += "</tbody>\n</table>\n";
  if (launches.empty()) s += "<p class=\"note\">The program launched no kernel.</p>\n";
  else s += "<p class=\"note\" id=\"sort-note\">Click a column's heading to sort by it (again to reverse).</p>\n";
  return s + kSortScript + kPageEnd;
}

}  // namespace warpscope::report
