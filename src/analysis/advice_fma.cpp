#include "analysis/advice_fma.hpp"

#include "analysis/advice_text.hpp"

#include <algorithm>
#include <string_view>

#include <fmt/format.h>

namespace warpscope::analysis {

bool is_fma(std::string_view t) {
  while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  if (!t.empty() && t.front() == '@') {
    const auto sp = t.find_first_of(" \t");
    if (sp == std::string_view::npos) return false;
    t.remove_prefix(sp);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t')) t.remove_prefix(1);
  }
  const std::string_view opc = t.substr(0, t.find_first_of(" \t"));
  if (opc.substr(0, 4) == "fma.") return true;
  return opc.substr(0, 4) == "mad." && (opc.find(".f32") != std::string_view::npos ||
                                        opc.find(".f64") != std::string_view::npos ||
                                        opc.find(".f16") != std::string_view::npos);
}

std::optional<nlohmann::json> shared_fma_advice(const stats::ModelResult& model, const LaunchStats& exec,
                                                const std::vector<InstructionInfo>& code) {
  std::uint64_t fmas = 0, best = 0;
  std::size_t best_pc = 0;
  for (std::size_t pc = 0; pc < code.size() && pc < exec.pc_instructions.size(); ++pc) {
    if (code[pc].compiled || !is_fma(code[pc].text)) continue;
    const std::uint64_t n = exec.pc_instructions[pc];
    fmas += n;
    if (n > best) {
      best = n;
      best_pc = pc;
    }
  }
  if (fmas == 0 || fmas * 10 < exec.warp_instructions) return std::nullopt;
  std::uint64_t loads = 0, wavefronts = 0, lane_bytes = 0, fma_lanes = 0;
  for (const stats::InstructionStats& s : model.per_pc) {
    if (!s.seen || s.space != Space::kShared || s.op != Op::kLoad || s.matrix) continue;
    loads += s.executions;
    wavefronts += s.wavefronts;
    lane_bytes += s.active_lanes * s.width;
  }
  for (std::size_t pc = 0; pc < code.size() && pc < exec.pc_thread_instructions.size(); ++pc)
    if (!code[pc].compiled && is_fma(code[pc].text)) fma_lanes += exec.pc_thread_instructions[pc];
  const double per_fma = static_cast<double>(wavefronts) / static_cast<double>(fmas);
  if (per_fma < kMinWavefrontsPerFma) return std::nullopt;
  const double loads_per_fma = static_cast<double>(loads) / static_cast<double>(fmas);
  // Arithmetic intensity against shared memory: 2 flops per FMA lane, per byte the lanes loaded.
  const double intensity = lane_bytes == 0 ? 0.0 : 2.0 * static_cast<double>(fma_lanes) / static_cast<double>(lane_bytes);
  const InstructionInfo& info = code[best_pc];
  nlohmann::json j;
  j["rule"] = "shared_loads_per_fma";
  j["file"] = info.file;
  j["line"] = info.line;
  j["pc"] = best_pc;
  j["message"] = fmt::format(
      "{}: {:.2f} shared-memory loads ({:.2f} wavefronts) per FMA, {:.2f} flops per shared byte loaded: the SM serves "
      "one shared wavefront per cycle but could issue four FMA warp instructions, so shared-memory bandwidth, not "
      "math, bounds this kernel (the FMA pipe at most {:.0f} % busy). Tile in registers: let each thread compute a "
      "TM x TN block of outputs (e.g. 8 x 8) from TM values of one tile and TN of the other per k step, (TM + TN) "
      "loads for TM x TN FMAs (8 x 8: 0.25 loads per FMA), read with 16-byte vector loads (float4)",
      where(&info), loads_per_fma, per_fma, intensity, std::min(100.0, 100.0 / (4.0 * per_fma)));
  j["evidence"] = {{"fma_instructions", fmas},
                   {"shared_load_instructions", loads},
                   {"shared_load_wavefronts", wavefronts},
                   {"shared_loads_per_fma", loads_per_fma},
                   {"shared_wavefronts_per_fma", per_fma},
                   {"flops_per_shared_byte", intensity},
                   {"warp_instructions", exec.warp_instructions}};
  return j;
}

}  // namespace warpscope::analysis
