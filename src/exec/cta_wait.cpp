// mbarrier waits in the CTA loop (Ctl::kWait: mbarrier.test_wait / try_wait).
//
// nvcc compiles every wait on an mbarrier (cuda::barrier::wait, cuda::pipeline's consumer_wait,
// cuda::memcpy_async's completion) to a loop around try_wait. A lane whose phase has not completed
// makes its warp yield, so the warps that will arrive run. The warp *spins* when a failed wait
// finds the same lanes failing on the same mbarrier words with the same operands as its previous
// failed wait: nothing it waits for has changed. A spinning warp is no progress (cta.cpp, coop.cpp):
// a sweep of the CTA in which no warp makes progress is followed by a patient sweep, in which
// spinning warps do not yield but run their instruction budget (a wait loop that gives up by
// itself ends there); a patient sweep without progress is Error(kDeadlock) naming each warp's
// wait (kernel, source line, lane and thread, the mbarrier and its state).
#include <bit>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exec/async.hpp"
#include "exec/fault.hpp"
#include "exec/machine.hpp"
#include "exec/memory.hpp"

namespace warpscope::exec {

bool CtaRunner::note_wait(WarpState& w, const Inst& in, std::uint32_t pc, std::uint32_t mask) {
  const std::uint64_t* d = w.regs.data() + std::size_t(in.d) * kLanes;
  std::uint32_t failed = 0;
  for_lanes(mask, [&](unsigned l) {
    if ((d[l] & 1) == 0) failed |= 1u << l;
  });
  if (failed == 0) {
    if (w.wait.pc == pc) w.wait = WarpState::PollSeen{};
    w.spinning = false;
    progress_ = true;
    return false;
  }
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the failing lanes' mbarriers and operands
  auto mix = [&](std::uint64_t v) { h = (h ^ v) * 0x100000001b3ull; };
  const std::uint64_t* b = w.regs.data() + std::size_t(in.b) * kLanes;
  for_lanes(failed, [&](unsigned l) {
    const std::uint64_t off = mbarrier_offset(x_, in, l);
    mix(off);
    mix(mbarrier_word(x_, off));
    mix(b[l]);
  });
  if (w.wait.pc == pc && w.wait.mask == failed && w.wait.hash == h) {
    w.spinning = true;
    w.spin_pc = pc;
    return true;
  }
  w.wait = WarpState::PollSeen{pc, failed, h};
  w.spinning = false;
  progress_ = true;
  return true;
}

bool CtaRunner::polls_own_shared(const WarpState& w, const Inst& in, std::uint32_t mask) const {
  if (in.a == kNoSlot || (in.flags & kFlagFrameRel) != 0) return false;
  const std::uint64_t* a = w.regs.data() + std::size_t(in.a) * kLanes;
  bool all = true;
  for_lanes(mask, [&](unsigned l) {
    std::uint64_t off = 0;
    if (classify_generic(a[l] + static_cast<std::uint64_t>(in.imm), off) != GenericSpace::kShared) all = false;
  });
  return all;
}

std::string CtaRunner::describe_mbarrier_wait(WarpState& w) {
  if (!w.spinning || w.wait.pc == kNoPc || w.wait.pc >= k_.code.size()) return {};
  const Inst& in = k_.code[w.wait.pc];
  if (in.ctl != Ctl::kWait) return {};
  point_ctx(w);
  const unsigned lane = static_cast<unsigned>(std::countr_zero(w.wait.mask));
  std::string s = describe_wait(x_, in, lane);
  if (std::popcount(w.wait.mask) > 1) s += fmt::format(" ({} wait there)", lanes_text(w.wait.mask));
  return s;
}

void CtaRunner::wait_deadlock() {
  bool mbarrier = false;
  std::string msg;
  std::vector<std::uint32_t> exited;
  for (WarpState& w : warps_) {
    if (w.done()) {
      exited.push_back(w.index);
      continue;
    }
    std::string what = describe_mbarrier_wait(w);
    mbarrier = mbarrier || !what.empty();
    if (what.empty() && w.spinning && w.spin_pc < k_.code.size()) {
      what = fmt::format("spins on an unchanged value of shared memory at {} (`{}`)", k_.where(w.spin_pc),
                         k_.ir_instruction(w.spin_pc).text);
    }
    for (const Split& s : w.splits) {
      if (!what.empty()) break;
      if (s.state == SplitState::kBarrier) what = fmt::format("waits at barrier {} at {}", s.bar_id, k_.where(s.bar_pc));
    }
    if (what.empty()) {
      const std::uint32_t pc = w.splits.empty() || w.splits[0].stack.empty() ? kNoPc : w.splits[0].stack.back().pc;
      what = pc < k_.code.size() ? fmt::format("spins at {}", k_.where(pc)) : "spins";
    }
    msg += fmt::format("; warp {}: {}", w.index, what);
  }
  if (!exited.empty()) msg += fmt::format("; exited: warps {}", fmt::join(exited, ", "));
  throw Error(ErrorKind::kDeadlock, fmt::format("{} deadlock in kernel {}, block ({},{},{}): no warp can make progress{}",
                                                mbarrier ? "mbarrier" : "spin", kernel_label(k_.name), x_.ctaid.x,
                                                x_.ctaid.y, x_.ctaid.z, msg));
}

}  // namespace warpscope::exec
