// brx.idx's lanes grouped by target, for the warp loop (warp.cpp; docs/exec.md "Warps, divergence
// and reconvergence").
#pragma once

#include <cstdint>

#include "exec/program.hpp"

namespace warpscope::exec {

struct Split;

/// The distinct targets tlist[index[l]] of the lanes in `m`, in order of first appearance, with
/// their lanes; returns how many. An index outside the list is Error(kUndefined) naming it.
unsigned brx_groups(const Ctx& x, const KernelImage& k, const Inst& in, std::uint32_t pc, std::uint32_t m,
                    const std::uint64_t* regs, std::uint32_t (&group_pc)[kLanes], std::uint32_t (&group_mask)[kLanes]);

/// Pushes the paths of a divergent brx.idx onto the reconvergence stack, each reconverging at `r`:
/// one per target in reverse order (the first target's lanes run first), then the guard's false
/// lanes `fall` at `next` (they run before them); a path that starts at `r` is not pushed.
void brx_push(Split& s, std::uint32_t r, std::uint32_t next, std::uint32_t fall, unsigned groups,
              const std::uint32_t (&group_pc)[kLanes], const std::uint32_t (&group_mask)[kLanes]);

}  // namespace warpscope::exec
