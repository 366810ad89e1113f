#include "exec/sanitize.hpp"

#include <algorithm>
#include <bit>

#include "exec/memory.hpp"
#include "ptx/ptx.hpp"

namespace warpscope::exec {

namespace {

void merge_into(std::vector<std::uint32_t>& acc, const std::uint32_t* c, std::uint32_t n) {
  if (acc.size() < n) acc.resize(n, 0);
  for (std::uint32_t i = 0; i < n; ++i) acc[i] = std::max(acc[i], c[i]);
}

}  // namespace

void SanitizerLog::note(const SanitizerFinding& f, std::uint32_t cta, std::uint64_t n) {
  // Hazards of one pair of instructions inside a CTA and across the cluster are told apart.
  auto [it, fresh] = items_.try_emplace(Key{f.space == "cluster" ? f.tool + ":cluster" : f.tool, f.kind, f.first.pc, f.second.pc});
  Item& item = it->second;
  // The sample kept is the first error, or the first warning while there is none (the hazards of
  // one pair of instructions may be both: a warp's own lanes and other warps; the H200 calls the
  // analysis report of such a pair an error).
  if (fresh || (item.finding.warning && !f.warning)) {
    const std::uint64_t count = fresh ? 0 : item.finding.count;
    item.finding = f;
    item.finding.count = count;
    item.cta = cta;
    item.seq = seq_++;
  }
  item.finding.count += n;
}

void SanitizerLog::note_each(const SanitizerFinding& f, std::uint32_t cta, std::size_t keep) {
  ++each_total_;
  each_keep_ = keep;
  // A runner runs its CTAs in increasing order: its first `keep` are its lowest.
  if (each_.size() < keep) {
    each_.push_back(Item{f, cta, seq_++});
  } else {
    add_unkept(f, cta);
  }
}

void SanitizerLog::add_unkept(const SanitizerFinding& f, std::uint32_t cta) {
  if (unkept_.size() < kUnkeptCap) {
    unkept_.push_back(LaunchStats::UnkeptRead{f.address, f.size, cta});
  } else {
    ++unkept_unchecked_;
  }
}

void SanitizerLog::merge(const SanitizerLog& other) {
  if (!other.each_.empty()) {
    each_.insert(each_.end(), other.each_.begin(), other.each_.end());
    std::sort(each_.begin(), each_.end(),
              [](const Item& a, const Item& b) { return a.cta != b.cta ? a.cta < b.cta : a.seq < b.seq; });
    each_keep_ = std::max(each_keep_, other.each_keep_);
    for (std::size_t i = each_keep_; i < each_.size(); ++i) add_unkept(each_[i].finding, each_[i].cta);
    if (each_.size() > each_keep_) each_.resize(each_keep_);
  }
  for (const LaunchStats::UnkeptRead& u : other.unkept_) {
    if (unkept_.size() < kUnkeptCap) {
      unkept_.push_back(u);
    } else {
      ++unkept_unchecked_;
    }
  }
  unkept_unchecked_ += other.unkept_unchecked_;
  each_total_ += other.each_total_;
  for (const auto& [key, theirs] : other.items_) {
    auto [it, fresh] = items_.try_emplace(key, theirs);
    if (fresh) continue;
    Item& mine = it->second;
    const std::uint64_t count = mine.finding.count + theirs.finding.count;
    // As note(): an error before a warning, then the lowest CTA.
    if (mine.finding.warning != theirs.finding.warning ? mine.finding.warning : theirs.cta < mine.cta) mine = theirs;
    mine.finding.count = count;
  }
}

void SanitizerLog::finish(LaunchStats& stats) const {
  std::vector<const Item*> items;
  for (const auto& [key, item] : items_) items.push_back(&item);
  std::sort(items.begin(), items.end(),
            [](const Item* a, const Item* b) { return a->cta != b->cta ? a->cta < b->cta : a->seq < b->seq; });
  stats.sanitizer.clear();
  for (const Item* i : items) stats.sanitizer.push_back(i->finding);
  for (const Item& i : each_) {
    stats.sanitizer.push_back(i.finding);
    stats.sanitizer.back().count = 1;
  }
  stats.sanitizer_unkept = each_total_ - each_.size();
  stats.sanitizer_unkept_reads = unkept_;
  stats.sanitizer_unkept_unchecked = unkept_unchecked_;
}

SanitizerSite sanitizer_site(const KernelImage& k, std::uint32_t pc, std::uint32_t tid, Dim3 block) {
  SanitizerSite s;
  s.pc = pc;
  if (pc < k.source.size()) {
    const ptx::SourceLoc loc = k.module->outermost(k.ir_instruction(pc).loc);
    if (loc.valid()) {
      s.file = std::string(k.module->file_path(loc));
      s.line = loc.line;
    }
  }
  s.thread.x = tid % block.x;
  s.thread.y = (tid / block.x) % block.y;
  s.thread.z = tid / (block.x * block.y);
  return s;
}

void RaceChecker::enter(std::uint32_t rank, std::uint32_t ranks) {
  next_ranks_ = std::clamp<std::uint32_t>(ranks, 1, kMaxRanks);
  rank_ = std::min(rank, kMaxRanks - 1);
  base_ = rank_ * wpc_;
}

void RaceChecker::begin_cta(std::uint32_t threads, std::uint64_t shared_bytes, Dim3 block) {
  blocks_[rank_] = block;
  if (rank_ != 0) return;  // a peer of the cluster rank 0 began: its state is there already
  ranks_ = next_ranks_;
  limit_ = std::max(limit_, shared_bytes);
  stride_ = std::max<std::uint64_t>(4, (limit_ + 3) / 4 * 4);
  if (cells_.size() < stride_ * ranks_) cells_.resize(stride_ * ranks_);
  if (++gen_ == 0) {  // the generation wrapped: clear for real
    for (Cell& c : cells_) c.gen = 0;
    gen_ = 1;
  }
  wpc_ = std::min<std::uint32_t>((threads + kLanes - 1) / kLanes, kMaxWarps);
  nwarps_ = wpc_ * ranks_;
  nclk_ = nwarps_ + kBulkSlots;
  slots_ = 0;
  base_ = 0;
  // Each warp starts at tick 1: an access at tick t is seen by a clock holding t or more, and
  // a fresh clock (0) has seen nothing of another warp.
  clocks_.assign(std::size_t(nwarps_) * nclk_, 0);
  for (std::uint32_t w = 0; w < nwarps_; ++w) clock(w)[w] = 1;
  lanes_.assign(nwarps_, std::array<std::uint32_t, kLanes>{});
  barrier_.assign(std::size_t(ranks_) * 16 * nclk_, 0);
  committed_.assign(nwarps_, std::array<std::uint32_t, kLanes>{});
  bulk_committed_.assign(nwarps_, std::array<std::uint32_t, kLanes>{});
  records_ = 0;  // stamps are per CTA: a cell of an older generation is reset before it is read
  clean_.fill(Seen{});  // and so are the seen tables' tags
  done_.fill(Seen{});
  pending_.resize(nwarps_);
  for (auto& w : pending_)
    for (auto& l : w) l.clear();
  bulk_pending_.resize(nwarps_);
  for (auto& w : bulk_pending_)
    for (auto& l : w) l.clear();
  mbars_.clear();
  flags_.clear();
  for (unsigned i = 0; i < 2; ++i) {
    cluster_[i].assign(nclk_, 0);
    cluster_lanes_[i].assign(nwarps_, 0);
  }
}

RaceChecker::Cell& RaceChecker::byte_cell(std::uint64_t off) {
  Cell& w = word(off);
  if (!w.split) {
    w.split = true;
    for (std::uint64_t i = 1; i < 4; ++i) {
      Cell& b = cells_[(off & ~std::uint64_t{3}) + i];
      const std::uint8_t value = b.value;
      b = w;
      b.value = value;
    }
  }
  return cells_[off];
}

void RaceChecker::hazard(const char* kind, const Access& earlier, bool earlier_write, const Access& later,
                         bool later_write, std::uint64_t offset) {
  SanitizerFinding f;
  f.tool = "racecheck";
  f.kind = kind;
  // A pending copy races with every later access (an error); a bulk copy's write counts as its
  // issuing thread's (the H200 reports the reads of the issuing warp's other lanes as warnings).
  f.warning = (earlier.kind == kPlain || earlier.kind == kBulkWrite || earlier.kind == kBulkReduce) &&
              earlier.tid / kLanes == later.tid / kLanes && earlier.dyn != later.dyn;
  f.kernel = k_.name;
  // `offset` is a cell: the shared memory of rank offset / stride_; each side's thread is
  // (rank * wpc_ + warp) * 32 + lane.
  const auto owner = static_cast<std::uint32_t>(offset / stride_);
  const std::uint32_t per_cta = wpc_ * kLanes;
  const std::uint32_t first_rank = earlier.tid / per_cta, second_rank = later.tid / per_cta;
  f.block = blocks_[owner];
  f.address = offset % stride_;
  f.first = sanitizer_site(k_, earlier.pc, earlier.tid % per_cta, x_.ntid);
  f.first.access = earlier_write ? "Write" : "Read";
  f.second = sanitizer_site(k_, later.pc, later.tid % per_cta, x_.ntid);
  f.second.access = later_write ? "Write" : "Read";
  if (first_rank != owner || second_rank != owner) {
    // Distributed shared memory: a thread of another CTA of the cluster on one side or both.
    f.space = "cluster";
    f.first_block = blocks_[first_rank];
    f.second_block = blocks_[second_rank];
  }
  log_.note(f, x_.cta_linear);
}

void RaceChecker::visit_write(Cell& c, const Access& me, std::uint64_t off, std::uint64_t i, unsigned n,
                              const Inst* st, unsigned elem, std::uint32_t warp, unsigned lane, std::uint32_t dyn) {
  // Two bulk reductions are no hazard (element-wise atomic), as atomics are none here.
  const bool unordered = c.write.valid && !(me.kind == kBulkReduce && c.write.kind == kBulkReduce) &&
                         !before(c.write, warp, lane, dyn, me.tid);
  std::array<std::uint8_t, 4> values{};
  for (unsigned j = 0; j < n; ++j) {
    const std::uint64_t k = i + j;
    if (st != nullptr) values[j] = static_cast<std::uint8_t>(x_.reg(st->v[k / elem])[lane] >> (8 * (k % elem)));
    if (unordered) {
      // A write of the value the byte holds changes nothing: no WAW hazard.
      const bool same = st != nullptr && c.value_known && cells_[off + j].value == values[j] && c.write.kind == kPlain;
      if (!same) hazard("WAW", c.write, true, me, true, off + j);
    }
    for (const Access& r : c.reads) {
      if (r.valid && !before(r, warp, lane, dyn, me.tid)) hazard("WAR", r, false, me, true, off + j);
    }
  }
  c.value_known = st != nullptr;
  for (unsigned j = 0; j < n; ++j) cells_[off + j].value = values[j];
  c.write = me;
  for (Access& r : c.reads) r.valid = false;
  c.next_read = 0;
}

void RaceChecker::on_access(const WarpAccess& a) {
  if (inner_ != nullptr) inner_->on_access(a);
  const bool async = a.op == Op::kLdgsts;  // cp.async's shared side (part 1)
  // The CTA's own shared memory (offsets), or a peer's of the cluster (kDsmem: .shared::cluster
  // addresses, (rank + 1) << kClusterRankShift | offset).
  const bool dsmem = a.space == Space::kDsmem;
  if ((a.space != Space::kShared && !dsmem) || a.warp >= wpc_) return;
  if (a.op == Op::kAtomic || a.op == Op::kReduction) {
    flag_sync(a, true, true);
    return;
  }
  if (a.op != Op::kLoad && a.op != Op::kStore && !async) return;
  if (!async && a.pc < k_.code.size()) {
    // A load or store of the memory model's orders (.relaxed, .acquire, .release) is no data race
    // with another such access (morally strong), and publishes or receives an order (flag_sync).
    // .volatile accesses stay plain ones here, as before the memory model had them.
    const ptx::MemOrder o = k_.ir_instruction(a.pc).order;
    if (o == ptx::MemOrder::kRelaxed || o == ptx::MemOrder::kAcquire || o == ptx::MemOrder::kRelease) {
      flag_sync(a, a.op == Op::kStore, a.op == Op::kLoad);
      return;
    }
  }
  const std::uint32_t warp = base_ + a.warp;  // in the cluster
  const bool write = a.op == Op::kStore || async;
  const auto dyn = static_cast<std::uint32_t>(x_.clock != nullptr ? *x_.clock : 0);
  std::uint32_t bits = static_cast<std::uint32_t>(a.active.bits());
  // Each lane's first cell and the end of its CTA's cells; lanes outside every CTA are skipped.
  std::array<std::uint64_t, kLanes> first{}, end{};
  constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << kClusterRankShift) - 1;
  for (std::uint32_t b = bits; b != 0; b &= b - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(b));
    std::uint64_t rank = rank_, off = a.addr[lane];
    if (dsmem) {
      rank = (off >> kClusterRankShift) - 1;
      off &= kOffsetMask;
    }
    if (rank >= ranks_ || off >= limit_) {
      bits &= ~(1u << lane);
      continue;
    }
    first[lane] = rank * stride_ + off;
    end[lane] = rank * stride_ + limit_;
  }
  // A plain st's values (its source registers are unchanged by it): byte i of lane l's store.
  const Inst* st = nullptr;
  unsigned elem = 0;
  if (write && a.pc < k_.code.size()) {
    const Inst& in = k_.code[a.pc];
    if (in.mem_op == Op::kStore && in.vec >= 1 && in.vec <= 4 && a.width % in.vec == 0 && in.v[0] != kNoSlot) {
      st = &in;
      elem = a.width / in.vec;
      for (unsigned i = 0; i < in.vec; ++i)
        if (in.v[i] == kNoSlot) st = nullptr;
    }
  }
  // A read lane finds no hazard when every byte it reads had no write since the CTA began, or
  // one ordered before it: of another warp, one before this warp's clock (the same for all its
  // lanes); of this warp, in an earlier instruction at a lane clock below this lane's. A lane at
  // the address of an earlier lane of the record found so (`clean_`, tagged with the record,
  // with the lane clock its writes need) is skipped when its own clock is that high too. The
  // entries also note each address's highest lane, the one whose read is kept (below), unless
  // two addresses of the record share an entry (`collided`).
  const std::uint32_t stamp = write ? 0 : ++records_;
  bool collided = false;
  std::array<std::uint8_t, kLanes> used{};  // clean_'s entries of this record
  unsigned nused = 0;
  for (std::uint32_t b = bits; b != 0; b &= b - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(b));
    Seen* entry = nullptr;
    if (!write) {
      const std::size_t slot = seen_slot(a.addr[lane]);
      Seen& e = clean_[slot];
      if (e.stamp != stamp) {
        e = Seen{a.addr[lane], stamp, 0, static_cast<std::uint8_t>(lane), false};
        used[nused++] = static_cast<std::uint8_t>(slot);
        entry = &e;
      } else if (e.addr == a.addr[lane]) {
        e.last = static_cast<std::uint8_t>(lane);
        if (e.clean && lanes_[warp][lane] >= e.need) continue;
        entry = &e;
      } else {
        collided = true;
      }
    }
    bool clean = !write;
    std::uint32_t need = 0;  // the lane clock the bytes' writes of this warp need (clean)
    Access me;
    me.dyn = dyn;
    me.pc = a.pc;
    me.wclock = clock(warp)[warp];
    me.lclock = lanes_[warp][lane];
    me.tid = static_cast<std::uint16_t>(warp * kLanes + lane);
    me.valid = true;
    me.kind = async ? kCpAsync : kPlain;
    const std::uint64_t base = first[lane], size = end[lane];
    if (async) pending_[warp][lane].push_back(Pending{base, dyn, committed_[warp][lane], a.width});
    // One byte's cell (n = 1) or a whole word's, its bytes alike (n = 4): the checks and the
    // hazards of each byte in byte order, the state updated once.
    auto visit = [&](Cell& c, std::uint64_t off, std::uint64_t i, unsigned n) __attribute__((always_inline)) {
      if (!write) {
        if (!c.write.valid) return;
        if (c.write.kind == kPlain ? ordered(c.write, warp, lane, dyn) : before(c.write, warp, lane, dyn, me.tid)) {
          if (c.write.kind == kPlain && c.write.tid / kLanes == warp) need = std::max(need, c.write.lclock + 1);
          return;
        }
        clean = false;
        if (c.write.kind != kPlain || c.write.tid != me.tid)
          for (unsigned j = 0; j < n; ++j) hazard("RAW", c.write, true, me, false, off + j);
        return;
      }
      visit_write(c, me, off, i, n, st, elem, warp, lane, dyn);
    };
    for (std::uint64_t i = 0; i < a.width;) {
      const std::uint64_t off = base + i;
      if (off >= size) break;
      Cell& w = word(off);
      if (!w.split && whole(off, i, a.width)) {
        visit(w, off, i, 4);
        i += 4;
      } else {
        visit(byte_cell(off), off, i, 1);
        ++i;
      }
    }
    if (clean && entry != nullptr && base + a.width <= size) {
      entry->clean = true;
      entry->need = need;
    }
  }
  if (write) return;
  // Reads: one per warp and byte is kept, the latest; of one record's lanes that is the highest
  // lane reading the byte (lanes act in lane order), so the lanes go from the top and a byte
  // takes only the first (a broadcast read updates its bytes once, not once per lane). A lane at
  // the address of a higher lane finds every byte stamped: only each address's highest lane
  // goes (clean_'s entries have them, or, where two addresses shared one, `done_` skips a lane
  // at the address of one done).
  std::uint32_t todo = 0;
  for (unsigned u = 0; u < nused; ++u) todo |= 1u << clean_[used[u]].last;
  if (collided) todo = bits;
  for (std::uint32_t b = todo; b != 0; b &= ~(1u << (31 - std::countl_zero(b)))) {
    const auto lane = static_cast<unsigned>(31 - std::countl_zero(b));
    if (collided) {
      if (seen(done_, a.addr[lane], stamp)) continue;
      mark(done_, a.addr[lane], stamp);
    }
    Access me;
    me.dyn = dyn;
    me.pc = a.pc;
    me.wclock = clock(warp)[warp];
    me.lclock = lanes_[warp][lane];
    me.tid = static_cast<std::uint16_t>(warp * kLanes + lane);
    me.valid = true;
    const std::uint64_t base = first[lane], size = end[lane];
    for (std::uint64_t i = 0, n = 1; i < a.width; i += n) {
      const std::uint64_t off = base + i;
      if (off >= size) break;
      Cell& w = word(off);
      n = !w.split && whole(off, i, a.width) ? 4 : 1;
      Cell& c = n == 4 ? w : byte_cell(off);
      if (c.stamp == stamp) continue;
      c.stamp = stamp;
      place_read(c, me, warp);
    }
  }
}

