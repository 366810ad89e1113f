#include "exec/launch.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "exec/machine.hpp"

namespace warpscope::exec {

namespace {

/// Keeps a CTA's records until the CTAs before it have been delivered.
class BufferSink final : public AccessSink {
 public:
  void on_access(const WarpAccess& a) override { records.push_back(a); }
  std::vector<WarpAccess> records;
};

struct CtaOutput {
  BufferSink sink;
  std::string text;
  bool finished = false;
};

void add_counts(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i) into[i] += from[i];
}

}  // namespace

LaunchStats run_launch(const LaunchRequest& req) {
  LaunchConfig cfg;
  cfg.kernel = req.kernel;
  cfg.global = req.global;
  cfg.grid = req.grid;
  cfg.block = req.block;
  cfg.dynamic_shared = req.dynamic_shared;
  cfg.params = req.params;
  cfg.launch_id = req.launch_id;
  const std::uint64_t total = std::uint64_t(req.grid.x) * req.grid.y * req.grid.z;
  const unsigned threads = static_cast<unsigned>(std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(req.host_threads == 0 ? 1 : req.host_threads, total)));
  cfg.atomic_global = threads > 1;
  std::ostream& out = *req.printf_output;
  LaunchStats stats;

  if (threads == 1) {
    CtaRunner runner(cfg);
    std::string text;
    for (std::uint64_t c = 0; c < total; ++c) {
      text.clear();
      try {
        runner.run(static_cast<std::uint32_t>(c), req.sink, &text);
      } catch (...) {
        out << text;
        out.flush();
        throw;
      }
      out << text;
    }
    out.flush();
    stats.warp_instructions = runner.instructions();
    stats.thread_instructions = runner.thread_instructions();
    stats.pc_instructions = runner.pc_instructions();
    stats.pc_thread_instructions = runner.pc_thread_instructions();
    return stats;
  }

  // Several host threads: CTAs are taken in order; each one's output waits in `pending` until
  // every CTA before it has been delivered.
  std::mutex mu;
  std::condition_variable cv;
  std::map<std::uint64_t, std::unique_ptr<CtaOutput>> pending;
  std::uint64_t next = 0, delivered = 0;
  std::uint64_t stop_at = total;  // CTAs at or after the first fault are not started
  std::exception_ptr error;
  std::uint64_t error_cta = total;
  std::uint64_t insts = 0, tinsts = 0;
  const std::uint64_t window = std::uint64_t(threads) * 4;

  auto deliver = [&](std::unique_lock<std::mutex>&) {
    while (!(error && delivered > error_cta)) {
      auto it = pending.find(delivered);
      if (it == pending.end() || !it->second->finished) break;
      CtaOutput& o = *it->second;
      if (req.sink) for (const WarpAccess& a : o.sink.records) req.sink->on_access(a);
      out << o.text;
      pending.erase(it);
      ++delivered;
    }
  };

  auto worker = [&] {
    CtaRunner runner(cfg);
    for (;;) {
      std::uint64_t c;
      CtaOutput* o;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return next >= stop_at || next < delivered + window; });
        if (next >= stop_at) break;
        c = next++;
        auto slot = std::make_unique<CtaOutput>();
        o = slot.get();
        pending.emplace(c, std::move(slot));
      }
      std::exception_ptr failed;
      try {
        runner.run(static_cast<std::uint32_t>(c), req.sink ? &o->sink : nullptr, &o->text);
      } catch (...) {
        failed = std::current_exception();
      }
      std::unique_lock lock(mu);
      o->finished = true;
      if (failed && c < error_cta) {
        error = failed;
        error_cta = c;
        stop_at = std::min(stop_at, c + 1);
      }
      deliver(lock);
      cv.notify_all();
    }
    std::unique_lock lock(mu);
    insts += runner.instructions();
    tinsts += runner.thread_instructions();
    add_counts(stats.pc_instructions, runner.pc_instructions());
    add_counts(stats.pc_thread_instructions, runner.pc_thread_instructions());
  };

  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  {
    std::unique_lock lock(mu);
    deliver(lock);
  }
  out.flush();
  if (error) std::rethrow_exception(error);
  stats.warp_instructions = insts;
  stats.thread_instructions = tinsts;
  return stats;
}

}  // namespace warpscope::exec
