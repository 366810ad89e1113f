// The per-CTA work of LaunchCollector (collector.hpp), private to src/stats: the shard that the
// threads running CTAs use to turn one CTA's records into a Part (instruction rows, coalescing,
// shared-memory wavefronts, atomics, and the cache lines merge() serves in CTA order), and the
// types a Part is made of. Included by collector.cpp only.
#pragma once

#include "stats/collector.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <numeric>
#include <unordered_map>
#include <utility>

#include "common/error.hpp"
#include "mem/async_copy.hpp"
#include "mem/coalescer.hpp"
#include "mem/local_layout.hpp"
#include "mem/shared_banks.hpp"
#include "stats/cta_placement.hpp"
#include "stats/instruction_merge.hpp"

namespace warpscope::stats {
namespace collector_detail {

inline const char* unit_name(const arch::Profile& p, Space space, std::uint32_t unit_bytes) {
  if (space == Space::kShared) return "wavefront";
  if (p.coalescing == arch::Coalescing::kSectors) return "sector";
  if (p.coalescing == arch::Coalescing::kLines && unit_bytes == p.line_bytes) return "line";
  return "segment";
}

/// One access's cache lines, to be served in order by merge().
struct LineOp {
  std::uint32_t pc = 0, sm = 0;
  Space space = Space::kGlobal;
  Op op = Op::kLoad;
  bool cached_in_l1 = false;
  std::uint32_t requests = 0;
  std::uint32_t first = 0, count = 0;  // in ModelPart::lines
  std::uint64_t reader = 0;            // the warp's bit in its CTA, for global loads (foreign hits)
  std::uint32_t cta = 0;
};

/// What a shard made of one CTA's records for one model.
struct ModelPart {
  std::vector<std::pair<std::uint32_t, InstructionStats>> rows;  // the instructions it saw
  std::uint64_t instructions[kSpaceCount][kOpCount] = {};
  std::uint64_t global_bytes_requested = 0, global_bytes_moved = 0;
  std::uint64_t shared_wavefronts[3] = {}, shared_ideal[3] = {}, shared_conflicts[3] = {};
  std::uint64_t ldgsts_wavefronts = 0, ldgsts_ideal = 0, ldgsts_conflicts = 0;
  std::uint64_t matrix_instructions[2] = {}, matrix_wavefronts[2] = {}, matrix_conflicts[2] = {};
  std::uint64_t dsmem[3][5] = {};
  std::uint64_t dsmem_bulk[2][2] = {};
  std::uint64_t gmma_bytes = 0, gmma_wavefronts = 0, gmma_ideal = 0, gmma_conflicts = 0;
  std::uint64_t model_errors = 0;
  std::string first_model_error;
  std::vector<LineOp> ops;
  std::vector<mem::LineSectors> lines;
};

struct Part final : ShardedSink::CtaPart {
  std::vector<ModelPart> models;
  std::uint64_t records = 0;
  std::vector<AtomicNote> atomic_addresses, atomic_lines;  // AtomicCounter::note
  HostMappedBytes host_mapped;
  std::uint64_t const_lines = 0;  // distinct 64-byte lines of the CTA's .const loads
  std::vector<std::uint64_t> const_line_ids;  // those lines (sorted), for the launch's union
};

}  // namespace collector_detail

using collector_detail::LineOp;
using collector_detail::ModelPart;
using collector_detail::Part;

/// The ordered state of one profile's model: its caches and the launch's result.
struct LaunchCollector::Model {
  const arch::Profile& profile;
  mem::MemoryHierarchy hierarchy;
  ModelResult result;
  CtaPlacement placement;
  /// The cache operations of the resident CTAs of one wave, waiting to be served interleaved
  /// (LaunchCollector::merge): per CTA in arrival order, their lines in `lines`.
  struct Pending {
    std::uint64_t wave = ~std::uint64_t{0};
    std::vector<std::uint32_t> ctas;
    std::vector<std::vector<LineOp>> ops;  // by index in ctas
    std::vector<mem::LineSectors> lines;
    std::unordered_map<std::uint32_t, std::size_t> index;  // CTA -> its place in ctas
    std::size_t current = 0;                               // the place of the last op's CTA
    std::size_t bytes = 0;
  } pending;

  explicit Model(const arch::Profile& p) : profile(p), hierarchy(p, p.sm_count == 0 ? 1 : p.sm_count), placement(p, 1) {
    result.profile = &p;
  }
};

/// The work of the threads that run CTAs: everything but the caches.
class LaunchCollector::CollectorShard final : public ShardedSink::Shard {
 public:
  explicit CollectorShard(const LaunchCollector& owner) : owner_(owner) {
    for (const auto& m : owner.models_) models_.push_back(std::make_unique<PerModel>(*m));
  }

