// `warpscope sanitize`'s checks inside the interpreter (docs/sanitize.md): racecheck (hazards on
// shared memory between threads of a CTA, or of a cluster's CTAs, that nothing orders) and synccheck (barriers reached in
// divergent code, invalid warp-synchronous membermasks).
//
// Racecheck sees the interpreter's shared-memory records (a RaceChecker is the CTA runner's
// AccessSink while it checks, and passes every record on to the real sink) and its
// synchronisation: CTA barriers (bar.sync, barrier.sync, bar.red, bar.arrive, named barriers
// with thread counts) and bar.warp.sync (__syncwarp). The order it checks is happens-before, not
// the interpreter's schedule:
//  - between warps, one vector clock per warp: a warp's clock ticks when it arrives at a barrier;
//    the barrier collects the arriving warps' clocks and the warps that wait there take their
//    maximum when it completes. Access A of warp a (at a's tick t) is ordered before a later
//    access of warp b when b's clock has seen a at t or later.
//  - inside a warp, one clock per lane: __syncwarp(mask) sets its lanes' clocks to their maximum
//    plus one, and so does a CTA barrier for the warp's lanes. Lane b's access is ordered after
//    lane a's earlier one when b's clock is past the one a's access had. Two lanes' accesses in
//    one execution of one instruction are never ordered (a store of two lanes to one byte).
// cp.async (Op::kLdgsts's shared side) writes its destination when issued here, but the ISA makes
// it visible only after the issuing thread's cp.async.wait_group/wait_all covering its group (or
// the mbarrier its cp.async.mbarrier.arrive signals): until then any access to those bytes, the
// issuer's own too, is a hazard (an error); at the wait the write counts as made there.
// Bulk copies and the TMA (the async proxy): the shared-memory writes of cp.async.bulk and
// cp.async.bulk.tensor loads, and of bulk copies and reductions into a peer's shared memory, are
// made when issued here but become visible only at the completion of the mbarrier phase their
// complete-tx counts towards: the write belongs to a virtual clock of that mbarrier (one of
// kBulkSlots entries after the warps' in every vector clock), which ticks at each completed phase
// and which a successful wait takes with the mbarrier's other clocks. A thread that did not wait
// for that phase (nor is ordered after one that did) races with the copy, the issuing thread too.
// At issue the copy's bytes are checked as the issuing thread's write (WAR, WAW). The source of a
// shared-to-global bulk operation (cp.async.bulk, .tensor, cp.reduce.async.bulk, bulk_group) is
// read until the issuing thread's cp.async.bulk.wait_group{.read} covers its bulk async-group: a
// write to it before that is a WAR with the copy; at the wait the read counts as made there. The
// source of a copy into a peer is read until the copy's mbarrier phase completes (its clock).
// Cooperative launches: each CTA (cluster) has a checker of its own while it runs (coop.cpp).
// mbarrier arrive-ons carry the arriving warp's clocks to the mbarrier, and a successful
// test_wait/try_wait takes them, as a barrier does (over all phases: it may hide a hazard, never
// invent one); an arrive-on .relaxed or a wait .relaxed carries nothing.
// Clusters (distributed shared memory): the CTAs of a cluster take turns on one runner, and one
// checker follows them all: warps, clocks and cells are the cluster's (rank r's warps after rank
// r - 1's, its bytes at r * stride_), so a thread's access to a peer's shared memory (mapa,
// ld/st.shared::cluster: kDsmem records) is checked against the peer's own threads and every
// other CTA's. What orders accesses of two CTAs: the cluster barrier (barrier.cluster.arrive,
// not .relaxed, collects the arriving warps' clocks per phase; a wait takes its phase's), and an
// mbarrier arrive-on of another CTA with .release.cluster taken by a wait with .acquire.cluster
// (the PTX ISA's morally-strong rule: each side's scope must hold the other thread; a wait of the
// default .cta scope takes only its own CTA's arrivals). The clocks make both cumulative (what a
// CTA barrier ordered before the arrive is ordered before the wait).
// Shadow state per byte of the CTA's shared memory: the last write and up to kReads reads since
// (one per warp, the latest), in the CTA's generation (a new CTA invalidates everything at once);
// a word's 4 bytes share one cell while every access covers all of them (the usual case), and get
// one each once an access covers part of the word.
// A hazard is an access that conflicts (one side writes) with an unordered one of another thread:
// a read after an unordered write is RAW, a write after an unordered read WAR, after an unordered
// write WAW, unless it stores the value the byte already holds (a plain st, whose values are
// known: compute-sanitizer counts 63 WAW hazards for 64 threads each storing its index to one
// int, the bytes that change; tests/hw/data/h200/sanitize). Between warps it is an error; inside one warp, in different instructions, a warning
// (compute-sanitizer's level for hazards of warp-synchronous code).
//
// Determinism: the hazards found depend only on the accesses and the synchronisation, which the
// schedule does not change for a kernel whose hazards are all reported... except which side of
// an unordered pair runs first: the interpreter's schedule is fixed (warps round-robin in index
// order), so the result is the same for any number of host threads; each runner has its own log
// and merge() keeps, per finding, the one of the lowest CTA, as MemcheckLog does.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "common/access.hpp"
#include "exec/program.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::exec {

