#include "stats/collector.hpp"

#include <algorithm>
#include <iterator>
#include <cstdlib>
#include <string_view>

#include "stats/collector_shard.hpp"

namespace warpscope::stats {

struct LaunchCollector::OpRef {
  const LineOp* op = nullptr;
  const mem::LineSectors* lines = nullptr;
};

namespace {

std::uint64_t l2_hits(const mem::Counters& c) {
  return c.l2_read_hits + c.l2_write_hits + c.l2_atom_hits + c.l2_red_hits;
}

}  // namespace

LaunchCollector::LaunchCollector(std::vector<const arch::Profile*> profiles) {
  if (profiles.empty()) fail(ErrorKind::kUsage, "LaunchCollector needs at least one profile");
  for (const arch::Profile* p : profiles) models_.push_back(std::make_unique<Model>(*p));
  const char* order = std::getenv("WARPSCOPE_CTA_ORDER");
  if (order != nullptr && std::string_view(order) == "sequential") order_ = CtaOrder::kSequential;
  // The model before 2026-11-29, for comparisons: CTA after CTA, CTA c on SM c mod sm_count.
  if (order != nullptr && std::string_view(order) == "round-robin") {
    order_ = CtaOrder::kSequential;
    round_robin_ = true;
  }
}

void LaunchCollector::set_blocks_per_sm(const std::vector<std::uint32_t>& per_model) {
  if (round_robin_) return;
  for (std::size_t i = 0; i < models_.size() && i < per_model.size(); ++i)
    models_[i]->placement = CtaPlacement(models_[i]->profile, per_model[i]);
}

void LaunchCollector::set_launch_ctas(std::uint64_t ctas) {
  if (ctas <= 1) order_ = CtaOrder::kSequential;
}

LaunchCollector::~LaunchCollector() = default;

void LaunchCollector::set_local_frame_bytes(std::uint64_t bytes) {
  if (bytes == 0) return;
  for (auto& m : models_) m->hierarchy.set_local_frame_bytes(bytes);
}

void LaunchCollector::set_local_in_registers(bool in_registers) { local_in_registers_ = in_registers; }

std::unique_ptr<ShardedSink::Shard> LaunchCollector::make_shard() { return std::make_unique<CollectorShard>(*this); }

void LaunchCollector::on_access(const WarpAccess& access) {
  if (!direct_) direct_ = make_shard();
  if (access.cta != direct_cta_) {
    merge(direct_cta_, direct_->finish_cta());
    direct_cta_ = access.cta;
  }
  direct_->on_access(access);
}

void LaunchCollector::merge(std::uint32_t cta, std::unique_ptr<CtaPart> part_base) {
  auto& part = static_cast<Part&>(*part_base);
  atomics_.add(part.atomic_addresses, part.atomic_lines);
  host_mapped_.read += part.host_mapped.read;
  host_mapped_.written += part.host_mapped.written;
  const_lines_ += part.const_lines;
  if (!part.const_line_ids.empty()) {
    std::vector<std::uint64_t> both;
    both.reserve(launch_const_lines_.size() + part.const_line_ids.size());
    std::set_union(launch_const_lines_.begin(), launch_const_lines_.end(), part.const_line_ids.begin(),
                   part.const_line_ids.end(), std::back_inserter(both));
    launch_const_lines_ = std::move(both);
  }
  for (std::size_t i = 0; i < models_.size(); ++i) {
    Model& m = *models_[i];
    ModelPart& p = part.models[i];
    ModelResult& r = m.result;
    for (auto& [pc, row] : p.rows) {
      if (pc >= r.per_pc.size()) r.per_pc.resize(std::size_t(pc) + 1);
      merge_row(r.per_pc[pc], std::move(row), records_);
    }
    const std::size_t sm_count = std::max<std::size_t>(1, m.profile.sm_count);
    if (r.per_sm.size() != sm_count) r.per_sm.resize(sm_count);
    if (order_ == CtaOrder::kSequential) {
      // The caches, in the order of the part's records.
      refs_.clear();
      for (const LineOp& op : p.ops) refs_.push_back(OpRef{&op, p.lines.data() + op.first});
      serve(m, refs_.data(), refs_.size());
    } else {
      // The wave's resident CTAs wait for each other (flush_pending serves them interleaved).
      Model::Pending& w = m.pending;
      for (const LineOp& op : p.ops) {
        const std::uint64_t wave = m.placement.wave(op.cta);
        if (wave != w.wave) {
          flush_pending(m);
          w.wave = wave;
        }
        // Records of one CTA come in runs: look the CTA up only when it changes.
        if (w.ctas.empty() || w.ctas[w.current] != op.cta) {
          auto [at, added] = w.index.try_emplace(op.cta, w.ctas.size());
          if (added) {
            w.ctas.push_back(op.cta);
            if (w.ops.size() < w.ctas.size()) w.ops.emplace_back();
          }
          w.current = at->second;
        }
        LineOp moved = op;
        moved.first = static_cast<std::uint32_t>(w.lines.size());
        w.ops[w.current].push_back(moved);
        w.lines.insert(w.lines.end(), p.lines.begin() + op.first, p.lines.begin() + op.first + op.count);
        w.bytes += sizeof(LineOp) + std::size_t{op.count} * sizeof(mem::LineSectors);
        if (w.bytes >= kPendingBytes) {  // memory stays bounded: serve what the wave has so far
          flush_pending(m);
          w.wave = wave;
        }
      }
    }
    for (unsigned s = 0; s < kSpaceCount; ++s)
      for (unsigned o = 0; o < kOpCount; ++o) r.instructions[s][o] += p.instructions[s][o];
    r.ldgsts_wavefronts += p.ldgsts_wavefronts;
    r.ldgsts_ideal += p.ldgsts_ideal;
    r.ldgsts_conflicts += p.ldgsts_conflicts;
    r.gmma_bytes += p.gmma_bytes;
    r.gmma_wavefronts += p.gmma_wavefronts;
    r.gmma_ideal += p.gmma_ideal;
    r.gmma_conflicts += p.gmma_conflicts;
    r.global_bytes_requested += p.global_bytes_requested;
    r.global_bytes_moved += p.global_bytes_moved;
    for (unsigned k = 0; k < 3; ++k) r.per_sm[m.placement.sm(cta)].shared_wavefronts[k] += p.shared_wavefronts[k];
    for (unsigned k = 0; k < 3; ++k) {
      r.shared_wavefronts[k] += p.shared_wavefronts[k];
      r.shared_ideal[k] += p.shared_ideal[k];
      r.shared_conflicts[k] += p.shared_conflicts[k];
    }
    for (unsigned k = 0; k < 3; ++k)
      for (unsigned f = 0; f < 5; ++f) r.dsmem[k][f] += p.dsmem[k][f];
    for (unsigned k = 0; k < 2; ++k)
      for (unsigned f = 0; f < 2; ++f) r.dsmem_bulk[k][f] += p.dsmem_bulk[k][f];
    for (unsigned k = 0; k < 2; ++k) {
      r.matrix_instructions[k] += p.matrix_instructions[k];
      r.matrix_wavefronts[k] += p.matrix_wavefronts[k];
      r.matrix_conflicts[k] += p.matrix_conflicts[k];
    }
    if (p.model_errors != 0 && r.model_errors == 0) r.first_model_error = p.first_model_error;
    r.model_errors += p.model_errors;
  }
  records_ += part.records;
}

void LaunchCollector::serve(Model& m, const OpRef* refs, std::size_t count) {
  ModelResult& r = m.result;
  const mem::Counters& c = m.hierarchy.counters();
  const std::size_t sm_count = std::max<std::size_t>(1, m.profile.sm_count);
  if (r.per_sm.size() != sm_count) r.per_sm.resize(sm_count);
  // The caches' sets are megabytes the accesses walk through: ask for the sets of an op a few
  // ahead while serving this one.
  constexpr std::size_t kAhead = 6;
  auto prefetch = [&](std::size_t k) {
    if (k < count) m.hierarchy.prefetch(refs[k].op->sm, refs[k].lines, refs[k].op->count);
  };
  for (std::size_t k = 0; k < kAhead; ++k) prefetch(k);
  for (std::size_t k = 0; k < count; ++k) {
    const LineOp& op = *refs[k].op;
    prefetch(k + kAhead);
    // apply() counts an op's L1 traffic and hits only in the L1 counters of its own space and op
    // (hierarchy.cpp), so their difference is the op's L1 hits: no sum over every counter.
    const mem::L1Counters& after = c.at(op.space, op.op);
    const std::uint64_t l2_before = l2_hits(c), foreign_before = c.l1_foreign_hits;
    const mem::L1Counters op_before = after;
    try {
      m.hierarchy.apply(op.sm, op.space, op.op, op.cached_in_l1, op.requests, refs[k].lines, op.count,
                        mem::CacheReader{op.reader, op.pc, op.cta});
    } catch (const Error& e) {
      if (r.model_errors++ == 0) r.first_model_error = e.what();
    }
    {
      // The op's L1 traffic, on the SM that served it.
      mem::L1Counters& on_sm = r.per_sm[op.sm % sm_count].l1[mem::Counters::l1_index(op.space)][static_cast<unsigned>(op.op)];
      on_sm.requests += after.requests - op_before.requests;
      on_sm.sectors += after.sectors - op_before.sectors;
      on_sm.sector_hits += after.sector_hits - op_before.sector_hits;
    }
    InstructionStats& row = r.per_pc[op.pc];
    row.l1_hit_sectors += after.sector_hits - op_before.sector_hits;
    row.l2_hit_sectors += l2_hits(c) - l2_before;
    row.l1_foreign_hit_sectors += c.l1_foreign_hits - foreign_before;
  }
}

void LaunchCollector::flush_pending(Model& m) {
  Model::Pending& w = m.pending;
  if (w.ctas.empty()) return;
  // The k-th operations of the wave's CTAs (in CTA order), then the (k+1)-th.
  std::size_t longest = 0, total = 0;
  for (std::size_t i = 0; i < w.ctas.size(); ++i) {
    longest = std::max(longest, w.ops[i].size());
    total += w.ops[i].size();
  }
  refs_.clear();
  refs_.reserve(total);
  for (std::size_t k = 0; k < longest; ++k)
    for (std::size_t i = 0; i < w.ctas.size(); ++i)
      if (k < w.ops[i].size()) refs_.push_back(OpRef{&w.ops[i][k], w.lines.data() + w.ops[i][k].first});
  serve(m, refs_.data(), refs_.size());
  for (std::size_t i = 0; i < w.ctas.size(); ++i) w.ops[i].clear();
  w.ctas.clear();
  w.index.clear();
  w.current = 0;
  w.lines.clear();
  w.bytes = 0;
  w.wave = ~std::uint64_t{0};
}

std::vector<ModelResult> LaunchCollector::finish() {
  if (direct_) {
    merge(direct_cta_, direct_->finish_cta());
    direct_.reset();
  }
  std::vector<ModelResult> out;
  for (auto& m : models_) {
    flush_pending(*m);
    m->hierarchy.flush_l2();
    m->result.counters = m->hierarchy.counters();
    m->result.atomics = atomics_.result();
    m->result.host_mapped = host_mapped_;
    m->result.const_lines = const_lines_;
    m->result.launch_const_lines = launch_const_lines_.size();
    out.push_back(std::move(m->result));
  }
  return out;
}

}  // namespace warpscope::stats
