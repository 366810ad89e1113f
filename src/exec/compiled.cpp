// What the machine code does differently from the PTX, applied to the records the interpreter
// makes: compiled accesses (Module::set_compiled_accesses: local loads and stores the machine code
// makes where the PTX has none, recorded each time a warp runs their anchor) and record widths
// (Module::set_record_widths: loads the machine code merged into a wider one). A hooked
// instruction's semantic function is swapped for run_hooked, so other instructions cost nothing.
#include <algorithm>
#include <array>

#include "common/error.hpp"
#include "exec/program.hpp"
#include "exec/segments.hpp"

namespace warpscope::exec {
namespace {

/// Forwards records with another width (addresses unchanged: the merged load's first word).
class WidthSink final : public AccessSink {
 public:
  WidthSink(AccessSink* next, std::uint8_t width) : next_(next), width_(width) {}
  void on_access(const WarpAccess& a) override {
    WarpAccess copy = a;
    copy.width = width_;
    next_->on_access(copy);
  }

 private:
  AccessSink* next_;
  std::uint8_t width_;
};

/// Keeps copies of the records in a warp's held list.
class HoldSink final : public AccessSink {
 public:
  explicit HoldSink(std::vector<WarpAccess>* list) : list_(list) {}
  void on_access(const WarpAccess& a) override { list_->push_back(a); }

