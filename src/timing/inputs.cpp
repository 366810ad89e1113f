#include "timing/inputs.hpp"

#include <algorithm>
#include <cctype>
#include <string_view>
#include <utility>

namespace warpscope::timing {
namespace {

bool has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }
bool starts(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

/// The opcode with its modifiers: the first word after an optional `@p` guard.
std::string_view opcode_of(std::string_view text) {
  auto skip = [&] {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  };
  skip();
  if (!text.empty() && text.front() == '@') {
    const std::size_t sp = text.find_first_of(" \t");
    text = sp == std::string_view::npos ? std::string_view{} : text.substr(sp);
    skip();
  }
  const std::size_t end = text.find_first_of(" \t;");
  return end == std::string_view::npos ? text : text.substr(0, end);
}

}  // namespace

void add_ptx_instruction(InstructionMix& m, const std::string& text, double n) {
  const std::string_view op = opcode_of(text);
  if (op.empty()) return;
  // Fixed machine-code sequences (sm_90 ptxas, seen in tests/hw/data/h100/examples/nbody_source.csv
  // and tests/hw/data/h100/timing/microbench.sass.txt): the fast path of IEEE sqrt and division.
  const bool f32 = has(op, ".f32");
  const bool ftz = has(op, ".ftz");
  if (f32 && (starts(op, "sqrt.rn") || starts(op, "sqrt.rz") || starts(op, "sqrt.rm") || starts(op, "sqrt.rp"))) {
    m.total += 11 * n; m.mufu += n; m.fp32 += 4 * n; m.integer += 3 * n;  // + BSSY, BRA, BSYNC
    return;
  }
  if (f32 && (starts(op, "div.rn") || starts(op, "div.full") || starts(op, "rcp.rn") || starts(op, "div.rz") ||
              starts(op, "div.rm") || starts(op, "div.rp") || starts(op, "rcp.rz") || starts(op, "rcp.rm") ||
              starts(op, "rcp.rp"))) {
    const bool full = starts(op, "div.full");
    m.total += (full ? 3 : 8) * n; m.mufu += n; m.fp32 += (full ? 2 : 2) * n; m.integer += (full ? 0 : 2) * n;
    return;
  }
  if (has(op, ".approx") && (starts(op, "rsqrt") || starts(op, "rcp") || starts(op, "sqrt") || starts(op, "ex2") ||
                             starts(op, "lg2") || starts(op, "sin") || starts(op, "cos") || starts(op, "tanh"))) {
    // Without .ftz a denormal check and two scaling multiplies surround the MUFU (microbench.sass.txt).
    m.total += (ftz || !f32 ? 1 : 4) * n; m.mufu += n; m.fp32 += (ftz || !f32 ? 0 : 3) * n;
    return;
  }
  m.total += n;
  if (starts(op, "ld.") || starts(op, "ldu.") || starts(op, "tex.") || starts(op, "tld4.") || starts(op, "suld.") ||
      starts(op, "cp.async") || starts(op, "ldmatrix")) {
    if (starts(op, "ld.param") || starts(op, "ld.const")) { m.integer += n; return; }
    if (has(op, ".shared") || starts(op, "ldmatrix")) m.shared_loads += n;
    else if (has(op, ".local")) m.local_loads += n;
    else m.global_loads += n;
    return;
  }
  if (starts(op, "st.") || starts(op, "stmatrix") || starts(op, "sust.")) { m.stores += n; return; }
  if (starts(op, "atom.") || starts(op, "red.")) { m.atomics += n; return; }
  if (has(op, ".f64")) { m.fp64 += n; return; }
  const bool float_arith = starts(op, "add.") || starts(op, "sub.") || starts(op, "mul.") || starts(op, "fma.") ||
                           starts(op, "mad.") || starts(op, "neg.") || starts(op, "abs.") || starts(op, "min.") ||
                           starts(op, "max.");
  if (float_arith && (f32 || has(op, ".f16") || has(op, ".bf16"))) { m.fp32 += n; return; }
  if (starts(op, "bra") || starts(op, "ret") || starts(op, "exit") || starts(op, "bar") || starts(op, "call") ||
      starts(op, "membar") || starts(op, "fence")) return;  // control: issue slots only
  m.integer += n;  // integer, logic, compare, select, convert, move, shuffle, vote
}

void add_machine_instruction(InstructionMix& m, std::string_view mnemonic, std::string_view cls, double n) {
  m.total += n;
  m.from_machine_code = true;
  // Pipes (docs/time.md, "Machine-code classes"; Nsight Compute's pipeline descriptions): FP32 and
  // FP16 arithmetic on the FMA pipe; integer, logic, moves, votes and I2FP (fixed latency) on the
  // integer pipes; MUFU and the other conversions (F2I, I2F, F2F, FRND: variable latency) on the XU,
  // whose rate MUFU's is; FP64 on its own pipe.
  if (cls == "fp32" || cls == "fp16") m.fp32 += n;
  else if (cls == "fp64") m.fp64 += n;
  else if (cls == "mufu") m.mufu += n;
  else if (cls == "conversion") (mnemonic == "I2FP" ? m.integer : m.mufu) += n;
  else if (cls == "integer") m.integer += n;
  else if (cls == "move") {
    if (mnemonic == "LDC") m.constant_loads += n;       // constant cache, through the ADU
    else if (mnemonic != "S2R") m.integer += n;         // MOV, CS2R; S2R: an issue slot only
  } else if (cls == "inter_thread") {
    if (mnemonic != "SHFL") m.integer += n;             // VOTE, REDUX, MATCH; SHFL: issue only
  } else if (cls == "uniform") m.uniform += n;
  else if (cls == "tensor") {
    m.tensor += n;
    if (mnemonic == "DMMA") m.tensor_fp64 += n;
  }
  else if (cls == "global_ld" || cls == "generic_ld" || cls == "texture") m.global_loads += n;
  else if (cls == "local_ld") m.local_loads += n;
  else if (cls == "shared_ld") m.shared_loads += n;
  else if (cls == "global_st" || cls == "local_st" || cls == "shared_st" || cls == "generic_st" || cls == "async_copy")
    m.stores += n;
  else if (cls == "global_atom" || cls == "shared_atom") m.atomics += n;
  // control, barrier, nop, other: issue slots only.
}

void add_wgmma(InstructionMix& m, std::string_view text, double warp_executions) {
  const std::string_view op = opcode_of(text);
  if (!starts(op, "wgmma.mma_async")) return;
  const std::size_t at = op.find(".m64n");
  if (at == std::string_view::npos) return;
  double n = 0;
  for (std::size_t i = at + 5; i < op.size() && std::isdigit(static_cast<unsigned char>(op[i])) != 0; ++i)
    n = n * 10 + (op[i] - '0');
  m.gmma_cycles += warp_executions / 4.0 * std::max(n / 2.0, 24.0);
}

double machine_latency(const TimeConstants& c, const MemoryCounts& mem, std::string_view mnemonic, std::string_view cls) {
  if (cls == "global_ld" || cls == "generic_ld" || cls == "texture") return global_load_latency(c, mem);
  if (cls == "local_ld") return c.lat_l1;
  if (cls == "shared_ld" || cls == "shared_atom") return c.lat_shared;
  if (cls == "global_atom") return c.lat_l2;
  if (cls == "fp64") return c.lat_fp64;
  const double xu = c.lat_xu > 0 ? c.lat_xu : c.lat_mufu;
  if (cls == "mufu" || cls == "conversion") return xu;
  if (mnemonic == "LDC") return c.lat_const > 0 ? c.lat_const : c.lat_l1;
  if (mnemonic == "SHFL") return c.lat_shfl > 0 ? c.lat_shfl : c.lat_shared;
  // S2R, tensor-core and other scoreboarded instructions: no measurement; an L1-like round trip.
  return c.lat_l1;
}

namespace {

bool is_load(std::string_view op) {
  return (starts(op, "ld.") && !starts(op, "ld.param") && !starts(op, "ld.const")) || starts(op, "ldu.");
}

/// The first operand (a load's destination, "{%f1, %f2}" for vectors) and the address in [ ].
std::pair<std::string_view, std::string_view> load_operands(std::string_view text) {
  const std::string_view op = opcode_of(text);
  std::string_view rest = text.substr(static_cast<std::size_t>(op.data() + op.size() - text.data()));
  const std::size_t bracket = rest.find('[');
  const std::size_t close = rest.find(']');
  if (bracket == std::string_view::npos || close == std::string_view::npos || close < bracket) return {};
  return {rest.substr(0, bracket), rest.substr(bracket + 1, close - bracket - 1)};
}

/// Whether the address of `next` can use a register `prev` loads (a pointer chase).
bool uses_result(std::string_view prev, std::string_view next) {
  const auto [dest, unused] = load_operands(prev);
  const auto [unused2, address] = load_operands(next);
  std::size_t i = 0;
  while ((i = dest.find('%', i)) != std::string_view::npos) {
    std::size_t j = i + 1;
    while (j < dest.size() && (std::isalnum(static_cast<unsigned char>(dest[j])) != 0 || dest[j] == '_')) ++j;
    const std::string_view reg = dest.substr(i, j - i);
    for (std::size_t k = address.find(reg); k != std::string_view::npos; k = address.find(reg, k + 1)) {
      const std::size_t after = k + reg.size();
      if (after >= address.size() || std::isalnum(static_cast<unsigned char>(address[after])) == 0) return true;
    }
    i = j;
  }
  return false;
}

}  // namespace

InstructionMix mix_from_ptx(const std::vector<std::string>& texts, const std::vector<std::uint64_t>& executions) {
  InstructionMix m;
  for (std::size_t i = 0; i < texts.size() && i < executions.size(); ++i) {
    if (executions[i] == 0) continue;
    const auto n = static_cast<double>(executions[i]);
    add_ptx_instruction(m, texts[i], n);
    // A load right after another one (the same executions: one basic block) that does not use
    // its result waits for its data while the first one does.
    if (i > 0 && is_load(opcode_of(texts[i])) && is_load(opcode_of(texts[i - 1])) && executions[i - 1] == executions[i] &&
        !uses_result(texts[i - 1], texts[i])) {
      m.overlapped_loads += n;
    }
  }
  return m;
}

MemoryCounts memory_from_metrics(const nlohmann::json& metrics) {
  auto get = [&](const char* name) {
    auto it = metrics.find(name);
    return it != metrics.end() && it->is_number() ? it->get<double>() : 0.0;
  };
  auto sum = [&](std::initializer_list<const char*> names) {
    double s = 0;
    for (const char* n : names) s += get(n);
    return s;
  };
  MemoryCounts m;
  const double requests = sum({"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                               "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
                               "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"});
  const double sectors = sum({"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                              "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
                              "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"});
  const double shared_wavefronts = sum({"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                                        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"});
  const double shared_instructions = sum({"smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum"});
  m.lsu_requests = requests + shared_instructions;
  // A request's sectors move through the data stage 4 (128 bytes) per wavefront, at least one.
  m.l1_wavefronts = std::max(requests, sectors / 4.0) + shared_wavefronts;
  m.global_load_sectors = get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  m.l1_hit_sectors = get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum");
  m.l2_sectors = sum({"lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
                      "lts__t_sectors_srcunit_tex_op_atom.sum", "lts__t_sectors_srcunit_tex_op_red.sum"});
  m.l2_hit_sectors = sum({"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", "lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum"});
  m.l2_read_sectors = get("lts__t_sectors_srcunit_tex_op_read.sum");
  m.l2_read_hit_sectors = get("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum");
  m.l2_atomic_sectors = sum({"lts__t_sectors_srcunit_tex_op_atom.sum", "lts__t_sectors_srcunit_tex_op_red.sum"});
  m.dram_read_bytes = get("dram__bytes_read.sum");
  m.dram_write_bytes = get("dram__bytes_write.sum");
  return m;
}

nlohmann::json add_prediction(const Prediction& p, const TimeConstants& c, const InstructionMix& mix,
                              nlohmann::json& metrics, nlohmann::json& estimated) {
  const std::pair<const char*, double> values[] = {
      {"gpu__time_duration.sum", p.duration_ns},
      {"sm__throughput.avg.pct_of_peak_sustained_elapsed", p.sm_pct},
      {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", p.memory_pct},
      {"l1tex__throughput.avg.pct_of_peak_sustained_active", p.l1_pct},
      {"lts__throughput.avg.pct_of_peak_sustained_elapsed", p.l2_pct},
      {"dram__throughput.avg.pct_of_peak_sustained_elapsed", p.dram_pct},
      {"sm__warps_active.avg.pct_of_peak_sustained_active", p.occupancy_pct}};
  for (const auto& [name, v] : values) {
    metrics[name] = v;
    if (estimated.is_array()) estimated.push_back(name);
  }
  nlohmann::json t;
  t["duration_ns"] = p.duration_ns;
  t["limiter"] = p.limiter;
  t["waves"] = p.waves;
  t["latency_share"] = p.latency_share;
  t["sol"] = {{"sm_pct", p.sm_pct},     {"memory_pct", p.memory_pct}, {"l1_pct", p.l1_pct},
              {"l2_pct", p.l2_pct},     {"dram_pct", p.dram_pct},     {"occupancy_pct", p.occupancy_pct}};
  t["mix"] = {{"total", mix.total},           {"fp32", mix.fp32},       {"fp64", mix.fp64},
              {"mufu", mix.mufu},             {"integer", mix.integer}, {"global_loads", mix.global_loads},
              {"local_loads", mix.local_loads}, {"shared_loads", mix.shared_loads}, {"stores", mix.stores},
              {"atomics", mix.atomics},       {"constant_loads", mix.constant_loads},
              {"uniform", mix.uniform},       {"tensor", mix.tensor}, {"tensor_fp64", mix.tensor_fp64}, {"gmma_cycles", mix.gmma_cycles},   {"from_machine_code", mix.from_machine_code}};
  t["components"] = p.components;
  t["constants"] = c.source;
  t["estimated"] = true;
  return t;
}

}  // namespace warpscope::timing
