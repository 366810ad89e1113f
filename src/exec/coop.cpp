// Cooperative launches: every CTA of the grid is resident, so a CTA may wait for others
// (cooperative_groups' grid.sync(), or any flag another CTA sets). The CTAs take turns on one host
// thread, in CTA order, round after round:
//
//  - A turn runs the CTA's warps (round-robin, as cta.cpp does) until the CTA finishes, or a sweep
//    over its warps makes no progress, or a warp has used its instruction budget (2^20), or the
//    CTA has run 2^16 instructions in the turn (after the sweep that reaches it).
//  - Progress: a warp runs while it is not spinning, arrives at a barrier or is released from
//    one, or has lanes exit. A warp spins when a poll (Ctl::kPoll: a volatile/relaxed/acquire
//    load of global memory, or an atomic) returns what it returned the last time the warp ran it,
//    to the same lanes; it stops spinning when a poll returns something new. A spinning warp
//    yields at once, so a CTA waiting at grid.sync() costs a few instructions per round.
//  - A round in which no CTA made progress is followed by a patient one, in which spinning warps
//    run their whole budget (a poll loop that ends by itself, e.g. with a timeout, ends there). A
//    patient round without progress is a deadlock: Error(kDeadlock) naming the kernel and, per
//    group of blocks, what their warps wait for and where.
//
// Determinism: one host thread, a fixed order of turns, and spin detection that depends only on
// the values the kernel computes; so results, records and counters are the same for any
// --threads. The records of a turn go to a ShardedSink's shard and its part is merged after the
// turn, so the caches see the accesses in the order the CTAs made them (an interleaving, as on a
// GPU, but always the same one). printf text is kept per CTA and delivered in CTA order at the end.
#include <algorithm>
#include <exception>
#include <map>
#include <ostream>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exec/fault.hpp"
#include "exec/launch.hpp"
#include "exec/machine.hpp"
#include "exec/stop.hpp"

