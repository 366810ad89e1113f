// Running a grid: CTAs one after another on one host thread, or spread over several, with the
// records and printf text of each CTA delivered in CTA order either way.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <vector>

#include "common/access.hpp"
#include "exec/memory.hpp"
#include "exec/program.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::exec {

struct LaunchRequest {
  const KernelImage* kernel = nullptr;
  const GlobalMemory* global = nullptr;
  const ObjectTable* objects = nullptr;
  Dim3 grid, block;
  std::vector<std::uint8_t> params;  // laid out as the kernel's .param declarations say
  std::uint64_t dynamic_shared = 0;
  AccessSink* sink = nullptr;
  std::ostream* printf_output = nullptr;
  unsigned host_threads = 1;
  std::uint32_t launch_id = 0;
};

/// Runs the grid to completion. Throws warpscope::Error for the fault of the lowest-numbered
/// faulting CTA (output of the CTAs before it, and its own up to the fault, is delivered).
LaunchStats run_launch(const LaunchRequest& request);

}  // namespace warpscope::exec
