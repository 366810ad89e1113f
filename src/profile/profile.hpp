// The profiler: what the CUDA fronts (src/runtime: libcudart's runtime API, and the driver API,
// whose launches go through the runtime's one Runtime::launch) call for each launch. Which
// launches are profiled (launch_selection.hpp: -k/-s/-c; nvtx.hpp: --nvtx-include/-exclude),
// watching a launch and stopping the run (monitor.hpp: signals, --timeout, the progress line;
// incomplete_json and the run's end below, stopping.cpp), the machine code's instruction counts
// (sass_metrics.hpp), the predicted time (launch_time.hpp) and the report (report_writer.hpp).
// Nothing here knows the runtime's state: the fronts pass in what a call needs.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profile/launch_fetch.hpp"
#include "profile/launch_selection.hpp"
#include "profile/launch_time.hpp"
#include "profile/monitor.hpp"
#include "profile/nvtx.hpp"
#include "profile/report_writer.hpp"
#include "profile/sass_metrics.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::profiling {

/// The report's "incomplete" object of a launch that did not end: why (hang, timeout, signal),
/// the CTAs done and where the warps were, at `code`'s lines (stopping.cpp).
nlohmann::json incomplete_json(const LaunchStop& stop, const std::vector<InstructionInfo>& code,
                               const std::string& message);
/// The report's "stopped" object of a run a signal or --timeout (`stop_code`, Monitor's stop
/// flag) ends; its "launch" names the last of `launches` when a signal or timeout cut it short.
nlohmann::json stopped_json(int stop_code, const std::vector<LaunchRecord>& launches);
/// Ends the process as the stop says, once the report is written: the signal again with its
/// default action (so that the process ends as by the signal), or exit code 124 for a timeout.
[[noreturn]] void end_stopped_run(int stop_code);

}  // namespace warpscope::profiling
