#include "mem/hierarchy.hpp"

#include <algorithm>
#include <bit>

#include "common/error.hpp"
#include "mem/local_layout.hpp"

namespace warpscope::mem {
namespace {

std::uint32_t popcount(std::uint32_t x) { return static_cast<std::uint32_t>(std::popcount(x)); }

}  // namespace

MemoryHierarchy::MemoryHierarchy(const arch::Profile& profile, unsigned sm_count) : profile_(profile), l2_(profile.l2) {
  if (sm_count == 0) fail(ErrorKind::kUsage, "a memory hierarchy needs at least one SM");
  if (profile.l1.line_bytes != profile.l2.line_bytes || profile.l1.sector_bytes != profile.l2.sector_bytes)
    fail(ErrorKind::kProfile, "profile '{}': L1 and L2 must have the same line and sector sizes", profile.name);
  if (profile.dram_fetch_bytes < profile.l2.sector_bytes || profile.dram_fetch_bytes > profile.l2.line_bytes ||
      profile.dram_fetch_bytes % profile.l2.sector_bytes != 0)
    fail(ErrorKind::kProfile, "profile '{}': dram_fetch_bytes {} is not a multiple of the L2's {}-byte sectors up to its "
         "{}-byte line", profile.name, profile.dram_fetch_bytes, profile.l2.sector_bytes, profile.l2.line_bytes);
  fetch_group_sectors_ = profile.dram_fetch_bytes / profile.l2.sector_bytes;
  fetch_group_mask_ = fetch_group_sectors_ >= 32 ? ~0u : (1u << fetch_group_sectors_) - 1u;
  partners_.reserve(256);
  l1_.reserve(sm_count);
  for (unsigned i = 0; i < sm_count; ++i) l1_.emplace_back(profile.l1);
}

void MemoryHierarchy::set_local_frame_bytes(std::uint64_t bytes) {
  if (bytes == 0) fail(ErrorKind::kUsage, "local frame of 0 bytes per thread");
  local_frame_bytes_ = bytes;
}

std::uint64_t MemoryHierarchy::local_base(std::uint32_t cta, std::uint32_t warp) const {
  if (warp >= kWarpSlotsPerCta)
    fail(ErrorKind::kUsage, "warp {} of a CTA: local frames are laid out for at most {} warps per CTA", warp,
         kWarpSlotsPerCta);
  const LocalLayout layout(profile_.warp_size);
  // Line-aligned: a warp's frames are a whole number of 4 * warp_size-byte runs.
  return kLocalWindow + (std::uint64_t{cta} * kWarpSlotsPerCta + warp) * layout.warp_bytes(local_frame_bytes_);
}

void MemoryHierarchy::l2_read(std::uint64_t line, std::uint32_t sectors, std::uint64_t& sector_counter,
                              std::uint64_t& hit_counter) {
  const std::uint64_t sector_bytes = l2_.geometry().sector_bytes;
  if (!l2_.enabled()) {  // no L2: straight from DRAM, nothing to count at L2
    counters_.dram_read_bytes += sector_bytes * popcount(sectors);
    return;
  }
  const CacheOutcome o = l2_.read(line, sectors);
  sector_counter += popcount(sectors);
  hit_counter += popcount(o.hit_mask);
  counters_.dram_read_bytes += sector_bytes * popcount(o.miss_mask);
  counters_.dram_write_bytes += sector_bytes * o.writeback_sectors;
  if (fetch_group_sectors_ > 1 && o.miss_mask != 0) {
    // Widen each miss to its aligned fetch group; the rest is filled at the end of access().
    std::uint32_t groups = 0;
    for (std::uint32_t first = 0; first < l2_.sectors_per_line(); first += fetch_group_sectors_) {
      const std::uint32_t group = fetch_group_mask_ << first;
      if ((o.miss_mask & group) != 0) groups |= group;
    }
    const std::uint32_t partners = groups & ~sectors;
    if (partners != 0) partners_.push_back(LineSectors{line, partners});
  }
}

void MemoryHierarchy::fill_fetch_partners() {
  const std::uint64_t sector_bytes = l2_.geometry().sector_bytes;
  for (const LineSectors& p : partners_) {
    // Sectors a later lookup of the same access brought in (or wrote) are not read again.
    const std::uint32_t missing = p.mask & ~l2_.valid_sectors(p.line);
    if (missing == 0) continue;
    const CacheOutcome o = l2_.read(p.line, missing);
    counters_.dram_read_bytes += sector_bytes * popcount(o.miss_mask);
    counters_.dram_write_bytes += sector_bytes * o.writeback_sectors;
  }
  partners_.clear();
}

void MemoryHierarchy::l2_write(std::uint64_t line, std::uint32_t sectors, bool count) {
  const std::uint64_t sector_bytes = l2_.geometry().sector_bytes;
  if (!l2_.enabled()) {
    counters_.dram_write_bytes += sector_bytes * popcount(sectors);
    return;
  }
  if (count) {
    // Write-allocate without fetch never misses: the H100 counts every write sector as a
    // lookup hit.
    counters_.l2_write_sectors += popcount(sectors);
    counters_.l2_write_hits += popcount(sectors);
  }
  const CacheOutcome o = l2_.write(line, sectors, WritePolicy::kAllocateNoFetch);
  counters_.dram_write_bytes += sector_bytes * o.writeback_sectors;
}

void MemoryHierarchy::lines(const WarpAccess& a, const CoalesceResult& c, Lines& out) const {
  out.space = a.space;
  out.op = a.op;
  out.cached_in_l1 = c.cached_in_l1;
  out.requests = c.requests;
  out.count = 0;
  if (a.space != Space::kGlobal && a.space != Space::kLocal) return;
  const std::uint64_t base = a.space == Space::kLocal ? local_base(a.cta, a.warp) : 0;
  const std::uint32_t line_bytes = l2_.geometry().line_bytes;
  for (std::uint32_t i = 0; i < c.transaction_count; ++i) {
    const Transaction& t = c.transactions[i];
    const std::uint64_t addr = base + t.addr;
    // Transactions are aligned to their size; one larger than a line is taken line by line.
    for (std::uint32_t off = 0; off < t.bytes; off += line_bytes) {
      const LineSectors s = l2_.span(addr + off, std::min<std::uint32_t>(t.bytes - off, line_bytes));
      if (out.count != 0) {
        LineSectors& last = out.line[out.count - 1];
        if (s.line == last.line && (s.mask & last.mask) == 0) {
          last.mask |= s.mask;
          continue;
        }
      }
      if (out.count == out.line.size())
        fail(ErrorKind::kUsage, "an access covering more than {} lines", out.line.size());
      out.line[out.count++] = s;
    }
  }
}

void MemoryHierarchy::access(unsigned sm, const WarpAccess& a, const CoalesceResult& c) {
  if (a.space != Space::kGlobal && a.space != Space::kLocal) return;
  Lines l;
  lines(a, c, l);
  apply(sm, l.space, l.op, l.cached_in_l1, l.requests, l.line.data(), l.count);
}

void MemoryHierarchy::apply(unsigned sm, Space space, Op op, bool cached_in_l1, std::uint32_t requests,
                            const LineSectors* lines, std::uint32_t count, const CacheReader& reader) {
  if (space == Space::kShared || space == Space::kConst) return;
  if (sm >= l1_.size()) fail(ErrorKind::kUsage, "SM {} of a hierarchy with {} SMs", sm, l1_.size());
  SectorCache& l1 = l1_[sm];
  const bool local = space == Space::kLocal;
  L1Counters& l1c = counters_.l1[Counters::l1_index(space)][static_cast<unsigned>(op)];
  l1c.requests += requests;
  const bool local_in_l1 = local && profile_.local_cached_in_l1;
  for (std::uint32_t i = 0; i < count; ++i) {
    const LineSectors& s = lines[i];
    l1c.sectors += popcount(s.mask);
    switch (op) {
      case Op::kLoad:
      case Op::kLdgsts: {
        std::uint32_t to_l2 = s.mask;
        if (cached_in_l1) {
          const CacheOutcome o = l1.read(s.line, s.mask, local ? CacheReader{} : reader);
          l1c.sector_hits += popcount(o.hit_mask);
          counters_.l1_foreign_hits += popcount(o.foreign_hit_mask);
          to_l2 = o.miss_mask;
        }
        if (to_l2 != 0) l2_read(s.line, to_l2, counters_.l2_read_sectors, counters_.l2_read_hits);
        break;
      }
      case Op::kStore:
        if (local_in_l1) {
          l1c.sector_hits += popcount(l1.write(s.line, s.mask, WritePolicy::kAllocateWriteThrough).hit_mask);
        } else if (profile_.l1_store_policy == arch::L1StorePolicy::kInvalidate) {
          l1.invalidate(s.line);
        } else {
          l1c.sector_hits += popcount(l1.write(s.line, s.mask, WritePolicy::kUpdateIfPresent).hit_mask);
        }
        l2_write(s.line, s.mask, true);
        break;
      case Op::kBulkCopy:  // read from L2 by the TMA, past the L1
        l2_read(s.line, s.mask, counters_.l2_read_sectors, counters_.l2_read_hits);
        break;
      case Op::kBulkStore:  // written to L2 by the TMA, past the L1
        l2_write(s.line, s.mask, true);
        break;
      case Op::kAtomic:
      case Op::kReduction:
      case Op::kBulkRed: {  // the TMA's reductions are L2 read-modify-writes, past the L1
        l1.invalidate(s.line);
        const bool atom = op == Op::kAtomic;
        l2_read(s.line, s.mask, atom ? counters_.l2_atom_sectors : counters_.l2_red_sectors,
                atom ? counters_.l2_atom_hits : counters_.l2_red_hits);
        l2_write(s.line, s.mask, false);  // the read-modify-write leaves the sectors dirty
        break;
      }
      case Op::kGmma:  // wgmma reads shared memory only: its records never reach the caches
        break;
    }
  }
  if (!partners_.empty()) fill_fetch_partners();
}

void MemoryHierarchy::flush_l2() {
  counters_.dram_write_bytes += std::uint64_t{l2_.geometry().sector_bytes} * l2_.flush();
}

}  // namespace warpscope::mem
