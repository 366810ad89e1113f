// Statistics of one kernel launch: the memory model (src/mem) fed with the interpreter's warp
// access records, counted per launch under Nsight Compute's names and per PTX instruction.
//
// Contract:
//  - A LaunchCollector is an AccessSink. It runs one memory model per profile it was given (the
//    first is the primary one; the others are `--compare-arch`'s): each has its own coalescer,
//    L1s, L2 and DRAM counters, and sees the same records in the same order.
//  - CTA placement (docs/report.md "How CTAs meet the caches"): the block scheduler's, as
//    cta_placement.hpp models it from the blocks each SM holds (set_blocks_per_sm; without it,
//    CTA c runs on SM c mod sm_count).
//  - Order (CtaOrder::kInterleaved, the default): the CTAs of one wave (resident together) are
//    served through the caches interleaved, their k-th cache operations one after another in CTA
//    order before any (k+1)-th: each SM's L1 sees its resident CTAs' accesses mixed, the L2 all
//    SMs'. An estimate of the timeline (every resident CTA issues its memory instructions at the
//    same rate from the wave's start), the same for any thread count: the waves and their order
//    depend on the records alone. At most kPendingBytes of operations wait per model; the wave's
//    operations so far are served when they reach it. kSequential: CTA after CTA (before 2026-11-29).
//  - It is a ShardedSink: on the threads that run CTAs, a shard coalesces each record, computes
//    its shared-memory wavefronts and the per-instruction figures, and lists the cache lines it
//    touches; merge(), in CTA order, serves those lines through the caches and adds the shard's
//    figures to the launch's. Every counter is therefore the same for any thread count. Records
//    given to on_access() directly are treated as one part per run of records of one CTA.
//  - Per instruction (WarpAccess::pc): executions, active lanes, requests, sectors (the profile's
//    transactions), ideal sectors = per access ceil(distinct bytes / transaction unit), bytes
//    requested and moved, L1 and L2 hit sectors, shared wavefronts and ideal wavefronts, and the
//    evidence the advice rules read (uniform accesses, constant strides, misalignment), plus one
//    sample access: the one with the most excess (first on ties).
//  - cp.async (Op::kLdgsts): its global record is served as a load of the lanes that read (one
//    instruction, requests, sectors, L1/L2 as .ca/.cg say); its shared record (part 1, right
//    after) adds the shared wavefronts of mem/async_copy.hpp to the same instruction's row.
//  - cp.async.bulk (Op::kBulkCopy, records `part` 0, 1, ... of one copy): L2 reads only. A
//    tensor copy also keeps its first box (TmaBox: the lowest CTA's first execution).
//  - wgmma (Op::kGmma, records `part` 0, 1, ... of one warp's share): one instruction per warp
//    (its part 0), the bank rule's wavefronts of each core-matrix record, bytes = the records'
//    active lanes x 16; counted apart from the shared loads (gmma_*).
//  - A record the model rejects (a misaligned word the interpreter let through) is counted in
//    model_errors with the first message; it never aborts the program.
// on_access() and merge() are not thread-safe (src/exec calls them from one thread at a time);
// shards are used each by one thread, concurrently with each other and with merge().
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "arch/profile.hpp"
#include "common/access.hpp"
#include "mem/hierarchy.hpp"
#include "stats/atomic_contention.hpp"
#include "stats/host_mapped.hpp"

