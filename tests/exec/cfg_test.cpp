// Immediate post-dominators: where divergent lanes reconverge.
#include <gtest/gtest.h>

#include "exec/cfg.hpp"

namespace warpscope::exec {
namespace {

CfgInst plain() { return {}; }
CfgInst br(std::uint32_t target, bool guarded) {
  return CfgInst{CfgInst::Kind::kBranch, guarded, target, {}};
}
CfgInst ret(bool guarded = false) { return CfgInst{CfgInst::Kind::kExit, guarded, 0, {}}; }

TEST(Cfg, IfElseReconvergesAtTheJoin) {
  // 0: @p bra 3; 1: then; 2: bra 4; 3: else; 4: join; 5: ret
  const std::vector<CfgInst> code = {br(3, true), plain(), br(4, false), plain(), plain(), ret()};
  const auto ip = immediate_postdominators(code);
  EXPECT_EQ(ip[0], 4u);
}

TEST(Cfg, IfWithoutElse) {
  // 0: x; 1: @p bra 3; 2: then; 3: join; 4: ret
  const std::vector<CfgInst> code = {plain(), br(3, true), plain(), plain(), ret()};
  EXPECT_EQ(immediate_postdominators(code)[1], 3u);
}

TEST(Cfg, LoopExitIsThePostDominatorOfTheBackEdge) {
  // 0: init; 1: body; 2: @p bra 1 (back edge); 3: after; 4: ret
  const std::vector<CfgInst> code = {plain(), plain(), br(1, true), plain(), ret()};
  EXPECT_EQ(immediate_postdominators(code)[2], 3u);
}

TEST(Cfg, LoopWithBreak) {
  // 0: head; 1: @p bra 4 (break); 2: body; 3: @q bra 0 (continue loop); 4: after; 5: ret
  const std::vector<CfgInst> code = {plain(), br(4, true), plain(), br(0, true), plain(), ret()};
  const auto ip = immediate_postdominators(code);
  EXPECT_EQ(ip[1], 4u);
  EXPECT_EQ(ip[3], 4u);
}

TEST(Cfg, EarlyReturnsMeetOnlyAtTheExit) {
  // 0: @p bra 2; 1: ret; 2: x; 3: ret
  const std::vector<CfgInst> code = {br(2, true), ret(), plain(), ret()};
  EXPECT_EQ(immediate_postdominators(code)[0], kNoIpdom);
}

TEST(Cfg, GuardedReturnFallsThrough) {
  // 0: @p bra 3; 1: @q ret; 2: x; 3: y; 4: ret
  const std::vector<CfgInst> code = {br(3, true), ret(true), plain(), plain(), ret()};
  const auto ip = immediate_postdominators(code);
  EXPECT_EQ(ip[0], kNoIpdom);  // the path through 1 may leave: only the exit post-dominates
  EXPECT_EQ(ip[1], kNoIpdom);
}

TEST(Cfg, NestedBranches) {
  // 0: @p bra 5; 1: @q bra 3; 2: a; 3: b; 4: bra 6; 5: c; 6: join; 7: ret
  const std::vector<CfgInst> code = {br(5, true), br(3, true), plain(), plain(), br(6, false), plain(), plain(), ret()};
  const auto ip = immediate_postdominators(code);
  EXPECT_EQ(ip[0], 6u);
  EXPECT_EQ(ip[1], 3u);
}

TEST(Cfg, InfiniteLoopHasNoPostDominator) {
  // 0: @p bra 2; 1: bra 1 (spin); 2: ret
  const std::vector<CfgInst> code = {br(2, true), br(1, false), ret()};
  EXPECT_EQ(immediate_postdominators(code)[0], 2u);
  EXPECT_EQ(immediate_postdominators(code)[1], kNoIpdom);
}

}  // namespace
}  // namespace warpscope::exec