void RaceChecker::place_read(Cell& c, const Access& me, std::uint32_t warp) {
  // One plain read per warp (the latest); a pending bulk read keeps its own slot.
  Access* slot = nullptr;
  Access* empty = nullptr;
  for (Access& r : c.reads) {
    if (!r.valid) {
      if (empty == nullptr) empty = &r;
    } else if (r.tid / kLanes == warp && r.kind == kPlain && me.kind == kPlain) {
      slot = &r;
    }
  }
  if (slot == nullptr) slot = empty;
  if (slot == nullptr) {
    slot = &c.reads[c.next_read];
    c.next_read = static_cast<std::uint8_t>((c.next_read + 1) % kReads);
  }
  *slot = me;
}

void RaceChecker::flag_sync(const WarpAccess& a, bool release, bool acquire) {
  const std::uint32_t g = base_ + a.warp;
  constexpr std::uint64_t kOffsetMask = (std::uint64_t{1} << kClusterRankShift) - 1;
  bool released = false;
  for (std::uint32_t b = static_cast<std::uint32_t>(a.active.bits()); b != 0; b &= b - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(b));
    std::uint64_t rank = rank_, off = a.addr[lane];
    if (a.space == Space::kDsmem) {
      rank = (off >> kClusterRankShift) - 1;
      off &= kOffsetMask;
    }
    if (rank >= ranks_) continue;
    const std::uint64_t word = rank * stride_ + (off & ~std::uint64_t{3});
    // The word's clock: the acquirer takes what releases published to it before, then (an atom:
    // both) publishes its own.
    std::vector<std::uint32_t>& f = flags_[word];
    if (acquire && !f.empty()) {
      std::uint32_t* c = clock(g);
      for (std::uint32_t i = 0; i < nclk_ && i < f.size(); ++i) c[i] = std::max(c[i], f[i]);
    }
    if (release) {
      merge_into(f, clock(g), nclk_);
      released = true;
    }
  }
  if (released) ++clock(g)[g];  // later accesses are not covered by this release
}

