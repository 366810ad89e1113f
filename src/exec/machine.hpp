// The SIMT machine: warps with reconvergence stacks, CTAs with barriers, and one CtaRunner per
// host thread that runs CTAs of a launch (docs/exec.md).
//
// A warp's lanes normally form one "split": a reconvergence stack whose top entry says which
// lanes run at which pc. A divergent branch pushes one entry per path, each carrying the
// branch's immediate post-dominator as its reconvergence pc; an entry is popped when it reaches
// that pc, so its lanes rejoin the entry below. Calls push a frame entry. When only some of a
// warp's non-exited lanes reach a barrier (the others wait at a reconvergence point, e.g. after
// an early return), the split forks: the lanes at the barrier wait, the others run on, and the
// two merge again where their stacks meet.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "exec/memcheck.hpp"
#include "exec/global_race.hpp"
#include "exec/initcheck.hpp"
#include "exec/sanitize.hpp"
#include "exec/program.hpp"

namespace warpscope::exec {

struct Segment;  // exec/segments.hpp

inline constexpr unsigned kBarriers = 16;
/// The most CTAs a thread-block cluster may have (the H100's non-portable limit).
inline constexpr unsigned kMaxClusterCtas = 16;
/// A warp's polls are watched for spins (note_poll) in a cooperative launch, and in any launch
/// once the warp has run this many instructions (a CTA that runs that long may be hung).
inline constexpr std::uint64_t kWatchPolls = 1u << 20;
/// Warp instructions between two looks at the stop flags (CtaRunner::sweep, stop.cpp).
/// A thread's local memory on the GPU is its frame plus its stack (cudaLimitStackSize, 1024 bytes
/// by default on the H100): an access past the frame but inside that window does not fault. It
/// proceeds and memcheck reports it (memaccess.hpp).
inline constexpr std::uint64_t kStackWindowBytes = 1024;
inline constexpr std::uint64_t kCheckInstructions = 1u << 16;
/// Patient epochs a spinning warp may evolve (run its whole budget without its state repeating)
/// while its poll returns the same value, before the spin counts as a cycle (note_poll).
inline constexpr std::uint32_t kEvolvingEpochs = 8;

struct Entry {
  enum Kind : std::uint8_t { kNormal, kCallFrame };
  std::uint32_t pc = 0;
  std::uint32_t rpc = kNoPc;  // reconvergence pc; kNoPc: none (only exits remove the lanes)
  std::uint32_t mask = 0;
  Kind kind = kNormal;
  // kCallFrame: the caller's function and frame base, the call (for its results), and the
  // saved registers of a recursive activation (index into WarpState::saved, or kNoPc).
  std::uint32_t func = 0;
  std::uint32_t call = 0;
  std::uint32_t save = kNoPc;
  std::uint64_t base = 0;

  bool same_place(const Entry& o) const {
    return pc == o.pc && rpc == o.rpc && kind == o.kind && func == o.func && call == o.call &&
           base == o.base;
  }
};

enum class SplitState : std::uint8_t { kRunnable, kBarrier, kWaitMerge, kWarpSync };

struct Split {
  std::vector<Entry> stack;
  SplitState state = SplitState::kRunnable;
  bool no_wait = false;         // resumed to make progress: do not wait for a merge
  // kBarrier: what it waits for.
  std::uint32_t bar_id = 0;
  std::uint32_t bar_pc = 0;
  std::uint32_t bar_mask = 0;
  std::uint32_t bar_count = 0;  // thread count operand (0: all threads)
  // kWarpSync: the warp-synchronous instruction it waits at and the lanes that execute it
  // (warp_sync.cpp); the instruction has been counted, the split resumes after it.
  std::uint32_t sync_pc = 0;
  std::uint32_t sync_mask = 0;

