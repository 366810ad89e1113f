#include "profile/sass_metrics.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string_view>
#include <string>
#include <tuple>

#include <fmt/format.h>

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

namespace {
bool memory_class(analysis::sass::InstClass c) {
  using analysis::sass::InstClass;
  switch (c) {
    case InstClass::kLoadGlobal: case InstClass::kStoreGlobal: case InstClass::kAtomicGlobal:
    case InstClass::kLoadLocal: case InstClass::kStoreLocal: case InstClass::kLoadShared:
    case InstClass::kStoreShared: case InstClass::kAtomicShared: case InstClass::kLoadGeneric:
    case InstClass::kStoreGeneric: case InstClass::kAsyncCopy:
      return true;
    default:
      return false;
  }
}
}  // namespace

void add_source_correlation(nlohmann::json& sass, const analysis::sass::LaunchSassCounts& counts,
                            const analysis::sass::Function& function, const nlohmann::json& lines) {
  sass["function"] = function.name;
  sass["code_bytes"] = function.code.empty() ? 0u : function.code.back().offset + 16u;
  nlohmann::json inst = nlohmann::json::array(), never = nlohmann::json::array();
  std::map<std::uint32_t, const analysis::sass::Inst*> decoded;  // offset -> machine instruction
  for (const analysis::sass::Inst& in : function.code) decoded.emplace(in.offset, &in);
  std::map<std::int64_t, std::vector<std::uint32_t>> memory_at;  // PTX pc -> memory machine instructions
  for (const analysis::sass::InstCount& ic : counts.instructions) {
    const auto d = decoded.find(ic.offset);
    const analysis::sass::Inst* in = d == decoded.end() ? nullptr : d->second;
    // `@!PT LDS RZ, [RZ]` (three before each LDGSTS, on the cp.async's line) accesses nothing: the
    // PTX instruction's counters belong to the one that does.
    const bool no_lane = in != nullptr && in->guard == analysis::sass::kNoGuard && in->guard_negated;
    if (memory_class(analysis::sass::opcode_info(ic.opcode).cls) && ic.ptx_pc >= 0 && !no_lane)
      memory_at[ic.ptx_pc].push_back(ic.offset);
    if (ic.warp == 0) continue;
    inst.push_back({ic.offset, ic.ptx_pc, ic.warp, ic.thread, ic.thread_pred_on});
    if (no_lane && (in->kind == analysis::sass::Kind::kLoadShared || in->kind == analysis::sass::Kind::kStoreShared))
      never.push_back({ic.offset, "shared", in->kind == analysis::sass::Kind::kLoadShared ? "load" : "store", in->width});
  }
  nlohmann::json memory = nlohmann::json::array(), unplaced = nlohmann::json::array();
  for (const auto& l : lines) {
    if (!l.is_object()) continue;
    for (const auto& i : l.value("instructions", nlohmann::json::array())) {
      if (!i.contains("pc") || !i["pc"].is_number_unsigned()) continue;
      const auto pc = i["pc"].get<std::int64_t>();
      const auto it = memory_at.find(pc);
      if (it != memory_at.end() && it->second.size() == 1) {
        memory.push_back({pc, it->second.front()});
      } else {
        unplaced.push_back(pc);
      }
    }
  }
  sass["instructions"] = std::move(inst);
  sass["memory"] = std::move(memory);
  sass["memory_unplaced"] = std::move(unplaced);
  sass["memory_never"] = std::move(never);
}

std::string cubin_key(const std::vector<std::uint8_t>& cubin) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::uint8_t c : cubin) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return fmt::format("{:016x}", h);
}

std::string base64(const std::vector<std::uint8_t>& bytes) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t b0 = bytes[i], b1 = i + 1 < bytes.size() ? bytes[i + 1] : 0u,
                        b2 = i + 2 < bytes.size() ? bytes[i + 2] : 0u;
    const std::uint32_t v = (b0 << 16) | (b1 << 8) | b2;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? kAlphabet[v & 63] : '=';
  }
  return out;
}

}  // namespace warpscope::profiling