void RaceChecker::arrive(std::uint32_t warp, std::uint32_t id) {
  if (warp >= wpc_ || id >= 16) return;
  const std::uint32_t g = base_ + warp;
  std::uint32_t* acc = barrier(id);
  const std::uint32_t* mine = clock(g);
  for (std::uint32_t i = 0; i < nclk_; ++i) acc[i] = std::max(acc[i], mine[i]);
  ++clock(g)[g];  // what the warp does from now on is not covered by this arrival
}

void RaceChecker::release(std::uint32_t id, std::uint32_t waiting) {
  if (id >= 16 || nwarps_ == 0) return;
  std::uint32_t* bar = barrier(id);
  std::vector<std::uint32_t>& acc = scratch_;
  acc.assign(bar, bar + nclk_);
  std::fill(bar, bar + nclk_, 0u);
  for (std::uint32_t b = waiting; b != 0; b &= b - 1) {
    const auto w = static_cast<std::uint32_t>(std::countr_zero(b));
    if (w >= wpc_) continue;
    std::uint32_t* c = clock(base_ + w);
    for (std::uint32_t i = 0; i < nclk_; ++i) c[i] = std::max(c[i], acc[i]);
    sync_warp(w, kFullMask);
  }
}

void RaceChecker::sync_warp(std::uint32_t warp, std::uint32_t mask) {
  if (warp >= wpc_) return;
  auto& lanes = lanes_[base_ + warp];
  std::uint32_t top = 0;
  for (std::uint32_t b = mask; b != 0; b &= b - 1) top = std::max(top, lanes[std::countr_zero(b)]);
  for (std::uint32_t b = mask; b != 0; b &= b - 1) lanes[std::countr_zero(b)] = top + 1;
}

