// Thread-block clusters (docs/exec.md, "Clusters"): which CTAs form a cluster, their special
// registers, the shared memory of the cluster's other CTAs (distributed shared memory), and the
// cluster barrier (barrier.cluster.arrive / wait, cooperative_groups' cluster.sync()).
//
// The CTAs of a cluster take turns on one host thread (coop.cpp, run_cooperative), so a CTA may
// wait for its peers. Every CTA of the cluster is prepared (shared memory, warps) before any of
// them runs, and keeps its shared memory until the whole cluster has finished: an access to the
// shared memory of a CTA that has exited is the ISA's undefined case, reported as such.
//
// The cluster barrier counts threads: a thread arrives once per phase; the phase completes when
// every thread of the cluster has arrived or exited (PTX ISA, barrier.cluster: "wait for all
// non-exited threads of the cluster to perform barrier.cluster.arrive"). A thread that waits
// stays at the wait until the phase it arrived in has completed.
#include <bit>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exec/fault.hpp"
#include "exec/launch.hpp"
#include "exec/machine.hpp"
#include "exec/memaccess.hpp"
#include "exec/memory.hpp"
#include "exec/sanitize.hpp"
#include "ptx/ptx.hpp"

namespace warpscope::exec {

ClusterShape::ClusterShape(Dim3 g, Dim3 c) : grid(g), cluster(c) {
  if (cluster.x == 0) cluster.x = 1;
  if (cluster.y == 0) cluster.y = 1;
  if (cluster.z == 0) cluster.z = 1;
  clusters = Dim3{grid.x / cluster.x, grid.y / cluster.y, grid.z / cluster.z};
  size = std::uint64_t(cluster.x) * cluster.y * cluster.z;
  count = std::uint64_t(clusters.x) * clusters.y * clusters.z;
}

std::vector<std::uint32_t> ClusterShape::members(std::uint64_t k) const {
  const std::uint64_t cx = k % clusters.x, cy = (k / clusters.x) % clusters.y, cz = k / (std::uint64_t(clusters.x) * clusters.y);
  std::vector<std::uint32_t> out;
  out.reserve(size);
  for (std::uint32_t z = 0; z < cluster.z; ++z)
    for (std::uint32_t y = 0; y < cluster.y; ++y)
      for (std::uint32_t x = 0; x < cluster.x; ++x) {
        const std::uint64_t gx = cx * cluster.x + x, gy = cy * cluster.y + y, gz = cz * cluster.z + z;
        out.push_back(static_cast<std::uint32_t>(gx + grid.x * (gy + std::uint64_t(grid.y) * gz)));
      }
  return out;
}

void CtaRunner::prepare(CtaState& c, AccessSink* sink) {
  swap_state(c);
  begin_cta(c.linear, sink, &c.text);
  c.started = true;
  swap_state(c);
}

void CtaRunner::enter_cluster(ClusterCtx* cluster, std::uint32_t rank) {
  peer_shared_.fill(nullptr);
  if (cluster == nullptr || cluster->by_rank.size() <= 1) {
    peer_shared_[0] = shared_.data();
    x_.cluster_shared = peer_shared_.data();
    x_.cluster_rank = 0;
    x_.cluster_ctas = 1;
    return;
  }
  // A peer that has exited keeps its memory (the cluster's CTAs are freed together), but an
  // access to it is undefined: its pointer is left null (cluster_shared reports it).
  for (std::uint32_t r = 0; r < cluster->by_rank.size(); ++r) {
    const CtaState* c = cluster->by_rank[r];
    peer_shared_[r] = r == rank ? shared_.data() : c->finished ? nullptr : const_cast<std::uint8_t*>(c->shared.data());
  }
  x_.cluster_shared = peer_shared_.data();
  x_.cluster_rank = rank;
  x_.cluster_ctas = static_cast<std::uint32_t>(cluster->by_rank.size());
}

std::uint8_t* cluster_shared(Ctx& x, const Inst& in, unsigned lane, std::uint64_t off, unsigned w, Op op,
                             std::uint64_t shown, bool generic, Space& space, std::uint64_t& space_addr) {
  // Rank r's addresses carry r + 1 above the offset (memory.hpp): the CTA's own plain offsets
  // never reach this function.
  const std::uint64_t tag = off >> kClusterRankShift;
  const std::uint64_t rank = tag - 1;
  const std::uint64_t o = off & ((std::uint64_t{1} << kClusterRankShift) - 1);
  if (tag == 0 || rank >= x.cluster_ctas || o > x.shared_size || x.shared_size - o < w || x.cluster_shared == nullptr) return nullptr;
  if (rank == x.cluster_rank) {
    space = Space::kShared;
    space_addr = o;
    return x.cluster_shared[rank] + o;
  }
  std::uint8_t* base = x.cluster_shared[rank];
  if (base == nullptr) {
    lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
               fmt::format("{} of the shared memory of cluster rank {} ({} address 0x{:x}), whose block has exited: "
                           "the PTX ISA leaves an access to the shared memory of an exited block of the cluster "
                           "undefined (wait at a cluster barrier before a block exits)",
                           to_string(op), rank, generic ? "generic" : "shared::cluster", shown));
  }
  space = Space::kDsmem;
  space_addr = off;
  return base + o;
}

