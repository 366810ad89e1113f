#include "mem/shared_banks.hpp"

#include <algorithm>

namespace warpscope::mem {

SharedBankResult shared_access(const arch::Profile& p, const WarpAccess& a) {
  SharedBankResult r;
  const std::uint32_t bank_bytes = p.shared_bank_bytes;
  const std::uint32_t pass_bytes = a.op == Op::kLoad ? p.shared_load_pass_bytes : p.shared_store_pass_bytes;
  const std::uint32_t lanes_per_pass =
      std::min<std::uint32_t>(p.warp_size, pass_bytes / std::max<std::uint32_t>(a.width, bank_bytes));
  std::uint64_t all_bytes[kMaxWarpSize];
  unsigned all_n = 0;
  for (std::uint32_t first = 0; first < p.warp_size; first += lanes_per_pass) {
    // Distinct bank words touched by the pass's active lanes.
    std::uint64_t words[kMaxWarpSize * 4];
    unsigned n = 0;
    for (std::uint32_t lane = first; lane < first + lanes_per_pass && lane < p.warp_size; ++lane) {
      if (!a.active.test(lane)) continue;
      all_bytes[all_n++] = a.addr[lane];
      const std::uint64_t w0 = a.addr[lane] / bank_bytes, w1 = (a.addr[lane] + a.width - 1) / bank_bytes;
      for (std::uint64_t w = w0; w <= w1; ++w) words[n++] = w;
    }
    if (n == 0) continue;
    std::sort(words, words + n);
    n = static_cast<unsigned>(std::unique(words, words + n) - words);
    std::uint32_t per_bank[64] = {};
    std::uint32_t worst = 0;
    for (unsigned i = 0; i < n; ++i) worst = std::max(worst, ++per_bank[words[i] % p.shared_banks]);
    r.wavefronts += worst;
    r.ideal_wavefronts += std::max<std::uint32_t>(1, (n + p.shared_banks - 1) / p.shared_banks);
  }
  r.bank_conflicts = r.wavefronts - r.ideal_wavefronts;
  // Naturally aligned words of one width are identical or disjoint.
  std::sort(all_bytes, all_bytes + all_n);
  r.bytes_requested = std::uint64_t(std::unique(all_bytes, all_bytes + all_n) - all_bytes) * a.width;
  return r;
}

}  // namespace warpscope::mem