  void on_access(const WarpAccess& a) override {
    if (owner_.sample_every_ > 1 && a.cta % owner_.sample_every_ != 0) return;
    const std::uint64_t seq = records_++;
    const auto& fp = owner_.float_atomic_pcs_;
    const auto& ag = owner_.aggregated_atomic_pcs_;
    AtomicCounter::note(a, a.pc < fp.size() && fp[a.pc], atomic_addresses_, atomic_lines_, a.pc < ag.size() && ag[a.pc]);
    add_host_mapped(a, owner_.host_mapped_ranges_, host_mapped_);
    if (a.space == Space::kConst && a.op == Op::kLoad) {
      a.active.for_each([&](unsigned l) {
        const std::uint64_t line = a.addr[l] / kConstLineBytes;
        if (const_lines_.empty() || const_lines_.back() != line) const_lines_.push_back(line);
      });
    }
    for (auto& m : models_) {
      try {
        m->on_access(a, seq, owner_.local_in_registers_);
      } catch (const Error& e) {
        if (m->part.model_errors++ == 0) m->part.first_model_error = e.what();
      }
    }
  }

  std::unique_ptr<CtaPart> finish_cta() override { return take(true); }
  std::unique_ptr<CtaPart> take_partial() override { return take(false); }

  std::size_t buffered_bytes() const override {
    std::size_t b = (atomic_addresses_.size() + atomic_lines_.size()) * sizeof(AtomicNote) +
                    const_lines_.size() * sizeof(std::uint64_t);
    for (const auto& m : models_) b += m->part.ops.size() * sizeof(LineOp) + m->part.lines.size() * sizeof(mem::LineSectors);
    return b;
  }

 private:
  /// The part so far; `cta_end`: the CTA (or chunk) ended. A CTA's distinct .const lines are
  /// counted once over all of its parts.
  std::unique_ptr<CtaPart> take(bool cta_end) {
    auto part = std::make_unique<Part>();
    part->records = records_;
    records_ = 0;
    part->atomic_addresses = std::exchange(atomic_addresses_, {});
    part->atomic_lines = std::exchange(atomic_lines_, {});
    part->host_mapped = std::exchange(host_mapped_, {});
    std::sort(const_lines_.begin(), const_lines_.end());
    const_lines_.erase(std::unique(const_lines_.begin(), const_lines_.end()), const_lines_.end());
    part->const_lines = const_lines_.size() - const_reported_;
    if (part->const_lines > 0) part->const_line_ids = const_lines_;
    if (cta_end) {
      const_lines_.clear();
      const_reported_ = 0;
    } else {
      const_reported_ = const_lines_.size();
    }
    for (auto& m : models_) part->models.push_back(m->take());
    return part;
  }

  struct PerModel {
    const Model& model;
    const arch::Profile& profile;
    mem::Coalescer coalescer;
    mem::LocalLayout layout;
    mem::CoalesceResult scratch;
    mem::MemoryHierarchy::Lines lines;
    std::vector<InstructionStats> rows;  // by pc
    std::vector<std::uint32_t> touched;  // pcs with a row in this part
    std::vector<std::uint64_t> sent;     // by pc: 1 + the largest excess of a sample sent, 0 if none
    std::vector<bool> box_sent;          // by pc: a TmaBox was sent in an earlier part
    ModelPart part;

    /// lcm(profile.shared_bank_bytes, w) for the widths w < 17 (shared_totals).
    std::array<std::uint64_t, 17> bank_lcm{};

    explicit PerModel(const Model& m) : model(m), profile(m.profile), coalescer(m.profile), layout(m.profile.warp_size) {
      for (std::uint64_t w = 0; w < bank_lcm.size(); ++w)
        bank_lcm[w] = std::lcm(std::uint64_t{profile.shared_bank_bytes}, w);
    }

    /// Whether an access with this excess becomes the instruction's sample: it beats this CTA's
    /// so far and every sample this shard sent in an earlier part (a shard runs its CTAs in
    /// increasing order, so merge() would keep that earlier one: the most excess, first on ties).
    bool wants_sample(const InstructionStats& s, std::uint32_t pc, std::uint64_t excess) const {
      if (s.sample) return excess > s.sample_excess;
      return pc >= sent.size() || sent[pc] == 0 || excess > sent[pc] - 1;
    }

