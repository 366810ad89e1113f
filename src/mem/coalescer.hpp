// The coalescer: how one warp's memory instruction becomes requests and memory transactions.
//
// Input: a WarpAccess (src/common/access.hpp). Output: a CoalesceResult: the requests, every
// transaction (byte address, size, the request it belongs to, the lanes it serves), the unit
// size, bytes requested (the DISTINCT bytes the active lanes touch) and bytes moved (the sum of
// the transaction sizes). The rule depends on the profile's coalescing family:
//  - kSectors (cc 5.x and later): one request per warp instruction, whatever the pattern; one
//    32-byte transaction per distinct sector touched (an aligned word of at most 16 bytes never
//    crosses a sector). design.md's H100 measurements: 1/2/4/8/16-byte consecutive words = 1
//    request of 1/2/4/8/16 sectors; `lane+1` 4-byte = 5 sectors. Atomics and reductions: the
//    L1 serves the warp's updates in passes. A lane's word position is its word's offset in its
//    128-byte line together with the line's class (the parities of its virtual address on the
//    profile's reduction_line_classes masks; without masks, the line itself). In each pass, over
//    the lanes not yet served: a position belongs to its lowest lane; a line is contested when
//    another line of its class uses one of its positions; the leader of a class is the line of
//    its lowest lane. A lane is served when it owns its position and its line is the leader or
//    not contested; the others wait for the next pass (the lowest lane is always served). A pass
//    moves each sector its served lanes touch once (transactions listed pass by pass, each pass
//    in the order of the lowest lane a sector serves). So k lanes on one word are k passes; with
//    one line per class a sector moves as many times as the most lanes on one of its words.
//    Measured on an H100, one REDG per launch: exact on all 6,612 captured warps
//    (tests/hw/data/h100/red; docs/accuracy.md exception D).
//  - kLines (cc 2.x/3.x; CUDA C Programming Guide, compute capability 2.x "Global Memory", seed
//    003): a load cached in L1 moves 128-byte lines; a load not cached in L1 (.cg, or the default
//    where the profile does not cache global loads) and every store, atomic and reduction moves
//    32-byte segments. 1/2/4-byte words are one request for the warp, 8-byte words one request
//    per half-warp, 16-byte words one per quarter-warp; requests without an active lane are not
//    issued; each request moves its distinct lines/segments.
//  - kCc12 (cc 1.2/1.3; Programming Guide 3.x, G.3.2.2): per half-warp, take the lowest active
//    unserved thread; its aligned segment is 32/64/128 B for 1/2/(4, 8, 16)-byte words; every
//    unserved thread whose word lies in it is served; a 128 B transaction using only one 64 B
//    half shrinks to 64 B, then a 64 B one using one 32 B half shrinks to 32 B; repeat. One
//    request per half-warp with an active thread.
//  - kCc10 (cc 1.0/1.1; G.3.2.1): a half-warp whose every active thread k (lane mod 16) reads
//    word k of a segment aligned to 16 * width is one 64 B (4-byte words) or 128 B (8-byte)
//    transaction, or two 128 B ones (16-byte); otherwise, and always for 1- and 2-byte words,
//    one 32-byte transaction per active thread. One request per half-warp with an active thread.
//  - Local space: addr[lane] is the lane's offset in its own frame. The access is laid out by
//    LocalLayout (local_layout.hpp) with warp base 0 and split into max(1, width/4) per-word
//    pieces; each piece is coalesced as its own request(s) with the family's rule (H100: a full
//    warp's 16-byte local store is 4 requests of 4 sectors). The memory hierarchy adds the warp's
//    base address.
//  - Shared space is not coalesced: requests = 1 and one transaction per wavefront
//    (shared_banks.hpp), each of banks * bank_bytes bytes, serving the lanes of its phase, at the
//    phase's lowest address; bytes_moved = wavefronts * banks * bank_bytes.
// Which loads are cached in L1 (cp.async's global side, Op::kLdgsts, is a load here: .ca is looked
// up in L1, .cg bypasses it, as LDGSTS.ACCESS and .BYPASS on the H100): CacheOp::kCa yes, kCg no, kDefault follows
// profile.global_loads_cached_in_l1 for global loads; local loads follow local_cached_in_l1;
// never without an L1 (l1.bytes == 0). Stores, atomics and reductions are never cached loads.
//
// Transactions are listed request by request; inside a request, in the order of the lowest lane
// each serves. transaction_bytes is the family's unit (32 for sectors and segments, 128 for
// cached lines; on cc 1.x, where sizes vary, the largest used, 0 when none). An access without an
// active lane has no request and no transaction.
//
// Errors: a width other than 1/2/4/8/16 throws Error(kUsage); a misaligned word throws
// Error(kMisaligned) naming the lane, the address in hex and the width (access_check.hpp).
// coalesce(access, out) never allocates; `out` may be reused across calls.
#pragma once

#include <array>
#include <cstdint>

#include "arch/profile.hpp"
#include "common/access.hpp"

