// One CTA: its warps run round-robin, each until it waits at a barrier, exits, or has used its
// instruction budget; barriers complete when every non-exited warp (or the given thread count)
// has arrived; a state where nothing can run and warps still wait is a deadlock.
#include <algorithm>
#include <bit>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exec/fault.hpp"
#include "exec/machine.hpp"
#include "exec/segments.hpp"

namespace warpscope::exec {

namespace {

constexpr std::uint32_t kSmCount = 132;    // %nsmid (an H100 SXM)
constexpr std::uint32_t kWarpsPerSm = 64;  // %nwarpid

}  // namespace

CtaRunner::CtaRunner(const LaunchConfig& cfg) : cfg_(cfg), k_(*cfg.kernel) {
  regs_template_.assign(std::size_t(k_.num_slots) * kLanes, 0);
  pc_warp_.assign(k_.code.size() + 1, 0);
  pc_thread_.assign(k_.code.size() + 1, 0);
  for (const auto& [slot, value] : k_.consts) {
    std::fill_n(regs_template_.data() + std::size_t(slot) * kLanes, kLanes, value);
  }
  x_.kernel = &k_;
  x_.global = cfg.global;
  x_.objects = cfg.objects;
  x_.kparams = cfg.params.data();
  x_.kparam_size = cfg.params.size();
  x_.atomic_global = cfg.atomic_global;
  x_.launch_id = cfg.launch_id;
  x_.ntid = cfg.block;
  x_.nctaid = cfg.grid;
  x_.memcheck = cfg.memcheck_strict ? nullptr : &memcheck_;
  x_.heap = cfg.heap;
  x_.faults = cfg.sanitize.memcheck ? &sanlog_ : nullptr;
  sanitizing_ = cfg.sanitize.any() || cfg.init != nullptr;
  // Polls are watched in cooperative launches and cluster launches (CTAs that take turns).
  coop_ = cfg.cooperative || std::uint64_t(cfg.cluster.x) * cfg.cluster.y * cfg.cluster.z > 1;
  cluster_ = &own_cluster_;
  // racecheck follows one CTA at a time, or one cluster's CTAs (they take turns, and one checker
  // keeps every CTA's state: distributed shared memory); the CTAs of a cooperative launch all take
  // turns, and each cluster of them (each CTA, without clusters) has a checker of its own
  // (ClusterCtx::race, coop.cpp).
  if (cfg.sanitize.racecheck && !cfg.cooperative) {
    own_race_ = std::make_unique<RaceChecker>(k_, x_, sanlog_);
    race_ = own_race_.get();
    x_.race = race_;
  }
  if (cfg.shared != nullptr && cfg.shared->global_race != nullptr)
    global_race_ = std::make_unique<GlobalRaceSink>(*cfg.shared->global_race, sanlog_);
  // initcheck: cooperative and cluster CTAs take turns, so their writes are kept per CTA.
  if (cfg.init != nullptr) init_ = std::make_unique<InitChecker>(k_, x_, *cfg.init, sanlog_, !coop_, cfg.sanitize.initcheck_shared);
}

namespace {
std::vector<std::uint64_t> prefix_sums(const std::vector<std::uint64_t>& diff) {
  std::vector<std::uint64_t> out(diff.empty() ? 0 : diff.size() - 1);
  std::uint64_t sum = 0;  // unsigned wrap-around: the running sum is the count
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = sum += diff[i];
  return out;
}
}  // namespace

std::vector<std::uint64_t> CtaRunner::pc_instructions() const { return prefix_sums(pc_warp_); }
std::vector<std::uint64_t> CtaRunner::pc_thread_instructions() const { return prefix_sums(pc_thread_); }

void CtaRunner::point_ctx(WarpState& w) {
  x_.regs = w.regs.data();
  x_.local = w.local.data();
  x_.local_stride = k_.local_bytes + kStackWindowBytes;
  x_.local_frame = k_.local_bytes;
  x_.local_overrun = &w.local_overrun;
  x_.warp_index = w.index;
  x_.clock = &w.instructions;
  x_.clock_state = &w.clock;
  x_.held = &w.held;
}

void CtaRunner::init_warps(std::uint32_t linear) {
  const Dim3 b = cfg_.block;
  const std::uint64_t nthreads = std::uint64_t(b.x) * b.y * b.z;
  const std::uint32_t nwarps = static_cast<std::uint32_t>((nthreads + kLanes - 1) / kLanes);
  warps_.resize(nwarps);
  const std::size_t nregs = std::size_t(k_.num_slots) * kLanes;
  const std::uint32_t ntid[3] = {b.x, b.y, b.z};
  const std::uint32_t ctaid[3] = {x_.ctaid.x, x_.ctaid.y, x_.ctaid.z};
  const std::uint32_t nctaid[3] = {cfg_.grid.x, cfg_.grid.y, cfg_.grid.z};
  const std::uint32_t cdim[3] = {std::max(cfg_.cluster.x, 1u), std::max(cfg_.cluster.y, 1u), std::max(cfg_.cluster.z, 1u)};
  for (std::uint32_t wi = 0; wi < nwarps; ++wi) {
    WarpState& w = warps_[wi];
    w.index = wi;
    const std::uint64_t first = std::uint64_t(wi) * kLanes;
    const std::uint64_t n = std::min<std::uint64_t>(kLanes, nthreads - first);
    w.exists = n >= 32 ? kFullMask : ((1u << n) - 1);
    w.live = w.exists;
    w.held.resize(k_.groupings.size());
    for (Held& h : w.held) h.records.clear(), h.passing = false;
    // Reuse the buffers of the previous CTA: no allocation per warp.
    w.splits.resize(1);
    Split& s = w.splits[0];
    s.state = SplitState::kRunnable;
    s.no_wait = false;
    s.stack.clear();
    Entry e;
    e.mask = w.exists;
    s.stack.push_back(e);
    w.arrived.fill(0);
    w.instructions = 0;
    w.thread_instructions = 0;
    w.clock = ClockState{};
    w.saved.clear();
    for (auto& v : w.sp_saved) v.clear();
    w.polls.fill(WarpState::PollSeen{});
    w.poll_next = 0;
    w.poll_tick = 0;
    w.spin_global = false;
    w.spinning = false;
    w.cycling = false;
    w.evolving_epoch = 0;
    w.evolving_count = 0;
    w.spin_pc = kNoPc;
    w.wait = WarpState::PollSeen{};
    w.cluster_arrived.fill(0);
    // Registers start as zero, constant slots as their values: one copy of a prepared file (into
    // the previous CTA's buffer, or a new one without zeroing it first).
    if (w.regs.size() == nregs) {
      std::memcpy(w.regs.data(), regs_template_.data(), nregs * sizeof(std::uint64_t));
    } else {
      w.regs.assign(regs_template_.begin(), regs_template_.end());
    }
    // Each lane's frame starts as zeros; the window after it is zeroed again only when an access
    // past the frame wrote there (so every CTA sees zeros, at the cost of the frame alone).
    {
      const std::size_t stride = k_.local_bytes + kStackWindowBytes;
      if (w.local.size() != std::size_t(kLanes) * stride || w.local_overrun) {
        w.local.assign(std::size_t(kLanes) * stride, 0);
        w.local_overrun = false;
      } else if (k_.local_bytes != 0) {
        for (unsigned l = 0; l < kLanes; ++l) std::memset(w.local.data() + l * stride, 0, k_.local_bytes);
      }
    }
    std::uint64_t* regs = w.regs.data();
    if (k_.sregs.empty()) continue;
    // Thread coordinates of the warp's lanes, counted up from the first one.
    std::uint32_t tid[3][kLanes];
    std::uint32_t tx = static_cast<std::uint32_t>(first % b.x);
    std::uint32_t ty = static_cast<std::uint32_t>((first / b.x) % b.y);
    std::uint32_t tz = static_cast<std::uint32_t>(first / (std::uint64_t(b.x) * b.y));
    for (unsigned l = 0; l < kLanes; ++l) {
      tid[0][l] = tx;
      tid[1][l] = ty;
      tid[2][l] = tz;
      if (++tx == b.x) {
        tx = 0;
        if (++ty == b.y) {
          ty = 0;
          ++tz;
        }
      }
    }
    for (const SregSlot& sr : k_.sregs) {
      std::uint64_t* d = regs + std::size_t(sr.slot) * kLanes;
      const unsigned c = sr.component < 3 ? sr.component : 0;
      auto fill = [&](std::uint64_t v) { std::fill_n(d, kLanes, v); };
      switch (sr.reg) {
        case ptx::SpecialReg::kTid:
          for (unsigned l = 0; l < kLanes; ++l) d[l] = tid[c][l];
          break;
        case ptx::SpecialReg::kNtid: fill(ntid[c]); break;
        case ptx::SpecialReg::kCtaid: fill(ctaid[c]); break;
        case ptx::SpecialReg::kNctaid: fill(nctaid[c]); break;
        case ptx::SpecialReg::kLaneid:
          for (unsigned l = 0; l < kLanes; ++l) d[l] = l;
          break;
        case ptx::SpecialReg::kWarpid: fill(wi); break;
        case ptx::SpecialReg::kNwarpid: fill(kWarpsPerSm); break;
        case ptx::SpecialReg::kSmid: fill(linear % kSmCount); break;
        case ptx::SpecialReg::kNsmid: fill(kSmCount); break;
        case ptx::SpecialReg::kGridid: fill(cfg_.launch_id); break;
        case ptx::SpecialReg::kLanemaskEq:
          for (unsigned l = 0; l < kLanes; ++l) d[l] = 1u << l;
          break;
        case ptx::SpecialReg::kLanemaskLt:
          for (unsigned l = 0; l < kLanes; ++l) d[l] = (1u << l) - 1;
          break;
        case ptx::SpecialReg::kLanemaskLe:
          for (unsigned l = 0; l < kLanes; ++l) d[l] = l == 31 ? kFullMask : (2u << l) - 1;
          break;
        case ptx::SpecialReg::kLanemaskGt:
          for (unsigned l = 0; l < kLanes; ++l) d[l] = l == 31 ? 0u : ~((2u << l) - 1);
          break;
        case ptx::SpecialReg::kLanemaskGe:
          for (unsigned l = 0; l < kLanes; ++l) d[l] = ~((1u << l) - 1);
          break;
        case ptx::SpecialReg::kDynamicSmemSize: fill(cfg_.dynamic_shared); break;
        case ptx::SpecialReg::kTotalSmemSize:
        case ptx::SpecialReg::kAggrSmemSize: fill(x_.shared_size); break;
        // Thread-block clusters (cluster.cpp); without one, every CTA is a cluster of one.
        case ptx::SpecialReg::kClusterid: fill(ctaid[c] / cdim[c]); break;
        case ptx::SpecialReg::kNclusterid: fill(nctaid[c] / cdim[c]); break;
        case ptx::SpecialReg::kClusterCtaid: fill(ctaid[c] % cdim[c]); break;
        case ptx::SpecialReg::kClusterNctaid: fill(cdim[c]); break;
        case ptx::SpecialReg::kClusterCtarank:
          fill(ctaid[0] % cdim[0] + cdim[0] * (ctaid[1] % cdim[1] + cdim[1] * (ctaid[2] % cdim[2])));
          break;
        case ptx::SpecialReg::kClusterNctarank: fill(cdim[0] * cdim[1] * cdim[2]); break;
        case ptx::SpecialReg::kIsExplicitCluster: fill(cfg_.explicit_cluster ? 1 : 0); break;
        // The grid workspace of a cooperative launch: %envreg1 its high half, %envreg2 its low
        // half (nvcc 13's this_grid() joins them with bfi and traps on 0).
        case ptx::SpecialReg::kEnvreg:
          fill(sr.component == 1 ? cfg_.grid_workspace >> 32
               : sr.component == 2 ? cfg_.grid_workspace & 0xffffffffu : 0);
          break;
        default: fill(0); break;
      }
    }
  }
}

void CtaRunner::enter_cta(std::uint32_t linear, AccessSink* sink, PrintfText* printf_out) {
  const Dim3 g = cfg_.grid;
  x_.cta_linear = linear;
  x_.ctaid = Dim3{linear % g.x, (linear / g.x) % g.y, linear / (g.x * g.y)};
  // CTA sampling: the other CTAs run without building records nobody will count.
  x_.sink = cfg_.sink_cta_every > 1 && linear % cfg_.sink_cta_every != 0 ? nullptr : sink;
  if (race_) {
    // The race checker sees every record first and passes it on.
    race_->set_inner(x_.sink);
    x_.sink = race_;
  }
  if (global_race_) {
    global_race_->set_inner(x_.sink);
    x_.sink = global_race_.get();
  }
  if (init_) {
    init_->set_inner(x_.sink);
    x_.sink = init_.get();
  }
  x_.printf_out = printf_out;
  x_.shared = shared_.data();
  x_.shared_size = shared_.size();
}

void CtaRunner::begin_cta(std::uint32_t linear, AccessSink* sink, PrintfText* printf_out) {
  const std::uint64_t shared_bytes =
      cfg_.dynamic_shared > 0 ? k_.dynamic_shared_offset + cfg_.dynamic_shared : k_.static_shared;
  shared_.assign(shared_bytes, 0);
  enter_cta(linear, sink, printf_out);
  if (race_) race_->begin_cta(cfg_.block.x * cfg_.block.y * cfg_.block.z, shared_bytes, x_.ctaid);
  if (init_) init_->begin_cta();
  bars_.fill(BarrierState{});
  bars_pending_ = 0;
  barrier_activity_ = false;
  released_ = false;
  init_warps(linear);
}

bool CtaRunner::sweep() {
  bool ran = false;
  for (WarpState& w : warps_) {
    if (w.done()) continue;
    const std::uint64_t before = w.instructions;
    if (run_warp(w)) ran = true;
    // Every 2^16 warp instructions: progress, and whether to stop (stop.cpp).
    unreported_ += w.instructions - before;
    if (unreported_ >= kCheckInstructions) [[unlikely]] {
      flush_progress();
      check_stop();
      if (check_hook_) check_hook_();
    }
    if (released_) break;  // after a barrier completes, warps resume in warp order
  }
  released_ = false;
  return ran;
}

bool CtaRunner::all_done() const {
  return std::all_of(warps_.begin(), warps_.end(), [](const WarpState& w) { return w.done(); });
}

void CtaRunner::end_cta() {
  std::uint64_t cta = 0;
  for (const WarpState& w : warps_) cta += w.instructions;
  cta_instructions_max_ = std::max(cta_instructions_max_, cta);
  // A profiled CTA brings its kernel nearer to native segments (segments.hpp, traced_segments_due).
  if (x_.sink != nullptr && k_.jit != nullptr) k_.jit->traced_insts.fetch_add(cta, std::memory_order_relaxed);
  for (const WarpState& w : warps_) {
    instructions_ += w.instructions;
    thread_instructions_ += w.thread_instructions;
    clock_skew_sum_ += w.clock.skew;
    clock_skew_max_ = std::max(clock_skew_max_, w.clock.skew);
  }
}

void CtaRunner::run(std::uint32_t linear, AccessSink* sink, PrintfText* printf_out) {
  own_cluster_ = ClusterCtx{};
  cluster_ = &own_cluster_;
  begin_cta(linear, sink, printf_out);
  enter_cluster(nullptr, 0);
  check_stop();
  // A sweep without progress (every live warp waits at a barrier or spins: on an mbarrier wait,
  // cta_wait.cpp, or on a watched poll, warp.cpp) is followed by a patient one. In it a spinning
  // mbarrier wait runs its budget; a warp spinning at a poll runs until its state repeats there
  // (a cycle) or its budget is used (a wait that may end by itself: progress). Polls are watched
  // when they read the CTA's own shared memory, and any poll once a warp has run 2^20
  // instructions (hangs). A patient sweep without progress is
  //  - a deadlock (wait_deadlock) when no warp spins on a poll of memory other CTAs may write:
  //    only this CTA's warps could change what they wait for;
  //  - otherwise a hang when every CTA before this one had finished before it began: no running
  //    thread can change what the warps read. (With several host threads, a CTA before this one
  //    may still be running and set it: the patient sweeps go on.)
  set_patient(false);
  bool lower_finished = false;
  for (;;) {
    progress_ = false;
    const bool ran = sweep();
    if (all_done()) break;
    if (!ran) deadlock();
    if (progress_) {
      set_patient(false);
    } else if (patient_ && !spins_on_global()) {
      wait_deadlock();
    } else if (patient_ && lower_finished) {
      throw CtaStop{CtaStop::Kind::kHang, 0};
    } else {
      lower_finished = lower_ctas_finished();
      set_patient(true);
    }
  }
  set_patient(false);
  end_cta();
}

bool CtaRunner::spins_on_global() const {
  return std::any_of(warps_.begin(), warps_.end(), [&](const WarpState& w) {
    return !w.done() && w.spinning && w.spin_global && w.spin_pc < k_.code.size() &&
           k_.code[w.spin_pc].ctl == Ctl::kPoll;
  });
}

bool CtaRunner::run_warp(WarpState& w) {
  bool ran = false;
  for (;;) {
    if (w.done()) return ran;
    std::size_t i = 0;
    while (i < w.splits.size() && w.splits[i].state != SplitState::kRunnable) ++i;
    if (i == w.splits.size()) {
      // Nothing runnable. Splits that wait to merge must run on: the others wait at barriers
      // that need their lanes.
      bool resumed = false;
      for (Split& s : w.splits) {
        if (s.state == SplitState::kWaitMerge) {
          s.state = SplitState::kRunnable;
          s.no_wait = true;
          resumed = true;
        }
      }
      if (!resumed) {
        // Lanes waiting at a warp-synchronous instruction for lanes that wait at a barrier or at
        // another such instruction never resume.
        for (const Split& s : w.splits) {
          if (s.state == SplitState::kWarpSync) sync_stuck(w);
        }
        return ran;
      }
      continue;
    }
    ran = true;
    // The split may start at its reconvergence point (after a barrier or a merge).
    {
      Split& s = w.splits[i];
      if (!s.stack.empty() && s.stack.back().pc == s.stack.back().rpc) {
        enter_split(w, s);
        settle(w, s);
      }
      if (s.stack.empty()) {
        w.splits.erase(w.splits.begin() + static_cast<std::ptrdiff_t>(i));
        continue;
      }
    }
    if (!w.spinning) progress_ = true;
    w.cycling = false;
    const std::uint32_t live_before = w.live;
    const RunResult r = run_split(w, w.splits[i]);
    if (w.live != live_before) {
      progress_ = true;
      w.spinning = false;
      cluster_exited(w, live_before & ~w.live);
    }
    // A patient spin at a poll that used its budget without proving a cycle may still end by
    // itself. (A spinning mbarrier wait that runs its budget is no progress: cta_wait.cpp.)
    if (patient_ && r == RunResult::kYield && w.spinning && !w.cycling && w.spin_pc < k_.code.size() &&
        k_.code[w.spin_pc].ctl == Ctl::kPoll)
      progress_ = true;
    if (w.done() && x_.sink != nullptr && !k_.groupings.empty()) release_held(k_, w.held, *x_.sink);
    bool yield = false;
    switch (r) {
      case RunResult::kDone:
        // Keep the last split (and its stack's buffer) for the next CTA.
        if (w.splits.size() > 1) w.splits.erase(w.splits.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      case RunResult::kBlocked:
        on_blocked(w, i);
        break;
      case RunResult::kWaitMerge:
        try_merge(w, i);
        break;
      case RunResult::kYield:
        yield = true;
        break;
      case RunResult::kSyncWait:
        on_sync_wait(w, i);
        break;
    }
    // Lanes that exited or arrived at a warp-synchronous instruction may let others waiting at
    // one go on.
    for (const Split& s : w.splits) {
      if (s.state == SplitState::kWarpSync) {
        resolve_syncs(w);
        break;
      }
    }
    // Lanes that exited or arrived may complete this warp's arrival, and warps that exited may
    // complete a barrier.
    bool pending = false;
    for (std::uint32_t id = 0; id < kBarriers; ++id) {
      if (w.arrived[id] != 0) {
        pending = true;
        check_warp_arrival(w, id);
      }
    }
    if (pending || barrier_activity_) check_barriers();
    if (yield || released_) return ran;
  }
}

void CtaRunner::on_blocked(WarpState& w, std::size_t i) {
  progress_ = true;
  w.spinning = false;
  w.cycling = false;
  Split& s = w.splits[i];
  const std::uint32_t id = s.bar_id;
  const Inst& in = k_.code[s.bar_pc];
  s.no_wait = false;
  if (static_cast<BarKind>(in.aux) == BarKind::kRed) {
    const std::uint64_t* p = w.regs.data() + std::size_t(in.c) * kLanes;
    const bool neg = in.flags & kFlagNegC;
    for_lanes(s.bar_mask, [&](unsigned l) {
      const bool v = ((p[l] & 1) != 0) != neg;
      bars_[id].red_popc += v ? 1 : 0;
      bars_[id].red_and = bars_[id].red_and && v;
      bars_[id].red_or = bars_[id].red_or || v;
    });
  }
  if (s.bar_count) bars_[id].count = s.bar_count;
  w.arrived[id] |= s.bar_mask;
  // Fork: the lanes at the barrier wait; the others (waiting lower in the stack, e.g. at the
  // reconvergence point after an early return) run on.
  fork(w, i, s.bar_mask);
  check_warp_arrival(w, id);
}

bool CtaRunner::check_warp_arrival(WarpState& w, std::uint32_t id) {
  if (w.arrived[id] == 0) return false;
  if (w.live == 0) {
    w.arrived[id] = 0;
    return false;
  }
  if ((w.arrived[id] & w.live) != w.live) return false;
  // Every non-exited lane arrived. An .aligned barrier must be the same instruction for all.
  std::uint32_t first_pc = kNoPc;
  std::uint32_t first_mask = 0;
  for (const Split& s : w.splits) {
    if (s.state != SplitState::kBarrier || s.bar_id != id) continue;
    if (first_pc == kNoPc) {
      first_pc = s.bar_pc;
      first_mask = s.bar_mask;
    } else if (s.bar_pc != first_pc && (k_.code[s.bar_pc].flags & kFlagAligned)) {
      if (cfg_.sanitize.synccheck) {
        note_sync("divergent_warp", s.bar_pc, w.index * kLanes + static_cast<std::uint32_t>(std::countr_zero(s.bar_mask)),
                  fmt::format("warp {}: {} at one barrier instruction, {} at another", w.index, lanes_text(first_mask),
                              lanes_text(s.bar_mask)));
      }
      throw Error(ErrorKind::kDeadlock,
                  fmt::format("barrier deadlock in kernel {}, block ({},{},{}): warp {} reaches barrier {} "
                              "in divergent code: {} wait at {} while {} wait at {}; an aligned barrier "
                              "(__syncthreads) must be reached by all threads of a warp together",
                              kernel_label(k_.name), x_.ctaid.x, x_.ctaid.y, x_.ctaid.z, w.index, id,
                              lanes_text(first_mask), k_.where(first_pc), lanes_text(s.bar_mask),
                              k_.where(s.bar_pc)));
    }
  }
  w.arrived[id] = 0;
  bars_[id].arrivals += 1;
  bars_pending_ |= 1u << id;
  if (race_) race_->arrive(w.index, id);
  barrier_activity_ = true;
  return true;
}

void CtaRunner::check_barriers() {
  if (bars_pending_ == 0) return;
  std::uint32_t live_warps = 0;
  for (const WarpState& w : warps_) live_warps += w.done() ? 0 : 1;
  for (std::uint32_t pending = bars_pending_; pending != 0; pending &= pending - 1) {
    const auto id = static_cast<std::uint32_t>(std::countr_zero(pending));
    BarrierState& b = bars_[id];
    const std::uint32_t expected = b.count ? (b.count + kLanes - 1) / kLanes : live_warps;
    if (b.arrivals >= expected) release(id);
  }
}

void CtaRunner::note_sync(const char* kind, std::uint32_t pc, std::uint32_t tid, std::string detail) {
  SanitizerFinding f;
  f.tool = "synccheck";
  f.kind = kind;
  f.kernel = k_.name;
  f.block = x_.ctaid;
  f.first = sanitizer_site(k_, pc, tid, cfg_.block);
  f.second.pc = kNoPc;
  f.detail = std::move(detail);
  sanlog_.note(f, x_.cta_linear);
}

void CtaRunner::check_divergent_block(std::uint32_t id) {
  // A barrier of the whole CTA (no thread count) that its warps reached at different
  // instructions: synccheck's "Divergent thread(s) in block", noted for the first thread of each
  // warp whose instruction is not the lowest warp's.
  std::uint32_t first_pc = kNoPc;
  for (const WarpState& w : warps_) {
    for (const Split& s : w.splits) {
      if (s.state != SplitState::kBarrier || s.bar_id != id || s.bar_count != 0) continue;
      if (first_pc == kNoPc) {
        first_pc = s.bar_pc;
      } else if (s.bar_pc != first_pc) {
        note_sync("divergent_block", s.bar_pc, w.index * kLanes + static_cast<std::uint32_t>(std::countr_zero(s.bar_mask)),
                  fmt::format("barrier {}: warp {} waits at {}, a lower warp at {}", id, w.index,
                              k_.where(s.bar_pc), k_.where(first_pc)));
      }
    }
  }
}

void CtaRunner::release(std::uint32_t id) {
  if (cfg_.sanitize.synccheck) check_divergent_block(id);
  if (race_) {
    std::uint32_t waiting = 0;
    for (const WarpState& w : warps_)
      for (const Split& s : w.splits)
        if (s.state == SplitState::kBarrier && s.bar_id == id && w.index < 32) waiting |= 1u << w.index;
    race_->release(id, waiting);
  }
  const BarrierState b = bars_[id];
  bars_[id] = BarrierState{};
  bars_pending_ &= ~(1u << id);
  released_ = true;
  progress_ = true;
  for (WarpState& w : warps_) {
    for (Split& s : w.splits) {
      if (s.state != SplitState::kBarrier || s.bar_id != id) continue;
      s.state = SplitState::kRunnable;
      const Inst& in = k_.code[s.bar_pc];
      if (static_cast<BarKind>(in.aux) == BarKind::kRed) {
        std::uint64_t v = 0;
        switch (static_cast<ptx::ReduceOp>(in.aux2)) {
          case ptx::ReduceOp::kPopc: v = b.red_popc; break;
          case ptx::ReduceOp::kAnd: v = b.red_and ? 1 : 0; break;
          default: v = b.red_or ? 1 : 0; break;
        }
        std::uint64_t* d = w.regs.data() + std::size_t(in.d) * kLanes;
        for_lanes(s.bar_mask, [&](unsigned l) { d[l] = v; });
      }
      s.stack.back().pc = s.bar_pc + 1;
    }
  }
}

bool CtaRunner::try_merge(WarpState& w, std::size_t i) {
  for (std::size_t j = 0; j < w.splits.size(); ++j) {
    if (j == i) continue;
    Split& s = w.splits[i];
    Split& o = w.splits[j];
    if (o.state == SplitState::kBarrier) {
      // A split at a barrier keeps its place; this one may still need to wait for it below.
    } else if (o.stack.size() == s.stack.size() &&
               std::equal(s.stack.begin(), s.stack.end(), o.stack.begin(),
                          [](const Entry& a, const Entry& b) { return a.same_place(b); })) {
      for (std::size_t k = 0; k < s.stack.size(); ++k) s.stack[k].mask |= o.stack[k].mask;
      s.no_wait = s.no_wait && o.no_wait;
      s.state = SplitState::kRunnable;
      w.splits.erase(w.splits.begin() + static_cast<std::ptrdiff_t>(j));
      return false;
    }
    if (o.stack.size() > s.stack.size() &&
        std::equal(s.stack.begin(), s.stack.end(), o.stack.begin(),
                   [](const Entry& a, const Entry& b) { return a.same_place(b); })) {
      s.state = SplitState::kWaitMerge;
      return true;
    }
  }
  return false;
}

void CtaRunner::deadlock() {
  std::map<std::uint32_t, std::vector<std::string>> waiting;  // barrier id -> "warp W at L"
  std::vector<std::uint32_t> exited;
  for (const WarpState& w : warps_) {
    if (w.done()) {
      exited.push_back(w.index);
      continue;
    }
    for (const Split& s : w.splits) {
      if (s.state != SplitState::kBarrier) continue;
      std::string who = fmt::format("warp {}", w.index);
      if (s.bar_mask != w.live) who += " (" + lanes_text(s.bar_mask) + ")";
      waiting[s.bar_id].push_back(fmt::format("{} at {}", who, k_.where(s.bar_pc)));
    }
  }
  std::string msg = fmt::format("barrier deadlock in kernel {}, block ({},{},{}): no warp can run;",
                                kernel_label(k_.name), x_.ctaid.x, x_.ctaid.y, x_.ctaid.z);
  std::uint32_t live_warps = 0;
  for (const WarpState& w : warps_) live_warps += w.done() ? 0 : 1;
  bool first = true;
  for (const auto& [id, who] : waiting) {
    const BarrierState& b = bars_[id];
    const std::uint32_t expected = b.count ? (b.count + kLanes - 1) / kLanes : live_warps;
    msg += fmt::format("{} barrier {} waits for {} warps, {} arrived: {}", first ? "" : ";", id, expected,
                       b.arrivals, fmt::join(who, ", "));
    first = false;
  }
  if (!exited.empty()) msg += fmt::format("; exited: warps {}", fmt::join(exited, ", "));
  throw Error(ErrorKind::kDeadlock, msg);
}

}  // namespace warpscope::exec