namespace warpscope::stats {

/// One warp's access as the model served it (for the pictures and the advice).
struct Sample {
  std::uint32_t cta = 0, warp = 0;
  std::uint8_t width = 4;
  LaneMask active;
  PerLane<std::uint64_t> addr{};  // physical addresses (local: interleaved layout, warp base added)
  std::vector<std::pair<std::uint64_t, std::uint32_t>> transactions;  // [first byte, bytes]
  std::uint64_t bytes_requested = 0, bytes_moved = 0;
  std::uint32_t wavefronts = 0;
  std::string unit;  // what one transaction is: "sector", "line", "segment", "wavefront"
};

/// One box of a tensor copy (cp.async.bulk.tensor) as the TMA moved it, for the box picture and
/// the swizzle advice: the first execution of the instruction in the launch (its lowest CTA).
/// One entry per record of the copy: a box row, or a 512-byte piece of a longer row.
struct TmaBox {
  static constexpr std::size_t kMaxRows = 256;  // more are dropped (`truncated`)
  struct Row {
    std::uint64_t global = 0;  // first byte in global memory
    std::uint32_t bytes = 0;   // bytes moved (whole 16-byte chunks)
    std::uint32_t shared = 0;  // its shared address before the swizzle
  };
  std::uint32_t cta = 0, warp = 0;
  std::uint32_t swizzle_bytes = 0;  // the tensor map's swizzle span: 0 (none), 32, 64, 128
  std::vector<Row> rows;
  bool truncated = false;
};

/// Counters of one PTX instruction over a launch (memory instructions only).
struct InstructionStats {
  bool seen = false;
  Space space = Space::kGlobal;
  Op op = Op::kLoad;
  CacheOp cache = CacheOp::kDefault;
  std::uint8_t width = 4;
  bool matrix = false;  // ldmatrix/stmatrix: its records (and sample) are 8x8 matrices (WarpAccess::matrix)
  std::uint64_t executions = 0, active_lanes = 0;
  std::uint64_t requests = 0, sectors = 0, ideal_sectors = 0;
  // Global loads, stores, atomics, reductions, cp.async: the distinct 128-byte lines of each warp
  // request, summed (Nsight Compute's per-instruction memory_l1_tag_requests_global: one tag lookup
  // per line a request touches, tests/hw/data/h200/ncurep_source; docs/report.md "Source counters").
  std::uint64_t l1_tag_requests = 0;
  // Global atomics and reductions: the distinct sectors of each warp request, summed (Nsight
  // Compute's per-instruction memory_l2_theoretical_sectors_global: 1 per warp for one address,
  // where `sectors` counts the L1's passes, 32; tests/hw/data/h200/ncurep_source, atom_same).
  std::uint64_t theoretical_sectors = 0;
  // Bulk/tensor loads with .multicast::cluster: the sectors delivered to the CTAs of the ctaMask
  // beyond the first (WarpAccess::destinations); the L2 reads them once (`sectors`).
  std::uint64_t multicast_sectors = 0;
  std::uint64_t bytes_requested = 0, bytes_moved = 0;
  std::uint64_t l1_hit_sectors = 0, l2_hit_sectors = 0;
  // L1 hits on sectors another warp of the CTA filled with this instruction and this warp had not
  // read: data another warp's miss brought, which the warp waits for as that miss does when the
  // warps read together (the time model's latency; mem::Counters::l1_foreign_hits).
  std::uint64_t l1_foreign_hit_sectors = 0;
  std::uint64_t wavefronts = 0, ideal_wavefronts = 0;
  // Evidence for the advice rules.
  std::uint64_t partial_executions = 0;   // fewer than warp_size lanes active
  std::uint64_t uniform_executions = 0;   // every active lane (at least 2) on the same address
  std::uint64_t strided_executions = 0;   // a constant stride (!= 0) across the active lanes
  std::int64_t stride = 0;                // that stride, when all strided executions agree
  bool stride_varies = false;
  std::uint64_t misaligned_executions = 0;  // consecutive words whose run starts off a unit boundary
  std::uint64_t misalign_min = 0, misalign_max = 0;  // the offsets, in bytes (for the message)
  std::shared_ptr<Sample> sample;  // (a pointer: statistics move between threads often, samples rarely)
  std::uint64_t sample_excess = 0;
  // Local accesses: the frame offsets they touched, and whether the offset was a run-time value.
  std::uint64_t local_min = ~std::uint64_t{0}, local_end = 0;  // [min, end) of the bytes touched
  bool offset_varies = false;     // lanes or executions used different offsets: a dynamic index
  std::uint64_t first_seen = 0;   // order of the instruction's first record in the launch
  std::uint64_t in_registers = 0; // executions not sent to the model: ptxas keeps the array in registers
  // cp.async of 4 or 8 bytes: executions whose active lanes come in runs of 16 / width
  // consecutive lanes copying consecutive words, each run's source 16-byte aligned and its
  // destinations consecutive too (one 16-byte copy per run would do the same).
  std::uint64_t widenable_executions = 0;
  bool tensor = false;  // a cp.async.bulk.tensor (Op::kBulkCopy / kBulkStore)
  std::shared_ptr<TmaBox> box;  // a tensor copy's first box (TmaBox)
  bool box_open = false;        // the records being received belong to `box`'s execution

