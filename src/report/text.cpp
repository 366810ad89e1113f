#include "report/text.hpp"
#include "report/json_access.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#include "report/incomplete.hpp"
#include "report/processes.hpp"
#include "report/time_text.hpp"

namespace warpscope::report {
namespace {

std::string fmt_dim(const nlohmann::json& d) {
  if (!d.is_array() || d.size() != 3) return "?";
  return fmt::format("({},{},{})", d[0].get<long long>(), d[1].get<long long>(), d[2].get<long long>());
}

double num(const nlohmann::json& m, const char* key) {
  auto it = m.find(key);
  return it == m.end() || !it->is_number() ? 0.0 : it->get<double>();
}

std::string shorten(std::string s, std::size_t n) {
  if (s.size() <= n) return s;
  return s.substr(0, n - 3) + "...";
}

/// Names shortened to `n` characters. Where two different names would then read the same (two
/// instantiations of one template: CUB's and Thrust's kernels), each gets a number, " [k1]",
/// " [k2]", ..., in the order of `names`, and `*legend` a line per number with the whole name.
std::map<std::string, std::string> distinct_short_names(const std::vector<std::string>& names, std::size_t n,
                                                        std::string* legend = nullptr) {
  std::map<std::string, std::set<std::string>> by_short;
  for (const auto& name : names) by_short[shorten(name, n)].insert(name);
  std::map<std::string, std::string> out;
  unsigned next = 1;
  for (const auto& name : names) {
    if (out.count(name)) continue;
    const std::string s = shorten(name, n);
    if (by_short[s].size() == 1) {
      out[name] = s;
      continue;
    }
    const std::string tag = fmt::format(" [k{}]", next++);
    out[name] = shorten(name, n - tag.size()) + tag;
    if (legend != nullptr) *legend += fmt::format("   {} {}\n", tag.substr(1), name);
  }
  return out;
}


std::string launch_table(const nlohmann::json& report, bool all_launches) {
  std::string out;
  const auto& launches = report::array_member(report, "launches");
  const bool model = report.value("memory_model", false);
  out += fmt::format("\n== warpscope: {} kernel launch{} on {} ({}){}\n", launches.size(),
                     launches.size() == 1 ? "" : "es", report.value("arch", "?"), report.value("gpu", "?"),
                     model ? "" : "; no memory model (--no-stats): instruction counts only");
  if (launches.empty()) return out;
  // Several processes (a script that runs programs, a program that starts others): a pid column.
  const bool processes = process_count(report) > 1;
  struct Row {
    std::string label, name, grid, block;
    std::string pid;
    double count = 1;
    nlohmann::json m;
  };
  std::vector<Row> rows;
  const bool aggregate = !all_launches && launches.size() > 64;
  if (aggregate) {
    std::map<std::string, std::size_t> index;
    for (const auto& l : launches) {
      const std::string name = l.value("name", "?");
      auto [it, fresh] = index.emplace(name, rows.size());
      if (fresh) {
        rows.push_back(Row{"", name, "-", "-", "", 0, nlohmann::json::object()});
      }
      Row& r = rows[it->second];
      r.count += 1;
      const nlohmann::json metrics = l.contains("metrics") ? l["metrics"] : nlohmann::json::object();
      for (const auto& [k, v] : metrics.items()) {
        if (v.is_number() && k.find("_pct") == std::string::npos && k.find("per_request") == std::string::npos)
          r.m[k] = num(r.m, k.c_str()) + v.get<double>();
      }
    }
    for (auto& r : rows) {
      r.label = fmt::format("x{}", r.count);
      auto& m = r.m;
      const double req = num(m, "global_requests"), sec = num(m, "global_sectors");
      m["global_sectors_per_request"] = req == 0 ? 0 : sec / req;
      const double br = num(m, "global_bytes_requested"), bm = num(m, "global_bytes_moved");
      m["global_bus_utilization_pct"] = bm == 0 ? 0 : 100 * br / bm;
      const double h = num(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum");
      const double s = num(m, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
      m["l1_hit_rate_global_ld_pct"] = s == 0 ? 0 : 100 * h / s;
      const double rh = num(m, "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum");
      const double rs = num(m, "lts__t_sectors_srcunit_tex_op_read.sum");
      m["l2_read_hit_rate_pct"] = rs == 0 ? 0 : 100 * rh / rs;
    }
    out += fmt::format("   ({} launches, summed per kernel; --all-launches lists each)\n", launches.size());
  } else {
    std::size_t i = 0;
    for (const auto& l : launches) {
      const std::string pid = l.contains("process") ? fmt::format("{}", l["process"].value("pid", 0)) : "";
      rows.push_back(Row{fmt::format("{}", l.value("index", i)), l.value("name", "?"), fmt_dim(l.value("grid", nlohmann::json())),
                         fmt_dim(l.value("block", nlohmann::json())), pid, 1,
                         l.value("metrics", nlohmann::json::object())});
      if (l.contains("error")) rows.back().name += "  [" + l["error"].get<std::string>().substr(0, 40) + "]";
      rows.back().name = incomplete_marker(l) + rows.back().name;
    }
  }
  if (processes && !aggregate) {
    for (auto& r : rows) r.label = r.pid + "/" + r.label;
  }
  std::vector<std::string> names;
  for (const auto& r : rows) names.push_back(r.name);
  std::string legend;
  const auto shown = distinct_short_names(names, 40, &legend);
  if (model) {
    out += fmt::format("{:>5}  {:<40} {:>12} {:>11} {:>11} {:>9} {:>8} {:>7} {:>7} {:>7} {:>10} {:>12}\n",
                       processes && !aggregate ? "pid/#" : "#",
                       "kernel", "grid", "block", "warp inst", "gmem req", "sect/req", "bus %", "L1 ld%",
                       "L2 rd%", "local B", "smem wf/cf");
    for (const auto& r : rows) {
      const auto& m = r.m;
      out += fmt::format("{:>5}  {:<40} {:>12} {:>11} {:>11} {:>9} {:>8.2f} {:>7.1f} {:>7.1f} {:>7.1f} {:>10} {:>12}\n",
                         r.label, shown.at(r.name), r.grid, r.block,
                         static_cast<std::uint64_t>(num(m, "smsp__inst_executed.sum")),
                         static_cast<std::uint64_t>(num(m, "global_requests")), num(m, "global_sectors_per_request"),
                         num(m, "global_bus_utilization_pct"), num(m, "l1_hit_rate_global_ld_pct"),
                         num(m, "l2_read_hit_rate_pct"), static_cast<std::uint64_t>(num(m, "local_bytes")),
                         fmt::format("{}/{}", static_cast<std::uint64_t>(num(m, "shared_wavefronts")),
                                     static_cast<std::uint64_t>(num(m, "shared_bank_conflicts"))));
    }
    out += "   gmem req: global load/store/atomic requests; sect/req: 32-byte sectors per request; bus %: bytes\n"
           "   requested / bytes moved; L1 ld%: L1 hit rate of global load sectors (ncu's\n"
           "   l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate); L2 rd%: L2 hit rate of read sectors (ncu's\n"
           "   lts__t_sector_op_read_hit_rate; its \"L2 Hit Rate\" counts all sectors); local B: local memory sectors\n"
           "   x 32; smem wf/cf: shared-memory wavefronts / bank conflicts.\n";
  } else {
    out += fmt::format("{:>5}  {:<40} {:>12} {:>11} {:>12} {:>9} {:>9} {:>9} {:>9}\n",
                       processes && !aggregate ? "pid/#" : "#", "kernel", "grid", "block",
                       "warp inst", "gld inst", "gst inst", "lcl inst", "shm inst");
    // Counters the run did not make (--no-stats: no record of any access) are "-", not 0.
    auto count = [](const nlohmann::json& m, const char* a, const char* b = nullptr) -> std::string {
      if (!m.contains(a)) return "-";
      return fmt::format("{}", static_cast<std::uint64_t>(num(m, a) + (b ? num(m, b) : 0.0)));
    };
    for (const auto& r : rows) {
      const auto& m = r.m;
      out += fmt::format("{:>5}  {:<40} {:>12} {:>11} {:>12} {:>9} {:>9} {:>9} {:>9}\n", r.label, shown.at(r.name),
                         r.grid, r.block, count(m, "smsp__inst_executed.sum"),
                         count(m, "smsp__sass_inst_executed_op_global_ld.sum"),
                         count(m, "smsp__sass_inst_executed_op_global_st.sum"),
                         count(m, "smsp__sass_inst_executed_op_local_ld.sum", "smsp__sass_inst_executed_op_local_st.sum"),
                         count(m, "smsp__sass_inst_executed_op_shared_ld.sum",
                               "smsp__sass_inst_executed_op_shared_st.sum"));
    }
  }
  if (!legend.empty()) out += "   kernels whose names read the same when shortened:\n" + legend;
  return out;
}


/// The processes of a run with several, and any whose report came from its launch stream.
std::string processes_text(const nlohmann::json& report) {
  if (!report.contains("processes") || !report["processes"].is_array()) return "";
  const auto& ps = report["processes"];
  bool partial = false;
  for (const auto& p : ps) partial = partial || p.value("report_source", "") == "stream";
  if (ps.size() < 2 && !partial) return "";
  std::string out = fmt::format("   {} process{}:\n", ps.size(), ps.size() == 1 ? "" : "es");
  for (const auto& p : ps) {
    out += fmt::format("     {} {} ({}{} launch{}{})\n", p.value("pid", 0), p.value("name", "?"),
                       p.value("root", false) ? "the program, " : "", p.value("launches", 0),
                       p.value("launches", 0) == 1 ? "" : "es",
                       p.value("report_source", "") == "stream"
                           ? "; it ended without writing its report: the launches are those it finished"
                           : "");
  }
  return out;
}

/// The profiles side by side: one block per launch (or per kernel when there are many).
std::string compare_table(const nlohmann::json& report) {
  const auto& launches = report["launches"];
  std::string out;
  std::vector<std::string> archs{report.value("arch", "?")};
  for (const auto& a : report.value("compare_archs", nlohmann::json::array())) archs.push_back(a.get<std::string>());
  if (archs.size() < 2) return out;
  static const std::vector<std::pair<const char*, const char*>> kRows = {
      {"global requests", "global_requests"},
      {"global transactions (own unit)", "global_transactions"},
      {"transactions per request", "global_transactions_per_request"},
      {"global sectors (32 B, ncu's)", "global_sectors"},
      {"sectors per request", "global_sectors_per_request"},
      {"bus utilization %", "global_bus_utilization_pct"},
      {"L1 hit % (global loads)", "l1_hit_rate_global_ld_pct"},
      {"L2 read hit %", "l2_read_hit_rate_pct"},
      {"DRAM bytes read", "dram__bytes_read.sum"},
      {"local bytes", "local_bytes"},
      {"shared wavefronts", "shared_wavefronts"},
      {"shared bank conflicts", "shared_bank_conflicts"}};
  out += "\n== profiles side by side (--compare-arch; one execution, each profile's memory model)\n";
  // Each profile's unit of a transaction (the unit its hardware moves; `warpscope pattern` counts
  // the same); ncu's 32-byte sectors beside it.
  for (const auto& a : archs) {
    std::string unit;
    if (a == report.value("arch", "?")) unit = report.value("transaction_unit", std::string());
    for (const auto& l : launches)
      for (const auto& c : l.value("compare", nlohmann::json::array()))
        if (unit.empty() && c.value("arch", "") == a) unit = c.value("transaction_unit", std::string());
    if (!unit.empty()) out += fmt::format("   {} transactions: {}\n", a, unit);
  }
  std::size_t shown = 0;
  for (const auto& l : launches) {
    if (++shown > 16) {
      out += fmt::format("   ... {} more launches in the JSON report\n", launches.size() - 16);
      break;
    }
    std::vector<nlohmann::json> ms{l.value("metrics", nlohmann::json::object())};
    for (std::size_t i = 1; i < archs.size(); ++i) {
      nlohmann::json m = nlohmann::json::object();
      for (const auto& c : l.value("compare", nlohmann::json::array()))
        if (c.value("arch", "") == archs[i]) m = c.value("metrics", nlohmann::json::object());
      ms.push_back(m);
    }
    out += fmt::format("   launch {} {}\n", l.value("index", shown - 1), shorten(l.value("name", "?"), 60));
    out += fmt::format("   {:<32}", "");
    for (const auto& a : archs) out += fmt::format(" {:>14}", a);
    out += "\n";
    for (const auto& [label, key] : kRows) {
      out += fmt::format("   {:<32}", label);
      for (const auto& m : ms) {
        const double v = num(m, key);
        if (!m.contains(key)) {  // a report made before the field existed
          out += fmt::format(" {:>14}", "-");
          continue;
        }
        const bool frac = std::string(key).find("_pct") != std::string::npos ||
                          std::string(key).find("per_request") != std::string::npos;
        out += frac ? fmt::format(" {:>14.2f}", v) : fmt::format(" {:>14}", static_cast<std::uint64_t>(v));
      }
      out += "\n";
    }
  }
  return out;
}

std::string basename(const std::string& file) {
  const auto slash = file.find_last_of('/');
  return slash == std::string::npos ? file : file.substr(slash + 1);
}

/// The worst source lines over all launches, summed per (kernel, file, line).
std::string worst_lines(const nlohmann::json& report, unsigned limit) {
  struct Agg {
    std::string kernel, file, text;
    std::uint64_t line = 0, excessive = 0, sectors = 0, requests = 0, excess_wf = 0, wavefronts = 0, local = 0;
  };
  std::map<std::tuple<std::string, std::string, std::uint64_t>, Agg> by;
  for (const auto& l : report["launches"]) {
    const std::string kernel = l.value("name", "?");
    for (const auto& ln : l.value("lines", nlohmann::json::array())) {
      const std::string file = ln.value("file", "");
      const std::uint64_t line = ln.value("line", std::uint64_t{0});
      Agg& a = by[{kernel, file, line}];
      a.kernel = kernel;
      a.file = file;
      a.line = line;
      a.text = ln.value("text", "");
      a.excessive += ln.value("global_excessive_sectors", std::uint64_t{0});
      a.sectors += ln.value("global_sectors", std::uint64_t{0});
      a.requests += ln.value("global_requests", std::uint64_t{0});
      a.excess_wf += ln.value("shared_excess_wavefronts", std::uint64_t{0});
      a.wavefronts += ln.value("shared_wavefronts", std::uint64_t{0});
      a.local += ln.value("local_sectors", std::uint64_t{0});
    }
  }
  std::vector<const Agg*> rows;
  for (const auto& [k, a] : by)
    if (a.excessive + a.excess_wf > 0) rows.push_back(&a);
  std::stable_sort(rows.begin(), rows.end(), [](const Agg* x, const Agg* y) {
    return x->excessive + x->excess_wf > y->excessive + y->excess_wf;
  });
  if (rows.empty()) return "\n== worst source lines: none (no excessive sectors, no excess shared wavefronts)\n";
  std::string out = "\n== worst source lines (excessive global sectors + excess shared wavefronts)\n";
  out += fmt::format("   {:>12} {:>12} {:>9}  {:<28} {}\n", "excess sect", "excess wf", "sect/req", "where", "source");
  for (std::size_t i = 0; i < rows.size() && i < limit; ++i) {
    const Agg& a = *rows[i];
    const std::string where = a.line != 0       ? fmt::format("{}:{}", basename(a.file), a.line)
                              : a.file.empty() ? "(no line: -lineinfo)"
                                               : "(line 0: compiler-made)";
    std::string text = a.text;
    text.erase(0, std::min(text.find_first_not_of(" \t"), text.size()));
    out += fmt::format("   {:>12} {:>12} {:>9.2f}  {:<28} {}\n", a.excessive, a.excess_wf,
                       a.requests == 0 ? 0.0 : static_cast<double>(a.sectors) / static_cast<double>(a.requests),
                       shorten(where, 28), shorten(text, 70));
    out += fmt::format("   {:>12} {:>12} {:>9}  in {}\n", "", "", "", shorten(a.kernel, 60));
  }
  return out;
}

/// Advice over all launches, each distinct (kernel, rule, line) once, in launch order.
std::string advice_list(const nlohmann::json& report, unsigned limit) {
  std::vector<std::string> items;
  std::map<std::tuple<std::string, std::string, std::string, std::uint64_t>, bool> seen;
  for (const auto& l : report["launches"]) {
    const std::string kernel = l.value("name", "?");
    for (const auto& a : l.value("advice", nlohmann::json::array())) {
      const std::string rule = a.value("rule", "");
      // A missing -lineinfo is said once for the program, not once per kernel.
      const auto key = std::make_tuple(rule == "no_lineinfo" ? std::string() : kernel, rule, a.value("file", ""),
                                       a.contains("line") && a["line"].is_number()
                                                                               ? a["line"].get<std::uint64_t>()
                                                                               : std::uint64_t{0});
      if (!seen.emplace(key, true).second) continue;
      items.push_back(rule == "no_lineinfo"
                          ? fmt::format("   - [{}] {}\n", rule, a.value("message", ""))
                          : fmt::format("   - [{}] {}\n       in {}\n", rule, a.value("message", ""), shorten(kernel, 70)));
    }
  }
  if (items.empty()) return "";
  std::string out = "\n== advice\n";
  for (std::size_t i = 0; i < items.size() && i < limit; ++i) out += items[i];
  if (items.size() > limit) out += fmt::format("   ... {} more in the JSON report\n", items.size() - limit);
  return out;
}

/// Registers, local memory and occupancy, once per kernel (its first launch).
std::string resources_table(const nlohmann::json& report) {
  std::string out;
  std::map<std::string, bool> seen;
  bool any_ptxas = false;
  for (const auto& l : report["launches"]) {
    if (!l.contains("resources")) continue;
    const std::string name = l.value("name", "?");
    if (!seen.emplace(name, true).second) continue;
    const auto& r = l["resources"];
    const auto& o = l.value("occupancy", nlohmann::json::object());
    any_ptxas = any_ptxas || r.value("from_ptxas", false);
    auto field = [](const nlohmann::json& j, const char* k) {
      return j.contains(k) && j[k].is_number() ? fmt::format("{}", j[k].get<std::int64_t>()) : std::string("?");
    };
    out += fmt::format("   {:<40} {:>5} {:>6} {:>11} {:>6} {:<10}\n", shorten(name, 40), field(r, "registers"),
                       field(r, "stack_frame_bytes"),
                       fmt::format("{}/{}", field(r, "spill_store_bytes"), field(r, "spill_load_bytes")),
                       o.contains("occupancy_pct") ? fmt::format("{:.0f} %", o["occupancy_pct"].get<double>()) : "?",
                       o.value("limited_by", std::string("?")));
    if (r.value("local_in_registers", false))
      out += "      every private array stays in registers (ptxas: 0-byte stack frame); its PTX local accesses are not "
             "memory traffic\n";
    for (const auto& a : l.value("local_arrays", nlohmann::json::array())) {
      if (a.value("in_registers", false)) continue;
      out += fmt::format("      local memory: {}-byte array at depot offset {}, first written at {}:{}\n",
                         a.value("bytes", 0), a.value("depot_offset", 0), basename(a.value("file", "")),
                         a.value("line", 0));
      for (const auto& d : a.value("dynamic_accesses", nlohmann::json::array())) {
        const std::string idx = d.value("index", "");
        out += fmt::format("        index not a constant at {}:{} ({}): {} across the warp, {:.1f} sectors per request{}\n",
                           basename(d.value("file", "")), d.value("line", 0), d.value("ptx", ""), idx,
                           d.value("sectors_per_request", 0.0),
                           idx == "uniform" ? " (coalesced)" : idx == "per-thread" ? " (not coalesced)" : "");
      }
    }
  }
  if (out.empty()) return out;
  return fmt::format("\n== registers, local memory and occupancy ({}; occupancy on {})\n", any_ptxas ? "ptxas -v" : "no ptxas: registers unknown",
                     report.value("arch", "?")) +
         fmt::format("   {:<40} {:>5} {:>6} {:>11} {:>6} {:<10}\n", "kernel", "regs", "stack", "spill st/ld", "occup",
                     "limited by") +
         out;
}

/// compute-sanitizer's "ERROR SUMMARY" for the accesses outside every allocation that proceeded
/// (launches[].memcheck), with the first of the first few instructions; "" when there were none.
std::string memcheck_summary(const nlohmann::json& launches) {
  std::uint64_t errors = 0, with = 0;
  std::vector<std::string> firsts;
  std::size_t instructions = 0;
  for (const auto& l : launches) {
    if (!l.contains("memcheck") || !l["memcheck"].is_object()) continue;
    const auto& m = l["memcheck"];
    const std::uint64_t n = m.value("errors", std::uint64_t{0});
    if (n == 0) continue;
    errors += n;
    ++with;
    for (const auto& f : m.value("first", nlohmann::json::array())) {
      ++instructions;
      if (firsts.size() < 5) {
        firsts.push_back(fmt::format("     launch {}: {} ({} lane access{})\n", l.value("index", 0), f.value("message", ""),
                                     f.value("count", std::uint64_t{0}), f.value("count", std::uint64_t{0}) == 1 ? "" : "es"));
      }
    }
  }
  if (errors == 0) return "";
  std::string out = fmt::format("\n== memcheck: ERROR SUMMARY: {} error{} in {} launch{} (global accesses outside every "
                                "allocation that the GPU maps: they proceeded; --memcheck strict stops at the first)\n",
                                errors, errors == 1 ? "" : "s", with, with == 1 ? "" : "es");
  for (const std::string& f : firsts) out += f;
  if (instructions > firsts.size()) out += fmt::format("     ... {} more instructions in the JSON report\n", instructions - firsts.size());
  return out;
}

/// The report with only the launches that went through the memory model: `report` itself when
/// that is all of them (no copy), else a copy without the others, kept in `storage`.
const nlohmann::json& profiled_only(const nlohmann::json& report, nlohmann::json& storage) {
  const nlohmann::json& launches = array_member(report, "launches");
  if (std::all_of(launches.begin(), launches.end(), [](const auto& l) { return l.value("profiled", true); }))
    return report;
  storage = nlohmann::json::object();
  for (const auto& [key, value] : report.items())
    if (key != "launches") storage[key] = value;
  storage["launches"] = nlohmann::json::array();
  for (const auto& l : launches)
    if (l.value("profiled", true)) storage["launches"].push_back(l);
  return storage;
}

}  // namespace

std::string not_profiled_text(const nlohmann::json& report) {
  std::vector<std::pair<std::string, std::vector<std::uint64_t>>> by_reason;
  std::uint64_t total = 0, all = 0;
  for (const auto& l : report::array_member(report, "launches")) {
    ++all;
    if (l.value("profiled", true)) continue;
    const std::string why = l.value("not_profiled", "");
    auto it = std::find_if(by_reason.begin(), by_reason.end(), [&](const auto& p) { return p.first == why; });
    if (it == by_reason.end()) it = by_reason.insert(by_reason.end(), {why, {}});
    it->second.push_back(l.value("index", std::uint64_t{0}));
    ++total;
  }
  if (total == 0) return "";
  std::string out = fmt::format("   {} of {} launch{} not profiled (run without the memory model; \"profiled\": false "
                                "in the JSON):\n", total, all, all == 1 ? "" : "es");
  for (const auto& [why, indices] : by_reason) {
    std::string list;
    for (std::size_t i = 0; i < indices.size();) {
      std::size_t j = i;
      while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
      list += (list.empty() ? "" : ", ") + (j == i ? fmt::format("{}", indices[i])
                                                   : fmt::format("{}-{}", indices[i], indices[j]));
      i = j + 1;
    }
    out += fmt::format("     #{}: {}\n", list, why);
  }
  return out;
}

std::string text_report(const nlohmann::json& full_report, const TextOptions& options) {
  // Launches the filter left out (-k/-s/-c, "profiled": false) are listed, not tabled.
  nlohmann::json storage;
  const nlohmann::json& report = profiled_only(full_report, storage);
  std::string out = launch_table(report, options.all_launches);
  out += processes_text(full_report);
  out += not_profiled_text(full_report);
  const auto& launches = report::array_member(report, "launches");
  std::uint64_t sampled = 0;
  for (const auto& l : launches)
    if (l.contains("sampling") && l["sampling"].is_object()) ++sampled;
  if (sampled > 0)
    out += fmt::format("   {} launch{} sampled (--sample-ctas): memory counters come from a fraction of the CTAs, "
                       "scaled up, and are estimates\n",
                       sampled, sampled == 1 ? "" : "es");
  if (!launches.empty() && report.value("memory_model", false)) {
    out += time_table(report);
    out += compare_table(report);
    out += resources_table(report);
    out += worst_lines(report, options.worst_lines);
    out += advice_list(report, options.advice);
  }
  out += memcheck_summary(report::array_member(full_report, "launches"));
  out += incomplete_text(full_report);
  if (report.contains("sticky_error")) {
    out += fmt::format("   sticky error: {}\n", report["sticky_error"].value("message", ""));
  }
  out += event_time_note(full_report);
  return out;
}

}  // namespace warpscope::report
