// Control flow of a function's PTX and machine code (sass.cpp, sass_counts.cpp): basic blocks,
// their successors, which are reachable and which are in a loop. Internal to src/analysis.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "analysis/sass.hpp"

namespace warpscope::analysis::sass::detail {

/// Basic blocks of a function given, per instruction, its successors' rule.
struct Graph {
  std::vector<std::uint32_t> block_of;          // per instruction
  std::vector<std::uint32_t> first;             // per block: first instruction
  std::vector<std::vector<std::uint32_t>> succ; // per block
  std::vector<bool> reachable, in_loop;         // per block
  /// One past the last instruction of block b.
  std::size_t end(std::size_t b) const { return b + 1 < first.size() ? first[b + 1] : block_of.size(); }
};

struct Flow {
  bool ends = false;       // ends its block
  bool falls = true;       // may go on to the next instruction
  std::int64_t target = -1;  // instruction index it may jump to
  std::int64_t also = -1;    // another block leader (BSSY's meeting point), no edge
};

/// Marks in `seen` every block reachable from `work` along succ (blocks already marked stop the walk).
void mark_reachable(const std::vector<std::vector<std::uint32_t>>& succ, std::vector<bool>& seen,
                    std::vector<std::uint32_t> work);
Graph build_graph(const std::vector<Flow>& flow);
/// The PTX function's blocks and loops.
Graph ptx_graph(std::span<const PtxInst> ptx);
/// Instruction index of a byte offset in a function's code; -1 when it is not on an instruction.
inline std::int64_t index_of(std::int64_t byte) { return byte >= 0 && byte % 16 == 0 ? byte / 16 : -1; }
/// The machine code's flow rule per instruction (branches, exits, returns end blocks; CALL and
/// BSSY targets start blocks).
std::vector<Flow> sass_flow(const Function& sass);
/// The machine code's blocks and loops.
Graph sass_graph(const Function& sass);

}  // namespace warpscope::analysis::sass::detail
