// The control words of sm_90 machine code (sass.hpp: stall cycles, scoreboards, wait masks) on a
// cubin ptxas makes at test time, and one warp's time through hand-made blocks
// (sass_latency.hpp). Expected values follow the rules of docs/time.md, "Latency from the
// machine code", and the layout Jia et al. 2018 publish for Volta's control bits.
#include "analysis/sass_latency.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <unistd.h>

#include "analysis/ptxas.hpp"
#include "analysis/sass_counts.hpp"

namespace fs = std::filesystem;
namespace sass = warpscope::analysis::sass;
namespace ptxas = warpscope::analysis::ptxas;

namespace {

// A load, a chain of four dependent FFMAs on its value, and a store of the last one.
constexpr const char* kChainPtx = R"(.version 9.0
.target sm_90
.address_size 64
.visible .entry chain(.param .u64 chain_param_0)
{
  .reg .f32 %f<6>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [chain_param_0];
  cvta.to.global.u64 %rd2, %rd1;
  ld.global.f32 %f1, [%rd2];
  fma.rn.f32 %f2, %f1, %f1, %f1;
  fma.rn.f32 %f3, %f2, %f2, %f2;
  fma.rn.f32 %f4, %f3, %f3, %f3;
  fma.rn.f32 %f5, %f4, %f4, %f4;
  st.global.f32 [%rd2], %f5;
  ret;
}
)";

TEST(SassControl, DependentFfmaStallsFourAndTheLoadsConsumerWaitsOnItsBarrier) {
  const ptxas::Located where = ptxas::find_ptxas();
  if (!where.found()) GTEST_SKIP() << "no ptxas: " << where.reason;
  const fs::path cache = fs::temp_directory_path() / ("warpscope_sass_latency_" + std::to_string(::getpid()));
  ptxas::Options o;
  o.ptxas = where.path;
  o.cache_dir = cache.string();
  o.cubin = true;
  const ptxas::Result r = ptxas::analyze(kChainPtx, "sm_90", o);
  fs::remove_all(cache);
  ASSERT_TRUE(r.available) << r.unavailable_reason;
  const std::vector<sass::Function> fns = sass::read_cubin(r.cubin, "chain.cubin");
  ASSERT_EQ(fns.size(), 1u);
  const auto& code = fns[0].code;
  std::vector<std::size_t> ffma;
  std::size_t ldg = code.size();
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i].kind == sass::Kind::kLoadGlobal) ldg = i;
    if (sass::opcode_info(code[i].opcode).mnemonic == "FFMA") ffma.push_back(i);
  }
  ASSERT_LT(ldg, code.size());
  ASSERT_EQ(ffma.size(), 4u);
  // The load releases a scoreboard (0..5) when its data arrives; it is variable latency.
  const int bar = code[ldg].write_barrier;
  ASSERT_LT(bar, 6);
  // Its consumer, the first FFMA, waits for that scoreboard.
  EXPECT_NE((code[ffma[0]].wait_mask >> bar) & 1, 0) << int(code[ffma[0]].wait_mask);
  // FFMA is fixed latency (4 cycles on Volta and later, Jia et al.; 4.07 measured on the H100):
  // no scoreboard, and each one whose result the next FFMA reads waits 4 cycles before it.
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(code[ffma[k]].write_barrier, sass::kNoBarrier) << k;
    EXPECT_EQ(code[ffma[k]].stall, 4) << k;
    EXPECT_EQ(ffma[k + 1], ffma[k] + 1) << k;
  }
  // One warp alone: the FFMAs after the first issue 4 cycles apart, and the first one waits for
  // the load's latency (here 500 cycles) from the load's issue.
  std::vector<double> latency(code.size(), 0.0);
  latency[ldg] = 500;
  const std::vector<double> cost = sass::issue_costs(fns[0], latency, 4);
  EXPECT_DOUBLE_EQ(cost[ffma[1]], 4);
  EXPECT_DOUBLE_EQ(cost[ffma[2]], 4);
  // From the load's issue to the first FFMA's: 500 cycles; then the FFMA's own 4.
  double from_load = 0;
  for (std::size_t i = ldg; i <= ffma[0]; ++i) from_load += cost[i];
  EXPECT_DOUBLE_EQ(from_load, 500 + 4);
}

