// `warpscope run -k/--kernel-name, --kernel-name-base, -s/--launch-skip, -c/--launch-count`
// reach the runtime as WARPSCOPE_KERNEL_NAME, WARPSCOPE_KERNEL_NAME_BASE, WARPSCOPE_LAUNCH_SKIP
// and WARPSCOPE_LAUNCH_COUNT. Launches the filter does not select run as under --no-stats (the
// interpreter without the memory model) and are marked "profiled": false in the report.
#pragma once

#include <optional>

#include <nlohmann/json.hpp>

#include "common/kernel_filter.hpp"

namespace warpscope::profiling {

/// The filter the environment asks for, or nullopt when it asks for none. A value that cannot
/// be used is reported on stderr and that option is ignored (`warpscope run` checks them before
/// starting the program, so this only happens when the variables are set by hand).
std::optional<KernelFilter> launch_filter_from_environment();

/// The report's "launch_filter" object (docs/report.md).
nlohmann::json launch_filter_json(const KernelFilterOptions& options);

}  // namespace warpscope::profiling
