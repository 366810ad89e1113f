#include "mem/shared_banks.hpp"

#include <algorithm>

#include "common/error.hpp"
#include "mem/access_check.hpp"

namespace warpscope::mem {
namespace {

constexpr std::uint32_t kMaxBanks = 64;

/// Sorts v[0..n) and drops duplicates; returns the new length.
unsigned sort_unique(std::uint64_t* v, unsigned n) {
  std::sort(v, v + n);
  return static_cast<unsigned>(std::unique(v, v + n) - v);
}

}  // namespace

std::uint32_t shared_lanes_per_phase(const arch::Profile& p, Op op, std::uint32_t width) {
  const std::uint32_t pass_bytes = op == Op::kLoad ? p.shared_load_pass_bytes : p.shared_store_pass_bytes;
  const std::uint32_t lanes = pass_bytes / std::max(width, p.shared_bank_bytes);
  return std::clamp<std::uint32_t>(lanes, 1, std::min(p.warp_size, kMaxWarpSize));
}

SharedBankResult shared_access(const arch::Profile& p, const WarpAccess& a) {
  check_access(a);
  if (p.shared_banks == 0 || p.shared_banks > kMaxBanks || p.shared_bank_bytes == 0)
    fail(ErrorKind::kUnsupported, "profile '{}': {} shared-memory banks of {} bytes (supported: 1 to {} banks)", p.name,
         p.shared_banks, p.shared_bank_bytes, kMaxBanks);
  SharedBankResult r;
  const std::uint32_t width = a.width;
  const std::uint32_t bank_bytes = p.shared_bank_bytes;
  const std::uint32_t row_bytes = p.shared_banks * bank_bytes;
  const std::uint32_t lanes_per_phase = shared_lanes_per_phase(p, a.op, width);
  const std::uint32_t warp = std::min(p.warp_size, kMaxWarpSize);
  r.lanes_per_phase = lanes_per_phase;

  std::uint64_t all_addrs[kMaxWarpSize];
  unsigned all_n = 0;
  for (std::uint32_t first = 0; first < warp; first += lanes_per_phase) {
    const std::uint32_t end = std::min(first + lanes_per_phase, warp);
    const std::uint32_t span = end - first;
    const LaneMask lanes = a.active & LaneMask((span >= 32 ? 0xffffffffu : ((1u << span) - 1u)) << first);
    if (lanes.none()) continue;
    // Bank words and (aligned, hence identical-or-disjoint) words of the phase's lanes.
    std::uint64_t words[kMaxWarpSize * 16];
    std::uint64_t addrs[kMaxWarpSize];
    unsigned nw = 0, na = 0;
    lanes.for_each([&](unsigned lane) {
      const std::uint64_t addr = a.addr[lane];
      addrs[na++] = addr;
      all_addrs[all_n++] = addr;
      for (std::uint64_t w = addr / bank_bytes; w <= (addr + width - 1) / bank_bytes; ++w) words[nw++] = w;
    });
    nw = sort_unique(words, nw);
    na = sort_unique(addrs, na);
    std::uint32_t per_bank[kMaxBanks] = {};
    std::uint32_t worst = 0;
    for (unsigned i = 0; i < nw; ++i) worst = std::max(worst, ++per_bank[words[i] % p.shared_banks]);
    const std::uint64_t distinct_bytes = std::uint64_t{na} * width;
    const auto ideal =
        static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (distinct_bytes + row_bytes - 1) / row_bytes));
    r.phases[r.phase_count++] = SharedPhase{lanes, worst, ideal, addrs[0]};
    r.wavefronts += worst;
    r.ideal_wavefronts += ideal;
  }
  r.bank_conflicts = r.wavefronts - r.ideal_wavefronts;
  r.bytes_requested = std::uint64_t{sort_unique(all_addrs, all_n)} * width;
  return r;
}

}  // namespace warpscope::mem
