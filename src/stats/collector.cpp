#include "stats/collector.hpp"

#include <bit>

#include "common/error.hpp"
#include "mem/coalescer.hpp"
#include "mem/local_layout.hpp"
#include "mem/shared_banks.hpp"

namespace warpscope::stats {
namespace {

std::uint64_t l1_hits(const mem::Counters& c) {
  std::uint64_t n = 0;
  for (const auto& space : c.l1)
    for (const auto& op : space) n += op.sector_hits;
  return n;
}

std::uint64_t l2_hits(const mem::Counters& c) {
  return c.l2_read_hits + c.l2_write_hits + c.l2_atom_hits + c.l2_red_hits;
}

/// The shape of one access's addresses, for the advice rules.
struct Shape {
  unsigned active = 0;
  bool uniform = false;
  bool strided = false;
  std::int64_t stride = 0;
  std::uint64_t run_base = 0;  // address lane 0 would have had, for a strided access
};

Shape shape_of(const WarpAccess& a) {
  Shape s;
  const std::uint32_t m = a.active.bits();
  s.active = static_cast<unsigned>(std::popcount(m));
  if (s.active < 2) return s;
  const unsigned first = static_cast<unsigned>(std::countr_zero(m));
  const unsigned second = static_cast<unsigned>(std::countr_zero(m & (m - 1)));
  const auto a0 = static_cast<std::int64_t>(a.addr[first]);
  const std::int64_t diff = static_cast<std::int64_t>(a.addr[second]) - a0;
  const std::int64_t gap = second - first;
  if (diff % gap != 0) return s;
  const std::int64_t d = diff / gap;
  for (std::uint32_t rest = m; rest != 0; rest &= rest - 1) {
    const unsigned l = static_cast<unsigned>(std::countr_zero(rest));
    if (static_cast<std::int64_t>(a.addr[l]) != a0 + d * static_cast<std::int64_t>(l - first)) return s;
  }
  s.uniform = d == 0;
  s.strided = d != 0;
  s.stride = d;
  s.run_base = static_cast<std::uint64_t>(a0 - d * static_cast<std::int64_t>(first));
  return s;
}

const char* unit_name(const arch::Profile& p, Space space, std::uint32_t unit_bytes) {
  if (space == Space::kShared) return "wavefront";
  if (p.coalescing == arch::Coalescing::kSectors) return "sector";
  if (p.coalescing == arch::Coalescing::kLines && unit_bytes == p.line_bytes) return "line";
  return "segment";
}

}  // namespace

struct LaunchCollector::Model {
  const arch::Profile& profile;
  mem::Coalescer coalescer;
  mem::MemoryHierarchy hierarchy;
  mem::LocalLayout layout;
  mem::CoalesceResult scratch;
  ModelResult result;

  explicit Model(const arch::Profile& p)
      : profile(p), coalescer(p), hierarchy(p, p.sm_count == 0 ? 1 : p.sm_count), layout(p.warp_size) {
    result.profile = &p;
  }

  InstructionStats& row(const WarpAccess& a) {
    if (a.pc >= result.per_pc.size()) result.per_pc.resize(std::size_t(a.pc) + 1);
    InstructionStats& s = result.per_pc[a.pc];
    if (!s.seen) {
      s.seen = true;
      s.space = a.space;
      s.op = a.op;
      s.cache = a.cache;
      s.width = a.width;
    }
    return s;
  }

  void note_shape(InstructionStats& s, const WarpAccess& a, std::uint32_t unit) {
    const Shape sh = shape_of(a);
    if (sh.active < profile.warp_size) ++s.partial_executions;
    if (sh.uniform) ++s.uniform_executions;
    if (!sh.strided) return;
    if (s.strided_executions++ == 0) {
      s.stride = sh.stride;
    } else if (s.stride != sh.stride) {
      s.stride_varies = true;
    }
    if (a.space != Space::kGlobal || unit == 0 || sh.stride != a.width) return;
    const std::uint64_t off = sh.run_base % unit;
    if (off == 0) return;
    if (s.misaligned_executions++ == 0) {
      s.misalign_min = s.misalign_max = off;
    } else {
      s.misalign_min = std::min(s.misalign_min, off);
      s.misalign_max = std::max(s.misalign_max, off);
    }
  }

  Sample make_sample(const WarpAccess& a, const mem::CoalesceResult& r, std::uint64_t local_base) const {
    Sample smp;
    smp.cta = a.cta;
    smp.warp = a.warp;
    smp.width = a.width;
    smp.active = a.active;
    for (unsigned l = 0; l < kMaxWarpSize; ++l) {
      if (!a.active.test(l)) continue;
      smp.addr[l] = a.space == Space::kLocal ? layout.physical(local_base, l, a.addr[l]) : a.addr[l];
    }
    smp.transactions.reserve(r.transaction_count);
    for (std::uint32_t t = 0; t < r.transaction_count; ++t)
      smp.transactions.emplace_back(r.transactions[t].addr + local_base, r.transactions[t].bytes);
    smp.bytes_requested = r.bytes_requested;
    smp.bytes_moved = r.bytes_moved;
    smp.unit = unit_name(profile, a.space, r.transaction_bytes);
    return smp;
  }

