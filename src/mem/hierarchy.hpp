// The memory hierarchy one launch sees: an L1 per SM, one L2 for the device, and DRAM byte
// counters. It consumes warp accesses already coalesced (coalescer.hpp) and counts what every
// level does, with the counters Nsight Compute reports (design.md, "Nsight Compute names").
//
// Rules (design.md; seed 003; CUDA C Programming Guide, compute capability 2.x-9.0 "Global
// Memory"; the H100 measurements in tests/hw/data/h100):
//  - Loads. A load the coalescer marks cached_in_l1 looks its transactions' sectors up in its
//    SM's L1 (a 128-byte line transaction covers all 4 sectors of the line); L1 misses are read
//    from L2; L2 misses are read from DRAM. Other loads (.cg, or not cached by default) go to L2
//    directly; their L1 requests and sectors are still counted, with no hit.
//  - DRAM reads. An L2 miss (of a load or an atomic) reads the aligned profile.dram_fetch_bytes
//    that hold the sector (H100: the 64-byte sector pair). The other sectors of that run that are
//    not valid in L2 are filled too, and their bytes count as DRAM bytes read, but not as L2
//    sectors or hits. They are filled at the end of access(), after all of the warp access's
//    sectors have been looked up: sectors of one run that one access requests all miss, and
//    the run is read once (a single 32-byte miss reads 64 bytes, two in one pair 64, not 128).
//    Without an L2, reads are sector_bytes per sector.
//  - Global stores. L1 per profile.l1_store_policy: kInvalidate (Fermi/Kepler) evicts the line
//    from L1; kWriteThroughUpdate (Maxwell and later) updates the sectors present, which count as
//    L1 hits, and allocates nothing. Then the sectors are written into L2 (write-back,
//    write-allocate without fetch: valid and dirty). An L2 write never misses, so every written
//    sector counts as an L2 write hit (as the H100 reports lts__t_sectors_srcunit_tex_op_write
//    _lookup_hit). Dirty sectors reach DRAM when L2 evicts them or on flush_l2().
//  - Atomics and reductions are performed at L2, as a read-modify-write counted apart from reads
//    and writes: a miss reads the sector from DRAM; the sector is then dirty. They evict the
//    line from L1 (a copy there would be stale).
//  - Local memory. Transaction addresses (warp base 0, local_layout.hpp) are moved to the warp's
//    own base: kLocalWindow + (cta * 64 + warp) * (bytes of a warp's frames), frames of
//    set_local_frame_bytes() bytes per thread (default 1024). Then the global path, except that
//    where profile.local_cached_in_l1 a local store also allocates its sectors in L1 (written
//    through to L2, not dirty in L1): on the H100 local loads after local stores hit L1.
//  - Texture and surface accesses (the TEX pipe of L1TEX) take the global path, counted apart
//    (Counters::l1[2], [3]): texture and surface loads are looked up in L1 whatever the profile
//    says of global loads (the texture cache is the L1 on every profile with sectors; docs/mem.md).
//    Their lines come from the caller (the statistics deduplicate a fetch's footprint), made by
//    lines() of a global access.
//  - cp.async's global side (Op::kLdgsts) is served as a load (.ca through L1, .cg not), counted
//    apart in l1[0][kLdgsts]; its L2 reads are reads (tests/hw/data/h100/async).
//  - cp.async.bulk's global reads (Op::kBulkCopy) are L2 reads that pass the L1 (the Tensor Memory
//    Accelerator's; counted in l1[0][5] only for completeness, under no Nsight Compute name).
//  - Shared (and const) accesses are ignored: they never reach L1 or L2.
//  - A profile whose l1.bytes is 0 has no L1 (every lookup misses, nothing is kept); l2.bytes 0
//    means no L2: reads come from DRAM and writes go to DRAM at once, and the L2 counters stay 0
//    (cc 1.x). L1 requests and sectors are still counted: they are the LSU's transactions.
// Deterministic; not thread-safe (callers serialise access()).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "arch/profile.hpp"
#include "common/access.hpp"
#include "mem/coalescer.hpp"
#include "mem/sector_cache.hpp"

namespace warpscope::mem {

/// What the L1/TEX unit counts for one kind of access (l1tex__t_requests_..., l1tex__t_sectors_...,
/// ..._lookup_hit).
struct L1Counters {
  std::uint64_t requests = 0;
  std::uint64_t sectors = 0;
  std::uint64_t sector_hits = 0;
};

struct Counters {
  /// [0: global, 1: local, 2: texture, 3: surface][Op: 0 load, 1 store, 2 atomic, 3 reduction,
  /// 4 cp.async's global side (LDGSTS; Nsight Compute counts it under op_ld too, docs/mem.md)]
  std::array<std::array<L1Counters, kOpCount>, 4> l1{};
  std::uint64_t l2_read_sectors = 0, l2_read_hits = 0;    // lts__t_sectors_srcunit_tex_op_read
  std::uint64_t l2_write_sectors = 0, l2_write_hits = 0;  // ..._op_write
  std::uint64_t l2_atom_sectors = 0, l2_atom_hits = 0;    // ..._op_atom
  std::uint64_t l2_red_sectors = 0, l2_red_hits = 0;      // ..._op_red
  std::uint64_t dram_read_bytes = 0, dram_write_bytes = 0;
  /// L1 hits of global loads (and cp.async) served with a reader that are foreign hits
  /// (SectorCache::read): data another warp of the CTA brought with the same instruction
  /// (docs/time.md, "Shared misses"; no Nsight Compute counter: the H100 counts them as hits).
  std::uint64_t l1_foreign_hits = 0;

