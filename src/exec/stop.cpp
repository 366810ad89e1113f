// Launches that end before their end (docs/exec.md, "Stopping a launch"): a stop requested from
// elsewhere (LaunchOptions::stop: warpscope run's signal handlers and --timeout), or a hang, a CTA
// whose every live warp spins on memory that no running thread can change.
//
// The cost while nothing stops: CtaRunner::sweep adds each warp's instructions to a counter of
// its own and, every 2^16 of them, publishes them to LaunchProgress and loads the stop flags
// (relaxed); run() loads them once per CTA. A warp runs at most 2^20 instructions before its
// sweep goes on (the yield budget), so a stop is seen within about 2^20 + 2^16 instructions of
// each running warp: a few milliseconds.
#include <algorithm>
#include <cstring>
#include <limits>

#include <fmt/format.h>

#include "exec/launch.hpp"
#include "exec/fault.hpp"
#include "exec/machine.hpp"
#include "exec/stop.hpp"
#include "ptx/ptx.hpp"

namespace warpscope::exec {

void CtaRunner::flush_progress() {
  if (unreported_ != 0 && cfg_.shared != nullptr && cfg_.shared->progress != nullptr) {
    cfg_.shared->progress->warp_instructions.fetch_add(unreported_, std::memory_order_relaxed);
  }
  unreported_ = 0;
}

void CtaRunner::check_stop() {
  const LaunchShared* s = cfg_.shared;
  if (s == nullptr) return;
  if (s->stop != nullptr) {
    if (const int code = s->stop->load(std::memory_order_relaxed); code != 0) {
      throw CtaStop{CtaStop::Kind::kRequested, code};
    }
  }
  if (x_.cta_linear > s->abort_above.load(std::memory_order_relaxed)) throw CtaStop{CtaStop::Kind::kAbort, 0};
}

bool CtaRunner::lower_ctas_finished() const {
  return cfg_.shared == nullptr || cfg_.shared->finished_below.load(std::memory_order_acquire) >= chunk_start_;
}

std::uint64_t CtaRunner::state_hash(const WarpState& w) const {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  auto mix = [&h](const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    std::size_t i = 0;
    for (; i + 8 <= bytes; i += 8) {
      std::uint64_t v;
      std::memcpy(&v, p + i, 8);
      h = (h ^ v) * 0xff51afd7ed558ccdull;
      h ^= h >> 29;
    }
    for (; i < bytes; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  };
  mix(w.regs.data(), w.regs.size() * sizeof(std::uint64_t));
  mix(w.local.data(), w.local.size());
  mix(shared_.data(), shared_.size());
  return h;
}

std::uint64_t CtaRunner::running_instructions() const {
  std::uint64_t n = 0;
  for (const WarpState& w : warps_) n += w.instructions;
  return n;
}

std::uint64_t CtaRunner::running_thread_instructions() const {
  std::uint64_t n = 0;
  for (const WarpState& w : warps_) n += w.thread_instructions;
  return n;
}

std::pair<std::int64_t, std::int64_t> loop_around(const KernelImage& k, std::uint32_t pc) {
  std::int64_t first = -1, last = -1;
  for (std::uint32_t b = 0; b < k.code.size(); ++b) {
    const Inst& in = k.code[b];
    if (in.ctl != Ctl::kBra || in.target > b || in.target > pc || pc > b) continue;
    if (first < 0 || b - in.target < last - first) {
      first = in.target;
      last = b;
    }
  }
  return {first, last};
}

namespace {

/// "f.cu:11-13": the source lines of the instructions [first, last] in the file of `pc`.
std::string lines_text(const KernelImage& k, std::int64_t first, std::int64_t last, std::uint32_t pc) {
  const ptx::SourceLoc at = k.module->outermost(k.ir_instruction(pc).loc);
  if (!at.valid()) return k.where(pc);
  std::uint32_t lo = at.line, hi = at.line;
  for (std::int64_t p = first; p <= last; ++p) {
    const ptx::SourceLoc loc = k.module->outermost(k.ir_instruction(static_cast<std::uint32_t>(p)).loc);
    if (!loc.valid() || loc.file != at.file || loc.line == 0) continue;
    lo = std::min(lo, loc.line);
    hi = std::max(hi, loc.line);
  }
  const std::string_view path = k.module->file_path(at);
  return lo == hi ? fmt::format("{}:{}", path, lo) : fmt::format("{}:{}-{}", path, lo, hi);
}

const char* state_text(WarpPlace::State s) {
  switch (s) {
    case WarpPlace::State::kRunning: return "running at";
    case WarpPlace::State::kSpinning: return "spinning on an unchanged value at";
    case WarpPlace::State::kBarrier: return "waiting at a barrier at";
    case WarpPlace::State::kWarpSync: return "waiting at a warp-synchronous instruction at";
  }
  return "at";
}

}  // namespace

bool same_place(const KernelImage& k, const WarpPlace& a, const WarpPlace& b) {
  if (a.state != b.state) return false;
  if (a.pc == b.pc) return true;
  if (a.state != WarpPlace::State::kRunning) return false;
  // Running warps stopped anywhere: one place per source line.
  const ptx::SourceLoc la = k.module->outermost(k.ir_instruction(a.pc).loc);
  const ptx::SourceLoc lb = k.module->outermost(k.ir_instruction(b.pc).loc);
  return la.valid() && lb.valid() && la.file == lb.file && la.line == lb.line;
}

std::string loop_text(const KernelImage& k, const WarpPlace& p) {
  if (p.loop_first < 0) return "";
  return lines_text(k, p.loop_first, p.loop_last, p.pc);
}

void CtaRunner::add_places(std::uint32_t linear, const std::vector<WarpState>& warps,
                           std::vector<WarpPlace>& places) const {
  std::vector<std::size_t> counted;  // places this CTA already counts in
  for (const WarpState& w : warps) {
    if (w.done()) continue;
    WarpPlace p;
    p.pc = kNoPc;
    for (const Split& s : w.splits) {
      if (s.state == SplitState::kBarrier) {
        p.state = WarpPlace::State::kBarrier;
        p.pc = s.bar_pc;
        break;
      }
    }
    if (p.pc == kNoPc) {
      for (const Split& s : w.splits) {
        if (s.state == SplitState::kWarpSync) {
          p.state = WarpPlace::State::kWarpSync;
          p.pc = s.sync_pc;
          break;
        }
      }
    }
    if (p.pc == kNoPc && w.spinning && w.spin_pc != kNoPc) {
      p.state = WarpPlace::State::kSpinning;
      p.pc = w.spin_pc;
    }
    if (p.pc == kNoPc) {
      p.state = WarpPlace::State::kRunning;
      for (const Split& s : w.splits) {
        if (!s.stack.empty()) {
          p.pc = s.stack.back().pc;
          break;
        }
      }
    }
    if (p.pc >= k_.code.size()) continue;  // nothing left to say where
    auto it = std::find_if(places.begin(), places.end(), [&](const WarpPlace& q) { return same_place(k_, p, q); });
    if (it == places.end()) {
      const auto [first, last] = loop_around(k_, p.pc);
      p.loop_first = first;
      p.loop_last = last;
      p.first_cta = linear;
      places.push_back(p);
      it = places.end() - 1;
    }
    const auto index = static_cast<std::size_t>(it - places.begin());
    it->warps += 1;
    if (std::find(counted.begin(), counted.end(), index) == counted.end()) {
      counted.push_back(index);
      it->ctas += 1;
      it->first_cta = std::min(it->first_cta, linear);
    }
  }
}

std::string places_text(const KernelImage& k, const std::vector<WarpPlace>& places) {
  std::string out;
  constexpr std::size_t kShown = 6;
  for (std::size_t i = 0; i < places.size() && i < kShown; ++i) {
    const WarpPlace& p = places[i];
    if (!out.empty()) out += "; ";
    const std::string blocks = p.ctas == 1 ? fmt::format("block {}", p.first_cta)
                                           : fmt::format("{} blocks from block {}", p.ctas, p.first_cta);
    out += fmt::format("{} warp{} of {} {} {}", p.warps, p.warps == 1 ? "" : "s", blocks, state_text(p.state),
                       k.where(p.pc));
    if (p.state != WarpPlace::State::kRunning) {  // a running warp's pc is any of its line's
      const ptx::Function& fn = k.ir_function(k.source[p.pc].func);
      out += fmt::format(" (`{}`)", ptx::format_instruction(*k.module, fn, k.ir_instruction(p.pc)));
    }
    if (p.loop_first >= 0) out += " in the loop at " + loop_text(k, p);
  }
  if (places.size() > kShown) out += fmt::format("; and {} more places", places.size() - kShown);
  return out;
}

void sort_places(std::vector<WarpPlace>& places) {
  std::sort(places.begin(), places.end(), [](const WarpPlace& a, const WarpPlace& b) {
    return std::tie(a.first_cta, a.pc, a.state) < std::tie(b.first_cta, b.pc, b.state);
  });
}

void merge_places(const KernelImage& k, std::vector<WarpPlace>& into, const std::vector<WarpPlace>& from) {
  for (const WarpPlace& p : from) {
    auto it = std::find_if(into.begin(), into.end(), [&](const WarpPlace& q) { return same_place(k, p, q); });
    if (it == into.end()) {
      into.push_back(p);
    } else {
      it->warps += p.warps;
      it->ctas += p.ctas;
      it->first_cta = std::min(it->first_cta, p.first_cta);
    }
  }
}

void throw_stopped(const KernelImage& k, const CtaStop& s, Dim3 grid, std::uint32_t cta, std::uint64_t ctas_done,
                   std::uint64_t ctas_total, std::vector<WarpPlace> places, LaunchStats partial) {
  sort_places(places);
  LaunchStop stop;
  stop.reason = s.kind == CtaStop::Kind::kHang ? LaunchStop::Reason::kHang : LaunchStop::Reason::kRequested;
  stop.code = s.code;
  stop.ctas_total = ctas_total;
  stop.ctas_done = ctas_done;
  std::string msg;
  if (stop.reason == LaunchStop::Reason::kHang) {
    msg = fmt::format("hang in kernel {}: every live warp of block ({},{},{}) spins on memory that no running thread "
                      "can change ({} of {} blocks done): {}",
                      kernel_label(k.name), cta % grid.x, (cta / grid.x) % grid.y, cta / (grid.x * grid.y), ctas_done,
                      ctas_total, places_text(k, places));
  } else {
    msg = fmt::format("kernel {} stopped before its end ({} of {} blocks done): {}", kernel_label(k.name), ctas_done,
                      ctas_total, places.empty() ? std::string("no warp was running") : places_text(k, places));
  }
  stop.places = std::move(places);
  stop.partial = std::move(partial);
  throw LaunchStopped(stop.reason == LaunchStop::Reason::kHang ? ErrorKind::kDeadlock : ErrorKind::kInterrupted, msg,
                      std::move(stop));
}

}  // namespace warpscope::exec
