#include "report/metric_eval.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>

#include <fmt/format.h>

namespace warpscope::report {
namespace {

/// A counter the model does not list itself: the sum of others (.sum names, each with a sign).
/// `unknown_if` names counters the model has but the aggregate's definition on the GPU does not
/// settle (L2 hits of atomics and reductions, which the model does not classify): a launch with
/// any of them has no value for the aggregate.
struct Aggregate {
  std::vector<std::pair<std::string, int>> parts;
  std::vector<std::string> unknown_if;
  std::string description;
};

/// A ratio: numerator and denominator counters (bases, without .sum), and the unit of .ratio.
struct Ratio {
  std::string numerator, denominator, ratio_unit, description;
};

const std::string kLts = "lts__t_sectors_srcunit_tex_op_";

std::vector<std::pair<std::string, int>> plus(std::initializer_list<std::string> names) {
  std::vector<std::pair<std::string, int>> out;
  for (const auto& n : names) out.emplace_back(n, 1);
  return out;
}

/// The L1TEX pipes and ops the model counts, as the suffixes after l1tex__t_{sectors,requests}_.
const std::vector<std::string>& l1tex_pipes() {
  static const std::vector<std::string> p = {
      "pipe_lsu_mem_global_op_ld", "pipe_lsu_mem_global_op_st",  "pipe_lsu_mem_global_op_atom",
      "pipe_lsu_mem_global_op_red", "pipe_lsu_mem_local_op_ld",  "pipe_lsu_mem_local_op_st",
      "pipe_lsu_mem_global_op_ldgsts_cache_access", "pipe_tex_mem_texture", "pipe_tex_mem_surface_op_ld",
      "pipe_tex_mem_surface_op_st", "pipe_tex_mem_surface_op_red"};
  return p;
}

const std::map<std::string, Aggregate>& aggregates() {
  static const std::map<std::string, Aggregate> a = [] {
    std::map<std::string, Aggregate> m;
    const auto tex_all = plus({kLts + "read.sum", kLts + "write.sum", kLts + "atom.sum", kLts + "red.sum"});
    const auto tex_hits = plus({kLts + "read_lookup_hit.sum", kLts + "write_lookup_hit.sum"});
    const std::vector<std::string> l2_unclassified = {kLts + "atom.sum", kLts + "red.sum"};
    const std::string l2_note =
        " (the model's L2 sees the L1/TEX unit's requests only: on an H100/H200 lts__t_sectors also counts "
        "traffic between the two L2 partitions; lts__t_sectors_srcunit_tex is the comparable count)";
    m["lts__t_sectors_srcunit_tex"] = {tex_all, {}, "L2 sectors accessed by the L1/TEX unit (all ops)"};
    m["lts__t_sectors"] = {tex_all, {}, "L2 sectors accessed" + l2_note};
    for (const char* op : {"read", "write", "atom", "red"})
      m[fmt::format("lts__t_sectors_op_{}", op)] = {plus({kLts + op + ".sum"}), {},
                                                    fmt::format("L2 sectors accessed by {} operations", op) + l2_note};
    auto misses = [&](const std::vector<std::pair<std::string, int>>& all) {
      auto out = all;
      for (const auto& [n, s] : tex_hits) out.emplace_back(n, -s);
      return out;
    };
    m["lts__t_sectors_srcunit_tex_lookup_hit"] = {tex_hits, l2_unclassified, "L2 sector hits of L1/TEX requests"};
    m["lts__t_sectors_lookup_hit"] = {tex_hits, l2_unclassified, "L2 sector hits" + l2_note};
    m["lts__t_sectors_srcunit_tex_lookup_miss"] = {misses(tex_all), l2_unclassified, "L2 sector misses of L1/TEX requests"};
    m["lts__t_sectors_lookup_miss"] = {misses(tex_all), l2_unclassified, "L2 sector misses" + l2_note};
    for (const char* op : {"read", "write"})
      m[kLts + op + "_lookup_miss"] = {{{kLts + op + ".sum", 1}, {kLts + op + "_lookup_hit.sum", -1}}, {},
                                       fmt::format("L2 sector misses of L1/TEX {}s", op)};
    // L1TEX totals over the pipes the model counts.
    Aggregate sectors, requests, hits;
    for (const auto& p : l1tex_pipes()) {
      sectors.parts.emplace_back("l1tex__t_sectors_" + p + ".sum", 1);
      requests.parts.emplace_back("l1tex__t_requests_" + p + ".sum", 1);
      hits.parts.emplace_back("l1tex__t_sectors_" + p + "_lookup_hit.sum", 1);
    }
    for (const char* op : {"ld", "st", "atom"}) {
      // Distributed shared memory goes through the L1TEX's t-stage too; the model's dshared
      // counters are not split into the GPU's sector classes.
      sectors.unknown_if.push_back(fmt::format("l1tex__t_sectors_pipe_lsu_mem_dshared_op_{}.sum", op));
      requests.unknown_if.push_back(fmt::format("l1tex__t_requests_pipe_lsu_mem_dshared_op_{}.sum", op));
    }
    hits.unknown_if = sectors.unknown_if;
    sectors.description = "L1/TEX sectors accessed (global, local, LDGSTS, texture and surface)";
    requests.description = "L1/TEX requests (global, local, LDGSTS, texture and surface)";
    hits.description = "L1/TEX sector hits";
    Aggregate miss = sectors;
    for (const auto& [n, s] : hits.parts) miss.parts.emplace_back(n, -s);
    miss.description = "L1/TEX sector misses";
    m["l1tex__t_sectors"] = sectors;
    m["l1tex__t_requests"] = requests;
    m["l1tex__t_sectors_lookup_hit"] = hits;
    m["l1tex__t_sectors_lookup_miss"] = miss;
    for (const char* kind : {"sectors", "requests"}) {
      Aggregate g;
      for (const char* op : {"ld", "st", "atom", "red"})
        g.parts.emplace_back(fmt::format("l1tex__t_{}_pipe_lsu_mem_global_op_{}.sum", kind, op), 1);
      g.description = fmt::format("L1/TEX {} of global loads, stores, atomics and reductions", kind);
      m[fmt::format("l1tex__t_{}_pipe_lsu_mem_global", kind)] = g;
    }
    for (const char* space : {"global", "local"})
      for (const char* op : {"ld", "st", "atom", "red"}) {
        if (std::string(space) == "local" && (std::string(op) == "atom" || std::string(op) == "red")) continue;
        const std::string b = fmt::format("l1tex__t_sectors_pipe_lsu_mem_{}_op_{}", space, op);
        m[b + "_lookup_miss"] = {{{b + ".sum", 1}, {b + "_lookup_hit.sum", -1}}, {},
                                 fmt::format("L1/TEX sector misses of {} {}", space, op)};
      }
    m["l1tex__data_pipe_lsu_wavefronts_mem_shared"] = {
        plus({"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"}),
        {},
        "shared-memory wavefronts (loads, stores, atomics)"};
    m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared"] = {
        plus({"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"}),
        {},
        "shared-memory bank conflicts (loads, stores, atomics)"};
    m["dram__bytes"] = {plus({"dram__bytes_read.sum", "dram__bytes_write.sum"}), {}, "DRAM bytes read and written"};
    return m;
  }();
  return a;
}

const std::map<std::string, Ratio>& ratios() {
  static const std::map<std::string, Ratio> r = [] {
    std::map<std::string, Ratio> m;
    m["lts__t_sector_hit_rate"] = {"lts__t_sectors_lookup_hit", "lts__t_sectors", "",
                                   "L2 sector hit rate (all L1/TEX requests)"};
    for (const char* op : {"read", "write"})
      m[fmt::format("lts__t_sector_op_{}_hit_rate", op)] = {kLts + op + "_lookup_hit", kLts + op, "",
                                                            fmt::format("L2 sector hit rate of {}s", op)};
    m["l1tex__t_sector_hit_rate"] = {"l1tex__t_sectors_lookup_hit", "l1tex__t_sectors", "", "L1/TEX sector hit rate"};
    for (const char* op : {"ld", "st", "atom", "red"}) {
      const std::string b = fmt::format("l1tex__t_sectors_pipe_lsu_mem_global_op_{}", op);
      m[fmt::format("l1tex__t_sector_pipe_lsu_mem_global_op_{}_hit_rate", op)] = {
          b + "_lookup_hit", b, "", fmt::format("L1/TEX sector hit rate of global {}", op)};
      m[fmt::format("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_{}", op)] = {
          b, fmt::format("l1tex__t_requests_pipe_lsu_mem_global_op_{}", op), "sector",
          fmt::format("sectors per request of global {}", op)};
    }
    m["smsp__thread_inst_executed_per_inst_executed"] = {"smsp__thread_inst_executed", "smsp__inst_executed", "",
                                                         "threads active per warp instruction executed"};
    return m;
  }();
  return r;
}

/// The time model's throughputs, as the launch lists them (docs/report.md "time").
const std::vector<std::string>& throughputs() {
  static const std::vector<std::string> t = {
      "sm__throughput.avg.pct_of_peak_sustained_elapsed", "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
      "l1tex__throughput.avg.pct_of_peak_sustained_active", "lts__throughput.avg.pct_of_peak_sustained_elapsed",
      "dram__throughput.avg.pct_of_peak_sustained_elapsed", "sm__warps_active.avg.pct_of_peak_sustained_active"};
  return t;
}

struct Parsed {
  std::string base;       // before the first '.'
  std::string rollup;     // sum avg min max, or pct ratio for a ratio; empty: none
  std::string submetric;  // per_second, pct_of_peak_sustained_elapsed, ...; empty: none
};

Parsed parse(const std::string& name) {
  Parsed p;
  const std::size_t d1 = name.find('.');
  p.base = name.substr(0, d1);
  if (d1 == std::string::npos) return p;
  const std::size_t d2 = name.find('.', d1 + 1);
  p.rollup = name.substr(d1 + 1, d2 == std::string::npos ? std::string::npos : d2 - d1 - 1);
  if (d2 != std::string::npos) p.submetric = name.substr(d2 + 1);
  return p;
}

/// The counters whose .min/.max over SMs the model gives (stats::unit_extremes_json): the L1's
/// global and local requests, sectors and hits, and the shared wavefronts.
bool per_sm_base(const std::string& base) {
  static const std::regex re(
      "^(l1tex__t_(requests|sectors)_pipe_lsu_mem_(global_op_(ld|st|atom|red)|local_op_(ld|st))(_lookup_hit)?|"
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_(ld|st|atom))$");
  return std::regex_match(base, re);
}

bool is_rollup(const std::string& r) { return r == "sum" || r == "avg" || r == "min" || r == "max"; }

/// The units a family's rollup runs over (0: unknown).
unsigned unit_count(const std::string& base, const MetricUnits& u) {
  if (base.rfind("gpu__", 0) == 0) return 1;
  if (base.rfind("smsp__", 0) == 0) return u.smsp;
  if (base.rfind("sm__", 0) == 0 || base.rfind("l1tex__", 0) == 0) return u.sm;
  if (base.rfind("lts__", 0) == 0) return u.lts;
  if (base.rfind("dram__", 0) == 0) return u.dram;
  return 0;
}

const char* unit_name(const std::string& base) {
  if (base.rfind("smsp__", 0) == 0) return "SM sub-partitions";
  if (base.rfind("sm__", 0) == 0) return "SMs";
  if (base.rfind("l1tex__", 0) == 0) return "L1/TEX units (one per SM)";
  if (base.rfind("lts__", 0) == 0) return "L2 slices";
  if (base.rfind("dram__", 0) == 0) return "DRAM units";
  return "units";
}

bool is_counter(const std::string& base, const std::vector<std::string>& known) {
  return aggregates().count(base) != 0 || base == "gpu__time_duration" ||
         std::binary_search(known.begin(), known.end(), base + ".sum");
}

std::optional<double> base_sum(const nlohmann::json& launch, const std::string& base,
                               bool (*absent_zero)(const std::string&)) {
  const auto mit = launch.find("metrics");
  static const nlohmann::json kNone = nlohmann::json::object();
  const nlohmann::json& metrics = mit != launch.end() && mit->is_object() ? *mit : kNone;
  auto own = [&](const std::string& n) -> std::optional<double> {
    if (auto it = metrics.find(n); it != metrics.end() && it->is_number()) return it->get<double>();
    if (absent_zero != nullptr && absent_zero(n)) return 0.0;
    return std::nullopt;
  };
  const auto a = aggregates().find(base);
  if (a == aggregates().end()) return own(base + ".sum");
  for (const auto& n : a->second.unknown_if)
    if (auto v = own(n); v && *v != 0) return std::nullopt;
  double sum = 0;
  for (const auto& [n, sign] : a->second.parts) {
    // A part the launch lists only when such instructions ran (absent_zero) counts 0; a
    // part missing otherwise leaves the aggregate unknown.
    const auto v = own(n);
    if (!v) return std::nullopt;
    sum += sign * *v;
  }
  return sum;
}

std::optional<double> duration_seconds(const nlohmann::json& launch) {
  const auto mit = launch.find("metrics");
  if (mit == launch.end() || !mit->is_object()) return std::nullopt;
  const auto it = mit->find("gpu__time_duration.sum");
  if (it == mit->end() || !it->is_number() || it->get<double>() <= 0) return std::nullopt;
  return it->get<double>() * 1e-9;
}

/// A plain description of one of the model's own counters, read from its name's parts (ncu's
/// naming: unit__quantity_pipe_..._mem_<space>_op_<op>).
std::string counter_description(const std::string& base) {
  struct Part {
    const char* key;
    const char* words;
  };
  static const Part kWhat[] = {{"l1tex__t_requests", "L1/TEX requests"},
                               {"l1tex__t_output_wavefronts", "L1/TEX output wavefronts"},
                               {"l1tex__lsuin_requests", "requests into the L1/TEX from the LSU"},
                               {"l1tex__tmain_requests", "TMA unit requests"},
                               {"sm__inst_executed_pipe_tensor", "warp instructions on the tensor pipe"},
                               {"sm__maximum_warps_per_active_cycle_pct", "theoretical occupancy (occupancy calculator)"},
                               {"sm__sass_data_bytes", "bytes moved by machine-code instructions"},
                               {"sm__sass_l1tex_data_bank_conflicts", "shared-memory bank conflicts (machine code)"},
                               {"sm__sass_l1tex_data_pipe_lsu_wavefronts", "shared-memory wavefronts (machine code)"},
                               {"smsp__sass_l1tex_data_bank_conflicts", "shared-memory bank conflicts (machine code)"},
                               {"smsp__sass_l1tex_data_pipe_lsu_wavefronts", "shared-memory wavefronts (machine code)"},
                               {"smsp__sass_l1tex_t_requests", "L1/TEX requests (machine code)"},
                               {"smsp__sass_l1tex_t_sectors", "L1/TEX sectors (machine code)"},
                               {"l1tex__t_sectors", "L1/TEX sectors"},
                               {"l1tex__data_pipe_lsu_wavefronts", "shared-memory wavefronts"},
                               {"l1tex__data_bank_conflicts", "shared-memory bank conflicts"},
                               {"lts__t_sectors", "L2 sectors"},
                               {"dram__bytes_read", "DRAM bytes read"},
                               {"dram__bytes_write", "DRAM bytes written"},
                               {"smsp__sass_inst_executed", "warp instructions executed (machine code)"},
                               {"smsp__thread_inst_executed", "thread instructions executed"},
                               {"smsp__inst_executed", "warp instructions executed"},
                               {"sm__sass_inst_executed", "warp instructions executed (machine code)"},
                               {"l1tex__m_xbar2l1tex_read", "bytes or sectors from L2 into L1/TEX"},
                               {"l1tex__m_l1tex2xbar_write", "bytes or sectors from L1/TEX to L2"},
                               {"launch__", "a fact of the launch"}};
  std::string what;
  for (const auto& w : kWhat)
    if (base.rfind(w.key, 0) == 0) {
      what = w.words;
      break;
    }
  if (what.empty()) return base.find("__") == std::string::npos ? "warpscope's own figure (docs/report.md)" : "";
  static const Part kSpace[] = {{"mem_global", "global"}, {"mem_local", "local"},     {"mem_shared", "shared"},
                                {"mem_dshared", "distributed shared"}, {"mem_texture", "texture"},
                                {"mem_surface", "surface"}, {"srcunit_tex", "from L1/TEX"}};
  static const Part kOp[] = {{"op_ldgsts", "cp.async"}, {"op_ldsm", "ldmatrix"}, {"op_stsm", "stmatrix"}, {"op_ld", "loads"},   {"op_st", "stores"},  {"op_atom", "atomics"},
                             {"op_red", "reductions"},  {"op_read", "reads"}, {"op_write", "writes"},
                             {"op_tma", "TMA"},         {"op_gmma", "wgmma"}, {"op_texture", "texture"}};
  for (const auto& s : kSpace)
    if (base.find(s.key) != std::string::npos) {
      what += std::string(", ") + s.words;
      break;
    }
  for (const auto& o : kOp)
    if (base.find(o.key) != std::string::npos) {
      what += std::string(" ") + o.words;
      break;
    }
  if (base.find("lookup_hit") != std::string::npos) what += " that hit";
  if (base.find("lookup_miss") != std::string::npos) what += " that missed";
  return what;
}

}  // namespace

