// The side-by-side page of a `--compare-arch` launch (launch_<index>_compare.html): first the
// predicted duration (with its unit), the limiter and the main counters with their units, then
// every metric in one column per profile (the primary first), rows grouped by unit, the values
// that differ from the primary's highlighted with their relative change, and each profile's
// advice in its column.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string_view>

#include "common/error.hpp"
#include "report/html.hpp"
#include "report/html_common.hpp"
#include "report/metric_groups.hpp"

namespace warpscope::report {
namespace {

using namespace html;

struct Profile {
  std::string arch;
  const json* entry;  // the launch itself, or one of its `compare` entries
  std::set<std::string> estimated;
};

bool zero_or_absent(const json* v) { return !v || (v->is_number() && v->get<double>() == 0); }

/// The change from the primary's value, "+33.3 %", or "" when it cannot be said.
std::string delta(const json* primary, const json* v) {
  if (!primary || !v || !primary->is_number() || !v->is_number()) return "";
  double a = primary->get<double>(), b = v->get<double>();
  if (a == 0) return "";
  double change = 100.0 * (b - a) / std::fabs(a);
  double size = std::fabs(change);
  return fmt::format("{}{} %", change > 0 ? "+" : "\u2212",
                     size < 0.1 ? fmt::format("{:.2g}", size) : fmt::format("{:.1f}", size));
}

/// One row: a cell per profile, those that differ from the primary's marked.
std::string row(const std::string& label, const std::string& data, const std::vector<const json*>& values,
                const std::vector<bool>& estimated) {
  bool differs = false;
  std::string cells;
  for (std::size_t i = 0; i < values.size(); ++i) {
    bool diff = i > 0 && plain(values[i]) != plain(values[0]);
    differs |= diff;
    std::string change = diff ? delta(values[0], values[i]) : "";
    cells += fmt::format("<td class=\"num{}\">{}{}{}</td>", diff ? " diff" : "", h(values[i]),
                         change.empty() ? "" : fmt::format("<span class=\"delta\">{}</span>", change),
                         estimated[i] ? estimated_marker() : "");
  }
  return fmt::format("<tr class=\"metric{}\" data-metric=\"{}\"><td class=\"metric-name\">{}</td>{}</tr>\n",
                     differs ? " differs" : "", html_escape(data), label, cells);
}

std::string launch_rows(const std::vector<Profile>& profiles) {
  struct Item {
    const char* label;
    const char* object;
    const char* key;
  };
  std::string s;
  std::vector<bool> none(profiles.size(), false);
  for (Item item :
       {Item{"registers per thread", "resources", "registers"}, Item{"occupancy %", "occupancy", "occupancy_pct"},
        Item{"limited by", "occupancy", "limited_by"}, Item{"blocks per SM", "occupancy", "blocks_per_sm"},
        Item{"active warps per SM", "occupancy", "active_warps_per_sm"}}) {
    std::vector<const json*> values;
    bool any = false;
    for (const Profile& p : profiles) {
      const json* object = field(*p.entry, item.object);
      values.push_back(object ? field(*object, item.key) : nullptr);
      any |= values.back() != nullptr;
    }
    if (any) s += row(item.label, std::string(item.object) + "." + item.key, values, none);
  }
  std::vector<json> counts;
  for (const Profile& p : profiles) counts.push_back(json(array_field(*p.entry, "advice").size()));
  std::vector<const json*> values;
  for (const json& c : counts) values.push_back(&c);
  return s + row("advice items", "advice", values, none);
}

/// A profile's value of a summary row: a member of `metrics`, of `time`, of `time.sol`, or of the
/// entry itself ("occupancy.occupancy_pct").
const json* summary_value(const json& entry, std::string_view where, const char* key) {
  if (where == "metrics") {
    const json* m = field(entry, "metrics");
    return m ? field(*m, key) : nullptr;
  }
  const json* t = prediction(entry);
  if (where == "time") return t ? field(*t, key) : nullptr;
  if (where == "sol") {
    const json* sol = t ? field(*t, "sol") : nullptr;
    return sol ? field(*sol, key) : nullptr;
  }
  const json* object = field(entry, std::string(where).c_str());
  return object ? field(*object, key) : nullptr;
}

/// The opening table: duration (with its unit), limiter and the main counters, each with its unit.
std::string summary_table(const std::vector<Profile>& profiles) {
  struct Item {
    const char* id;
    const char* label;  // Nsight Compute's wording where it has one
    const char* unit;   // "" for the duration (its unit is chosen below)
    const char* where;
    const char* key;
  };
  static constexpr Item kItems[] = {
      {"duration", "Duration (predicted)", "", "time", "duration_ns"},
      {"limiter", "Limiter (predicted)", "", "time", "limiter"},
      {"sm", "Compute (SM) Throughput", "%", "sol", "sm_pct"},
      {"memory", "Memory Throughput", "%", "sol", "memory_pct"},
      {"dram-throughput", "DRAM Throughput", "%", "sol", "dram_pct"},
      {"achieved-occupancy", "Achieved Occupancy", "%", "sol", "occupancy_pct"},
      {"theoretical-occupancy", "Theoretical Occupancy", "%", "occupancy", "occupancy_pct"},
      {"registers", "Registers Per Thread", "registers", "resources", "registers"},
      {"global-requests", "Global requests", "requests", "metrics", "global_requests"},
      {"sectors-per-request", "Global sectors per request", "sectors / request", "metrics",
       "global_sectors_per_request"},
      {"l1-hit", "L1 Hit Rate (global loads)", "%", "metrics", "l1_hit_rate_global_ld_pct"},
      {"l2-hit", "L2 Hit Rate", "%", "metrics", "l2_hit_rate_pct"},
      {"dram-read", "DRAM bytes read", "bytes", "metrics", "dram__bytes_read.sum"},
      {"dram-write", "DRAM bytes written", "bytes", "metrics", "dram__bytes_write.sum"},
      {"shared-wavefronts", "Shared wavefronts", "wavefronts", "metrics", "shared_wavefronts"},
      {"bank-conflicts", "Shared bank conflicts", "conflicts", "metrics", "shared_bank_conflicts"},
  };
  std::string s = "<table id=\"compare-summary\">\n<thead><tr><th>quantity</th><th>unit</th>";
  for (std::size_t i = 0; i < profiles.size(); ++i)
    s += fmt::format("<th class=\"num arch\" data-arch=\"{0}\">{0}{1}</th>", html_escape(profiles[i].arch),
                     i == 0 ? " <span class=\"note\">(primary)</span>" : "");
  s += "</tr></thead>\n<tbody>\n";
  for (const Item& item : kItems) {
    std::vector<const json*> values;
    bool any = false;
    for (const Profile& p : profiles) {
      values.push_back(summary_value(*p.entry, item.where, item.key));
      any |= values.back() != nullptr;
    }
    if (!any) continue;
    const bool duration = std::string_view(item.id) == "duration";
    // One unit per row: the duration's is the one the primary's value (else the first known) reads best in.
    std::string unit = item.unit;
    double scale = 1;
    if (duration) {
      double ns = 0;
      for (const json* v : values)
        if (v && v->is_number()) {
          ns = v->get<double>();
          break;
        }
      auto [name, size] = duration_unit(ns);
      unit = name;
      scale = size;
    }
    std::string cells;
    bool differs = false;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const json* v = values[i];
      bool diff = i > 0 && plain(v) != plain(values[0]);
      differs |= diff;
      std::string change = diff ? delta(values[0], v) : "";
      std::string text = duration && v && v->is_number() ? fmt::format("{:.2f}", v->get<double>() / scale) : h(v);
      if (duration && v && v->is_number() && scale == 1) text = fmt::format("{:.0f}", v->get<double>());
      cells += fmt::format("<td class=\"num{}\"{}>{}{}</td>", diff ? " diff" : "",
                           duration && v ? fmt::format(" data-ns=\"{}\"", html_escape(raw(v))) : "", text,
                           change.empty() ? "" : fmt::format("<span class=\"delta\">{}</span>", change));
    }
    s += fmt::format("<tr class=\"quantity{}\" id=\"summary-{}\"><th>{}</th><td class=\"unit\">{}</td>{}</tr>\n",
                     differs ? " differs" : "", item.id, item.label, html_escape(unit), cells);
  }
  return s + "</tbody>\n</table>\n";
}

}  // namespace

