#include "report/ncu_output.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "common/error.hpp"
#include "common/kernel_name.hpp"
#include "common/nearest.hpp"

namespace warpscope::report {
namespace {

constexpr const char* kSection = "Command line profiler metrics";

const nlohmann::json& metrics_of(const nlohmann::json& launch) {
  static const nlohmann::json kNone = nlohmann::json::object();
  const auto it = launch.find("metrics");
  return it != launch.end() && it->is_object() ? *it : kNone;
}

/// Metrics that a launch lists only when it ran such instructions (docs/report.md): absent
/// means none ran, so the value is 0. Any other absent metric is unknown ("n/a"), e.g.
/// launch__registers_per_thread without ptxas.
bool absent_means_zero(const std::string& m) {
  return m.find("_pipe_tex_mem_") != std::string::npos || m.rfind("smsp__sass_inst_executed_op_texture", 0) == 0 ||
         m.rfind("smsp__sass_inst_executed_op_surface_", 0) == 0 ||
         m == "smsp__sass_inst_executed_op_shared_atom.sum" || m == "smsp__sass_inst_executed_op_shared_red.sum" ||
         m.find("ldgsts") != std::string::npos || m.find("tma") != std::string::npos || m.find("dshared") != std::string::npos ||
         m.find("gmma") != std::string::npos || m.find("_ldsm") != std::string::npos || m.find("_stsm") != std::string::npos;
}

/// The names of the launch metrics that appear only when such instructions ran (report_json.cpp:
/// cp.async, the TMA and bulk copies, distributed shared memory, ldmatrix/stmatrix, wgmma).
void conditional_metrics(std::vector<std::string>& n) {
  for (const char* m :
       {"smsp__sass_inst_executed_op_ldgsts.sum", "smsp__sass_inst_executed_op_ldgsts_cache_access.sum",
        "smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum",
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss.sum",
        "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum",
        "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
        "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum",
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum",
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum",
        "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum",
        "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
        "smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum",
        "smsp__inst_executed_op_tma_ld.sum", "smsp__inst_executed_op_tma_st.sum", "smsp__sass_inst_executed_op_tma.sum",
        "smsp__sass_inst_executed_op_tma_ld.sum", "smsp__sass_inst_executed_op_tma_red.sum", "l1tex__tmain_requests.sum",
        "l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum", "l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum",
        "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum", "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum",
        "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum", "l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum",
        "sm__sass_inst_executed_op_ldsm.sum", "sm__sass_inst_executed_op_shared_stsm.sum",
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum",
        "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum",
        "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum",
        "sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum", "sm__sass_inst_executed_op_shared_gmma.sum",
        "sm__inst_executed_pipe_tensor_op_gmma.sum", "l1tex__lsuin_requests_op_gmma.sum", "sm__sass_data_bytes_mem_shared_op_gmma.sum",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum", "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum"})
    n.push_back(m);
  for (const char* op : {"ld", "st", "atom"}) {
    n.push_back(fmt::format("smsp__sass_inst_executed_op_dshared_{}.sum", op));
    for (const char* k : {"l1tex__t_requests_pipe_lsu_mem_dshared_op_", "l1tex__t_sectors_pipe_lsu_mem_dshared_op_",
                          "l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_", "l1tex__m_xbar2l1tex_read_bytes_mem_dshared_op_",
                          "l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_"})
      n.push_back(fmt::format("{}{}.sum", k, op));
  }
  for (const char* k : {"tma_st", "tma_red"}) {
    n.push_back(fmt::format("smsp__sass_inst_executed_op_dshared_{}.sum", k));
    for (const char* d : {"l1tex__m_l1tex2xbar_write_", "l1tex__m_xbar2l1tex_read_"})
      for (const char* u : {"sectors", "bytes"}) n.push_back(fmt::format("{}{}_mem_dshared_op_{}.sum", d, u, k));
  }
}

/// The launch__ facts every launch has (from its grid, block and dynamic shared memory).
std::optional<double> launch_fact(const nlohmann::json& launch, const std::string& m) {
  auto dim = [&](const char* key, int i) -> double {
    const auto& d = launch.value(key, nlohmann::json::array());
    return d.is_array() && d.size() == 3 ? d[static_cast<std::size_t>(i)].get<double>() : 0.0;
  };
  auto product = [&](const char* key) { return dim(key, 0) * dim(key, 1) * dim(key, 2); };
  static const char* kAxes[] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    if (m == fmt::format("launch__grid_dim_{}", kAxes[i])) return dim("grid", i);
    if (m == fmt::format("launch__block_dim_{}", kAxes[i])) return dim("block", i);
  }
  if (m == "launch__grid_size") return product("grid");
  if (m == "launch__block_size") return product("block");
  if (m == "launch__thread_count") return product("grid") * product("block");
  if (m == "launch__shared_mem_per_block_dynamic") return launch.value("dynamic_shared_bytes", 0.0);
  return std::nullopt;
}

/// The metric's value as printed for one launch.
std::string value_of(const nlohmann::json& launch, const std::string& m, const MetricUnits& u) {
  return metric_text(launch, m, u);
}

std::optional<double> number_of(const nlohmann::json& launch, const std::string& m, const MetricUnits& u) {
  return metric_number(launch, m, u);
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_row(const std::vector<std::string>& fields) {
  std::string out;
  for (std::size_t i = 0; i < fields.size(); ++i) out += (i ? "," : "") + quoted(fields[i]);
  return out + "\n";
}

std::string shape(const nlohmann::json& d) {
  if (!d.is_array() || d.size() != 3) return "(?, ?, ?)";
  return fmt::format("({}, {}, {})", d[0].get<long long>(), d[1].get<long long>(), d[2].get<long long>());
}

std::vector<const nlohmann::json*> profiled(const nlohmann::json& report) {
  std::vector<const nlohmann::json*> out;
  const auto it = report.find("launches");
  if (it == report.end() || !it->is_array()) return out;
  for (const auto& l : *it)
    if (l.value("profiled", true)) out.push_back(&l);
  return out;
}

/// The metrics to print: the requested ones, or every Nsight Compute-named metric (a name with
/// "__") the profiled launches have; in name order, as ncu sorts them.
std::vector<std::string> columns(const std::vector<const nlohmann::json*>& launches, const NcuOptions& o) {
  std::set<std::string> names(o.metrics.begin(), o.metrics.end());
  if (o.metrics.empty()) {
    for (const auto* l : launches)
      for (const auto& [k, v] : metrics_of(*l).items())
        if (k.find("__") != std::string::npos && v.is_number()) names.insert(k);
  }
  return {names.begin(), names.end()};
}

std::string kernel_name(const nlohmann::json& l, const NcuOptions& o) { return printed_kernel_name(l, o.kernel_base); }

std::string unit_of(const std::string& m) { return metric_unit(m); }

/// A text table as ncu draws one: a dashed rule, the header, a rule, rows, a rule. The first
/// column is left-aligned, the others right-aligned; each as wide as its widest cell.
std::string text_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                       std::size_t left_columns = 1) {
  std::vector<std::size_t> w(header.size());
  for (std::size_t c = 0; c < header.size(); ++c) {
    w[c] = header[c].size();
    for (const auto& r : rows) w[c] = std::max(w[c], r[c].size());
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string s = "    ";
    for (std::size_t c = 0; c < cells.size(); ++c) {
      if (c) s += ' ';
      s += c < left_columns ? fmt::format("{:<{}}", cells[c], w[c]) : fmt::format("{:>{}}", cells[c], w[c]);
    }
    while (!s.empty() && s.back() == ' ') s.pop_back();
    return s + "\n";
  };
  std::vector<std::string> dashes;
  for (std::size_t c = 0; c < w.size(); ++c) dashes.emplace_back(w[c], '-');
  std::string out = line(dashes) + line(header) + line(dashes);
  for (const auto& r : rows) out += line(r);
  return out + line(dashes);
}

/// The NVTX stack under a launch's heading, as ncu --nvtx prints it.
std::string nvtx_block(const nlohmann::json& l) {
  const auto it = l.find("nvtx");
  if (it == l.end() || !it->is_object() || it->value("domains", nlohmann::json::array()).empty()) return "";
  std::string out = fmt::format("\n    NVTX Push/Pop Stack for Thread {}:\n", it->value("thread", 0L));
  for (const auto& d : it->value("domains", nlohmann::json::array())) {
    const std::string name = d.value("domain", std::string());
    out += fmt::format("      {}\n", name.empty() ? "<default domain>" : name);
    std::size_t level = 0;
    for (const auto& r : d.value("ranges", nlohmann::json::array()))
      out += fmt::format("        <{},{}>\n", level++, r.get<std::string>());
  }
  return out;
}

/// A metric's unit and value in a text table: scaled as ncu's --print-units auto does unless
/// --print-units base.
std::vector<std::string> text_cells(const nlohmann::json& l, const std::string& m, const NcuOptions& o) {
  const std::string unit = unit_of(m);
  const auto v = number_of(l, m, o.units);
  if (!v || o.print_units_base) return {m, unit, value_of(l, m, o.units)};
  const auto [scaled, scaled_unit] = auto_scale(*v, unit);
  return {m, scaled_unit, ncu_number(scaled)};
}

std::string raw_csv(const nlohmann::json& report, const NcuContext& ctx, const NcuOptions& o) {
  const auto launches = profiled(report);
  if (launches.empty()) return "";
  const auto names = columns(launches, o);
  std::vector<std::string> header = {"ID",         "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
                                     "Stream",     "Block Size", "Grid Size",    "Device",    "CC"};
  std::vector<std::string> units(header.size(), "");
  for (const auto& m : names) {
    header.push_back(m);
    units.push_back(unit_of(m));
  }
  std::string out = csv_row(header) + csv_row(units);
  std::size_t id = 0;
  for (const auto* l : launches) {
    const NcuContext c = launch_context(*l, ctx);
    std::vector<std::string> row = {std::to_string(id++),
                                    std::to_string(c.pid),
                                    c.process,
                                    c.host,
                                    kernel_name(*l, o),
                                    "1",
                                    std::to_string(ncu_stream(l->value("stream", std::uint64_t{0}))),
                                    shape(l->value("block", nlohmann::json())),
                                    shape(l->value("grid", nlohmann::json())),
                                    "0",
                                    ctx.cc};
    for (const auto& m : names) row.push_back(value_of(*l, m, o.units));
    out += csv_row(row);
  }
  return out;
}

std::string raw_text(const nlohmann::json& report, const NcuContext& ctx, const NcuOptions& o) {
  const auto launches = profiled(report);
  if (launches.empty()) return "";
  const auto names = columns(launches, o);
  std::string out;
  long last_pid = -1;
  for (const auto* l : launches) {
    out += process_heading(*l, ctx, &last_pid);
    out += launch_heading(*l, ctx, o);
    if (o.nvtx) out += nvtx_block(*l);
    out += fmt::format("    Section: {}\n", kSection);
    std::vector<std::vector<std::string>> rows;
    for (const auto& m : names) rows.push_back(text_cells(*l, m, o));
    out += text_table({"Metric Name", "Metric Unit", "Metric Value"}, rows) + "\n";
  }
  return out;
}

/// A group of --print-summary per-kernel: the launches of one kernel with one block and grid.
struct Group {
  const nlohmann::json* first = nullptr;
  std::vector<const nlohmann::json*> launches;
};

std::vector<Group> groups(const std::vector<const nlohmann::json*>& launches) {
  std::vector<Group> out;
  std::map<std::tuple<long, std::string, std::string, std::string>, std::size_t> index;
  for (const auto* l : launches) {
    const long pid = l->contains("process") ? (*l)["process"].value("pid", 0L) : 0L;
    const auto key = std::make_tuple(pid, l->value("kernel", std::string()), shape(l->value("block", nlohmann::json())),
                                     shape(l->value("grid", nlohmann::json())));
    auto [it, fresh] = index.emplace(key, out.size());
    if (fresh) out.push_back(Group{l, {}});
    out[it->second].launches.push_back(l);
  }
  return out;
}

/// Minimum, maximum and average of a metric over a group ("n/a" when a launch lacks it).
std::array<std::string, 3> min_max_avg(const Group& g, const std::string& m, const MetricUnits& units) {
  double lo = 0, hi = 0, sum = 0;
  for (std::size_t i = 0; i < g.launches.size(); ++i) {
    const auto v = number_of(*g.launches[i], m, units);
    if (!v) return {"n/a", "n/a", "n/a"};
    lo = i == 0 ? *v : std::min(lo, *v);
    hi = i == 0 ? *v : std::max(hi, *v);
    sum += *v;
  }
  return {ncu_number(lo), ncu_number(hi), ncu_number(sum / static_cast<double>(g.launches.size()))};
}

std::string summary_csv(const nlohmann::json& report, const NcuContext& ctx, const NcuOptions& o) {
  const auto launches = profiled(report);
  if (launches.empty()) return "";
  const auto names = columns(launches, o);
  std::string out = csv_row({"Process ID", "Process Name", "Host Name", "Kernel Name", "Block Size", "Grid Size", "Device",
                             "CC", "Invocations", "Section Name", "Metric Name", "Metric Unit", "Minimum", "Maximum",
                             "Average"});
  for (const Group& g : groups(launches)) {
    for (const auto& m : names) {
      const auto v = min_max_avg(g, m, o.units);
      const NcuContext c = launch_context(*g.first, ctx);
      out += csv_row({std::to_string(c.pid), c.process, c.host, kernel_name(*g.first, o),
                      shape(g.first->value("block", nlohmann::json())), shape(g.first->value("grid", nlohmann::json())),
                      "0", ctx.cc, std::to_string(g.launches.size()), kSection, m, unit_of(m), v[0], v[1], v[2]});
    }
  }
  return out;
}

std::string summary_text(const nlohmann::json& report, const NcuContext& ctx, const NcuOptions& o) {
  const auto launches = profiled(report);
  if (launches.empty()) return "";
  const auto names = columns(launches, o);
  std::string out;
  long last_pid = -1;
  for (const Group& g : groups(launches)) {
    out += process_heading(*g.first, ctx, &last_pid);
    out += fmt::format("  {} {}x{}, Device 0, CC {}, Invocations {}\n", kernel_name(*g.first, o),
                       shape(g.first->value("grid", nlohmann::json())), shape(g.first->value("block", nlohmann::json())),
                       ctx.cc, g.launches.size());
    out += fmt::format("    Section: {}\n", kSection);
    std::vector<std::vector<std::string>> rows;
    for (const auto& m : names) {
      const auto v = min_max_avg(g, m, o.units);
      rows.push_back({m, unit_of(m), v[0], v[1], v[2]});
    }
    out += text_table({"Metric Name", "Metric Unit", "Minimum", "Maximum", "Average"}, rows) + "\n";
  }
  return out;
}

}  // namespace

const std::vector<std::string>& known_metrics() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const char* op : {"ld", "st", "atom", "red"}) {
      const std::string base = fmt::format("pipe_lsu_mem_global_op_{}", op);
      n.push_back("l1tex__t_requests_" + base + ".sum");
      n.push_back("l1tex__t_sectors_" + base + ".sum");
      n.push_back("l1tex__t_sectors_" + base + "_lookup_hit.sum");
      n.push_back(fmt::format("smsp__sass_inst_executed_op_global_{}.sum", op));
      n.push_back(fmt::format("smsp__sass_inst_executed_op_shared_{}.sum", op));
    }
    for (const char* op : {"ld", "st"}) {
      const std::string base = fmt::format("pipe_lsu_mem_local_op_{}", op);
      n.push_back("l1tex__t_requests_" + base + ".sum");
      n.push_back("l1tex__t_sectors_" + base + ".sum");
      n.push_back("l1tex__t_sectors_" + base + "_lookup_hit.sum");
      n.push_back(fmt::format("smsp__sass_inst_executed_op_local_{}.sum", op));
    }
    for (const char* op : {"ld", "st", "atom"}) {
      n.push_back(fmt::format("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{}.sum", op));
      n.push_back(fmt::format("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{}.sum", op));
    }
    for (const char* s : {"read", "write"}) {
      n.push_back(fmt::format("lts__t_sectors_srcunit_tex_op_{}.sum", s));
      n.push_back(fmt::format("lts__t_sectors_srcunit_tex_op_{}_lookup_hit.sum", s));
      n.push_back(fmt::format("dram__bytes_{}.sum", s));
    }
    n.push_back("lts__t_sectors_srcunit_tex_op_atom.sum");
    n.push_back("lts__t_sectors_srcunit_tex_op_red.sum");
    n.push_back("smsp__inst_executed.sum");
    n.push_back("smsp__thread_inst_executed.sum");
    conditional_metrics(n);
    // The TEX pipe (texture fetches, surface instructions).
    n.push_back("smsp__sass_inst_executed_op_texture.sum");
    n.push_back("l1tex__t_requests_pipe_tex_mem_texture.sum");
    for (const char* h : {"", "_lookup_hit", "_lookup_miss"}) n.push_back(fmt::format("l1tex__t_sectors_pipe_tex_mem_texture{}.sum", h));
    for (const char* op : {"ld", "st", "red"}) {
      n.push_back(fmt::format("smsp__sass_inst_executed_op_surface_{}.sum", op));
      n.push_back(fmt::format("l1tex__t_requests_pipe_tex_mem_surface_op_{}.sum", op));
      for (const char* h : {"", "_lookup_hit", "_lookup_miss"})
        n.push_back(fmt::format("l1tex__t_sectors_pipe_tex_mem_surface_op_{}{}.sum", op, h));
    }
    // Resources and occupancy (ptxas; docs/analysis.md), and the launch's own facts.
    for (const char* m : {"launch__registers_per_thread", "launch__occupancy_limit_warps", "launch__occupancy_limit_blocks",
                          "launch__occupancy_limit_registers", "launch__occupancy_limit_shared_mem",
                          "sm__maximum_warps_per_active_cycle_pct", "launch__grid_size", "launch__block_size",
                          "launch__thread_count", "launch__grid_dim_x", "launch__grid_dim_y", "launch__grid_dim_z",
                          "launch__block_dim_x", "launch__block_dim_y", "launch__block_dim_z",
                          "launch__shared_mem_per_block_dynamic"})
      n.push_back(m);
    // warpscope's own figures (docs/report.md).
    for (const char* m : {"const_instructions", "global_requests", "global_sectors", "global_sectors_per_request",
                          "global_excessive_sectors", "global_bytes_requested", "global_bytes_moved",
                          "global_bus_utilization_pct", "l1_hit_rate_global_ld_pct", "l2_hit_rate_pct",
                          "l2_read_hit_rate_pct", "local_requests", "local_sectors", "local_bytes", "shared_wavefronts",
                          "shared_bank_conflicts", "shared_excess_wavefronts", "shared_ideal_wavefronts_ld",
                          "shared_ideal_wavefronts_st", "local_spill_store_bytes_estimated",
                          "local_spill_load_bytes_estimated", "local_spill_store_sectors_estimated",
                          "local_spill_load_sectors_estimated"})
      n.push_back(m);
    std::sort(n.begin(), n.end());
    return n;
  }();
  return names;
}

