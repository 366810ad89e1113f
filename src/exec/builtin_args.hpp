// The arguments and result of a call to a built-in device function (vprintf, malloc, the device
// runtime's calls, ...), lane by lane: a register, or the caller's .param bytes in its frame.
// Shared by CtaRunner::builtin_call (warp.cpp) and cdp_call (cdp.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "exec/machine.hpp"

namespace warpscope::exec {

/// Copies up to `n` bytes of argument `i` of lane `l` to `out` (zero-filled past what it holds).
inline void builtin_arg_bytes(const CallInfo& ci, const WarpState& w, const Ctx& x, unsigned l, std::size_t i,
                              void* out, std::size_t n) {
  std::memset(out, 0, n);
  if (i >= ci.args.size()) return;
  const CallInfo::Copy& c = ci.args[i];
  if (c.caller_slot != kNoSlot) {
    const std::uint64_t v = w.regs[std::size_t(c.caller_slot) * kLanes + l];
    std::memcpy(out, &v, std::min<std::size_t>(n, 8));
    return;
  }
  std::memcpy(out, x.local + std::size_t(l) * x.local_stride + x.frame_base + c.caller_off,
              std::min<std::size_t>(n, c.bytes));
}

/// Argument `i` of lane `l` as a 64-bit value (0 when the call has no such argument).
inline std::uint64_t builtin_arg(const CallInfo& ci, const WarpState& w, const Ctx& x, unsigned l, std::size_t i) {
  std::uint64_t v = 0;
  builtin_arg_bytes(ci, w, x, l, i, &v, 8);
  return v;
}

/// Stores `v` as lane `l`'s result (nothing when the call has none).
inline void builtin_result(const CallInfo& ci, WarpState& w, const Ctx& x, unsigned l, std::uint64_t v) {
  if (ci.results.empty()) return;
  const CallInfo::Copy& c = ci.results[0];
  if (c.caller_slot != kNoSlot) {
    w.regs[std::size_t(c.caller_slot) * kLanes + l] = v;
  } else {
    std::memcpy(x.local + std::size_t(l) * x.local_stride + x.frame_base + c.caller_off, &v, c.bytes > 8 ? 8 : c.bytes);
  }
}

}  // namespace warpscope::exec
