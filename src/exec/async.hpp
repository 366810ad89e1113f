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

/// A bulk copy's mbarrier operand (shared offset or generic address), checked as every mbarrier
/// operand is (ops_async.cpp); its shared offset.
std::uint64_t bulk_barrier(const Ctx& x, const Inst& in, unsigned lane, std::uint64_t addr, bool generic, bool addr32);
/// complete-tx of `bytes` on the initialized mbarrier at shared offset `bar`.
void bulk_complete_tx(Ctx& x, const Inst& in, unsigned lane, std::uint64_t bar, std::uint32_t bytes);

}  // namespace warpscope::exec