std::vector<std::string> resolve_metrics(const std::vector<std::string>& requested, std::vector<std::string>* notes,
                                         const MetricUnits& units) {
  const auto& known = known_metrics();
  auto is_known = [&](const std::string& m) { return std::binary_search(known.begin(), known.end(), m); };
  std::vector<std::string> out;
  auto add = [&](const std::string& m) {
    if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
  };
  for (const std::string& r : requested) {
    if (r.empty()) continue;
    if (r.rfind("regex:", 0) == 0) {
      std::regex re;
      try {
        re = std::regex(r.substr(6), std::regex::ECMAScript);
      } catch (const std::regex_error& e) {
        fail(ErrorKind::kUsage, "--metrics {}: not a regular expression: {}", r, e.what());
      }
      std::size_t matched = 0;
      for (const auto* list : {&known, &derived_metrics()})
        for (const auto& m : *list)
          if (std::regex_search(m, re)) {
            add(m);
            ++matched;
          }
      if (matched == 0) fail(ErrorKind::kUsage, "--metrics {}: matches none of the metrics warpscope reports", r);
      continue;
    }
    if (is_known(r)) {
      add(r);
      continue;
    }
    // A name without a rollup: a counter's .sum, a ratio's .pct (as ncu's --query-metrics suffixes them).
    if (r.find('.') == std::string::npos) {
      bool done = false;
      for (const char* suffix : {".sum", ".pct"}) {
        if (done || !(is_known(r + suffix) || !metric_refusal(r + suffix, known, units))) continue;
        add(r + suffix);
        if (notes != nullptr)
          notes->push_back(fmt::format("--metrics {}: reported as {}{} (ncu needs the suffix: {}.sum, .avg, ... for "
                                       "a counter, .pct or .ratio for a ratio)", r, r, suffix, r));
        done = true;
      }
      if (done) continue;
    }
    const auto why = metric_refusal(r, known, units);
    if (!why) {
      add(r);
      continue;
    }
    if (!why->empty()) fail(ErrorKind::kUsage, "--metrics {}", *why);
    {
      std::vector<std::string> all = known;
      all.insert(all.end(), derived_metrics().begin(), derived_metrics().end());
      const auto close = nearest(r, all);
      std::string hint;
      for (const auto& c : close) hint += (hint.empty() ? "" : ", ") + c;
      fail(ErrorKind::kUsage,
           "--metrics {}: not a metric warpscope reports{}{} (warpscope --query-metrics lists them)", r,
           hint.empty() ? "" : "; did you mean ", hint);
    }
  }
  return out;
}