/// racecheck and synccheck findings of the CTAs one runner ran (or, after merge(), of a launch).
class SanitizerLog {
 public:
  /// Notes a finding of CTA `cta`; one per (tool, kind, first pc, second pc), counted `n` times.
  void note(const SanitizerFinding& f, std::uint32_t cta, std::uint64_t n = 1);
  /// Notes a finding reported once per thread access (initcheck): the first `keep` in CTA order
  /// (then execution order) are kept, the others counted.
  void note_each(const SanitizerFinding& f, std::uint32_t cta, std::size_t keep);
  void merge(const SanitizerLog& other);
  /// Fills stats.sanitizer, ordered by first occurrence, and stats.sanitizer_unkept.
  void finish(LaunchStats& stats) const;

 private:
  struct Item {
    SanitizerFinding finding;
    std::uint32_t cta = 0;
    std::uint64_t seq = 0;
  };
  using Key = std::tuple<std::string, std::string, std::uint32_t, std::uint32_t>;
  std::map<Key, Item> items_;
  std::uint64_t seq_ = 0;
  std::vector<Item> each_;       // note_each's, in (cta, seq) order
  std::size_t each_keep_ = 0;
  std::uint64_t each_total_ = 0;
  // note_each's past the kept ones: what the launch's end needs to drop reads other CTAs write
  // (LaunchStats::sanitizer_unkept_reads), up to kUnkeptCap; past it only counted.
  static constexpr std::size_t kUnkeptCap = std::size_t{1} << 22;  // 4 Mi reads, 64 MiB
  std::vector<LaunchStats::UnkeptRead> unkept_;
  std::uint64_t unkept_unchecked_ = 0;
  void add_unkept(const SanitizerFinding& f, std::uint32_t cta);
};

/// A SanitizerSite for lane `tid` (linear thread index in the CTA) at `pc`.
SanitizerSite sanitizer_site(const KernelImage& k, std::uint32_t pc, std::uint32_t tid, Dim3 block);

/// An mbarrier operand as the cluster names it: (rank + 1) << kClusterRankShift | offset (an
/// offset of the CTA of rank `rank`, or already a .shared::cluster address).
inline std::uint64_t cluster_key(std::uint64_t bar, std::uint32_t rank) {
  return (bar >> kClusterRankShift) != 0 ? bar : ((std::uint64_t{rank} + 1) << kClusterRankShift) | bar;
}

class RaceChecker : public AccessSink {
 public:
  static constexpr unsigned kMaxWarps = 32;  // 1024 threads
  static constexpr unsigned kMaxRanks = 16;  // CTAs of a cluster (machine.hpp, kMaxClusterCtas)
  static constexpr unsigned kReads = 4;      // reads kept per byte since its last write
  static constexpr unsigned kBulkSlots = 16; // mbarriers whose bulk copies are followed, per cluster

  RaceChecker(const KernelImage& k, const Ctx& x, SanitizerLog& log) : k_(k), x_(x), log_(log) {}
  /// The shadow state of a cluster of `ranks` CTAs of `shared_bytes` each (its cells).
  static std::uint64_t shadow_bytes(std::uint64_t shared_bytes, std::uint32_t ranks) {
    return (shared_bytes + 3) / 4 * 4 * ranks * sizeof(Cell);
  }

