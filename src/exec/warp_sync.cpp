// Warp-synchronous instructions (Ctl::kWarpSync): shfl.sync, vote.sync, match.sync, redux.sync,
// elect.sync and bar.warp.sync, executed by lanes that may name different membermasks.
//
// The PTX ISA's rules (sm_70 and later): an executing lane must be in its own membermask; the
// instruction waits until every non-exited lane named in the membermask has executed it (the same
// instruction with the same qualifiers; for bar.warp.sync, any bar.warp.sync) with the same
// membermask; anything else is undefined. So lanes with different membermasks form separate
// groups, each computing on its own lanes (what cg::labeled_partition, tiled_partition,
// coalesced_threads and cg::reduce compile to). Here:
//
//  - Fast path: every executing lane has the same membermask and it names exactly the executing
//    lanes among the non-exited ones: one group, no waiting.
//  - A lane not in its own membermask, or a named lane that is at the instruction but whose guard
//    is false, is an error (ErrorKind::kUndefined) naming the kernel, line, warp, lane and masks.
//  - Named non-exited lanes that run elsewhere (divergent, e.g. waiting at the reconvergence point
//    after an early `return`): the executing lanes wait at the instruction (the split forks, as at
//    a barrier) and the others run on. They go on when the named lanes have arrived at the same
//    instruction (or, for bar.warp.sync, at any bar.warp.sync) or exited. Masks are compared on
//    the non-exited lanes: lanes whose masks differ there, while one names the other, are an
//    error (kUndefined).
//  - A warp whose lanes all wait (at warp-synchronous instructions or barriers) while some wait
//    for named lanes that can never arrive is a deadlock (ErrorKind::kDeadlock).
#include <algorithm>
#include <bit>
#include <vector>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exec/fault.hpp"
#include "exec/machine.hpp"
#include "ptx/ptx.hpp"