 private:
  std::vector<WarpAccess>* list_;
};

void run_hooked(const Inst& in, Ctx& x, std::uint32_t m) {
  const KernelImage& k = *x.kernel;
  const std::uint32_t pc = x.pc_of(in);
  const KernelImage::Hook& h = k.hook(pc);
  if ((h.width == KernelImage::kNoWidth && h.grouping == kNoPc) || x.sink == nullptr) {
    h.fn(in, x, m);
  } else {
    AccessSink* const sink = x.sink;
    Held* const held = h.grouping == kNoPc || (*x.held)[h.grouping].passing ? nullptr : &(*x.held)[h.grouping];
    HoldSink hold(held == nullptr ? nullptr : &held->records);
    AccessSink* const next = held == nullptr ? sink : &hold;
    WidthSink widen(next, h.width);
    x.sink = h.width == KernelImage::kNoWidth ? next : h.width == 0 ? nullptr : &widen;
    try {
      h.fn(in, x, m);
    } catch (...) {
      x.sink = sink;
      throw;
    }
    x.sink = sink;
    if (held != nullptr) {
      const std::size_t paths = k.groupings[h.grouping].paths.size();
      if (held->records.size() > kLanes * (paths == 0 ? 0 : paths - 1)) {  // some lane's count has no path
        for (const WarpAccess& r : held->records) sink->on_access(r);
        held->records.clear();
        held->passing = true;
      }
    }
  }
  if (x.sink == nullptr) return;
  const auto base = static_cast<std::uint32_t>(k.code.size());
  for (std::uint32_t i = h.first; i < h.first + h.count; ++i) {
    const CompiledAccess& c = k.compiled[i];
    WarpAccess& rec = x.record;
    rec.pc = base + i;
    rec.cta = x.cta_linear;
    rec.warp = x.warp_index;
    rec.space = Space::kLocal;
    rec.op = c.store ? Op::kStore : Op::kLoad;
    rec.cache = CacheOp::kDefault;
    rec.width = c.width;
    rec.active = LaneMask(m);
    const std::uint64_t a = x.frame_base + c.frame_offset;
    for (unsigned l = 0; l < kLanes; ++l) rec.addr[l] = (m >> l) & 1u ? a : 0;
    rec.summarized = false;
    x.sink->on_access(rec);
  }
}

/// Makes one warp's held records of grouping g as the machine code groups them; false (and
/// nothing sent) when some lane's count has no path or the lanes' paths order their steps
/// differently. Lanes with the same count share a path, so the work is per distinct count.
bool regroup(const LaneGrouping& g, const std::vector<WarpAccess>& recs, AccessSink& sink) {
  const std::size_t nrec = recs.size();
  // Each lane's addresses in order: lane l's k-th at addr[l * nrec + k].
  // Never destroyed: kernels launched from a program's atexit handlers run after the main
  // thread's thread_local objects are destroyed (docs/runtime.md).
  thread_local std::vector<std::uint64_t>& addr = *new std::vector<std::uint64_t>;
  addr.resize(kLanes * nrec);
  std::array<std::uint32_t, kLanes> count{};
  for (const WarpAccess& r : recs)
    for_lanes(r.active.bits(), [&](unsigned l) { addr[l * nrec + count[l]++] = r.addr[l]; });
  // The distinct counts, their paths and lanes.
  struct Group {
    const std::vector<std::uint32_t>* path;
    std::uint32_t lanes;
    std::size_t pos;
  };
  std::array<Group, kLanes> groups{};
  std::size_t ngroups = 0;
  for (unsigned l = 0; l < kLanes; ++l) {
    const std::uint32_t n = count[l];
    if (n == 0) continue;
    if (n >= g.paths.size() || g.paths[n].empty()) return false;
    std::size_t i = 0;
    while (i < ngroups && groups[i].path != &g.paths[n]) ++i;
    if (i == ngroups) groups[ngroups++] = Group{&g.paths[n], 0, 0};
    groups[i].lanes |= 1u << l;
  }
  // The order of the steps: repeatedly the first (by Step::order) of the steps that are the next
  // step of every path that still has them.
  thread_local auto& order = *new std::vector<std::pair<std::uint32_t, std::uint32_t>>;  // step, lanes; never destroyed
  order.clear();
  for (;;) {
    std::int64_t best = -1;
    std::uint32_t best_lanes = 0;
    for (std::size_t i = 0; i < ngroups; ++i) {
      const Group& gi = groups[i];
      if (gi.pos == gi.path->size()) continue;
      const std::uint32_t s = (*gi.path)[gi.pos];
      if (best >= 0 && (g.steps[s].order > g.steps[std::size_t(best)].order ||
                        (g.steps[s].order == g.steps[std::size_t(best)].order && s >= best)))
        continue;
      bool ready = true;
      std::uint32_t lanes = 0;
      for (std::size_t o = 0; o < ngroups && ready; ++o) {
        const auto& po = *groups[o].path;
        for (std::size_t j = groups[o].pos; j < po.size(); ++j) {
          if (po[j] != s) continue;
          if (j != groups[o].pos) ready = false;
          else lanes |= groups[o].lanes;
          break;
        }
      }
      if (ready) best = s, best_lanes = lanes;
    }
    if (best < 0) break;
    order.emplace_back(static_cast<std::uint32_t>(best), best_lanes);
    for (std::size_t i = 0; i < ngroups; ++i) {
      Group& gi = groups[i];
      if (gi.pos < gi.path->size() && (*gi.path)[gi.pos] == std::uint32_t(best)) ++gi.pos;
    }
  }
  for (std::size_t i = 0; i < ngroups; ++i)
    if (groups[i].pos != groups[i].path->size()) return false;  // the paths disagree on an order
  std::array<std::size_t, kLanes> next{};
  WarpAccess rec = recs.front();
  rec.summarized = false;
  for (const auto& [s, lanes] : order) {
    rec.active = LaneMask(lanes);
    for (std::uint32_t c = 0; c < g.steps[s].copies; ++c) {
      for (unsigned l = 0; l < kLanes; ++l) rec.addr[l] = (lanes >> l) & 1u ? addr[l * nrec + next[l] + c] : 0;
      sink.on_access(rec);
    }
    for_lanes(lanes, [&](unsigned l) { next[l] += g.steps[s].copies; });
  }
  return true;
}

bool valid_width(unsigned w) { return w == 1 || w == 2 || w == 4 || w == 8 || w == 16; }

/// Rebuilds the hooks from k.compiled and k.widths.
void install(KernelImage& k) {
  for (const KernelImage::Hook& h : k.hooks) k.code[h.pc].fn = h.fn;  // undo the previous ones
  k.hooks.clear();
  auto hook_at = [&](std::uint32_t pc) -> KernelImage::Hook& {
    auto it = std::lower_bound(k.hooks.begin(), k.hooks.end(), pc,
                               [](const KernelImage::Hook& h, std::uint32_t p) { return h.pc < p; });
    if (it == k.hooks.end() || it->pc != pc) it = k.hooks.insert(it, KernelImage::Hook{pc, k.code[pc].fn, 0, 0});
    return *it;
  };
  for (std::uint32_t i = 0; i < k.compiled.size(); ++i) {
    KernelImage::Hook& h = hook_at(k.compiled[i].anchor);
    if (h.count == 0) h.first = i;
    ++h.count;
  }
  for (const Module::RecordWidth& w : k.widths) hook_at(w.pc).width = w.width;
  for (std::uint32_t i = 0; i < k.groupings.size(); ++i) hook_at(k.groupings[i].pc).grouping = i;
  for (const KernelImage::Hook& h : k.hooks) k.code[h.pc].fn = &run_hooked;
}

}  // namespace

const KernelImage::Hook& KernelImage::hook(std::uint32_t pc) const {
  const auto it = std::lower_bound(hooks.begin(), hooks.end(), pc, [](const Hook& h, std::uint32_t p) { return h.pc < p; });
  if (it == hooks.end() || it->pc != pc) fail(ErrorKind::kInternal, "no hook at pc {}", pc);
  return *it;
}

void set_compiled_accesses(KernelImage& k, std::vector<CompiledAccess> accesses) {
  for (const CompiledAccess& c : accesses) {
    if (c.anchor >= k.code.size()) {
      fail(ErrorKind::kUsage, "compiled access '{}' of {}: anchor pc {} is past the kernel's {} instructions", c.text,
           k.name, c.anchor, k.code.size());
    }
    const Inst& in = k.code[c.anchor];
    if ((!computes_only(in.ctl) && in.ctl != Ctl::kWarpSync) || in.guard != kNoSlot || in.fn == nullptr) {
      fail(ErrorKind::kUsage, "compiled access '{}' of {}: anchor {} ({}) is guarded or is not a plain instruction",
           c.text, k.name, c.anchor, k.where(c.anchor));
    }
    if (!valid_width(c.width)) fail(ErrorKind::kUsage, "compiled access '{}' of {}: width {} bytes", c.text, k.name, c.width);
  }
  std::stable_sort(accesses.begin(), accesses.end(),
                   [](const CompiledAccess& a, const CompiledAccess& b) { return a.anchor < b.anchor; });
  k.compiled = std::move(accesses);
  install(k);
}

void set_record_widths(KernelImage& k, std::vector<Module::RecordWidth> widths) {
  for (const Module::RecordWidth& w : widths) {
    if (w.pc >= k.code.size() || k.code[w.pc].width == 0 || !computes_only(k.code[w.pc].ctl)) {
      fail(ErrorKind::kUsage, "record width for {} pc {}: not a memory instruction", k.name, w.pc);
    }
    if (w.width != 0 && !valid_width(w.width)) fail(ErrorKind::kUsage, "record width {} bytes for {} pc {}", w.width, k.name, w.pc);
  }
  k.widths = std::move(widths);
  install(k);
}

void set_lane_groupings(KernelImage& k, std::vector<LaneGrouping> groupings) {
  std::vector<bool> seen(k.code.size(), false);
  for (const LaneGrouping& g : groupings) {
    if (g.pc >= k.code.size() || k.code[g.pc].width == 0 || k.code[g.pc].space != Space::kLocal ||
        k.code[g.pc].mem_op != Op::kLoad || !computes_only(k.code[g.pc].ctl)) {
      fail(ErrorKind::kUsage, "lane grouping '{}' of {}: pc {} is not a load from .local", g.text, k.name, g.pc);
    }
    if (seen[g.pc]) fail(ErrorKind::kUsage, "lane grouping '{}' of {}: pc {} has two groupings", g.text, k.name, g.pc);
    seen[g.pc] = true;
    for (std::size_t n = 0; n < g.paths.size(); ++n) {
      std::uint64_t made = 0;
      for (std::uint32_t s : g.paths[n]) {
        if (s >= g.steps.size()) fail(ErrorKind::kUsage, "lane grouping '{}' of {}: path {} names step {} of {}", g.text, k.name, n, s, g.steps.size());
        made += g.steps[s].copies;
      }
      for (std::size_t i = 0; i < g.paths[n].size(); ++i)
        for (std::size_t j = i + 1; j < g.paths[n].size(); ++j)
          if (g.paths[n][i] == g.paths[n][j])
            fail(ErrorKind::kUsage, "lane grouping '{}' of {}: path {} takes step {} twice", g.text, k.name, n, g.paths[n][i]);
      if (!g.paths[n].empty() && made != n)
        fail(ErrorKind::kUsage, "lane grouping '{}' of {}: path {} makes {} accesses", g.text, k.name, n, made);
    }
  }
  k.groupings = std::move(groupings);
  install(k);
}

void release_held(const KernelImage& k, HeldRecords& held, AccessSink& sink) {
  for (std::size_t i = 0; i < held.size() && i < k.groupings.size(); ++i) {
    std::vector<WarpAccess>& recs = held[i].records;
    held[i].passing = false;
    if (recs.empty()) continue;
    if (!regroup(k.groupings[i], recs, sink))
      for (const WarpAccess& r : recs) sink.on_access(r);
    recs.clear();
  }
}

ExecFn unhooked_fn(const KernelImage& k, std::uint32_t pc) {
  const ExecFn f = k.code[pc].fn;
  return f == &run_hooked ? k.hook(pc).fn : f;
}

}  // namespace warpscope::exec
