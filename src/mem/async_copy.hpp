// The shared-memory side of cp.async (SASS LDGSTS): how many shared wavefronts its writes take.
//
// Rule (measured on an H100, tests/hw/data/h100/async, smsp__sass_l1tex_data_pipe_lsu_wavefronts_
// mem_shared_op_ldgsts and ..._data_bank_conflicts_...):
//  - The data arrives line by line: the executing lanes are grouped by the `line_bytes` line of
//    their source address (lanes whose source is ignored or has src-size 0 too: they are grouped
//    by the address they name), and each group is written as a shared store of its lanes'
//    destinations (shared_banks.hpp, the store rule). The wavefronts add up over the groups.
//  - Lanes with 0 < src-size < cp-size (a zero-filled tail) take one more store of their
//    destinations (the H100: 8 wavefronts for a 16-byte copy of 8 bytes by a warp, 4 for 16).
//  - Bank conflicts: for .ca (LDGSTS.ACCESS) the wavefronts beyond the ideal of the whole warp's
//    store (ca4 with each lane on its own line: 32 wavefronts, 31 conflicts); for .cg
//    (LDGSTS.BYPASS) the conflicts within each store (the same pattern with .cg: 0).
// No allocation.
#pragma once

#include <cstdint>

#include "arch/profile.hpp"
#include "common/access.hpp"

namespace warpscope::mem {

struct AsyncCopyShared {
  std::uint32_t wavefronts = 0;
  std::uint32_t ideal_wavefronts = 0;  // wavefronts - bank_conflicts
  std::uint32_t bank_conflicts = 0;
};

/// `global` and `shared`: the two records of one cp.async (Op::kLdgsts; the same lanes, width and
/// masks; global.addr the sources, shared.addr the destinations).
AsyncCopyShared async_copy_shared(const arch::Profile& profile, const WarpAccess& global, const WarpAccess& shared);

}  // namespace warpscope::mem