  std::uint32_t lanes() const {
    std::uint32_t m = 0;
    for (const Entry& e : stack) m |= e.mask;
    return m;
  }
};

struct WarpState {
  std::uint32_t index = 0;
  std::uint32_t exists = 0;   // lanes that are threads of the CTA
  std::uint32_t live = 0;     // lanes that have not exited
  std::vector<Split> splits;
  std::array<std::uint32_t, kBarriers> arrived{};  // lanes that arrived, per barrier
  std::uint64_t instructions = 0;
  std::uint64_t thread_instructions = 0;
  std::vector<std::uint64_t> regs;
  std::vector<std::uint8_t> local;  // kLanes x (the frame + kStackWindowBytes)
  bool local_overrun = false;       // the window past the frame was written: zeroed at the next CTA
  std::vector<std::vector<std::uint64_t>> saved;  // registers of suspended recursive activations
  // Kernels with alloca/stacksave/stackrestore: each lane's dynamic stack pointer (the slot
  // KernelImage::sp_slot) at each call it is inside, restored at the return (ops_stack.cpp).
  std::array<std::vector<std::uint64_t>, kLanes> sp_saved;
  HeldRecords held;           // records of instructions with lane groupings (compiled.cpp)
  ClockState clock;           // %clock reads (ops_move.cpp)
  // Spin detection in cooperative launches (coop.cpp) and in warps that have run kWatchPolls
  // instructions (hangs, CtaRunner::run): the last result of each poll (Ctl::kPoll) the warp ran
  // recently; a poll that returns what it returned last time, to the same lanes, makes the warp
  // `spinning` until a poll returns something new, it arrives at a barrier, or lanes exit.
  // In a patient sweep or turn, a spinning warp proves that it is in a cycle: at a repeated poll
  // its registers, its local memory and the CTA's shared memory are what they were the last time
  // there (`state`, hashed in the patient epoch `state_epoch`); such a warp can only leave its
  // loop when another thread writes what it polls (`cycling`). A warp whose state differs is
  // `evolving` for the rest of that epoch (a wait with a counter, which may end by itself).
  struct PollSeen {
    std::uint32_t pc = kNoPc;
    std::uint32_t mask = 0;
    std::uint64_t hash = 0;
    std::uint64_t state = 0;
    std::uint64_t state_epoch = 0;
  };
  std::array<PollSeen, 4> polls{};
  std::uint32_t poll_next = 0;
  // The warp's last mbarrier wait that did not complete (Ctl::kWait, cta_wait.cpp): the
  // instruction, the lanes it failed for, and a hash of their mbarrier words and operands; the
  // same again means the warp spins.
  PollSeen wait{};
  std::uint32_t poll_tick = 0;  // polls run once watched outside cooperative launches (1 in 8 noted)
  // The last watched poll read memory other CTAs may write (not only the CTA's own shared
  // memory): a cycle there is a hang (CtaStop), not a deadlock of the CTA (CtaRunner::run).
  bool spin_global = false;
  bool spinning = false;
  bool cycling = false;
  std::uint64_t evolving_epoch = 0;
  // Patient epochs in which the warp evolved while its poll kept returning the same value. A
  // wait whose state changes only through a counter or %clock reads (libcu++'s backoff) would
  // evolve forever: after kEvolvingEpochs such epochs its spin counts as a cycle.
  std::uint32_t evolving_count = 0;
  std::uint32_t spin_pc = kNoPc;  // the poll that repeated
  // barrier.cluster (cluster.cpp): per lane, 1 + the cluster barrier phase in which the lane
  // arrived and has not yet waited; 0: none.
  std::array<std::uint32_t, kLanes> cluster_arrived{};
  bool done() const { return live == 0; }
};

/// Per-barrier state of a CTA.
struct BarrierState {
  std::uint32_t arrivals = 0;       // warps that arrived in the current phase
  std::uint32_t count = 0;          // expected threads (0: all non-exited warps)
  std::uint32_t red_popc = 0;       // bar.red accumulators
  bool red_and = true, red_or = false;
};

/// What the host threads running one launch share (launch.cpp, coop.cpp): the requests to stop
/// that every CtaRunner polls (check_stop: every 2^16 warp instructions and at each CTA's start)
/// and the progress counters.
struct LaunchShared {
  const std::atomic<int>* stop = nullptr;  // LaunchOptions::stop: nonzero stops every CTA
  LaunchProgress* progress = nullptr;      // never null while CTAs run
  // A CTA failed: CTAs with a higher linear index stop (their results are not delivered).
  std::atomic<std::uint64_t> abort_above{std::numeric_limits<std::uint64_t>::max()};
  // Every CTA with a lower linear index has finished (the hang rule of CtaRunner::run).
  std::atomic<std::uint64_t> finished_below{0};
  // --racecheck-memory all: the launch's one global-memory race checker (global_race.hpp)
  GlobalRaceChecker* global_race = nullptr;
  // Dynamic parallelism (cdp.cpp): parameter buffers handed out and not yet launched, by
  // address, and the launches made, in order.
  struct CdpBuffer {
    std::string kernel;  // empty: a CDP1 buffer (the kernel comes with the launch)
    Dim3 grid, block;
    std::uint32_t shared_bytes = 0;
    std::uint64_t bytes = 0;
  };
  std::mutex cdp_mutex;
  std::map<std::uint64_t, CdpBuffer> cdp_buffers;
  std::vector<DeviceLaunch> device_launches;
};

/// Thrown by a CtaRunner that ends its CTA before the end (not an Error: launch.cpp and coop.cpp
/// turn it into LaunchStopped, with the warps' places that the runner still holds).
struct CtaStop {
  enum class Kind : std::uint8_t {
    kRequested,  // LaunchShared::stop
    kAbort,      // a lower CTA failed
    kHang,       // every live warp of the CTA spins on memory no running thread changes
  };
  Kind kind = Kind::kRequested;
  int code = 0;
};

struct CtaState;

/// The CTAs of one thread-block cluster while they run (cluster.cpp): their states by rank and
/// the cluster barrier (barrier.cluster.arrive / wait): `phase` counts completed phases;
/// `remaining` threads have neither arrived in the current phase nor exited; `live` threads have
/// not exited.
struct ClusterCtx {
  std::vector<CtaState*> by_rank;
  std::uint32_t phase = 0;
  std::uint64_t remaining = 0;
  std::uint64_t live = 0;
  // racecheck of a cooperative launch: its CTAs (clusters) take turns, each cluster has its own
  // checker while one of its CTAs runs (created at its first turn, dropped when all have finished).
  std::unique_ptr<RaceChecker> race;
  std::uint64_t race_bytes = 0;  // its shadow state (RaceChecker::shadow_bytes)
  bool race_skipped = false;     // not checked: the launch's checkers would hold too much
};

/// Launch-wide, read-only while CTAs run.
struct LaunchConfig {
  const KernelImage* kernel = nullptr;
  const GlobalMemory* global = nullptr;
  const ObjectTable* objects = nullptr;
  Dim3 grid, block;
  std::uint64_t dynamic_shared = 0;
  std::vector<std::uint8_t> params;  // the kernel parameter buffer
  bool atomic_global = false;
  std::uint32_t launch_id = 0;
  std::uint64_t yield_budget = 1u << 20;  // instructions a warp runs before it lets others run
  // ... in a sweep that is not patient (cta.cpp): warps take short turns, so that the memory model
  // sees their accesses interleaved as a GPU's warps make them (each warp's first instructions
  // before another's loop has run far; docs/exec.md "CTAs and barriers").
  std::uint64_t turn_budget = 1u << 10;
  bool memcheck_strict = false;           // MemcheckMode::kStrict: unallocated accesses fault
  SanitizeChecks sanitize;                // racecheck / synccheck (sanitize.hpp)
  InitShadow* init = nullptr;             // initcheck (initcheck.hpp); null: off
  // Cooperative launches: CTAs are interleaved (coop.cpp) and %envreg1:%envreg2 hold the grid
  // workspace's address that cooperative_groups::this_grid() reads; 0 otherwise.
  bool cooperative = false;
  std::uint64_t grid_workspace = 0;
  DeviceHeap* heap = nullptr;             // device malloc/free, for kernels with uses_heap
  LaunchShared* shared = nullptr;         // stop requests and progress (null: neither)
  Dim3 cluster{};                         // CTAs per cluster (1x1x1: none)
  bool explicit_cluster = false;          // %is_explicit_cluster
  std::uint32_t sink_cta_every = 1;       // only CTAs whose index is a multiple emit records
};

/// A CTA of a cooperative launch between its turns (coop.cpp): everything CtaRunner keeps per
/// CTA, swapped in for a turn and out after it.
struct CtaState {
  std::uint32_t linear = 0;
  bool started = false, finished = false;
  std::vector<WarpState> warps;
  std::vector<std::uint8_t> shared;
  std::array<BarrierState, kBarriers> bars{};
  std::uint32_t bars_pending = 0;
  bool barrier_activity = false;
  PrintfText text;
  ClusterCtx* cluster = nullptr;  // its cluster (cluster launches), or null
  std::uint32_t rank = 0;         // %cluster_ctarank
};

/// Runs CTAs, one at a time, with buffers it keeps between CTAs.
class CtaRunner {
 public:
  explicit CtaRunner(const LaunchConfig& cfg);

