#include "report/ncu_sections.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <regex>

#include <fmt/format.h>

#include "common/error.hpp"

namespace warpscope::report {
namespace {

/// How a row gets its value; `metric` names the Nsight Compute metric it shows, when it shows one.
struct Value {
  std::function<std::optional<double>(const nlohmann::json&, const MetricUnits&)> fn;
  std::string metric;
  template <typename F>
  Value(F f) : fn(std::move(f)) {}  // NOLINT(google-explicit-constructor): rows are written as lambdas
  Value(std::function<std::optional<double>(const nlohmann::json&, const MetricUnits&)> f, std::string name)
      : fn(std::move(f)), metric(std::move(name)) {}
  std::optional<double> operator()(const nlohmann::json& l, const MetricUnits& u) const { return fn(l, u); }
};

struct Row {
  std::string label, unit;
  Value value;
};

Value metric(const std::string& name) {
  return Value([name](const nlohmann::json& l, const MetricUnits& u) { return metric_number(l, name, u); }, name);
}

Value field(const char* object, const char* key) {
  return [object, key](const nlohmann::json& l, const MetricUnits&) -> std::optional<double> {
    const auto o = l.find(object);
    if (o == l.end() || !o->is_object()) return std::nullopt;
    const auto v = o->find(key);
    if (v == o->end() || !v->is_number()) return std::nullopt;
    return v->get<double>();
  };
}

Value none() {
  return [](const nlohmann::json&, const MetricUnits&) -> std::optional<double> { return std::nullopt; };
}

/// The predicted elapsed SM cycles: the predicted duration at the profile's SM clock.
std::optional<double> elapsed_cycles(const nlohmann::json& l, const MetricUnits& u) {
  const auto d = metric_number(l, "gpu__time_duration.sum", u);
  if (!d || u.sm_clock_hz <= 0) return std::nullopt;
  return std::round(*d * 1e-9 * u.sm_clock_hz);
}

std::vector<Row> rows_of(const std::string& section) {
  if (section == "SpeedOfLight")
    return {{"DRAM Frequency", "hz", none()},
            {"SM Frequency", "hz",
             [](const nlohmann::json&, const MetricUnits& u) -> std::optional<double> {
               if (u.sm_clock_hz <= 0) return std::nullopt;
               return u.sm_clock_hz;
             }},
            {"Elapsed Cycles", "cycle", elapsed_cycles},
            {"Memory Throughput", "%", metric("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")},
            {"DRAM Throughput", "%", metric("dram__throughput.avg.pct_of_peak_sustained_elapsed")},
            {"Duration", "ns", metric("gpu__time_duration.sum")},
            {"L1/TEX Cache Throughput", "%", metric("l1tex__throughput.avg.pct_of_peak_sustained_active")},
            {"L2 Cache Throughput", "%", metric("lts__throughput.avg.pct_of_peak_sustained_elapsed")},
            {"SM Active Cycles", "cycle", none()},
            {"Compute (SM) Throughput", "%", metric("sm__throughput.avg.pct_of_peak_sustained_elapsed")}};
  if (section == "ComputeWorkloadAnalysis")
    return {{"Executed Ipc Active", "inst/cycle", none()},
            {"Executed Ipc Elapsed", "inst/cycle",
             [](const nlohmann::json& l, const MetricUnits& u) -> std::optional<double> {
               const auto inst = metric_number(l, "smsp__inst_executed.sum", u);
               const auto cycles = elapsed_cycles(l, u);
               if (!inst || !cycles || *cycles <= 0 || u.sm == 0) return std::nullopt;
               return *inst / u.sm / *cycles;
             }},
            {"Issue Slots Busy", "%", none()},
            {"Issued Ipc Active", "inst/cycle", none()},
            {"SM Busy", "%", none()}};
  if (section == "MemoryWorkloadAnalysis")
    return {{"Memory Throughput", "byte/s", metric("dram__bytes.sum.per_second")},
            {"Mem Busy", "%", none()},
            {"Max Bandwidth", "%", none()},
            {"L1/TEX Hit Rate", "%", metric("l1tex__t_sector_hit_rate.pct")},
            {"L2 Hit Rate", "%", metric("lts__t_sector_hit_rate.pct")},
            {"Mem Pipes Busy", "%", none()}};
  if (section == "MemoryWorkloadAnalysis_Tables") {
    std::vector<Row> r;
    for (const auto& [op, name] : {std::pair{"ld", "Load"}, std::pair{"st", "Store"}, std::pair{"atom", "Atomic"},
                                   std::pair{"red", "Reduction"}}) {
      const std::string g = fmt::format("pipe_lsu_mem_global_op_{}", op);
      r.push_back({fmt::format("Global {} Instructions", name), "inst",
                   metric(fmt::format("smsp__sass_inst_executed_op_global_{}.sum", op))});
      r.push_back({fmt::format("Global {} Requests", name), "", metric("l1tex__t_requests_" + g + ".sum")});
      r.push_back({fmt::format("Global {} Sectors", name), "sector", metric("l1tex__t_sectors_" + g + ".sum")});
      r.push_back({fmt::format("Global {} Sectors/Req", name), "sector",
                   metric(fmt::format("l1tex__average_t_sectors_per_request_{}.ratio", g))});
      r.push_back({fmt::format("Global {} Hit Rate", name), "%",
                   metric(fmt::format("l1tex__t_sector_{}_hit_rate.pct", g))});
    }
    for (const auto& [op, name] : {std::pair{"ld", "Load"}, std::pair{"st", "Store"}}) {
      r.push_back({fmt::format("Local {} Requests", name), "",
                   metric(fmt::format("l1tex__t_requests_pipe_lsu_mem_local_op_{}.sum", op))});
      r.push_back({fmt::format("Local {} Sectors", name), "sector",
                   metric(fmt::format("l1tex__t_sectors_pipe_lsu_mem_local_op_{}.sum", op))});
    }
    for (const auto& [op, name] : {std::pair{"ld", "Load"}, std::pair{"st", "Store"}, std::pair{"atom", "Atomic"}}) {
      r.push_back({fmt::format("Shared {} Wavefronts", name), "",
                   metric(fmt::format("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{}.sum", op))});
      r.push_back({fmt::format("Shared {} Bank Conflicts", name), "",
                   metric(fmt::format("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{}.sum", op))});
    }
    r.push_back({"L2 Load Sectors", "sector", metric("lts__t_sectors_srcunit_tex_op_read.sum")});
    r.push_back({"L2 Load Hit Rate", "%", metric("lts__t_sector_op_read_hit_rate.pct")});
    r.push_back({"L2 Store Sectors", "sector", metric("lts__t_sectors_srcunit_tex_op_write.sum")});
    r.push_back({"L2 Store Hit Rate", "%", metric("lts__t_sector_op_write_hit_rate.pct")});
    r.push_back({"L2 Atomic Sectors", "sector", metric("lts__t_sectors_srcunit_tex_op_atom.sum")});
    r.push_back({"L2 Reduction Sectors", "sector", metric("lts__t_sectors_srcunit_tex_op_red.sum")});
    r.push_back({"DRAM Read Bytes", "byte", metric("dram__bytes_read.sum")});
    r.push_back({"DRAM Write Bytes", "byte", metric("dram__bytes_write.sum")});
    return r;
  }
  if (section == "LaunchStats")
    return {{"Block Size", "", metric("launch__block_size")},
            {"Grid Size", "", metric("launch__grid_size")},
            {"Registers Per Thread", "register/thread", metric("launch__registers_per_thread")},
            {"Dynamic Shared Memory Per Block", "byte/block", metric("launch__shared_mem_per_block_dynamic")},
            {"Static Shared Memory Per Block", "byte/block", field("resources", "static_shared_bytes")},
            {"# SMs", "SM",
             [](const nlohmann::json&, const MetricUnits& u) -> std::optional<double> {
               if (u.sm == 0) return std::nullopt;
               return u.sm;
             }},
            {"Threads", "thread", metric("launch__thread_count")},
            {"Waves Per SM", "", field("time", "waves")}};
  if (section == "Occupancy")
    return {{"Block Limit SM", "block", field("occupancy", "limit_blocks")},
            {"Block Limit Registers", "block", field("occupancy", "limit_registers")},
            {"Block Limit Shared Mem", "block", field("occupancy", "limit_shared")},
            {"Block Limit Warps", "block", field("occupancy", "limit_warps")},
            {"Theoretical Active Warps per SM", "warp", field("occupancy", "active_warps_per_sm")},
            {"Theoretical Occupancy", "%", field("occupancy", "occupancy_pct")},
            {"Achieved Occupancy", "%", metric("sm__warps_active.avg.pct_of_peak_sustained_active")},
            {"Achieved Active Warps Per SM", "warp",
             [](const nlohmann::json& l, const MetricUnits& u) -> std::optional<double> {
               const auto pct = metric_number(l, "sm__warps_active.avg.pct_of_peak_sustained_active", u);
               const auto max = field("occupancy", "max_warps_per_sm")(l, u);
               if (!pct || !max) return std::nullopt;
               return *pct * *max / 100.0;
             }}};
  if (section == "SourceCounters")
    return {{"Excessive Global Sectors", "sector", metric("global_excessive_sectors")},
            {"Shared Bank Conflicts", "", metric("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum")},
            {"Local Sectors", "sector", metric("local_sectors")}};
  return {};
}

/// SourceCounters' table: the lines with the most excessive global sectors and shared excess
/// wavefronts (at most 5), as the UI's source tables rank them.
std::string top_lines(const nlohmann::json& l) {
  struct Line {
    std::string where;
    double excess, sectors, shared_excess, executions;
  };
  std::vector<Line> lines;
  for (const auto& x : l.value("lines", nlohmann::json::array())) {
    const double ge = x.value("global_excessive_sectors", 0.0), se = x.value("shared_excess_wavefronts", 0.0);
    if (ge + se <= 0) continue;
    const std::string file = x.value("file", std::string());
    lines.push_back({fmt::format("{}:{}", file.substr(file.find_last_of('/') + 1), x.value("line", 0)), ge,
                     x.value("global_sectors", 0.0), se, x.value("executions", 0.0)});
  }
  if (lines.empty()) return "";
  std::stable_sort(lines.begin(), lines.end(),
                   [](const Line& a, const Line& b) { return a.excess + a.shared_excess > b.excess + b.shared_excess; });
  if (lines.size() > 5) lines.resize(5);
  std::vector<std::vector<std::string>> rows;
  for (const auto& x : lines)
    rows.push_back({x.where, ncu_number(x.executions), ncu_number(x.sectors), ncu_number(x.excess),
                    ncu_number(x.shared_excess)});
  return "    Source lines with excess traffic (warpscope)\n" +
         ncu_text_table({"Location", "Warp Instructions", "Global Sectors", "Excessive Sectors", "Shared Excess Wavefronts"},
                        rows) +
         "\n";
}

std::string display_name(const std::string& id) {
  for (const auto& s : ncu_sections())
    if (s.identifier == id) return s.display_name;
  return id;
}

/// A row's unit and value as printed: base units in CSV and under --print-units base, ncu's
/// scaling otherwise.
std::pair<std::string, std::string> cell(const Row& r, const nlohmann::json& l, const NcuOptions& o, bool scale) {
  const auto v = r.value(l, o.units);
  if (!v) return {r.unit, "n/a"};
  if (!scale || o.print_units_base) return {r.unit, ncu_number(*v)};
  const auto [x, u] = auto_scale(*v, r.unit);
  return {u, ncu_number(x)};
}

}  // namespace

std::vector<SectionMetric> section_metrics(const std::string& section) {
  std::vector<SectionMetric> out;
  for (const auto& r : rows_of(section))
    if (!r.value.metric.empty()) out.push_back({r.label, r.unit, r.value.metric});
  return out;
}

const std::vector<SectionInfo>& ncu_sections() {
  static const std::vector<SectionInfo> s = {
      {"C2CLink", "C2CLink", false},
      {"ComputeWorkloadAnalysis", "Compute Workload Analysis", true},
      {"InstructionStats", "Instruction Statistics", false},
      {"LaunchStats", "Launch Statistics", true},
      {"MemoryWorkloadAnalysis", "Memory Workload Analysis", true},
      {"MemoryWorkloadAnalysis_Chart", "Memory Workload Analysis Chart", false},
      {"MemoryWorkloadAnalysis_Tables", "Memory Workload Analysis Tables", true},
      {"NumaAffinity", "NUMA Affinity", false},
      {"Nvlink", "NVLink", false},
      {"Nvlink_Tables", "NVLink Tables", false},
      {"Nvlink_Topology", "NVLink Topology", false},
      {"Occupancy", "Occupancy", true},
      {"PmSampling", "PM Sampling", false},
      {"PmSampling_WarpStates", "PM Sampling: Warp States", false},
      {"SchedulerStats", "Scheduler Statistics", false},
      {"SourceCounters", "Source Counters", true},
      {"SpeedOfLight", "GPU Speed Of Light Throughput", true},
      {"SpeedOfLight_HierarchicalDoubleRooflineChart", "GPU Speed Of Light Hierarchical Roofline Chart (Double Precision)", false},
      {"SpeedOfLight_HierarchicalHalfRooflineChart", "GPU Speed Of Light Hierarchical Roofline Chart (Half Precision)", false},
      {"SpeedOfLight_HierarchicalSingleRooflineChart", "GPU Speed Of Light Hierarchical Roofline Chart (Single Precision)", false},
      {"SpeedOfLight_HierarchicalTensorRooflineChart", "GPU Speed Of Light Hierarchical Roofline Chart (Tensor Core)", false},
      {"SpeedOfLight_RooflineChart", "GPU Speed Of Light Roofline Chart", false},
      {"WarpStateStats", "Warp State Statistics", false},
      {"WorkloadDistribution", "GPU and Memory Workload Distribution", false}};
  return s;
}

std::vector<std::string> set_sections(const std::string& set) {
  // ncu 2025.3's --list-sets (tests/hw/data/h200/ncu_cli/list_sets.txt).
  if (set == "basic") return {"LaunchStats", "Occupancy", "SpeedOfLight", "WorkloadDistribution"};
  if (set == "detailed")
    return {"ComputeWorkloadAnalysis", "LaunchStats", "MemoryWorkloadAnalysis", "MemoryWorkloadAnalysis_Chart", "Occupancy",
            "SourceCounters", "SpeedOfLight", "SpeedOfLight_RooflineChart", "WorkloadDistribution"};
  if (set == "full") {
    std::vector<std::string> all;
    for (const auto& s : ncu_sections())
      if (s.identifier != "C2CLink" && s.identifier != "Nvlink" && s.identifier != "PmSampling_WarpStates")
        all.push_back(s.identifier);
    return all;
  }
  if (set == "roofline") return {"SpeedOfLight", "SpeedOfLight_RooflineChart", "WorkloadDistribution"};
  fail(ErrorKind::kUsage, "--set {}: not one of ncu's sets (basic, detailed, full, roofline)", set);
}

std::vector<std::string> resolve_sections(const std::vector<std::string>& requested, std::vector<std::string>* notes) {
  std::vector<std::string> out;
  auto add = [&](const std::string& id) {
    if (std::find(out.begin(), out.end(), id) == out.end()) out.push_back(id);
  };
  for (const auto& r : requested) {
    bool found = false;
    if (r.rfind("regex:", 0) == 0) {
      std::regex re;
      try {
        re = std::regex(r.substr(6), std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        fail(ErrorKind::kUsage, "--section {}: not a regular expression: {}", r, e.what());
      }
      for (const auto& s : ncu_sections())
        if (std::regex_search(s.identifier, re)) {
          add(s.identifier);
          found = true;
        }
    } else {
      for (const auto& s : ncu_sections())
        if (s.identifier == r) {
          add(s.identifier);
          found = true;
        }
    }
    if (!found) {
      std::string names;
      for (const auto& s : ncu_sections())
        if (s.modelled) names += (names.empty() ? "" : ", ") + s.identifier;
      fail(ErrorKind::kUsage, "--section {}: not a section of Nsight Compute (warpscope fills {})", r, names);
    }
  }
  // ncu prints sections in its own order, whatever the order asked.
  std::vector<std::string> ordered;
  for (const char* id : {"SpeedOfLight", "SpeedOfLight_RooflineChart", "PmSampling", "ComputeWorkloadAnalysis",
                         "MemoryWorkloadAnalysis", "MemoryWorkloadAnalysis_Chart", "MemoryWorkloadAnalysis_Tables",
                         "SchedulerStats", "WarpStateStats", "InstructionStats", "LaunchStats", "Occupancy",
                         "WorkloadDistribution", "SourceCounters"})
    if (std::find(out.begin(), out.end(), id) != out.end()) ordered.push_back(id);
  for (const auto& id : out)
    if (std::find(ordered.begin(), ordered.end(), id) == ordered.end()) ordered.push_back(id);
  std::vector<std::string> kept;
  for (const auto& id : ordered) {
    if (rows_of(id).empty()) {
      if (notes != nullptr)
        notes->push_back(fmt::format("--section {}: not modelled (no counter of the model feeds \"{}\"); left out", id,
                                     display_name(id)));
      continue;
    }
    kept.push_back(id);
  }
  return kept;
}

std::string details_page(const nlohmann::json& report, const NcuContext& ctx, const NcuOptions& o,
                         const std::vector<std::string>& sections) {
  const auto launches = profiled_launches(report);
  if (launches.empty()) return "";
  std::string out;
  if (o.csv) {
    std::vector<std::string> header = launch_csv_header();
    for (const char* h : {"Section Name", "Metric Name", "Metric Unit", "Metric Value", "Rule Name", "Rule Type",
                          "Rule Description", "Estimated Speedup Type", "Estimated Speedup"})
      header.push_back(h);
    out += ncu_csv_row(header);
    std::size_t id = 0;
    for (const auto* l : launches) {
      for (const auto& s : sections)
        for (const auto& r : rows_of(s)) {
          auto fields = launch_csv_fields(id, *l, ctx, o);
          const auto [unit, value] = cell(r, *l, o, false);
          fields.insert(fields.end(), {display_name(s), r.label, unit, value});
          std::string row = ncu_csv_row(fields);
          row.insert(row.size() - 1, ",");  // ncu ends a metric row with one empty field for the rule columns
          out += row;
        }
      ++id;
    }
    return out;
  }
  long last_pid = -1;
  for (const auto* l : launches) {
    out += process_heading(*l, ctx, &last_pid);
    out += launch_heading(*l, ctx, o);
    for (const auto& s : sections) {
      out += fmt::format("    Section: {}\n", display_name(s));
      std::vector<std::vector<std::string>> rows;
      for (const auto& r : rows_of(s)) {
        const auto [unit, value] = cell(r, *l, o, true);
        rows.push_back({r.label, unit, value});
      }
      out += ncu_text_table({"Metric Name", "Metric Unit", "Metric Value"}, rows) + "\n";
      if (s == "SourceCounters") out += top_lines(*l);
    }
  }
  return out;
}

std::string source_page(const nlohmann::json& report, const NcuContext& ctx, const NcuOptions& o) {
  const auto launches = profiled_launches(report);
  std::string out;
  for (const auto* l : launches) {
    out += launch_heading(*l, ctx, o);
    std::string file;
    std::vector<std::vector<std::string>> rows;
    auto flush = [&] {
      if (rows.empty()) return;
      out += fmt::format("    File Name {}\n", file.empty() ? "(no -lineinfo: rebuild with nvcc -lineinfo)" : file);
      out += ncu_text_table({"Line No", "Source", "Warp Instructions", "Global Requests", "Global Sectors",
                             "Excessive Sectors", "Shared Wavefronts", "Shared Excess Wavefronts"},
                            rows, 2) +
             "\n";
      rows.clear();
    };
    for (const auto& x : l->value("lines", nlohmann::json::array())) {
      const std::string f = x.value("file", std::string());
      if (f != file) {
        flush();
        file = f;
      }
      std::string text = x.value("text", std::string());
      while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.pop_back();
      rows.push_back({std::to_string(x.value("line", 0)), text,
                      ncu_number(x.value("sass_executions", x.value("executions", 0.0))),
                      ncu_number(x.value("global_requests", 0.0)), ncu_number(x.value("global_sectors", 0.0)),
                      ncu_number(x.value("global_excessive_sectors", 0.0)), ncu_number(x.value("shared_wavefronts", 0.0)),
                      ncu_number(x.value("shared_excess_wavefronts", 0.0))});
    }
    flush();
  }
  return out;
}

std::string query_metrics_text() {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> names = known_metrics();
  names.insert(names.end(), derived_metrics().begin(), derived_metrics().end());
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  for (const auto& n : names) {
    std::string type = n.find("__") == std::string::npos ? "warpscope"
                       : n.ends_with(".pct") || n.ends_with(".ratio") ? "Ratio"
                       : n.find("pct_of_peak") != std::string::npos ? "Throughput"
                       : n.rfind("launch__", 0) == 0 ? "Launch"
                                                     : "Counter";
    std::string d = metric_description(n);
    rows.push_back({n, type, metric_unit(n), d});
  }
  return "Metrics warpscope reports (the model's, under Nsight Compute's names; counters also take .avg over the "
         "profile's units and .per_second; docs/report.md)\n" +
         ncu_text_table({"Metric Name", "Metric Type", "Metric Unit", "Metric Description"}, rows, 4);
}

}  // namespace warpscope::report
