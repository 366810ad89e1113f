// Stopping a run and watching its launches (docs/runtime.md, "Stopping, hangs, progress"):
//
//  - SIGINT and SIGTERM: a handler (installed at start-up where the signal is not ignored) stores
//    the signal number in the stop flag that every launch polls (LaunchOptions::stop) and wakes
//    the watcher thread through a pipe; both are async-signal-safe. A running launch ends within
//    milliseconds and Runtime::launch finishes the run; when no launch runs, the watcher takes the
//    runtime's lock and finishes it (Runtime::finish_stopped: the report, then the signal again).
//  - WARPSCOPE_TIMEOUT (`warpscope run --timeout S`): the watcher stores kStopTimeout in the flag
//    when a launch has run S seconds.
//  - The progress line: on a terminal (stderr) and unless WARPSCOPE_QUIET, a launch that has run
//    two seconds shows `kernel: CTAs done/total, warp instructions per second, elapsed` on stderr,
//    redrawn twice a second and erased when the launch ends.
//
// One per process, never destroyed (the watcher thread runs until the process ends).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "warpscope/warpscope.hpp"

namespace warpscope::profiling {

class Monitor {
 public:
  /// The stop flag's value for a launch that ran longer than the timeout (signals store their
  /// number, 1..64).
  static constexpr int kStopTimeout = -1;

  static Monitor& get();

  /// Installs the signal handlers and starts the watcher (once). `on_signal` runs on the watcher
  /// thread when a signal arrives; it must end the process.
  void start(double timeout_seconds, bool progress_line, std::function<void(int)> on_signal);

  const std::atomic<int>* stop_flag() const { return &stop_; }
  /// 0 (run on), a signal number, or kStopTimeout.
  int stop_code() const { return stop_.load(std::memory_order_relaxed); }
  double timeout_seconds() const { return timeout_; }

  /// A launch of `kernel` (demangled) with `ctas` CTAs starts / has ended. `progress` must stay
  /// valid until launch_ends.
  void launch_begins(const std::string& kernel, std::uint64_t ctas, const LaunchProgress* progress);
  void launch_ends();
  /// Seconds since the running (or last) launch began.
  double launch_seconds() const;

  /// "SIGINT", "SIGTERM", or "signal N".
  static std::string signal_name(int sig);

 private:
  Monitor() = default;
  void watch();
  void tick();                 // with mu_ held
  void erase_line();           // with mu_ held

  std::atomic<int> stop_{0};
  double timeout_ = 0;
  bool progress_line_ = false;
  std::function<void(int)> on_signal_;
  bool started_ = false;

  mutable std::mutex mu_;  // what follows: the launch being watched
  bool active_ = false;
  std::string kernel_;
  std::uint64_t ctas_ = 0;
  const LaunchProgress* progress_ = nullptr;
  std::chrono::steady_clock::time_point begin_{}, shown_{};
  bool line_shown_ = false;
};

}  // namespace warpscope::profiling
