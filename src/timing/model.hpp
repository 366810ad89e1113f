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
  // Issue slots only (no pipe of the model limits them), counted from the machine code: constant
  // loads (LDC: the ADU pipe), the uniform datapath (U*, S2UR, R2UR), tensor-core instructions.
  double constant_loads = 0, uniform = 0, tensor = 0;
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
  double dram_read_bytes = 0, dram_write_bytes = 0;
};

struct LaunchShape {
  std::uint64_t ctas = 0;
  std::uint32_t warps_per_cta = 0;
  std::uint32_t ctas_per_sm = 0;  // the occupancy calculator's blocks per SM (0: does not fit)
  std::uint32_t sm_count = 0;
  std::uint32_t max_warps_per_sm = 0;
};

struct Prediction {
  double duration_ns = 0;   // gpu__time_duration.sum
  double sm_cycles = 0;     // the busiest SM's cycles (without the launch overhead)
  std::string limiter;      // issue, fp32, fp64, mufu, integer, lsu, l1, latency, l2, dram, launch,
                            // clock (a clock spin), atomic (same-address atomics), printf, heap,
                            // host (zero-copy memory)
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

/// Latency of a global load: L1 hits, then L2 hits, then DRAM, by the launch's hit rates.
double global_load_latency(const TimeConstants& c, const MemoryCounts& mem);

/// Mean value analysis of a closed network: `n` customers, queueing stations with the given
/// service demands per customer pass, and a pure delay `z`. Returns the time one pass takes for
/// each customer (the sum of the residence times plus z). Exposed for the tests.
double mva_cycle_time(int n, const double* demands, int stations, double z);

}  // namespace warpscope::timing
