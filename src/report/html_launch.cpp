// A launch page (launch_<index>.html), top to bottom: the kernel, its grid and the few facts
// that matter; the worst source lines and the advice; the predicted time (Speed Of Light bars on
// one axis, a log-log roofline with the program's other launches); the memory chart; the source view; the
// warp-access pictures; every metric grouped by unit, folded.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <map>

#include "common/error.hpp"
#include "report/html.hpp"
#include "report/html_common.hpp"
#include "report/html_source.hpp"
#include "report/html_time.hpp"
#include "report/incomplete.hpp"
#include "report/memory_chart.hpp"
#include "report/metric_groups.hpp"

namespace warpscope::report {
namespace {

using namespace html;

std::string fact(const char* label, const std::string& value, const char* id = nullptr) {
  return fmt::format("<div><dt>{}</dt><dd{}>{}</dd></div>", label, id ? fmt::format(" id=\"{}\"", id) : "", value);
}

std::string occupancy_text(const json& launch) {
  const json* occ = field(launch, "occupancy");
  if (!occ || !field(*occ, "occupancy_pct")) return "";
  std::string s = fmt::format("{} %", h(field(*occ, "occupancy_pct")));
  if (const json* by = field(*occ, "limited_by")) s += fmt::format(" (limited by {})", h(by));
  return s;
}

std::string launch_header(const json& report, const json& launch, std::size_t position, std::size_t count) {
  std::string s =
      fmt::format("<nav><a href=\"index.html\">&larr; all launches</a> &middot; launch {} of {}", position + 1, count);
  if (!array_field(launch, "compare").empty())
    s += fmt::format(" &middot; <a id=\"compare-link\" href=\"{}\">side by side with {}</a>",
                     html_escape(html_compare_file(launch, position)), compare_archs_text(launch));
  s += "</nav>\n";
  s += fmt::format("<h1 class=\"kernel-name\" id=\"kernel-name\">{}</h1>\n", html_escape(kernel_name(launch)));
  if (const json* mangled = field(launch, "kernel"))
    s += fmt::format("<p class=\"mangled\"><code>{}</code></p>\n", h(mangled));
  s += "<dl class=\"facts\">";
  s += fact("launch", h(launch_index(launch, position)));
  s += fact("grid", dim3(field(launch, "grid")), "grid");
  s += fact("block", dim3(field(launch, "block")), "block");
  s += fact("registers", h(field(launch, "registers")), "registers");
  if (std::string occ = occupancy_text(launch); !occ.empty()) s += fact("occupancy", occ, "occupancy");
  if (field(launch, "dynamic_shared_bytes") && number_field(launch, "dynamic_shared_bytes") != 0)
    s += fact("dynamic shared", h(field(launch, "dynamic_shared_bytes")) + " B");
  s += fact("architecture", h(field(report, "arch")), "arch");
  if (field(launch, "stream")) s += fact("stream", h(field(launch, "stream")));
  if (field(launch, "wall_ms")) s += fact("wall time", h(field(launch, "wall_ms")) + " ms (emulator)");
  if (field(launch, "module")) s += fact("module", "<code>" + h(field(launch, "module")) + "</code>");
  s += "</dl>\n";
  if (const json* error = field(launch, "error"))
    s += fmt::format("<p class=\"error\" id=\"launch-error\">The launch faulted: {}</p>\n", h(error));
  s += incomplete_html(launch);
  if (!is_profiled(launch))
    s += fmt::format(
        "<p class=\"note\" id=\"not-profiled\"><span class=\"badge not-profiled\">not profiled</span> "
        "{}: it ran without the memory model, so it has instruction counts only.</p>\n",
        html_escape(string_field(launch, "not_profiled", "the launch filter left it out")));
  return s;
}

std::string glance_section(const json& launch, const FileGroups& groups) {
  std::string s = "<section id=\"glance\">\n<h2 id=\"worst-heading\">Worst lines</h2>\n";
  s += groups.empty() ? "<p class=\"note\" id=\"no-worst-lines\">No source lines were recorded for this launch.</p>\n"
                      : worst_lines_table(groups);
  s += "<h2 id=\"advice-heading\">Advice</h2>\n";
  const json& advice = array_field(launch, "advice");
  if (advice.empty()) {
    s += "<p class=\"note\" id=\"no-advice\">No advice for this launch.</p>\n";
  } else {
    // The first few items in full; the rest (often the same rule at many pcs) folded, counted by rule,
    // so that the memory chart stays near the top.
    constexpr std::size_t kShown = 3;
    s += "<ol class=\"advice-list\" id=\"advice\">\n";
    for (std::size_t i = 0; i < advice.size() && i < kShown; ++i) s += advice_item(advice[i], "advice", &groups);
    s += "</ol>\n";
    if (advice.size() > kShown) {
      std::map<std::string, std::size_t> rules;
      for (std::size_t i = kShown; i < advice.size(); ++i) ++rules[string_field(advice[i], "rule", "advice")];
      std::vector<std::string> counts;
      for (const auto& [rule, n] : rules) counts.push_back(fmt::format("{} {}", html_escape(rule), n));
      s += fmt::format(
          "<details id=\"more-advice\"><summary>{} more advice item{} ({})</summary>\n"
          "<ol class=\"advice-list\" start=\"{}\">\n",
          advice.size() - kShown, advice.size() - kShown == 1 ? "" : "s", fmt::join(counts, ", "), kShown + 1);
      for (std::size_t i = kShown; i < advice.size(); ++i) s += advice_item(advice[i], "advice", &groups);
      s += "</ol>\n</details>\n";
    }
  }
  return s + "</section>\n";
}

std::string chart_section(const json& report, const json& launch) {
  std::string s = "<h2 id=\"memory-heading\">Memory chart</h2>\n";
  if (!is_profiled(launch)) return s + "<p class=\"note\" id=\"no-memory-chart\">Not profiled: no memory chart.</p>\n";
  const json* metrics = field(launch, "metrics");
  if (!metrics || !has_memory_metrics(*metrics))
    return s +
           "<p class=\"note\" id=\"no-memory-chart\">No memory counters for this launch (run without the "
           "memory model, or it faulted before any).</p>\n";
  std::set<std::string> estimated = estimated_set(launch);
  bool hits_estimated = false;
  for (const std::string& name : estimated)
    if (name.find("lookup_hit") != std::string::npos || name.starts_with("dram__")) hits_estimated = true;
  return s + fmt::format(
                 "<figure id=\"memory-chart\">\n{}<figcaption>Requests flow left to right, as in Nsight Compute's "
                 "Memory Workload Analysis chart ({}). A sector is 32 bytes; an arrow's bytes are its sectors &times; "
                 "32 and its hit rate the share of its sector lookups that hit. Arrows are as thick as their "
                 "traffic; dashed ones carry none. Hover an arrow for the metrics it shows.{}</figcaption>\n"
                 "</figure>\n",
                 render_memory_chart(memory_chart(*metrics)), h(field(report, "arch")),
                 hits_estimated ? " Cache hits and DRAM bytes are estimated: they depend on CTA scheduling and "
                                  "replacement, which the model approximates."
                                : "");
}

}  // namespace

std::string html_launch_page(const json& report, std::size_t launch_position) {
  const json& launches = array_field(report, "launches");
  if (launch_position >= launches.size())
    fail(ErrorKind::kUsage, "launch {} does not exist (the report has {})", launch_position, launches.size());
  const json& launch = launches[launch_position];
  FileGroups groups = group_lines(launch);
  std::vector<const json*> pictured = worst_instructions(groups);
  std::string s = page_start(fmt::format("{} \u2014 warpscope", kernel_name(launch)));
  s += launch_header(report, launch, launch_position, launches.size());
  // A launch the filter left out has no lines, advice or memory counters: only say so.
  if (is_profiled(launch)) s += glance_section(launch, groups);
  s += time_section(launch, &launches);
  s += chart_section(report, launch);
  if (is_profiled(launch)) {
    s += source_section(groups, pictured);
    s += accesses_section(groups, pictured);
    s += tma_boxes_section(groups);
  }
  s += all_metrics_section(launch);
  s += timing_note(report);
  return s + kPageEnd;
}

}  // namespace warpscope::report
