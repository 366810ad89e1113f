#include "exec/initcheck.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <unordered_map>

#include "common/error.hpp"

namespace warpscope::exec {

namespace {
constexpr std::uint64_t kChunk = 64;

std::uint64_t low_bits(unsigned n) { return n >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << n) - 1; }
}  // namespace

InitShadow::InitShadow(std::uint64_t base, std::uint64_t span) : base_(base), span_(span) {
  void* p = mmap(nullptr, span / 8 + 16, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) fail(ErrorKind::kUsage, "initcheck: cannot reserve {} bytes for its shadow memory", span / 8);
  bits_ = static_cast<std::uint8_t*>(p);
}

InitShadow::~InitShadow() { munmap(bits_, span_ / 8 + 16); }

void InitShadow::set(std::uint64_t addr, std::uint64_t n, bool value) {
  if (addr < base_ || addr - base_ >= span_) return;
  std::uint64_t off = addr - base_;
  n = std::min(n, span_ - off);
  // Leading bits up to a byte boundary, whole bytes, trailing bits.
  while (n != 0 && (off & 7) != 0) {
    const auto bit = static_cast<std::uint8_t>(1u << (off & 7));
    bits_[off >> 3] = value ? (bits_[off >> 3] | bit) : (bits_[off >> 3] & ~bit);
    ++off;
    --n;
  }
  if (n >= 8) {
    std::memset(bits_ + (off >> 3), value ? 0xff : 0, n >> 3);
    off += n & ~std::uint64_t{7};
    n &= 7;
  }
  while (n != 0) {
    const auto bit = static_cast<std::uint8_t>(1u << (off & 7));
    bits_[off >> 3] = value ? (bits_[off >> 3] | bit) : (bits_[off >> 3] & ~bit);
    ++off;
    --n;
  }
}

