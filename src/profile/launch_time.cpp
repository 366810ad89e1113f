#include "profile/launch_time.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>

#include "analysis/sass_latency.hpp"
#include "timing/inputs.hpp"

namespace warpscope::profiling {

namespace {

/// The function a PTX `call` instruction calls ("" for other instructions): the first operand
/// that is a plain name, after the optional return parameter list.
std::string_view callee(const InstructionInfo& i) {
  if (i.compiled) return {};
  std::string_view t = i.text;
  if (!t.empty() && t[0] == '@') t.remove_prefix(std::min(t.size(), t.find(' ') + 1));
  if (t.rfind("call", 0) != 0) return {};
  t.remove_prefix(std::min(t.size(), t.find_first_of(" \t\r\n") + 1));
  t.remove_prefix(std::min(t.size(), t.find_first_not_of(" \t\r\n")));
  if (!t.empty() && t[0] == '(') t.remove_prefix(std::min(t.size(), t.find(')') + 1));  // (retval)
  t.remove_prefix(std::min(t.size(), t.find_first_not_of(", \t\r\n")));
  return t.substr(0, t.find_first_of(",; (\t\r\n"));
}

}  // namespace

nlohmann::json predict_launch_time(const arch::Profile& profile, const std::vector<InstructionInfo>& code,
                                   const LaunchStats& stats, warpscope::Dim3 grid, warpscope::Dim3 block, const nlohmann::json& occupancy,
                                   nlohmann::json& metrics, nlohmann::json& estimated, double* duration_ns,
                                   const analysis::sass::LaunchSassCounts* sass,
                                   const analysis::sass::Function* machine_code,
                                   const stats::AtomicContention& atomics, const stats::HostMappedBytes& host,
                                   double sample_scale, std::span<const stats::InstructionStats> per_pc,
                                   std::uint64_t const_lines) {
  const timing::TimeConstants* c = timing::constants_for(profile);
  if (c == nullptr) {
    return {{"available", false}, {"reason", "the time model has no constants for profile '" + profile.name + "'"}};
  }
  if (!occupancy.is_object() || !occupancy.contains("blocks_per_sm") || !occupancy["blocks_per_sm"].is_number() ||
      occupancy["blocks_per_sm"].get<std::uint64_t>() == 0) {
    return {{"available", false}, {"reason", "no CTA of this launch fits on an SM (see occupancy)"}};
  }
  const bool from_sass = sass != nullptr && sass->available;
  timing::InstructionMix mix;
  if (from_sass) {
    mix = mix_from_sass(*sass);  // its LDL/STL are the spills: the compiled accesses are not added
  } else {
    std::vector<std::string> texts;
    texts.reserve(code.size());
    for (const InstructionInfo& i : code) texts.push_back(i.compiled ? std::string{} : i.text);
    mix = timing::mix_from_ptx(texts, stats.pc_instructions);
    // Spill accesses of the machine code (compiled accesses) are local loads and stores the PTX lacks.
    for (std::size_t pc = 0; pc < code.size() && pc < stats.pc_instructions.size(); ++pc) {
      if (!code[pc].compiled) continue;
      const auto n = static_cast<double>(stats.pc_instructions[pc]);
      mix.total += n;
      (code[pc].text.rfind("st", 0) == 0 || code[pc].text.find("STL") != std::string::npos ? mix.stores : mix.local_loads) += n;
    }
  }
  // wgmma's tensor-pipe cycles, from the PTX shapes (the machine code's HGMMA/QGMMA/IGMMA carry
  // their shape in bits the SASS decoder does not read).
  for (std::size_t pc = 0; pc < code.size() && pc < stats.pc_instructions.size(); ++pc)
    if (!code[pc].compiled && stats.pc_instructions[pc] != 0)
      timing::add_wgmma(mix, code[pc].text, static_cast<double>(stats.pc_instructions[pc]));
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
  if (shape.ctas > 0 && stats.warp_instructions > 0 && stats.cta_instructions_max > 0) {
    const double mean = static_cast<double>(stats.warp_instructions) / static_cast<double>(shape.ctas);
    shape.cta_imbalance = std::max(1.0, static_cast<double>(stats.cta_instructions_max) / mean);
  }
  const timing::MemoryCounts mem = timing::memory_from_metrics(metrics);
  // One warp's time through the machine code, from its control words (docs/time.md).
  const bool control_words = from_sass && machine_code != nullptr && machine_code->code.size() == sass->instructions.size();
  if (control_words) {
    const char* sm_env = std::getenv("WARPSCOPE_SHARED_MISSES");  // "off": the experiment's baseline
    const bool shared_misses = sm_env == nullptr || std::string_view(sm_env) != "off";
    // The warps an SM holds at once (a burst of broadcast loads comes from them all).
    const std::uint64_t sms = std::max(1u, shape.sm_count);
    const std::uint64_t ctas_on_sm = std::min<std::uint64_t>(shape.ctas_per_sm, (shape.ctas + sms - 1) / sms);
    const double warps_per_sm = std::min<double>(static_cast<double>(ctas_on_sm * shape.warps_per_cta),
                                                 static_cast<double>(shape.max_warps_per_sm));
    // Per instruction: the latency its write scoreboard stands for, and the stall its control word
    // does not show (a BSYNC: bsync_cycles, "Branches"; a BAR.SYNC: bar_cycles + bar_cycles_per_warp
    // for each of the CTA's warps, "Barriers").
    std::vector<double> latency(machine_code->code.size()), extra(machine_code->code.size(), 0.0);
    for (std::size_t i = 0; i < latency.size(); ++i) {
      const analysis::sass::Inst& in = machine_code->code[i];
      const analysis::sass::OpcodeInfo info = analysis::sass::opcode_info(in.opcode);
      const std::string_view cls = analysis::sass::to_string(info.cls);
      if (cls == "global_ld" || cls == "generic_ld") {
        // Its own PTX instruction's hit mix where the statistics have it (through the line table).
        double sectors = 0, l1 = 0, l2 = 0, foreign = 0, bursts = 0, burst = 0;
        const std::int64_t pc = sass->instructions[i].ptx_pc;
        if (pc >= 0 && std::size_t(pc) < per_pc.size()) {
          const stats::InstructionStats& s = per_pc[std::size_t(pc)];
          if (s.seen && s.space == Space::kGlobal && s.op == Op::kLoad) {
            sectors = static_cast<double>(s.sectors);
            l1 = static_cast<double>(s.l1_hit_sectors);
            l2 = static_cast<double>(s.l2_hit_sectors);
            if (shared_misses && s.executions > 0) {
              foreign = static_cast<double>(s.l1_foreign_hit_sectors);
              // Broadcast loads (every lane on one address) of warps that run together reach the
              // L1 in bursts (tests/hw/timing/shared_stream.cu, nbody_stalls: docs/time.md).
              bursts = l1 * static_cast<double>(s.uniform_executions) / static_cast<double>(s.executions);
              const double lanes = static_cast<double>(s.active_lanes) / static_cast<double>(s.executions);
              burst = timing::convoy_burst_cycles(warps_per_sm, lanes * in.width);
            }
          }
        }
        latency[i] = timing::instruction_load_latency(*c, mem, sectors, l1, l2, in.width, foreign, bursts, burst);
      } else {
        latency[i] = timing::machine_latency(*c, mem, info.mnemonic, cls);
      }
      if (info.mnemonic == "BSYNC") extra[i] = c->bsync_cycles;
      else if (info.mnemonic == "BAR") extra[i] = c->bar_cycles + c->bar_cycles_per_warp * shape.warps_per_cta;
    }
    const std::vector<double> cost = analysis::sass::issue_costs(*machine_code, latency, c->lat_alu, extra);
    mix.latency_cycles = analysis::sass::warp_cycles(cost, *sass);
    // WARPSCOPE_SASS_COSTS=stderr: each machine instruction's control word and cost (docs/time.md).
    if (const char* e = std::getenv("WARPSCOPE_SASS_COSTS"); e != nullptr && std::string_view(e) == "stderr") {
      for (std::size_t i = 0; i < cost.size(); ++i) {
        const analysis::sass::Inst& in = machine_code->code[i];
        std::fprintf(stderr, "cost %s %04x %-8s stall %2u wbar %u rbar %u wait %02x lat %6.1f cost %7.1f warp %llu\n",
                     machine_code->name.c_str(), in.offset,
                     std::string(analysis::sass::opcode_info(in.opcode).mnemonic).c_str(), unsigned(in.stall),
                     unsigned(in.write_barrier), unsigned(in.read_barrier), unsigned(in.wait_mask), latency[i], cost[i],
                     static_cast<unsigned long long>(sass->instructions[i].warp));
      }
    }
  }
  timing::SerialCounts serial;
  // Device runtime calls: the lanes that executed each call of vprintf, malloc or free.
  for (std::size_t pc = 0; pc < code.size() && pc < stats.pc_thread_instructions.size(); ++pc) {
    const std::string_view f = callee(code[pc]);
    const auto lanes = static_cast<double>(stats.pc_thread_instructions[pc]);
    if (f == "vprintf") serial.printf_calls += lanes;
    else if (f == "malloc" || f == "free" || f == "__cuda_syscall_aligned_malloc") serial.heap_calls += lanes;
  }
  serial.threads = static_cast<double>(shape.ctas) * static_cast<double>(threads);
  serial.warps = static_cast<double>(shape.ctas) * shape.warps_per_cta;
  serial.ctas = static_cast<double>(shape.ctas);
  serial.clock_skew_sum = static_cast<double>(stats.clock_skew_sum);
  serial.clock_skew_max = static_cast<double>(stats.clock_skew_max);
  serial.atomic_address_ops = static_cast<double>(atomics.address_ops) * sample_scale;
  serial.atomic_address_float_ops = static_cast<double>(atomics.address_float_ops) * sample_scale;
  serial.atomic_line_steps = static_cast<double>(atomics.line_steps) * sample_scale;
  serial.host_read_bytes = static_cast<double>(host.read) * sample_scale;
  serial.host_written_bytes = static_cast<double>(host.written) * sample_scale;
  // Constant lines read for the first time on an SM: each CTA's __constant__ lines (of the CTAs
  // seen, scaled to all) as if every SM that runs the kernel read the lines of one CTA; the
  // parameter lines the machine code reads with immediate addresses once per such SM.
  const double sms_used = static_cast<double>(std::min<std::uint64_t>(shape.ctas, shape.sm_count));
  if (shape.ctas > 0)
    serial.const_lines = static_cast<double>(const_lines) * sample_scale * sms_used / static_cast<double>(shape.ctas);
  if (from_sass && machine_code != nullptr && machine_code->code.size() == sass->instructions.size()) {
    std::vector<std::uint32_t> lines;
    for (std::size_t i = 0; i < machine_code->code.size(); ++i) {
      const analysis::sass::Inst& in = machine_code->code[i];
      if (in.const_bank == 0 && in.const_index == analysis::sass::kRegZero && sass->instructions[i].warp > 0)
        lines.push_back(in.const_offset / static_cast<std::uint32_t>(stats::kConstLineBytes));
    }
    std::sort(lines.begin(), lines.end());
    serial.param_lines = static_cast<double>(std::unique(lines.begin(), lines.end()) - lines.begin()) * sms_used;
  }
  const timing::Prediction p = timing::predict(*c, shape, mix, mem, serial,
                                               timing::serial_constants_for(profile.name));
  nlohmann::json t = timing::add_prediction(p, *c, mix, metrics, estimated);
  t["serial_inputs"] = {{"clock_skew_sum_cycles", stats.clock_skew_sum},
                        {"clock_skew_max_cycles", stats.clock_skew_max},
                        {"atomic_address_ops", serial.atomic_address_ops},
                        {"atomic_address_float_ops", serial.atomic_address_float_ops},
                        {"atomic_line_steps", serial.atomic_line_steps},
                        {"atomic_addresses", atomics.addresses},
                        {"atomic_addresses_capped", atomics.capped},
                        {"printf_calls", serial.printf_calls},
                        {"heap_calls", serial.heap_calls},
                        {"host_read_bytes", serial.host_read_bytes},
                        {"host_written_bytes", serial.host_written_bytes},
                        {"constant_lines", serial.const_lines},
                        {"parameter_lines", serial.param_lines}};
  t["available"] = true;
  // The machine code's counts, or the PTX counts with ptxas's fixed expansions (estimated).
  t["instruction_counts"] = from_sass ? "sass" : "ptx";
  t["latency"] = control_words ? "control_words" : "ilp1";
  *duration_ns = p.duration_ns;
  return t;
}

timing::InstructionMix mix_from_sass(const analysis::sass::LaunchSassCounts& counts) {
  timing::InstructionMix mix;
  for (const analysis::sass::OpcodeCount& o : counts.opcodes) {
    timing::add_machine_instruction(mix, o.mnemonic, analysis::sass::to_string(o.cls), static_cast<double>(o.warp));
  }
  mix.from_machine_code = true;
  return mix;
}

std::vector<bool> float_atomic_pcs(const std::vector<InstructionInfo>& code) {
  std::vector<bool> out(code.size(), false);
  for (std::size_t pc = 0; pc < code.size(); ++pc) {
    if (code[pc].compiled) continue;
    std::string_view t = code[pc].text;
    if (!t.empty() && t[0] == '@') t.remove_prefix(std::min(t.size(), t.find(' ') + 1));  // a guard
    const std::string_view op = t.substr(0, t.find(' '));
    if ((op.rfind("atom.", 0) != 0 && op.rfind("red.", 0) != 0) || op.find(".add") == std::string_view::npos) continue;
    for (const char* type : {".f16", ".bf16", ".f32", ".f64"})
      if (op.find(type) != std::string_view::npos) out[pc] = true;
  }
  return out;
}

std::vector<bool> aggregated_atomic_pcs(const std::vector<InstructionInfo>& code, const analysis::sass::Function* sass) {
  if (sass == nullptr) return {};
  std::map<std::uint32_t, std::size_t> pc_of_line;
  for (std::size_t pc = 0; pc < code.size(); ++pc)
    if (!code[pc].compiled && code[pc].ptx_line != 0) pc_of_line.emplace(code[pc].ptx_line, pc);
  auto opcode = [&](std::size_t pc) {
    std::string_view t = code[pc].text;
    if (!t.empty() && t[0] == '@') t.remove_prefix(std::min(t.size(), t.find(' ') + 1));
    return t.substr(0, t.find_first_of(" \t"));
  };
  auto atomic = [&](std::size_t pc) {
    const std::string_view op = opcode(pc);
    return op.rfind("atom.", 0) == 0 || op.rfind("red.", 0) == 0;
  };
  std::vector<bool> target(code.size() + 1, false);
  for (const InstructionInfo& i : code)
    if (i.branch_target >= 0 && std::size_t(i.branch_target) < code.size()) target[std::size_t(i.branch_target)] = true;
  std::vector<bool> out(code.size(), false);
  for (const analysis::sass::Inst& in : sass->code) {
    const std::string_view m = analysis::sass::opcode_info(in.opcode).mnemonic;
    if (m != "VOTEU" && m != "REDUX") continue;
    const auto it = pc_of_line.find(in.ptx_line);
    if (it == pc_of_line.end() || !atomic(it->second)) continue;
    // ptxas reduces once for the same operation repeated in a block (an unrolled loop's atomics
    // share one VOTEU / POPC): every atomic of that opcode in the PTX basic block is aggregated.
    std::size_t b = it->second, e = it->second + 1;
    while (b > 0 && !target[b] && code[b - 1].plain) --b;
    while (e < code.size() && !target[e] && code[e - 1].plain) ++e;
    for (std::size_t pc = b; pc < e; ++pc)
      if (atomic(pc) && opcode(pc) == opcode(it->second)) out[pc] = true;
  }
  return out;
}

}  // namespace warpscope::profiling