  /// Runs CTA `linear` to completion; records go to `sink` (may be null), printf text is
  /// appended to `printf_out`. Throws warpscope::Error for a fault or a deadlock.
  void run(std::uint32_t linear, AccessSink* sink, PrintfText* printf_out);

  /// One turn of a CTA of a cooperative launch (coop.cpp): starts it on its first turn, then runs
  /// its warps until it finishes or a sweep over them makes no progress (every live warp waits
  /// at a barrier or spins on a poll), or a warp used its instruction budget. `patient`: spinning
  /// warps are not stopped but run their budget (to tell a long wait from a deadlock).
  enum class Turn : std::uint8_t { kFinished, kProgress, kStuck };
  Turn turn(CtaState& cta, AccessSink* sink, bool patient);
  /// What the live warps of a suspended CTA wait for, for the grid deadlock message.
  std::string describe(const CtaState& cta) const;
  std::string describe(const std::vector<WarpState>& warps) const;
  /// cluster.cpp: a CTA of a cluster gets its shared memory and warps before any CTA of the
  /// cluster runs (so that its peers can reach its shared memory from their first turn).
  void prepare(CtaState& cta, AccessSink* sink);

  /// stop.cpp: where the live warps of CTA `linear` are (the runner's own CTA after CtaStop,
  /// or a suspended CTA of a cooperative launch), added to `places`.
  void add_places(std::uint32_t linear, std::vector<WarpPlace>& places) const { add_places(linear, warps_, places); }
  void add_places(std::uint32_t linear, const std::vector<WarpState>& warps, std::vector<WarpPlace>& places) const;
  /// Warp instructions of the CTA being run (not yet in instructions()).
  std::uint64_t running_instructions() const;
  std::uint64_t running_thread_instructions() const;
  /// Adds the instructions not yet counted to LaunchShared::progress.
  void flush_progress();
  /// The first CTA of the chunk of consecutive CTAs this runner is running (launch.cpp): the hang
  /// rule waits until every CTA before it has finished.
  void set_chunk_start(std::uint64_t first) { chunk_start_ = first; }
  /// Called on the runner's thread at each look at the stop flags (every kCheckInstructions warp
  /// instructions): launch.cpp merges what a long CTA's shard holds when the CTA is next in order.
  void set_check_hook(std::function<void()> hook) { check_hook_ = std::move(hook); }
  /// Whether every CTA before this runner's chunk has been delivered (stop.cpp).
  bool chunk_is_next() const { return lower_ctas_finished(); }