    ModelPart take() {
      for (std::uint32_t pc : touched) {
        if (rows[pc].box) {
          if (pc >= box_sent.size()) box_sent.resize(std::size_t(pc) + 1, false);
          box_sent[pc] = true;
          rows[pc].box_open = false;
        }
        if (!rows[pc].sample) continue;
        if (pc >= sent.size()) sent.resize(std::size_t(pc) + 1, 0);
        sent[pc] = std::max(sent[pc], rows[pc].sample_excess + 1);
      }
      ModelPart out = std::move(part);
      part = ModelPart{};
      // CTAs of a launch are alike: room for as much as the last one needed, so that the lists
      // do not grow (and copy themselves) record by record.
      part.ops.reserve(out.ops.size());
      part.lines.reserve(out.lines.size());
      out.rows.reserve(touched.size());
      for (std::uint32_t pc : touched) {
        out.rows.emplace_back(pc, std::move(rows[pc]));
        rows[pc] = InstructionStats{};
      }
      touched.clear();
      return out;
    }

    struct SharedTotals {
      std::uint32_t wavefronts = 0, ideal_wavefronts = 0;
      std::uint64_t bytes_requested = 0;
    };
    /// The bank rule's answer for the last shared access of each instruction. Moving every
    /// address of an access by a multiple of the bank width moves each bank word to the next
    /// banks alike (bank = word mod banks), so the number of distinct words per bank, hence the
    /// wavefronts, stay the same, and so do the ideal wavefronts and the bytes. So the same lanes
    /// and width at the same addresses relative to the lowest one, with the lowest congruent
    /// modulo lcm(bank bytes, width) (which also keeps the alignment the first one passed), get
    /// the same totals; a broadcast (one address for all lanes) gets them at any address. Affine
    /// accesses (and one lane) are compared by stride; other whole-warp accesses by their 32
    /// relative addresses.
    struct SharedMemo {
      enum Kind : std::uint8_t { kNone, kAffine, kWarp };
      Kind kind = kNone;
      std::uint8_t width = 0;
      std::uint32_t mask = 0;
      std::int64_t stride = 0;
      std::uint64_t offset = 0;  // lowest address modulo lcm(bank bytes, width)
      SharedTotals totals;
      PerLane<std::uint64_t> rel;  // kWarp: addr[l] - lowest
    };
    std::vector<SharedMemo> shared_memo;  // by pc

    /// OR over the 32 lanes of (addr[l] - lo) ^ rel[l]: 0 when the relative addresses match.
    static std::uint64_t relative_mismatch(const WarpAccess& a, std::uint64_t lo, const PerLane<std::uint64_t>& rel) {
      typedef std::uint64_t u64x2 __attribute__((vector_size(16)));
      const u64x2 base = {lo, lo};
      u64x2 diff = {0, 0};
      for (unsigned l = 0; l < kMaxWarpSize; l += 2) {
        u64x2 x, r;
        __builtin_memcpy(&x, a.addr.data() + l, sizeof x);
        __builtin_memcpy(&r, rel.data() + l, sizeof r);
        diff |= (x - base) ^ r;
      }
      return diff[0] | diff[1];
    }

    SharedTotals shared_totals(const WarpAccess& a, const AddressSummary& sh) {
      const std::uint64_t row = std::uint64_t{profile.shared_banks} * profile.shared_bank_bytes;
      const bool usable = row != 0 && sh.active != 0;
      const bool full = a.active.bits() == 0xffffffffu && kMaxWarpSize == 32;
      const SharedMemo::Kind kind = !usable                        ? SharedMemo::kNone
                                    : sh.affine || sh.active == 1 ? SharedMemo::kAffine
                                    : full                        ? SharedMemo::kWarp
                                                                  : SharedMemo::kNone;
      const std::int64_t stride = sh.affine ? sh.stride : 0;
      // One address for all lanes (a broadcast) costs one wavefront per phase wherever it lies.
      const bool broadcast = sh.affine && stride == 0 && a.width <= row;
      std::uint64_t offset = 0;
      if (kind != SharedMemo::kNone && !broadcast) {
        // lcm(bank bytes, width), a power of two for the widths and banks of every built-in
        // profile: a mask then, not a division per access.
        const std::uint64_t unit = a.width < bank_lcm.size() ? bank_lcm[a.width]
                                                             : std::lcm(std::uint64_t{profile.shared_bank_bytes}, std::uint64_t{a.width});
        offset = std::has_single_bit(unit) ? sh.lo & (unit - 1) : sh.lo % unit;
      }
      if (kind != SharedMemo::kNone) {
        if (a.pc >= shared_memo.size()) shared_memo.resize(std::size_t(a.pc) + 1);
        const SharedMemo& m = shared_memo[a.pc];
        if (m.kind == kind && m.mask == a.active.bits() && m.width == a.width && m.offset == offset &&
            (kind == SharedMemo::kAffine ? m.stride == stride : relative_mismatch(a, sh.lo, m.rel) == 0))
          return m.totals;
      }
      const mem::SharedBankResult r = mem::shared_access(profile, a, sh);
      const SharedTotals t{r.wavefronts, r.ideal_wavefronts, r.bytes_requested};
      if (kind != SharedMemo::kNone) {
        SharedMemo& m = shared_memo[a.pc];
        m.kind = kind;
        m.width = a.width;
        m.mask = a.active.bits();
        m.stride = stride;
        m.offset = offset;
        m.totals = t;
        if (kind == SharedMemo::kWarp)
          for (unsigned l = 0; l < kMaxWarpSize; ++l) m.rel[l] = a.addr[l] - sh.lo;
      }
      return t;
    }

