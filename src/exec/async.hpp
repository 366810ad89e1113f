// Asynchronous copies and mbarriers (ops_async.cpp): what the warp loop and the deadlock report
// need to know of an mbarrier wait (mbarrier.test_wait / try_wait, Ctl::kWait).
#pragma once

#include <cstdint>
#include <string>

#include "exec/program.hpp"

namespace warpscope::exec {

/// The shared-memory offset of the mbarrier that `lane` of a wait (or any mbarrier instruction)
/// names. Only for lanes whose instruction has run: its semantic function checked the address.
std::uint64_t mbarrier_offset(const Ctx& x, const Inst& in, unsigned lane);
/// The 64-bit mbarrier word at a shared offset (checked as above).
std::uint64_t mbarrier_word(const Ctx& x, std::uint64_t offset);
/// "lane 3 (thread (3,0,0)) waits at f.cu:12 (`mbarrier.try_wait...`) for the phase of parity 0 of
/// the mbarrier at shared 0x10, whose phase parity 0: 1 of 4 arrivals pending, tx-count 0".
std::string describe_wait(const Ctx& x, const Inst& in, unsigned lane);

/// One CTA that a bulk copy writes: its shared memory (offset 0) and its mbarrier's location.
struct BulkDest {
  std::uint8_t* shared = nullptr;
  std::uint64_t bar = 0;
};
/// The CTAs a bulk copy (cp.async.bulk, .tensor) into shared memory writes, checked, with the
/// destination's CTA-relative offset (`off`); returns how many (1, or those of the ctaMask).
///  - `dst`, `bar_addr`: the copy's operands (shared offsets; .shared::cluster addresses when
///    `cluster`, which may carry another rank's tag: ops_cluster.cpp, mapa);
///  - `mask`: the ctaMask of .multicast::cluster, or nullptr: every CTA of the mask gets the bytes at
///    the same offset and a complete-tx on its mbarrier at the same offset as `bar_addr`'s.
/// Without multicast the mbarrier must be in the destination's CTA: the H100 does not complete an
/// mbarrier of another CTA (its wait never ends), a kUndefined fault here. Every mbarrier is checked
/// to be initialized.
unsigned bulk_destinations(const Ctx& x, const Inst& in, unsigned lane, std::uint64_t dst, std::uint64_t bar_addr,
                           bool cluster, const std::uint64_t* mask, std::uint64_t& off, BulkDest (&out)[16]);
/// complete-tx of `bytes` on the initialized mbarrier at shared offset `bar`.
void bulk_complete_tx(Ctx& x, const Inst& in, unsigned lane, std::uint64_t bar, std::uint32_t bytes);

}  // namespace warpscope::exec
