// The warp loop: runs one split of a warp until it finishes, blocks at a barrier, may merge with
// another split, or has used its instruction budget. Compute instructions are one indirect call
// each; control flow (branches, calls, returns, exits, barriers) is handled here.
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "common/error.hpp"
#include "exec/branch.hpp"
#include "exec/fault.hpp"
#include "exec/builtin_args.hpp"
#include "exec/heap.hpp"
#include "exec/machine.hpp"
#include "exec/segments.hpp"

namespace warpscope::exec {

namespace {

/// Population count without relying on a popcnt instruction (the baseline x86-64 target has
/// none, and the library call it would otherwise become is slower).
inline unsigned popcount32(std::uint32_t v) {
  v = v - ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  return (((v + (v >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24;
}

inline std::uint32_t guard_mask(const std::uint64_t* p, bool neg) {
  std::uint32_t m = 0;
  for (unsigned l = 0; l < kLanes; ++l) m |= static_cast<std::uint32_t>(p[l] & 1u) << l;
  return neg ? ~m : m;
}

}  // namespace

void CtaRunner::enter_split(WarpState& w, Split& s) {
  cur_func_ = 0;
  x_.frame_base = 0;
  for (std::size_t i = s.stack.size(); i-- > 0;) {
    const Entry& e = s.stack[i];
    if (e.kind == Entry::kCallFrame) {
      cur_func_ = k_.calls[e.call].callee;
      x_.frame_base = e.base + k_.funcs[e.func].frame_bytes;
      break;
    }
  }
  point_ctx(w);
}

bool CtaRunner::settle(WarpState& w, Split& s) {
  bool popped = false;
  while (!s.stack.empty()) {
    Entry& t = s.stack.back();
    if (t.kind == Entry::kNormal) {
      if (t.mask == 0 || t.pc == t.rpc) {
        s.stack.pop_back();
        popped = true;
        continue;
      }
      if (t.pc == kNoPc) {
        fail(ErrorKind::kInternal, "warp {} resumed at a missing reconvergence point in kernel {}", w.index,
             k_.name);
      }
      break;
    }
    // A call frame on top: every lane of the callee has returned (or exited).
    const Entry frame = t;
    s.stack.pop_back();
    do_return(w, s, frame);
    popped = true;
  }
  return popped;
}

std::uint32_t CtaRunner::indirect_target(const CallInfo& ci, std::uint64_t address, std::uint32_t pc,
                                         unsigned lane) {
  if (address >= kFunctionAddressBase && (address - kFunctionAddressBase) % 16 == 0) {
    const std::uint64_t f = (address - kFunctionAddressBase) / 16;
    for (const auto& [ir, call] : ci.targets) {
      if (ir == f) return call;
    }
  }
  lane_fault(x_, pc, ErrorKind::kTrap, lane,
             fmt::format("indirect call to 0x{:x}, which is not the address of a function of the module with this "
                         "call's parameters",
                         address));
}

void CtaRunner::do_call(WarpState& w, Split& s, std::uint32_t call, std::uint32_t pc, std::uint32_t m) {
  const CallInfo& ci = k_.calls[call];
  const FuncImage& caller = k_.funcs[cur_func_];
  const FuncImage& callee = k_.funcs[ci.callee];
  const std::uint64_t new_base = x_.frame_base + caller.frame_bytes;
  if (new_base + callee.frame_bytes > x_.local_frame) {
    lane_fault(x_, pc, ErrorKind::kOutOfBounds, static_cast<unsigned>(std::countr_zero(m)),
               fmt::format("stack overflow: calling {} needs {} bytes of local memory per thread, the "
                           "limit is {}",
                           pretty_kernel(callee.name), new_base + callee.frame_bytes, x_.local_frame));
  }
  // A recursive activation keeps the outer one's registers aside.
  bool recursive = cur_func_ == ci.callee;
  for (const Entry& e : s.stack) {
    if (e.kind == Entry::kCallFrame && k_.calls[e.call].callee == ci.callee) recursive = true;
  }
  std::uint32_t save = kNoPc;
  if (recursive) {
    save = static_cast<std::uint32_t>(w.saved.size());
    const std::uint64_t* first = w.regs.data() + std::size_t(callee.reg_base) * kLanes;
    w.saved.emplace_back(first, first + std::size_t(callee.reg_count) * kLanes);
  }
  for (const CallInfo::Copy& c : ci.args) {
    for_lanes(m, [&](unsigned l) {
      std::uint64_t v = 0;
      std::uint8_t* lane_stack = x_.local + std::size_t(l) * x_.local_stride;
      if (c.caller_slot != kNoSlot) v = w.regs[std::size_t(c.caller_slot) * kLanes + l];
      else std::memcpy(&v, lane_stack + x_.frame_base + c.caller_off, c.bytes > 8 ? 8 : c.bytes);
      if (c.callee_slot != kNoSlot) {
        w.regs[std::size_t(c.callee_slot) * kLanes + l] = v;
      } else if (c.caller_slot == kNoSlot && c.bytes > 8) {
        std::memcpy(lane_stack + new_base + c.callee_off, lane_stack + x_.frame_base + c.caller_off, c.bytes);
      } else {
        std::memcpy(lane_stack + new_base + c.callee_off, &v, c.bytes > 8 ? 8 : c.bytes);
      }
    });
  }
  if (k_.sp_slot != kNoSlot) {  // the callee's allocas are freed when it returns
    const std::uint64_t* sp = w.regs.data() + std::size_t(k_.sp_slot) * kLanes;
    for_lanes(m, [&](unsigned l) { w.sp_saved[l].push_back(sp[l]); });
  }
  s.stack.back().pc = pc + 1;
  Entry frame;
  frame.kind = Entry::kCallFrame;
  frame.pc = pc + 1;
  frame.mask = m;
  frame.func = cur_func_;
  frame.call = call;
  frame.base = x_.frame_base;
  frame.save = save;
  s.stack.push_back(frame);
  Entry body;
  body.pc = callee.begin;
  body.mask = m;
  s.stack.push_back(body);
  cur_func_ = ci.callee;
  x_.frame_base = new_base;
}

void CtaRunner::do_return(WarpState& w, Split&, const Entry& frame) {
  const CallInfo& ci = k_.calls[frame.call];
  const std::uint64_t callee_base = x_.frame_base;
  const std::uint32_t m = frame.mask;
  // Read the results before the caller's registers are restored (a .reg return value lives in
  // the callee's register range).
  std::vector<std::array<std::uint8_t, 8>> values(ci.results.size() * kLanes);
  std::vector<std::vector<std::uint8_t>> big(ci.results.size());
  for (std::size_t r = 0; r < ci.results.size(); ++r) {
    const CallInfo::Copy& c = ci.results[r];
    for_lanes(m, [&](unsigned l) {
      std::uint8_t* lane_stack = x_.local + std::size_t(l) * x_.local_stride;
      auto& v = values[r * kLanes + l];
      v.fill(0);
      if (c.callee_slot != kNoSlot) {
        const std::uint64_t reg = w.regs[std::size_t(c.callee_slot) * kLanes + l];
        std::memcpy(v.data(), &reg, 8);
      } else if (c.bytes > 8) {
        big[r].resize(std::size_t(kLanes) * c.bytes);
        std::memcpy(big[r].data() + std::size_t(l) * c.bytes, lane_stack + callee_base + c.callee_off, c.bytes);
      } else {
        std::memcpy(v.data(), lane_stack + callee_base + c.callee_off, c.bytes);
      }
    });
  }
  if (frame.save != kNoPc) {
    const FuncImage& callee = k_.funcs[ci.callee];
    std::memcpy(w.regs.data() + std::size_t(callee.reg_base) * kLanes, w.saved[frame.save].data(),
                w.saved[frame.save].size() * sizeof(std::uint64_t));
    w.saved.resize(frame.save);
  }
  for (std::size_t r = 0; r < ci.results.size(); ++r) {
    const CallInfo::Copy& c = ci.results[r];
    for_lanes(m, [&](unsigned l) {
      std::uint8_t* lane_stack = x_.local + std::size_t(l) * x_.local_stride;
      const auto& v = values[r * kLanes + l];
      if (c.caller_slot != kNoSlot) {
        std::uint64_t reg = 0;
        std::memcpy(&reg, v.data(), 8);
        w.regs[std::size_t(c.caller_slot) * kLanes + l] = reg;
      } else if (c.bytes > 8) {
        std::memcpy(lane_stack + frame.base + c.caller_off, big[r].data() + std::size_t(l) * c.bytes, c.bytes);
      } else {
        std::memcpy(lane_stack + frame.base + c.caller_off, v.data(), c.bytes);
      }
    });
  }
  if (k_.sp_slot != kNoSlot) {
    std::uint64_t* sp = w.regs.data() + std::size_t(k_.sp_slot) * kLanes;
    for_lanes(m, [&](unsigned l) {
      if (w.sp_saved[l].empty()) return;
      sp[l] = w.sp_saved[l].back();
      w.sp_saved[l].pop_back();
    });
  }
  cur_func_ = frame.func;
  x_.frame_base = frame.base;
}

void CtaRunner::builtin_call(WarpState& w, const Inst& in, std::uint32_t pc, std::uint32_t m) {
  const CallInfo& ci = k_.calls[in.aux];
  auto arg = [&](unsigned l, std::size_t i) { return builtin_arg(ci, w, x_, l, i); };
  auto set_result = [&](unsigned l, std::uint64_t v) { builtin_result(ci, w, x_, l, v); };
  const Inst& at = k_.code[pc];
  if (is_cdp_builtin(ci.builtin)) {
    cdp_call(w, ci, pc, m);
    return;
  }
  if (ci.builtin == CallInfo::Builtin::kVprintf) {
    PrintfText& out = *x_.printf_out;
    for_lanes(m, [&](unsigned l) {
      std::uint64_t bytes = 0;
      const int r = format_printf(x_, at, l, arg(l, 0), arg(l, 1), out.text, &bytes);
      out.calls.push_back(PrintfText::Call{out.text.size(), bytes});
      set_result(l, static_cast<std::uint64_t>(static_cast<std::int64_t>(r)));
    });
    return;
  }
  if (ci.builtin == CallInfo::Builtin::kMalloc || ci.builtin == CallInfo::Builtin::kAlignedMalloc) {
    // Lane by lane, in lane order: the heap hands out the lowest block that fits (heap.hpp).
    const bool aligned = ci.builtin == CallInfo::Builtin::kAlignedMalloc;
    for_lanes(m, [&](unsigned l) {
      const std::uint64_t bytes = arg(l, 0);
      const std::uint64_t align = aligned ? arg(l, 1) : DeviceHeap::kMinAlign;
      set_result(l, x_.heap != nullptr ? x_.heap->allocate(bytes, align) : 0);
    });
    return;
  }
  if (ci.builtin == CallInfo::Builtin::kFree) {
    std::uint64_t ptrs[kLanes] = {};
    for_lanes(m, [&](unsigned l) { ptrs[l] = arg(l, 0); });
    device_free(x_, pc, m, ptrs);
    return;
  }
  if (ci.builtin == CallInfo::Builtin::kSetConditional) {
    // cudaGraphSetConditional(handle, value) of CUDA's device runtime: the handle is the device
    // address of the conditional node's 32-bit condition (src/runtime/cudart/api_graph_mem.cpp).
    // Racing calls are undefined in CUDA; here the lanes store in lane order. Not a memory access
    // of the program: nothing goes to the memory model.
    for_lanes(m, [&](unsigned l) {
      const std::uint64_t handle = arg(l, 0);
      const auto value = static_cast<std::uint32_t>(arg(l, 1));
      const Region* r = x_.global->find(handle, sizeof value);
      if (r == nullptr) {
        lane_fault(x_, pc, ErrorKind::kOutOfBounds, l,
                   fmt::format("cudaGraphSetConditional with handle 0x{:x}, which no conditional handle names", handle));
        return;
      }
      std::memcpy(r->host + (handle - r->base), &value, sizeof value);
    });
    return;
  }
  // __assertfail(message, file, line, function, char size)
  const unsigned l = static_cast<unsigned>(std::countr_zero(m));
  const std::string msg = read_c_string(x_, l, arg(l, 0));
  const std::string file = read_c_string(x_, l, arg(l, 1));
  const std::uint32_t line = static_cast<std::uint32_t>(arg(l, 2));
  const std::string func = read_c_string(x_, l, arg(l, 3));
  // Every lane of the warp that calls __assertfail has failed its assertion (on the H200 each
  // prints its own message and compute-sanitizer's memcheck reports a "Warp assert" per thread:
  // tests/hw/data/h200/sanitize/acceptance/simpleAssert.memcheck.txt); the message names them
  // and the call's instruction, for `warpscope sanitize` (tools/sanitize_cmd.cpp reads them back).
  std::string threads;
  for_lanes(m, [&](unsigned t) {
    const Dim3 d = x_.thread_of(t);
    threads += fmt::format(" ({},{},{})", d.x, d.y, d.z);
  });
  lane_fault(x_, pc, ErrorKind::kTrap, l,
             fmt::format("assertion `{}` failed ({}:{}: {}); asserting threads of the warp at pc {}:{}", msg, file,
                         line, func, pc, threads));
}

CtaRunner::RunResult CtaRunner::run_split(WarpState& w, Split& s) {
  enter_split(w, s);
  const Inst* const code = k_.code.data();
  std::uint64_t* const regs = w.regs.data();
  // A patient sweep runs the whole yield budget; others a turn (LaunchConfig::turn_budget), which
  // ends with a yield but counts as no used budget.
  const std::uint64_t full = cfg_.yield_budget;
  const std::uint64_t turn = patient_ ? full : std::min(full, cfg_.turn_budget);
  std::uint64_t budget = turn;
  Entry* top = &s.stack.back();
  std::uint32_t pc = top->pc;
  std::uint32_t active = top->mask;
  std::uint64_t count = w.instructions;
  std::uint64_t tcount = w.thread_instructions;
  // Per-pc counts as difference arrays (size code + 1): a straight-line run [start, end) executed
  // with the same active lanes costs four updates when it ends, not two per instruction; guarded
  // instructions correct their own lane count. CtaRunner::pc_instructions() sums them up.
  std::uint64_t* const pc_warp = pc_warp_.data();
  std::uint64_t* const pc_thread = pc_thread_.data();
  std::uint32_t run_start = pc;
  std::uint64_t run_lanes = popcount32(active);
  auto end_run = [&](std::uint32_t end) {
    pc_warp[run_start] += 1;
    pc_warp[end] -= 1;
    pc_thread[run_start] += run_lanes;
    pc_thread[end] -= run_lanes;
    run_start = end;
  };
  auto begin_run = [&] {
    run_start = pc;
    run_lanes = popcount32(active);
  };

  auto save_counts = [&] {
    w.instructions = count;
    w.thread_instructions = tcount;
  };
  // After the stack changed: pop finished entries and reload the top. Returns true to keep
  // running, false with `result` set to stop.
  RunResult result = RunResult::kDone;
  auto restack = [&]() -> bool {
    const bool popped = settle(w, s);
    if (s.stack.empty()) {
      result = RunResult::kDone;
      return false;
    }
    top = &s.stack.back();
    pc = top->pc;
    active = top->mask;
    if (popped && w.splits.size() > 1 && !s.no_wait) {
      result = RunResult::kWaitMerge;
      return false;
    }
    return true;
  };

  // Native segments (segments.hpp): in a CTA without an access sink, and in a profiled one
  // (loads and stores then call their functions, which make the records) without the sanitizer
  // once its kernel is due (traced_segments_due).
  const Segment* segs = nullptr;
  const bool traced = x_.sink != nullptr;
  if (!traced || (!sanitizing_ && (segs_checked_ || traced_segments_due(k_)))) {
    if (!segs_checked_) {
      bool pending = false;  // another thread compiles them: interpret, ask again next time
      const SegmentTable* t = segments_for(k_, &pending);
      segs_checked_ = !pending;
      segs_ = t != nullptr ? t->at.data() : nullptr;
    }
    segs = segs_;
  }

  for (;;) {
    if (segs != nullptr && segs[pc].fn != nullptr) {
      // A segment runs where the interpreter would run the same instructions without stopping:
      // no reconvergence point inside it, budget left after it.
      const Segment& sg = segs[pc];
      const std::uint32_t n = sg.end - pc;
      if (budget > n && (top->rpc <= pc || top->rpc >= sg.end)) {
        SegFrame f;
        f.x = &x_;
        f.code = code;
        f.regs = regs;
        f.pc_thread = pc_thread;
        f.count = count;
        f.active = active;
        f.run_lanes = static_cast<std::uint32_t>(run_lanes);
        f.traced = traced ? 1u : 0u;
        const std::uint32_t r = sg.fn(&f);
        if (r == kSegNotRun) goto interpret;
        if (r != 0) [[unlikely]] {
          // As the interpreter leaves it when an instruction faults: counted, then thrown.
          w.instructions = count + r;
          std::rethrow_exception(f.error);
        }
        count += n;
        tcount += f.lanes;
        budget -= n;
        pc = sg.end;
        if (pc == top->rpc) [[unlikely]] {
          top->pc = pc;
          end_run(pc);
          if (!restack()) break;
          begin_run();
        }
        continue;
      }
    }
  interpret:
    const Inst& in = code[pc];
    std::uint32_t m = active;
    if (in.guard != kNoSlot) {
      m &= guard_mask(regs + std::size_t(in.guard) * kLanes, in.guard_neg);
      const std::uint64_t off = run_lanes - popcount32(m);  // lanes the guard turned off
      pc_thread[pc] -= off;
      pc_thread[pc + 1] += off;
    }
    ++count;
    tcount += popcount32(m);
    if (in.ctl == Ctl::kNone) [[likely]] {
      if (m != 0) {
        w.instructions = count;
        in.fn(in, x_, m);
      }
      ++pc;
      if (pc == top->rpc) [[unlikely]] {
        top->pc = pc;
        end_run(pc);
        if (!restack()) break;
        begin_run();
      }
      if (--budget == 0) [[unlikely]] {
        top->pc = pc;
        end_run(pc);
        result = RunResult::kYield;
        budget_hit_ = turn == full;
        break;
      }
      continue;
    }

    top->pc = pc;
    end_run(pc + 1);  // the run ends with this control instruction
    switch (in.ctl) {
      case Ctl::kBra: {
        if (in.target == kNoPc) {  // brx.idx (branch.cpp): a path per target, plus the fall-through
          std::uint32_t group_pc[kLanes], group_mask[kLanes];
          const unsigned groups = brx_groups(x_, k_, in, pc, m, regs, group_pc, group_mask);
          const std::uint32_t fall = active & ~m;
          if (groups <= 1 && (fall == 0 || groups == 0)) {
            pc = groups == 0 ? pc + 1 : group_pc[0];
            top->pc = pc;
            if (pc == top->rpc && !restack()) goto out;
            break;
          }
          top->pc = in.aux;  // the immediate post-dominator
          brx_push(s, in.aux, pc + 1, fall, groups, group_pc, group_mask);
          if (!restack()) goto out;
          break;
        }
        const std::uint32_t fall = active & ~m;
        if (fall == 0 || m == 0) {
          pc = fall == 0 ? in.target : pc + 1;
          top->pc = pc;
          if (pc == top->rpc && !restack()) goto out;
          break;
        }
        // Divergence: the top entry waits at the reconvergence point; the fall-through path runs
        // first, then the taken one.
        const std::uint32_t r = in.aux;
        const std::uint32_t next = pc + 1;
        top->pc = r;
        Entry taken;
        taken.pc = in.target;
        taken.rpc = r;
        taken.mask = m;
        Entry through;
        through.pc = next;
        through.rpc = r;
        through.mask = fall;
        if (in.target != r) s.stack.push_back(taken);
        if (next != r) s.stack.push_back(through);
        if (!restack()) goto out;
        break;
      }
      case Ctl::kExit: {
        if (m == 0) {
          ++pc;
          break;
        }
        top->pc = pc + 1;
        for (Entry& e : s.stack) e.mask &= ~m;
        w.live &= ~m;
        if (!restack()) goto out;
        break;
      }
      case Ctl::kRet: {
        if (m == 0) {
          ++pc;
          break;
        }
        std::size_t frame = s.stack.size();
        for (std::size_t i = s.stack.size(); i-- > 0;) {
          if (s.stack[i].kind == Entry::kCallFrame) {
            frame = i;
            break;
          }
        }
        top->pc = pc + 1;
        if (frame == s.stack.size()) {  // ret from the kernel: the lanes exit
          for (Entry& e : s.stack) e.mask &= ~m;
          w.live &= ~m;
        } else {
          for (std::size_t i = frame + 1; i < s.stack.size(); ++i) s.stack[i].mask &= ~m;
        }
        if (!restack()) goto out;
        break;
      }
      case Ctl::kCall: {
        if (m == 0) {
          ++pc;
          break;
        }
        save_counts();
        if (k_.calls[in.aux].builtin != CallInfo::Builtin::kNone) {
          builtin_call(w, in, pc, m);
          ++pc;
          top->pc = pc;
          if (pc == top->rpc && !restack()) goto out;
          break;
        }
        std::uint32_t call = in.aux;
        if (k_.calls[call].indirect) {
          // Lanes calling different functions (or whose guard is false) split as at a branch:
          // the lanes of the first lane's target call first, then the others run the call again.
          const std::uint64_t* t = regs + std::size_t(in.a) * kLanes;
          const unsigned first = static_cast<unsigned>(std::countr_zero(m));
          std::uint32_t same = 0;
          for_lanes(m, [&](unsigned l) { same |= t[l] == t[first] ? 1u << l : 0u; });
          if (same != active) {
            top->pc = pc + 1;
            Entry e;
            e.pc = pc;
            e.rpc = pc + 1;
            if (m & ~same) {
              e.mask = m & ~same;
              s.stack.push_back(e);
            }
            e.mask = same;
            s.stack.push_back(e);
            if (!restack()) goto out;
            break;
          }
          call = indirect_target(k_.calls[call], t[first], pc, first);
        }
        do_call(w, s, call, pc, m);
        top = &s.stack.back();
        pc = top->pc;
        active = top->mask;
        break;
      }
      case Ctl::kTrap:
        if (m == 0) {
          ++pc;
          break;
        }
        save_counts();
        // memcheck: a "Trace/breakpoint trap" per thread that traps (tests/hw/data/h200/sanitize/heap).
        for_lanes(m, [&](unsigned l) { note_device_error(x_, pc, l, "trap", 0); });
        lane_fault(x_, pc, ErrorKind::kTrap, static_cast<unsigned>(std::countr_zero(m)),
                   k_.reads_workspace && cfg_.grid_workspace == 0
                       ? "trap (the kernel uses cooperative_groups::this_grid(), whose grid.sync() traps unless "
                         "the kernel is launched with cudaLaunchCooperativeKernel or the cooperative launch "
                         "attribute)"
                       : "trap");
      case Ctl::kBar: {
        if (m == 0) {
          ++pc;
          break;
        }
        const unsigned first = static_cast<unsigned>(std::countr_zero(m));
        if (m != active) {
          save_counts();
          lane_fault(x_, pc, ErrorKind::kDeadlock, first,
                     fmt::format("barrier executed by lanes 0x{:08x} of warp {} under a guard that is false "
                                 "for lanes 0x{:08x} (a barrier in divergent code)",
                                 m, w.index, active & ~m));
        }
        const std::uint32_t id = static_cast<std::uint32_t>(regs[std::size_t(in.a) * kLanes + first]);
        const std::uint32_t cnt =
            in.b == kNoSlot ? 0 : static_cast<std::uint32_t>(regs[std::size_t(in.b) * kLanes + first]);
        if (id >= kBarriers) {
          save_counts();
          lane_fault(x_, pc, ErrorKind::kUsage, first, fmt::format("barrier id {} is not in 0..15", id));
        }
        // Named-barrier counts the H200 stops with cudaErrorIllegalInstruction (measured,
        // tests/hw/data/h200/sanitize/sync; ErrorKind::kIllegalInstruction, which runtime.cpp's
        // map_error maps to that error): a count that is not a multiple of the warp size, and warps
        // of one phase giving different counts. A count after arrivals without one (or the reverse)
        // was not measured: refused.
        if (cnt % kLanes != 0) {
          save_counts();
          lane_fault(x_, pc, ErrorKind::kIllegalInstruction, first,
                     fmt::format("barrier {}: thread count {} is not a multiple of the warp size (as on the H200)",
                                 id, cnt));
        }
        if (bars_[id].count != 0 && bars_[id].count != cnt) {
          save_counts();
          if (cnt == 0)
            lane_fault(x_, pc, ErrorKind::kUnsupported, first,
                       fmt::format("barrier {}: warp {} arrives without a thread count while other warps arrived "
                                   "with {} in this phase (not measured on a GPU)",
                                   id, w.index, bars_[id].count));
          lane_fault(x_, pc, ErrorKind::kIllegalInstruction, first,
                     fmt::format("barrier {}: warp {} arrives with thread count {} while other warps arrived with "
                                 "{} in this phase (as on the H200)",
                                 id, w.index, cnt, bars_[id].count));
        }
        s.bar_id = id;
        s.bar_pc = pc;
        s.bar_mask = m;
        s.bar_count = cnt;
        if (static_cast<BarKind>(in.aux) == BarKind::kArrive) {
          // Arrive without waiting.
          w.arrived[id] |= m;
          bars_[id].count = cnt;
          check_warp_arrival(w, id);
          ++pc;
          top = &s.stack.back();
          top->pc = pc;
          if (pc == top->rpc && !restack()) goto out;
          break;
        }
        s.state = SplitState::kBarrier;
        result = RunResult::kBlocked;
        goto out;
      }
      case Ctl::kWarpSync: {
        if (m == 0) {
          ++pc;
          break;
        }
        save_counts();
        if (!warp_sync(w, in, pc, m, active)) {
          // Named lanes run elsewhere: wait for them here (warp_sync.cpp).
          s.state = SplitState::kWarpSync;
          s.sync_pc = pc;
          s.sync_mask = m;
          result = RunResult::kSyncWait;
          goto out;
        }
        ++pc;
        top->pc = pc;
        if (pc == top->rpc && !restack()) goto out;
        break;
      }
      case Ctl::kPoll: {
        // Outside cooperative launches a poll of the CTA's own shared memory (cuda::std::barrier
        // in shared memory) is watched too: only this CTA's warps can change what it reads.
        // (Decided before the load: its destination may be the address register.)
        const bool own = !coop_ && m != 0 && polls_own_shared(w, in, m);
        if (m != 0) {
          w.instructions = count;
          in.fn(in, x_, m);
        }
        ++pc;
        top->pc = pc;
        // A poll that returns what it returned last time is a spin: the warp lets the others (and
        // the other CTAs) run; in a patient turn or sweep only once it has proven a cycle
        // (note_poll). Polls are watched in a cooperative launch, outside one when they read the
        // CTA's own shared memory, and once the warp has run kWatchPolls instructions (then every
        // 8th poll, which a spin repeats anyway).
        if (m != 0 && (coop_ || own || (count >= kWatchPolls && (++w.poll_tick & 7u) == 0))) {
          const bool spin = note_poll(w, in, pc - 1, m);
          w.spin_global = !own;
          if (spin) {
            result = RunResult::kYield;
            if (pc == top->rpc) {
              settle(w, s);
              if (s.stack.empty()) result = RunResult::kDone;
            }
            goto out;
          }
        }
        if (pc == top->rpc && !restack()) goto out;
        break;
      }
      case Ctl::kWait:
        // An mbarrier wait: a lane whose phase has not completed makes the warp let the others run
        // (cta_wait.cpp), unless the sweep is a patient one.
        if (m != 0) {
          w.instructions = count;
          in.fn(in, x_, m);
        }
        ++pc;
        top->pc = pc;
        if (m != 0 && note_wait(w, in, pc - 1, m) && !patient_) {
          result = RunResult::kYield;
          if (pc == top->rpc) {
            settle(w, s);
            if (s.stack.empty()) result = RunResult::kDone;
          }
          goto out;
        }
        if (pc == top->rpc && !restack()) goto out;
        break;
      case Ctl::kCluster:
        // barrier.cluster.arrive / wait (cluster.cpp): a wait whose phase has not completed keeps
        // the warp at the instruction and lets the cluster's other warps and CTAs run.
        if (m != 0) {
          w.instructions = count;
          if (!cluster_barrier(w, in, pc, m)) {
            // Not executed yet: it counts once, when the warp gets past it.
            const std::uint64_t lanes = popcount32(m);
            --count;
            tcount -= lanes;
            pc_warp[pc] -= 1;
            pc_warp[pc + 1] += 1;
            pc_thread[pc] -= lanes;
            pc_thread[pc + 1] += lanes;
            top->pc = pc;
            result = RunResult::kYield;
            goto out;
          }
        }
        ++pc;
        top->pc = pc;
        if (pc == top->rpc && !restack()) goto out;
        break;
      case Ctl::kYield:
        ++pc;
        top->pc = pc;
        // In a patient sweep a spinning warp runs on, through its nanosleeps too: an mbarrier wait
        // its whole budget (a wait loop that gives up after some sleeps ends there), a poll to its
        // next poll (note_poll).
        if (patient_ && w.spinning) {
          if (pc == top->rpc && !restack()) goto out;
          break;
        }
        result = RunResult::kYield;
        if (pc == top->rpc) {
          settle(w, s);
          if (s.stack.empty()) result = RunResult::kDone;
        }
        goto out;
      case Ctl::kNone: break;
    }
    begin_run();
    if (--budget == 0) {
      top->pc = pc;
      result = RunResult::kYield;
      budget_hit_ = turn == full;
      break;
    }
  }
out:
  save_counts();
  return result;
}

bool CtaRunner::note_poll(WarpState& w, const Inst& in, std::uint32_t pc, std::uint32_t mask) {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the lanes' results
  auto mix = [&](std::uint32_t slot) {
    if (slot == kNoSlot) return;
    const std::uint64_t* p = w.regs.data() + std::size_t(slot) * kLanes;
    for_lanes(mask, [&](unsigned l) { h = (h ^ p[l]) * 0x100000001b3ull; });
  };
  if (in.mem_op == Op::kAtomic) {
    mix(in.d);
  } else {
    for (unsigned i = 0; i < in.vec && i < 4; ++i) mix(in.v[i]);
  }
  WarpState::PollSeen* seen = nullptr;
  for (WarpState::PollSeen& e : w.polls) {
    if (e.pc == pc) seen = &e;
  }
  if (seen != nullptr && seen->mask == mask && seen->hash == h) {
    w.spinning = true;
    w.spin_pc = pc;
    if (!patient_) return true;  // yield: the others may change what it polls
    // Patient: run on until the warp's state repeats here (a cycle: yield) or differs (it may end
    // by itself: run its budget).
    if (w.evolving_epoch == patient_epoch_) return false;
    const std::uint64_t state = state_hash(w);
    if (seen->state_epoch == patient_epoch_) {
      if (seen->state == state) {
        w.cycling = true;
        return true;
      }
      // It may end by itself (a counter), unless it has evolved this way too long: a wait whose
      // only changes are a backoff counter or %clock reads.
      if (++w.evolving_count > kEvolvingEpochs) {
        w.cycling = true;
        return true;
      }
      w.evolving_epoch = patient_epoch_;
      return false;
    }
    seen->state = state;
    seen->state_epoch = patient_epoch_;
    return false;
  }
  if (seen == nullptr) {
    seen = &w.polls[w.poll_next];
    w.poll_next = (w.poll_next + 1) % static_cast<std::uint32_t>(w.polls.size());
  }
  *seen = WarpState::PollSeen{pc, mask, h, 0, 0};
  w.evolving_count = 0;
  w.spinning = false;
  w.cycling = false;
  progress_ = true;
  return false;
}

}  // namespace warpscope::exec