  std::uint64_t excessive_sectors() const { return sectors - ideal_sectors; }
  std::uint64_t excess_wavefronts() const { return wavefronts - ideal_wavefronts; }
};

/// The line of constant memory ModelResult::const_lines counts: 64 bytes, the unit in which the
/// H100's constant streams slow down (tests/hw/data/h100/timing/const_cache.txt: eight 8-byte LDC.64
/// per line; docs/time.md, "Constant data").
inline constexpr std::uint64_t kConstLineBytes = 64;

/// What one profile's model counted over a launch.
struct ModelResult {
  const arch::Profile* profile = nullptr;
  mem::Counters counters;  // L1/L2/DRAM (after the end-of-launch L2 flush)
  /// [Space][Op] warp memory instructions executed (the SASS-style counts); cp.async counts once,
  /// under [kGlobal][kLdgsts].
  std::uint64_t instructions[kSpaceCount][kOpCount] = {};
  std::uint64_t global_bytes_requested = 0, global_bytes_moved = 0;
  // Shared memory by operation: 0 loads, 1 stores, 2 atomics and reductions (Nsight Compute counts
  // shared atomics under op_atom, tests/hw/data/h100/accuracy).
  std::uint64_t shared_wavefronts[3] = {}, shared_ideal[3] = {}, shared_conflicts[3] = {};
  // cp.async's writes to shared memory (mem/async_copy.hpp), apart from the loads and stores.
  std::uint64_t ldgsts_wavefronts = 0, ldgsts_ideal = 0, ldgsts_conflicts = 0;
  // ldmatrix/stmatrix (LDSM/STSM, WarpAccess::matrix): 0 loads, 1 stores. Their wavefronts are in
  // shared_wavefronts; the instructions are not in `instructions` (Nsight Compute counts them
  // apart from LDS/STS: tests/hw/data/h100/tensor).
  std::uint64_t matrix_instructions[2] = {}, matrix_wavefronts[2] = {}, matrix_conflicts[2] = {};
  // Distributed shared memory (Space::kDsmem) by operation (0 loads, 1 stores, 2 atomics and
  // reductions, which the H100 counts as atomics): [instructions, requests, sectors, T-stage output
  // wavefronts, bytes over the crossbar each way] (docs/mem.md, "Distributed shared memory").
  std::uint64_t dsmem[3][5] = {};
  // Bulk copies (0) and bulk reductions (1) from shared::cta into a cluster CTA's shared memory
  // (the TMA's UBLKCP.S.S / UBLKRED.S.S): [instructions, distinct 32-byte destination sectors]
  // (docs/mem.md, "Distributed shared memory").
  std::uint64_t dsmem_bulk[2][2] = {};
  // wgmma's operand reads (Op::kGmma): bytes read through the descriptors, their wavefronts
  // (apart from shared_wavefronts: ncu's op_gmma) and conflicts. Its warp instructions are
  // instructions[kShared][kGmma].
  std::uint64_t gmma_bytes = 0, gmma_wavefronts = 0, gmma_ideal = 0, gmma_conflicts = 0;
  // Per SM, as the model places CTAs (CTA c on SM c mod sm_count): the L1's requests, sectors and
  // hits by [space][op], and shared wavefronts by op (0 loads, 1 stores, 2 atomics), for Nsight
  // Compute's .min/.max over SMs (unit_extremes_json). Sized sm_count once a CTA is merged.
  struct SmCounters {
    decltype(mem::Counters::l1) l1{};
    std::uint64_t shared_wavefronts[3] = {};
  };
  std::vector<SmCounters> per_sm;
  AtomicContention atomics;  // global atomics per address and line (the same for every profile)
  HostMappedBytes host_mapped;  // zero-copy bytes (the same for every profile)
  // The distinct 64-byte lines of constant memory (`.const` loads) each CTA read, summed over
  // the CTAs the statistics saw (the same for every profile): the time model's first reads of
  // constant lines (docs/time.md, "Constant data"). Kernel parameters are not in it.
  std::uint64_t const_lines = 0;
  // The distinct 64-byte constant lines the whole launch read (the union over its CTAs): what a
  // launch fetches of its __constant__ data (launch_fetch_bytes).
  std::uint64_t launch_const_lines = 0;
  std::uint64_t model_errors = 0;
  std::string first_model_error;
  std::vector<InstructionStats> per_pc;  // indexed by WarpAccess::pc (may be shorter than the code)
};

/// How the caches see the CTAs of a launch (LaunchCollector).
enum class CtaOrder { kInterleaved, kSequential };

class LaunchCollector final : public ShardedSink {
 public:
  /// Cache operations (and their lines) of one wave a model holds before serving them.
  static constexpr std::size_t kPendingBytes = std::size_t{256} << 20;

