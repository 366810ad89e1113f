#include "mem/async_copy.hpp"

#include "mem/shared_banks.hpp"

namespace warpscope::mem {

AsyncCopyShared async_copy_shared(const arch::Profile& p, const WarpAccess& global, const WarpAccess& shared) {
  AsyncCopyShared r;
  const std::uint32_t active = shared.active.bits();
  if (active == 0) return r;
  const std::uint64_t line = p.line_bytes == 0 ? 128 : p.line_bytes;
  WarpAccess part = shared;
  std::uint32_t left = active;
  while (left != 0) {
    const unsigned first = static_cast<unsigned>(__builtin_ctz(left));
    const std::uint64_t key = global.addr[first] / line;
    std::uint32_t group = 0;
    for (std::uint32_t rest = left; rest != 0; rest &= rest - 1) {
      const unsigned l = static_cast<unsigned>(__builtin_ctz(rest));
      if (global.addr[l] / line == key) group |= 1u << l;
    }
    left &= ~group;
    part.active = LaneMask(group);
    part.summarized = false;
    const SharedBankResult g = shared_access(p, part);
    r.wavefronts += g.wavefronts;
    r.bank_conflicts += g.wavefronts - g.ideal_wavefronts;
  }
  const std::uint32_t partial = shared.fill_lanes & ~shared.no_read_lanes & active;
  if (partial != 0) {
    part.active = LaneMask(partial);
    part.summarized = false;
    const SharedBankResult z = shared_access(p, part);
    r.wavefronts += z.wavefronts;
    r.bank_conflicts += z.wavefronts - z.ideal_wavefronts;
  }
  if (shared.cache != CacheOp::kCg) {
    part.active = LaneMask(active);
    part.summarized = false;
    const SharedBankResult whole = shared_access(p, part);
    r.bank_conflicts = r.wavefronts > whole.ideal_wavefronts ? r.wavefronts - whole.ideal_wavefronts : 0;
  }
  r.ideal_wavefronts = r.wavefronts - r.bank_conflicts;
  return r;
}

}  // namespace warpscope::mem
