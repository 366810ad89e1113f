#include "exec/cfg.hpp"

#include <algorithm>

namespace warpscope::exec {

std::vector<std::uint32_t> immediate_postdominators(const std::vector<CfgInst>& insts) {
  const std::uint32_t n = static_cast<std::uint32_t>(insts.size());
  std::vector<std::uint32_t> result(n, kNoIpdom);
  if (n == 0) return result;

  // Basic blocks.
  std::vector<bool> leader(n + 1, false);
  leader[0] = true;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (insts[i].kind == CfgInst::Kind::kBranch && insts[i].target <= n) leader[insts[i].target] = true;
    for (std::uint32_t t : insts[i].more)
      if (t <= n) leader[t] = true;
    if (insts[i].kind != CfgInst::Kind::kPlain && i + 1 <= n) leader[i + 1] = true;
  }
  std::vector<std::uint32_t> block_of(n + 1, 0), start;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (leader[i]) start.push_back(i);
    block_of[i] = static_cast<std::uint32_t>(start.size() - 1);
  }
  const std::uint32_t nb = static_cast<std::uint32_t>(start.size());
  const std::uint32_t exit_node = nb;  // virtual exit; also stands for "falls off the end"
  block_of[n] = exit_node;
  std::vector<std::vector<std::uint32_t>> succ(nb + 1), pred(nb + 1);
  for (std::uint32_t b = 0; b < nb; ++b) {
    const std::uint32_t end = b + 1 < nb ? start[b + 1] : n;
    const CfgInst& last = insts[end - 1];
    auto add = [&](std::uint32_t to) {
      if (std::find(succ[b].begin(), succ[b].end(), to) == succ[b].end()) succ[b].push_back(to);
    };
    switch (last.kind) {
      case CfgInst::Kind::kPlain: add(end < n ? block_of[end] : exit_node); break;
      case CfgInst::Kind::kBranch:
        add(last.target < n ? block_of[last.target] : exit_node);
        for (std::uint32_t t : last.more) add(t < n ? block_of[t] : exit_node);
        if (last.guarded) add(end < n ? block_of[end] : exit_node);
        break;
      case CfgInst::Kind::kExit:
        add(exit_node);
        if (last.guarded) add(end < n ? block_of[end] : exit_node);
        break;
    }
  }
  for (std::uint32_t b = 0; b < nb; ++b)
    for (std::uint32_t s : succ[b]) pred[s].push_back(b);

  // Post-order of the reverse CFG from the exit (iterative DFS over predecessors).
  std::vector<std::uint32_t> order;  // post-order
  std::vector<std::uint8_t> state(nb + 1, 0);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> stack{{exit_node, 0}};
  state[exit_node] = 1;
  while (!stack.empty()) {
    auto& [node, idx] = stack.back();
    if (idx < pred[node].size()) {
      const std::uint32_t p = pred[node][idx++];
      if (state[p] == 0) {
        state[p] = 1;
        stack.push_back({p, 0});
      }
    } else {
      order.push_back(node);
      stack.pop_back();
    }
  }
  std::vector<std::uint32_t> po_num(nb + 1, kNoIpdom);
  for (std::uint32_t i = 0; i < order.size(); ++i) po_num[order[i]] = i;

  // Cooper, Harvey & Kennedy's iterative dominator algorithm on the reverse graph.
  std::vector<std::uint32_t> ipdom(nb + 1, kNoIpdom);
  ipdom[exit_node] = exit_node;
  auto intersect = [&](std::uint32_t a, std::uint32_t b) {
    while (a != b) {
      while (po_num[a] < po_num[b]) a = ipdom[a];
      while (po_num[b] < po_num[a]) b = ipdom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const std::uint32_t b = *it;
      if (b == exit_node) continue;
      std::uint32_t best = kNoIpdom;
      for (std::uint32_t s : succ[b]) {
        if (ipdom[s] == kNoIpdom) continue;  // not processed yet (or cannot reach the exit)
        best = best == kNoIpdom ? s : intersect(s, best);
      }
      if (best != kNoIpdom && ipdom[b] != best) {
        ipdom[b] = best;
        changed = true;
      }
    }
  }
  for (std::uint32_t b = 0; b < nb; ++b) {
    const std::uint32_t end = b + 1 < nb ? start[b + 1] : n;
    const std::uint32_t p = ipdom[b];
    result[end - 1] = (p == kNoIpdom || p == exit_node) ? kNoIpdom : start[p];
  }
  return result;
}

}  // namespace warpscope::exec