bool InitShadow::poisoned(std::uint64_t addr, unsigned n, std::uint64_t& bits) const {
  bits = 0;
  if (addr < base_ || addr - base_ >= span_ || n == 0) return false;
  const std::uint64_t off = addr - base_;
  n = static_cast<unsigned>(std::min<std::uint64_t>(n, span_ - off));
  const unsigned shift = off & 7;
  if (n + shift <= 56) {  // one unaligned 8-byte read of the bitmap covers it
    std::uint64_t w = 0;
    std::memcpy(&w, bits_ + (off >> 3), 8);  // the mapping has 16 bytes past its end
    bits = (w >> shift) & low_bits(n);
    return bits != 0;
  }
  for (unsigned i = 0; i < n; ++i) {
    const std::uint64_t o = off + i;
    if (bits_[o >> 3] & (1u << (o & 7))) bits |= std::uint64_t{1} << i;
  }
  return bits != 0;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> InitShadow::runs(std::uint64_t addr, std::uint64_t n) const {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> out;
  std::uint64_t bits = 0;
  for (std::uint64_t i = 0; i < n; i += 32) {
    const auto take = static_cast<unsigned>(std::min<std::uint64_t>(32, n - i));
    if (!poisoned(addr + i, take, bits)) continue;
    for (unsigned k = 0; k < take; ++k) {
      if (!(bits >> k & 1)) continue;
      if (!out.empty() && out.back().first + out.back().second == i + k) {
        ++out.back().second;
      } else {
        out.emplace_back(i + k, 1);
      }
    }
  }
  return out;
}

void InitShadow::hand_in(std::vector<Chunk>& writes) {
  if (writes.empty()) return;
  std::lock_guard lock(mu_);
  if (pending_.empty()) {
    pending_.swap(writes);
  } else {
    pending_.insert(pending_.end(), writes.begin(), writes.end());
  }
  writes.clear();
}

void InitShadow::commit() {
  std::lock_guard lock(mu_);
  for (const auto& [chunk, mask, cta] : pending_) {
    const std::uint64_t addr = chunk * kChunk;
    if (mask == ~std::uint64_t{0}) {
      unpoison(addr, kChunk);
      continue;
    }
    for (std::uint64_t m = mask; m != 0; m &= m - 1) unpoison(addr + static_cast<unsigned>(std::countr_zero(m)), 1);
  }
  pending_.clear();
  pending_.shrink_to_fit();
}

std::size_t InitShadow::drop_reads_written_by_others(LaunchStats& stats, Dim3 grid) {
  std::lock_guard lock(mu_);
  std::vector<SanitizerFinding>& findings = stats.sanitizer;
  bool any = !stats.sanitizer_unkept_reads.empty();
  for (const SanitizerFinding& f : findings) any = any || f.tool == "initcheck";
  if (!any || pending_.empty()) return 0;
  // chunk -> (CTA, bytes written) of the launch's writes.
  std::unordered_map<std::uint64_t, std::vector<std::pair<std::uint32_t, std::uint64_t>>> by_chunk;
  for (const Chunk& c : pending_) by_chunk[c.chunk].emplace_back(c.cta, c.mask);
  const auto others_wrote = [&](std::uint64_t addr, std::uint32_t reader) {
    const auto it = by_chunk.find(addr / kChunk);
    if (it == by_chunk.end()) return false;
    for (const auto& [cta, mask] : it->second)
      if (cta != reader && (mask >> (addr % kChunk) & 1)) return true;
    return false;
  };
  // A read is dropped when every byte of it is either initialised or written by another CTA.
  const auto dropped = [&](std::uint64_t address, std::uint32_t size, std::uint32_t reader) {
    // Shared-memory reads (--initcheck-memory all) lie outside the shadow: other CTAs never write them.
    if (address < base_ || address - base_ >= span_) return false;
    for (std::uint64_t a = address; a < address + std::max<std::uint32_t>(size, 1); ++a) {
      std::uint64_t bit = 0;
      if (poisoned(a, 1, bit) && !others_wrote(a, reader)) return false;
    }
    return true;
  };
  const std::size_t before = findings.size();
  std::erase_if(findings, [&](const SanitizerFinding& f) {
    if (f.tool != "initcheck" || f.kind != "uninitialized_read") return false;
    return dropped(f.address, f.size, f.block.x + grid.x * (f.block.y + grid.y * f.block.z));
  });
  const std::size_t unkept_before = stats.sanitizer_unkept_reads.size();
  std::erase_if(stats.sanitizer_unkept_reads,
                [&](const LaunchStats::UnkeptRead& u) { return dropped(u.address, u.size, u.cta); });
  const std::size_t unkept_dropped = unkept_before - stats.sanitizer_unkept_reads.size();
  stats.sanitizer_unkept -= std::min<std::uint64_t>(stats.sanitizer_unkept, unkept_dropped);
  return before - findings.size() + unkept_dropped;
}

InitChecker::~InitChecker() {
  flush();
  shadow_.hand_in(done_);
}

void InitChecker::flush() {
  for (std::uint32_t i : used_) {
    Slot& s = table_[i];
    done_.push_back(InitShadow::Chunk{s.chunk, s.mask, per_cta_ ? current_cta_ : s.cta});
    s = Slot{};
  }
  used_.clear();
}

void InitChecker::begin_cta() {
  if (per_cta_) flush();
  current_cta_ = x_.cta_linear;
  if (shared_) begin_shared();
}

void InitChecker::grow() {
  std::vector<Slot> old;
  old.swap(table_);
  table_.assign(std::max<std::size_t>(1024, old.size() * 2), Slot{});
  used_.clear();
  for (const Slot& s : old) {
    if (!s.used) continue;
    Slot* n = find(s.chunk, s.cta, true);
    n->mask = s.mask;
  }
}

InitChecker::Slot* InitChecker::find(std::uint64_t chunk, std::uint32_t cta, bool insert) {
  if (table_.empty()) {
    if (!insert) return nullptr;
    grow();
  }
  if (insert && (used_.size() + 1) * 2 > table_.size()) grow();
  const std::size_t mask = table_.size() - 1;
  std::size_t i = static_cast<std::size_t>((chunk ^ (std::uint64_t{cta} << 29)) * 0x9e3779b97f4a7c15ull >> 20) & mask;
  for (;; i = (i + 1) & mask) {
    Slot& s = table_[i];
    if (!s.used) {
      if (!insert) return nullptr;
      s.used = true;
      s.chunk = chunk;
      s.cta = cta;
      s.mask = 0;
      used_.push_back(static_cast<std::uint32_t>(i));
      return &s;
    }
    if (s.chunk == chunk && s.cta == cta) return &s;
  }
}

std::uint64_t InitChecker::written(std::uint64_t addr, unsigned n, std::uint32_t cta) {
  std::uint64_t out = 0;
  for (unsigned done = 0; done < n;) {
    const std::uint64_t a = addr + done;
    const unsigned at = static_cast<unsigned>(a % kChunk);
    const unsigned take = std::min<unsigned>(n - done, static_cast<unsigned>(kChunk) - at);
    if (const Slot* s = find(a / kChunk, cta, false)) out |= ((s->mask >> at) & low_bits(take)) << done;
    done += take;
  }
  return out;
}

void InitChecker::note_write(std::uint64_t addr, std::uint64_t bits, unsigned n, std::uint32_t cta) {
  for (unsigned done = 0; done < n;) {
    const std::uint64_t a = addr + done;
    const unsigned at = static_cast<unsigned>(a % kChunk);
    const unsigned take = std::min<unsigned>(n - done, static_cast<unsigned>(kChunk) - at);
    const std::uint64_t part = (bits >> done) & low_bits(take);
    if (part != 0) find(a / kChunk, cta, true)->mask |= part << at;
    done += take;
  }
}

void InitChecker::report(const WarpAccess& a, unsigned lane, std::uint64_t addr, bool shared) {
  SanitizerFinding f;
  f.tool = "initcheck";
  f.kind = "uninitialized_read";
  f.space = shared ? "shared" : "global";
  f.kernel = k_.name;
  f.block = x_.ctaid;
  f.address = addr;
  f.size = a.width;
  f.first = sanitizer_site(k_, a.pc, a.warp * kLanes + lane, x_.ntid);
  f.first.access = "read";
  log_.note_each(f, x_.cta_linear, kKeep);
}

void InitChecker::on_access(const WarpAccess& a) {
  if (inner_ != nullptr) inner_->on_access(a);
  if (shared_) {
    if (a.space == Space::kShared || a.space == Space::kDsmem) {
      on_shared(a);
      return;
    }
    // A bulk or tensor copy into shared memory: its destination is not traced (initcheck_shared.cpp).
    if (a.space == Space::kGlobal && a.op == Op::kBulkCopy) shared_bulk_destination();
  }
  if (a.space != Space::kGlobal) return;
  bool read = false, write = false;
  switch (a.op) {
    case Op::kLoad:
    case Op::kLdgsts:
    case Op::kBulkCopy: read = true; break;
    // Atomics and reductions read the old value first: the H200 reports an atomicAdd (a RED) on
    // unwritten bytes, and then counts them written (initcheck.txt, mode `atomic`: 64 reports,
    // none for the plain read after it).
    case Op::kAtomic:
    case Op::kReduction:
    case Op::kBulkRed: read = write = true; break;
    case Op::kStore:
    case Op::kBulkStore: write = true; break;
    default: return;
  }
  const unsigned width = std::min<unsigned>(a.width, 64);
  const std::uint32_t cta = per_cta_ ? 0 : x_.cta_linear;
  auto lanes = static_cast<std::uint32_t>(a.active.bits());
  // cp.async with src-size: lanes that read nothing or fewer bytes than `width` (zeros fill the
  // rest) are not checked.
  if (a.op == Op::kLdgsts && !a.tensor) lanes &= ~(a.no_read_lanes | a.fill_lanes);
  for (std::uint32_t b = lanes; b != 0; b &= b - 1) {
    const unsigned lane = static_cast<unsigned>(std::countr_zero(b));
    const std::uint64_t addr = a.addr[lane];
    std::uint64_t bits = 0;
    if (!shadow_.poisoned(addr, width, bits)) continue;  // the common case: initialised at launch start
    if (read && (bits & ~written(addr, width, cta)) != 0) report(a, lane, addr, false);
    if (write) note_write(addr, bits, width, cta);
  }
}

}  // namespace warpscope::exec