std::string printed_kernel_name(const nlohmann::json& launch, const std::string& base) {
  const std::string mangled = launch.value("kernel", std::string("?"));
  const auto names = kernel_names(mangled);
  if (base == "mangled") return mangled;
  if (base == "function") return names.function;
  return names.demangled;
}

std::optional<double> metric_number(const nlohmann::json& launch, const std::string& m, const MetricUnits& units) {
  const auto& metrics = metrics_of(launch);
  if (auto it = metrics.find(m); it != metrics.end() && it->is_number()) return it->get<double>();
  if (auto f = launch_fact(launch, m)) return f;
  return metric_value(launch, m, units, &absent_means_zero);
}

std::string metric_text(const nlohmann::json& launch, const std::string& m, const MetricUnits& units) {
  const auto v = metric_number(launch, m, units);
  return v ? ncu_number(*v) : "n/a";
}

std::string metric_unit(const std::string& m) {
  if (auto d = derived_unit(m)) return *d;
  return ncu_unit(m).value_or("");
}

namespace {
std::optional<std::string> counter_unit(const std::string& m) {
  auto starts = [&](const char* p) { return m.rfind(p, 0) == 0; };
  if (starts("l1tex__t_requests_")) return "";
  if (starts("l1tex__t_sectors_") || starts("lts__t_sectors_")) return "sector";
  if (starts("lts__t_requests_")) return "request";
  if (starts("l1tex__data_")) return "";
  if (starts("dram__bytes_")) return "byte";
  if (starts("smsp__inst_executed") || starts("smsp__thread_inst_executed") || starts("smsp__sass_inst_executed"))
    return "inst";
  if (m == "launch__registers_per_thread") return "register/thread";
  if (starts("launch__occupancy_limit_") || starts("launch__block_dim_")) return "block";
  if (starts("launch__grid_dim_") || m == "launch__grid_size" || m == "launch__block_size") return "";
  if (m == "launch__thread_count") return "thread";
  if (starts("launch__shared_mem_per_block")) return "byte/block";
  if (m == "sm__maximum_warps_per_active_cycle_pct") return "%";
  // The families that appear with cp.async, the TMA, clusters, ldmatrix and wgmma (the units rows of
  // tests/hw/data/h100/{async,tma,tma_more,dsmem_bulk,cluster,tensor,wgmma}).
  if (starts("l1tex__m_") && m.find("_sectors_") != std::string::npos) return "sector";
  if (starts("l1tex__m_") && m.find("_bytes_") != std::string::npos) return "byte";
  if (starts("l1tex__t_output_wavefronts_") || starts("l1tex__lsuin_requests_")) return "";
  if (m == "l1tex__tmain_requests" || starts("sm__inst_executed_pipe_tensor") || starts("sm__sass_inst_executed")) return "inst";
  if (starts("sm__sass_data_bytes_")) return "byte";
  if (starts("sm__sass_l1tex_data_") || starts("smsp__sass_l1tex_data_") || starts("smsp__sass_l1tex_t_requests_")) return "";
  if (starts("smsp__sass_l1tex_t_sectors_")) return "sector";
  if (m.find("__") != std::string::npos) return std::nullopt;
  // warpscope's own figures have no ncu unit; say what they count where it is plain.
  if (m.ends_with("_pct")) return "%";
  if (m.find("_bytes") != std::string::npos) return "byte";
  if (m.find("_sectors") != std::string::npos) return "sector";
  return "";
}
}  // namespace

