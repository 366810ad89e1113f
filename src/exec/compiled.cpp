// Compiled accesses (Module::set_compiled_accesses): local loads and stores the machine code makes
// where the PTX has none, recorded each time a warp runs their anchor instruction. The anchor's
// semantic function is swapped for run_compiled, so instructions without one cost nothing.
#include <algorithm>

#include "common/error.hpp"
#include "exec/program.hpp"

namespace warpscope::exec {
namespace {

void run_compiled(const Inst& in, Ctx& x, std::uint32_t m) {
  const KernelImage& k = *x.kernel;
  const std::uint32_t pc = x.pc_of(in);
  const KernelImage::Hook& h = k.hook(pc);
  h.fn(in, x, m);
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

}  // namespace

const KernelImage::Hook& KernelImage::hook(std::uint32_t pc) const {
  const auto it = std::lower_bound(hooks.begin(), hooks.end(), pc, [](const Hook& h, std::uint32_t p) { return h.pc < p; });
  if (it == hooks.end() || it->pc != pc) fail(ErrorKind::kInternal, "no compiled-access hook at pc {}", pc);
  return *it;
}

void set_compiled_accesses(KernelImage& k, std::vector<CompiledAccess> accesses) {
  for (const KernelImage::Hook& h : k.hooks) k.code[h.pc].fn = h.fn;  // undo the previous set
  k.hooks.clear();
  k.compiled.clear();
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
    if (c.width != 1 && c.width != 2 && c.width != 4 && c.width != 8 && c.width != 16) {
      fail(ErrorKind::kUsage, "compiled access '{}' of {}: width {} bytes", c.text, k.name, c.width);
    }
  }
  std::stable_sort(accesses.begin(), accesses.end(),
                   [](const CompiledAccess& a, const CompiledAccess& b) { return a.anchor < b.anchor; });
  k.compiled = std::move(accesses);
  for (std::uint32_t i = 0; i < k.compiled.size(); ++i) {
    const std::uint32_t pc = k.compiled[i].anchor;
    if (k.hooks.empty() || k.hooks.back().pc != pc) k.hooks.push_back(KernelImage::Hook{pc, k.code[pc].fn, i, 0});
    ++k.hooks.back().count;
  }
  for (const KernelImage::Hook& h : k.hooks) k.code[h.pc].fn = &run_compiled;
}

}  // namespace warpscope::exec
