#include "exec/mbarrier.hpp"

#include <fmt/format.h>

namespace warpscope::exec::mbar {

namespace {

constexpr std::uint64_t kMask20 = (1u << 20) - 1;
constexpr std::uint64_t kMask21 = (1u << 21) - 1;

/// The phase completes when nothing is pending: pending arrivals reinitialized, parity flipped.
Result settle(State s) {
  Result r;
  if (s.pending == 0 && s.tx == 0) {
    s.phase = !s.phase;
    s.pending = s.expected;
    r.completed = true;
  }
  r.state = s;
  return r;
}

Result fail(State s, std::string why) {
  Result r;
  r.state = s;
  r.error = std::move(why);
  return r;
}

}  // namespace

std::uint64_t encode(const State& s) {
  const std::uint64_t pending = (std::uint64_t{1} << 20) - s.pending;
  const std::uint64_t expected = (std::uint64_t{1} << 20) - s.expected;
  const std::uint64_t tx = static_cast<std::uint64_t>(-static_cast<std::int64_t>(s.tx));
  return (std::uint64_t{s.phase} << 63) | ((pending & kMask20) << 43) | ((tx & kMask21) << 21) | ((expected & kMask20) << 1);
}

std::optional<State> decode(std::uint64_t word) {
  const std::uint64_t pending = (word >> 43) & kMask20;
  const std::uint64_t tx = (word >> 21) & kMask21;
  const std::uint64_t expected = (word >> 1) & kMask20;
  if (pending == 0 && tx == 0 && expected == 0) return std::nullopt;
  State s;
  s.phase = (word >> 63) != 0;
  s.pending = static_cast<std::uint32_t>(((std::uint64_t{1} << 20) - pending) & kMask20);
  s.expected = static_cast<std::uint32_t>(((std::uint64_t{1} << 20) - expected) & kMask20);
  const std::int64_t neg = static_cast<std::int64_t>(tx << 43) >> 43;  // sign-extend 21 bits
  s.tx = static_cast<std::int32_t>(-neg);
  return s;
}

Result init(std::uint32_t count) {
  if (count == 0 || count > kMaxCount)
    return fail(State{}, fmt::format("mbarrier.init with an expected count of {} (the PTX ISA allows 1 to {})", count,
                                     kMaxCount));
  Result r;
  r.state.expected = count;
  r.state.pending = count;
  return r;
}

Result arrive(State s, std::uint32_t count, bool drop, bool no_complete) {
  if (count == 0 || count > kMaxCount)
    return fail(s, fmt::format("an arrive-on operation with a count of {} (the PTX ISA allows 1 to {})", count, kMaxCount));
  if (drop) {
    if (count > s.expected)
      return fail(s, fmt::format("arrive_drop of {} on an mbarrier that expects {} arrivals", count, s.expected));
    s.expected -= count;
  }
  if (count > s.pending)
    return fail(s, fmt::format("an arrive-on operation of {} arrival{} on an mbarrier with {} pending ({})", count,
                               count == 1 ? "" : "s", s.pending, describe(s)));
  s.pending -= count;
  Result r = settle(s);
  if (r.completed && no_complete)
    return fail(s, "mbarrier.arrive.noComplete completed the current phase (the PTX ISA leaves that undefined)");
  return r;
}

namespace {
Result add_tx(State s, std::int64_t delta, const char* what, bool may_complete) {
  const std::int64_t tx = std::int64_t{s.tx} + delta;
  if (tx > std::int64_t{kMaxCount} || tx < -std::int64_t{kMaxCount})
    return fail(s, fmt::format("{} takes the tx-count to {} (the PTX ISA allows -{} to {})", what, tx, kMaxCount, kMaxCount));
  s.tx = static_cast<std::int32_t>(tx);
  if (may_complete) return settle(s);
  Result r;
  r.state = s;
  return r;
}
}  // namespace

// The ISA gives the "potentially completing the current phase" step to the arrive-on and the
// complete-tx operations only (9.7.13.15.5, 9.7.13.15.7): expect-tx adds to the tx-count and
// completes nothing.
Result expect_tx(State s, std::uint32_t n) { return add_tx(s, n, "expect-tx", false); }

Result complete_tx(State s, std::uint32_t n) { return add_tx(s, -std::int64_t{n}, "complete-tx", true); }

std::string describe(const State& s) {
  return fmt::format("phase parity {}: {} of {} arrivals pending, tx-count {}", s.phase ? 1 : 0, s.pending, s.expected,
                     s.tx);
}

}  // namespace warpscope::exec::mbar
