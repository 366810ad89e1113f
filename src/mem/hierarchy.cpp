#include "mem/hierarchy.hpp"

#include <bit>

#include "common/error.hpp"
#include "mem/local_layout.hpp"

namespace warpscope::mem {

MemoryHierarchy::MemoryHierarchy(const arch::Profile& profile, unsigned sm_count)
    : profile_(profile), l2_(profile.l2) {
  if (sm_count == 0) fail(ErrorKind::kUsage, "a memory hierarchy needs at least one SM");
  l1_.reserve(sm_count);
  for (unsigned i = 0; i < sm_count; ++i) l1_.emplace_back(profile.l1);
}

std::uint64_t MemoryHierarchy::local_base(std::uint32_t cta, std::uint32_t warp) const {
  // At most 32 warps per CTA (1024 threads); every (CTA, warp) gets its own slot.
  const LocalLayout layout(profile_.warp_size);
  return kLocalWindow + (std::uint64_t{cta} * 32 + warp) * layout.warp_bytes(local_frame_bytes_);
}

void MemoryHierarchy::read_l2(std::uint64_t line, std::uint32_t sectors, std::uint64_t& sector_counter,
                              std::uint64_t& hit_counter) {
  const std::uint32_t n = static_cast<std::uint32_t>(std::popcount(sectors));
  sector_counter += n;
  CacheOutcome o = l2_.read(line, sectors);
  hit_counter += static_cast<std::uint32_t>(std::popcount(o.hit_mask));
  counters_.dram_read_bytes += std::uint64_t{profile_.l2.sector_bytes} * static_cast<std::uint32_t>(std::popcount(o.miss_mask));
  counters_.dram_write_bytes += std::uint64_t{profile_.l2.sector_bytes} * o.writeback_sectors;
}

void MemoryHierarchy::access(unsigned sm, const WarpAccess& a, const CoalesceResult& c) {
  if (a.space != Space::kGlobal && a.space != Space::kLocal) return;
  if (sm >= l1_.size()) fail(ErrorKind::kInternal, "SM {} of {}", sm, l1_.size());
  SectorCache& l1 = l1_[sm];
  L1Counters& l1c = counters_.l1[a.space == Space::kLocal ? 1 : 0][static_cast<unsigned>(a.op)];
  l1c.requests += c.requests;
  const std::uint64_t base = a.space == Space::kLocal ? local_base(a.cta, a.warp) : 0;
  const std::uint32_t line_bytes = profile_.l2.line_bytes;
  const std::uint32_t sector_bytes = profile_.l2.sector_bytes;

  for (std::uint32_t i = 0; i < c.transaction_count; ++i) {
    const Transaction& t = c.transactions[i];
    const std::uint64_t addr = base + t.addr;
    const std::uint64_t line = addr / line_bytes;
    // Sectors of the line the transaction covers (transactions never cross a line).
    const std::uint32_t first = static_cast<std::uint32_t>(addr % line_bytes) / sector_bytes;
    const std::uint32_t count = (t.bytes + sector_bytes - 1) / sector_bytes;
    const std::uint32_t mask = ((count >= 32 ? 0u : (1u << count)) - 1u) << first;
    l1c.sectors += count;

    if (!l2_.enabled() && !l1.enabled()) {  // cc 1.x: straight to DRAM
      (a.op == Op::kStore ? counters_.dram_write_bytes : counters_.dram_read_bytes) += t.bytes;
      continue;
    }
    switch (a.op) {
      case Op::kLoad: {
        std::uint32_t to_l2 = mask;
        if (c.cached_in_l1) {
          CacheOutcome o = l1.read(line, mask);
          l1c.sector_hits += static_cast<std::uint32_t>(std::popcount(o.hit_mask));
          to_l2 = o.miss_mask;
        }
        if (to_l2 != 0) read_l2(line, to_l2, counters_.l2_read_sectors, counters_.l2_read_hits);
        break;
      }
      case Op::kStore: {
        if (a.space == Space::kLocal && c.cached_in_l1) {
          // Local memory is private to its thread: stores allocate in L1 (a later load of the
          // same slot hits, as the H100 shows) and are written through to L2.
          CacheOutcome o = l1.write_allocate(line, mask);
          l1c.sector_hits += static_cast<std::uint32_t>(std::popcount(o.hit_mask));
        } else if (profile_.l1_store_policy == arch::L1StorePolicy::kInvalidate) {
          l1.invalidate(line);
        } else {
          CacheOutcome o = l1.update_if_present(line, mask);
          l1c.sector_hits += static_cast<std::uint32_t>(std::popcount(o.hit_mask));
        }
        CacheOutcome o = l2_.write_allocate(line, mask);
        counters_.l2_write_sectors += count;
        counters_.l2_write_hits += count;  // write-allocate without fetch never misses
        counters_.dram_write_bytes += std::uint64_t{sector_bytes} * o.writeback_sectors;
        if (!l2_.enabled()) counters_.dram_write_bytes += std::uint64_t{sector_bytes} * count;
        break;
      }
      case Op::kAtomic:
      case Op::kReduction: {
        l1.invalidate(line);
        const bool atom = a.op == Op::kAtomic;
        read_l2(line, mask, atom ? counters_.l2_atom_sectors : counters_.l2_red_sectors,
                atom ? counters_.l2_atom_hits : counters_.l2_red_hits);
        CacheOutcome o = l2_.write_allocate(line, mask);
        counters_.dram_write_bytes += std::uint64_t{sector_bytes} * o.writeback_sectors;
        break;
      }
    }
  }
}

void MemoryHierarchy::flush_l2() { counters_.dram_write_bytes += std::uint64_t{profile_.l2.sector_bytes} * l2_.flush(); }

}  // namespace warpscope::mem
