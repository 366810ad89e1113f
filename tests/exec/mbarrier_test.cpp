// The mbarrier object's state and operations (src/exec/mbarrier.hpp) against the PTX ISA 9.0
// (9.7.13.15: phase completion, arrive-on, expect-tx, complete-tx, the counts' ranges) and the
// H100's word layout (tests/hw/data/h100/async/README.md).
#include "exec/mbarrier.hpp"

#include <gtest/gtest.h>

namespace warpscope::exec::mbar {
namespace {

TEST(Mbarrier, InitWordIsTheH100s) {
  const Result r = init(5);
  ASSERT_TRUE(r.error.empty());
  // ptxas's SYNCS.EXCH.64 operand for mbarrier.init with 5: ((2^20 - 5) << 43) | ((2^20 - 5) << 1).
  EXPECT_EQ(encode(r.state), (std::uint64_t{0xffffb} << 43) | (std::uint64_t{0xffffb} << 1));
  EXPECT_EQ(encode(r.state), 0x7fffd800001ffff6u);
  EXPECT_FALSE(init(0).error.empty());
  EXPECT_FALSE(init(1u << 20).error.empty());
  EXPECT_TRUE(init((1u << 20) - 1).error.empty());
}

TEST(Mbarrier, WordsRoundTrip) {
  for (const State s : {State{false, 5, 5, 0}, State{true, 1, 3, 76}, State{false, (1u << 20) - 1, (1u << 20) - 1, -24},
                        State{true, 0, 7, 1000}, State{false, 2, 2, -(1 << 20) + 1}}) {
    const auto d = decode(encode(s));
    ASSERT_TRUE(d.has_value());
    EXPECT_EQ(d->phase, s.phase);
    EXPECT_EQ(d->pending, s.pending);
    EXPECT_EQ(d->expected, s.expected);
    EXPECT_EQ(d->tx, s.tx);
  }
  EXPECT_FALSE(decode(0).has_value());                // never initialized
  EXPECT_FALSE(decode(std::uint64_t{1} << 63).has_value());  // every participant dropped
  // The word mbarrier.inval left on the H100 (phase 1, 3 of 3 pending).
  EXPECT_EQ(encode(State{true, 3, 3, 0}), 0xffffe800001ffffau);
}

TEST(Mbarrier, PhaseCompletesWhenArrivalsAndTransactionsAreDone) {
  State s = init(2).state;
  Result r = arrive(s, 1, false, false);
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.state.pending, 1u);
  r = expect_tx(r.state, 64);  // expect-tx completes nothing
  EXPECT_FALSE(r.completed);
  r = arrive(r.state, 1, false, false);  // no arrivals pending, 64 transaction bytes still are
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.state.pending, 0u);
  EXPECT_EQ(r.state.tx, 64);
  r = complete_tx(r.state, 64);
  EXPECT_TRUE(r.completed);
  EXPECT_TRUE(r.state.phase);
  EXPECT_EQ(r.state.pending, 2u);  // reinitialized to the expected count
  EXPECT_EQ(r.state.tx, 0);
  // complete-tx before expect-tx: a negative tx-count, and no completion at zero pending arrivals
  // until it is back to zero.
  r = complete_tx(r.state, 16);
  EXPECT_EQ(r.state.tx, -16);
  r = arrive(r.state, 2, false, false);
  EXPECT_FALSE(r.completed);
  r = expect_tx(r.state, 16);  // tx-count 0, but expect-tx does not complete a phase
  EXPECT_FALSE(r.completed);
  EXPECT_EQ(r.state.tx, 0);
}

TEST(Mbarrier, ArriveDropLowersTheExpectedCount) {
  Result r = arrive(init(4).state, 1, true, false);
  EXPECT_EQ(r.state.expected, 3u);
  EXPECT_EQ(r.state.pending, 3u);
  r = arrive(r.state, 3, false, false);
  EXPECT_TRUE(r.completed);
  EXPECT_EQ(r.state.pending, 3u);
}

TEST(Mbarrier, UndefinedOperationsAreErrors) {
  EXPECT_NE(arrive(init(2).state, 3, false, false).error.find("3 arrivals on an mbarrier with 2 pending"), std::string::npos);
  EXPECT_NE(arrive(init(1).state, 1, false, true).error.find("noComplete completed the current phase"), std::string::npos);
  EXPECT_FALSE(arrive(init(2).state, 0, false, false).error.empty());
  EXPECT_FALSE(expect_tx(init(2).state, 1u << 20).error.empty());
  EXPECT_FALSE(complete_tx(init(2).state, 1u << 20).error.empty());
  EXPECT_FALSE(arrive(init(2).state, 3, true, false).error.empty());  // drops more than expected
}

TEST(Mbarrier, TokensAndWaits) {
  const State s = init(5).state;
  const std::uint64_t token = encode(s);  // what mbarrier.arrive returns: the word before it
  EXPECT_EQ(pending_count(token), 5u);
  EXPECT_EQ(pending_count(encode(State{false, 4, 5, 0})), 4u);
  EXPECT_EQ(token >> 32, 0x7fffd800u);  // the H100's token of that arrive (step 1)
  const std::uint64_t now = encode(State{false, 4, 5, 0});
  EXPECT_FALSE(phase_done(now, token));
  EXPECT_TRUE(phase_done(encode(State{true, 5, 5, 0}), token));
  EXPECT_FALSE(parity_done(now, 0));  // the current phase has parity 0
  EXPECT_TRUE(parity_done(now, 1));   // "the immediately preceding phase"
  EXPECT_TRUE(parity_done(now, 3));   // only the low bit counts
}

}  // namespace
}  // namespace warpscope::exec::mbar
