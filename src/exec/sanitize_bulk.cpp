// racecheck of bulk copies and the TMA (sanitize.hpp): the async proxy's writes into shared memory,
// visible at their mbarrier phase's completion, and the source reads of bulk_group operations,
// done at the issuing thread's cp.async.bulk.wait_group. The PTX ISA (9.7.9.25, cp.async.bulk;
// 9.7.13.15.2, the mbarrier's tx-count): the writes of a copy that signals complete-tx on an
// mbarrier are made visible to the threads that observe the completion of the phase it counts
// towards (test_wait/try_wait), and a bulk_group operation's source may be written again once
// cp.async.bulk.wait_group.read says its group has completed reading it.
#include <algorithm>
#include <bit>

#include "exec/sanitize.hpp"

namespace warpscope::exec {

void RaceChecker::mbar_complete(std::uint64_t bar) {
  if (nwarps_ == 0) return;
  MbarClock& m = mbars_[cluster_key(bar, rank_)];
  ++m.completed;
  if (m.slot < 0) return;
  // A wait that sees this phase complete sees the writes of the copies it counted.
  if (m.near.size() < nclk_) m.near.resize(nclk_, 0);
  std::uint32_t& v = m.near[nwarps_ + static_cast<std::uint32_t>(m.slot)];
  v = std::max(v, m.completed);
}

bool RaceChecker::bulk_clock(std::uint64_t key, std::uint32_t& slot, std::uint32_t& tick) {
  MbarClock& m = mbars_[key];
  if (m.slot < 0 && slots_ < kBulkSlots) m.slot = static_cast<int>(slots_++);
  if (m.slot < 0) return false;
  slot = static_cast<std::uint32_t>(m.slot);
  tick = m.completed + 1;  // the copy's complete-tx counts towards the current phase
  return true;
}

void RaceChecker::bulk_write(std::uint32_t warp, unsigned lane, std::uint32_t pc, std::uint64_t bar, std::uint64_t off,
                             std::uint64_t n, bool reduce) {
  if (warp >= wpc_ || nwarps_ == 0) return;
  const std::uint32_t g = base_ + warp;
  const std::uint64_t key = cluster_key(bar, rank_);
  const std::uint64_t owner = (key >> kClusterRankShift) - 1;  // the mbarrier's CTA, the destination's
  if (owner >= ranks_) return;
  std::uint32_t slot = 0, tick = 0;
  const bool kept = bulk_clock(key, slot, tick);
  const auto dyn = static_cast<std::uint32_t>(x_.clock != nullptr ? *x_.clock : 0);
  // The copy's write, checked at issue against what the issuing thread is not ordered after (WAR,
  // WAW), then held until its phase completes: the next one (the copy's complete-tx counts
  // towards the current phase). Past kBulkSlots mbarriers the write is checked at issue only and
  // not kept (a miss, never a false report).
  Access me;
  me.dyn = dyn;
  me.pc = pc;
  me.wclock = tick;
  me.lclock = slot;
  me.tid = static_cast<std::uint16_t>(g * kLanes + lane);
  me.valid = true;
  me.kind = reduce ? kBulkReduce : kBulkWrite;
  const std::uint64_t base = owner * stride_ + off, end = owner * stride_ + limit_;
  for (std::uint64_t i = 0, step = 1; i < n && base + i < end; i += step) {
    const std::uint64_t at = base + i;
    Cell& w = word(at);
    step = !w.split && whole(at, i, n) ? 4 : 1;
    Cell& c = step == 4 ? w : byte_cell(at);
    visit_write(c, me, at, i, static_cast<unsigned>(step), nullptr, 0, g, lane, dyn);
    if (!kept) c.write.valid = false;
  }
}

void RaceChecker::bulk_read(std::uint32_t warp, unsigned lane, std::uint32_t pc, std::uint64_t off, std::uint64_t n,
                            std::uint64_t bar) {
  if (warp >= wpc_ || nwarps_ == 0) return;
  const std::uint32_t g = base_ + warp;
  const auto dyn = static_cast<std::uint32_t>(x_.clock != nullptr ? *x_.clock : 0);
  Access me;
  me.dyn = dyn;
  me.pc = pc;
  me.wclock = clock(g)[g];
  me.lclock = lanes_[g][lane];
  me.tid = static_cast<std::uint16_t>(g * kLanes + lane);
  me.valid = true;
  me.kind = kBulkRead;
  const bool grouped = bar == kNoBar;
  if (!grouped) {
    // A copy into a peer: its read is done when its mbarrier phase completes (the peer's wait,
    // and what is ordered after it, sees that). Past kBulkSlots: the issuing thread's read at
    // issue (a write ordered after the issue is not reported: a miss, never a false report).
    std::uint32_t slot = 0, tick = 0;
    if (bulk_clock(cluster_key(bar, rank_), slot, tick)) {
      me.kind = kBulkSource;
      me.wclock = tick;
      me.lclock = slot;
    } else {
      me.kind = kPlain;
    }
  }
  // The copy reads the bytes after its issue: a write the issuing thread is not ordered after is
  // a RAW with it.
  const std::uint64_t base = std::uint64_t{rank_} * stride_ + off, end = std::uint64_t{rank_} * stride_ + limit_;
  for (std::uint64_t i = 0, step = 1; i < n && base + i < end; i += step) {
    const std::uint64_t at = base + i;
    Cell& w = word(at);
    step = !w.split && whole(at, i, n) ? 4 : 1;
    Cell& c = step == 4 ? w : byte_cell(at);
    if (c.write.valid && !before(c.write, g, lane, dyn, me.tid))
      for (unsigned j = 0; j < step; ++j) hazard("RAW", c.write, true, me, false, at + j);
    place_read(c, me, g);
  }
  if (grouped) bulk_pending_[g][lane].push_back(Pending{base, dyn, bulk_committed_[g][lane], static_cast<std::uint32_t>(n)});
}

void RaceChecker::bulk_commit(std::uint32_t warp, std::uint32_t mask) {
  if (warp >= wpc_) return;
  for (std::uint32_t b = mask; b != 0; b &= b - 1) ++bulk_committed_[base_ + warp][std::countr_zero(b)];
}

void RaceChecker::bulk_wait(std::uint32_t warp, std::uint32_t mask, std::uint32_t n) {
  if (warp >= wpc_) return;
  const std::uint32_t g = base_ + warp;
  for (std::uint32_t b = mask; b != 0; b &= b - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(b));
    const std::uint32_t committed = bulk_committed_[g][lane];
    const std::uint32_t below = committed >= n ? committed - n : 0;  // groups below are complete
    const auto tid = static_cast<std::uint16_t>(g * kLanes + lane);
    auto& list = bulk_pending_[g][lane];
    std::size_t kept = 0;
    for (const Pending& p : list) {
      if (p.group >= below) {
        list[kept++] = p;
        continue;
      }
      // The read counts as made now, by the thread: later writes ordered after the wait are not
      // hazards with it.
      const std::uint64_t end = p.off - p.off % stride_ + limit_;
      for (std::uint64_t i = 0, step = 1; i < p.width && p.off + i < end; i += step) {
        const std::uint64_t at = p.off + i;
        Cell& w = cells_[at & ~std::uint64_t{3}];
        if (w.gen != gen_) {
          step = 1;
          continue;
        }
        step = !w.split && whole(at, i, p.width) ? 4 : 1;
        Cell& c = step == 4 ? w : byte_cell(at);
        for (Access& r : c.reads) {
          if (!r.valid || r.kind != kBulkRead || r.tid != tid || r.dyn != p.dyn) continue;
          r.kind = kPlain;
          r.wclock = clock(g)[g];
          r.lclock = lanes_[g][lane];
          r.dyn = ~std::uint32_t{0};
        }
      }
    }
    list.resize(kept);
  }
}

}  // namespace warpscope::exec
