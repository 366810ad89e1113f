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

#include "common/error.hpp"
#include "exec/machine.hpp"
#include "exec/stop.hpp"

namespace warpscope::exec {
namespace {
/// What a shard may hold before a CTA that is next in order is merged as it runs.
constexpr std::size_t kPartialMergeBytes = 64u << 20;
}  // namespace


namespace {

/// Keeps a CTA's records until the CTAs before it have been delivered.
class BufferSink final : public AccessSink {
 public:
  void on_access(const WarpAccess& a) override { records.push_back(a); }
  std::vector<WarpAccess> records;
};

struct CtaOutput {
  BufferSink sink;                            // the records, for a sink that is not sharded
  std::unique_ptr<ShardedSink::CtaPart> part;  // or what a sharded sink's shard made of them
  PrintfText text;
  bool finished = false;
};

void add_counts(std::vector<std::uint64_t>& into, const std::vector<std::uint64_t>& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (std::size_t i = 0; i < from.size(); ++i) into[i] += from[i];
}

/// --racecheck-memory all left words unchecked (GlobalRaceChecker::kShadowLimitBytes): say so.
void note_race_shadow_limit(const GlobalRaceChecker* checker, const KernelImage& k, LaunchStats& stats) {
  if (checker == nullptr || !checker->truncated()) return;
  SanitizerFinding f;
  f.tool = "racecheck";
  f.kind = "incomplete";
  f.space = "global";
  f.warning = true;
  f.kernel = k.name;
  f.detail = "global-memory race checking stopped adding words after " +
             std::to_string(GlobalRaceChecker::kShadowLimitBytes >> 20) +
             " MiB of shadow state: accesses to words first touched later were not checked";
  stats.sanitizer.push_back(std::move(f));
}

}  // namespace

LaunchStats run_launch(const LaunchRequest& req) {
  LaunchConfig cfg;
  cfg.kernel = req.kernel;
  cfg.global = req.global;
  cfg.objects = req.objects;
  cfg.grid = req.grid;
  cfg.block = req.block;
  cfg.dynamic_shared = req.dynamic_shared;
  cfg.params = req.params;
  cfg.launch_id = req.launch_id;
  cfg.memcheck_strict = req.memcheck_strict;
  cfg.sanitize = req.sanitize;
  cfg.init = req.init;
  cfg.heap = req.heap;
  cfg.sink_cta_every = req.sink_cta_every == 0 ? 1 : req.sink_cta_every;
  if (req.kernel->uses_heap && req.heap == nullptr) fail(ErrorKind::kInternal, "launch of a kernel that uses malloc without a heap");
  LaunchShared shared;
  LaunchProgress own_progress;
  shared.stop = req.stop;
  shared.progress = req.progress != nullptr ? req.progress : &own_progress;
  cfg.shared = &shared;
  // --racecheck-memory all: one checker sees every CTA's global accesses, on one host thread.
  std::unique_ptr<GlobalRaceChecker> global_race;
  if (req.sanitize.racecheck_global) {
    global_race = std::make_unique<GlobalRaceChecker>(*req.kernel, *req.global, req.grid, req.block);
    shared.global_race = global_race.get();
  }
  cfg.cluster = req.cluster;
  cfg.explicit_cluster = req.explicit_cluster;
  const bool clustered = std::uint64_t(req.cluster.x) * req.cluster.y * req.cluster.z > 1;
  if (req.cooperative || clustered) {
    cfg.cooperative = req.cooperative;
    cfg.grid_workspace = req.grid_workspace;
    LaunchStats coop_stats = run_cooperative(req, cfg);
    note_race_shadow_limit(global_race.get(), *req.kernel, coop_stats);
    coop_stats.device_launches = std::move(shared.device_launches);
    return coop_stats;
  }
  const std::uint64_t total = std::uint64_t(req.grid.x) * req.grid.y * req.grid.z;
  // The device heap hands out blocks in the order malloc is called: one thread, CTA after CTA.
  // So do CTAs whose global atomics' outcome depends on their order (returned values, float
  // rounding): one thread, CTA order, the same result in every run (docs/exec.md, "Host threads").
  const unsigned wanted =
      req.host_threads == 0 || req.kernel->uses_heap || req.kernel->order_dependent_atomics ||
              req.sanitize.racecheck_global
          ? 1 : req.host_threads;
  const unsigned threads = static_cast<unsigned>(std::max<std::uint64_t>(1, std::min<std::uint64_t>(wanted, total)));
  cfg.atomic_global = threads > 1;
  std::ostream& out = *req.printf_output;
  PrintfFifo fifo;
  fifo.limit = req.printf_fifo_bytes;
  // A sharded sink does its work on the threads that run the CTAs; its parts are merged in CTA
  // order. The same protocol on one thread as on several, so the results are the same.
  auto* const sharded = dynamic_cast<ShardedSink*>(req.sink);
  LaunchStats stats;

  if (threads == 1) {
    CtaRunner runner(cfg);
    std::unique_ptr<ShardedSink::Shard> shard = sharded ? sharded->make_shard() : nullptr;
    AccessSink* const sink = shard ? shard.get() : req.sink;
    PrintfText text;
    std::uint64_t running = 0;
    // A long CTA's records reach the memory model as it runs: memory stays bounded.
    if (shard) {
      runner.set_check_hook([&] {
        if (shard->buffered_bytes() >= kPartialMergeBytes)
          sharded->merge(static_cast<std::uint32_t>(running), shard->take_partial());
      });
    }
    for (std::uint64_t c = 0; c < total; ++c) {
      running = c;
      text.clear();
      try {
        runner.run(static_cast<std::uint32_t>(c), sink, &text);
      } catch (const CtaStop& s) {
        if (shard) sharded->merge(static_cast<std::uint32_t>(c), shard->finish_cta());
        fifo.deliver(out, text);
        fifo.flush();
        runner.flush_progress();
        std::vector<WarpPlace> places;
        runner.add_places(static_cast<std::uint32_t>(c), places);
        LaunchStats partial;
        partial.warp_instructions = runner.instructions() + runner.running_instructions();
        partial.thread_instructions = runner.thread_instructions() + runner.running_thread_instructions();
        partial.pc_instructions = runner.pc_instructions();
        partial.pc_thread_instructions = runner.pc_thread_instructions();
        runner.memcheck().finish(partial);
        runner.sanitizer().finish(partial);
        throw_stopped(*req.kernel, s, req.grid, static_cast<std::uint32_t>(c), c, total, std::move(places),
                      std::move(partial));
      } catch (...) {
        if (shard) sharded->merge(static_cast<std::uint32_t>(c), shard->finish_cta());
        fifo.deliver(out, text);
        fifo.flush();
        if (req.sanitizer_findings != nullptr) {
          LaunchStats found;
          runner.sanitizer().finish(found);
          *req.sanitizer_findings = std::move(found.sanitizer);
        }
        throw;
      }
      if (shard) sharded->merge(static_cast<std::uint32_t>(c), shard->finish_cta());
      fifo.deliver(out, text);
      shared.progress->ctas_done.fetch_add(1, std::memory_order_relaxed);
    }
    runner.flush_progress();
    stats.printf_dropped = fifo.dropped;
    fifo.flush();
    stats.warp_instructions = runner.instructions();
    stats.thread_instructions = runner.thread_instructions();
    stats.clock_skew_sum = runner.clock_skew_sum();
    stats.clock_skew_max = runner.clock_skew_max();
    stats.cta_instructions_max = runner.cta_instructions_max();
    stats.pc_instructions = runner.pc_instructions();
    stats.pc_thread_instructions = runner.pc_thread_instructions();
    runner.memcheck().finish(stats);
    runner.sanitizer().finish(stats);
    if (req.sanitizer_findings != nullptr) *req.sanitizer_findings = stats.sanitizer;
    note_race_shadow_limit(global_race.get(), *req.kernel, stats);
    stats.device_launches = std::move(shared.device_launches);
    return stats;
  }

  // Several host threads: CTAs are taken in order, a chunk of consecutive CTAs at a time (many
  // small CTAs would otherwise spend more time handing work out than running it); each chunk's
  // output waits in `pending` until every chunk before it has been delivered. One thread at a
  // time delivers, outside the lock, so that the others go on running CTAs meanwhile.
  // At most 64 CTAs and 16384 threads a chunk: what a chunk buffers grows with its threads.
  const std::uint64_t cta_threads = std::uint64_t(req.block.x) * req.block.y * req.block.z;
  const std::uint64_t max_chunk = std::clamp<std::uint64_t>(16384 / std::max<std::uint64_t>(cta_threads, 1), 1, 64);
  const std::uint64_t chunk = std::clamp<std::uint64_t>(total / (std::uint64_t(threads) * 32), 1, max_chunk);
  const std::uint64_t units = (total + chunk - 1) / chunk;
  std::mutex mu;
  std::condition_variable cv;
  std::map<std::uint64_t, std::unique_ptr<CtaOutput>> pending;
  std::uint64_t next = 0, delivered = 0;  // chunks
  std::uint64_t stop_at = units;          // chunks after the first fault's are not started
  std::exception_ptr error;
  std::uint64_t error_unit = units;
  std::uint64_t insts = 0, tinsts = 0;
  MemcheckLog memcheck;
  SanitizerLog sanitizer;
  bool delivering = false;
  const std::uint64_t window = std::uint64_t(threads) * 4;
  // A launch that stops (CtaStop): where the warps of every stopped CTA were, what they ran, and
  // the CTAs that ran to their end.
  struct Stopped {
    std::uint64_t cta = 0;
    std::vector<WarpPlace> places;
  };
  std::vector<Stopped> stopped;
  std::uint64_t stopped_insts = 0, stopped_tinsts = 0, ctas_done = 0;

  auto fail_at = [&](std::uint64_t u, std::exception_ptr e) {  // with the lock held
    if (u < error_unit) {
      error = std::move(e);
      error_unit = u;
      stop_at = std::min(stop_at, u + 1);
      // The CTAs after the failing chunk are not delivered: they stop at their next check.
      shared.abort_above.store(std::min(total, (u + 1) * chunk) - 1, std::memory_order_relaxed);
    }
  };

  auto deliver = [&](std::unique_lock<std::mutex>& lock) {
    if (delivering) return;  // the thread delivering will find this chunk too
    delivering = true;
    while (!(error && delivered > error_unit)) {
      auto it = pending.find(delivered);
      if (it == pending.end() || !it->second->finished) break;
      std::unique_ptr<CtaOutput> o = std::move(it->second);
      pending.erase(it);
      const std::uint64_t u = delivered;
      lock.unlock();
      std::exception_ptr failed;
      try {
        if (o->part) {
          sharded->merge(static_cast<std::uint32_t>(u * chunk), std::move(o->part));
        } else if (req.sink) {
          for (const WarpAccess& a : o->sink.records) req.sink->on_access(a);
        }
        fifo.deliver(out, o->text);
      } catch (...) {
        failed = std::current_exception();
      }
      lock.lock();
      if (failed) fail_at(u, failed);
      ++delivered;
      shared.finished_below.store(std::min(total, delivered * chunk), std::memory_order_release);
      cv.notify_all();
    }
    delivering = false;
  };

  auto worker = [&] {
    CtaRunner runner(cfg);
    std::unique_ptr<ShardedSink::Shard> shard = sharded ? sharded->make_shard() : nullptr;
    std::uint64_t chunk_first = 0;
    // A long chunk that is next in order (every chunk before it delivered, so no merge runs
    // meanwhile) hands what it has to the memory model as it runs. A chunk behind another long
    // one waits for its turn (docs/exec.md, "Long CTAs").
    if (shard) {
      runner.set_check_hook([&] {
        if (shard->buffered_bytes() >= kPartialMergeBytes && runner.chunk_is_next())
          sharded->merge(static_cast<std::uint32_t>(chunk_first), shard->take_partial());
      });
    }
    for (;;) {
      std::uint64_t u;
      CtaOutput* o;
      {
        std::unique_lock lock(mu);
        cv.wait(lock, [&] { return next >= stop_at || next < delivered + window; });
        if (next >= stop_at) break;
        u = next++;
        auto slot = std::make_unique<CtaOutput>();
        o = slot.get();
        pending.emplace(u, std::move(slot));
      }
      std::exception_ptr failed;
      AccessSink* const sink = shard ? static_cast<AccessSink*>(shard.get()) : req.sink ? &o->sink : nullptr;
      // The chunk's CTAs in order, up to the first fault. A sharded sink's part covers the chunk.
      const std::uint64_t end = std::min(total, (u + 1) * chunk);
      runner.set_chunk_start(u * chunk);
      chunk_first = u * chunk;
      std::uint64_t finished = 0;
      for (std::uint64_t c = u * chunk; c < end && !failed; ++c) {
        try {
          runner.run(static_cast<std::uint32_t>(c), sink, &o->text);
          ++finished;
        } catch (const CtaStop& s) {
          failed = std::current_exception();
          if (s.kind != CtaStop::Kind::kAbort) {
            std::unique_lock lock(mu);
            stopped.push_back(Stopped{c, {}});
            runner.add_places(static_cast<std::uint32_t>(c), stopped.back().places);
            stopped_insts += runner.running_instructions();
            stopped_tinsts += runner.running_thread_instructions();
          }
        } catch (...) {
          failed = std::current_exception();
        }
      }
      if (shard) o->part = shard->finish_cta();
      runner.flush_progress();
      shared.progress->ctas_done.fetch_add(finished, std::memory_order_relaxed);
      std::unique_lock lock(mu);
      ctas_done += finished;
      o->finished = true;
      if (failed) fail_at(u, failed);
      deliver(lock);
      cv.notify_all();
    }
    std::unique_lock lock(mu);
    insts += runner.instructions();
    tinsts += runner.thread_instructions();
    stats.clock_skew_sum += runner.clock_skew_sum();
    stats.clock_skew_max = std::max(stats.clock_skew_max, runner.clock_skew_max());
    stats.cta_instructions_max = std::max(stats.cta_instructions_max, runner.cta_instructions_max());
    add_counts(stats.pc_instructions, runner.pc_instructions());
    add_counts(stats.pc_thread_instructions, runner.pc_thread_instructions());
    memcheck.merge(runner.memcheck());
    sanitizer.merge(runner.sanitizer());
  };

  std::vector<std::thread> pool;
  pool.reserve(threads);
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  {
    std::unique_lock lock(mu);
    deliver(lock);
  }
  stats.printf_dropped = fifo.dropped;
  fifo.flush();
  stats.warp_instructions = insts;
  stats.thread_instructions = tinsts;
  memcheck.finish(stats);
  sanitizer.finish(stats);
  if (req.sanitizer_findings != nullptr) *req.sanitizer_findings = stats.sanitizer;
  if (error) {
    try {
      std::rethrow_exception(error);
    } catch (const CtaStop& s) {
      stats.warp_instructions += stopped_insts;
      stats.thread_instructions += stopped_tinsts;
      // A hang is the failing chunk's CTA's; a requested stop names every CTA that was running.
      std::sort(stopped.begin(), stopped.end(), [](const Stopped& a, const Stopped& b) { return a.cta < b.cta; });
      std::uint64_t cta = stopped.empty() ? 0 : stopped.front().cta;
      std::vector<WarpPlace> places;
      for (const Stopped& st : stopped) {
        const bool in_failing_chunk = st.cta >= error_unit * chunk && st.cta < (error_unit + 1) * chunk;
        if (s.kind == CtaStop::Kind::kHang && !in_failing_chunk) continue;
        if (in_failing_chunk) cta = st.cta;
        merge_places(*req.kernel, places, st.places);
      }
      throw_stopped(*req.kernel, s, req.grid, static_cast<std::uint32_t>(cta), ctas_done, total, std::move(places),
                    std::move(stats));
    }
  }
  note_race_shadow_limit(global_race.get(), *req.kernel, stats);
  stats.device_launches = std::move(shared.device_launches);
  return stats;
}

}  // namespace warpscope::exec
