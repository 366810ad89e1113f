#include "analysis/sass_latency.hpp"

#include <algorithm>
#include <array>

#include "analysis/sass_graph.hpp"

namespace warpscope::analysis::sass {
namespace {

constexpr int kBarriers = 6;

bool waits_on(const Inst& in, int bar) { return ((in.wait_mask >> bar) & 1) != 0; }
bool sets(const Inst& in, int bar) { return in.write_barrier == bar || in.read_barrier == bar; }

/// Cycles block `b` issues before its first instruction that waits on `bar`; < 0 when the
/// block sets `bar` again first or never waits on it.
double cycles_before_wait(const Function& f, const detail::Graph& g, std::size_t b, int bar) {
  double t = 0;
  for (std::size_t i = g.first[b]; i < g.end(b); ++i) {
    const Inst& in = f.code[i];
    if (waits_on(in, bar)) return t;
    if (sets(in, bar)) return -1;
    t += std::max<int>(in.stall, 1);
  }
  return -1;
}

}  // namespace

std::vector<double> issue_costs(const Function& f, std::span<const double> latency, double read_latency,
                                std::span<const double> extra_stall) {
  std::vector<double> cost(f.code.size(), 0.0);
  if (f.code.empty()) return cost;
  const detail::Graph g = detail::sass_graph(f);
  for (std::size_t b = 0; b < g.first.size(); ++b) {
    std::array<double, kBarriers> ready{};  // when each scoreboard is released (block time)
    double next = 0;                        // earliest issue of the next instruction
    std::size_t last = g.first[b];
    for (std::size_t i = g.first[b]; i < g.end(b); ++i) {
      const Inst& in = f.code[i];
      double issue = next;
      for (int bar = 0; bar < kBarriers; ++bar)
        if (waits_on(in, bar)) issue = std::max(issue, ready[std::size_t(bar)]);
      const double lat = i < latency.size() ? latency[i] : 0.0;
      if (in.write_barrier < kBarriers) {
        auto& r = ready[in.write_barrier];
        r = std::max(r, issue + lat);
      }
      if (in.read_barrier < kBarriers) {
        auto& r = ready[in.read_barrier];
        r = std::max(r, issue + read_latency);
      }
      const double stall = std::max<int>(in.stall, 1) + (i < extra_stall.size() ? extra_stall[i] : 0.0);
      cost[i] = issue - next + stall;
      next = issue + stall;
      last = i;
    }
    // Scoreboards still pending: what the successors wait for them.
    double extra = 0;
    for (int bar = 0; bar < kBarriers; ++bar) {
      const double left = ready[std::size_t(bar)] - next;
      if (left <= 0) continue;
      for (std::uint32_t s : g.succ[b]) {
        const double before = cycles_before_wait(f, g, s, bar);
        if (before >= 0) extra = std::max(extra, left - before);
      }
    }
    cost[last] += extra;
  }
  return cost;
}

double warp_cycles(std::span<const double> costs, const LaunchSassCounts& counts) {
  double total = 0;
  for (std::size_t i = 0; i < costs.size() && i < counts.instructions.size(); ++i)
    total += static_cast<double>(counts.instructions[i].warp) * costs[i];
  return total;
}

}  // namespace warpscope::analysis::sass
