// Shared-memory banks: how many wavefronts (passes through the banks) one warp's shared-memory
// access takes, and how many of them are bank conflicts.
//
// Rule (CUDA C Programming Guide, compute capability 2.x+ "Shared Memory" and 1.x "Shared
// Memory"; design.md; measured on an H100, tests/hw/data/h100/README.md):
//  - Banks: `shared_banks` banks of `shared_bank_bytes` bytes; bank word k (address / bank_bytes)
//    is in bank k mod banks.
//  - The warp is served in phases of P consecutive lanes, P = min(warp_size,
//    pass_bytes / max(width, bank_bytes)), where pass_bytes is the profile's
//    shared_store_pass_bytes, or for loads its shared_load_pass_bytes where the load pairs its
//    lanes (below). With 128 B (32 banks x 4 B: Fermi and later stores) that is 32 lanes for
//    words of up to 4 bytes, 16 for 8 B and 8 for 16 B; cc 1.x (16 banks, 64 B) serves half-warps.
//  - A load pairs its lanes when every group of 4 consecutive lanes (0-3, 4-7, ...) names at most
//    2 distinct addresses among its active lanes. Where shared_load_pass_bytes is larger than the
//    store pass (Volta and later profiles: 256 B), only such a load gets the longer pass: the
//    H200 serves an LDS.64 whose lanes pair as one 32-lane phase and any other as two half-warps,
//    an LDS.128 as two half-warps or four quarter-warps (tests/hw/lds/lds_micro.cu: all 136
//    LDS.32/64/128 lane maps of tests/hw/data/h200/lds agree; so does the H100's column-major
//    .f64 wmma fragment, docs/mem.md). E.g. lane l at 8*(l/2) (lanes 2k, 2k+1 share a word): 1
//    wavefront; at 8*(l%16) (the same 128 bytes, lanes l and l+16 sharing): 2.
//  - Each active lane touches the bank words covering [addr, addr + width). A phase with an
//    active lane takes as many wavefronts as the largest number of DISTINCT bank words mapped to
//    one bank; lanes reading the same word share it (broadcast), so they cost nothing extra.
//  - ideal wavefronts of a phase = max(1, ceil(distinct bytes touched / (banks * bank_bytes))).
//  - Totals are sums over phases; bank_conflicts = wavefronts - ideal_wavefronts (what Nsight
//    Compute reports as l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}).
// Stores and loads follow the same rule (with their pass size). Atomics and reductions do not
// share words: each lane is its own operation, so a phase takes as many wavefronts as the most
// lanes falling in one bank (measured on the H200: shared_atomics.cu). An access with no active
// lane has 0 wavefronts. The access is validated first (access_check.hpp: width, alignment).
// No allocation; at most 64 banks.
#pragma once

#include <array>
#include <cstdint>

#include "arch/profile.hpp"
#include "common/access.hpp"

namespace warpscope::mem {

/// One phase of a shared access that has at least one active lane.
/// (No default member values: a result holds 32 of them and only phase_count are filled in; not
/// zeroing the rest keeps shared_access cheap, on the interpreter's hot path.)
struct SharedPhase {
  LaneMask lanes;  // the active lanes of the phase
  std::uint32_t wavefronts;
  std::uint32_t ideal_wavefronts;
  std::uint64_t first_addr;  // lowest address the phase touches
};

struct SharedBankResult {
  std::uint32_t wavefronts = 0;
  std::uint32_t ideal_wavefronts = 0;
  std::uint32_t bank_conflicts = 0;   // wavefronts - ideal_wavefronts
  std::uint64_t bytes_requested = 0;  // distinct bytes the active lanes touch
  std::uint32_t lanes_per_phase = 0;  // P
  std::uint32_t phase_count = 0;      // phases with an active lane, listed in `phases`
  std::array<SharedPhase, kMaxWarpSize> phases;  // [0, phase_count) are set
};

/// Lanes per phase P for an access of `width` bytes by operation `op` on this profile (for a
/// load: the P of one that pairs its lanes).
std::uint32_t shared_lanes_per_phase(const arch::Profile& profile, Op op, std::uint32_t width);
/// True when every group of 4 consecutive lanes of `access` names at most 2 distinct addresses.
bool shared_load_pairs_lanes(const WarpAccess& access);
/// P for this access: the store pass's lanes for a load that does not pair its lanes.
std::uint32_t shared_lanes_per_phase(const arch::Profile& profile, const WarpAccess& access);

SharedBankResult shared_access(const arch::Profile& profile, const WarpAccess& access);
/// The same, with the record's summary already made (summarize_addresses(access)).
SharedBankResult shared_access(const arch::Profile& profile, const WarpAccess& access, const AddressSummary& summary);

}  // namespace warpscope::mem
