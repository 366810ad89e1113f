#include "profile/launch_fetch.hpp"

#include "stats/collector.hpp"

namespace warpscope::profiling {

nlohmann::json add_launch_fetch(const arch::Profile& profile, const analysis::sass::Function* sass,
                                std::size_t ptx_instructions, std::uint64_t constant_lines, nlohmann::json& metrics) {
  if (profile.dram_launch_fetch_bytes == 0 || !metrics.contains("dram__bytes_read.sum")) return nullptr;
  // Every SASS instruction is 16 bytes on sm_70 and later; DRAM is read in dram_fetch_bytes units.
  constexpr std::uint64_t kInstructionBytes = 16;
  const std::uint64_t unit = profile.dram_fetch_bytes;
  const std::uint64_t raw_code = (sass ? sass->code.size() : ptx_instructions) * kInstructionBytes;
  const std::uint64_t code = (raw_code + unit - 1) / unit * unit;
  const std::uint64_t constants = constant_lines * stats::kConstLineBytes;
  const std::uint64_t other = profile.dram_launch_fetch_bytes;
  const std::uint64_t added = code + constants + other;
  metrics["dram__bytes_read.sum"] = metrics["dram__bytes_read.sum"].get<std::uint64_t>() + added;
  return {{"code_bytes", code},
          {"code_from", sass ? "machine code" : "PTX instructions x 16 bytes"},
          {"constant_bytes", constants},
          {"other_bytes", other},
          {"bytes", added},
          {"note", "read from DRAM by a launch that starts with cold caches (Nsight Compute's default cache control); "
                   "included in dram__bytes_read.sum"}};
}

}  // namespace warpscope::profiling
