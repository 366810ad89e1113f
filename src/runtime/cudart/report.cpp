// The runtime's report (docs/runtime.md, "Processes and the report's life"): the profiler
// (src/profile/report_writer.hpp) writes the document and the launch stream; here the runtime
// hands it what only the runtime knows (the profiles, the sticky error, the sanitizer's API
// errors and leaks, whether this process is a forked child) and ends a stopped run.
#include <cstdio>
#include <cstdlib>

#include "runtime/cudart/runtime.hpp"

namespace warpscope::cudart {

void Runtime::configure_report() {
  // --target-processes application-only leaves a child process out: no report, no memory model.
  if (!report_.configure()) no_stats = true;
}

nlohmann::json Runtime::header_json() {
  return report_.header_json({profile(), compare_profiles(), !no_stats, event_time_wall,
                              launch_filter ? &*launch_filter : nullptr});
}

void Runtime::record_launch(LaunchRecord rec) {
  profiling::stamp_launch_end(rec);
  launches.push_back(std::move(rec));
  if (!forked_child()) {
    report_.stream_launch([this] { return header_json(); }, launches.back(), launches.size() - 1, gpu_ns,
                          unpredicted_launches);
  }
  // A launch after the report was written (from a static destructor or an atexit handler that
  // ran after warpscope's): the report is written again with it.
  if (report_written_) {
    report_written_ = false;
    write_report();
  }
}

void Runtime::write_report() {
  // A signal that cut a system call short may let main return (and the program exit): the run
  // still ends as stopped by it.
  if (const int stop = Monitor::get().stop_code(); stop != 0 && stopped_.is_null()) finish_stopped(stop);
  if (report_written_ || report_.path().empty() || forked_child()) return;
  report_written_ = true;
  note_leaks();  // the program's exit: what it still holds leaked (warpscope sanitize --leak-check full)
  nlohmann::json j = profiling::report_document(header_json(), launches, gpu_ns, unpredicted_launches);
  if (sticky != kSuccess) j["sticky_error"] = {{"code", error_name(sticky)}, {"message", sticky_message}};
  if (!stopped_.is_null()) j["stopped"] = stopped_;
  if (!sanitize_tool.empty()) j["sanitizer"] = sanitizer_json();
  report_.write(j);
}

void Runtime::finish_stopped(int stop_code) {
  stopped_ = profiling::stopped_json(stop_code, launches);
  write_report();
  profiling::end_stopped_run(stop_code);
}

}  // namespace warpscope::cudart
