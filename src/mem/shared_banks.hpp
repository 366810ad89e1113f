// Shared-memory banks: how many wavefronts (passes through the banks) one warp's shared access
// takes, and how many of them are bank conflicts.
//
// Rule: the warp is served in passes of consecutive lanes whose accesses together span at most
// the profile's pass size (load_pass_bytes / store_pass_bytes) of lane width: lanes per pass =
// min(warp, pass_bytes / max(width, bank_bytes)). Inside a pass, each lane touches the bank words
// covering [addr, addr + width); a bank serves one distinct word per wavefront and lanes reading
// the same word share it (broadcast). The pass takes as many wavefronts as the most distinct
// words any one bank holds; its ideal is ceil(distinct words / banks), at least 1. Conflicts =
// wavefronts - ideal, as Nsight Compute counts l1tex__data_bank_conflicts_pipe_lsu_mem_shared.
// Every case measured on an H100 (tests/hw/data/h100/README.md) follows this rule.
#pragma once

#include <cstdint>

#include "arch/profile.hpp"
#include "common/access.hpp"

namespace warpscope::mem {

struct SharedBankResult {
  std::uint32_t wavefronts = 0;
  std::uint32_t ideal_wavefronts = 0;
  std::uint32_t bank_conflicts = 0;
  std::uint64_t bytes_requested = 0;  // distinct bytes the active lanes touch
};

SharedBankResult shared_access(const arch::Profile& profile, const WarpAccess& access);

}  // namespace warpscope::mem