  /// The sink the records go on to (null: none).
  void set_inner(AccessSink* inner) { inner_ = inner; }
  /// The CTA of cluster rank `rank` (of `ranks`) runs now (a launch without clusters: 0 of 1).
  void enter(std::uint32_t rank, std::uint32_t ranks);
  /// A new CTA (the entered rank) of `threads` threads with `shared_bytes` of shared memory, block
  /// `block`. Rank 0 starts a new cluster: the state of every rank is reset.
  void begin_cta(std::uint32_t threads, std::uint64_t shared_bytes, Dim3 block);
  void on_access(const WarpAccess& a) override;
  /// Warp `warp` counts as arrived at barrier `id` (all its non-exited lanes are there).
  void arrive(std::uint32_t warp, std::uint32_t id);
  /// Barrier `id` completed: `waiting` warps (a bit each) go on past it.
  void release(std::uint32_t id, std::uint32_t waiting);
  /// bar.warp.sync executed by `mask`'s lanes of warp `warp`.
  void sync_warp(std::uint32_t warp, std::uint32_t mask);
  /// cp.async.commit_group by `mask`'s lanes; cp.async.wait_group `n` (wait_all: commit, then 0).
  void async_commit(std::uint32_t warp, std::uint32_t mask);
  void async_wait(std::uint32_t warp, std::uint32_t mask, std::uint32_t n);
  /// mbarrier arrive-on by lane `lane` (instruction `pc`) on the mbarrier at `bar` (a shared
  /// offset of the CTA, or a .shared::cluster address of any CTA of the cluster; cp.async.mbarrier
  /// .arrive: `copies`, the lane's cp.async copies complete first); a wait on it that succeeded
  /// (always on the CTA's own mbarrier).
  void mbar_arrive(std::uint32_t warp, unsigned lane, std::uint64_t bar, bool copies, std::uint32_t pc);
  void mbar_wait(std::uint32_t warp, unsigned lane, std::uint64_t bar, std::uint32_t pc);
  /// barrier.cluster.arrive by `mask`'s lanes in cluster-barrier phase `phase` (`relaxed`:
  /// .relaxed, no release); barrier.cluster.wait by `mask`'s lanes that arrived in `phase`, which
  /// has completed; `phase` has begun (its arrivals start from nothing).
  void cluster_arrive(std::uint32_t warp, std::uint32_t mask, std::uint64_t phase, bool relaxed);
  void cluster_wait(std::uint32_t warp, std::uint32_t mask, std::uint64_t phase);
  void cluster_phase(std::uint64_t phase);
  /// The current phase of the mbarrier at `bar` (as mbar_arrive names it) completed.
  void mbar_complete(std::uint64_t bar);
  /// A bulk copy's (reduction's: `reduce`) write of `n` bytes at CTA-relative offset `off` of the
  /// CTA whose mbarrier `bar` its complete-tx goes to, issued by lane `lane` at `pc`.
  void bulk_write(std::uint32_t warp, unsigned lane, std::uint32_t pc, std::uint64_t bar, std::uint64_t off,
                  std::uint64_t n, bool reduce);
  /// A bulk operation's read of `n` bytes of the CTA's shared memory at `off`, issued by lane
  /// `lane` at `pc`: until the lane's cp.async.bulk.wait_group covers it (a bulk_group operation:
  /// `bar` kNoBar), or until the phase of the mbarrier at `bar` that the copy completes on (a copy
  /// into a peer's shared memory).
  static constexpr std::uint64_t kNoBar = ~std::uint64_t{0};
  void bulk_read(std::uint32_t warp, unsigned lane, std::uint32_t pc, std::uint64_t off, std::uint64_t n,
                 std::uint64_t bar = kNoBar);
  /// cp.async.bulk.commit_group by `mask`'s lanes; cp.async.bulk.wait_group{.read} `n`.
  void bulk_commit(std::uint32_t warp, std::uint32_t mask);
  void bulk_wait(std::uint32_t warp, std::uint32_t mask, std::uint32_t n);

