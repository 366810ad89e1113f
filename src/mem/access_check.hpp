// Validation of a warp access record before the memory model uses it.
//
// Contract: check_access() throws Error(kUsage) for a width other than 1, 2, 4, 8 or 16 bytes,
// and Error(kMisaligned) when an active lane's address is not a multiple of the width (the
// hardware faults on such words; seed 002 and the CUDA C Programming Guide, "Device Memory
// Accesses": words must be naturally aligned). The message names the lowest such lane, its
// address in hex, the width and the space. Inactive lanes are not looked at. No allocation.
#pragma once

#include "common/access.hpp"

namespace warpscope::mem {

void check_access(const WarpAccess& access);  // uses access.summary when access.summarized
/// The same, with the record's summary already made (summarize_addresses(access)): no pass over
/// the lanes unless an address is misaligned.
void check_access(const WarpAccess& access, const AddressSummary& summary);

}  // namespace warpscope::mem
