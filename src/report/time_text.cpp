#include "report/time_text.hpp"
#include "report/json_access.hpp"

#include <map>
#include <vector>

#include <fmt/format.h>

namespace warpscope::report {
namespace {

bool predicted(const nlohmann::json& t) { return t.is_object() && t.value("available", false); }

std::string duration(double ns) {
  if (ns >= 1e6) return fmt::format("{:.3f} ms", ns / 1e6);
  return fmt::format("{:.2f} us", ns / 1e3);
}

struct Row {
  std::string name;
  std::size_t launches = 0;
  double ns = 0;
  std::string limiter;
  double sm = 0, mem = 0, occ = 0;
  std::vector<std::pair<std::string, double>> compare;  // arch, summed ns (-1: not predicted)
};

}  // namespace

std::string time_table(const nlohmann::json& report, std::size_t limit) {
  const auto& launches = report::array_member(report, "launches");
  std::vector<Row> rows;
  std::map<std::string, std::size_t> by_name;
  const bool aggregate = launches.size() > limit;
  bool any = false;
  for (const auto& l : launches) {
    const nlohmann::json t = l.value("time", nlohmann::json());
    if (!predicted(t)) continue;
    any = true;
    const std::string name = l.value("name", "?");
    std::size_t at = rows.size();
    if (aggregate) {
      auto [it, fresh] = by_name.emplace(name, rows.size());
      at = it->second;
      if (fresh) {
        rows.emplace_back();
        rows.back().name = name;
      }
    } else {
      rows.emplace_back();
      rows.back().name = fmt::format("#{} {}", l.value("index", 0), name);
    }
    Row& r = rows[at];
    const nlohmann::json sol = t.value("sol", nlohmann::json::object());
    const double ns = t.value("duration_ns", 0.0);
    if (ns >= r.ns) {  // the longest launch's limiter and throughputs represent the kernel
      r.limiter = t.value("limiter", "?");
      r.sm = sol.value("sm_pct", 0.0);
      r.mem = sol.value("memory_pct", 0.0);
      r.occ = sol.value("occupancy_pct", 0.0);
    }
    r.ns += ns;
    ++r.launches;
    const auto& cmp = l.value("compare", nlohmann::json::array());
    for (std::size_t i = 0; i < cmp.size(); ++i) {
      const nlohmann::json ct = cmp[i].value("time", nlohmann::json());
      if (r.compare.size() <= i) r.compare.emplace_back(cmp[i].value("arch", "?"), 0.0);
      if (predicted(ct) && r.compare[i].second >= 0) r.compare[i].second += ct.value("duration_ns", 0.0);
      else r.compare[i].second = -1;
    }
  }
  if (!any) return "";
  std::string out = fmt::format("\n== predicted GPU time on {} (time model, estimated; docs/time.md){}\n",
                                report.value("arch", "?"), aggregate ? ": summed per kernel" : "");
  std::string head = fmt::format("   {:<44} {:>12} {:<9} {:>5} {:>5} {:>6}", "launch", "time", "limiter", "SM%", "Mem%",
                                 "occup");
  if (!rows.empty()) {
    for (const auto& [arch, ns] : rows.front().compare) head += fmt::format(" {:>12}", arch);
  }
  out += head + "\n";
  for (const Row& r : rows) {
    std::string name = r.name.size() > 44 ? r.name.substr(0, 41) + "..." : r.name;
    if (aggregate) name = fmt::format("{} x{}", name.substr(0, 38), r.launches);
    std::string line = fmt::format("   {:<44} {:>12} {:<9} {:>5.1f} {:>5.1f} {:>5.1f}%", name, duration(r.ns), r.limiter,
                                   r.sm, r.mem, r.occ);
    for (const auto& [arch, ns] : r.compare) line += fmt::format(" {:>12}", ns < 0 ? "-" : duration(ns));
    out += line + "\n";
  }
  // A "-" column says why: the first reason each compared profile gave.
  std::vector<std::pair<std::string, std::string>> reasons;
  for (const auto& l : report::array_member(report, "launches"))
    for (const auto& c : l.value("compare", nlohmann::json::array())) {
      const nlohmann::json t = c.value("time", nlohmann::json());
      if (predicted(t) || !t.is_object() || !t.contains("reason")) continue;
      const std::string arch = c.value("arch", "?");
      bool seen = false;
      for (const auto& [a, why] : reasons) seen = seen || a == arch;
      if (!seen) reasons.emplace_back(arch, t.value("reason", std::string()));
    }
  for (const auto& [arch, why] : reasons) out += fmt::format("   {}: - ({})\n", arch, why);
  return out;
}

std::string event_time_note(const nlohmann::json& report) {
  if (report.value("event_time", "wall") == "predicted") {
    return "   (cudaEventElapsedTime in the program's output is the predicted GPU time; --event-time wall gives the "
           "emulator's)\n";
  }
  return "   (timings the program prints are the emulator's wall time, not the GPU's)\n";
}

}  // namespace warpscope::report