namespace warpscope::exec {

void CtaRunner::swap_state(CtaState& c) {
  cluster_ = c.cluster != nullptr ? c.cluster : &own_cluster_;
  if (cfg_.sanitize.racecheck && cfg_.cooperative) {
    // The checker of the CTA's cluster (shared memory is per CTA, and per cluster for its peers),
    // while the checkers held stay within kCoopRaceBytes; past it the cluster is not checked (a
    // warning says which blocks; the turns' order is fixed, so they are the same in every run).
    if (cluster_->race == nullptr && !c.finished && !cluster_->race_skipped) {
      const std::uint64_t shared_bytes =
          cfg_.dynamic_shared > 0 ? k_.dynamic_shared_offset + cfg_.dynamic_shared : k_.static_shared;
      const std::uint64_t bytes = RaceChecker::shadow_bytes(
          shared_bytes, static_cast<std::uint32_t>(std::max<std::size_t>(1, cluster_->by_rank.size())));
      if (race_bytes_ + bytes > kCoopRaceBytes) {
        cluster_->race_skipped = true;
        SanitizerFinding f;
        f.tool = "racecheck";
        f.kind = "incomplete";
        f.space = "shared";
        f.warning = true;
        f.kernel = k_.name;
        f.detail = fmt::format("racecheck of the cooperative launch stopped adding blocks at {} MiB of shadow state "
                               "({} bytes per byte of shared memory of each running block): block {} was the first left "
                               "unchecked",
                               kCoopRaceBytes >> 20, RaceChecker::shadow_bytes(4, 1) / 4, c.linear);
        sanlog_.note(f, c.linear);
      } else {
        cluster_->race = std::make_unique<RaceChecker>(k_, x_, sanlog_);
        cluster_->race_bytes = bytes;
        race_bytes_ += bytes;
      }
    }
    race_ = cluster_->race.get();
    x_.race = race_;
  }
  if (race_) race_->enter(c.rank, static_cast<std::uint32_t>(std::max<std::size_t>(1, cluster_->by_rank.size())));
  std::swap(warps_, c.warps);
  std::swap(shared_, c.shared);
  std::swap(bars_, c.bars);
  std::swap(bars_pending_, c.bars_pending);
  std::swap(barrier_activity_, c.barrier_activity);
}

CtaRunner::Turn CtaRunner::turn(CtaState& c, AccessSink* sink, bool patient) {
  swap_state(c);
  struct SwapBack {  // the CTA's state goes back to `c` however the turn ends
    CtaRunner& r;
    CtaState& c;
    ~SwapBack() { r.swap_state(c); }
  } back{*this, c};
  if (!c.started) {
    c.started = true;
    begin_cta(c.linear, sink, &c.text);
  } else {
    enter_cta(c.linear, sink, &c.text);
  }
  enter_cluster(c.cluster, c.rank);
  check_stop();
  set_patient(patient);
  budget_hit_ = false;
  bool any = false;
  auto executed = [&] {
    std::uint64_t n = 0;
    for (const WarpState& w : warps_) n += w.instructions;
    return n;
  };
  const std::uint64_t before = executed();
  for (;;) {
    progress_ = false;
    const bool ran = sweep();
    if (all_done()) {
      end_cta();
      c.finished = true;
      // The cluster's checker goes when its last CTA has finished (its state is per byte of their
      // shared memory).
      if (cfg_.cooperative && std::all_of(cluster_->by_rank.begin(), cluster_->by_rank.end(),
                                          [](const CtaState* p) { return p->finished; })) {
        cluster_->race.reset();
        race_bytes_ -= cluster_->race_bytes;
        cluster_->race_bytes = 0;
        race_ = nullptr;
        x_.race = nullptr;
        x_.sink = nullptr;
      }
      return Turn::kFinished;
    }
    if (!ran) deadlock();  // every warp waits at a barrier of this CTA: no other CTA can help
    any = any || progress_;
    // The turn also ends after 2^16 instructions of the CTA (a loop with a barrier inside that
    // waits for another CTA makes progress at every sweep).
    constexpr std::uint64_t kTurnInstructions = 1u << 16;
    if (!progress_ || budget_hit_ || executed() - before >= kTurnInstructions) {
      return any ? Turn::kProgress : Turn::kStuck;
    }
  }
}

namespace {

std::string ids_text(const std::vector<std::uint32_t>& ids) {
  std::string s;
  for (std::size_t i = 0; i < ids.size();) {
    std::size_t j = i;
    while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
    if (!s.empty()) s += ",";
    s += j == i ? fmt::format("{}", ids[i]) : fmt::format("{}-{}", ids[i], ids[j]);
    i = j + 1;
  }
  return s;
}

}  // namespace

std::string CtaRunner::describe(const CtaState& c) const { return describe(c.warps); }

std::string CtaRunner::describe(const std::vector<WarpState>& warps) const {
  // Warps grouped by what they do: "warps 1-7 waiting at barrier 0 at f.cu:40".
  std::map<std::string, std::vector<std::uint32_t>> by_state;
  std::vector<std::string> order;
  for (const WarpState& w : warps) {
    std::string what;
    if (w.done()) {
      what = "exited";
    } else {
      for (const Split& s : w.splits) {
        if (s.state == SplitState::kBarrier) {
          what = fmt::format("waiting at barrier {} at {}", s.bar_id, k_.where(s.bar_pc));
          break;
        }
      }
      if (what.empty() && w.spinning && w.spin_pc != kNoPc) {
        what = fmt::format("{} at {} (`{}`)",
                           k_.code[w.spin_pc].ctl == Ctl::kWait ? "waiting on an mbarrier phase that does not complete"
                                                                : "spinning on an unchanged value",
                           k_.where(w.spin_pc), k_.ir_instruction(w.spin_pc).text);
      }
      if (what.empty()) {
        const std::uint32_t pc = w.splits.empty() || w.splits[0].stack.empty() ? kNoPc : w.splits[0].stack.back().pc;
        what = pc < k_.code.size() ? fmt::format("running at {}", k_.where(pc)) : "running";
      }
    }
    auto [it, fresh] = by_state.try_emplace(what);
    if (fresh) order.push_back(what);
    it->second.push_back(w.index);
  }
  std::string out;
  for (const std::string& what : order) {
    const auto& ids = by_state[what];
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {} {}", ids.size() == 1 ? "warp" : "warps", ids_text(ids), what);
  }
  return out;
}

LaunchStats run_cooperative(const LaunchRequest& req, const LaunchConfig& cfg) {
  const std::uint64_t total = std::uint64_t(req.grid.x) * req.grid.y * req.grid.z;
  auto* const sharded = dynamic_cast<ShardedSink*>(req.sink);
  CtaRunner runner(cfg);
  std::unique_ptr<ShardedSink::Shard> shard = sharded ? sharded->make_shard() : nullptr;
  AccessSink* const sink = shard ? shard.get() : req.sink;
  PrintfFifo fifo;
  fifo.limit = req.printf_fifo_bytes;
  std::ostream& out = *req.printf_output;
  // The CTAs that take turns together: every CTA of a cooperative launch; one cluster at a time
  // of a cluster launch (cluster.cpp: cluster_members lists a cluster's CTAs by rank).
  const ClusterShape shape(req.grid, req.cluster);
  const bool clustered = shape.size > 1;
  const std::uint64_t groups = req.cooperative ? 1 : shape.count;
  std::vector<CtaState> ctas;
  std::vector<ClusterCtx> clusters;
  std::uint64_t done_before = 0;  // CTAs of earlier groups
  const char* const what = req.cooperative ? "cooperative" : "cluster";

  for (std::uint64_t g = 0; g < groups; ++g) {
    ctas.clear();
    clusters.clear();
    if (req.cooperative) {
      ctas.resize(total);
      for (std::uint64_t c = 0; c < total; ++c) ctas[c].linear = static_cast<std::uint32_t>(c);
      if (clustered) {
        clusters.resize(shape.count);
        for (std::uint64_t k = 0; k < shape.count; ++k) {
          const std::vector<std::uint32_t> members = shape.members(k);
          for (std::uint32_t r = 0; r < members.size(); ++r) {
            ctas[members[r]].cluster = &clusters[k];
            ctas[members[r]].rank = r;
            clusters[k].by_rank.push_back(&ctas[members[r]]);
          }
        }
      } else {
        clusters.resize(total);  // each CTA a cluster of one
        for (std::uint64_t c = 0; c < total; ++c) {
          clusters[c].by_rank.push_back(&ctas[c]);
          ctas[c].cluster = &clusters[c];
        }
      }
    } else {
      const std::vector<std::uint32_t> members = shape.members(g);
      ctas.resize(members.size());
      clusters.resize(1);
      for (std::uint32_t r = 0; r < members.size(); ++r) {
        ctas[r].linear = members[r];
        ctas[r].cluster = &clusters[0];
        ctas[r].rank = r;
        clusters[0].by_rank.push_back(&ctas[r]);
      }
    }
    auto deliver_text = [&] {
      for (CtaState& c : ctas) fifo.deliver(out, c.text);
      fifo.flush();
    };
    std::uint64_t remaining = ctas.size();
    bool patient = false;
    // Where the warps of the unfinished CTAs are, and what the grid ran (a stop or a deadlock).
    auto places_and_partial = [&](std::vector<WarpPlace>& places, LaunchStats& partial) {
      partial.warp_instructions = runner.instructions();
      partial.thread_instructions = runner.thread_instructions();
      for (const CtaState& c : ctas) {
        if (c.finished || !c.started) continue;
        runner.add_places(c.linear, c.warps, places);
        for (const WarpState& w : c.warps) {
          partial.warp_instructions += w.instructions;
          partial.thread_instructions += w.thread_instructions;
        }
      }
      partial.pc_instructions = runner.pc_instructions();
      partial.pc_thread_instructions = runner.pc_thread_instructions();
      runner.memcheck().finish(partial);
      runner.sanitizer().finish(partial);
      sort_places(places);
    };
    try {
      // Every CTA of a cluster exists (its shared memory and warps) before any of them runs.
      if (clustered) {
        for (CtaState& c : ctas) runner.prepare(c, sink);
      }
      while (remaining != 0) {
        bool progress = false;
        for (CtaState& c : ctas) {
          if (c.finished) continue;
          const CtaRunner::Turn t = runner.turn(c, sink, patient);
          if (shard) sharded->merge(c.linear, shard->finish_cta());
          if (t == CtaRunner::Turn::kFinished) {
            --remaining;
            if (cfg.shared != nullptr) cfg.shared->progress->ctas_done.fetch_add(1, std::memory_order_relaxed);
            c.warps = {};  // its text stays until the end
            if (!clustered) c.shared = {};  // a cluster's peers may still reach it (an error)
          }
          if (t != CtaRunner::Turn::kStuck) progress = true;
        }
        if (progress) {
          patient = false;
        } else if (!patient) {
          patient = true;
        } else {
          // No CTA can make progress: describe the CTAs, grouping consecutive ones that wait alike.
          const KernelImage& k = *req.kernel;
          std::string msg = fmt::format("grid deadlock in {} kernel {}: no block can make progress ({} of {} blocks "
                                        "unfinished)",
                                        what, kernel_label(k.name), remaining + (total - done_before - ctas.size()),
                                        total);
          if (!req.cooperative) {
            const CtaState& first = ctas.front();
            msg += fmt::format(" in the cluster of blocks {}-{}", first.linear, ctas.back().linear);
          }
          std::vector<std::pair<std::string, std::vector<std::uint32_t>>> grouped;
          for (const CtaState& c : ctas) {
            if (c.finished) continue;
            std::string d = runner.describe(c);
            if (!grouped.empty() && grouped.back().first == d && grouped.back().second.back() + 1 == c.linear) {
              grouped.back().second.push_back(c.linear);
            } else {
              grouped.emplace_back(std::move(d), std::vector<std::uint32_t>{c.linear});
            }
          }
          constexpr std::size_t kShown = 8;
          for (std::size_t i = 0; i < grouped.size() && i < kShown; ++i) {
            const auto& ids = grouped[i].second;
            msg += fmt::format("; {} {}: {}", ids.size() == 1 ? "block" : "blocks", ids_text(ids), grouped[i].first);
          }
          if (grouped.size() > kShown) msg += fmt::format("; and {} more groups of blocks", grouped.size() - kShown);
          msg += " (linear block indices)";
          LaunchStop stop;
          stop.reason = LaunchStop::Reason::kHang;
          stop.ctas_total = total;
          stop.ctas_done = done_before + ctas.size() - remaining;
          places_and_partial(stop.places, stop.partial);
          throw LaunchStopped(ErrorKind::kDeadlock, msg, std::move(stop));
        }
      }
    } catch (const CtaStop& s) {
      runner.flush_progress();
      if (shard) sharded->merge(0, shard->finish_cta());
      deliver_text();
      std::vector<WarpPlace> places;
      LaunchStats partial;
      places_and_partial(places, partial);
      throw_stopped(*req.kernel, s, req.grid, 0, done_before + ctas.size() - remaining, total, std::move(places),
                    std::move(partial));
    } catch (...) {
      if (shard) sharded->merge(0, shard->finish_cta());
      deliver_text();
      throw;
    }
    deliver_text();
    done_before += ctas.size();
  }
  runner.flush_progress();
  LaunchStats stats;
  stats.printf_dropped = fifo.dropped;
  stats.warp_instructions = runner.instructions();
  stats.thread_instructions = runner.thread_instructions();
  stats.clock_skew_sum = runner.clock_skew_sum();
  stats.clock_skew_max = runner.clock_skew_max();
  stats.cta_instructions_max = runner.cta_instructions_max();
  stats.pc_instructions = runner.pc_instructions();
  stats.pc_thread_instructions = runner.pc_thread_instructions();
  runner.memcheck().finish(stats);
  runner.sanitizer().finish(stats);
  return stats;
}

}  // namespace warpscope::exec
