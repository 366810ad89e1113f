// What the time model reads from a launch, and what it writes into the report.
//  - mix_from_ptx: the instruction mix estimated from the interpreter's PTX counts (each PTX
//    instruction's class, and the machine instructions ptxas expands it to where that is a fixed
//    sequence: div.rn.f32 and sqrt.rn.f32 become a MUFU plus Newton steps and a slow-path check,
//    rsqrt.approx.f32 a MUFU with its scaling). Marked estimated; the machine-code counts of
//    src/analysis/sass_counts replace it when they are available.
//  - memory_from_metrics: the counters of the report's `metrics` (ncu names) the model needs.
//  - add_prediction: writes gpu__time_duration.sum and the Speed Of Light metrics into `metrics`,
//    lists them in `estimated`, and returns the launch's `time` object (docs/report.md).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "timing/model.hpp"

namespace warpscope::timing {

/// One PTX instruction's text (e.g. "fma.rn.f32 %f1, %f2, %f3, %f4;", a guard allowed).
/// Adds `executions` warp executions of it to `mix`.
void add_ptx_instruction(InstructionMix& mix, const std::string& text, double executions);

/// The mix of a launch from its PTX instructions' texts and warp execution counts (same index).
InstructionMix mix_from_ptx(const std::vector<std::string>& texts, const std::vector<std::uint64_t>& executions);

/// Adds `executions` warp executions of one sm_90 machine instruction to `mix`, by its mnemonic
/// ("FFMA", "LDC") and its class as src/analysis/sass_counts names it ("fp32", "move", ...;
/// InstClass's to_string). docs/time.md, "Machine-code classes", gives each one's pipe.
void add_machine_instruction(InstructionMix& mix, std::string_view mnemonic, std::string_view cls, double executions);
/// A wgmma.mma_async PTX instruction executed `warp_executions` times (4 per warpgroup
/// instruction): its tensor-pipe cycles, max(N / 2, 24) per warpgroup instruction, measured for
/// N = 32 ... 256 and every type (tests/hw/data/h100/timing/wgmma_rate.txt). Other text: nothing.
void add_wgmma(InstructionMix& mix, std::string_view text, double warp_executions);

/// Latency the model gives a machine instruction that releases a scoreboard (a write barrier of
/// its control word) when its result is ready: loads by space (global loads by the launch's L1
/// and L2 hit rates), constant loads, MUFU and conversions (the XU), shuffles, atomics, FP64.
/// Cycles from its issue to a dependent instruction's issue.
double machine_latency(const TimeConstants& c, const MemoryCounts& mem, std::string_view mnemonic, std::string_view cls);

/// The memory counters the model needs, from a launch's `metrics` (missing names count 0).
MemoryCounts memory_from_metrics(const nlohmann::json& metrics);

/// Records `p` in `metrics` (gpu__time_duration.sum in ns and the Speed Of Light percentages)
/// and `estimated`, and returns the `time` object of the report.
nlohmann::json add_prediction(const Prediction& p, const TimeConstants& c, const InstructionMix& mix,
                              nlohmann::json& metrics, nlohmann::json& estimated);

}  // namespace warpscope::timing
