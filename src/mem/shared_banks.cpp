#include "mem/shared_banks.hpp"

#include <algorithm>
#include <bit>

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

bool shared_load_pairs_lanes(const WarpAccess& a) {
  for (unsigned first = 0; first < kMaxWarpSize; first += 4) {
    std::uint64_t seen[2];
    unsigned n = 0;
    for (unsigned lane = first; lane < first + 4; ++lane) {
      if (!a.active.test(lane)) continue;
      const std::uint64_t addr = a.addr[lane];
      if ((n > 0 && seen[0] == addr) || (n > 1 && seen[1] == addr)) continue;
      if (n == 2) return false;
      seen[n++] = addr;
    }
  }
  return true;
}

std::uint32_t shared_lanes_per_phase(const arch::Profile& p, const WarpAccess& a) {
  if (a.op == Op::kLoad && p.shared_load_pass_bytes > p.shared_store_pass_bytes && !shared_load_pairs_lanes(a))
    return shared_lanes_per_phase(p, Op::kStore, a.width);
  return shared_lanes_per_phase(p, a.op, a.width);
}

namespace {

/// Records one phase: its lanes, wavefronts, and the ideal count for `distinct` addresses of
/// `width` bytes (max(1, ceil(bytes / (banks x bank_bytes)))).
void add_phase(const arch::Profile& p, SharedBankResult& r, LaneMask lanes, std::uint32_t wavefronts,
               std::uint64_t distinct, std::uint32_t width, std::uint64_t first_addr) {
  const std::uint64_t row_bytes = std::uint64_t{p.shared_banks} * p.shared_bank_bytes;
  const auto ideal =
      static_cast<std::uint32_t>(std::max<std::uint64_t>(1, (distinct * width + row_bytes - 1) / row_bytes));
  r.phases[r.phase_count++] = SharedPhase{lanes, wavefronts, ideal, first_addr};
  r.wavefronts += wavefronts;
  r.ideal_wavefronts += ideal;
}

/// The general rule, phase by phase, with sorting to find the distinct words and addresses.
void shared_access_sorted(const arch::Profile& p, const WarpAccess& a, SharedBankResult& r) {
  const std::uint32_t width = a.width;
  const std::uint32_t bank_bytes = p.shared_bank_bytes;
  const std::uint32_t lanes_per_phase = r.lanes_per_phase;
  const std::uint32_t warp = std::min(p.warp_size, kMaxWarpSize);
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
    add_phase(p, r, lanes, worst, na, width, addrs[0]);
  }
  r.bytes_requested = std::uint64_t{sort_unique(all_addrs, all_n)} * width;
}

/// The same rule when the warp's words lie within kBitsetUnits words of `lo` (its lowest
/// address): the phase's distinct words are bits of a bitset (word k = address lo + k * width,
/// addresses being aligned to their width), visited in increasing order, so the bank words they
/// cover come in order too and duplicates are adjacent. No sorting.
constexpr std::uint32_t kBitsetUnits = 1024;

void shared_access_bitset(const arch::Profile& p, const WarpAccess& a, std::uint64_t lo, SharedBankResult& r) {
  const std::uint32_t width = a.width;
  const std::uint32_t bank_bytes = p.shared_bank_bytes;
  const std::uint32_t banks = p.shared_banks;
  const std::uint32_t lanes_per_phase = r.lanes_per_phase;
  const std::uint32_t warp = std::min(p.warp_size, kMaxWarpSize);
  // Widths are powers of two (check_access); bank sizes and counts usually are: shifts and masks
  // then, not divisions, which would cost more than the rest of the rule.
  const auto width_shift = static_cast<unsigned>(std::countr_zero(width));
  const bool pow2 = std::has_single_bit(bank_bytes) && std::has_single_bit(banks);
  const auto bank_shift = static_cast<unsigned>(std::countr_zero(bank_bytes));
  const std::uint64_t bank_mask = banks - 1;
  std::uint64_t all_bits[kBitsetUnits / 64] = {};
  std::uint32_t top = 0;  // highest bitset word used
  for (std::uint32_t first = 0; first < warp; first += lanes_per_phase) {
    const std::uint32_t end = std::min(first + lanes_per_phase, warp);
    const std::uint32_t span = end - first;
    const LaneMask lanes = a.active & LaneMask((span >= 32 ? 0xffffffffu : ((1u << span) - 1u)) << first);
    if (lanes.none()) continue;
    std::uint64_t bits[kBitsetUnits / 64] = {};
    std::uint32_t phase_lo = kBitsetUnits, phase_hi = 0;
    lanes.for_each([&](unsigned lane) {
      const auto u = static_cast<std::uint32_t>((a.addr[lane] - lo) >> width_shift);
      bits[u / 64] |= std::uint64_t{1} << (u % 64);
      phase_lo = std::min(phase_lo, u / 64);
      phase_hi = std::max(phase_hi, u / 64);
    });
    std::uint32_t per_bank[kMaxBanks];
    std::fill_n(per_bank, banks, 0u);
    std::uint32_t worst = 0, na = 0;
    std::uint64_t last_word = ~std::uint64_t{0}, first_addr = 0;
    for (std::uint32_t k = phase_lo; k <= phase_hi; ++k) {
      all_bits[k] |= bits[k];
      for (std::uint64_t m = bits[k]; m != 0; m &= m - 1) {
        const std::uint64_t addr = lo + ((std::uint64_t{k} * 64 + static_cast<unsigned>(std::countr_zero(m))) << width_shift);
        if (na++ == 0) first_addr = addr;
        const std::uint64_t w0 = pow2 ? addr >> bank_shift : addr / bank_bytes;
        const std::uint64_t w1 = pow2 ? (addr + width - 1) >> bank_shift : (addr + width - 1) / bank_bytes;
        for (std::uint64_t w = w0; w <= w1; ++w) {
          if (w == last_word) continue;
          last_word = w;
          worst = std::max(worst, ++per_bank[pow2 ? w & bank_mask : w % banks]);
        }
      }
    }
    top = std::max(top, phase_hi);
    add_phase(p, r, lanes, worst, na, width, first_addr);
  }
  std::uint64_t distinct = 0;
  for (std::uint32_t k = 0; k <= top; ++k) distinct += static_cast<std::uint64_t>(std::popcount(all_bits[k]));
  r.bytes_requested = distinct * width;
}

