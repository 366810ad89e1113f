// What the machine code does differently from the PTX, applied to the records the interpreter
// makes: compiled accesses (Module::set_compiled_accesses: local loads and stores the machine code
// makes where the PTX has none, recorded each time a warp runs their anchor) and record widths
// (Module::set_record_widths: loads the machine code merged into a wider one). A hooked
// instruction's semantic function is swapped for run_hooked, so other instructions cost nothing.
#include <algorithm>

#include "common/error.hpp"
#include "exec/program.hpp"

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

void run_hooked(const Inst& in, Ctx& x, std::uint32_t m) {
  const KernelImage& k = *x.kernel;
  const std::uint32_t pc = x.pc_of(in);
  const KernelImage::Hook& h = k.hook(pc);
  if (h.width == KernelImage::kNoWidth || x.sink == nullptr) {
    h.fn(in, x, m);
  } else {
    AccessSink* const sink = x.sink;
    WidthSink widen(sink, h.width);
    x.sink = h.width == 0 ? nullptr : &widen;
    try {
      h.fn(in, x, m);
    } catch (...) {
      x.sink = sink;
      throw;
    }
    x.sink = sink;
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
    if (in.ctl != Ctl::kNone || in.guard != kNoSlot || in.fn == nullptr) {
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
    if (w.pc >= k.code.size() || k.code[w.pc].width == 0 || k.code[w.pc].ctl != Ctl::kNone) {
      fail(ErrorKind::kUsage, "record width for {} pc {}: not a memory instruction", k.name, w.pc);
    }
    if (w.width != 0 && !valid_width(w.width)) fail(ErrorKind::kUsage, "record width {} bytes for {} pc {}", w.width, k.name, w.pc);
  }
  k.widths = std::move(widths);
  install(k);
}

}  // namespace warpscope::exec