  static void note_local_offsets(InstructionStats& s, const WarpAccess& a) {
    std::uint64_t lo = ~std::uint64_t{0}, hi = 0;
    a.active.for_each([&](unsigned l) {
      lo = std::min(lo, a.addr[l]);
      hi = std::max(hi, a.addr[l]);
    });
    if (lo > hi) return;
    if (lo != hi || (s.local_end != 0 && (lo != s.local_min || hi + a.width != s.local_end))) s.offset_varies = true;
    s.local_min = std::min(s.local_min, lo);
    s.local_end = std::max(s.local_end, hi + a.width);
  }

  void on_access(const WarpAccess& a, std::uint64_t seq, bool local_in_registers) {
    if (a.space == Space::kConst) {
      result.instructions[static_cast<unsigned>(a.space)][static_cast<unsigned>(a.op)] += 1;
      return;
    }
    InstructionStats& s = row(a);
    if (s.executions == 0 && s.in_registers == 0) s.first_seen = seq;
    if (a.space == Space::kLocal) {
      note_local_offsets(s, a);
      if (local_in_registers) {
        s.in_registers += 1;
        return;
      }
    }
    result.instructions[static_cast<unsigned>(a.space)][static_cast<unsigned>(a.op)] += 1;
    s.executions += 1;
    s.active_lanes += static_cast<std::uint64_t>(std::popcount(a.active.bits()));
    if (a.space == Space::kShared) {
      const auto r = mem::shared_access(profile, a);
      const unsigned k = a.op == Op::kLoad ? 0 : a.op == Op::kStore ? 1 : 2;
      result.shared_wavefronts[k] += r.wavefronts;
      result.shared_ideal[k] += r.ideal_wavefronts;
      result.shared_conflicts[k] += r.bank_conflicts;
      s.wavefronts += r.wavefronts;
      s.ideal_wavefronts += r.ideal_wavefronts;
      s.bytes_requested += r.bytes_requested;
      note_shape(s, a, 0);
      const std::uint64_t excess = r.wavefronts - r.ideal_wavefronts;
      if (!s.sample || excess > s.sample_excess) {
        coalescer.coalesce(a, scratch);
        s.sample = make_sample(a, scratch, 0);
        s.sample->wavefronts = r.wavefronts;
        s.sample_excess = excess;
      }
      return;
    }
    coalescer.coalesce(a, scratch);
    const unsigned sm = profile.sm_count == 0 ? 0 : a.cta % profile.sm_count;
    const mem::Counters& c = hierarchy.counters();
    const std::uint64_t l1_before = l1_hits(c), l2_before = l2_hits(c);
    hierarchy.access(sm, a, scratch);
    s.l1_hit_sectors += l1_hits(c) - l1_before;
    s.l2_hit_sectors += l2_hits(c) - l2_before;
    const std::uint32_t unit = scratch.transaction_bytes;
    const std::uint64_t ideal = unit == 0 ? 0 : (scratch.bytes_requested + unit - 1) / unit;
    const std::uint64_t excess = scratch.transaction_count > ideal ? scratch.transaction_count - ideal : 0;
    s.requests += scratch.requests;
    s.sectors += scratch.transaction_count;
    s.ideal_sectors += std::min<std::uint64_t>(ideal, scratch.transaction_count);
    s.bytes_requested += scratch.bytes_requested;
    s.bytes_moved += scratch.bytes_moved;
    if (a.space == Space::kGlobal) {
      result.global_bytes_requested += scratch.bytes_requested;
      result.global_bytes_moved += scratch.bytes_moved;
    }
    note_shape(s, a, unit);
    if (!s.sample || excess > s.sample_excess) {
      const std::uint64_t base = a.space == Space::kLocal ? hierarchy.local_base(a.cta, a.warp) : 0;
      s.sample = make_sample(a, scratch, base);
      s.sample_excess = excess;
    }
  }
};

LaunchCollector::LaunchCollector(std::vector<const arch::Profile*> profiles) {
  if (profiles.empty()) fail(ErrorKind::kUsage, "LaunchCollector needs at least one profile");
  for (const arch::Profile* p : profiles) models_.push_back(std::make_unique<Model>(*p));
}

LaunchCollector::~LaunchCollector() = default;

void LaunchCollector::set_local_frame_bytes(std::uint64_t bytes) {
  if (bytes == 0) return;
  for (auto& m : models_) m->hierarchy.set_local_frame_bytes(bytes);
}

void LaunchCollector::set_local_in_registers(bool in_registers) { local_in_registers_ = in_registers; }

void LaunchCollector::on_access(const WarpAccess& access) {
  if (sample_every_ > 1 && access.cta % sample_every_ != 0) return;
  const std::uint64_t seq = records_++;
  for (auto& m : models_) {
    try {
      m->on_access(access, seq, local_in_registers_);
    } catch (const Error& e) {
      if (m->result.model_errors++ == 0) m->result.first_model_error = e.what();
    }
  }
}

std::vector<ModelResult> LaunchCollector::finish() {
  std::vector<ModelResult> out;
  for (auto& m : models_) {
    m->hierarchy.flush_l2();
    m->result.counters = m->hierarchy.counters();
    out.push_back(std::move(m->result));
  }
  return out;
}

}  // namespace warpscope::stats
