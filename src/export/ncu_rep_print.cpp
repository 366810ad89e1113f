// An .ncu-rep's results as JSON, in ncu's raw-page layouts, and beside warpscope's prediction
// (ncu_rep.hpp).
#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "export/ncu_rep.hpp"
#include "report/ncu_output.hpp"

namespace warpscope::ncurep {
namespace {

std::string shape(const std::array<std::uint64_t, 3>& d) { return fmt::format("({}, {}, {})", d[0], d[1], d[2]); }

std::string text_of(const Value& v) {
  if (v.kind == Value::Kind::kString) return v.text;
  if (const auto n = v.as_number()) return report::ncu_number(*n);
  return "";
}

nlohmann::json json_of(const Value& v) {
  if (v.kind == Value::Kind::kString) return v.text;
  if (const auto n = v.as_number()) {
    if (v.kind == Value::Kind::kUint32 || v.kind == Value::Kind::kUint64) return static_cast<std::uint64_t>(*n);
    return *n;
  }
  return nullptr;
}

std::string device_of(const Result& r) {
  const Value* v = r.find("device__attribute_device_index");
  return v != nullptr ? text_of(*v) : "0";
}

std::string cc_of(const Result& r) {
  const Value* major = r.find("device__attribute_compute_capability_major");
  const Value* minor = r.find("device__attribute_compute_capability_minor");
  if (major == nullptr || minor == nullptr) return "";
  return fmt::format("{}.{}", text_of(*major), text_of(*minor));
}

std::string kernel_of(const Result& r) { return r.demangled.empty() ? r.mangled : r.demangled; }

std::vector<std::string> launch_fields(std::size_t id, const Result& r) {
  return {std::to_string(id),   std::to_string(r.pid), r.process,         r.host,
          kernel_of(r),         std::to_string(r.context), std::to_string(r.stream), shape(r.block_size),
          shape(r.grid),        device_of(r),          cc_of(r)};
}

std::vector<std::string> metric_names(const Report& rep) {
  std::set<std::string> names;
  for (const auto& r : rep.results)
    for (const auto& [n, v] : r.metrics) names.insert(n);
  return {names.begin(), names.end()};
}

}  // namespace

nlohmann::json report_json(const Report& rep) {
  nlohmann::json j;
  j["version"] = rep.version;
  j["blocks"] = rep.blocks;
  j["comments"] = rep.comments;
  j["tools"] = nlohmann::json::array();
  for (const auto& [p, v] : rep.tools) j["tools"].push_back({{"provider", p}, {"version", v}});
  j["devices"] = nlohmann::json::array();
  for (const auto& d : rep.devices) {
    nlohmann::json a = nlohmann::json::object();
    for (const auto& [n, v] : d.attributes) a[n] = json_of(v);
    j["devices"].push_back({{"id", d.id}, {"name", d.name}, {"attributes", a}});
  }
  j["sources"] = nlohmann::json::array();
  for (const auto& src : rep.source_data) {
    nlohmann::json fns = nlohmann::json::array();
    for (const auto& f : src.functions)
      fns.push_back({{"name", f.name}, {"address", f.address}, {"symbol_index", f.symbol_index}});
    j["sources"].push_back({{"reference", src.reference}, {"binary_bytes", src.binary_bytes},
                            {"sass_level", src.sass_level}, {"cuda_sm_version", src.cuda_sm_version},
                            {"files", src.files}, {"functions", std::move(fns)}});
  }
  j["results"] = nlohmann::json::array();
  for (const auto& r : rep.results) {
    nlohmann::json m = nlohmann::json::object();
    for (const auto& [n, v] : r.metrics) m[n] = json_of(v);
    nlohmann::json inst = nlohmann::json::object();
    for (const auto& [n, list] : r.instances) {
      auto& pairs = inst[n] = nlohmann::json::array();
      for (const auto& [k, v] : list) pairs.push_back({json_of(k), json_of(v)});
    }
    j["results"].push_back({{"process_id", r.pid},
                            {"process", r.process},
                            {"host", r.host},
                            {"kernel", r.mangled},
                            {"function", r.function},
                            {"name", r.demangled},
                            {"grid", r.grid},
                            {"block", r.block_size},
                            {"context", r.context},
                            {"stream", r.stream},
                            {"comments", r.comments},
                            {"source_reference", r.source_reference},
                            {"sections", r.sections},
                            {"metrics", m},
                            {"instances", inst}});
  }
  return j;
}

std::string raw_csv(const Report& rep) {
  if (rep.results.empty()) return "";
  const auto names = metric_names(rep);
  std::vector<std::string> header = report::launch_csv_header();
  std::vector<std::string> units(header.size(), "");
  for (const auto& n : names) {
    header.push_back(n);
    units.push_back(report::metric_unit(n));
  }
  std::string out = report::ncu_csv_row(header) + report::ncu_csv_row(units);
  for (std::size_t i = 0; i < rep.results.size(); ++i) {
    const Result& r = rep.results[i];
    auto row = launch_fields(i, r);
    for (const auto& n : names) {
      const Value* v = r.find(n);
      row.push_back(v != nullptr ? text_of(*v) : "");
    }
    out += report::ncu_csv_row(row);
  }
  return out;
}

std::string raw_text(const Report& rep) {
  std::string out;
  std::string process;
  for (const auto& r : rep.results) {
    const std::string p = fmt::format("[{}] {}@{}\n", r.pid, r.process, r.host);
    if (p != process) out += process = p;
    out += fmt::format("  {} {}x{}, Context {}, Stream {}, Device {}, CC {}\n", kernel_of(r), shape(r.grid),
                       shape(r.block_size), r.context, r.stream, device_of(r), cc_of(r));
    out += "    Section: Command line profiler metrics\n";
    std::vector<std::pair<std::string, const Value*>> sorted;
    for (const auto& [n, v] : r.metrics) sorted.emplace_back(n, &v);
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::vector<std::string>> rows;
    for (const auto& [n, v] : sorted) rows.push_back({n, report::metric_unit(n), text_of(*v)});
    out += report::ncu_text_table({"Metric Name", "Metric Unit", "Metric Value"}, rows) + "\n";
  }
  return out;
}

std::string compare_text(const Report& measured, const nlohmann::json& predicted, const report::MetricUnits& units,
                         bool csv) {
  const auto launches = report::profiled_launches(predicted);
  // The k-th result of a kernel pairs with the k-th profiled launch of that kernel.
  std::map<std::string, std::vector<const nlohmann::json*>> by_kernel;
  for (const auto* l : launches) by_kernel[l->value("kernel", std::string())].push_back(l);
  std::map<std::string, std::size_t> seen;
  std::string out;
  if (csv)
    out = report::ncu_csv_row({"ID", "Kernel Name", "Block Size", "Grid Size", "Metric Name", "Metric Unit", "Measured",
                               "Predicted", "Predicted/Measured"});
  for (std::size_t i = 0; i < measured.results.size(); ++i) {
    const Result& r = measured.results[i];
    const std::size_t k = seen[r.mangled]++;
    const auto it = by_kernel.find(r.mangled);
    const nlohmann::json* l = it != by_kernel.end() && k < it->second.size() ? it->second[k] : nullptr;
    if (l == nullptr) {
      if (!csv)
        out += fmt::format("  {} {}x{}: no launch of this kernel left in warpscope's report (result {})\n\n",
                           kernel_of(r), shape(r.grid), shape(r.block_size), i);
      continue;
    }
    std::vector<std::pair<std::string, const Value*>> sorted;
    for (const auto& [n, v] : r.metrics) sorted.emplace_back(n, &v);
    std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::vector<std::string>> rows;
    for (const auto& [n, v] : sorted) {
      const auto m = v->as_number();
      if (!m || n.rfind("device__attribute_", 0) == 0) continue;
      const auto p = report::metric_number(*l, n, units);
      if (!p) continue;
      const std::string ratio = *m != 0 ? fmt::format("{:.3f}", *p / *m) : (*p == 0 ? "1.000" : "n/a");
      std::vector<std::string> row = {n, report::metric_unit(n), report::ncu_number(*m), report::ncu_number(*p), ratio};
      if (csv) {
        row.insert(row.begin(), {std::to_string(i), kernel_of(r), shape(r.block_size), shape(r.grid)});
        out += report::ncu_csv_row(row);
      } else {
        rows.push_back(std::move(row));
      }
    }
    if (!csv) {
      out += fmt::format("  {} {}x{}, result {} beside warpscope's launch {}\n", kernel_of(r), shape(r.grid),
                         shape(r.block_size), i, l->value("index", 0));
      if (rows.empty()) {
        out += "    (no metric of this result is one warpscope reports)\n\n";
      } else {
        out += report::ncu_text_table({"Metric Name", "Metric Unit", "Measured", "warpscope", "Predicted/Measured"},
                                      rows) +
               "\n";
      }
    }
  }
  return out;
}

}  // namespace warpscope::ncurep
