// A run that a signal or --timeout ends, and launches that did not end (docs/runtime.md,
// "Stopping, hangs, progress"; the JSON keys are in docs/report.md).
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "profile/monitor.hpp"
#include "profile/profile.hpp"

namespace warpscope::profiling {
namespace {

const char* state_name(WarpPlace::State s) {
  switch (s) {
    case WarpPlace::State::kRunning: return "running";
    case WarpPlace::State::kSpinning: return "spinning";
    case WarpPlace::State::kBarrier: return "barrier";
    case WarpPlace::State::kWarpSync: return "warp_sync";
  }
  return "running";
}

}  // namespace

nlohmann::json incomplete_json(const LaunchStop& stop, const std::vector<InstructionInfo>& code,
                               const std::string& message) {
  nlohmann::json j;
  const Monitor& monitor = Monitor::get();
  if (stop.reason == LaunchStop::Reason::kHang) {
    j["reason"] = "hang";
  } else if (stop.code == Monitor::kStopTimeout) {
    j["reason"] = "timeout";
    j["timeout_s"] = monitor.timeout_seconds();
  } else {
    j["reason"] = "signal";
    j["signal"] = Monitor::signal_name(stop.code);
  }
  j["elapsed_s"] = monitor.launch_seconds();
  j["ctas_done"] = stop.ctas_done;
  j["ctas_total"] = stop.ctas_total;
  nlohmann::json places = nlohmann::json::array();
  for (const WarpPlace& p : stop.places) {
    nlohmann::json o = {{"state", state_name(p.state)}, {"warps", p.warps},       {"ctas", p.ctas},
                        {"first_cta", p.first_cta},     {"pc", p.pc},             {"file", ""},
                        {"line", 0},                    {"ptx", ""},              {"loop", nullptr}};
    if (p.pc < code.size()) {
      const InstructionInfo& at = code[p.pc];
      o["file"] = at.file;
      o["line"] = at.line;
      o["ptx"] = at.text;
      if (p.loop_first >= 0 && static_cast<std::size_t>(p.loop_last) < code.size()) {
        // The loop's lines: those of its instructions in the file of the place's own line.
        std::uint32_t lo = at.line, hi = at.line;
        for (auto pc = static_cast<std::size_t>(p.loop_first); pc <= static_cast<std::size_t>(p.loop_last); ++pc) {
          if (code[pc].file != at.file || code[pc].line == 0) continue;
          lo = std::min(lo, code[pc].line);
          hi = std::max(hi, code[pc].line);
        }
        o["loop"] = {{"first_pc", p.loop_first}, {"last_pc", p.loop_last}, {"file", at.file},
                     {"first_line", lo}, {"last_line", hi}};
      }
    }
    places.push_back(std::move(o));
  }
  j["places"] = std::move(places);
  j["message"] = message;
  return j;
}

nlohmann::json stopped_json(int stop_code, const std::vector<LaunchRecord>& launches) {
  const bool timeout = stop_code == Monitor::kStopTimeout;
  const int exit_code = timeout ? 124 : 128 + stop_code;
  nlohmann::json stopped = {{"reason", timeout ? "timeout" : "signal"}, {"exit_code", exit_code}, {"launch", nullptr}};
  if (timeout) {
    stopped["timeout_s"] = Monitor::get().timeout_seconds();
  } else {
    stopped["signal"] = Monitor::signal_name(stop_code);
  }
  if (!launches.empty() && !launches.back().incomplete.is_null() &&
      launches.back().incomplete.value("reason", "") != "hang") {
    stopped["launch"] = launches.size() - 1;
  }
  return stopped;
}

void end_stopped_run(int stop_code) {
  const bool timeout = stop_code == Monitor::kStopTimeout;
  const int exit_code = timeout ? 124 : 128 + stop_code;
  std::cout.flush();
  std::fflush(nullptr);
  if (!timeout) {
    // End as the signal would have: a shell (and `warpscope run`) sees the process killed by it.
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(stop_code, &dfl, nullptr);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, stop_code);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    raise(stop_code);
  }
  _exit(exit_code);
}

}  // namespace warpscope::profiling
