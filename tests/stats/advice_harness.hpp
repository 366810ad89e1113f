// The advice tests' launch: hand-made warp accesses through a LaunchCollector (hopper), then
// analysis::advise with made-up instruction info (file /src/k.cu, line 10 + pc unless given).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/advice.hpp"
#include "arch/profile.hpp"
#include "stats/collector.hpp"

namespace warpscope::analysis {

/// One warp's access: lane l at base + stride * l.
inline WarpAccess access(std::uint32_t pc, Space space, std::uint8_t width, std::uint64_t base, std::int64_t stride,
                  std::uint32_t active = 0xffffffffu) {
  WarpAccess a;
  a.pc = pc;
  a.space = space;
  a.width = width;
  a.active = LaneMask(active);
  for (unsigned l = 0; l < 32; ++l) a.addr[l] = base + static_cast<std::uint64_t>(stride * static_cast<std::int64_t>(l));
  return a;
}

struct Launch {
  stats::LaunchCollector collector{{&arch::builtin_profile("hopper")}};
  LaunchStats exec;
  std::vector<InstructionInfo> code;
  std::vector<std::string> texts;    // PTX text of pc 0, 1, ...
  std::vector<std::uint32_t> lines;  // source line of pc 0, 1, ... (default 10 + pc)
  std::uint64_t ctas = 0;            // advise()'s CTAs

  nlohmann::json advice(std::uint64_t warp_instructions) {
    exec.warp_instructions = warp_instructions;
    const auto r = collector.finish();
    code.resize(std::max(r[0].per_pc.size(), texts.size()));
    for (std::size_t i = 0; i < code.size(); ++i) {
      code[i].file = "/src/k.cu";
      code[i].line = i < lines.size() ? lines[i] : static_cast<std::uint32_t>(10 + i);
      code[i].ptx_line = static_cast<std::uint32_t>(100 + i);
      if (i < texts.size()) code[i].text = texts[i];
    }
    return advise(r[0], exec, code, nlohmann::json::array(), ctas);
  }
};

inline std::vector<std::string> rules(const nlohmann::json& a) {
  std::vector<std::string> out;
  for (const auto& i : a) out.push_back(i["rule"]);
  return out;
}

}  // namespace warpscope::analysis
