// shared_loads_per_fma advice (issue 35): a kernel whose FMAs each need shared-memory loads, as a
// shared-tiled matrix product that computes one output per thread (the CUDA sample matrixMul:
// two ld.shared per fma, As[ty][k] and Bs[k][tx]). The SM serves one shared wavefront per cycle
// while its four schedulers could issue four FMA warp instructions (docs/time.md: 1 wavefront
// and 3.89 FFMA per SM per cycle on the H100), so such a kernel runs its FMA pipe at a fraction
// of its rate whatever its occupancy: the arithmetic intensity against shared memory is too low.
// The textbook fix is register tiling: each thread computes TM x TN outputs from TM + TN loaded
// values per k step ((TM + TN) / (TM x TN) loads per FMA: 8 x 8 gives 0.25), read with 16-byte
// vector loads.
//
// Trigger: the shared-memory load wavefronts (ld.shared, not ldmatrix) per FMA warp instruction
// (PTX fma.* and float mad.*, executed) are at least kMinWavefrontsPerFma, and the FMAs are at
// least a tenth of the launch's warp instructions. One item, on the line of the most executed FMA.
#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/collector.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::analysis {

inline constexpr double kMinWavefrontsPerFma = 0.5;  // the shared pipe then needs twice the FMA pipe's cycles

/// Whether a PTX instruction is a floating-point fused multiply-add (fma.*, mad.f*), guard ignored.
bool is_fma(std::string_view text);

std::optional<nlohmann::json> shared_fma_advice(const stats::ModelResult& model, const LaunchStats& exec,
                                                const std::vector<InstructionInfo>& code);

}  // namespace warpscope::analysis
