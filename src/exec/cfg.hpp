// Control-flow graph of one function and its immediate post-dominators: where the lanes of a
// divergent branch reconverge (docs/exec.md, "Reconvergence").
#pragma once

#include <cstdint>
#include <vector>

namespace warpscope::exec {

/// What the CFG needs to know about one instruction.
struct CfgInst {
  enum class Kind : std::uint8_t { kPlain, kBranch, kExit };  // kExit: ret, exit, trap
  Kind kind = Kind::kPlain;
  bool guarded = false;          // a guarded branch/exit may also fall through
  std::uint32_t target = 0;      // kBranch: the target instruction (may be n: the end)
  std::vector<std::uint32_t> more;  // kBranch of brx.idx: its other targets
};

inline constexpr std::uint32_t kNoIpdom = 0xffffffffu;

/// For every instruction that ends a basic block, the first instruction of the block that
/// immediately post-dominates it; kNoIpdom when that is the virtual exit (the paths only meet
/// when the function returns) or when the block cannot reach an exit. Other entries are
/// kNoIpdom too. Indices are local to the function.
std::vector<std::uint32_t> immediate_postdominators(const std::vector<CfgInst>& insts);

}  // namespace warpscope::exec