std::optional<std::string> ncu_unit(const std::string& name) {
  // A name qualified by a metric group, as `ncu --query-metrics` lists some
  // ("SM_B.TriageCompute.l1tex__..."), has the unit of the metric it qualifies.
  const std::size_t family = name.find("__");
  const std::size_t qualifier = family == std::string::npos ? std::string::npos : name.rfind('.', family);
  const std::string metric = qualifier == std::string::npos ? name : name.substr(qualifier + 1);
  // A counter's rollup and submetric (ncu's "Metrics Structure"): `.sum.per_second` is the unit
  // per second, `.avg.per_cycle_elapsed` and `.peak_sustained` per cycle, `.pct_of_peak_*` a
  // percentage; `X_per_Y.ratio` has none.
  const std::size_t dot = metric.find('.');
  const std::string base = metric.substr(0, dot);
  const std::string rest = dot == std::string::npos ? "" : metric.substr(dot);
  if (base.find("__") != std::string::npos) {
    if (rest.find(".pct_of_peak") != std::string::npos) return "%";
    if (rest == ".ratio" && base.find("_per_") != std::string::npos) {
      if (!counter_unit(base)) return std::nullopt;
      return "";
    }
    const bool per_second = rest.ends_with(".per_second");
    const bool per_cycle = rest.find(".per_cycle") != std::string::npos || rest.ends_with(".peak_sustained");
    if (per_second || per_cycle) {
      const auto unit = counter_unit(base);
      if (!unit) return std::nullopt;
      return *unit + (per_second ? "/s" : "/cycle");
    }
  }
  return counter_unit(base);
}

