// What one launch did to the memory system: an AccessSink that receives the interpreter's warp
// access records and counts them. When the memory model (src/mem) is built, every record goes
// through its Coalescer, shared-bank model and MemoryHierarchy (one fresh hierarchy per launch,
// as Nsight Compute flushes the caches before each kernel by default); otherwise only the
// instruction counts per space and operation are kept. Counter names follow Nsight Compute.
#pragma once

#include <memory>
#include <mutex>

#include <nlohmann/json.hpp>

#include "arch/profile.hpp"
#include "common/access.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::cudart {

class LaunchMetrics final : public AccessSink {
 public:
  explicit LaunchMetrics(const arch::Profile& profile);
  ~LaunchMetrics() override;
  LaunchMetrics(const LaunchMetrics&) = delete;
  LaunchMetrics& operator=(const LaunchMetrics&) = delete;

  void set_local_frame_bytes(std::uint64_t bytes);
  void on_access(const WarpAccess& access) override;
  /// The counters, plus the interpreter's instruction counts; derived ratios included.
  nlohmann::json finish(const LaunchStats& stats);
  /// Whether the memory model was available to this build.
  static bool has_memory_model();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::mutex mu_;
};

}  // namespace warpscope::cudart