  std::uint64_t instructions() const { return instructions_; }
  std::uint64_t thread_instructions() const { return thread_instructions_; }
  /// Clock skew (ClockState::skew) of the warps this runner finished: sum and maximum.
  std::uint64_t clock_skew_sum() const { return clock_skew_sum_; }
  std::uint64_t clock_skew_max() const { return clock_skew_max_; }
  /// The most warp instructions one CTA this runner ended executed (LaunchStats::cta_instructions_max).
  std::uint64_t cta_instructions_max() const { return cta_instructions_max_; }
  /// Per instruction (index into KernelImage::code = WarpAccess::pc): warp-level executions and
  /// the sum of their active lanes, over every CTA this runner ran.
  std::vector<std::uint64_t> pc_instructions() const;
  std::vector<std::uint64_t> pc_thread_instructions() const;
  /// The accesses outside every allocation that proceeded, over every CTA this runner ran.
  const MemcheckLog& memcheck() const { return memcheck_; }
  /// racecheck and synccheck findings, over every CTA this runner ran.
  const SanitizerLog& sanitizer() const { return sanlog_; }

 private:
  enum class RunResult : std::uint8_t { kDone, kBlocked, kWaitMerge, kYield, kSyncWait };
  bool coop_ = false;

  // warp.cpp
  RunResult run_split(WarpState& w, Split& s);
  void enter_split(WarpState& w, Split& s);
  bool settle(WarpState& w, Split& s);
  void do_call(WarpState& w, Split& s, std::uint32_t call, std::uint32_t pc, std::uint32_t m);
  std::uint32_t indirect_target(const CallInfo& ci, std::uint64_t address, std::uint32_t pc, unsigned lane);
  void do_return(WarpState& w, Split& s, const Entry& frame);
  void builtin_call(WarpState& w, const Inst& in, std::uint32_t pc, std::uint32_t m);
  // cdp.cpp
  void cdp_call(WarpState& w, const CallInfo& ci, std::uint32_t pc, std::uint32_t m);

