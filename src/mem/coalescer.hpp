// The coalescer: how one warp's memory instruction becomes requests and memory transactions.
//
// Input: a WarpAccess (src/common/access.hpp). Output: a CoalesceResult with the requests, each
// transaction (address, size, request), bytes requested (DISTINCT bytes the active lanes touch)
// and bytes moved (sum of transaction sizes). The rule depends on the profile's family:
//  - sectors (cc 5.x+): one request per instruction; a transaction per distinct 32-byte sector.
//  - lines (cc 2.x/3.x): loads cached in L1 move 128-byte lines, other accesses 32-byte
//    segments; 1/2/4-byte words are one request per warp, 8-byte words one per half-warp,
//    16-byte words one per quarter-warp (CUDA C Programming Guide, compute capability 2.x).
//  - cc1.2 (cc 1.2/1.3): per half-warp, the segment (32/64/128 B for 1/2/≥4-byte words) of the
//    lowest active unserved thread serves every thread inside it, then shrinks to the used half
//    (128→64→32); repeat (Programming Guide 3.x, G.3.2.2).
//  - cc1.0 (cc 1.0/1.1): a half-warp whose active thread k reads word k of one segment aligned to
//    16·width is one 64/128/2×128-byte transaction; otherwise one 32-byte transaction per thread
//    (G.3.2.1).
// Local accesses (addr = offset in the lane's frame) are first laid out by LocalLayout (warp base
// 0) and split into max(1, width/4) per-word requests. Shared accesses are not coalesced: see
// shared_banks.hpp; for them coalesce() reports one request and no transactions.
//
// Misaligned words (address not a multiple of the width) throw Error(kMisaligned) naming the
// lane, address and width; the hardware faults on them. coalesce() never allocates.
#pragma once

#include <array>
#include <cstdint>

#include "arch/profile.hpp"
#include "common/access.hpp"

namespace warpscope::mem {

struct Transaction {
  std::uint64_t addr = 0;   // first byte
  std::uint32_t bytes = 0;  // size
  std::uint32_t request = 0;
};

struct CoalesceResult {
  static constexpr std::uint32_t kMaxTransactions = 128;  // 4 local pieces x 32 lanes
  std::uint32_t requests = 0;
  std::uint32_t transaction_count = 0;
  std::uint32_t transaction_bytes = 0;  // the unit (largest size used on cc 1.x)
  std::uint64_t bytes_requested = 0;
  std::uint64_t bytes_moved = 0;
  bool cached_in_l1 = false;            // the access takes the L1 path
  std::array<Transaction, kMaxTransactions> transactions;

  double efficiency() const {
    return bytes_moved == 0 ? 0.0 : static_cast<double>(bytes_requested) / static_cast<double>(bytes_moved);
  }
};

class Coalescer {
 public:
  explicit Coalescer(const arch::Profile& profile);

  void coalesce(const WarpAccess& access, CoalesceResult& out) const;
  CoalesceResult coalesce(const WarpAccess& access) const {
    CoalesceResult r;
    coalesce(access, r);
    return r;
  }
  /// Whether this access goes through L1 (cached load or cached local access).
  bool cached_in_l1(const WarpAccess& access) const;

 private:
  const arch::Profile& profile_;
  unsigned sector_shift_;
  unsigned line_shift_;
};

}  // namespace warpscope::mem