// Hand-made code: opcode-free instructions with control words; offsets 16 bytes apart.
sass::Inst ctl(int stall, int write_bar = 7, int wait = 0, sass::Kind kind = sass::Kind::kOther) {
  sass::Inst in;
  in.kind = kind;
  in.stall = static_cast<std::uint8_t>(stall);
  in.write_barrier = static_cast<std::uint8_t>(write_bar);
  in.wait_mask = static_cast<std::uint8_t>(wait);
  return in;
}

sass::Function numbered(std::vector<sass::Inst> code) {
  sass::Function f;
  f.name = "k";
  for (std::size_t i = 0; i < code.size(); ++i) code[i].offset = static_cast<std::uint32_t>(16 * i);
  f.code = std::move(code);
  return f;
}

TEST(SassLatency, IndependentWorkOverlapsTheLoad) {
  // LDG (barrier 0, stall 1), an independent instruction (stall 1), its consumer (waits on 0,
  // stall 4), EXIT. The consumer issues at 100 (the load's latency), 98 cycles after it could.
  const sass::Function f = numbered({ctl(1, 0), ctl(1), ctl(4, 7, 0b1), ctl(1, 7, 0, sass::Kind::kExit)});
  const std::vector<double> cost = sass::issue_costs(f, std::vector<double>{100, 0, 0, 0}, 4);
  EXPECT_EQ(cost, (std::vector<double>{1, 1, 98 + 4, 1}));
  // Two loads on one scoreboard issued back to back overlap: the consumer waits for the later.
  const sass::Function two = numbered({ctl(1, 0), ctl(1, 0), ctl(4, 7, 0b1), ctl(1, 7, 0, sass::Kind::kExit)});
  const std::vector<double> c2 = sass::issue_costs(two, std::vector<double>{100, 100, 0, 0}, 4);
  EXPECT_EQ(c2, (std::vector<double>{1, 1, 101 - 2 + 4, 1}));
}

TEST(SassLatency, ExtraStallDelaysTheInstructionsAfterIt) {
  // LDG (barrier 0, stall 1), an instruction with 13 cycles of extra stall (the time model's BSYNC
  // cost), the load's consumer (waits on 0, stall 4), EXIT: the extra 13 cycles pass while the
  // load is in flight, so the consumer waits 100 - 1 - 14 = 85 cycles instead of 98.
  const sass::Function f = numbered({ctl(1, 0), ctl(1), ctl(4, 7, 0b1), ctl(1, 7, 0, sass::Kind::kExit)});
  const std::vector<double> cost =
      sass::issue_costs(f, std::vector<double>{100, 0, 0, 0}, 4, std::vector<double>{0, 13, 0, 0});
  EXPECT_EQ(cost, (std::vector<double>{1, 14, 85 + 4, 1}));
}

TEST(SassLatency, AScoreboardPendingAtABlocksEndCostsWhatTheSuccessorWaits) {
  // Block 0: LDG (barrier 2, stall 2), @P0 BRA to block 2 (stall 1). Block 1: an instruction of
  // stall 3, then the load's consumer (waits on 2, stall 4). Block 2: EXIT.
  std::vector<sass::Inst> code = {ctl(2, 2), ctl(1, 7, 0, sass::Kind::kBranch), ctl(3), ctl(4, 7, 0b100),
                                  ctl(1, 7, 0, sass::Kind::kExit)};
  code[1].guard = 0;
  code[1].target = 4 * 16;
  const sass::Function f = numbered(code);
  const std::vector<double> cost = sass::issue_costs(f, std::vector<double>{100, 0, 0, 0, 0}, 4);
  // Block 0 ends at 3 with the scoreboard released at 100; block 1 waits for it after 3 cycles:
  // 100 - 3 - 3 = 94 more cycles, charged to block 0's last instruction.
  EXPECT_EQ(cost, (std::vector<double>{2, 1 + 94, 3, 4, 1}));
  // Executions: each instruction's warp count times its cost.
  sass::LaunchSassCounts counts;
  for (std::uint64_t n : {10, 10, 6, 6, 10}) {
    sass::InstCount ic;
    ic.warp = n;
    counts.instructions.push_back(ic);
  }
  EXPECT_DOUBLE_EQ(sass::warp_cycles(cost, counts), 10 * 2 + 10 * 95 + 6 * 3 + 6 * 4 + 10 * 1);
}

}  // namespace
