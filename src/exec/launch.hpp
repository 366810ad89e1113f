// Running a grid: CTAs one after another on one host thread, or spread over several, with the
// records and printf text of each CTA delivered in CTA order either way.
#pragma once

#include <atomic>
#include <cstdint>
#include <iosfwd>
#include <vector>

#include "common/access.hpp"
#include "exec/machine.hpp"
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
  bool memcheck_strict = false;  // MemcheckMode::kStrict
  SanitizeChecks sanitize;       // racecheck / synccheck (sanitize.hpp)
  std::uint64_t printf_fifo_bytes = 1 << 20;  // cudaLimitPrintfFifoSize
  // Cooperative launch: CTAs interleaved on one host thread until each blocks (coop.cpp), and the
  // grid workspace (this_grid()'s barrier word at +4) in %envreg1:%envreg2.
  bool cooperative = false;
  std::uint64_t grid_workspace = 0;
  // Thread-block clusters (cluster.cpp): CTAs of a cluster take turns on one host thread.
  Dim3 cluster{};
  bool explicit_cluster = false;
  DeviceHeap* heap = nullptr;  // required when the kernel uses_heap
  const std::atomic<int>* stop = nullptr;  // LaunchOptions::stop
  LaunchProgress* progress = nullptr;      // LaunchOptions::progress
  std::uint32_t sink_cta_every = 1;        // LaunchOptions::sink_cta_every
  std::vector<SanitizerFinding>* sanitizer_findings = nullptr;  // LaunchOptions::sanitizer_findings
  InitShadow* init = nullptr;  // initcheck (initcheck.hpp); null: off
};

/// Runs the grid to completion. Throws warpscope::Error for the fault of the lowest-numbered
/// faulting CTA (output of the CTAs before it, and its own up to the fault, is delivered); the
/// CTAs after it stop at their next check (stop.cpp). LaunchStopped when the launch is stopped
/// (LaunchRequest::stop) or a CTA hangs (docs/exec.md, "Stopping a launch").
/// Kernels that use the device heap run on one host thread, CTA after CTA (heap.hpp).
LaunchStats run_launch(const LaunchRequest& request);

/// The clusters of a grid (cluster.cpp): `size` CTAs each, `count` of them, numbered as
/// %clusterid is linearized (x fastest); members(k) lists cluster k's linear CTA indices by rank.
struct ClusterShape {
  ClusterShape(Dim3 grid, Dim3 cluster);
  Dim3 grid, cluster, clusters;
  std::uint64_t size = 1, count = 1;
  std::vector<std::uint32_t> members(std::uint64_t k) const;
};

/// A cooperative launch (coop.cpp): every CTA is resident; they take turns on one host thread.
/// A cluster launch (LaunchRequest::cluster larger than one CTA) runs the same way one cluster
/// at a time: the CTAs of a cluster take turns until all of them finish.
/// Throws for a fault (every CTA's output so far is delivered) or a grid-wide deadlock.
LaunchStats run_cooperative(const LaunchRequest& request, const LaunchConfig& config);

}  // namespace warpscope::exec