namespace warpscope::mem {

struct Transaction {
  std::uint64_t addr = 0;     // first byte (aligned to `bytes`)
  LaneMask lanes;             // the active lanes it serves
  std::uint16_t bytes = 0;    // size: 32, 64, 128 (wavefronts: banks * bank_bytes)
  std::uint16_t request = 0;  // index of its request, from 0
};

struct CoalesceResult {
  static constexpr std::uint32_t kMaxTransactions = 128;  // 4 local pieces x 32 lanes

  std::uint32_t requests = 0;
  std::uint32_t transaction_count = 0;
  std::uint32_t transaction_bytes = 0;  // the unit (see the contract above)
  std::uint64_t bytes_requested = 0;    // distinct bytes touched by the active lanes
  std::uint64_t bytes_moved = 0;        // sum of the transaction sizes
  bool cached_in_l1 = false;            // a load served through L1 (allocates and hits there)
  std::array<Transaction, kMaxTransactions> transactions{};

  /// bytes_requested / bytes_moved, 0 when nothing moved.
  double efficiency() const {
    return bytes_moved == 0 ? 0.0 : static_cast<double>(bytes_requested) / static_cast<double>(bytes_moved);
  }
};

/// How many consecutive lanes of a warp the texture unit serves as one request of a texture or
/// surface access (lanes 0..n-1, n..2n-1, ...; a group without an active lane is no request).
/// Measured on the H100 (tests/hw/data/h100/texture/README.md, texture_requests.csv): texel
/// fetches by integer coordinates (TLD) 8 lanes, 4 for 16-byte texels; sampled fetches (TEX,
/// TLD4, any geometry) a quad of 4 lanes; surface loads and stores (SULD, SUST) 8 lanes, any
/// size. Surface reductions are not measured: 8, as the other surface accesses.
unsigned texture_request_lanes(const WarpAccess& access);

class Coalescer {
 public:
  /// Keeps a reference to `profile`, which must outlive the coalescer. `use_simd` = false forces
  /// the portable code path (the vector path, used when the CPU has AVX2, gives identical results;
  /// the tests compare both). Throws Error(kProfile) for sector/line sizes that are not powers of
  /// two with 16 <= sector <= line <= 32768, Error(kUnsupported) for a warp size other than 32.
  explicit Coalescer(const arch::Profile& profile, bool use_simd = true);

  void coalesce(const WarpAccess& access, CoalesceResult& out) const {
    // The hot path (global accesses on the sector family) goes straight to the whole-warp kernel.
    if (access.space == Space::kGlobal && access.width <= 16 && ((global_widths_ >> access.width) & 1u) != 0) {
      if (global_(access, out, global_path_) < 0) misaligned(access);
      if (access.op == Op::kAtomic || access.op == Op::kReduction) reduction_passes(access, out);
      return;
    }
    coalesce_other(access, out);
  }
  CoalesceResult coalesce(const WarpAccess& access) const {
    CoalesceResult r;
    coalesce(access, r);
    return r;
  }
  /// Whether this access is a load served through L1 (the rule in the contract above).
  bool cached_in_l1(const WarpAccess& access) const;

  /// What the global sector path needs (internal: warp_kernel.hpp).
  struct GlobalPath {
    std::uint64_t tail = 0;      // a transaction's bytes << 32 (request 0)
    std::uint32_t shift = 0;     // log2 of the sector size
    std::uint32_t bytes = 0;     // the sector size
    std::uint32_t l1_loads = 0;  // bit c: a global load with CacheOp c is cached in L1
    // (1 << lane) | tail for the 32 lanes, in the order 0 2 1 3 of each four; twice (the kernel
    // reads one copy per unpack, as a memory operand).
    std::uint64_t lane_rest[2][32] = {};
  };

 private:
  void coalesce_other(const WarpAccess& a, CoalesceResult& out) const;
  void coalesce_sectors(const WarpAccess& a, CoalesceResult& out) const;
  void coalesce_lines(const WarpAccess& a, CoalesceResult& out) const;
  void coalesce_cc1x(const WarpAccess& a, CoalesceResult& out) const;
  void coalesce_shared(const WarpAccess& a, CoalesceResult& out) const;
  bool warp_request(const std::uint64_t* addr, std::uint32_t active, unsigned shift, std::uint32_t width,
                    std::uint32_t request, CoalesceResult& out, std::uint64_t& requested) const;
  [[noreturn]] void misaligned(const WarpAccess& a) const;
  /// Atomics and reductions on the sector family: the L1's passes over the warp's updates (the
  /// contract above).
  void reduction_passes(const WarpAccess& a, CoalesceResult& out) const;

  /// The whole-warp kernel (warp_kernel.hpp): portable or AVX2.
  using Kernel = int (*)(const std::uint64_t*, std::uint32_t, std::uint32_t, Transaction*, std::uint64_t*);
  /// A whole global access on the sector family, result filled in; negative when misaligned.
  using Global = int (*)(const WarpAccess&, CoalesceResult&, const GlobalPath&);

  const arch::Profile& profile_;
  unsigned sector_shift_;
  unsigned line_shift_;
  Kernel kernel_;
  Global global_;
  GlobalPath global_path_;
  std::uint32_t global_widths_;  // bit w: a global access of width w takes global_ (sector family only)
};

}  // namespace warpscope::mem