    InstructionStats& row(const WarpAccess& a) {
      if (a.pc >= rows.size()) rows.resize(std::size_t(a.pc) + 1);
      InstructionStats& s = rows[a.pc];
      if (!s.seen) {
        s.seen = true;
        s.space = a.space;
        s.op = a.op;
        s.cache = a.cache;
        s.width = a.width;
        s.matrix = a.matrix;
        touched.push_back(a.pc);
      }
      return s;
    }

    /// The shape of the access's addresses, for the advice rules.
    void note_shape(InstructionStats& s, const WarpAccess& a, const AddressSummary& sh, std::uint32_t unit) {
      if (sh.active < profile.warp_size) ++s.partial_executions;
      if (!sh.affine) return;
      if (sh.stride == 0) {
        ++s.uniform_executions;
        return;
      }
      if (s.strided_executions++ == 0) {
        s.stride = sh.stride;
      } else if (s.stride != sh.stride) {
        s.stride_varies = true;
      }
      if (a.space != Space::kGlobal || unit == 0 || sh.stride != a.width) return;
      const std::uint64_t off = std::has_single_bit(unit) ? sh.run_base & (unit - 1) : sh.run_base % unit;
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
      smp.unit = collector_detail::unit_name(profile, a.space, r.transaction_bytes);
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

    /// Sectors already counted for each request (lane group) of the current texture
    /// instruction, by its earlier parts; the groups that have been counted as a request.
    std::array<std::vector<mem::LineSectors>, kMaxWarpSize> tex_seen;
    std::uint32_t tex_requested = 0;

    /// A texture or surface record: served as global accesses of the same addresses through the
    /// TEX pipe's counters, one request per group of mem::texture_request_lanes() lanes with an
    /// active lane (in any part of the fetch). A request's sectors are the distinct sectors of
    /// all its lanes' texels (all parts); each request looks its own sectors up, so a sector two
    /// requests share is counted twice and the second lookup can hit in L1 (as the H100 counts).
    void texture_access(const WarpAccess& a, InstructionStats& s, std::uint64_t seq) {
      if (a.part == 0) {
        if (s.executions == 0) s.first_seen = seq;
        part.instructions[static_cast<unsigned>(a.space)][static_cast<unsigned>(a.op)] += 1;
        s.executions += 1;
        s.active_lanes += static_cast<std::uint64_t>(std::popcount(a.active.bits()));
        for (auto& seen : tex_seen) seen.clear();
        tex_requested = 0;
      }
      if (a.part == 0 && !s.sample) {
        WarpAccess g = a;
        g.space = Space::kGlobal;
        g.summarized = false;
        coalescer.coalesce(g, scratch);
        s.sample = std::make_shared<Sample>(make_sample(g, scratch, 0));
        s.sample_excess = 0;
      }
      const unsigned n = mem::texture_request_lanes(a);
      const std::uint32_t group_lanes = n >= kMaxWarpSize ? ~std::uint32_t{0} : (std::uint32_t{1} << n) - 1;
      const bool cached = a.op == Op::kLoad && profile.l1.bytes != 0;
      const unsigned sm = model.placement.sm(a.cta);
      for (unsigned q = 0; q * n < kMaxWarpSize; ++q) {
        const std::uint32_t lanes = a.active.bits() & (group_lanes << (q * n));
        if (lanes == 0) continue;
        // The request's sectors, straight from its lanes' texels (aligned, at most 16 bytes: a
        // texel never leaves its sector; a wider or unaligned range is taken sector by sector).
        const auto first = static_cast<std::uint32_t>(part.lines.size());
        std::uint32_t count = 0;
        std::uint64_t sectors = 0, distinct = 0;
        std::vector<mem::LineSectors>& seen_lines = tex_seen[q];
        const std::uint32_t line_bytes = model.hierarchy.l2().geometry().line_bytes;
        for (std::uint32_t rest = lanes; rest != 0; rest &= rest - 1) {
          const unsigned l = static_cast<unsigned>(std::countr_zero(rest));
          const std::uint64_t addr = a.addr[l];
          bool repeat = false;
          for (std::uint32_t before = lanes & ((1u << l) - 1); before != 0 && !repeat; before &= before - 1)
            repeat = a.addr[static_cast<unsigned>(std::countr_zero(before))] == addr;
          if (repeat) continue;
          distinct += a.width;
          for (std::uint64_t at = addr, end = addr + a.width; at < end;) {
            const std::uint64_t line_end = (at / line_bytes + 1) * line_bytes;
            const auto len = static_cast<std::uint32_t>(std::min(end, line_end) - at);
            const mem::LineSectors ls = model.hierarchy.l2().span(at, len);
            at += len;
            std::uint32_t fresh = ls.mask;
            bool known = false;
            for (mem::LineSectors& seen : seen_lines) {
              if (seen.line != ls.line) continue;
              fresh &= ~seen.mask;
              seen.mask |= ls.mask;
              known = true;
              break;
            }
            if (!known) seen_lines.push_back(ls);
            if (fresh == 0) continue;
            sectors += static_cast<std::uint64_t>(std::popcount(fresh));
            bool merged = false;
            for (std::uint32_t k = first; k < part.lines.size() && !merged; ++k) {
              if (part.lines[k].line != ls.line) continue;
              part.lines[k].mask |= fresh;
              merged = true;
            }
            if (!merged) {
              part.lines.push_back(mem::LineSectors{ls.line, fresh});
              ++count;
            }
          }
        }
        const std::uint32_t requests = (tex_requested >> q) & 1u ? 0 : 1;
        tex_requested |= 1u << q;
        part.ops.push_back(LineOp{a.pc, sm, a.space, a.op, cached, requests, first, count});
        s.requests += requests;
        s.sectors += sectors;
        s.ideal_sectors += sectors;  // a footprint has no coalescing ideal: no excess is claimed
        s.bytes_requested += distinct;
        s.bytes_moved += sectors * profile.sector_bytes;
      }
    }

    /// An access to another CTA's shared memory (distributed shared memory): one request per
    /// warp instruction; its sectors are the distinct 32-byte sectors the lanes touch; the
    /// T-stage output wavefronts are the distinct 128-byte lines in groups of four; the crossbar
    /// carries 32 bytes per sector each way, twice that for atomics (operands and results).
    /// Fitted to the H100 (tests/hw/data/h100/cluster): 4-byte loads and stores by a warp,
    /// consecutive (1 request, 4 sectors, 1 wavefront, 128 bytes) and 128 bytes apart (32
    /// sectors, 8 wavefronts, 1024 bytes), 16-byte loads (16 sectors, 1 wavefront, 512 bytes),
    /// atomics and reductions (4 sectors, 256 bytes; one word: 1 sector, 64 bytes).
    void dsmem_access(const WarpAccess& a) {
      if (a.op == Op::kBulkCopy || a.op == Op::kBulkRed) {  // ops_dsmem_bulk.cpp: 16-byte pieces
        std::uint64_t* b = part.dsmem_bulk[a.op == Op::kBulkRed ? 1 : 0];
        if (a.part == 0) {
          b[0] += 1;
          part.instructions[static_cast<unsigned>(a.space)][static_cast<unsigned>(a.op)] += 1;
        }
        std::uint64_t last = ~std::uint64_t{0};
        for (unsigned l = 0; l < kMaxWarpSize; ++l) {  // ascending offsets: count each sector once
          if (!a.active.test(l) || a.addr[l] / 32 == last) continue;
          last = a.addr[l] / 32;
          b[1] += 1;
        }
        return;
      }
      const unsigned k = a.op == Op::kLoad ? 0 : a.op == Op::kStore ? 1 : 2;
      std::uint64_t sectors[kMaxWarpSize * 2];
      std::uint64_t line_ids[kMaxWarpSize * 2];
      unsigned ns = 0, nl = 0;
      auto add = [](std::uint64_t* v, unsigned& n, std::uint64_t x) {
        for (unsigned i = 0; i < n; ++i)
          if (v[i] == x) return;
        v[n++] = x;
      };
      const unsigned w = a.width == 0 ? 1 : a.width;
      for (unsigned l = 0; l < kMaxWarpSize; ++l) {
        if (!a.active.test(l)) continue;
        const std::uint64_t lo = a.addr[l], hi = a.addr[l] + w - 1;
        add(sectors, ns, lo / 32);
        if (hi / 32 != lo / 32) add(sectors, ns, hi / 32);
        add(line_ids, nl, lo / 128);
        if (hi / 128 != lo / 128) add(line_ids, nl, hi / 128);
      }
      std::uint64_t* d = part.dsmem[k];
      d[0] += 1;
      d[1] += 1;
      d[2] += ns;
      d[3] += (nl + 3) / 4;
      d[4] += std::uint64_t{ns} * 32 * (k == 2 ? 2 : 1);
      part.instructions[static_cast<unsigned>(a.space)][static_cast<unsigned>(a.op)] += 1;
    }

    void on_access(const WarpAccess& a, std::uint64_t seq, bool local_in_registers) {
      if (a.space == Space::kDsmem) {
        dsmem_access(a);
        return;
      }
      if (a.space == Space::kConst) {
        part.instructions[static_cast<unsigned>(a.space)][static_cast<unsigned>(a.op)] += 1;
        return;
      }
      InstructionStats& s = row(a);
      if (a.space == Space::kTexture || a.space == Space::kSurface) {
        texture_access(a, s, seq);
        return;
      }
      if (a.op == Op::kLdgsts) {
        ldgsts_access(a, s, seq);
        return;
      }
      if (a.op == Op::kBulkCopy || a.op == Op::kBulkStore || a.op == Op::kBulkRed) {
        bulk_access(a, s, seq);
        return;
      }
      if (a.op == Op::kGmma) {
        gmma_access(a, s, seq);
        return;
      }
      if (s.executions == 0 && s.in_registers == 0) s.first_seen = seq;
      if (a.space == Space::kLocal) {
        note_local_offsets(s, a);
        if (local_in_registers) {
          s.in_registers += 1;
          return;
        }
      }
      // A matrix record (one 8x8 matrix of an LDSM/STSM) is an instruction with its first part.
      if (!a.matrix) part.instructions[static_cast<unsigned>(a.space)][static_cast<unsigned>(a.op)] += 1;
      if (a.matrix && a.part == 0) part.matrix_instructions[a.op == Op::kLoad ? 0 : 1] += 1;
      if (!a.matrix || a.part == 0) s.executions += 1;
      s.active_lanes += static_cast<std::uint64_t>(std::popcount(a.active.bits()));
      const AddressSummary sh = summary_of(a);
      if (a.space == Space::kShared) {
        const SharedTotals r = shared_totals(a, sh);
        const unsigned k = a.op == Op::kLoad ? 0 : a.op == Op::kStore ? 1 : 2;
        if (a.matrix) {
          part.matrix_wavefronts[k] += r.wavefronts;
          part.matrix_conflicts[k] += r.wavefronts - r.ideal_wavefronts;
        }
        part.shared_wavefronts[k] += r.wavefronts;
        part.shared_ideal[k] += r.ideal_wavefronts;
        part.shared_conflicts[k] += r.wavefronts - r.ideal_wavefronts;
        s.wavefronts += r.wavefronts;
        s.ideal_wavefronts += r.ideal_wavefronts;
        s.bytes_requested += r.bytes_requested;
        note_shape(s, a, sh, 0);
        const std::uint64_t excess = r.wavefronts - r.ideal_wavefronts;
        if (wants_sample(s, a.pc, excess)) {
          coalescer.coalesce(a, scratch);
          s.sample = std::make_shared<Sample>(make_sample(a, scratch, 0));
          s.sample->wavefronts = r.wavefronts;
          s.sample_excess = excess;
        }
        return;
      }
      served(a, s, sh);
    }

    /// A global or local access through the coalescer and (in merge()) the caches.
    void served(const WarpAccess& a, InstructionStats& s, const AddressSummary& sh) {
      coalescer.coalesce(a, scratch);
      // The lines go to merge(), which serves them through the caches in CTA order.
      model.hierarchy.lines(a, scratch, lines);
      const unsigned sm = model.placement.sm(a.cta);
      // The warp's bit among its CTA's warps (at most 64), for foreign hits.
      const std::uint64_t reader =
          a.space == Space::kGlobal && (a.op == Op::kLoad || a.op == Op::kLdgsts) ? std::uint64_t{1} << (a.warp % 64) : 0;
      part.ops.push_back(LineOp{a.pc, sm, lines.space, lines.op, lines.cached_in_l1, lines.requests,
                                static_cast<std::uint32_t>(part.lines.size()), lines.count, reader, a.cta});
      for (std::uint32_t k = 0; k < lines.count; ++k) part.lines.push_back(lines.line[k]);
      // Loads, stores, atomics, reductions and cp.async's global side alike: the H200 gives each
      // the lines of its request (tests/hw/data/h200/ncurep_source, tag_requests_more).
      if (a.space == Space::kGlobal) s.l1_tag_requests += distinct_lines(lines);
      if (a.space == Space::kGlobal && (a.op == Op::kAtomic || a.op == Op::kReduction))
        s.theoretical_sectors += distinct_sectors(lines);
      const std::uint32_t unit = scratch.transaction_bytes;
      // Units are powers of two in every built-in profile: a shift, not a division, when so.
      const std::uint64_t ideal = unit == 0                   ? 0
                                  : std::has_single_bit(unit) ? (scratch.bytes_requested + unit - 1) >> std::countr_zero(unit)
                                                              : (scratch.bytes_requested + unit - 1) / unit;
      const std::uint64_t excess = scratch.transaction_count > ideal ? scratch.transaction_count - ideal : 0;
      s.requests += scratch.requests;
      s.sectors += scratch.transaction_count;
      s.ideal_sectors += std::min<std::uint64_t>(ideal, scratch.transaction_count);
      s.bytes_requested += scratch.bytes_requested;
      s.bytes_moved += scratch.bytes_moved;
      if (a.space == Space::kGlobal) {
        part.global_bytes_requested += scratch.bytes_requested;
        part.global_bytes_moved += scratch.bytes_moved;
      }
      note_shape(s, a, sh, unit);
      if (wants_sample(s, a.pc, excess)) {
        const std::uint64_t base = a.space == Space::kLocal ? model.hierarchy.local_base(a.cta, a.warp) : 0;
        s.sample = std::make_shared<Sample>(make_sample(a, scratch, base));
        s.sample_excess = excess;
      }
    }

    /// The distinct lines among an access's line entries (entries are merged only when
    /// consecutive, so lanes alternating between two lines give more entries than lines).
    static std::uint32_t distinct_lines(const mem::MemoryHierarchy::Lines& l) {
      std::uint32_t n = 0;
      for (std::uint32_t k = 0; k < l.count; ++k) {
        bool seen = false;
        for (std::uint32_t j = 0; j < k && !seen; ++j) seen = l.line[j].line == l.line[k].line;
        n += seen ? 0 : 1;
      }
      return n;
    }

    /// The distinct sectors among an access's line entries (an atomic's passes repeat them).
    static std::uint32_t distinct_sectors(const mem::MemoryHierarchy::Lines& l) {
      std::uint32_t n = 0;
      for (std::uint32_t k = 0; k < l.count; ++k) {
        bool seen = false;
        for (std::uint32_t j = 0; j < k && !seen; ++j) seen = l.line[j].line == l.line[k].line;
        if (seen) continue;
        std::uint32_t mask = 0;
        for (std::uint32_t j = k; j < l.count; ++j)
          if (l.line[j].line == l.line[k].line) mask |= l.line[j].mask;
        n += static_cast<std::uint32_t>(std::popcount(mask));
      }
      return n;
    }

    /// Whether the copy's active lanes form runs of 16 / width consecutive lanes, each run copying
    /// consecutive words from a 16-byte aligned source to consecutive destinations.
    static bool widenable(const WarpAccess& g, const WarpAccess& sh) {
      const unsigned k = 16u / sh.width;
      const std::uint32_t active = sh.active.bits();
      for (unsigned first = 0; first < kMaxWarpSize; first += k) {
        const std::uint32_t run = ((1u << k) - 1u) << first;
        if ((active & run) == 0) continue;
        if ((active & run) != run || (g.addr[first] & 15u) != 0) return false;
        for (unsigned j = 1; j < k; ++j) {
          if (g.addr[first + j] != g.addr[first] + j * sh.width || sh.addr[first + j] != sh.addr[first] + j * sh.width)
            return false;
        }
      }
      return active != 0;
    }

    /// A tensor copy's record into the instruction's TmaBox: a new execution (part 0) opens the
    /// box when the instruction has none in this part and this shard sent none before (merge()
    /// keeps the lowest CTA's, which a later CTA of this shard cannot be).
    void note_box(const WarpAccess& a, InstructionStats& s) {
      if (a.part == 0) {
        s.box_open = !s.box && !(a.pc < box_sent.size() && box_sent[a.pc]);
        if (s.box_open) {
          s.box = std::make_shared<TmaBox>();
          s.box->cta = a.cta;
          s.box->warp = a.warp;
          s.box->swizzle_bytes = a.no_read_lanes;  // the swizzle span (access.hpp)
        }
      }
      if (!s.box_open) return;
      if (s.box->rows.size() >= TmaBox::kMaxRows) {
        s.box->truncated = true;
        return;
      }
      s.box->rows.push_back(TmaBox::Row{a.addr[0], static_cast<std::uint32_t>(std::popcount(a.active.bits())) * 16u, a.fill_lanes});
    }

    /// cp.async.bulk's global reads (Op::kBulkCopy): L2 reads of the sectors, no LSU request, no
    /// L1 (hierarchy.hpp); counted on the instruction's row as sectors (requests 0) and nothing
    /// else, so no coalescing advice applies to them.
    void bulk_access(const WarpAccess& a, InstructionStats& s, std::uint64_t seq) {
      if (s.executions == 0) s.first_seen = seq;
      if (a.part == 0) {
        s.executions += 1;
        part.instructions[static_cast<unsigned>(Space::kGlobal)][static_cast<unsigned>(a.op)] += 1;
      }
      s.tensor = a.tensor;
      if (a.tensor) note_box(a, s);
      coalescer.coalesce(a, scratch);
      model.hierarchy.lines(a, scratch, lines);
      const unsigned sm = model.placement.sm(a.cta);
      part.ops.push_back(LineOp{a.pc, sm, Space::kGlobal, a.op, false, 0,
                                static_cast<std::uint32_t>(part.lines.size()), lines.count});
      for (std::uint32_t k = 0; k < lines.count; ++k) part.lines.push_back(lines.line[k]);
      s.sectors += scratch.transaction_count;
      s.ideal_sectors += scratch.transaction_count;
      if (a.destinations > 1) s.multicast_sectors += std::uint64_t{scratch.transaction_count} * (a.destinations - 1u);
      s.bytes_requested += scratch.bytes_moved;
      s.bytes_moved += scratch.bytes_moved;
    }

    /// wgmma's operand reads (Op::kGmma): one core matrix per record; the warp's instruction with
    /// its part 0 (which may have no lane: a warp that reads no block).
    void gmma_access(const WarpAccess& a, InstructionStats& s, std::uint64_t seq) {
      if (a.part == 0) {
        if (s.executions == 0) s.first_seen = seq;
        s.executions += 1;
        part.instructions[static_cast<unsigned>(Space::kShared)][static_cast<unsigned>(Op::kGmma)] += 1;
      }
      const AddressSummary sh = summary_of(a);
      if (sh.active == 0) return;
      s.active_lanes += sh.active;
      const SharedTotals r = shared_totals(a, sh);
      const std::uint64_t bytes = std::uint64_t{sh.active} * a.width;
      part.gmma_bytes += bytes;
      part.gmma_wavefronts += r.wavefronts;
      part.gmma_ideal += r.ideal_wavefronts;
      part.gmma_conflicts += r.wavefronts - r.ideal_wavefronts;
      s.wavefronts += r.wavefronts;
      s.ideal_wavefronts += r.ideal_wavefronts;
      s.bytes_requested += bytes;
    }

    /// The last global record of a cp.async: its shared record (part 1) follows it.
    WarpAccess ldgsts_global;

    /// cp.async (Op::kLdgsts): the global side as a load of the lanes that read, then the shared
    /// side's wavefronts (mem/async_copy.hpp), both counted on the instruction's row.
    void ldgsts_access(const WarpAccess& a, InstructionStats& s, std::uint64_t seq) {
      if (a.space != Space::kShared) {
        if (s.executions == 0) s.first_seen = seq;
        part.instructions[static_cast<unsigned>(Space::kGlobal)][static_cast<unsigned>(Op::kLdgsts)] += 1;
        s.executions += 1;
        s.active_lanes += static_cast<std::uint64_t>(std::popcount(a.active.bits()));
        ldgsts_global = a;
        const std::uint32_t reads = a.active.bits() & ~a.no_read_lanes;
        if (reads == 0) return;  // nothing is read: no request (the H100's zero-fill of a warp)
        WarpAccess g = a;
        g.active = LaneMask(reads);
        g.summarized = false;
        for (unsigned l = 0; l < kMaxWarpSize; ++l)
          if (!((reads >> l) & 1u)) g.addr[l] = 0;
        served(g, s, summarize_addresses(g));
        return;
      }
      const bool paired = ldgsts_global.pc == a.pc && ldgsts_global.cta == a.cta && ldgsts_global.warp == a.warp &&
                          ldgsts_global.active == a.active;
      const mem::AsyncCopyShared r = mem::async_copy_shared(profile, paired ? ldgsts_global : a, a);
      if (paired && a.width < 16 && widenable(ldgsts_global, a)) ++s.widenable_executions;
      part.ldgsts_wavefronts += r.wavefronts;
      part.ldgsts_ideal += r.ideal_wavefronts;
      part.ldgsts_conflicts += r.bank_conflicts;
      s.wavefronts += r.wavefronts;
      s.ideal_wavefronts += r.ideal_wavefronts;
    }
  };

  const LaunchCollector& owner_;
  std::vector<std::unique_ptr<PerModel>> models_;
  std::uint64_t records_ = 0;
  std::vector<AtomicNote> atomic_addresses_, atomic_lines_;  // this CTA's global atomics
  HostMappedBytes host_mapped_;
  std::vector<std::uint64_t> const_lines_;  // this CTA's .const loads' 64-byte lines (runs collapsed)
  std::size_t const_reported_ = 0;          // of them, counted in an earlier part of the CTA
};

}  // namespace warpscope::stats