void RaceChecker::complete(std::uint32_t warp, unsigned lane, std::uint32_t below) {
  // `warp` is the cluster's; the copies' cells are the CTA's own (cp.async writes its CTA's memory).
  auto& list = pending_[warp][lane];
  const auto tid = static_cast<std::uint16_t>(warp * kLanes + lane);
  const std::uint64_t end = std::uint64_t(warp / std::max(wpc_, 1u)) * stride_ + limit_;
  std::size_t kept = 0;
  for (const Pending& p : list) {
    if (p.group >= below) {
      list[kept++] = p;
      continue;
    }
    // The write counts as made now: later accesses are ordered after it as after any write here.
    for (std::uint64_t i = 0, n = 1; i < p.width && p.off + i < end; i += n) {
      const std::uint64_t off = p.off + i;
      Cell& w = cells_[off & ~std::uint64_t{3}];
      if (w.gen != gen_) {
        n = 1;
        continue;
      }
      n = !w.split && whole(off, i, p.width) ? 4 : 1;
      Cell& c = n == 4 ? w : byte_cell(off);
      if (!c.write.valid || c.write.kind != kCpAsync || c.write.tid != tid || c.write.dyn != p.dyn) continue;
      c.write.kind = kPlain;
      c.write.wclock = clock(warp)[warp];
      c.write.lclock = lanes_[warp][lane];
      c.write.dyn = ~std::uint32_t{0};
    }
  }
  list.resize(kept);
}