std::string ncu_number(double value) {
  if (!std::isfinite(value)) return "n/a";
  const bool integral = std::nearbyint(value) == value && std::fabs(value) < 9.0e15;
  std::string digits = integral ? fmt::format("{:.0f}", value) : fmt::format("{:.2f}", value);
  const bool negative = !digits.empty() && digits[0] == '-';
  if (negative) digits.erase(0, 1);
  const std::size_t point = std::min(digits.find('.'), digits.size());
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && i < point && (point - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (negative ? "-" : "") + out;
}

long ncu_stream(std::uint64_t warpscope_stream) {
  return warpscope_stream == 0 ? 7 : 12 + static_cast<long>(warpscope_stream);
}

std::string ncu_text_table(const std::vector<std::string>& header, const std::vector<std::vector<std::string>>& rows,
                           std::size_t left_columns) {
  return text_table(header, rows, left_columns);
}

std::string ncu_csv_row(const std::vector<std::string>& fields) { return csv_row(fields); }

std::vector<const nlohmann::json*> profiled_launches(const nlohmann::json& report) { return profiled(report); }

NcuContext launch_context(const nlohmann::json& l, const NcuContext& ctx) {
  if (!l.contains("process") || !l["process"].is_object()) return ctx;
  const long pid = l["process"].value("pid", 0L);
  if (pid == 0 || pid == ctx.pid) return ctx;
  NcuContext c = ctx;
  c.pid = pid;
  c.process = l["process"].value("name", ctx.process);
  return c;
}

std::string process_heading(const nlohmann::json& l, const NcuContext& ctx, long* last_pid) {
  const NcuContext c = launch_context(l, ctx);
  if (c.pid == *last_pid) return "";
  *last_pid = c.pid;
  return fmt::format("[{}] {}@{}\n", c.pid, c.process, c.host);
}

std::string launch_heading(const nlohmann::json& l, const NcuContext& ctx, const NcuOptions& o) {
  return fmt::format("  {} {}x{}, Context 1, Stream {}, Device 0, CC {}\n", kernel_name(l, o),
                     shape(l.value("grid", nlohmann::json())), shape(l.value("block", nlohmann::json())),
                     ncu_stream(l.value("stream", std::uint64_t{0})), ctx.cc);
}

const std::vector<std::string>& launch_csv_header() {
  static const std::vector<std::string> h = {"ID",     "Process ID", "Process Name", "Host Name", "Kernel Name", "Context",
                                             "Stream", "Block Size", "Grid Size",    "Device",    "CC"};
  return h;
}

std::vector<std::string> launch_csv_fields(std::size_t id, const nlohmann::json& l, const NcuContext& ctx,
                                           const NcuOptions& o) {
  const NcuContext c = launch_context(l, ctx);
  return {std::to_string(id),
          std::to_string(c.pid),
          c.process,
          c.host,
          kernel_name(l, o),
          "1",
          std::to_string(ncu_stream(l.value("stream", std::uint64_t{0}))),
          shape(l.value("block", nlohmann::json())),
          shape(l.value("grid", nlohmann::json())),
          "0",
          ctx.cc};
}

std::string ncu_output(const nlohmann::json& report, const NcuContext& context, const NcuOptions& options) {
  if (options.print_summary == "per-kernel") {
    return options.csv ? summary_csv(report, context, options) : summary_text(report, context, options);
  }
  return options.csv ? raw_csv(report, context, options) : raw_text(report, context, options);
}

}  // namespace warpscope::report
