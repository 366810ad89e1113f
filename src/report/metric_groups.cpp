#include "report/metric_groups.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "report/html.hpp"
#include "report/html_common.hpp"

namespace warpscope::report {

const std::vector<MetricUnit>& metric_units() {
  static const std::vector<MetricUnit> kUnits{{"global", "Global memory"},
                                              {"local", "Local memory"},
                                              {"shared", "Shared memory"},
                                              {"texture", "Texture and surface"},
                                              {"l2", "L2 cache"},
                                              {"dram", "DRAM"},
                                              {"instructions", "Instructions"},
                                              {"launch", "Launch and occupancy"},
                                              {"other", "Other"}};
  return kUnits;
}

std::string metric_unit_of(const std::string& name) {
  auto has = [&](const char* part) { return name.find(part) != std::string::npos; };
  if (has("pipe_tex") || has("op_texture") || has("op_surface") || name.starts_with("texture_") ||
      name.starts_with("surface_"))
    return "texture";
  if (has("mem_shared") || has("op_shared") || name.starts_with("shared_")) return "shared";
  if (has("mem_local") || has("op_local") || name.starts_with("local_")) return "local";
  if (has("mem_global") || has("op_global") || name.starts_with("global_") || has("_global_")) return "global";
  if (name.starts_with("lts__") || name.starts_with("l2_")) return "l2";
  if (name.starts_with("dram__") || name.starts_with("dram_")) return "dram";
  if (has("inst_executed") || has("instructions")) return "instructions";
  if (name.starts_with("launch__") || name.starts_with("sm__") || has("occupancy")) return "launch";
  return "other";
}

namespace {

using nlohmann::json;

std::string metric_row(const std::string& name, const json& value, bool estimated, bool zero) {
  return fmt::format(
      "<tr class=\"metric{}{}\" data-metric=\"{}\"><td class=\"metric-name\"><code>{}</code>{}</td>"
      "<td class=\"num\">{}</td></tr>\n",
      estimated ? " is-estimated" : "", zero ? " zero" : "", html_escape(name), html_escape(name),
      estimated ? html::estimated_marker() : "", html::h(value));
}

bool is_zero(const json& value) { return value.is_number() && value.get<double>() == 0; }

}  // namespace

std::string all_metrics_section(const json& launch) {
  const json* metrics = html::field(launch, "metrics");
  if (!metrics || !metrics->is_object() || metrics->empty())
    return "<h2 id=\"metrics-heading\">All metrics</h2>\n<p class=\"note\">No metrics for this launch.</p>\n";
  std::set<std::string> estimated = html::estimated_set(launch);
  std::map<std::string, std::vector<std::pair<std::string, const json*>>> by_unit;
  std::size_t zeros = 0;
  for (const auto& [name, value] : metrics->items()) {
    by_unit[metric_unit_of(name)].emplace_back(name, &value);
    zeros += is_zero(value);
  }
  std::string s = fmt::format(
      "<details id=\"all-metrics\">\n<summary>All metrics by unit ({}{})</summary>\n<div class=\"metric-groups\">\n",
      metrics->size(), zeros ? fmt::format("; {} are zero and folded away", zeros) : "");
  for (const MetricUnit& unit : metric_units()) {
    auto it = by_unit.find(unit.key);
    if (it == by_unit.end()) continue;
    std::string rows, zero_rows;
    std::size_t zero_count = 0;
    for (const auto& [name, value] : it->second) {
      bool zero = is_zero(*value);
      (zero ? zero_rows : rows) += metric_row(name, *value, estimated.count(name) != 0, zero);
      zero_count += zero;
    }
    s += fmt::format("<section class=\"metric-group\" id=\"metrics-{}\">\n<h3>{}</h3>\n", unit.key, unit.title);
    if (!rows.empty())
      s += fmt::format(
          "<table class=\"metrics\">\n<thead><tr><th>metric</th><th class=\"num\">value</th></tr></thead>\n"
          "<tbody>\n{}</tbody>\n</table>\n",
          rows);
    if (zero_count)
      s += fmt::format(
          "<details class=\"zeros\"><summary>{} zero metric{}</summary>\n<table class=\"metrics\">\n"
          "<tbody>\n{}</tbody>\n</table>\n</details>\n",
          zero_count, zero_count == 1 ? "" : "s", zero_rows);
    s += "</section>\n";
  }
  s += "</div>\n";
  if (!estimated.empty())
    s += "<p class=\"note\">Metrics marked estimated depend on CTA scheduling and cache replacement, which the "
         "model approximates.</p>\n";
  return s + "</details>\n";
}

}  // namespace warpscope::report
