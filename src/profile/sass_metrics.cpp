#include "profile/sass_metrics.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string_view>
#include <string>
#include <tuple>

namespace warpscope::profiling {

std::optional<analysis::sass::LaunchSassCounts> sass_counts(const analysis::sass::Function* sass,
                                                          const std::vector<analysis::sass::PtxInst>& ptx,
                                                          const LaunchStats& stats) {
  if (sass == nullptr) return std::nullopt;
  analysis::sass::LaunchSassCounts c =
      analysis::sass::count_launch(*sass, ptx, stats.pc_instructions, stats.pc_thread_instructions);
  // WARPSCOPE_SASS_COUNTS=stderr: each machine instruction's counts, to compare with ncu's Source page.
  if (const char* e = std::getenv("WARPSCOPE_SASS_COUNTS"); e != nullptr && std::string_view(e) == "stderr") {
    for (std::size_t i = 0; i < c.instructions.size() && i < sass->code.size(); ++i) {
      const analysis::sass::InstCount& ic = c.instructions[i];
      std::fprintf(stderr, "sass %s %04x %-10s ptx_line %u pc %lld warp %llu thread %llu\n", sass->name.c_str(), ic.offset,
                   std::string(analysis::sass::opcode_info(ic.opcode).mnemonic).c_str(), sass->code[i].ptx_line,
                   static_cast<long long>(ic.ptx_pc), static_cast<unsigned long long>(ic.warp),
                   static_cast<unsigned long long>(ic.thread));
    }
  }
  return c;
}

void apply_sass_counts(const analysis::sass::LaunchSassCounts& counts, const std::vector<InstructionInfo>& code,
                       nlohmann::json& metrics, nlohmann::json& estimated, nlohmann::json& lines) {
  // The interpreter's PTX counts stay beside them (the per-line `executions` add up to these).
  if (metrics.contains("smsp__inst_executed.sum")) metrics["ptx_instructions"] = metrics["smsp__inst_executed.sum"];
  if (metrics.contains("smsp__thread_inst_executed.sum"))
    metrics["ptx_thread_instructions"] = metrics["smsp__thread_inst_executed.sum"];
  metrics["smsp__inst_executed.sum"] = counts.warp_instructions;
  metrics["smsp__thread_inst_executed.sum"] = counts.thread_instructions;
  metrics["smsp__thread_inst_executed_pred_on.sum"] = counts.thread_pred_on;
  // The machine code's counts leave `estimated` when every executed block was tied to one PTX
  // block (LaunchSassCounts::exact: equal to the H100's on every such launch of the accuracy
  // corpus, docs/accuracy.md); predicated-on lanes of guarded instructions are the PTX's.
  nlohmann::json kept = nlohmann::json::array();
  for (const auto& name : estimated) {
    const bool inst = name == "smsp__inst_executed.sum" || name == "smsp__thread_inst_executed.sum";
    if (!inst || !counts.exact) kept.push_back(name);
  }
  for (const char* name : {"smsp__inst_executed.sum", "smsp__thread_inst_executed.sum"})
    if (!counts.exact && std::find(kept.begin(), kept.end(), name) == kept.end()) kept.push_back(name);
  kept.push_back("smsp__thread_inst_executed_pred_on.sum");
  estimated = std::move(kept);

  // Per CUDA line: the machine instructions whose PTX line's instruction is on it.
  std::map<std::tuple<std::string, std::uint32_t>, std::pair<std::uint64_t, std::uint64_t>> per_line;
  for (const analysis::sass::InstCount& ic : counts.instructions) {
    if (ic.ptx_pc < 0 || std::size_t(ic.ptx_pc) >= code.size() || ic.warp == 0) continue;
    const InstructionInfo& info = code[std::size_t(ic.ptx_pc)];
    auto& [w, t] = per_line[{info.file, info.line}];
    w += ic.warp;
    t += ic.thread;
  }
  for (auto& l : lines) {
    if (!l.is_object()) continue;
    const std::string file = l.value("file", std::string());
    const auto line = l.value("line", std::uint32_t(0));
    const auto it = per_line.find({file, line});
    l["sass_executions"] = it == per_line.end() ? 0 : it->second.first;
    l["sass_thread_executions"] = it == per_line.end() ? 0 : it->second.second;
  }
}

nlohmann::json sass_json(const analysis::sass::LaunchSassCounts& counts) {
  nlohmann::json ops = nlohmann::json::object();
  for (const analysis::sass::OpcodeCount& o : counts.opcodes)
    ops[o.mnemonic] = {{"warp", o.warp}, {"thread", o.thread}, {"class", analysis::sass::to_string(o.cls)}};
  return {{"exact", counts.exact}, {"notes", counts.notes}, {"opcodes", std::move(ops)}};
}

}  // namespace warpscope::profiling