 private:
  // What made an access, and so what orders it before another.
  enum Kind : std::uint8_t {
    kPlain = 0,    // a thread's load or store (or a copy made visible by its thread's wait)
    kCpAsync,      // a cp.async write its thread has not waited for: ordered before nothing
    kBulkWrite,    // a bulk copy's write: ordered before what has seen its mbarrier's virtual clock
    kBulkReduce,   // the same of a bulk reduction (two of them are no hazard: element-wise atomic)
    kBulkRead,     // a bulk_group operation's source read its thread has not waited for
    kBulkSource,   // the source read of a copy into a peer: ordered as kBulkWrite (its mbarrier)
  };
  struct Access {
    std::uint32_t dyn = 0;     // the warp's instruction count (its low 32 bits): one execution of
                               // one instruction
    std::uint32_t pc = 0;
    std::uint32_t wclock = 0;  // the warp's own tick (kBulkWrite/Reduce/Source: the mbarrier's)
    std::uint32_t lclock = 0;  // the lane's clock (kBulkWrite/Reduce/Source: the virtual clock's slot)
    std::uint16_t tid = 0;     // in the cluster: (rank * warps per CTA + warp) * 32 + lane
    bool valid = false;
    Kind kind = kPlain;
  };
  struct Cell {
    std::uint32_t gen = 0;
    std::uint8_t next_read = 0;
    bool value_known = false;  // `value`: the byte the last write stored (plain st only)
    bool split = false;        // a word's first byte: its bytes have cells of their own
    std::uint32_t stamp = 0;   // the last read record that set this warp's read (on_access)
    std::uint8_t value = 0;
    Access write;
    std::array<Access, kReads> reads;
  };
  // Warps are the cluster's (rank * wpc_ + warp: `g` below), and so are the vector clocks (one
  // entry per warp of the cluster, then kBulkSlots of mbarriers: nclk_) and the cells (rank *
  // stride_ + offset).
  std::uint32_t* clock(std::uint32_t g) { return clocks_.data() + std::size_t(g) * nclk_; }
  const std::uint32_t* clock(std::uint32_t g) const { return clocks_.data() + std::size_t(g) * nclk_; }
  bool ordered(const Access& e, std::uint32_t warp, unsigned lane, std::uint32_t dyn) const {
    const std::uint32_t ew = e.tid / kLanes;
    if (ew != warp) return ew < nwarps_ && clock(warp)[ew] >= e.wclock;
    if (e.dyn == dyn) return false;  // two lanes of one instruction
    return lanes_[warp][lane] > e.lclock;
  }
  /// Whether `e` is ordered before an access of thread `tid` (lane `lane` of `warp`, in execution
  /// `dyn`): a thread's own plain accesses are, pending copies are not, a bulk copy's write when
  /// the warp has seen its mbarrier's phase complete.
  bool before(const Access& e, std::uint32_t warp, unsigned lane, std::uint32_t dyn, std::uint16_t tid) const {
    switch (e.kind) {
      case kPlain: return e.tid == tid || ordered(e, warp, lane, dyn);
      case kBulkWrite:
      case kBulkReduce:
      case kBulkSource: return clock(warp)[nwarps_ + e.lclock] >= e.wclock;
      default: return false;
    }
  }
  void place_read(Cell& c, const Access& me, std::uint32_t warp);
  /// The virtual clock of the mbarrier `key` and the tick its next phase completion gives (false:
  /// no clock left for it, kBulkSlots are taken).
  bool bulk_clock(std::uint64_t key, std::uint32_t& slot, std::uint32_t& tick);
  // A write's checks and update of one byte's cell (n = 1) or a whole word's (n = 4).
  void visit_write(Cell& c, const Access& me, std::uint64_t off, std::uint64_t i, unsigned n, const Inst* st,
                   unsigned elem, std::uint32_t warp, unsigned lane, std::uint32_t dyn);
  void hazard(const char* kind, const Access& earlier, bool earlier_write, const Access& later, bool later_write,
              std::uint64_t offset);