namespace warpscope::exec {

namespace {

/// The lanes that execute a warp-synchronous instruction together, with each lane's membermask
/// and instruction.
struct SyncLanes {
  std::uint32_t lanes = 0;
  std::uint32_t mask[kLanes] = {};
  std::uint32_t pc[kLanes] = {};
};

inline std::uint32_t reg32(const WarpState& w, std::uint32_t slot, unsigned lane) {
  return static_cast<std::uint32_t>(w.regs[std::size_t(slot) * kLanes + lane]);
}

/// The non-exited lanes named by the executing lanes' membermasks.
std::uint32_t named_lanes(const SyncLanes& s, std::uint32_t live) {
  std::uint32_t named = 0;
  for_lanes(s.lanes, [&](unsigned l) { named |= s.mask[l]; });
  return named & live;
}

/// Every executing lane must be in its own membermask.
void check_self(const Ctx& x, const SyncLanes& s) {
  for_lanes(s.lanes, [&](unsigned l) {
    if ((s.mask[l] >> l) & 1) return;
    lane_fault(x, s.pc[l], ErrorKind::kUndefined, l,
               fmt::format("invalid membermask 0x{:08x} of warp {} lane {}: it does not name the lane "
                           "itself (undefined in the PTX ISA)",
                           s.mask[l], x.warp_index, l));
  });
}

/// Checks that the lanes naming each other agree on their membermask (on the non-exited lanes)
/// and sets the groups in x. Every named non-exited lane must be in s.lanes.
void form_groups(Ctx& x, const SyncLanes& s, std::uint32_t live) {
  x.ngroups = 0;
  std::uint32_t seen = 0;
  for_lanes(s.lanes, [&](unsigned l) {
    if ((seen >> l) & 1) return;
    const std::uint32_t g = s.mask[l] & live;
    for_lanes(g, [&](unsigned k) {
      if ((s.mask[k] & live) == g) return;
      lane_fault(x, s.pc[l], ErrorKind::kUndefined, l,
                 fmt::format("inconsistent membermasks in warp {}: lane {} executes with membermask 0x{:08x}, "
                             "which names lane {}, but lane {} executes with membermask 0x{:08x} (non-exited "
                             "lanes 0x{:08x}); every non-exited lane named must use the same membermask "
                             "(undefined in the PTX ISA otherwise)",
                             x.warp_index, l, s.mask[l], k, k, s.mask[k], live));
    });
    x.groups[x.ngroups++] = g;
    seen |= g;
  });
}

std::string instruction_text(const KernelImage& k, std::uint32_t pc) {
  const ptx::Function& fn = k.ir_function(k.source[pc].func);
  return fmt::format("`{}` at {}", ptx::format_instruction(*k.module, fn, k.ir_instruction(pc)), k.where(pc));
}

}  // namespace

bool CtaRunner::warp_sync(WarpState& w, const Inst& in, std::uint32_t pc, std::uint32_t m, std::uint32_t active) {
  if (in.e == kNoSlot) {  // no membermask (vote without .sync): the executing lanes
    x_.ngroups = 1;
    x_.groups[0] = m;
    in.fn(in, x_, m);
    return true;
  }
  const std::uint64_t* mm = w.regs.data() + std::size_t(in.e) * kLanes;
  const auto first = static_cast<std::uint32_t>(mm[std::countr_zero(m)]);
  bool uniform = true;
  for_lanes(m, [&](unsigned l) { uniform &= static_cast<std::uint32_t>(mm[l]) == first; });
  if (uniform && (m & ~first) == 0 && (first & w.live & ~m) == 0) {
    x_.ngroups = 1;
    x_.groups[0] = m;
    in.fn(in, x_, m);
    return true;
  }
  SyncLanes s;
  s.lanes = m;
  for_lanes(m, [&](unsigned l) {
    s.mask[l] = static_cast<std::uint32_t>(mm[l]);
    s.pc[l] = pc;
  });
  if (cfg_.sanitize.synccheck) {
    // synccheck's "Invalid arguments": a lane its own membermask leaves out (then the fault below).
    for_lanes(m, [&](unsigned l) {
      if (((s.mask[l] >> l) & 1) == 0)
        note_sync("invalid_arguments", pc, w.index * kLanes + l,
                  fmt::format("membermask 0x{:08x} of lane {} does not name the lane", s.mask[l], l));
    });
  }
  check_self(x_, s);
  const std::uint32_t named = named_lanes(s, w.live);
  if (const std::uint32_t idle = named & active & ~m; idle != 0) {
    for_lanes(m, [&](unsigned l) {
      const std::uint32_t skip = s.mask[l] & idle;
      if (skip == 0) return;
      lane_fault(x_, pc, ErrorKind::kUndefined, l,
                 fmt::format("membermask 0x{:08x} of warp {} lane {} names lane {}, which does not execute the "
                             "instruction (its guard predicate is false); every non-exited lane named must "
                             "execute it (undefined in the PTX ISA otherwise)",
                             s.mask[l], w.index, l, std::countr_zero(skip)));
    });
  }
  if ((named & ~m) != 0) return false;  // named lanes run elsewhere: wait for them
  form_groups(x_, s, w.live);
  in.fn(in, x_, m);
  return true;
}

void CtaRunner::fork(WarpState& w, std::size_t i, std::uint32_t keep) {
  Split& s = w.splits[i];
  const std::uint32_t other = s.lanes() & ~keep;
  if (other == 0) return;
  auto drop_empty = [](std::vector<Entry>& stack) {
    std::erase_if(stack, [](const Entry& e) { return e.mask == 0; });
  };
  Split rest;
  rest.stack = s.stack;
  for (Entry& e : rest.stack) e.mask &= other;
  drop_empty(rest.stack);
  for (Entry& e : s.stack) e.mask &= keep;
  drop_empty(s.stack);
  w.splits.insert(w.splits.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(rest));
}

void CtaRunner::on_sync_wait(WarpState& w, std::size_t i) {
  w.splits[i].no_wait = false;
  // The lanes at the instruction wait; the others (lower in the stack) run on.
  fork(w, i, w.splits[i].sync_mask);
}

void CtaRunner::resolve_syncs(WarpState& w) {
  std::vector<std::size_t> members;
  for (bool again = true; again;) {
    again = false;
    for (std::size_t i = 0; i < w.splits.size() && !again; ++i) {
      if (w.splits[i].state != SplitState::kWarpSync) continue;
      const std::uint32_t pc = w.splits[i].sync_pc;
      const bool any_pc = k_.code[pc].aux == 1;  // bar.warp.sync
      // The splits that execute the instruction together with this one.
      SyncLanes s;
      members.clear();
      for (std::size_t j = 0; j < w.splits.size(); ++j) {
        const Split& o = w.splits[j];
        if (o.state != SplitState::kWarpSync) continue;
        if (o.sync_pc != pc && !(any_pc && k_.code[o.sync_pc].aux == 1)) continue;
        members.push_back(j);
        s.lanes |= o.sync_mask;
        const std::uint32_t slot = k_.code[o.sync_pc].e;
        for_lanes(o.sync_mask, [&](unsigned l) {
          s.mask[l] = reg32(w, slot, l);
          s.pc[l] = o.sync_pc;
        });
      }
      if ((named_lanes(s, w.live) & ~s.lanes) != 0) continue;  // still waiting
      enter_split(w, w.splits[i]);
      form_groups(x_, s, w.live);
      if (any_pc) {
        for (std::size_t j : members) {
          const Inst& in = k_.code[w.splits[j].sync_pc];
          in.fn(in, x_, w.splits[j].sync_mask);
        }
      } else {
        k_.code[pc].fn(k_.code[pc], x_, s.lanes);
      }
      for (std::size_t j : members) {
        Split& o = w.splits[j];
        o.state = SplitState::kRunnable;
        o.stack.back().pc = o.sync_pc + 1;
      }
      again = true;
    }
  }
}

void CtaRunner::sync_stuck(WarpState& w) {
  // Named lanes that wait at a barrier never come: a deadlock. Lanes that wait for each other at
  // different warp-synchronous instructions: the PTX ISA lets shfl/vote/match/redux.sync with the
  // same qualifiers and membermask meet at different instructions, but what the hardware then
  // exchanges is not modelled: refused.
  bool barrier = false;
  for (const Split& s : w.splits) barrier |= s.state == SplitState::kBarrier;
  std::string msg = fmt::format(
      "{} in kernel {}, block ({},{},{}), warp {}: no lane of the warp can run;",
      barrier ? "warp-synchronous deadlock" : "lanes wait for each other at different warp-synchronous instructions",
      kernel_label(k_.name), x_.ctaid.x, x_.ctaid.y, x_.ctaid.z, w.index);
  for (const Split& s : w.splits) {
    if (s.state == SplitState::kBarrier) {
      msg += fmt::format(" {} wait at barrier {}, {};", lanes_text(s.bar_mask), s.bar_id, instruction_text(k_, s.bar_pc));
      continue;
    }
    if (s.state != SplitState::kWarpSync) continue;
    const std::uint32_t slot = k_.code[s.sync_pc].e;
    std::uint32_t arrived = 0;  // lanes at the same instruction
    for (const Split& o : w.splits) {
      if (o.state == SplitState::kWarpSync && o.sync_pc == s.sync_pc) arrived |= o.sync_mask;
    }
    std::uint32_t named = 0;
    std::vector<std::string> masks;
    for_lanes(s.sync_mask, [&](unsigned l) {
      const std::uint32_t mm = reg32(w, slot, l);
      named |= mm;
      const std::string t = fmt::format("0x{:08x}", mm);
      if (std::find(masks.begin(), masks.end(), t) == masks.end()) masks.push_back(t);
    });
    msg += fmt::format(" {} wait at {} with membermask {} for {};", lanes_text(s.sync_mask),
                       instruction_text(k_, s.sync_pc), fmt::join(masks, ", "),
                       lanes_text(named & w.live & ~arrived));
  }
  msg += barrier ? " every non-exited lane named in a membermask must execute the instruction with the same "
                   "membermask"
                 : " warpscope executes a warp-synchronous instruction only for the lanes at that instruction "
                   "(and bar.warp.sync at any bar.warp.sync)";
  throw Error(barrier ? ErrorKind::kDeadlock : ErrorKind::kUnsupported, msg);
}

}  // namespace warpscope::exec