  /// `profiles` (at least one, each outliving the collector): the primary first.
  explicit LaunchCollector(std::vector<const arch::Profile*> profiles);
  ~LaunchCollector() override;

  /// Bytes of local memory per thread (the kernel's frame), for the physical local layout.
  void set_local_frame_bytes(std::uint64_t bytes);
  /// ptxas kept every PTX local array of the kernel in registers (a 0-byte stack frame): local
  /// records are then counted per instruction (executions, offsets, in_registers) but are not
  /// memory traffic and reach neither the counters nor the caches.
  void set_local_in_registers(bool in_registers);
  /// CTA sampling (`--sample-ctas`): only CTAs whose index is a multiple of `every` feed the
  /// models (every CTA still runs); 1 (the default) samples all. See scale_sampled().
  void set_cta_sample_stride(std::uint32_t every) { sample_every_ = every == 0 ? 1 : every; }
  /// CTAs one SM holds at once under each model's profile (the occupancy calculator's blocks per
  /// SM; the primary first, 0: unknown), for the placement (cta_placement.hpp). Call before the
  /// first record.
  void set_blocks_per_sm(const std::vector<std::uint32_t>& per_model);
  /// The launch's CTAs: a launch of one CTA has nothing to interleave, so its records go to the
  /// caches as they come (the same counts, and no wave is held in memory). Call before the first record.
  void set_launch_ctas(std::uint64_t ctas);
  /// The order in which the caches see the CTAs; the default is kInterleaved, or kSequential
  /// where the environment has WARPSCOPE_CTA_ORDER=sequential (or =round-robin: sequential, and
  /// set_blocks_per_sm() ignored, as the model was before 2026-11-29). Call before the first record.
  void set_cta_order(CtaOrder order) { order_ = order; }
  /// Which instructions (by pc) are floating-point atomic adds, for ModelResult::atomics.
  void set_float_atomic_pcs(std::vector<bool> pcs) { float_atomic_pcs_ = std::move(pcs); }
  /// Which atomics (by pc) ptxas aggregates per warp (AtomicCounter::note's warp_aggregated).
  void set_aggregated_atomic_pcs(std::vector<bool> pcs) { aggregated_atomic_pcs_ = std::move(pcs); }
  /// Host memory mapped into the device (sorted, disjoint), for ModelResult::host_mapped.
  void set_host_mapped(AddressRanges ranges) { host_mapped_ranges_ = std::move(ranges); }
  void on_access(const WarpAccess& access) override;
  std::unique_ptr<Shard> make_shard() override;
  void merge(std::uint32_t cta, std::unique_ptr<CtaPart> part) override;
  /// Flushes L2 and returns every model's result, the primary first. Call once.
  std::vector<ModelResult> finish();

 private:
  struct Model;
  class CollectorShard;
  /// Serves ops [0, count) of `ops` (their lines in `lines`) through model `m`'s caches, crediting
  /// hits to their instructions and SMs.
  struct OpRef;
  void serve(Model& m, const OpRef* refs, std::size_t count);
  void flush_pending(Model& m);
  std::vector<std::unique_ptr<Model>> models_;
  bool local_in_registers_ = false;
  std::uint32_t sample_every_ = 1;
  std::uint64_t records_ = 0;
  std::vector<bool> float_atomic_pcs_;
  std::vector<bool> aggregated_atomic_pcs_;
  AtomicCounter atomics_;
  AddressRanges host_mapped_ranges_;
  HostMappedBytes host_mapped_;
  std::uint64_t const_lines_ = 0;  // ModelResult::const_lines
  std::vector<std::uint64_t> launch_const_lines_;  // ModelResult::launch_const_lines (sorted ids)
  CtaOrder order_ = CtaOrder::kInterleaved;
  bool round_robin_ = false;  // WARPSCOPE_CTA_ORDER=round-robin: set_blocks_per_sm() is ignored
  std::vector<OpRef> refs_;  // serve()'s order of operations
  std::unique_ptr<Shard> direct_;  // on_access()'s shard
  std::uint32_t direct_cta_ = 0;
};

/// Warp-level memory instructions of one space and op.
inline std::uint64_t instruction_count(const ModelResult& r, Space s, Op o) {
  return r.instructions[static_cast<unsigned>(s)][static_cast<unsigned>(o)];
}

}  // namespace warpscope::stats
