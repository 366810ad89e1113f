// The time model (docs/time.md): a launch's predicted GPU duration from its instruction mix,
// memory counters, shape and occupancy, with the limiter and Speed Of Light throughputs.
//
// Per SM sub-partition (one warp scheduler), the resident warps of a wave form a closed queueing
// network solved by mean value analysis: each warp cycles through its issue slots and the pipes
// it uses (FP32, FP64, MUFU, integer, the L1's tag and data stages, shared by the SM's
// schedulers) and a delay equal to the latency its instructions wait for that the pipes do not
// already account for (Little's law: more warps hide more of it). Waves of CTAs run one after
// another, the last one with the CTAs left (the tail). L2 and DRAM bandwidth bound the whole
// launch; a fixed launch overhead is added.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "timing/constants.hpp"
#include "timing/contention.hpp"

namespace warpscope::timing {

/// Warp-level instructions a launch executed, by what they occupy.
struct InstructionMix {
  double total = 0;                     // every warp instruction (issue slots)
  double fp32 = 0, fp64 = 0, mufu = 0, integer = 0;
  double global_loads = 0, local_loads = 0, shared_loads = 0;  // wait for their data
  double stores = 0, atomics = 0;       // global/local/shared stores; atomics and reductions
  // Loads issued right after another load whose address does not use its result: their latency
  // overlaps the previous one's (memory-level parallelism within a warp).
  double overlapped_loads = 0;
  // Counted from the machine code: constant loads (LDC: the ADU pipe) and the uniform datapath
  // (U*, S2UR, R2UR) take issue slots only; tensor-core instructions (HMMA, IMMA, DMMA) also the
  // tensor pipe where the profile has its rate.
  double constant_loads = 0, uniform = 0, tensor = 0;
  double tensor_fp64 = 0;  // of `tensor`, the FP64 ones (DMMA): the tensor pipe's slower rate
  // wgmma.mma_async (HGMMA, QGMMA, IGMMA: warpgroup instructions): the SM tensor-pipe cycles they
  // take, max(N / 2, 24) each whatever the type (tests/hw/data/h100/timing/wgmma_rate.txt);
  // added to the tensor pipe as `gmma_cycles x rate_tensor` of its units (add_wgmma).
  double gmma_cycles = 0;
  // The warps' own time through their instructions, summed over the launch's warps, from the
  // machine code's control words (src/analysis/sass_latency); < 0: not known, the model takes
  // the in-order dependent chain of the classes above (ILP 1).
  double latency_cycles = -1;
  bool from_machine_code = false;       // counted from SASS (else estimated from the PTX)
};

/// What the memory model counted (per launch, over all CTAs).
struct MemoryCounts {
  double lsu_requests = 0;       // L1 tag lookups: global, local and shared instructions
  double l1_wavefronts = 0;      // data-stage wavefronts: global/local (sectors / 4 at least one a request) + shared (with conflicts)
  double global_load_sectors = 0, l1_hit_sectors = 0;  // for the load latency mix
  double l2_sectors = 0, l2_hit_sectors = 0;           // L2 lookups (read, write, atomic)
  // The loads' side of the L2 (the load latency mix): read lookups and their hits, and the
  // atomic/reduction sectors (which also read DRAM when they miss).
  double l2_read_sectors = 0, l2_read_hit_sectors = 0, l2_atomic_sectors = 0;
  double dram_read_bytes = 0, dram_write_bytes = 0;
};

struct LaunchShape {
  std::uint64_t ctas = 0;
  std::uint32_t warps_per_cta = 0;
  std::uint32_t ctas_per_sm = 0;  // the occupancy calculator's blocks per SM (0: does not fit)
  std::uint32_t sm_count = 0;
  std::uint32_t max_warps_per_sm = 0;
  // The busiest CTA's instructions over the mean CTA's (>= 1; LaunchStats::cta_instructions_max):
  // a CTA that does more than its share holds its SM longer (docs/time.md, "The busiest CTA").
  double cta_imbalance = 1;
};

struct Prediction {
  double duration_ns = 0;   // gpu__time_duration.sum
  double sm_cycles = 0;     // the busiest SM's cycles (without the launch overhead)
  std::string limiter;      // issue, fp32, fp64, mufu, integer, lsu, l1, latency, l2, dram, launch,
                            // tensor, clock (a clock spin), atomic (same-address atomics), printf, heap,
                            // host (zero-copy memory), cta_launch (starting the CTAs), constant (first reads of constant
                            // lines are more than half of a warp's time)
  double sm_pct = 0;        // sm__throughput: the busiest SM pipe's share of its peak
  double memory_pct = 0;    // gpu__compute_memory_throughput: the busiest memory unit
  double l1_pct = 0, l2_pct = 0, dram_pct = 0;
  double occupancy_pct = 0; // sm__warps_active: achieved occupancy
  double waves = 0;         // CTAs / (SMs x CTAs per SM)
  double latency_share = 0; // fraction of a warp's time spent waiting on latency no pipe hides
  nlohmann::json components;  // the cycle figures behind the limiter
};

/// Predicts one launch. Throws warpscope::Error when a CTA does not fit on an SM. `serial` and
/// `sc` (may be nullptr: no measured constants) add the serialised costs of contention.hpp.
Prediction predict(const TimeConstants& c, const LaunchShape& shape, const InstructionMix& mix,
                   const MemoryCounts& mem, const SerialCounts& serial = {}, const SerialConstants* sc = nullptr);

/// Latency of a global load: L1 hits, then L2 hits, then DRAM, by the launch's hit rates. The L2
/// part is the read lookups' hit rate, less the hits on sectors that DRAM delivered only as the
/// pair partner of another sector's miss (the 64-byte fetch, docs/mem.md): the memory model sees
/// those requests one after another, but on the GPU the warps that ask for both halves run at
/// once, so the partner is still on its way from DRAM (the H100 counts 4 % of alignedTypes'
/// byte-load sectors as hits where the model's order gives 50 %).
double global_load_latency(const TimeConstants& c, const MemoryCounts& mem);

/// The share of the launch's L2 read hits that are real hits (not pair partners still on their
/// way, above); 1 when there is no read hit.
double l2_real_hit_share(const MemoryCounts& mem);

/// Cycles an L1 hit of a `width_bytes`-byte load (per thread) takes beyond a 4-byte one's.
double l1_width_extra(const TimeConstants& c, unsigned width_bytes);

/// Latency of a load of which `l1_hit` (0..1) of the sectors hit in L1 and `l2_hit` of the rest in L2.
double load_latency(const TimeConstants& c, double l1_hit, double l2_hit);

/// Latency of one load instruction from its own counts (the memory model's per-instruction
/// statistics): `sectors` looked up, `l1_hits` of them in L1, `l2_hits` of the rest in L2 (real
/// hits: scaled by l2_real_hit_share); `sectors` 0: the launch's mix (global_load_latency). A
/// warp's loads of one 128-byte line one after another (a misaligned struct read byte by byte)
/// then wait as long as the first, whose miss brings the line, where the launch's mean latency
/// would give each the average. Its L1 hits take l1_width_extra(width_bytes) longer.
/// `foreign_hits` of the L1 hits are in lines the warp had not read since another warp's miss
/// filled them: warps that read the same data together wait for that miss as its warp does (the
/// H100: tests/hw/timing/shared_stream.cu; docs/time.md, "Shared misses"), so they take the
/// latency of the instruction's misses (its L2 hit share; the L2's latency when it has no misses).
/// `burst_hits` of the L1 hits come in bursts: broadcast loads (every lane on one address) of warps
/// that run together, which the fills they wait for together keep in step, reach the L1's data
/// stage at once, so each such hit waits `burst_cycles` more (convoy_burst_cycles).
double instruction_load_latency(const TimeConstants& c, const MemoryCounts& mem, double sectors, double l1_hits,
                                double l2_hits, unsigned width_bytes = 4, double foreign_hits = 0,
                                double burst_hits = 0, double burst_cycles = 0);

/// The mean wait of one warp's load in a burst of `warps` warps' loads at the L1's data stage,
/// each returning `bytes_per_warp` (active lanes x width) at 128 bytes a cycle (docs/time.md,
/// "Shared misses"): (warps - 1) / 2 x ceil(bytes_per_warp / 128).
double convoy_burst_cycles(double warps, double bytes_per_warp);

/// Mean value analysis of a closed network: `n` customers, queueing stations with the given
/// service demands per customer pass, and a pure delay `z`. Returns the time one pass takes for
/// each customer (the sum of the residence times plus z). Exposed for the tests.
double mva_cycle_time(int n, const double* demands, int stations, double z);

}  // namespace warpscope::timing