const std::vector<std::string>& derived_metrics() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& [b, _] : aggregates()) n.push_back(b + ".sum");
    for (const auto& [b, r] : ratios()) {
      n.push_back(b + ".pct");
      n.push_back(b + ".ratio");
    }
    for (const auto& t : throughputs()) n.push_back(t);
    n.push_back("gpu__time_duration.sum");
    std::sort(n.begin(), n.end());
    return n;
  }();
  return names;
}

std::string metric_description(const std::string& name) {
  const Parsed p = parse(name);
  if (auto a = aggregates().find(p.base); a != aggregates().end()) return a->second.description;
  if (auto r = ratios().find(p.base); r != ratios().end())
    return r->second.description + (p.rollup == "pct" ? " (percent)" : " (ratio)");
  if (name == "gpu__time_duration.sum") return "predicted duration of the launch (the time model, docs/time.md)";
  if (name.find("pct_of_peak") != std::string::npos) return "predicted throughput as a percentage of peak (the time model)";
  return counter_description(p.base);
}

std::optional<std::string> metric_refusal(const std::string& name, const std::vector<std::string>& known,
                                          const MetricUnits& units) {
  const Parsed p = parse(name);
  if (std::find(throughputs().begin(), throughputs().end(), name) != throughputs().end()) return std::nullopt;
  for (const auto& t : throughputs()) {
    const Parsed tp = parse(t);
    if (tp.base != p.base) continue;
    if (p.rollup == "sum" && p.submetric == tp.submetric) return std::nullopt;  // ncu: .sum equals .avg here
    return fmt::format("{}: the time model predicts {} (the GPU's average); ncu's .min and .max over its units are "
                       "not modelled", name, t);
  }
  if (ratios().count(p.base) != 0) {
    if ((p.rollup == "pct" || p.rollup == "ratio") && p.submetric.empty()) return std::nullopt;
    return fmt::format("{}: {} is a ratio; ask for {}.pct or {}.ratio", name, p.base, p.base, p.base);
  }
  if (!is_counter(p.base, known)) return std::string();  // not a name warpscope knows: the caller names the nearest
  if (!is_rollup(p.rollup))
    return fmt::format("{}: a counter takes the rollups .sum, .avg, .min or .max ({}.sum)", name, p.base);
  if (p.rollup == "min" || p.rollup == "max") {
    if (unit_count(p.base, units) == 1 || per_sm_base(p.base)) return std::nullopt;
    return fmt::format("{}: ncu's .{} is over the GPU's {}; the model counts this for the whole GPU, not each unit "
                       "(ask for {}.sum, or {}.avg: the sum over the units; per SM it has the L1's global and local "
                       "requests, sectors and hits and the shared wavefronts)",
                       name, p.rollup, unit_name(p.base), p.base, p.base);
  }
  if (p.rollup == "avg" && unit_count(p.base, units) == 0)
    return fmt::format("{}: the {} profile does not say over how many {} Nsight Compute averages (ask for {}.sum)",
                       name, units.gpu.empty() ? "chosen" : units.gpu, unit_name(p.base), p.base);
  if (p.submetric.empty() || p.submetric == "per_second") return std::nullopt;
  if (p.submetric == "pct_of_peak_sustained_elapsed") {
    if (p.base.rfind("dram__bytes", 0) == 0 && units.dram_bytes_per_second > 0) return std::nullopt;
    return fmt::format("{}: the model has no peak rate for {} (it has dram__bytes's, and the time model's "
                       "throughputs: sm__throughput, lts__throughput, dram__throughput, l1tex__throughput "
                       ".avg.pct_of_peak_sustained_*)", name, p.base);
  }
  return fmt::format("{}: the submetric .{} is not modelled (warpscope has .per_second, and "
                     ".pct_of_peak_sustained_elapsed of DRAM bytes)", name, p.submetric);
}