  // warp_sync.cpp
  bool warp_sync(WarpState& w, const Inst& in, std::uint32_t pc, std::uint32_t m, std::uint32_t active);
  void on_sync_wait(WarpState& w, std::size_t split);
  void resolve_syncs(WarpState& w);
  [[noreturn]] void sync_stuck(WarpState& w);
  void fork(WarpState& w, std::size_t split, std::uint32_t keep);

  // cta.cpp
  void begin_cta(std::uint32_t linear, AccessSink* sink, PrintfText* printf_out);
  void enter_cta(std::uint32_t linear, AccessSink* sink, PrintfText* printf_out);
  bool sweep();  // runs each live warp once; false when none could run
  bool all_done() const;
  void end_cta();
  void swap_state(CtaState& cta);
  void init_warps(std::uint32_t linear);
  bool run_warp(WarpState& w);
  void on_blocked(WarpState& w, std::size_t split);
  bool check_warp_arrival(WarpState& w, std::uint32_t id);
  void check_barriers();
  void release(std::uint32_t id);
  bool try_merge(WarpState& w, std::size_t split);
  [[noreturn]] void deadlock();
  void point_ctx(WarpState& w);
  // stop.cpp: throws CtaStop when the launch is asked to stop or a lower CTA failed; publishes
  // progress first.
  void check_stop();
  bool lower_ctas_finished() const;
  // cta.cpp: some live warp spins on a poll of memory other CTAs may write (WarpState::spin_global)
  bool spins_on_global() const;
  // warp.cpp: a poll's result in a cooperative launch; true when it repeats (a spin)
  bool note_poll(WarpState& w, const Inst& in, std::uint32_t pc, std::uint32_t mask);
  // cluster.cpp: barrier.cluster.arrive/wait (true: the warp goes on; false: it waits, its pc
  // unchanged), lanes that exit (they no longer hold the cluster barrier up), and the cluster's
  // shared memories for the Ctx of the CTA about to run.
  bool cluster_barrier(WarpState& w, const Inst& in, std::uint32_t pc, std::uint32_t mask);
  void cluster_exited(WarpState& w, std::uint32_t lanes);
  void enter_cluster(ClusterCtx* cluster, std::uint32_t rank);
  ClusterCtx* cluster_ = nullptr;
  ClusterCtx own_cluster_;  // a launch without clusters: each CTA is a cluster of one
  std::array<std::uint8_t*, kMaxClusterCtas> peer_shared_{};
  // cta_wait.cpp: an mbarrier wait's result; true when it failed for some lane (the warp yields).
  // What the warps of the current CTA wait for, and the deadlock of mbarrier waits.
  bool note_wait(WarpState& w, const Inst& in, std::uint32_t pc, std::uint32_t mask);
  std::string describe_mbarrier_wait(WarpState& w);
  bool polls_own_shared(const WarpState& w, const Inst& in, std::uint32_t mask) const;
  [[noreturn]] void wait_deadlock();

