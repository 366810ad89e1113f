#include "stats/report_json.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <tuple>

#include <fmt/format.h>

namespace warpscope::stats {
namespace {

const char* op_short(Op op) {
  switch (op) {
    case Op::kLoad: return "ld";
    case Op::kStore: return "st";
    case Op::kAtomic: return "atom";
    case Op::kReduction: return "red";
    case Op::kLdgsts: return "ldgsts";
    case Op::kBulkCopy: return "bulk";
    case Op::kBulkStore: return "bulk_st";
    case Op::kGmma: return "gmma";
    case Op::kBulkRed: return "bulk_red";
  }
  return "?";
}




double ratio(std::uint64_t a, std::uint64_t b) { return b == 0 ? 0.0 : static_cast<double>(a) / static_cast<double>(b); }

constexpr Op kOps[] = {Op::kLoad, Op::kStore, Op::kAtomic, Op::kReduction};

}  // namespace

const std::string& SourceCache::line(const std::string& file, std::uint32_t line) {
  static const std::string& kEmpty = *new std::string;  // never destroyed
  if (file.empty() || line == 0) return kEmpty;
  auto it = files_.find(file);
  if (it == files_.end()) {
    std::vector<std::string> lines;
    std::ifstream in(file);
    for (std::string l; std::getline(in, l);) {
      if (!l.empty() && l.back() == '\r') l.pop_back();
      lines.push_back(std::move(l));
    }
    it = files_.emplace(file, std::move(lines)).first;
  }
  return line <= it->second.size() ? it->second[line - 1] : kEmpty;
}

/// Whether the launch ran texture or surface instructions (their metrics appear only then).
bool uses_textures(const ModelResult& m) {
  for (Space s : {Space::kTexture, Space::kSurface})
    for (Op o : kOps)
      if (instruction_count(m, s, o) != 0) return true;
  return false;
}

/// The TEX pipe of L1TEX: texture fetches (tex, tld4) and surface loads, stores and reductions.
/// Each name with its value in `out`; `names_only` lists the names (for `estimated`).
void texture_metric_values(const ModelResult& m, std::vector<std::pair<std::string, std::uint64_t>>& out) {
  const mem::Counters& c = m.counters;
  const auto& t = c.at(Space::kTexture, Op::kLoad);
  out.emplace_back("smsp__sass_inst_executed_op_texture.sum", instruction_count(m, Space::kTexture, Op::kLoad));
  out.emplace_back("l1tex__t_requests_pipe_tex_mem_texture.sum", t.requests);
  out.emplace_back("l1tex__t_sectors_pipe_tex_mem_texture.sum", t.sectors);
  out.emplace_back("l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum", t.sector_hits);
  out.emplace_back("l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum", t.sectors - t.sector_hits);
  for (Op o : {Op::kLoad, Op::kStore, Op::kReduction}) {
    const auto& l = c.at(Space::kSurface, o);
    const std::string base = fmt::format("pipe_tex_mem_surface_op_{}", op_short(o));
    out.emplace_back(fmt::format("smsp__sass_inst_executed_op_surface_{}.sum", op_short(o)),
                     instruction_count(m, Space::kSurface, o));
    out.emplace_back("l1tex__t_requests_" + base + ".sum", l.requests);
    out.emplace_back("l1tex__t_sectors_" + base + ".sum", l.sectors);
    out.emplace_back("l1tex__t_sectors_" + base + "_lookup_hit.sum", l.sector_hits);
    out.emplace_back("l1tex__t_sectors_" + base + "_lookup_miss.sum", l.sectors - l.sector_hits);
  }
}

/// Whether the launch ran cp.async (its LDGSTS metrics appear only then).
bool uses_async_copies(const ModelResult& m) { return instruction_count(m, Space::kGlobal, Op::kLdgsts) != 0; }

/// cp.async (SASS LDGSTS) under Nsight Compute's names (tests/hw/data/h100/async): the .ca
/// copies are LDGSTS.ACCESS (looked up in L1), the .cg ones LDGSTS.BYPASS; the non-sass l1tex
/// names exist for ACCESS only. Their global requests and sectors are also in op_ld.
void async_copy_metric_values(const ModelResult& m, std::vector<std::pair<std::string, std::uint64_t>>& out) {
  std::uint64_t inst[2] = {}, req[2] = {}, sec[2] = {}, hit[2] = {};
  for (const InstructionStats& s : m.per_pc) {
    if (!s.seen || s.op != Op::kLdgsts) continue;
    const unsigned k = s.cache == CacheOp::kCg ? 1 : 0;
    inst[k] += s.executions;
    req[k] += s.requests;
    sec[k] += s.sectors;
    hit[k] += s.l1_hit_sectors;
  }
  out.emplace_back("smsp__sass_inst_executed_op_ldgsts.sum", inst[0] + inst[1]);
  out.emplace_back("smsp__sass_inst_executed_op_ldgsts_cache_access.sum", inst[0]);
  out.emplace_back("smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum", inst[1]);
  out.emplace_back("l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", req[0]);
  out.emplace_back("l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", sec[0]);
  out.emplace_back("l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum", hit[0]);
  out.emplace_back("l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss.sum", sec[0] - hit[0]);
  out.emplace_back("smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum", req[0] + req[1]);
  out.emplace_back("smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", req[0]);
  out.emplace_back("smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum", req[1]);
  out.emplace_back("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts.sum", sec[0] + sec[1]);
  out.emplace_back("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum", sec[0]);
  out.emplace_back("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_bypass.sum", sec[1]);
  out.emplace_back("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", m.ldgsts_wavefronts);
  out.emplace_back("smsp__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts.sum", m.ldgsts_conflicts);
}

/// Whether the launch ran bulk copies (cp.async.bulk*, the TMA): their metrics appear only then.
bool uses_bulk_copies(const ModelResult& m) {
  return instruction_count(m, Space::kGlobal, Op::kBulkCopy) + instruction_count(m, Space::kGlobal, Op::kBulkStore) +
             instruction_count(m, Space::kGlobal, Op::kBulkRed) + m.dsmem_bulk[0][0] + m.dsmem_bulk[1][0] !=
         0;
}

/// The Tensor Memory Accelerator under Nsight Compute's names (tests/hw/data/h100/tma): a tensor
/// load is one UTMALDG and one l1tex__tmain request, a tensor store one UTMASTG and two requests;
/// their global sectors are the distinct sectors of each box row (loads: the whole box, stores:
/// the in-bounds part). A plain cp.async.bulk load (UBLKCP) counts as a TMA load too: one
/// instruction, one request and its sectors (tests/hw/data/h100/tma_more, peer_probe case 0).
/// With .multicast::cluster the xbar2l1tex sectors count once per CTA of the ctaMask while the L2
/// reads them once (peer_probe cases 2, 3: 96 = 3 x 32, 80 = 2 x 40). Reductions
/// (cp.reduce.async.bulk: UBLKRED, .tensor: UTMAREDG; tests/hw/data/h100/tma_more) count as
/// smsp__inst_executed_op_tma_st and smsp__sass_inst_executed_op_tma_red, two l1tex__tmain
/// requests each, and the distinct sectors of each record (a 128-byte chunk of a bulk reduction,
/// the in-bounds part of a box row) as ..._write_sectors_mem_global_op_tma_red. Bulk copies and
/// reductions from shared::cta into a peer CTA's shared memory (UBLKCP.S.S, UBLKRED.S.S;
/// tests/hw/data/h100/dsmem_bulk) are each one TMA instruction counted as op_tma_st and one
/// l1tex__tmain request, with their destination's distinct 32-byte sectors, 32 bytes each, under
/// ..._mem_dshared_op_tma_st / _op_tma_red in both crossbar directions.
void tma_metric_values(const ModelResult& m, std::vector<std::pair<std::string, std::uint64_t>>& out) {
  std::uint64_t ld = 0, st = 0, bulk = 0, ld_sec = 0, st_sec = 0, red = 0, red_sec = 0;
  for (const InstructionStats& s : m.per_pc) {
    if (!s.seen || (s.op != Op::kBulkCopy && s.op != Op::kBulkStore && s.op != Op::kBulkRed)) continue;
    if (s.op == Op::kBulkRed) {
      red += s.executions;
      red_sec += s.sectors;
    } else if (s.op == Op::kBulkCopy) {
      ld += s.executions;
      ld_sec += s.sectors + s.multicast_sectors;
    } else if (!s.tensor) {
      bulk += s.executions;
    } else {
      st += s.executions;
      st_sec += s.sectors;
    }
  }
  const std::uint64_t dcopy = m.dsmem_bulk[0][0], dred = m.dsmem_bulk[1][0];
  out.emplace_back("smsp__inst_executed_op_tma_ld.sum", ld);
  out.emplace_back("smsp__inst_executed_op_tma_st.sum", st + red + dcopy + dred);
  out.emplace_back("smsp__sass_inst_executed_op_tma.sum", ld + st + bulk + red + dcopy + dred);
  out.emplace_back("smsp__sass_inst_executed_op_tma_ld.sum", ld);
  out.emplace_back("smsp__sass_inst_executed_op_tma_red.sum", red);
  out.emplace_back("l1tex__tmain_requests.sum", ld + 2 * st + 2 * red + dcopy + dred);
  out.emplace_back("l1tex__m_xbar2l1tex_read_sectors_mem_global_op_tma_ld.sum", ld_sec);
  out.emplace_back("l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum", ld_sec * 32);
  out.emplace_back("l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_st.sum", st_sec);
  out.emplace_back("l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_st.sum", st_sec * 32);
  out.emplace_back("l1tex__m_l1tex2xbar_write_sectors_mem_global_op_tma_red.sum", red_sec);
  out.emplace_back("l1tex__m_l1tex2xbar_write_bytes_mem_global_op_tma_red.sum", red_sec * 32);
  if (dcopy + dred == 0) return;
  static constexpr const char* kKinds[2] = {"tma_st", "tma_red"};
  for (unsigned k = 0; k < 2; ++k) {
    const std::uint64_t n = m.dsmem_bulk[k][0], sec = m.dsmem_bulk[k][1];
    out.emplace_back(fmt::format("smsp__sass_inst_executed_op_dshared_{}.sum", kKinds[k]), n);
    out.emplace_back(fmt::format("l1tex__m_l1tex2xbar_write_sectors_mem_dshared_op_{}.sum", kKinds[k]), sec);
    out.emplace_back(fmt::format("l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_{}.sum", kKinds[k]), sec * 32);
    out.emplace_back(fmt::format("l1tex__m_xbar2l1tex_read_sectors_mem_dshared_op_{}.sum", kKinds[k]), sec);
    out.emplace_back(fmt::format("l1tex__m_xbar2l1tex_read_bytes_mem_dshared_op_{}.sum", kKinds[k]), sec * 32);
  }
}

void texture_metrics(nlohmann::json& j, const ModelResult& m) {
  if (!uses_textures(m)) return;
  std::vector<std::pair<std::string, std::uint64_t>> v;
  texture_metric_values(m, v);
  for (const auto& [name, value] : v) j[name] = value;
}

nlohmann::json unit_extremes_json(const ModelResult& m) {
  nlohmann::json out = nlohmann::json::object();
  if (m.per_sm.empty()) return out;
  auto add = [&](const std::string& base, auto value_of) {
    std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
    for (const auto& sm : m.per_sm) {
      const std::uint64_t v = value_of(sm);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    out[base] = {{"min", lo}, {"max", hi}};
  };
  for (Space s : {Space::kGlobal, Space::kLocal}) {
    for (Op o : {Op::kLoad, Op::kStore, Op::kAtomic, Op::kReduction}) {
      if (s == Space::kLocal && o != Op::kLoad && o != Op::kStore) continue;
      const unsigned si = mem::Counters::l1_index(s), oi = static_cast<unsigned>(o);
      // As metrics_json: cp.async's global side counts under op_ld.
      const bool with_ldgsts = s == Space::kGlobal && o == Op::kLoad;
      const unsigned gi = static_cast<unsigned>(Op::kLdgsts);
      const std::string base = fmt::format("pipe_lsu_mem_{}_op_{}", to_string(s), op_short(o));
      add("l1tex__t_requests_" + base, [&](const ModelResult::SmCounters& sm) {
        return sm.l1[si][oi].requests + (with_ldgsts ? sm.l1[si][gi].requests : 0);
      });
      add("l1tex__t_sectors_" + base, [&](const ModelResult::SmCounters& sm) {
        return sm.l1[si][oi].sectors + (with_ldgsts ? sm.l1[si][gi].sectors : 0);
      });
      add("l1tex__t_sectors_" + base + "_lookup_hit", [&](const ModelResult::SmCounters& sm) {
        return sm.l1[si][oi].sector_hits + (with_ldgsts ? sm.l1[si][gi].sector_hits : 0);
      });
    }
  }
  const char* shared_ops[] = {"ld", "st", "atom"};
  for (unsigned k = 0; k < 3; ++k)
    add(fmt::format("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{}", shared_ops[k]),
        [&](const ModelResult::SmCounters& sm) { return sm.shared_wavefronts[k]; });
  return out;
}

nlohmann::json metrics_json(const ModelResult& m, const LaunchStats& exec) {
  nlohmann::json j = nlohmann::json::object();
  j["smsp__inst_executed.sum"] = exec.warp_instructions;
  j["smsp__thread_inst_executed.sum"] = exec.thread_instructions;
  for (Space s : {Space::kGlobal, Space::kLocal, Space::kShared}) {
    for (Op o : kOps) {
      const auto n = instruction_count(m, s, o);
      if (s == Space::kShared && o != Op::kLoad && o != Op::kStore && n == 0) continue;
      if (s == Space::kLocal && o != Op::kLoad && o != Op::kStore) continue;
      j[fmt::format("smsp__sass_inst_executed_op_{}_{}.sum", to_string(s), op_short(o))] = n;
    }
  }
  j["const_instructions"] = instruction_count(m, Space::kConst, Op::kLoad);
  const mem::Counters& c = m.counters;
  std::uint64_t g_req = 0, g_sec = 0, g_ld_sec = 0, g_ld_hit = 0;
  for (Space s : {Space::kGlobal, Space::kLocal}) {
    for (Op o : kOps) {
      if (s == Space::kLocal && o != Op::kLoad && o != Op::kStore) continue;
      mem::L1Counters l = c.at(s, o);
      if (s == Space::kGlobal && o == Op::kLoad) {
        // Nsight Compute counts LDGSTS requests and sectors (cp.async) under op_ld as well.
        const auto& a = c.at(Space::kGlobal, Op::kLdgsts);
        l.requests += a.requests;
        l.sectors += a.sectors;
        l.sector_hits += a.sector_hits;
      }
      const std::string base = fmt::format("pipe_lsu_mem_{}_op_{}", to_string(s), op_short(o));
      j["l1tex__t_requests_" + base + ".sum"] = l.requests;
      j["l1tex__t_sectors_" + base + ".sum"] = l.sectors;
      j["l1tex__t_sectors_" + base + "_lookup_hit.sum"] = l.sector_hits;
      if (s == Space::kGlobal) {
        g_req += l.requests;
        g_sec += l.sectors;
        if (o == Op::kLoad) {
          g_ld_sec += l.sectors;
          g_ld_hit += l.sector_hits;
        }
      }
    }
  }
  texture_metrics(j, m);
  if (uses_async_copies(m)) {
    std::vector<std::pair<std::string, std::uint64_t>> v;
    async_copy_metric_values(m, v);
    for (const auto& [name, value] : v) j[name] = value;
  }
  if (uses_bulk_copies(m)) {
    std::vector<std::pair<std::string, std::uint64_t>> v;
    tma_metric_values(m, v);
    for (const auto& [name, value] : v) j[name] = value;
  }
  j["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = m.shared_wavefronts[0];
  j["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = m.shared_wavefronts[1];
  j["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = m.shared_conflicts[0];
  j["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] = m.shared_conflicts[1];
  j["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"] = m.shared_wavefronts[2];
  j["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum"] = m.shared_conflicts[2];
  if (m.dsmem[0][0] + m.dsmem[1][0] + m.dsmem[2][0] != 0) {  // distributed shared memory (clusters)
    static constexpr const char* kOpNames[3] = {"ld", "st", "atom"};
    for (unsigned k = 0; k < 3; ++k) {
      const std::string op = kOpNames[k];
      j["smsp__sass_inst_executed_op_dshared_" + op + ".sum"] = m.dsmem[k][0];
      j["l1tex__t_requests_pipe_lsu_mem_dshared_op_" + op + ".sum"] = m.dsmem[k][1];
      j["l1tex__t_sectors_pipe_lsu_mem_dshared_op_" + op + ".sum"] = m.dsmem[k][2];
      j["l1tex__t_output_wavefronts_pipe_lsu_mem_dshared_op_" + op + ".sum"] = m.dsmem[k][3];
      j["l1tex__m_xbar2l1tex_read_bytes_mem_dshared_op_" + op + ".sum"] = m.dsmem[k][4];
      j["l1tex__m_l1tex2xbar_write_bytes_mem_dshared_op_" + op + ".sum"] = m.dsmem[k][4];
    }
  }
  if (m.matrix_instructions[0] + m.matrix_instructions[1] != 0) {  // ldmatrix/stmatrix (LDSM/STSM)
    j["sm__sass_inst_executed_op_ldsm.sum"] = m.matrix_instructions[0];
    j["sm__sass_inst_executed_op_shared_stsm.sum"] = m.matrix_instructions[1];
    j["sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"] = m.matrix_wavefronts[0];
    j["sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_stsm.sum"] = m.matrix_wavefronts[1];
    j["sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_ldsm.sum"] = m.matrix_conflicts[0];
    j["sm__sass_l1tex_data_bank_conflicts_pipe_lsu_mem_shared_op_stsm.sum"] = m.matrix_conflicts[1];
  }
  if (const std::uint64_t n = instruction_count(m, Space::kShared, Op::kGmma); n != 0) {  // wgmma (HGMMA, ...)
    // One per warp of each warpgroup's wgmma, in every family ncu has for them
    // (tests/hw/data/h100/wgmma); the bytes and wavefronts of the operands read through descriptors.
    j["sm__sass_inst_executed_op_shared_gmma.sum"] = n;
    j["sm__inst_executed_pipe_tensor_op_gmma.sum"] = n;
    j["l1tex__lsuin_requests_op_gmma.sum"] = n;
    j["sm__sass_data_bytes_mem_shared_op_gmma.sum"] = m.gmma_bytes;
    j["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"] = m.gmma_wavefronts;
    j["sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_gmma.sum"] = m.gmma_wavefronts;
    j["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_gmma.sum"] = m.gmma_conflicts;
  }
  j["shared_ideal_wavefronts_ld"] = m.shared_ideal[0];
  j["shared_ideal_wavefronts_st"] = m.shared_ideal[1];
  j["lts__t_sectors_srcunit_tex_op_read.sum"] = c.l2_read_sectors;
  j["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"] = c.l2_read_hits;
  j["lts__t_sectors_srcunit_tex_op_write.sum"] = c.l2_write_sectors;
  j["lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum"] = c.l2_write_hits;
  j["lts__t_sectors_srcunit_tex_op_atom.sum"] = c.l2_atom_sectors;
  j["lts__t_sectors_srcunit_tex_op_red.sum"] = c.l2_red_sectors;
  j["dram__bytes_read.sum"] = c.dram_read_bytes;
  j["dram__bytes_write.sum"] = c.dram_write_bytes;
  // Derived figures, for the summary.
  const auto& ll = c.at(Space::kLocal, Op::kLoad);
  const auto& ls = c.at(Space::kLocal, Op::kStore);
  const std::uint64_t l2_all = c.l2_read_sectors + c.l2_write_sectors + c.l2_atom_sectors + c.l2_red_sectors;
  const std::uint64_t l2_hit = c.l2_read_hits + c.l2_write_hits + c.l2_atom_hits + c.l2_red_hits;
  std::uint64_t excessive = 0, shared_excess = 0;
  for (const InstructionStats& s : m.per_pc) {
    if (!s.seen) continue;
    if (s.space == Space::kGlobal) excessive += s.excessive_sectors();
    if (s.space == Space::kShared || s.op == Op::kLdgsts) shared_excess += s.excess_wavefronts();
  }
  j["global_requests"] = g_req;
  j["global_sectors"] = g_sec;
  j["global_sectors_per_request"] = ratio(g_sec, g_req);
  // The profile's own unit (transaction_unit): 32-byte sectors from Maxwell on, where this equals
  // global_sectors; Fermi's and Kepler's cached loads move 128-byte lines, and G80/Tesla move
  // 32/64/128-byte segments per half-warp (docs/mem.md). The same count `warpscope pattern` gives.
  std::uint64_t g_transactions = 0, g_transaction_requests = 0;
  for (const InstructionStats& s : m.per_pc) {
    if (!s.seen || s.space != Space::kGlobal) continue;
    g_transactions += s.sectors;
    g_transaction_requests += s.requests;
  }
  j["global_transactions"] = g_transactions;
  j["global_transactions_per_request"] = ratio(g_transactions, g_transaction_requests);
  j["global_excessive_sectors"] = excessive;
  j["global_bytes_requested"] = m.global_bytes_requested;
  j["global_bytes_moved"] = m.global_bytes_moved;
  j["global_bus_utilization_pct"] = 100.0 * ratio(m.global_bytes_requested, m.global_bytes_moved);
  j["l1_hit_rate_global_ld_pct"] = 100.0 * ratio(g_ld_hit, g_ld_sec);
  j["l2_hit_rate_pct"] = 100.0 * ratio(l2_hit, l2_all);
  j["l2_read_hit_rate_pct"] = 100.0 * ratio(c.l2_read_hits, c.l2_read_sectors);
  j["local_requests"] = ll.requests + ls.requests;
  j["local_sectors"] = ll.sectors + ls.sectors;
  j["local_bytes"] = (ll.sectors + ls.sectors) * m.profile->sector_bytes;
  j["shared_wavefronts"] =
      m.shared_wavefronts[0] + m.shared_wavefronts[1] + m.shared_wavefronts[2] + m.ldgsts_wavefronts + m.gmma_wavefronts;
  j["shared_bank_conflicts"] =
      m.shared_conflicts[0] + m.shared_conflicts[1] + m.shared_conflicts[2] + m.ldgsts_conflicts + m.gmma_conflicts;
  j["shared_excess_wavefronts"] = shared_excess;
  if (m.model_errors > 0) {
    j["memory_model_errors"] = m.model_errors;
    j["memory_model_first_error"] = m.first_model_error;
  }
  return j;
}

nlohmann::json estimated_json(const ModelResult& m) {
  // Cache hits depend on the order in which CTAs and warps meet the caches and on replacement,
  // which the model approximates (docs/report.md); DRAM traffic follows from L2's hits. Requests,
  // sectors, wavefronts and instruction counts follow from the addresses alone.
  nlohmann::json e = nlohmann::json::array();
  for (Space s : {Space::kGlobal, Space::kLocal})
    for (Op o : kOps) {
      if (s == Space::kLocal && o != Op::kLoad && o != Op::kStore) continue;
      e.push_back(fmt::format("l1tex__t_sectors_pipe_lsu_mem_{}_op_{}_lookup_hit.sum", to_string(s), op_short(o)));
    }
  for (const char* n : {"lts__t_sectors_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
                        "lts__t_sectors_srcunit_tex_op_write.sum", "lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum",
                        "lts__t_sectors_srcunit_tex_op_atom.sum", "lts__t_sectors_srcunit_tex_op_red.sum",
                        "dram__bytes_read.sum", "dram__bytes_write.sum", "l1_hit_rate_global_ld_pct", "l2_hit_rate_pct",
                        "l2_read_hit_rate_pct"})
    e.push_back(n);
  // Texture and surface traffic (docs/mem.md, "Textures and surfaces"): requests and sectors
  // follow the H100's measured request rule on profiles with sectors; hits are cache state, as
  // above; surface reductions were not measured, nor any other family's texture unit.
  if (uses_textures(m)) {
    std::vector<std::pair<std::string, std::uint64_t>> v;
    texture_metric_values(m, v);
    const bool measured = m.profile->coalescing == arch::Coalescing::kSectors;
    for (const auto& [name, value] : v)
      if (!name.starts_with("smsp__") && (!measured || name.find("_lookup_") != std::string::npos ||
                                          name.find("surface_op_red") != std::string::npos))
        e.push_back(name);
  }
  // cp.async: hits depend on the order of the copies as above; and the H100 serves concurrent
  // .cg copies of the same sectors with fewer L2 reads (docs/mem.md).
  if (uses_async_copies(m)) {
    e.push_back("l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum");
    e.push_back("l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_miss.sum");
  }
  // The interpreter runs PTX; the hardware counts SASS instructions, which ptxas makes from it.
  for (const char* n : {"smsp__inst_executed.sum", "smsp__thread_inst_executed.sum"}) e.push_back(n);
  if (m.profile->coalescing != arch::Coalescing::kSectors) {
    // Pre-Maxwell families have no ncu of their own: the names stand for the transactions the
    // Programming Guide's rules give (lines or segments), not a measured counter.
    e.push_back("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  }
  return e;
}

nlohmann::json instruction_json(const InstructionStats& s, std::uint32_t pc, const InstructionInfo* info) {
  nlohmann::json j;
  j["pc"] = pc;
  j["ptx"] = info ? info->text : "";
  j["ptx_line"] = info ? info->ptx_line : 0;
  j["space"] = to_string(s.space);
  j["op"] = to_string(s.op);
  j["width"] = s.width;
  if (s.matrix) j["matrix"] = true;
  j["cache"] = to_string(s.cache);
  j["executions"] = s.executions;
  j["active_lanes"] = s.active_lanes;
  j["requests"] = s.requests;
  j["sectors"] = s.sectors;
  j["ideal_sectors"] = s.ideal_sectors;
  if (s.space == Space::kGlobal && (s.op == Op::kLoad || s.op == Op::kStore || s.op == Op::kAtomic ||
                                    s.op == Op::kReduction || s.op == Op::kLdgsts))
    j["l1_tag_requests"] = s.l1_tag_requests;
  if (s.space == Space::kGlobal && (s.op == Op::kAtomic || s.op == Op::kReduction))
    j["theoretical_sectors"] = s.theoretical_sectors;
  j["excessive_sectors"] = s.excessive_sectors();
  j["bytes_requested"] = s.bytes_requested;
  j["bytes_moved"] = s.bytes_moved;
  j["l1_hit_sectors"] = s.l1_hit_sectors;
  j["l2_hit_sectors"] = s.l2_hit_sectors;
  if (s.space == Space::kGlobal && s.op == Op::kLoad) j["l1_foreign_hit_sectors"] = s.l1_foreign_hit_sectors;
  j["wavefronts"] = s.wavefronts;
  j["ideal_wavefronts"] = s.ideal_wavefronts;
  j["uniform_executions"] = s.uniform_executions;
  if (s.space == Space::kLocal) {
    j["in_registers_executions"] = s.in_registers;
    j["dynamic_offset"] = s.offset_varies;
  }
  j["partial_executions"] = s.partial_executions;
  if (s.op == Op::kLdgsts) j["widenable_executions"] = s.widenable_executions;
  if (s.strided_executions > 0 && !s.stride_varies) j["stride_bytes"] = s.stride;
  if (s.sample) {
    const Sample& p = *s.sample;
    nlohmann::json smp;
    smp["cta"] = p.cta;
    smp["warp"] = p.warp;
    smp["active"] = fmt::format("0x{:08x}", p.active.bits());
    smp["width"] = p.width;
    nlohmann::json addrs = nlohmann::json::array();
    for (unsigned l = 0; l < kMaxWarpSize; ++l)
      addrs.push_back(p.active.test(l) ? nlohmann::json(p.addr[l]) : nlohmann::json(nullptr));
    smp["addresses"] = std::move(addrs);
    nlohmann::json tr = nlohmann::json::array();
    for (const auto& [addr, bytes] : p.transactions) tr.push_back({addr, bytes});
    smp["transactions"] = std::move(tr);
    smp["unit"] = p.unit;
    smp["bytes_requested"] = p.bytes_requested;
    smp["bytes_moved"] = p.bytes_moved;
    smp["wavefronts"] = p.wavefronts;
    j["sample"] = std::move(smp);
  }
  if (s.box) {
    const TmaBox& b = *s.box;
    nlohmann::json rows = nlohmann::json::array();
    for (const TmaBox::Row& r : b.rows) rows.push_back({r.global, r.bytes, r.shared});
    j["tma_box"] = {{"cta", b.cta}, {"warp", b.warp}, {"swizzle_bytes", b.swizzle_bytes}, {"rows", std::move(rows)},
                    {"truncated", b.truncated}};
  }
  return j;
}

namespace {

/// Counters that come from the interpreter (every CTA) or are ratios: never scaled.
bool unscaled(const std::string& name) {
  return name == "smsp__inst_executed.sum" || name == "smsp__thread_inst_executed.sum" || name == "line" ||
         name == "smsp__thread_inst_executed_pred_on.sum" || name.rfind("sass_", 0) == 0 || name.rfind("ptx_", 0) == 0 ||
         name == "executions" || name == "thread_executions" || name.rfind("launch__", 0) == 0 ||
         name.rfind("sm__maximum", 0) == 0 || name.find("_pct") != std::string::npos ||
         name.find("per_request") != std::string::npos || name.find("_estimated") != std::string::npos;
}

void scale_object(nlohmann::json& j, double scale, nlohmann::json* estimated) {
  for (auto& [k, v] : j.items()) {
    if (!v.is_number() || unscaled(k)) continue;
    v = static_cast<std::uint64_t>(std::llround(v.get<double>() * scale));
    if (estimated) estimated->push_back(k);
  }
}

}  // namespace

void scale_sampled(nlohmann::json& metrics, nlohmann::json& estimated, nlohmann::json& lines, double scale) {
  std::set<std::string> already;
  for (const auto& e : estimated) already.insert(e.get<std::string>());
  nlohmann::json added = nlohmann::json::array();
  scale_object(metrics, scale, &added);
  for (const auto& a : added)
    if (already.insert(a.get<std::string>()).second) estimated.push_back(a);
  for (auto& l : lines) scale_object(l, scale, nullptr);
}

nlohmann::json local_arrays_json(const ModelResult& m, const std::vector<InstructionInfo>& code,
                                 const std::vector<bool>& dynamic_index) {
  struct Range {
    std::uint64_t lo = 0, end = 0;
    std::vector<std::uint32_t> pcs;
  };
  std::vector<std::uint32_t> local;
  for (std::size_t pc = 0; pc < m.per_pc.size(); ++pc) {
    const InstructionStats& s = m.per_pc[pc];
    const bool spill = pc < code.size() && code[pc].compiled;  // ptxas's spill slots are not PTX arrays
    if (s.seen && s.space == Space::kLocal && s.local_end > s.local_min && !spill) local.push_back(static_cast<std::uint32_t>(pc));
  }
  std::sort(local.begin(), local.end(), [&](std::uint32_t a, std::uint32_t b) {
    return std::tie(m.per_pc[a].local_min, a) < std::tie(m.per_pc[b].local_min, b);
  });
  std::vector<Range> arrays;
  for (std::uint32_t pc : local) {
    const InstructionStats& s = m.per_pc[pc];
    if (arrays.empty() || s.local_min > arrays.back().end) arrays.push_back(Range{s.local_min, s.local_end, {}});
    arrays.back().end = std::max(arrays.back().end, s.local_end);
    arrays.back().pcs.push_back(pc);
  }
  auto info = [&](std::uint32_t pc) { return pc < code.size() ? &code[pc] : nullptr; };
  nlohmann::json out = nlohmann::json::array();
  for (const Range& r : arrays) {
    // The line that first writes it (else first touches it), by the order of the records.
    std::uint32_t first = r.pcs.front();
    bool first_is_store = false;
    bool in_registers = true;
    for (std::uint32_t pc : r.pcs) {
      const InstructionStats& s = m.per_pc[pc];
      const bool store = s.op == Op::kStore;
      if ((store && !first_is_store) || (store == first_is_store && s.first_seen < m.per_pc[first].first_seen)) {
        first = pc;
        first_is_store = store;
      }
      if (s.executions > 0) in_registers = false;
    }
    nlohmann::json a;
    a["depot_offset"] = r.lo;
    a["bytes"] = r.end - r.lo;
    a["file"] = info(first) ? info(first)->file : "";
    a["line"] = info(first) ? info(first)->line : 0;
    a["first_write_pc"] = first;
    a["in_registers"] = in_registers;
    std::uint64_t requests = 0, sectors = 0;
    nlohmann::json dyn = nlohmann::json::array();
    for (std::uint32_t pc : r.pcs) {
      const InstructionStats& s = m.per_pc[pc];
      requests += s.requests;
      sectors += s.sectors;
      if (!s.offset_varies && !(pc < dynamic_index.size() && dynamic_index[pc])) continue;
      nlohmann::json d;
      d["pc"] = pc;
      d["file"] = info(pc) ? info(pc)->file : "";
      d["line"] = info(pc) ? info(pc)->line : 0;
      d["ptx"] = info(pc) ? info(pc)->text : "";
      d["op"] = to_string(s.op);
      d["executions"] = s.executions;
      d["uniform_executions"] = s.uniform_executions;
      d["requests"] = s.requests;
      d["sectors"] = s.sectors;
      d["sectors_per_request"] = ratio(s.sectors, s.requests);
      // How the index behaved across each warp at run time.
      d["index"] = s.executions == 0                            ? "in registers"
                   : s.uniform_executions == s.executions     ? "uniform"
                   : s.uniform_executions * 2 < s.executions  ? "per-thread"
                                                              : "mostly uniform";
      dyn.push_back(std::move(d));
    }
    a["requests"] = requests;
    a["sectors"] = sectors;
    a["dynamic_accesses"] = std::move(dyn);
    out.push_back(std::move(a));
  }
  return out;
}

nlohmann::json lines_json(const ModelResult& m, const LaunchStats& exec, const std::vector<InstructionInfo>& code,
                          SourceCache& sources) {
  struct Line {
    std::uint64_t executions = 0, thread_executions = 0;
    std::uint64_t g_req = 0, g_sec = 0, g_ideal = 0, g_req_bytes = 0, g_moved = 0;
    std::uint64_t l1_hit = 0, l2_hit = 0, l_req = 0, l_sec = 0, s_wf = 0, s_ideal = 0;
    std::uint64_t gmma_inst = 0, gmma_bytes = 0, gmma_wf = 0;
    std::vector<std::uint32_t> pcs;
  };
  std::map<std::tuple<std::string, std::uint32_t>, Line> lines;
  const std::size_t n = std::max(code.size(), std::max(exec.pc_instructions.size(), m.per_pc.size()));
  for (std::size_t pc = 0; pc < n; ++pc) {
    const std::uint64_t ex = pc < exec.pc_instructions.size() ? exec.pc_instructions[pc] : 0;
    const InstructionStats* s = pc < m.per_pc.size() && m.per_pc[pc].seen ? &m.per_pc[pc] : nullptr;
    if (ex == 0 && s == nullptr) continue;
    const InstructionInfo* info = pc < code.size() ? &code[pc] : nullptr;
    Line& l = lines[{info ? info->file : std::string(), info ? info->line : 0}];
    l.executions += ex;
    l.thread_executions += pc < exec.pc_thread_instructions.size() ? exec.pc_thread_instructions[pc] : 0;
    if (s == nullptr) continue;
    l.pcs.push_back(static_cast<std::uint32_t>(pc));
    if (s->space == Space::kGlobal) {
      l.g_req += s->requests;
      l.g_sec += s->sectors;
      l.g_ideal += s->ideal_sectors;
      l.g_req_bytes += s->bytes_requested;
      l.g_moved += s->bytes_moved;
      l.s_wf += s->wavefronts;  // cp.async: the writes of its shared side
      l.s_ideal += s->ideal_wavefronts;
    } else if (s->space == Space::kLocal) {
      l.l_req += s->requests;
      l.l_sec += s->sectors;
    } else if (s->space == Space::kShared) {
      l.s_wf += s->wavefronts;
      l.s_ideal += s->ideal_wavefronts;
      if (s->op == Op::kGmma) {
        l.gmma_inst += s->executions;
        l.gmma_bytes += s->bytes_requested;
        l.gmma_wf += s->wavefronts;
      }
    }
    l.l1_hit += s->l1_hit_sectors;
    l.l2_hit += s->l2_hit_sectors;
  }
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [key, l] : lines) {
    const auto& [file, line] = key;
    nlohmann::json j;
    j["file"] = file;
    j["line"] = line;
    j["text"] = sources.line(file, line);
    j["executions"] = l.executions;
    j["thread_executions"] = l.thread_executions;
    j["global_requests"] = l.g_req;
    j["global_sectors"] = l.g_sec;
    j["global_ideal_sectors"] = l.g_ideal;
    j["global_excessive_sectors"] = l.g_sec - l.g_ideal;
    j["global_bytes_requested"] = l.g_req_bytes;
    j["global_bytes_moved"] = l.g_moved;
    j["l1_hit_sectors"] = l.l1_hit;
    j["l2_hit_sectors"] = l.l2_hit;
    j["local_requests"] = l.l_req;
    j["local_sectors"] = l.l_sec;
    j["shared_wavefronts"] = l.s_wf;
    j["shared_ideal_wavefronts"] = l.s_ideal;
    j["shared_excess_wavefronts"] = l.s_wf - l.s_ideal;
    if (l.gmma_inst != 0) {
      j["gmma_instructions"] = l.gmma_inst;
      j["gmma_shared_bytes"] = l.gmma_bytes;
      j["gmma_wavefronts"] = l.gmma_wf;
    }
    nlohmann::json insts = nlohmann::json::array();
    for (std::uint32_t pc : l.pcs) insts.push_back(instruction_json(m.per_pc[pc], pc, pc < code.size() ? &code[pc] : nullptr));
    j["instructions"] = std::move(insts);
    out.push_back(std::move(j));
  }
  return out;
}

}  // namespace warpscope::stats
