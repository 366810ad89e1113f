// Nsight Compute's metric names in all their forms (its "Metrics Structure"), evaluated from a
// launch of the report's JSON (docs/report.md "Metrics by name"):
//  - counters: BASE.sum, .avg (the sum over the profile's units: 132 SMs, 528 SMSPs, 80 L2 slices
//    on the H100, ...), .min/.max only where the model has one unit (gpu__), and the
//    submetrics .per_second (over the predicted gpu__time_duration) and, for DRAM bytes,
//    .pct_of_peak_sustained_elapsed (over the profile's DRAM bandwidth);
//  - counters the model does not list itself but sums from those it does: lts__t_sectors,
//    l1tex__t_sectors, dram__bytes, their _lookup_hit/_lookup_miss, ... (aggregates below);
//  - ratios: BASE.pct / BASE.ratio (lts__t_sector_hit_rate, l1tex__t_sector_hit_rate,
//    l1tex__average_t_sectors_per_request_..., smsp__thread_inst_executed_per_inst_executed);
//  - the time model's throughputs (sm__throughput.avg.pct_of_peak_sustained_elapsed, ...).
// A name outside these forms is refused with the reason, never given a guessed value.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace warpscope::report {

/// The hardware units a rollup runs over, and the peaks a pct_of_peak needs (0: unknown).
struct MetricUnits {
  unsigned sm = 0;                  // sm__, l1tex__: one per SM
  unsigned smsp = 0;                // smsp__
  unsigned lts = 0;                 // lts__: L2 slices
  unsigned dram = 0;                // dram__
  double dram_bytes_per_second = 0; // the profile's DRAM bandwidth
  double sm_clock_hz = 0;           // the profile's SM clock (the time model's)
  std::string gpu;                  // for messages: the profile's GPU
};

/// The canonical names of the derived metrics (aggregates as .sum, ratios as .pct and .ratio),
/// for --query-metrics and regex: selection.
const std::vector<std::string>& derived_metrics();

/// One line describing a metric warpscope can report (its --query-metrics description).
std::string metric_description(const std::string& name);

/// Why `name` cannot be reported (nullopt: it can). `known` holds the names launches list
/// themselves (known_metrics()).
std::optional<std::string> metric_refusal(const std::string& name, const std::vector<std::string>& known,
                                          const MetricUnits& units);

/// The value of `name` for one launch; nullopt when the launch lacks what it needs (printed n/a).
/// `absent_zero` says which of the launch's own metrics mean 0 when absent.
std::optional<double> metric_value(const nlohmann::json& launch, const std::string& name, const MetricUnits& units,
                                   bool (*absent_zero)(const std::string&));

/// The unit ncu prints for a derived form (nullopt: not a derived form; ask ncu_unit).
std::optional<std::string> derived_unit(const std::string& name);

/// ncu's unit scaling for text output (--print-units auto): bytes by 1000s (Kbyte, Mbyte, ...),
/// nanoseconds to us/ms/s, hz to Khz/Mhz/Ghz, a rate per second to per ms/us/ns. Returns the
/// scaled value and unit.
std::pair<double, std::string> auto_scale(double value, const std::string& unit);

}  // namespace warpscope::report