std::string html_compare_page(const json& report, std::size_t launch_position) {
  const json& launches = array_field(report, "launches");
  if (launch_position >= launches.size())
    fail(ErrorKind::kUsage, "launch {} does not exist (the report has {})", launch_position, launches.size());
  const json& launch = launches[launch_position];
  std::vector<Profile> profiles{{plain(field(report, "arch")), &launch, estimated_set(launch)}};
  for (const json& c : array_field(launch, "compare"))
    profiles.push_back({plain(field(c, "arch")), &c, estimated_set(c)});

  json index = launch_index(launch, launch_position);
  std::string s = page_start(fmt::format("{} side by side \u2014 warpscope", kernel_name(launch)));
  s += fmt::format("<nav><a href=\"index.html\">&larr; all launches</a> &middot; <a href=\"{}\">launch {}</a></nav>\n",
                   html_escape(html_launch_file(launch, launch_position)), html_escape(raw(&index)));
  s += fmt::format("<h1 class=\"kernel-name\" id=\"kernel-name\">{}</h1>\n", html_escape(kernel_name(launch)));
  s += fmt::format("<dl class=\"facts\"><div><dt>grid</dt><dd>{}</dd></div><div><dt>block</dt><dd>{}</dd></div></dl>\n",
                   dim3(field(launch, "grid")), dim3(field(launch, "block")));
  if (profiles.size() == 1)
    return s + "<p class=\"note\">This launch was not compared with another architecture.</p>\n" + kPageEnd;
  s += "<h2 id=\"compare-summary-heading\">At a glance</h2>\n";
  s += summary_table(profiles);
  s += "<p class=\"note\">The same launch on every profile of <code>--compare-arch</code>, the primary first; "
       "durations and limiters are the time model's predictions (docs/time.md). Values that differ from the "
       "primary's are highlighted, with their change.</p>\n";
  s += "<h2 id=\"compare-metrics-heading\">Every metric</h2>\n<p class=\"note\">Grouped by unit; rows zero on "
       "every profile are folded away below the table.</p>\n";

  // Metric names: the primary's, then those only a compared profile has; grouped by unit.
  std::vector<std::string> names;
  std::set<std::string> seen;
  for (const Profile& p : profiles)
    if (const json* m = field(*p.entry, "metrics"); m && m->is_object())
      for (const auto& [name, value] : m->items())
        if (seen.insert(name).second) names.push_back(name);

  std::string head = "<thead><tr><th>metric</th>";
  for (std::size_t i = 0; i < profiles.size(); ++i)
    head += fmt::format("<th class=\"num arch\" data-arch=\"{0}\">{0}{1}</th>", html_escape(profiles[i].arch),
                        i == 0 ? " <span class=\"note\">(primary)</span>" : "");
  head += "</tr></thead>\n";
  s += "<table id=\"compare\">\n" + head + "<tbody>\n";
  // Launch and occupancy first (what decides how many warps run), then the memory units.
  std::vector<MetricUnit> units{metric_units()};
  std::stable_partition(units.begin(), units.end(),
                        [](const MetricUnit& u) { return std::string_view(u.key) == "launch"; });
  std::vector<std::string> all_zero;
  for (const MetricUnit& unit : units) {
    std::string rows = std::string_view(unit.key) == "launch" ? launch_rows(profiles) : "";
    for (const std::string& name : names) {
      if (metric_unit_of(name) != unit.key) continue;
      std::vector<const json*> values;
      std::vector<bool> estimated;
      bool zero = true;
      for (const Profile& p : profiles) {
        const json* metrics = field(*p.entry, "metrics");
        values.push_back(metrics ? field(*metrics, name.c_str()) : nullptr);
        estimated.push_back(p.estimated.count(name) != 0);
        zero &= zero_or_absent(values.back());
      }
      if (zero) {
        all_zero.push_back(name);
        continue;
      }
      rows += row("<code>" + html_escape(name) + "</code>", name, values, estimated);
    }
    if (!rows.empty())
      s += fmt::format("<tr class=\"group\" id=\"compare-{}\"><th colspan=\"{}\">{}</th></tr>\n{}", unit.key,
                       profiles.size() + 1, unit.title, rows);
  }
  s += "</tbody>\n</table>\n";
  if (!all_zero.empty()) {
    s += fmt::format(
        "<details class=\"zeros\" id=\"compare-zeros\"><summary>{} metrics are zero on every profile"
        "</summary>\n<p>",
        all_zero.size());
    for (std::size_t i = 0; i < all_zero.size(); ++i)
      s += (i ? ", " : "") + ("<code>" + html_escape(all_zero[i]) + "</code>");
    s += "</p>\n</details>\n";
  }

  // Advice, a column per profile.
  s += "<h2 id=\"compare-advice-heading\">Advice per profile</h2>\n<table id=\"compare-advice\">\n<thead><tr>";
  for (const Profile& p : profiles) s += fmt::format("<th data-arch=\"{0}\">{0}</th>", html_escape(p.arch));
  s += "</tr></thead>\n<tbody><tr>";
  for (const Profile& p : profiles) {
    const json& advice = array_field(*p.entry, "advice");
    s += fmt::format("<td data-arch=\"{}\">", html_escape(p.arch));
    if (advice.empty())
      s += "<p class=\"note\">No advice.</p>";
    else {
      s += "<ol class=\"advice-list\">\n";
      for (const json& a : advice) s += advice_item(a, "compare-advice", nullptr);
      s += "</ol>";
    }
    s += "</td>";
  }
  s += "</tr></tbody>\n</table>\n";
  s += timing_note(report);
  return s + kPageEnd;
}

}  // namespace warpscope::report