/// Atomics and reductions on shared memory (ATOMS): the banks serve each lane's operation on its
/// own, also where lanes name the same word (no broadcast): a phase takes as many wavefronts as
/// the most lanes whose words fall in one bank. Measured on the H200 (tests/hw/timing/
/// shared_atomics.cu, tests/hw/data/h200/shared_atomics): 32-bit adds by a warp on 1, 2, 4, 8, 16
/// and 32 distinct consecutive words take 32, 16, 8, 4, 2 and 1 wavefronts (and as many cycles
/// at the SM); 4 words of one bank, 8 lanes each, take 32.
void shared_access_atomic(const arch::Profile& p, const WarpAccess& a, SharedBankResult& r) {
  const std::uint32_t width = a.width;
  const std::uint32_t bank_bytes = p.shared_bank_bytes;
  const std::uint32_t warp = std::min(p.warp_size, kMaxWarpSize);
  std::uint64_t all_addrs[kMaxWarpSize];
  unsigned all_n = 0;
  for (std::uint32_t first = 0; first < warp; first += r.lanes_per_phase) {
    const std::uint32_t span = std::min(first + r.lanes_per_phase, warp) - first;
    const LaneMask lanes = a.active & LaneMask((span >= 32 ? 0xffffffffu : ((1u << span) - 1u)) << first);
    if (lanes.none()) continue;
    std::uint64_t addrs[kMaxWarpSize];
    unsigned na = 0;
    std::uint32_t per_bank[kMaxBanks] = {};
    std::uint32_t worst = 0;
    lanes.for_each([&](unsigned lane) {
      const std::uint64_t addr = a.addr[lane];
      addrs[na++] = addr;
      all_addrs[all_n++] = addr;
      for (std::uint64_t w = addr / bank_bytes; w <= (addr + width - 1) / bank_bytes; ++w)
        worst = std::max(worst, ++per_bank[w % p.shared_banks]);
    });
    const std::uint64_t first_addr = *std::min_element(addrs, addrs + na);
    na = sort_unique(addrs, na);
    add_phase(p, r, lanes, worst, na, width, first_addr);
  }
  r.bytes_requested = std::uint64_t{sort_unique(all_addrs, all_n)} * width;
}

}  // namespace

SharedBankResult shared_access(const arch::Profile& p, const WarpAccess& a) {
  return shared_access(p, a, summary_of(a));
}

SharedBankResult shared_access(const arch::Profile& p, const WarpAccess& a, const AddressSummary& summary) {
  check_access(a, summary);
  if (p.shared_banks == 0 || p.shared_banks > kMaxBanks || p.shared_bank_bytes == 0)
    fail(ErrorKind::kUnsupported, "profile '{}': {} shared-memory banks of {} bytes (supported: 1 to {} banks)", p.name,
         p.shared_banks, p.shared_bank_bytes, kMaxBanks);
  SharedBankResult r;
  r.lanes_per_phase = shared_lanes_per_phase(p, a);
  const std::uint64_t lo = summary.lo, hi = summary.hi;
  if (lo > hi) return r;  // no active lane
  if (a.op == Op::kAtomic || a.op == Op::kReduction) {
    shared_access_atomic(p, a, r);
    // A 32-bit compare-and-swap takes each of its passes twice (the H200's ATOMS.CAS: 8 of 8
    // address patterns, tests/hw/data/h200/lds). Wider ones are loops in the machine code, not
    // measured: they keep the one-pass count.
    if (a.compare_swap && a.width == 4) {
      for (std::uint32_t i = 0; i < r.phase_count; ++i) {
        r.phases[i].wavefronts *= 2;
        r.phases[i].ideal_wavefronts *= 2;
      }
      r.wavefronts *= 2;
      r.ideal_wavefronts *= 2;
    }
  } else if (lo == hi && a.width <= p.shared_banks * p.shared_bank_bytes) {
    // One address for every lane (a broadcast): each phase reads its words once, one per bank.
    const std::uint32_t warp = std::min(p.warp_size, kMaxWarpSize);
    for (std::uint32_t first = 0; first < warp; first += r.lanes_per_phase) {
      const std::uint32_t span = std::min(first + r.lanes_per_phase, warp) - first;
      const LaneMask lanes = a.active & LaneMask((span >= 32 ? 0xffffffffu : ((1u << span) - 1u)) << first);
      if (lanes.none()) continue;
      r.phases[r.phase_count++] = SharedPhase{lanes, 1, 1, lo};
    }
    r.wavefronts = r.ideal_wavefronts = r.phase_count;
    r.bytes_requested = a.width;
  } else if ((hi - lo) >> std::countr_zero(std::uint32_t{a.width}) < kBitsetUnits) {
    shared_access_bitset(p, a, lo, r);
  } else {
    shared_access_sorted(p, a, r);
  }
  r.bank_conflicts = r.wavefronts - r.ideal_wavefronts;
  return r;
}

}  // namespace warpscope::mem
