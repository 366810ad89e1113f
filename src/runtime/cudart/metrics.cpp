#include "runtime/cudart/metrics.hpp"

#include <array>
#include <string>

#include <fmt/format.h>

#include "common/error.hpp"

#if WARPSCOPE_HAVE_MEM
#include "mem/coalescer.hpp"
#include "mem/hierarchy.hpp"
#include "mem/shared_banks.hpp"
#endif

namespace warpscope::cudart {
namespace {

const char* op_name(Op op) {
  switch (op) {
    case Op::kLoad: return "ld";
    case Op::kStore: return "st";
    case Op::kAtomic: return "atom";
    case Op::kReduction: return "red";
  }
  return "?";
}

const char* space_name(Space s) {
  switch (s) {
    case Space::kGlobal: return "global";
    case Space::kLocal: return "local";
    case Space::kShared: return "shared";
    case Space::kConst: return "const";
  }
  return "?";
}

[[maybe_unused]] double ratio(double a, double b) { return b == 0 ? 0.0 : a / b; }

}  // namespace

struct LaunchMetrics::Impl {
  const arch::Profile& profile;
  // Warp memory instructions by [space][op].
  std::array<std::array<std::uint64_t, 4>, 4> instructions{};
  std::uint64_t global_bytes_requested = 0, global_bytes_moved = 0;
  std::uint64_t local_bytes_requested = 0, local_bytes_moved = 0;
  std::array<std::uint64_t, 2> shared_wavefronts{}, shared_ideal{}, shared_conflicts{};  // ld, st
  std::uint64_t model_errors = 0;
  std::string first_model_error;
#if WARPSCOPE_HAVE_MEM
  mem::Coalescer coalescer;
  mem::MemoryHierarchy hierarchy;
  mem::CoalesceResult scratch;
  explicit Impl(const arch::Profile& p) : profile(p), coalescer(p), hierarchy(p, p.sm_count == 0 ? 1 : p.sm_count) {}
#else
  explicit Impl(const arch::Profile& p) : profile(p) {}
#endif
};

LaunchMetrics::LaunchMetrics(const arch::Profile& profile) : impl_(std::make_unique<Impl>(profile)) {}
LaunchMetrics::~LaunchMetrics() = default;

bool LaunchMetrics::has_memory_model() { return WARPSCOPE_HAVE_MEM != 0; }

void LaunchMetrics::set_local_frame_bytes([[maybe_unused]] std::uint64_t bytes) {
#if WARPSCOPE_HAVE_MEM
  if (bytes > 0) impl_->hierarchy.set_local_frame_bytes(bytes);
#endif
}

void LaunchMetrics::on_access(const WarpAccess& a) {
  std::lock_guard lock(mu_);
  Impl& m = *impl_;
  m.instructions[static_cast<unsigned>(a.space)][static_cast<unsigned>(a.op)] += 1;
#if WARPSCOPE_HAVE_MEM
  try {
    if (a.space == Space::kShared) {
      const auto r = mem::shared_access(m.profile, a);
      const unsigned k = a.op == Op::kLoad ? 0 : 1;
      m.shared_wavefronts[k] += r.wavefronts;
      m.shared_ideal[k] += r.ideal_wavefronts;
      m.shared_conflicts[k] += r.bank_conflicts;
    } else if (a.space == Space::kGlobal || a.space == Space::kLocal) {
      m.coalescer.coalesce(a, m.scratch);
      const unsigned sm = m.profile.sm_count == 0 ? 0 : a.cta % m.profile.sm_count;
      m.hierarchy.access(sm, a, m.scratch);
      if (a.space == Space::kGlobal) {
        m.global_bytes_requested += m.scratch.bytes_requested;
        m.global_bytes_moved += m.scratch.bytes_moved;
      } else {
        m.local_bytes_requested += m.scratch.bytes_requested;
        m.local_bytes_moved += m.scratch.bytes_moved;
      }
    }
  } catch (const Error& e) {
    if (m.model_errors++ == 0) m.first_model_error = e.what();
  }
#endif
}

nlohmann::json LaunchMetrics::finish(const LaunchStats& stats) {
  std::lock_guard lock(mu_);
  Impl& m = *impl_;
  nlohmann::json j = nlohmann::json::object();
  j["smsp__inst_executed.sum"] = stats.warp_instructions;
  j["thread_inst_executed.sum"] = stats.thread_instructions;
  for (Space s : {Space::kGlobal, Space::kLocal, Space::kShared}) {
    for (Op o : {Op::kLoad, Op::kStore, Op::kAtomic, Op::kReduction}) {
      const auto n = m.instructions[static_cast<unsigned>(s)][static_cast<unsigned>(o)];
      if (s == Space::kShared && o != Op::kLoad && o != Op::kStore && n == 0) continue;
      if (s == Space::kLocal && o != Op::kLoad && o != Op::kStore) continue;
      j[fmt::format("smsp__sass_inst_executed_op_{}_{}.sum", space_name(s), op_name(o))] = n;
    }
  }
  j["const_instructions"] = m.instructions[static_cast<unsigned>(Space::kConst)][0];
#if WARPSCOPE_HAVE_MEM
  m.hierarchy.flush_l2();
  const auto& c = m.hierarchy.counters();
  std::uint64_t g_req = 0, g_sec = 0, g_ld_sec = 0, g_ld_hit = 0;
  for (Space s : {Space::kGlobal, Space::kLocal}) {
    for (Op o : {Op::kLoad, Op::kStore, Op::kAtomic, Op::kReduction}) {
      if (s == Space::kLocal && o != Op::kLoad && o != Op::kStore) continue;
      const auto& l = c.at(s, o);
      const std::string base = fmt::format("pipe_lsu_mem_{}_op_{}", space_name(s), op_name(o));
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
  j["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] = m.shared_wavefronts[0];
  j["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] = m.shared_wavefronts[1];
  j["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] = m.shared_conflicts[0];
  j["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"] = m.shared_conflicts[1];
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
  // Derived, for the summary.
  const auto& ll = c.at(Space::kLocal, Op::kLoad);
  const auto& ls = c.at(Space::kLocal, Op::kStore);
  const std::uint64_t l2_all = c.l2_read_sectors + c.l2_write_sectors + c.l2_atom_sectors + c.l2_red_sectors;
  const std::uint64_t l2_hit = c.l2_read_hits + c.l2_write_hits + c.l2_atom_hits + c.l2_red_hits;
  j["global_requests"] = g_req;
  j["global_sectors"] = g_sec;
  j["global_sectors_per_request"] = ratio(static_cast<double>(g_sec), static_cast<double>(g_req));
  j["global_bytes_requested"] = m.global_bytes_requested;
  j["global_bytes_moved"] = m.global_bytes_moved;
  j["global_bus_utilization_pct"] =
      100.0 * ratio(static_cast<double>(m.global_bytes_requested), static_cast<double>(m.global_bytes_moved));
  j["l1_hit_rate_global_ld_pct"] = 100.0 * ratio(static_cast<double>(g_ld_hit), static_cast<double>(g_ld_sec));
  j["l2_hit_rate_pct"] = 100.0 * ratio(static_cast<double>(l2_hit), static_cast<double>(l2_all));
  j["l2_read_hit_rate_pct"] =
      100.0 * ratio(static_cast<double>(c.l2_read_hits), static_cast<double>(c.l2_read_sectors));
  j["local_requests"] = ll.requests + ls.requests;
  j["local_sectors"] = ll.sectors + ls.sectors;
  j["local_bytes"] = (ll.sectors + ls.sectors) * m.profile.sector_bytes;
  j["shared_wavefronts"] = m.shared_wavefronts[0] + m.shared_wavefronts[1];
  j["shared_bank_conflicts"] = m.shared_conflicts[0] + m.shared_conflicts[1];
  if (m.model_errors > 0) {
    j["memory_model_errors"] = m.model_errors;
    j["memory_model_first_error"] = m.first_model_error;
  }
#endif
  return j;
}

}  // namespace warpscope::cudart
