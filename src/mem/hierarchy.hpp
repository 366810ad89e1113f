// The memory hierarchy one launch sees: an L1 per SM, one L2, DRAM byte counters. It consumes
// warp accesses already coalesced (coalescer.hpp) and counts what every level does.
//
// Rules (design.md; the H100 measurements in tests/hw/data/h100):
//  - A load that takes the L1 path looks up its sectors in its SM's L1; misses are read from L2;
//    L2 misses are read from DRAM (32 bytes a sector). Other loads go to L2 directly.
//  - A store applies the profile's L1 policy (Fermi/Kepler: the line is evicted from L1;
//    Maxwell and later: sectors present in L1 are updated and counted as hits), then writes L2:
//    write-back, write-allocate without fetch. An L2 write never misses (the H100 reports every
//    write sector as a lookup hit); dirty sectors reach DRAM when evicted or on flush_l2().
//  - Local stores that take the L1 path allocate their sectors in L1 (a later load of the slot
//    hits there, as on the H100) and are written through to L2.
//  - Atomics and reductions are performed at L2 (a read-modify-write: an L2 miss reads the
//    sector from DRAM; the sector is then dirty).
//  - Local memory: the transactions' addresses (warp base 0, see local_layout.hpp) are placed at
//    a per-warp base far above global memory, distinct for every (CTA, warp), sized by
//    set_local_frame_bytes(); then the same path as global memory, through L1 when the profile
//    caches local memory there.
//  - Without L2 (cc 1.x profiles have neither cache), every transaction moves its bytes to or
//    from DRAM.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "arch/profile.hpp"
#include "common/access.hpp"
#include "mem/coalescer.hpp"
#include "mem/sector_cache.hpp"

namespace warpscope::mem {

struct L1Counters {
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
  std::uint64_t sector_hits = 0;
};

struct HierarchyCounters {
  /// [0: global, 1: local][0: load, 1: store, 2: atomic, 3: reduction]
  std::array<std::array<L1Counters, 4>, 2> l1{};
  std::uint64_t l2_read_sectors = 0, l2_read_hits = 0;
  std::uint64_t l2_write_sectors = 0, l2_write_hits = 0;
  std::uint64_t l2_atom_sectors = 0, l2_atom_hits = 0;
  std::uint64_t l2_red_sectors = 0, l2_red_hits = 0;
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;

  const L1Counters& at(Space space, Op op) const {
    return l1[space == Space::kLocal ? 1 : 0][static_cast<unsigned>(op)];
  }
};

class MemoryHierarchy {
 public:
  MemoryHierarchy(const arch::Profile& profile, unsigned sm_count);

  /// Bytes of local memory per thread (the kernel's frame); default 1024.
  void set_local_frame_bytes(std::uint64_t bytes) { local_frame_bytes_ = bytes; }
  /// Accounts one coalesced warp access (global or local; shared accesses are ignored) on `sm`.
  void access(unsigned sm, const WarpAccess& access, const CoalesceResult& coalesced);
  /// Writes every dirty L2 sector back to DRAM (end of a launch, when measuring write-backs).
  void flush_l2();
  const HierarchyCounters& counters() const { return counters_; }
  /// The physical base address of a warp's local frames.
  std::uint64_t local_base(std::uint32_t cta, std::uint32_t warp) const;

  static constexpr std::uint64_t kLocalWindow = 1ull << 60;

 private:
  void read_l2(std::uint64_t line, std::uint32_t sectors, std::uint64_t& sector_counter, std::uint64_t& hit_counter);

  const arch::Profile& profile_;
  std::vector<SectorCache> l1_;
  SectorCache l2_;
  HierarchyCounters counters_;
  std::uint64_t local_frame_bytes_ = 1024;
};

}  // namespace warpscope::mem