std::optional<double> metric_value(const nlohmann::json& launch, const std::string& name, const MetricUnits& units,
                                   bool (*absent_zero)(const std::string&)) {
  const Parsed p = parse(name);
  const auto mit = launch.find("metrics");
  if (mit != launch.end() && mit->is_object()) {
    if (auto it = mit->find(name); it != mit->end() && it->is_number()) return it->get<double>();
  }
  for (const auto& t : throughputs()) {
    const Parsed tp = parse(t);
    if (tp.base == p.base && p.rollup == "sum" && p.submetric == tp.submetric) return metric_value(launch, t, units, absent_zero);
  }
  if (auto r = ratios().find(p.base); r != ratios().end()) {
    const auto num = base_sum(launch, r->second.numerator, absent_zero);
    const auto den = base_sum(launch, r->second.denominator, absent_zero);
    if (!num || !den) return std::nullopt;
    const double v = *den == 0 ? 0.0 : *num / *den;
    return p.rollup == "pct" ? v * 100.0 : v;
  }
  const auto sum = base_sum(launch, p.base, absent_zero);
  if (!sum) return std::nullopt;
  double v = *sum;
  if (p.rollup == "avg") {
    const unsigned n = unit_count(p.base, units);
    if (n == 0) return std::nullopt;
    v /= n;
  } else if (p.rollup == "min" || p.rollup == "max") {
    if (unit_count(p.base, units) != 1) {
      // Over SMs, as the model places CTAs (the launch's unit_extremes).
      const auto ex = launch.find("unit_extremes");
      if (ex == launch.end() || !ex->is_object() || !ex->contains(p.base)) return std::nullopt;
      const auto& e = (*ex)[p.base];
      if (!e.contains(p.rollup) || !e[p.rollup].is_number()) return std::nullopt;
      v = e[p.rollup].get<double>();
    }
  }
  if (p.submetric == "per_second") {
    const auto s = duration_seconds(launch);
    if (!s) return std::nullopt;
    return v / *s;
  }
  if (p.submetric == "pct_of_peak_sustained_elapsed") {
    const auto s = duration_seconds(launch);
    if (!s || units.dram_bytes_per_second <= 0) return std::nullopt;
    return 100.0 * *sum / (units.dram_bytes_per_second * *s);
  }
  if (!p.submetric.empty()) return std::nullopt;
  return v;
}