void RaceChecker::async_commit(std::uint32_t warp, std::uint32_t mask) {
  if (warp >= wpc_) return;
  for (std::uint32_t b = mask; b != 0; b &= b - 1) ++committed_[base_ + warp][std::countr_zero(b)];
}

void RaceChecker::async_wait(std::uint32_t warp, std::uint32_t mask, std::uint32_t n) {
  if (warp >= wpc_) return;
  const std::uint32_t g = base_ + warp;
  for (std::uint32_t b = mask; b != 0; b &= b - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(b));
    const std::uint32_t c = committed_[g][lane];
    complete(g, lane, c >= n ? c - n : 0);  // groups below c - n are complete
  }
}

void RaceChecker::mbar_arrive(std::uint32_t warp, unsigned lane, std::uint64_t bar, bool copies, std::uint32_t pc) {
  if (warp >= wpc_) return;
  const std::uint32_t g = base_ + warp;
  if (copies) complete(g, lane, ~std::uint32_t{0});
  const std::uint64_t key = cluster_key(bar, rank_);
  const std::uint64_t owner = (key >> kClusterRankShift) - 1;
  // The PTX ISA's memory model: an arrive-on with .relaxed releases nothing; a waiting thread of
  // the mbarrier's CTA is ordered after another CTA's arrive-on only when both are strong at a
  // scope that holds the other thread (morally strong): .release.cluster here, .acquire.cluster
  // at the wait (mbar_wait). cp.async.mbarrier.arrive releases the thread's copies.
  bool relaxed = false, cluster_scope = false;
  if (!copies && pc < k_.code.size()) {
    const ptx::Instruction& in = k_.ir_instruction(pc);
    relaxed = in.order == ptx::MemOrder::kRelaxed;
    cluster_scope = in.scope >= ptx::Scope::kCluster;
  }
  if (!relaxed && (owner == rank_ || cluster_scope)) {
    MbarClock& m = mbars_[key];
    merge_into(owner == rank_ ? m.near : m.far, clock(g), nclk_);
    if (m.lanes.size() < nwarps_) m.lanes.resize(nwarps_, 0);
    m.lanes[g] = std::max(m.lanes[g], lanes_[g][lane]);
  }
  ++clock(g)[g];  // later accesses are not covered by this arrival
  ++lanes_[g][lane];
}