  const KernelImage& k_;
  const Ctx& x_;
  SanitizerLog& log_;
  AccessSink* inner_ = nullptr;
  // One cell per byte of every CTA of the cluster (rank r's at r * stride_), and 4 bytes' state in their word's first cell (the others keep only their
  // `value`) until an access covers part of the word: then it splits into a cell per byte for
  // the rest of the CTA. word() is the word's first cell (reset in a new CTA, whole again).
  std::vector<Cell> cells_;
  std::uint64_t limit_ = 0;  // the bytes of shared memory checked per CTA (the largest CTA's)
  std::uint64_t stride_ = 0; // limit_ rounded up to a word: rank r's cells start at r * stride_
  Cell& word(std::uint64_t off) {
    Cell& c = cells_[off & ~std::uint64_t{3}];
    if (c.gen != gen_) {
      c.gen = gen_;
      c.next_read = 0;
      c.value_known = false;
      c.split = false;
      c.stamp = 0;
      c.write.valid = false;
      for (Access& r : c.reads) r.valid = false;
    }
    return c;
  }
  Cell& byte_cell(std::uint64_t off);  // byte `off`'s own cell (its word split)
  // Byte i of an access of `width` at cell `off` starts a whole word of it (inside limit_).
  bool whole(std::uint64_t off, std::uint64_t i, std::uint64_t width) const {
    return (off & 3) == 0 && i + 4 <= width && off % stride_ + 4 <= limit_;
  }
  std::uint32_t gen_ = 0;
  std::uint32_t nwarps_ = 0;  // of the cluster: ranks_ * wpc_
  std::uint32_t nclk_ = 0;    // entries of a vector clock: nwarps_ + kBulkSlots
  std::uint32_t slots_ = 0;   // virtual clocks given to mbarriers
  std::uint32_t wpc_ = 0;     // warps per CTA
  std::uint32_t ranks_ = 1, next_ranks_ = 1;
  std::uint32_t rank_ = 0;    // the CTA running now
  std::uint32_t base_ = 0;    // its first warp in the cluster
  std::array<Dim3, kMaxRanks> blocks_{};
  std::uint32_t records_ = 0;  // read records of this CTA (Cell::stamp)
  // Addresses one read record has handled, direct-mapped by address, each tagged with the
  // record's stamp (an entry of another record, or overwritten by a collision, means not seen).
  struct Seen {
    std::uint64_t addr = 0;
    std::uint32_t stamp = 0;
    std::uint32_t need = 0;  // clean_: the lowest lane clock for which the address is clean
    std::uint8_t last = 0;   // clean_: the highest lane of the record at the address
    bool clean = false;      // clean_: found clean (for lane clocks from `need`)
  };
  using SeenTable = std::array<Seen, 64>;
  static std::size_t seen_slot(std::uint64_t addr) { return static_cast<std::size_t>((addr ^ (addr >> 6)) & 63); }
  static bool seen(const SeenTable& t, std::uint64_t addr, std::uint32_t stamp) {
    const Seen& e = t[seen_slot(addr)];
    return e.stamp == stamp && e.addr == addr;
  }
  static void mark(SeenTable& t, std::uint64_t addr, std::uint32_t stamp) { t[seen_slot(addr)] = Seen{addr, stamp}; }
  SeenTable clean_{};  // a read record's addresses, those found clean (no hazard for lanes reading them)
  SeenTable done_{};   // addresses whose read slots were updated (when clean_ collided)
  std::vector<std::uint32_t> clocks_;                // per warp, nwarps_ entries each
  std::vector<std::array<std::uint32_t, kLanes>> lanes_;  // per warp, per lane
  std::vector<std::uint32_t> barrier_;               // clocks collected per rank and barrier id (16)
  std::vector<std::uint32_t> scratch_;               // release(): a barrier's clocks
  std::uint32_t* barrier(std::uint32_t id) { return barrier_.data() + (std::size_t(rank_) * 16 + id) * nwarps_; }
  // cp.async: per warp and lane, the groups committed and the copies not yet waited for.
  struct Pending {
    std::uint64_t off = 0;
    std::uint32_t dyn = 0, group = 0, width = 0;
  };
  std::vector<std::array<std::uint32_t, kLanes>> committed_;
  std::vector<std::array<std::vector<Pending>, kLanes>> pending_;
  // The same for bulk async-groups (cp.async.bulk.commit_group) and their source reads.
  std::vector<std::array<std::uint32_t, kLanes>> bulk_committed_;
  std::vector<std::array<std::vector<Pending>, kLanes>> bulk_pending_;
  void complete(std::uint32_t warp, unsigned lane, std::uint32_t below);
  // mbarriers by .shared::cluster address ((rank + 1) << kClusterRankShift | offset): the clocks
  // their arrivals carried, those of its own CTA's threads (`near`) and those of other CTAs'
  // threads that arrived with .release.cluster (`far`: only a wait with .acquire.cluster takes them,
  // the PTX ISA's morally-strong rule).
  struct MbarClock {
    std::vector<std::uint32_t> near, far;
    std::vector<std::uint32_t> lanes;  // per warp: the highest lane clock arrived
    std::uint32_t completed = 0;       // phases completed (mbar_complete)
    int slot = -1;                     // its virtual clock (bulk copies), or none yet
  };
  std::map<std::uint64_t, MbarClock> mbars_;
  // Flags: per shared word (cell of its first byte), the clocks strong stores and atomics
  // published to it (release); strong loads and atomics take them (acquire). Lenient: scopes and
  // fences are not required, as for global memory (global_race.hpp).
  std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> flags_;
  void flag_sync(const WarpAccess& a, bool release, bool acquire);
  // The cluster barrier: the clocks of each phase's arrivals (by the phase's parity), and per warp
  // the highest lane clock arrived.
  std::array<std::vector<std::uint32_t>, 2> cluster_{}, cluster_lanes_{};
};

}  // namespace warpscope::exec