std::optional<std::string> derived_unit(const std::string& name) {
  const Parsed p = parse(name);
  if (auto r = ratios().find(p.base); r != ratios().end()) return p.rollup == "pct" ? "%" : r->second.ratio_unit;
  if (p.base == "gpu__time_duration") return p.submetric.empty() ? std::optional<std::string>("ns") : std::nullopt;
  if (aggregates().count(p.base) == 0) return std::nullopt;
  const std::string u = p.base.rfind("dram__", 0) == 0 ? "byte" : p.base.rfind("lts__", 0) == 0 || p.base.find("_sectors") != std::string::npos ? "sector" : "";
  if (p.submetric == "per_second") return u + "/s";
  if (p.submetric.rfind("pct_of_peak", 0) == 0) return "%";
  return u;
}

std::pair<double, std::string> auto_scale(double value, const std::string& unit) {
  static const char* kPrefix[] = {"", "K", "M", "G", "T", "P"};
  if (!std::isfinite(value)) return {value, unit};
  auto scale_prefix = [&](const std::string& base, const std::string& tail) -> std::pair<double, std::string> {
    int i = 0;
    while (std::fabs(value) >= 1000.0 && i < 5) {
      value /= 1000.0;
      ++i;
    }
    return {value, std::string(kPrefix[i]) + base + tail};
  };
  if (unit == "byte") return scale_prefix("byte", "");
  if (unit.rfind("byte/", 0) == 0) return scale_prefix("byte", unit.substr(4));
  if (unit == "hz") return scale_prefix("hz", "");
  if (unit == "ns") {
    static const char* kTime[] = {"ns", "us", "ms", "s"};
    int i = 0;
    while (std::fabs(value) >= 1000.0 && i < 3) {
      value /= 1000.0;
      ++i;
    }
    return {value, kTime[i]};
  }
  if (unit.size() > 2 && unit.ends_with("/s")) {
    static const char* kPer[] = {"s", "ms", "us", "ns"};
    int i = 0;
    while (std::fabs(value) >= 1000.0 && i < 3) {
      value /= 1000.0;
      ++i;
    }
    return {value, unit.substr(0, unit.size() - 1) + kPer[i]};
  }
  return {value, unit};
}

}  // namespace warpscope::report
