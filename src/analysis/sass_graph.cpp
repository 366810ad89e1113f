#include "analysis/sass_graph.hpp"

namespace warpscope::analysis::sass::detail {

/// Marks in `seen` every block reachable from `work` along succ (blocks already marked stop the walk).
void mark_reachable(const std::vector<std::vector<std::uint32_t>>& succ, std::vector<bool>& seen,
                    std::vector<std::uint32_t> work) {
  while (!work.empty()) {
    const std::uint32_t b = work.back();
    work.pop_back();
    if (seen[b]) continue;
    seen[b] = true;
    for (std::uint32_t s : succ[b]) work.push_back(s);
  }
}

Graph build_graph(const std::vector<Flow>& flow) {
  const std::size_t n = flow.size();
  Graph g;
  std::vector<bool> leader(n + 1, false);
  if (n) leader[0] = true;
  for (std::size_t i = 0; i < n; ++i) {
    if (flow[i].ends) leader[i + 1] = true;
    if (flow[i].target >= 0 && std::uint64_t(flow[i].target) < n) leader[std::size_t(flow[i].target)] = true;
    if (flow[i].also >= 0 && std::uint64_t(flow[i].also) < n) leader[std::size_t(flow[i].also)] = true;
  }
  g.block_of.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (leader[i]) g.first.push_back(static_cast<std::uint32_t>(i));
    g.block_of[i] = static_cast<std::uint32_t>(g.first.size() - 1);
  }
  const std::size_t nb = g.first.size();
  g.succ.resize(nb);
  for (std::size_t b = 0; b < nb; ++b) {
    const std::size_t last = (b + 1 < nb ? g.first[b + 1] : n) - 1;
    const Flow& f = flow[last];
    if (f.target >= 0 && std::uint64_t(f.target) < n) g.succ[b].push_back(g.block_of[std::size_t(f.target)]);
    if (f.falls && last + 1 < n) g.succ[b].push_back(g.block_of[last + 1]);
  }
  auto reach_from = [&](std::vector<std::uint32_t> work) {
    std::vector<bool> seen(nb, false);
    mark_reachable(g.succ, seen, std::move(work));
    return seen;
  };
  g.reachable = nb ? reach_from({0}) : std::vector<bool>{};
  g.in_loop.assign(nb, false);
  for (std::size_t b = 0; b < nb; ++b) {
    const std::vector<bool> r = reach_from(g.succ[b]);  // b is in a loop iff it reaches itself
    g.in_loop[b] = r[b];
  }
  return g;
}

/// The PTX function's blocks and loops.
Graph ptx_graph(std::span<const PtxInst> ptx) {
  std::vector<Flow> flow(ptx.size());
  for (std::size_t pc = 0; pc < ptx.size(); ++pc) {
    if (ptx[pc].flow == PtxInst::Flow::kPlain) continue;
    flow[pc].ends = true;
    flow[pc].falls = ptx[pc].guarded;
    if (ptx[pc].flow == PtxInst::Flow::kBranch) flow[pc].target = ptx[pc].target;
  }
  return build_graph(flow);
}


std::vector<Flow> sass_flow(const Function& sass) {
  const auto& code = sass.code;
  std::vector<Flow> sflow(code.size());
  for (std::size_t i = 0; i < code.size(); ++i) {
    const Inst& in = code[i];
    Flow& f = sflow[i];
    switch (in.kind) {
      case Kind::kBranch:
        f.ends = true;
        f.falls = in.guarded();
        f.target = index_of(in.target);
        break;
      case Kind::kExit:
      case Kind::kReturn:
        f.ends = true;
        f.falls = in.guarded();
        break;
      case Kind::kCall: f.also = index_of(in.target); break;  // a subroutine's entry starts a block
      case Kind::kSyncPoint: f.also = index_of(in.target); break;
      default: break;
    }
  }
  return sflow;
}

Graph sass_graph(const Function& sass) { return build_graph(sass_flow(sass)); }

}  // namespace warpscope::analysis::sass::detail