  /// The L1 counters of global, local, texture or surface accesses of one operation.
  static unsigned l1_index(Space space) {
    return space == Space::kLocal ? 1 : space == Space::kTexture ? 2 : space == Space::kSurface ? 3 : 0;
  }
  const L1Counters& at(Space space, Op op) const { return l1[l1_index(space)][static_cast<unsigned>(op)]; }
};
using HierarchyCounters = Counters;

class MemoryHierarchy {
 public:
  /// Keeps a reference to `profile`, which must outlive the hierarchy. Throws Error(kUsage) for
  /// sm_count 0, Error(kProfile) for an invalid cache geometry, L1 and L2 line or sector sizes
  /// that differ, or a dram_fetch_bytes that is not a multiple of the L2's sector up to its line.
  MemoryHierarchy(const arch::Profile& profile, unsigned sm_count);

  /// Bytes of local memory per thread (the kernel's frame); default 1024; 0 is refused.
  void set_local_frame_bytes(std::uint64_t bytes);
  /// Accounts one warp access and its coalescing (from a Coalescer of the same profile) on SM
  /// `sm` (< sm_count, else Error(kUsage)).
  void access(unsigned sm, const WarpAccess& access, const CoalesceResult& coalesced);

  /// access() in two steps, for callers that prepare accesses on several threads and apply them
  /// in order on one: lines() is const and depends only on the profile and the local frame
  /// size; apply() of its result has the same effect as access().
  struct Lines {
    Space space = Space::kGlobal;
    Op op = Op::kLoad;
    bool cached_in_l1 = false;
    std::uint32_t requests = 0;
    std::uint32_t count = 0;  // entries of `line` used
    std::array<LineSectors, 2 * CoalesceResult::kMaxTransactions> line{};
  };
  /// The lines and sectors of a coalesced global or local access (local ones at the warp's
  /// physical frames), consecutive transactions in one line merged into one entry (distinct
  /// sectors; looking them up together counts the same as one by one). Other spaces: no lines.
  void lines(const WarpAccess& access, const CoalesceResult& coalesced, Lines& out) const;
  /// A hint that apply() will soon serve these lines on SM `sm`: the host CPU fetches their L1
  /// and L2 sets ahead (the model's state does not change).
  void prefetch(unsigned sm, const LineSectors* lines, std::uint32_t count) const {
    if (sm >= l1_.size()) return;
    for (std::uint32_t i = 0; i < count; ++i) {
      l1_[sm].prefetch(lines[i].line);
      l2_.prefetch(lines[i].line);
    }
  }
  /// Serves the lines on SM `sm` (< sm_count, else Error(kUsage)) through L1, L2 and DRAM.
  /// `reader`: who reads global loads, for Counters::l1_foreign_hits (SectorCache::read; a zero
  /// bit: not counted).
  void apply(unsigned sm, Space space, Op op, bool cached_in_l1, std::uint32_t requests,
             const LineSectors* lines, std::uint32_t count, const CacheReader& reader = {});
  /// Writes every dirty L2 sector back to DRAM (end of a launch).
  void flush_l2();
  const Counters& counters() const { return counters_; }

  /// The physical base address of a warp's local frames (warp < kWarpSlotsPerCta, else
  /// Error(kUsage)).
  std::uint64_t local_base(std::uint32_t cta, std::uint32_t warp) const;
  static constexpr std::uint64_t kLocalWindow = 1ull << 60;
  static constexpr std::uint64_t kWarpSlotsPerCta = 64;

  const SectorCache& l1(unsigned sm) const { return l1_.at(sm); }
  const SectorCache& l2() const { return l2_; }

 private:
  void l2_read(std::uint64_t line, std::uint32_t sectors, std::uint64_t& sector_counter, std::uint64_t& hit_counter);
  void l2_write(std::uint64_t line, std::uint32_t sectors, bool count);
  void fill_fetch_partners();

  const arch::Profile& profile_;
  std::vector<SectorCache> l1_;
  SectorCache l2_;
  Counters counters_;
  std::uint64_t local_frame_bytes_ = 1024;
  std::uint32_t fetch_group_mask_ = 1;     // sectors of one DRAM fetch, at sector 0 of a line
  std::uint32_t fetch_group_sectors_ = 1;  // dram_fetch_bytes / sector_bytes
  std::vector<LineSectors> partners_;      // sectors to fill at the end of access()
};

}  // namespace warpscope::mem
