// The launch's metrics grouped by the unit they count (global, local, shared, texture/surface,
// L2, DRAM, instructions, launch and occupancy, other), for the full metric table of a launch
// page and the rows of the comparison page. Grouping goes by Nsight Compute's naming
// (`..._mem_global_...`, `lts__...`, `dram__...`) and by warpscope's plain prefixes
// (`global_`, `local_`, `shared_`, `l2_`), so a metric added later lands in its unit without a
// list to update; one that matches no rule is "other".
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace warpscope::report {

struct MetricUnit {
  const char* key;    // "global", ... used in ids: metrics-<key>
  const char* title;  // "Global memory"
};

/// Every unit, in the order the pages list them.
const std::vector<MetricUnit>& metric_units();

/// The key of the unit `name` belongs to.
std::string metric_unit_of(const std::string& name);

/// The launch's full metric table: `<details id="all-metrics">` (closed), one
/// `<section class="metric-group" id="metrics-<unit>">` per unit that has metrics, each a
/// `<table class="metrics">` of its non-zero metrics in name order and its zero ones folded in a
/// nested `<details class="zeros">`; rows are `<tr class="metric" data-metric>` with an
/// `estimated` badge (row class `is-estimated`) for names in the launch's `estimated`.
std::string all_metrics_section(const nlohmann::json& launch);

}  // namespace warpscope::report