bool CtaRunner::cluster_barrier(WarpState& w, const Inst& in, std::uint32_t pc, std::uint32_t m) {
  ClusterCtx& c = *cluster_;
  if (c.live == 0 && c.remaining == 0 && c.phase == 0) {
    // First use in this CTA group: every thread of the cluster (or of the CTA alone) is live.
    const std::uint64_t threads = std::uint64_t(cfg_.block.x) * cfg_.block.y * cfg_.block.z;
    c.live = threads * std::max<std::size_t>(1, c.by_rank.size());
    c.remaining = c.live;
    // Threads that exited before the first use no longer hold the barrier up.
    for (std::size_t r = 0; r < std::max<std::size_t>(1, c.by_rank.size()); ++r) {
      const std::vector<WarpState>& ws = c.by_rank.empty() || c.by_rank[r]->warps.empty() ? warps_ : c.by_rank[r]->warps;
      if (c.by_rank.size() > 1 && c.by_rank[r]->finished) {
        c.live -= threads;
        c.remaining -= threads;
        continue;
      }
      for (const WarpState& o : ws) {
        const std::uint64_t gone = static_cast<std::uint64_t>(std::popcount(o.exists & ~o.live));
        c.live -= gone;
        c.remaining -= gone;
      }
    }
  }
  const unsigned first = static_cast<unsigned>(std::countr_zero(m));
  if (in.aux == 0) {  // arrive
    bool bad = false;
    for_lanes(m, [&](unsigned l) { bad = bad || w.cluster_arrived[l] == c.phase + 1; });
    if (bad) {
      lane_fault(x_, pc, ErrorKind::kUndefined, first,
                 "barrier.cluster.arrive by a thread that has already arrived in the current phase of the cluster "
                 "barrier without waiting for it (the PTX ISA requires barrier.cluster.wait between two arrivals)");
    }
    for_lanes(m, [&](unsigned l) { w.cluster_arrived[l] = c.phase + 1; });
    // racecheck: the arrival releases what the lanes did before it (not with .relaxed).
    if (race_) race_->cluster_arrive(w.index, m, c.phase, k_.ir_instruction(pc).order == ptx::MemOrder::kRelaxed);
    c.remaining -= static_cast<std::uint64_t>(std::popcount(m));
    if (c.remaining == 0) {
      ++c.phase;
      c.remaining = c.live;
      if (race_) race_->cluster_phase(c.phase);
    }
    progress_ = true;
    return true;
  }
  // wait
  bool never = false, pending = false;
  for_lanes(m, [&](unsigned l) {
    if (w.cluster_arrived[l] == 0) never = true;
    else if (w.cluster_arrived[l] == c.phase + 1) pending = true;
  });
  if (never) {
    lane_fault(x_, pc, ErrorKind::kUndefined, first,
               "barrier.cluster.wait by a thread that has not arrived at the cluster barrier "
               "(barrier.cluster.arrive must come first)");
  }
  if (pending) {
    w.spinning = true;
    w.spin_pc = pc;
    return false;
  }
  if (race_) race_->cluster_wait(w.index, m, w.cluster_arrived[first] - 1);  // the phase it arrived in
  for_lanes(m, [&](unsigned l) { w.cluster_arrived[l] = 0; });
  if (w.spinning) {
    w.spinning = false;
    progress_ = true;
  }
  return true;
}

void CtaRunner::cluster_exited(WarpState& w, std::uint32_t lanes) {
  ClusterCtx& c = *cluster_;
  if (c.live == 0) return;  // the cluster barrier has not been used yet
  c.live -= static_cast<std::uint64_t>(std::popcount(lanes));
  std::uint32_t waiting = 0;  // exited lanes that had not arrived in the current phase
  for_lanes(lanes, [&](unsigned l) {
    if (w.cluster_arrived[l] != c.phase + 1) waiting |= 1u << l;
    w.cluster_arrived[l] = 0;
  });
  c.remaining -= static_cast<std::uint64_t>(std::popcount(waiting));
  if (c.remaining == 0 && c.live != 0) {
    ++c.phase;
    c.remaining = c.live;
    if (race_) race_->cluster_phase(c.phase);
  }
}

}  // namespace warpscope::exec
