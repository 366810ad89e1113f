// The registry of the segment compiler and the lazily compiled tables (segments.hpp).
#include "exec/segments.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace warpscope::exec {

namespace {

std::atomic<SegmentCompiler*> g_compiler{nullptr};

bool env_default() {
  const char* v = std::getenv("WARPSCOPE_JIT");
  return v == nullptr || (std::strcmp(v, "0") != 0 && std::strcmp(v, "off") != 0);
}

std::atomic<bool>& enabled_flag() {
  static std::atomic<bool> on{env_default()};
  return on;
}

std::uint64_t traced_after_default() {
  const char* v = std::getenv("WARPSCOPE_JIT_TRACED_AFTER");
  if (v == nullptr || *v == '\0') return kJitTracedAfter;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 10);
  return end != nullptr && *end == '\0' ? n : kJitTracedAfter;
}

std::atomic<std::uint64_t>& traced_after() {
  static std::atomic<std::uint64_t> n{traced_after_default()};
  return n;
}

}  // namespace

void set_segment_compiler(SegmentCompiler* compiler) { g_compiler.store(compiler); }
void set_jit_enabled(bool on) { enabled_flag().store(on); }
bool jit_enabled() { return enabled_flag().load(std::memory_order_relaxed); }
bool jit_available() { return g_compiler.load() != nullptr; }
void set_jit_traced_after(std::uint64_t warp_instructions) { traced_after().store(warp_instructions); }

bool traced_segments_due(const KernelImage& kernel) {
  if (kernel.jit == nullptr || !jit_enabled() || g_compiler.load(std::memory_order_relaxed) == nullptr) return false;
  const JitSlot& slot = *kernel.jit;
  return slot.state.load(std::memory_order_acquire) == JitSlot::kDone ||
         slot.traced_insts.load(std::memory_order_relaxed) >= traced_after().load(std::memory_order_relaxed);
}

const SegmentTable* segments_for(const KernelImage& kernel, bool* pending) {
  SegmentCompiler* const c = g_compiler.load(std::memory_order_acquire);
  if (c == nullptr || !jit_enabled() || kernel.jit == nullptr) return nullptr;
  JitSlot& slot = *kernel.jit;
  int state = slot.state.load(std::memory_order_acquire);
  if (state == JitSlot::kNone && slot.state.compare_exchange_strong(state, JitSlot::kCompiling)) {
    // This thread compiles; the others interpret until it is done.
    std::unique_ptr<SegmentTable> table;
    try {
      table = c->compile(kernel);
    } catch (...) {
      table = nullptr;  // (the compiler reports nothing: the kernel is interpreted)
    }
    slot.table = std::move(table);
    slot.state.store(JitSlot::kDone, std::memory_order_release);
    state = JitSlot::kDone;
  }
  if (state != JitSlot::kDone) {
    if (pending != nullptr) *pending = true;
    return nullptr;
  }
  const SegmentTable* t = slot.table.get();
  if (t == nullptr || t->code != kernel.code.data() || t->at.size() != kernel.code.size()) return nullptr;
  return t;
}

std::uint32_t segment_call(const Inst* in, SegFrame* frame, std::uint32_t mask, std::uint64_t count) noexcept {
  try {
    if (frame->x->clock != nullptr) *frame->x->clock = count;
    in->fn(*in, *frame->x, mask);
    return 0;
  } catch (...) {
    frame->error = std::current_exception();
    return 1;
  }
}

JitDesc describe(const KernelImage& kernel, std::uint32_t pc) {
  JitDesc d;
  const Inst& in = kernel.code[pc];
  if (in.ctl != Ctl::kNone || in.fn == nullptr) return d;
  const ExecFn f = unhooked_fn(kernel, pc);
  if (!describe_int(f, d) && !describe_move(f, d) && !describe_f32_rn(f, d) && !describe_mem(f, d) &&
      !describe_float(f, d) && !describe_cvt(f, in.aux, d)) {
    return JitDesc{};
  }
  // A hooked instruction other than a load or store anchors compiled accesses: its records come
  // from run_hooked, so it is called (segments.hpp).
  if (f != in.fn && d.op != JitOp::kLd && d.op != JitOp::kSt) return JitDesc{};
  if (d.op == JitOp::kSetp && (in.c != kNoSlot || in.d2 != kNoSlot || ((in.aux2 >> 8) & 1) != 0)) return JitDesc{};
  if ((d.op == JitOp::kLd || d.op == JitOp::kSt) && (in.flags & kFlagFrameRel) != 0) return JitDesc{};
  return d;
}

}  // namespace warpscope::exec
