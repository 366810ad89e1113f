// The mbarrier object (PTX ISA 9.0, section 9.7.13.15): its state and the operations on it, apart
// from how the interpreter finds it (ops_async.cpp does that).
//
// An mbarrier is an 8-byte, 8-byte-aligned object in shared memory that tracks the current phase,
// the pending arrivals of that phase, the expected arrivals of each phase and the tx-count
// (asynchronous transactions still expected). A phase completes when its pending arrivals and its
// tx-count are both zero; it then moves to the next phase and the pending arrivals start again
// at the expected count.
//
// The 64-bit word. The interpreter keeps the state in the object's own 8 bytes of shared memory,
// laid out as the H100 lays it out (tests/hw/data/h100/async: the word ptxas makes for
// mbarrier.init, the state tokens mbarrier.arrive returns, the word written back by
// mbarrier.inval, and the field ptxas extracts for mbarrier.pending_count):
//   bit 63      current phase parity
//   bits 62..43 pending arrivals, negated modulo 2^20
//   bits 41..21 tx-count, negated modulo 2^21 (a 21-bit two's complement)
//   bits 20..1  expected arrivals, negated modulo 2^20
// (bits 42 and 0 are 0). An H100 keeps a live mbarrier elsewhere and an ordinary load of its word
// returns stale bytes; the ISA calls the object opaque, so what a program reads there is not
// defined. The state token of mbarrier.arrive is the word before the arrive-on operation: its
// phase and pending fields are those the H100 returns (the H100 leaves the low 32 bits as they
// were in the destination register; here they are the word's), test_wait compares its phase
// with the current one and pending_count reads its pending field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace warpscope::exec::mbar {

inline constexpr std::uint32_t kMaxCount = (1u << 20) - 1;  // expected/pending arrivals, |tx-count|

struct State {
  bool phase = false;         // parity of the current phase
  std::uint32_t pending = 0;  // arrivals still expected in the current phase
  std::uint32_t expected = 0; // arrivals each phase starts with
  std::int32_t tx = 0;        // tx-count: transaction units still expected in this phase
};

std::uint64_t encode(const State& s);
/// The state a word holds; nullopt when the word is no initialized mbarrier (its expected,
/// pending and tx fields all zero: never initialized, or every participant dropped out).
std::optional<State> decode(std::uint64_t word);

/// The result of an operation: the new state, or why the PTX ISA leaves the operation undefined.
struct Result {
  State state;
  std::string error;  // empty: fine
  bool completed = false;  // the operation completed the current phase
};

/// mbarrier.init with `count` expected arrivals (1 .. 2^20-1).
Result init(std::uint32_t count);
/// An arrive-on operation of `count` arrivals; `drop` (arrive_drop) first lowers the expected
/// count by `count`; `no_complete` (.noComplete) must not complete the phase.
Result arrive(State s, std::uint32_t count, bool drop, bool no_complete);
/// expect-tx: tx-count += n.
Result expect_tx(State s, std::uint32_t n);
/// complete-tx: tx-count -= n, which may complete the phase.
Result complete_tx(State s, std::uint32_t n);

/// test_wait/try_wait with a state token: whether the phase the token was taken in has completed.
inline bool phase_done(std::uint64_t word, std::uint64_t token) { return ((word ^ token) >> 63) != 0; }
/// test_wait/try_wait.parity: whether the phase of that parity (the current or the one before) has
/// completed, i.e. the current phase has the other parity.
inline bool parity_done(std::uint64_t word, std::uint64_t parity) { return ((word >> 63) & 1) != (parity & 1); }
/// mbarrier.pending_count: the pending arrivals before the arrive-on that made `token`, as the
/// H100's code computes them (2^20 minus the negated field).
inline std::uint32_t pending_count(std::uint64_t token) {
  return (1u << 20) - static_cast<std::uint32_t>((token >> 43) & 0xfffffu);
}

/// "phase 3 (parity 1): 2 of 4 arrivals pending, tx-count 16" for messages.
std::string describe(const State& s);

}  // namespace warpscope::exec::mbar
