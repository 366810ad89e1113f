#include "runtime/cudart/launch_time.hpp"

#include <algorithm>
#include <string>

#include "timing/inputs.hpp"

namespace warpscope::cudart {

nlohmann::json predict_launch_time(const arch::Profile& profile, const std::vector<InstructionInfo>& code,
                                   const LaunchStats& stats, warpscope::Dim3 grid, warpscope::Dim3 block, const nlohmann::json& occupancy,
                                   nlohmann::json& metrics, nlohmann::json& estimated, double* duration_ns) {
  const timing::TimeConstants* c = timing::constants_for(profile);
  if (c == nullptr) {
    return {{"available", false}, {"reason", "the time model has no constants for profile '" + profile.name + "'"}};
  }
  if (!occupancy.is_object() || !occupancy.contains("blocks_per_sm") || !occupancy["blocks_per_sm"].is_number() ||
      occupancy["blocks_per_sm"].get<std::uint64_t>() == 0) {
    return {{"available", false}, {"reason", "no CTA of this launch fits on an SM (see occupancy)"}};
  }
  std::vector<std::string> texts;
  texts.reserve(code.size());
  for (const InstructionInfo& i : code) texts.push_back(i.compiled ? std::string{} : i.text);
  timing::InstructionMix mix = timing::mix_from_ptx(texts, stats.pc_instructions);
  // Spill accesses of the machine code (compiled accesses) are local loads and stores the PTX lacks.
  for (std::size_t pc = 0; pc < code.size() && pc < stats.pc_instructions.size(); ++pc) {
    if (!code[pc].compiled) continue;
    const auto n = static_cast<double>(stats.pc_instructions[pc]);
    mix.total += n;
    (code[pc].text.rfind("st", 0) == 0 || code[pc].text.find("STL") != std::string::npos ? mix.stores : mix.local_loads) += n;
  }
  timing::LaunchShape shape;
  shape.ctas = std::uint64_t{grid.x} * grid.y * grid.z;
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  shape.warps_per_cta = static_cast<std::uint32_t>((threads + profile.warp_size - 1) / profile.warp_size);
  shape.ctas_per_sm = occupancy["blocks_per_sm"].get<std::uint32_t>();
  shape.sm_count = profile.sm_count;
  if (occupancy.contains("cluster_wave_ctas")) {
    // Clusters: a wave is the clusters resident at once (analysis/cluster_occupancy.hpp), at most
    // cluster_max_blocks_per_sm CTAs per SM, on the SMs that many CTAs fill.
    const auto wave = occupancy["cluster_wave_ctas"].get<std::uint64_t>();
    if (wave == 0) return {{"available", false}, {"reason", "no cluster of this launch fits on a GPC (see occupancy)"}};
    shape.ctas_per_sm = std::min(shape.ctas_per_sm, profile.cluster_max_blocks_per_sm);
    shape.sm_count = static_cast<std::uint32_t>((wave + shape.ctas_per_sm - 1) / shape.ctas_per_sm);
  }
  shape.max_warps_per_sm = profile.max_warps_per_sm;
  const timing::Prediction p = timing::predict(*c, shape, mix, timing::memory_from_metrics(metrics));
  nlohmann::json t = timing::add_prediction(p, *c, mix, metrics, estimated);
  t["available"] = true;
  t["instruction_counts"] = "ptx";  // the PTX counts with ptxas's fixed expansions (estimated)
  *duration_ns = p.duration_ns;
  return t;
}

}  // namespace warpscope::cudart
