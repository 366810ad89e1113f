// Global atomics and reductions as the L2 serialises them (docs/mem.md, "Atomic contention";
// the time model's bound, docs/time.md): over a launch, the lane operations on each address and,
// per 128-byte line, the steps its requests take there: per request (one warp's record) and
// 32-byte sector, as many steps as the sector's busiest address has lanes; a line's sectors one
// after another. (On the H100, tests/hw/data/h100/timing/contention_summary.txt: 32 lanes adding
// to one int cost 32 steps, to 2 ints 4 bytes apart 16, to 2 ints 32 bytes apart 32.)
// note() is stateless (the shards call it); add() sums in any order: the result is the same for
// any host thread count.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "common/access.hpp"

namespace warpscope::stats {

/// The launch's figures (ModelResult::atomics).
struct AtomicContention {
  std::uint64_t address_ops = 0;        // lane operations on the busiest address
  std::uint64_t address_float_ops = 0;  // floating-point adds on the address with the most of them
  std::uint64_t line_steps = 0;         // the busiest 128-byte line's steps
  std::uint64_t address = 0;            // the busiest address
  std::uint64_t addresses = 0;          // distinct addresses counted
  bool capped = false;                  // kMaxAddresses reached: later new addresses were not counted
};

/// One record's contribution to an address (ops, float ops) or a line (steps in `ops`).
struct AtomicNote {
  std::uint64_t key = 0;
  std::uint32_t ops = 0, float_ops = 0;
};

class AtomicCounter {
 public:
  /// Distinct addresses (and as many lines) kept; beyond, new ones are not counted (a launch
  /// spreading its atomics that widely is not serialised on one address).
  static constexpr std::size_t kMaxAddresses = 1u << 22;

  /// Appends the contributions of `a` when it is a global atomic or reduction (`float_add`: a
  /// floating-point add) to `addresses` and `lines`; other records add nothing. `warp_aggregated`:
  /// ptxas combines the lanes that share an address into one operation (its machine code reduces
  /// them first, docs/time.md "Same-address atomics"), so each address counts one operation.
  static void note(const WarpAccess& a, bool float_add, std::vector<AtomicNote>& addresses,
                   std::vector<AtomicNote>& lines, bool warp_aggregated = false);
  void add(const std::vector<AtomicNote>& addresses, const std::vector<AtomicNote>& lines);
  AtomicContention result() const;

 private:
  struct Counts {
    std::uint64_t ops = 0, float_ops = 0;
  };
  std::unordered_map<std::uint64_t, Counts> addresses_;
  std::unordered_map<std::uint64_t, std::uint64_t> lines_;
  bool capped_ = false;
};

}  // namespace warpscope::stats
