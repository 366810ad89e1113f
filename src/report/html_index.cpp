// index.html: the run (tool, architectures, GPU, launch filter) and one row per launch.
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

std::string launch_row(const json& l, std::size_t i) {
  bool faulted = field(l, "error") != nullptr;
  bool profiled = is_profiled(l);
  json number = launch_index(l, i);
  std::string index = html_escape(raw(&number));
  std::string cls = std::string("launch") + (faulted ? " faulted" : "") + (profiled ? "" : " not-profiled");
  std::string s = fmt::format("<tr class=\"{}\" data-index=\"{}\"><td class=\"num\">{}</td>", cls, index, index);
  std::string badges;
  if (faulted) badges += " <span class=\"badge faulted\">faulted</span>";
  else if (field(l, "incomplete")) badges += " <span class=\"badge faulted\">incomplete</span>";
  if (!profiled)
    badges += fmt::format(" <span class=\"badge not-profiled\" title=\"{}\">not profiled</span>",
                          html_escape(string_field(l, "not_profiled", "left out by the launch filter")));
  if (!array_field(l, "compare").empty())
    badges += fmt::format(" <a class=\"compare-link\" href=\"{}\" title=\"{}\">side by side</a>",
                          html_escape(html_compare_file(l, i)), compare_archs_text(l));
  s += fmt::format("<td class=\"name\"><a href=\"{}\">{}</a>{}</td>", html_escape(html_launch_file(l, i)),
                   html_escape(kernel_name(l)), badges);
  s += fmt::format("<td class=\"dim\">{}</td><td class=\"dim\">{}</td>", dim3(field(l, "grid")),
                   dim3(field(l, "block")));
  s += fmt::format("<td class=\"num\">{}</td>", h(field(l, "registers")));
  for (const char* name : {"global_requests", "global_sectors_per_request", "global_bus_utilization_pct",
                           "l1_hit_rate_global_ld_pct", "l2_hit_rate_pct", "local_bytes"})
    s += fmt::format("<td class=\"num\">{}</td>", metric_text(l, name));
  s += fmt::format("<td class=\"num\">{} / {}</td>", metric_text(l, "shared_wavefronts"),
                   metric_text(l, "shared_bank_conflicts"));
  s += fmt::format("<td class=\"num\">{}</td></tr>\n",
                   profiled ? fmt::format("{}", array_field(l, "advice").size()) : std::string("\u2014"));
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
  s += "<table id=\"launches\">\n<thead><tr>"
       "<th class=\"num\">#</th><th>kernel</th><th>grid</th><th>block</th><th class=\"num\">regis&shy;ters</th>"
       "<th class=\"num\" title=\"global load and store requests\">global requests</th>"
       "<th class=\"num\">sectors / request</th><th class=\"num\">bus utili&shy;zation %</th>"
       "<th class=\"num\" title=\"L1 hit rate of global loads\">L1 hit %</th><th class=\"num\">L2 hit %</th>"
       "<th class=\"num\">local bytes</th><th class=\"num\">shared wave&shy;fronts / conflicts</th>"
       "<th class=\"num\">advice</th></tr></thead>\n<tbody>\n";
  for (std::size_t i = 0; i < launches.size(); ++i) s += launch_row(launches[i], i);
  s += "</tbody>\n</table>\n";
  if (launches.empty()) s += "<p class=\"note\">The program launched no kernel.</p>\n";
  return s + kPageEnd;
}

}  // namespace warpscope::report