  const LaunchConfig& cfg_;
  const KernelImage& k_;
  Ctx x_;
  std::vector<WarpState> warps_;
  std::vector<std::uint8_t> shared_;
  std::array<BarrierState, kBarriers> bars_{};
  std::uint32_t bars_pending_ = 0;  // bit id: barrier id has arrivals (bars_[id].arrivals > 0)
  std::uint32_t cur_func_ = 0;  // function of the running split
  bool released_ = false;       // a barrier completed: the sweep restarts at warp 0
  bool barrier_activity_ = false;  // some warp has arrived at a barrier in this CTA
  // Cooperative turns (coop.cpp): progress_ is set when a warp runs while not spinning, arrives
  // at a barrier, is released from one, or has lanes exit; budget_hit_ when a warp used its
  // instruction budget; patient_: spinning warps run on instead of yielding.
  bool progress_ = false;
  bool budget_hit_ = false;
  bool patient_ = false;
  std::uint64_t patient_epoch_ = 0;  // counts patient sweeps and turns (WarpState::PollSeen)
  void set_patient(bool patient) {
    if (patient && !patient_) ++patient_epoch_;
    patient_ = patient;
  }
  std::uint64_t state_hash(const WarpState& w) const;  // stop.cpp
  std::uint64_t unreported_ = 0;    // warp instructions not yet added to LaunchShared::progress
  std::uint64_t chunk_start_ = 0;   // set_chunk_start
  std::function<void()> check_hook_;  // set_check_hook
  std::vector<std::uint64_t> regs_template_;  // a warp's register file at start
  std::uint64_t instructions_ = 0;
  std::uint64_t thread_instructions_ = 0;
  std::uint64_t clock_skew_sum_ = 0, clock_skew_max_ = 0;
  std::uint64_t cta_instructions_max_ = 0;
  std::vector<std::uint64_t> pc_warp_, pc_thread_;
  const Segment* segs_ = nullptr;  // native segments by pc (segments.hpp), once looked up
  bool segs_checked_ = false;
  bool sanitizing_ = false;        // a sanitizer checks this launch: profiled CTAs interpret
  MemcheckLog memcheck_;
  // sanitize.hpp: findings, the race checker (racecheck of launches whose CTAs run one at a time)
  // and synccheck's notes.
  SanitizerLog sanlog_;
  std::unique_ptr<RaceChecker> own_race_;  // CTAs one at a time, or one cluster's
  RaceChecker* race_ = nullptr;            // the one of the CTA running now (coop.cpp: its cluster's)
  std::uint64_t race_bytes_ = 0;           // coop.cpp: the shadow state of the checkers held now
  static constexpr std::uint64_t kCoopRaceBytes = 2ull << 30;  // ... at most
  std::unique_ptr<GlobalRaceSink> global_race_;
  std::unique_ptr<InitChecker> init_;  // initcheck.hpp
  void note_sync(const char* kind, std::uint32_t pc, std::uint32_t tid, std::string detail);
  void check_divergent_block(std::uint32_t id);
};

/// Device printf: formats one lane's `vprintf(fmt, args)` (printf.cpp). Returns the number of
/// arguments consumed, or -1 when the format string cannot be read. `fifo_bytes` gets the bytes
/// the call takes in the printf FIFO (printf.cpp says how they are counted).
int format_printf(Ctx& x, const Inst& in, unsigned lane, std::uint64_t fmt_addr, std::uint64_t args_addr,
                  std::string& out, std::uint64_t* fifo_bytes = nullptr);
/// Reads a NUL-terminated string at a generic address as `lane` sees it (for printf %s and
/// assert messages); stops at the end of the memory it lies in.
std::string read_c_string(Ctx& x, unsigned lane, std::uint64_t generic_addr, std::size_t limit = 4096);

}  // namespace warpscope::exec