void RaceChecker::mbar_wait(std::uint32_t warp, unsigned lane, std::uint64_t bar, std::uint32_t pc) {
  if (warp >= wpc_) return;
  const std::uint32_t g = base_ + warp;
  const auto it = mbars_.find(cluster_key(bar, rank_));
  if (it == mbars_.end()) return;
  bool relaxed = false, cluster_scope = false;
  if (pc < k_.code.size()) {
    const ptx::Instruction& in = k_.ir_instruction(pc);
    relaxed = in.order == ptx::MemOrder::kRelaxed;  // test_wait/try_wait .relaxed: no acquire
    cluster_scope = in.scope >= ptx::Scope::kCluster;
  }
  if (relaxed) return;
  const MbarClock& m = it->second;
  std::uint32_t* c = clock(g);
  for (std::uint32_t i = 0; i < nclk_ && i < m.near.size(); ++i) c[i] = std::max(c[i], m.near[i]);
  if (cluster_scope)
    for (std::uint32_t i = 0; i < nclk_ && i < m.far.size(); ++i) c[i] = std::max(c[i], m.far[i]);
  if (g < m.lanes.size()) lanes_[g][lane] = std::max(lanes_[g][lane], m.lanes[g] + 1);
}

void RaceChecker::cluster_arrive(std::uint32_t warp, std::uint32_t mask, std::uint64_t phase, bool relaxed) {
  if (warp >= wpc_ || nwarps_ == 0) return;
  const std::uint32_t g = base_ + warp;
  if (!relaxed) {
    merge_into(cluster_[phase & 1], clock(g), nclk_);
    std::uint32_t top = 0;
    for (std::uint32_t b = mask; b != 0; b &= b - 1) top = std::max(top, lanes_[g][std::countr_zero(b)]);
    cluster_lanes_[phase & 1][g] = std::max(cluster_lanes_[phase & 1][g], top);
  }
  ++clock(g)[g];
  for (std::uint32_t b = mask; b != 0; b &= b - 1) ++lanes_[g][std::countr_zero(b)];
}

void RaceChecker::cluster_wait(std::uint32_t warp, std::uint32_t mask, std::uint64_t phase) {
  if (warp >= wpc_ || nwarps_ == 0) return;
  const std::uint32_t g = base_ + warp;
  const std::vector<std::uint32_t>& acc = cluster_[phase & 1];
  std::uint32_t* c = clock(g);
  for (std::uint32_t i = 0; i < nclk_ && i < acc.size(); ++i) c[i] = std::max(c[i], acc[i]);
  const std::uint32_t top = cluster_lanes_[phase & 1][g] + 1;
  for (std::uint32_t b = mask; b != 0; b &= b - 1) {
    std::uint32_t& l = lanes_[g][std::countr_zero(b)];
    l = std::max(l, top);
  }
}

void RaceChecker::cluster_phase(std::uint64_t phase) {
  // Phase `phase` collects its own arrivals; those of phase - 2, which shared the slot, were all
  // waited for (a thread waits before it arrives again).
  std::fill(cluster_[phase & 1].begin(), cluster_[phase & 1].end(), 0u);
  std::fill(cluster_lanes_[phase & 1].begin(), cluster_lanes_[phase & 1].end(), 0u);
}

}  // namespace warpscope::exec
