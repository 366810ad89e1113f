#include "exec/sanitize.hpp"

#include <algorithm>
#include <bit>

#include "ptx/ptx.hpp"

namespace warpscope::exec {

void SanitizerLog::note(const SanitizerFinding& f, std::uint32_t cta, std::uint64_t n) {
  auto [it, fresh] = items_.try_emplace(Key{f.tool, f.kind, f.first.pc, f.second.pc});
  Item& item = it->second;
  if (fresh) {
    item.finding = f;
    item.finding.count = 0;
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
    if (theirs.cta < mine.cta) mine = theirs;
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

void RaceChecker::begin_cta(std::uint32_t threads, std::uint64_t shared_bytes) {
  limit_ = std::max(limit_, shared_bytes);
  if (cells_.size() < (limit_ + 3) / 4 * 4) cells_.resize((limit_ + 3) / 4 * 4);
  if (++gen_ == 0) {  // the generation wrapped: clear for real
    for (Cell& c : cells_) c.gen = 0;
    gen_ = 1;
  }
  nwarps_ = std::min<std::uint32_t>((threads + kLanes - 1) / kLanes, kMaxWarps);
  clocks_.assign(nwarps_, Clock{});
  // Each warp starts at tick 1: an access at tick t is seen by a clock holding t or more, and
  // a fresh clock (0) has seen nothing of another warp.
  for (std::uint32_t w = 0; w < nwarps_; ++w) clocks_[w][w] = 1;
  lanes_.assign(nwarps_, std::array<std::uint32_t, kLanes>{});
  barrier_.fill(Clock{});
  committed_.assign(nwarps_, std::array<std::uint32_t, kLanes>{});
  records_ = 0;  // stamps are per CTA: a cell of an older generation is reset before it is read
  clean_.fill(Seen{});  // and so are the seen tables' tags
  done_.fill(Seen{});
  pending_.resize(nwarps_);
  for (auto& w : pending_)
    for (auto& l : w) l.clear();
  mbars_.clear();
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
  f.warning = !earlier.async && earlier.tid / kLanes == later.tid / kLanes && earlier.dyn != later.dyn;
  f.kernel = k_.name;
  f.block = x_.ctaid;
  f.address = offset;
  f.first = sanitizer_site(k_, earlier.pc, earlier.tid, x_.ntid);
  f.first.access = earlier_write ? "Write" : "Read";
  f.second = sanitizer_site(k_, later.pc, later.tid, x_.ntid);
  f.second.access = later_write ? "Write" : "Read";
  log_.note(f, x_.cta_linear);
}

void RaceChecker::visit_write(Cell& c, const Access& me, std::uint64_t off, std::uint64_t i, unsigned n,
                              const Inst* st, unsigned elem, std::uint32_t warp, unsigned lane, std::uint32_t dyn) {
  const bool unordered =
      c.write.valid && (c.write.async || (c.write.tid != me.tid && !ordered(c.write, warp, lane, dyn)));
  std::array<std::uint8_t, 4> values{};
  for (unsigned j = 0; j < n; ++j) {
    const std::uint64_t k = i + j;
    if (st != nullptr) values[j] = static_cast<std::uint8_t>(x_.reg(st->v[k / elem])[lane] >> (8 * (k % elem)));
    if (unordered) {
      // A write of the value the byte holds changes nothing: no WAW hazard.
      const bool same = st != nullptr && c.value_known && cells_[off + j].value == values[j] && !c.write.async;
      if (!same) hazard("WAW", c.write, true, me, true, off + j);
    }
    for (const Access& r : c.reads) {
      if (r.valid && r.tid != me.tid && !ordered(r, warp, lane, dyn)) hazard("WAR", r, false, me, true, off + j);
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
  if (a.space != Space::kShared || (a.op != Op::kLoad && a.op != Op::kStore && !async)) return;
  const std::uint32_t warp = a.warp;
  if (warp >= nwarps_) return;
  const bool write = a.op == Op::kStore || async;
  const auto dyn = static_cast<std::uint32_t>(x_.clock != nullptr ? *x_.clock : 0);
  const std::uint32_t bits = static_cast<std::uint32_t>(a.active.bits());
  const std::uint64_t size = limit_;
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
    me.wclock = clocks_[warp][warp];
    me.lclock = lanes_[warp][lane];
    me.tid = static_cast<std::uint16_t>(warp * kLanes + lane);
    me.valid = true;
    me.async = async;
    const std::uint64_t base = a.addr[lane];
    if (async) pending_[warp][lane].push_back(Pending{base, dyn, committed_[warp][lane], a.width});
    // One byte's cell (n = 1) or a whole word's, its bytes alike (n = 4): the checks and the
    // hazards of each byte in byte order, the state updated once.
    auto visit = [&](Cell& c, std::uint64_t off, std::uint64_t i, unsigned n) __attribute__((always_inline)) {
      if (!write) {
        if (!c.write.valid) return;
        const bool in_order = !c.write.async && ordered(c.write, warp, lane, dyn);
        if (in_order) {
          if (c.write.tid / kLanes == warp) need = std::max(need, c.write.lclock + 1);
          return;
        }
        clean = false;
        if (c.write.async || c.write.tid != me.tid)
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
    me.wclock = clocks_[warp][warp];
    me.lclock = lanes_[warp][lane];
    me.tid = static_cast<std::uint16_t>(warp * kLanes + lane);
    me.valid = true;
    const std::uint64_t base = a.addr[lane];
    for (std::uint64_t i = 0, n = 1; i < a.width; i += n) {
      const std::uint64_t off = base + i;
      if (off >= size) break;
      Cell& w = word(off);
      n = !w.split && whole(off, i, a.width) ? 4 : 1;
      Cell& c = n == 4 ? w : byte_cell(off);
      if (c.stamp == stamp) continue;
      c.stamp = stamp;
      Access* slot = nullptr;
      Access* empty = nullptr;
      for (Access& r : c.reads) {
        if (!r.valid) {
          if (empty == nullptr) empty = &r;
        } else if (r.tid / kLanes == warp) {
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
  }
}

void RaceChecker::arrive(std::uint32_t warp, std::uint32_t id) {
  if (warp >= nwarps_ || id >= barrier_.size()) return;
  Clock& acc = barrier_[id];
  const Clock& mine = clocks_[warp];
  for (std::uint32_t i = 0; i < nwarps_; ++i) acc[i] = std::max(acc[i], mine[i]);
  ++clocks_[warp][warp];  // what the warp does from now on is not covered by this arrival
}

void RaceChecker::release(std::uint32_t id, std::uint32_t waiting) {
  if (id >= barrier_.size()) return;
  const Clock acc = barrier_[id];
  barrier_[id] = Clock{};
  for (std::uint32_t b = waiting; b != 0; b &= b - 1) {
    const auto w = static_cast<std::uint32_t>(std::countr_zero(b));
    if (w >= nwarps_) continue;
    for (std::uint32_t i = 0; i < nwarps_; ++i) clocks_[w][i] = std::max(clocks_[w][i], acc[i]);
    sync_warp(w, kFullMask);
  }
}

void RaceChecker::sync_warp(std::uint32_t warp, std::uint32_t mask) {
  if (warp >= nwarps_) return;
  auto& lanes = lanes_[warp];
  std::uint32_t top = 0;
  for (std::uint32_t b = mask; b != 0; b &= b - 1) top = std::max(top, lanes[std::countr_zero(b)]);
  for (std::uint32_t b = mask; b != 0; b &= b - 1) lanes[std::countr_zero(b)] = top + 1;
}

void RaceChecker::complete(std::uint32_t warp, unsigned lane, std::uint32_t below) {
  auto& list = pending_[warp][lane];
  const auto tid = static_cast<std::uint16_t>(warp * kLanes + lane);
  std::size_t kept = 0;
  for (const Pending& p : list) {
    if (p.group >= below) {
      list[kept++] = p;
      continue;
    }
    // The write counts as made now: later accesses are ordered after it as after any write here.
    for (std::uint64_t i = 0, n = 1; i < p.width && p.off + i < limit_; i += n) {
      const std::uint64_t off = p.off + i;
      Cell& w = cells_[off & ~std::uint64_t{3}];
      if (w.gen != gen_) {
        n = 1;
        continue;
      }
      n = !w.split && whole(off, i, p.width) ? 4 : 1;
      Cell& c = n == 4 ? w : byte_cell(off);
      if (!c.write.valid || !c.write.async || c.write.tid != tid || c.write.dyn != p.dyn) continue;
      c.write.async = false;
      c.write.wclock = clocks_[warp][warp];
      c.write.lclock = lanes_[warp][lane];
      c.write.dyn = ~std::uint32_t{0};
    }
  }
  list.resize(kept);
}

void RaceChecker::async_commit(std::uint32_t warp, std::uint32_t mask) {
  if (warp >= nwarps_) return;
  for (std::uint32_t b = mask; b != 0; b &= b - 1) ++committed_[warp][std::countr_zero(b)];
}

void RaceChecker::async_wait(std::uint32_t warp, std::uint32_t mask, std::uint32_t n) {
  if (warp >= nwarps_) return;
  for (std::uint32_t b = mask; b != 0; b &= b - 1) {
    const auto lane = static_cast<unsigned>(std::countr_zero(b));
    const std::uint32_t c = committed_[warp][lane];
    complete(warp, lane, c >= n ? c - n : 0);  // groups below c - n are complete
  }
}

void RaceChecker::mbar_arrive(std::uint32_t warp, unsigned lane, std::uint64_t bar, bool copies) {
  if (warp >= nwarps_) return;
  if (copies) complete(warp, lane, ~std::uint32_t{0});
  MbarClock& m = mbars_[bar];
  for (std::uint32_t i = 0; i < nwarps_; ++i) m.warps[i] = std::max(m.warps[i], clocks_[warp][i]);
  m.lanes[warp] = std::max(m.lanes[warp], lanes_[warp][lane]);
  ++clocks_[warp][warp];  // later accesses are not covered by this arrival
  ++lanes_[warp][lane];
}

void RaceChecker::mbar_wait(std::uint32_t warp, unsigned lane, std::uint64_t bar) {
  if (warp >= nwarps_) return;
  const auto it = mbars_.find(bar);
  if (it == mbars_.end()) return;
  const MbarClock& m = it->second;
  for (std::uint32_t i = 0; i < nwarps_; ++i) clocks_[warp][i] = std::max(clocks_[warp][i], m.warps[i]);
  lanes_[warp][lane] = std::max(lanes_[warp][lane], m.lanes[warp] + 1);
}

}  // namespace warpscope::exec
