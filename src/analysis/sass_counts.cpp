#include "analysis/sass_counts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "analysis/sass_graph.hpp"

namespace warpscope::analysis::sass {
namespace {

using detail::Graph;

constexpr std::uint16_t kBaseBsync = 0x141;

struct BlockCount {
  bool known = false;
  bool exact = false;
  std::uint64_t warp = 0, thread = 0;
};

std::uint64_t at(std::span<const std::uint64_t> v, std::size_t i) { return i < v.size() ? v[i] : 0; }

}  // namespace

std::uint64_t LaunchSassCounts::warp_of(InstClass c) const {
  std::uint64_t n = 0;
  for (const OpcodeCount& o : opcodes)
    if (o.cls == c) n += o.warp;
  return n;
}

std::uint64_t LaunchSassCounts::thread_of(InstClass c) const {
  std::uint64_t n = 0;
  for (const OpcodeCount& o : opcodes)
    if (o.cls == c) n += o.thread;
  return n;
}

LaunchSassCounts count_launch(const Function& sass, std::span<const PtxInst> ptx, std::span<const std::uint64_t> pc_warp,
                              std::span<const std::uint64_t> pc_thread) {
  LaunchSassCounts r;
  r.available = true;
  r.exact = true;
  const auto& code = sass.code;

  // The PTX side: blocks, their warp executions and active lanes, and which pc a PTX line is.
  const Graph pg = detail::ptx_graph(ptx);
  std::map<std::uint32_t, std::uint32_t> pc_of_line;
  for (std::size_t pc = 0; pc < ptx.size(); ++pc)
    if (ptx[pc].ptx_line != 0) pc_of_line.emplace(ptx[pc].ptx_line, static_cast<std::uint32_t>(pc));
  auto ptx_pc = [&](std::uint32_t line) -> std::int64_t {
    const auto it = line == 0 ? pc_of_line.end() : pc_of_line.find(line);
    return it == pc_of_line.end() ? -1 : static_cast<std::int64_t>(it->second);
  };
  const std::size_t npb = pg.first.size();
  std::vector<BlockCount> pblock(npb);
  for (std::size_t pb = 0; pb < npb; ++pb) {
    BlockCount& c = pblock[pb];
    c.known = true;
    c.exact = false;
    std::uint64_t guarded_max = 0;
    for (std::size_t pc = pg.first[pb]; pc < pg.end(pb); ++pc) {
      c.warp = std::max(c.warp, at(pc_warp, pc));
      // An unguarded instruction's lanes are the block's active lanes; a guarded one's only
      // those whose guard was true.
      if (!ptx[pc].guarded && !c.exact) {
        c.thread = at(pc_thread, pc);
        c.exact = true;
      }
      guarded_max = std::max(guarded_max, at(pc_thread, pc));
    }
    if (!c.exact) c.thread = guarded_max;
  }

  // The machine code's blocks: a BSYNC also ends one (the paths that arrive separately go on as
  // one warp).
  std::vector<detail::Flow> flow = detail::sass_flow(sass);
  for (std::size_t i = 0; i < code.size(); ++i) {
    if ((code[i].opcode & 0x1ff) == kBaseBsync) flow[i].ends = true;
  }
  const Graph sg = detail::build_graph(flow);
  const std::size_t nb = sg.first.size();
  std::vector<bool> reachable = sg.reachable;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i].kind != Kind::kCall || !reachable[sg.block_of[i]]) continue;
    const std::int64_t t = detail::index_of(code[i].target);
    if (t >= 0 && std::uint64_t(t) < code.size()) detail::mark_reachable(sg.succ, reachable, {sg.block_of[std::size_t(t)]});
  }
  std::vector<std::vector<std::uint32_t>> preds(nb);
  for (std::size_t b = 0; b < nb; ++b)
    for (std::uint32_t s : sg.succ[b]) preds[s].push_back(static_cast<std::uint32_t>(b));

  // Each block follows the PTX block most of its instructions came from: unguarded instructions
  // vote first (a block ptxas if-converted keeps the branch's own block unguarded), among PTX
  // blocks that are in a loop exactly when it is.
  std::vector<BlockCount> sblock(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    if (!reachable[b]) {
      sblock[b] = BlockCount{true, true, 0, 0};
      continue;
    }
    // A subroutine ptxas calls (64-bit division, ...): its lines are the PTX instruction it
    // implements, which the interpreter runs without it; it runs when its CALLs do (below).
    if (!sg.reachable[b]) continue;
    // The slow path of one PTX instruction (a block that calls such a subroutine, all of its lines
    // that one instruction's: division of operands the fast path does not take, ...): which path
    // an execution takes depends on the operands, which the PTX counts do not say. The H100's
    // Source pages show these paths never taken in the corpus: counted 0, estimated.
    {
      bool call = false, one_pc = true;
      std::int64_t only = -1;
      for (std::size_t i = sg.first[b]; i < sg.end(b); ++i) {
        call = call || code[i].kind == Kind::kCall;
        const std::int64_t pc = ptx_pc(code[i].ptx_line);
        if (pc < 0) continue;
        if (only >= 0 && pc != only) one_pc = false;
        only = pc;
      }
      if (call && one_pc && only >= 0) {
        sblock[b] = BlockCount{true, false, 0, 0};
        r.notes.push_back(fmt::format("block at 0x{:x}: the slow path of PTX instruction {} (a subroutine call), "
                                      "assumed not taken",
                                      code[sg.first[b]].offset, only));
        continue;
      }
    }
    std::map<std::uint32_t, std::uint32_t> votes[4];  // [guarded][loose]
    for (std::size_t i = sg.first[b]; i < sg.end(b); ++i) {
      const std::int64_t pc = ptx_pc(code[i].ptx_line);
      if (pc < 0) continue;
      const std::uint32_t pb = pg.block_of[std::size_t(pc)];
      const int g = code[i].guarded() ? 2 : 0;
      ++votes[g + 1][pb];
      if (pg.in_loop[pb] == sg.in_loop[b]) ++votes[g][pb];
    }
    // A block outside every loop whose lines are only a loop's (ptxas's checks before an unrolled
    // loop) runs once per entry: it is counted from its predecessors below.
    if (!sg.in_loop[b] && votes[0].empty() && votes[2].empty()) continue;
    // A BSYNC runs once per path that arrives: counted from its predecessors below.
    if ((code[sg.first[b]].opcode & 0x1ff) == kBaseBsync) continue;
    for (const auto& v : votes) {
      if (v.empty()) continue;
      std::uint32_t best = 0, chosen = 0, second = 0;
      for (const auto& [pb, n] : v) {
        if (n > best) {
          second = best;
          best = n, chosen = pb;
        } else if (n > second) {
          second = n;
        }
      }
      sblock[b] = pblock[chosen];
      sblock[b].known = true;
      // Two PTX blocks with different counts share the votes: ptxas merged blocks.
      bool split = false;
      for (const auto& [pb, n] : v)
        if (pb != chosen && pblock[pb].warp != pblock[chosen].warp && 2 * n >= best) split = true;
      if (split || &v != &votes[0]) {
        sblock[b].exact = false;
        r.notes.push_back(fmt::format("block at 0x{:x}: follows PTX block {} ({})", code[sg.first[b]].offset, chosen,
                                      split ? "its lines fall in blocks with other counts"
                                            : "no unguarded instruction of a PTX block in the same loop"));
      }
      break;
    }
  }

  // Loops ptxas unrolled: a machine-code block in a loop that holds k copies of its PTX block's
  // memory instructions runs a k-th as often. The PTX block's executions N are shared out over its
  // copies, widest first, as a loop whose every entry runs the same number of iterations would:
  // C = floor(R / k), R -= k * C (estimated).
  std::map<std::uint32_t, std::vector<std::pair<std::uint32_t, std::uint32_t>>> copies_of;  // pb -> (copies, b)
  for (std::size_t b = 0; b < nb; ++b) {
    if (!reachable[b] || !sg.in_loop[b] || !sblock[b].known) continue;
    std::map<std::int64_t, std::uint32_t> per_pc;
    std::int64_t pb = -1;
    for (std::size_t i = sg.first[b]; i < sg.end(b); ++i) {
      if (!code[i].memory()) continue;
      const std::int64_t pc = ptx_pc(code[i].ptx_line);
      if (pc < 0 || !pg.in_loop[pg.block_of[std::size_t(pc)]]) continue;
      ++per_pc[pc];
      pb = pg.block_of[std::size_t(pc)];
    }
    if (per_pc.empty()) continue;
    std::uint32_t k = ~0u;
    for (const auto& [pc, n] : per_pc) k = std::min(k, n);
    copies_of[static_cast<std::uint32_t>(pb)].emplace_back(k, static_cast<std::uint32_t>(b));
  }
  for (auto& [pb, list] : copies_of) {
    const bool unrolled = std::any_of(list.begin(), list.end(), [](const auto& x) { return x.first > 1; });
    if (!unrolled) continue;
    std::sort(list.begin(), list.end(), std::greater<>());
    std::uint64_t rest = pblock[pb].warp;
    const std::uint64_t n = std::max<std::uint64_t>(pblock[pb].warp, 1);
    for (const auto& [k, b] : list) {
      const std::uint64_t c = rest / k;
      rest -= c * k;
      sblock[b].warp = c;
      sblock[b].thread = pblock[pb].thread * c / n;
      sblock[b].exact = false;
      r.notes.push_back(fmt::format("block at 0x{:x}: {} copies of PTX block {} (a loop ptxas unrolled): {} of its {} "
                                    "executions",
                                    code[sg.first[b]].offset, k, pb, c, pblock[pb].warp));
    }
  }

  // Blocks with no PTX line (a lone EXIT, BSYNC or BRA): from their predecessors.
  // Subroutine entries: the executions of the blocks that call them.
  std::map<std::uint32_t, std::vector<std::uint32_t>> callers;  // entry block -> calling blocks
  for (std::size_t i = 0; i < code.size(); ++i) {
    const std::int64_t t = code[i].kind == Kind::kCall ? detail::index_of(code[i].target) : -1;
    if (t >= 0 && std::uint64_t(t) < code.size() && reachable[sg.block_of[i]])
      callers[sg.block_of[std::size_t(t)]].push_back(sg.block_of[i]);
  }
  for (bool progress = true; progress;) {
    progress = false;
    for (std::size_t b = 0; b < nb; ++b) {
      if (sblock[b].known) continue;
      if (const auto it = callers.find(static_cast<std::uint32_t>(b)); it != callers.end() && preds[b].empty()) {
        const auto& from = it->second;
        if (!std::all_of(from.begin(), from.end(), [&](std::uint32_t p) { return sblock[p].known; })) continue;
        BlockCount c{true, true, 0, 0};
        for (std::uint32_t p : from) {
          c.warp += sblock[p].warp;
          c.thread += sblock[p].thread;
          c.exact = c.exact && sblock[p].exact;
        }
        if (c.warp != 0) {
          c.exact = false;
          r.notes.push_back(fmt::format("block at 0x{:x}: a subroutine the machine code calls ({} times)",
                                        code[sg.first[b]].offset, c.warp));
        }
        sblock[b] = c;
        progress = true;
        continue;
      }
      if (preds[b].empty()) continue;
      if (!std::all_of(preds[b].begin(), preds[b].end(), [&](std::uint32_t p) { return sblock[p].known; })) continue;
      BlockCount c{true, true, 0, 0};
      for (std::uint32_t p : preds[b]) {
        const BlockCount& pc = sblock[p];
        if (sg.succ[p].size() == 1) {
          c.warp += pc.warp;
          c.thread += pc.thread;
          c.exact = c.exact && pc.exact;
          continue;
        }
        // A conditional edge: the executions that did not go the other way (exact when no warp
        // went both ways).
        const std::uint32_t other = sg.succ[p][0] == b ? sg.succ[p][1] : sg.succ[p][0];
        const BlockCount& o = sblock[other];
        const bool into_bsync = (code[sg.first[b]].opcode & 0x1ff) == kBaseBsync;
        // What p sends the other way: the other successor's executions and lanes less those of its
        // other predecessors, when each of them has one successor (a loop's back edge: the loop
        // head's executions less its entries from before the loop).
        bool other_known = o.known;
        std::uint64_t other_warp = o.warp, other_thread = o.thread;
        for (std::uint32_t q : preds[other]) {
          if (q == p) continue;
          if (!sblock[q].known || sg.succ[q].size() != 1) {
            other_known = false;
            break;
          }
          other_warp -= std::min(other_warp, sblock[q].warp);
          other_thread -= std::min(other_thread, sblock[q].thread);
        }
        // Lanes go one way or the other: the lanes here are p's less the other successor's.
        const std::uint64_t lanes = other_known ? pc.thread - std::min(pc.thread, other_thread) : pc.thread;
        c.thread += lanes;
        // An edge no lane took was taken by no warp. Into a BSYNC from an if, the paths ptxas
        // expects to diverge: every execution of p sends lanes (an upper bound, exact when each
        // warp that ran the other way also had lanes here); from a loop's exit branch, the
        // executions that did not go round again (exact when every warp leaves in one iteration).
        std::uint64_t warps = pc.warp;
        if (other_known && lanes == 0) {
          warps = 0;
        } else if (other_known && (!into_bsync || preds[other].size() > 1)) {
          warps = pc.warp - std::min(pc.warp, other_warp);
        }
        c.warp += warps;
        if (pc.warp != 0 || !pc.exact) c.exact = false;
      }
      if (!c.exact)
        r.notes.push_back(fmt::format("block at 0x{:x}: no PTX line, counted from its predecessors' branches",
                                      code[sg.first[b]].offset));
      sblock[b] = c;
      progress = true;
    }
  }
  for (std::size_t b = 0; b < nb; ++b) {
    if (sblock[b].known) continue;
    r.notes.push_back(fmt::format("block at 0x{:x}: no PTX line and no counted predecessor: not counted",
                                  code[sg.first[b]].offset));
    sblock[b] = BlockCount{true, false, 0, 0};
  }

  // Per instruction and per opcode.
  std::map<std::string_view, OpcodeCount> by_name;
  r.instructions.reserve(code.size());
  for (std::size_t i = 0; i < code.size(); ++i) {
    const Inst& in = code[i];
    const BlockCount& c = sblock[sg.block_of[i]];
    if (!c.exact) r.exact = false;
    InstCount ic;
    ic.offset = in.offset;
    ic.opcode = in.opcode;
    ic.ptx_pc = ptx_pc(in.ptx_line);
    if (ic.ptx_pc < 0 && in.ptx_line != 0 && i == 0) {
      // The stack pointer's set-up (LDC R1), on the entry's line, which is no instruction: the
      // first instruction's line for the per-line table, as ncu puts it on the function's first line.
      const auto it = pc_of_line.lower_bound(in.ptx_line);
      if (it != pc_of_line.end()) ic.ptx_pc = it->second;
    }
    ic.warp = c.warp;
    ic.thread = c.thread;
    ic.thread_pred_on = c.thread;
    if (in.guarded() && ic.ptx_pc >= 0) ic.thread_pred_on = std::min(c.thread, at(pc_thread, std::size_t(ic.ptx_pc)));
    // `@!PT`: the constant-true predicate negated, true on no lane (ptxas puts `@!PT LDS RZ, [RZ]`
    // before an LDGSTS; the H200 counts 0 predicated-on lanes for each).
    if (in.guard == kNoGuard && in.guard_negated) ic.thread_pred_on = 0;
    r.instructions.push_back(ic);
    if (ic.warp == 0) continue;
    r.warp_instructions += ic.warp;
    r.thread_instructions += ic.thread;
    r.thread_pred_on += ic.thread_pred_on;
    const OpcodeInfo info = opcode_info(in.opcode);
    OpcodeCount& o = by_name[info.mnemonic];
    o.mnemonic = std::string(info.mnemonic);
    o.cls = info.cls;
    o.warp += ic.warp;
    o.thread += ic.thread;
    o.thread_pred_on += ic.thread_pred_on;
  }
  for (auto& [name, o] : by_name) r.opcodes.push_back(std::move(o));
  return r;
}

}  // namespace warpscope::analysis::sass
