// The time model's part of a launch record (src/timing, docs/time.md): the predicted duration,
// limiter and Speed Of Light of one profile's model of the launch.
#pragma once

#include <span>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/sass_counts.hpp"
#include "arch/profile.hpp"
#include "stats/atomic_contention.hpp"
#include "stats/collector.hpp"
#include "stats/host_mapped.hpp"
#include "timing/model.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::profiling {

/// Predicts the launch on `profile` from the interpreter's counts (`stats`, `code`), the memory
/// model's `metrics` and the `occupancy` object of launch_resources; adds gpu__time_duration.sum
/// and the Speed Of Light metrics to `metrics` and `estimated`, and returns the launch's `time`
/// object: {"available": true, "duration_ns", "limiter", "sol", ...}, or {"available": false,
/// "reason"} (no constants for the profile, a CTA that does not fit). `*duration_ns` gets the
/// prediction, or stays untouched. With the machine code's counts of the launch (`sass`, the
/// primary profile of an sm_90 build; null otherwise) the instruction mix is theirs
/// (`instruction_counts`: "sass"), else the PTX's with ptxas's fixed expansions ("ptx"); with the
/// machine code itself (`machine_code`, the function `sass` counts) the per-warp latency comes
/// from its control words (sass_latency.hpp; `latency`: "control_words"), else it is the
/// in-order dependent chain of the mix's classes ("ilp1"). `atomics`, `host`: the statistics'
/// same-address atomic counts and zero-copy bytes, of the CTAs they saw (`sample_scale`:
/// ctas_total / ctas_sampled under --sample-ctas, else 1). `per_pc`: the memory model's statistics
/// per PTX instruction; a machine-code global load whose PTX instruction has them waits its own
/// latency (its hits in L1 and L2), the others the launch's mean (docs/time.md). `const_lines`:
/// ModelResult::const_lines (the CTAs' distinct lines of __constant__ data, of the CTAs seen).
nlohmann::json predict_launch_time(const arch::Profile& profile, const std::vector<InstructionInfo>& code,
                                   const LaunchStats& stats, warpscope::Dim3 grid, warpscope::Dim3 block, const nlohmann::json& occupancy,
                                   nlohmann::json& metrics, nlohmann::json& estimated, double* duration_ns,
                                   const analysis::sass::LaunchSassCounts* sass = nullptr,
                                   const analysis::sass::Function* machine_code = nullptr,
                                   const stats::AtomicContention& atomics = {}, const stats::HostMappedBytes& host = {},
                                   double sample_scale = 1, std::span<const stats::InstructionStats> per_pc = {},
                                   std::uint64_t const_lines = 0);

/// The instruction mix of a launch from its machine code's counts (each opcode's class, docs/time.md).
timing::InstructionMix mix_from_sass(const analysis::sass::LaunchSassCounts& counts);

/// The pcs of `code` that are floating-point atomic adds (atom/red .add with an .f16/.bf16/.f32/
/// .f64 type), for stats::LaunchCollector::set_float_atomic_pcs.
std::vector<bool> float_atomic_pcs(const std::vector<InstructionInfo>& code);

/// The pcs of `code` that are atomics or reductions ptxas aggregates per warp: their PTX line has
/// machine code that reduces the warp's lanes first (VOTEU with POPC for add and sub, REDUX for
/// min, max, and, or, xor), for stats::LaunchCollector::set_aggregated_atomic_pcs. Empty without
/// the machine code (`sass` null).
std::vector<bool> aggregated_atomic_pcs(const std::vector<InstructionInfo>& code, const analysis::sass::Function* sass);

}  // namespace warpscope::profiling
