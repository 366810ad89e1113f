// src/analysis/sass_counts: the opcode table against cuobjdump's listings of H100 builds, and the
// machine-code counts derived from PTX block counts on hand-made functions (expected values from
// the rules in docs/analysis.md, "Instruction counts from the machine code").
#include "analysis/sass_counts.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace fs = std::filesystem;
namespace sass = warpscope::analysis::sass;

namespace {

TEST(SassCounts, OpcodeTableNamesEveryListedInstruction) {
  const std::regex first(R"(^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;?\s*/\* 0x([0-9a-f]{16}) \*/)");
  std::size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(WARPSCOPE_SOURCE_DIR) / "tests/hw/data/h100")) {
    if (e.path().extension() != ".sass") continue;
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line)) {
      std::smatch m;
      if (!std::regex_search(line, m, first)) continue;
      std::string text = m[2];
      if (!text.empty() && text[0] == '@') text = text.substr(text.find(' ') + 1);
      const std::string mnemonic = text.substr(0, text.find_first_of(" .;"));
      const auto lo = std::stoull(m[3], nullptr, 16);
      EXPECT_EQ(sass::opcode_info(static_cast<std::uint16_t>(lo & 0xfff)).mnemonic, mnemonic)
          << e.path().filename() << ": " << m[2];
      ++n;
    }
  }
  EXPECT_GT(n, 5000u);
  EXPECT_EQ(sass::opcode_info(0x223).cls, sass::InstClass::kFp32);  // FFMA
  EXPECT_EQ(sass::opcode_info(0x308).cls, sass::InstClass::kMufu);
  EXPECT_EQ(sass::opcode_info(0x981).cls, sass::InstClass::kLoadGlobal);
  // The H200's listing of tests/hw/ncurep/tag_requests_more.cu (tests/hw/data/h200/ncurep_source):
  // REDG.E.ADD.F32.FTZ.RN.STRONG.GPU is 0x...79a6, ATOMG.E.ADD.STRONG.GPU 0x...79a8.
  EXPECT_EQ(sass::opcode_info(0x9a6).mnemonic, "REDG");
  EXPECT_EQ(sass::opcode_info(0x9a6).cls, sass::InstClass::kAtomicGlobal);
  EXPECT_EQ(sass::opcode_info(0x9a8).mnemonic, "ATOMG");
  EXPECT_EQ(sass::opcode_info(0x9a8).cls, sass::InstClass::kAtomicGlobal);
  EXPECT_EQ(sass::opcode_info(0x1ff).mnemonic, "OP_0x1ff");
  EXPECT_EQ(sass::opcode_info(0x1ff).cls, sass::InstClass::kOther);
}

// Hand-made machine code: opcode, PTX line, guard; offsets 16 bytes apart.
sass::Inst inst(std::uint16_t opcode, std::uint32_t line, bool guarded = false) {
  sass::Inst in;
  in.opcode = opcode;
  in.ptx_line = line;
  if (guarded) in.guard = 0;
  if (opcode == 0x94d) in.kind = sass::Kind::kExit;
  return in;
}

sass::Function function(std::vector<sass::Inst> code) {
  sass::Function f;
  f.name = "k";
  for (std::size_t i = 0; i < code.size(); ++i) code[i].offset = static_cast<std::uint32_t>(16 * i);
  f.code = std::move(code);
  return f;
}

sass::PtxInst ptx(std::uint32_t line, bool guarded = false, sass::PtxInst::Flow flow = sass::PtxInst::Flow::kPlain,
                  std::uint32_t target = 0) {
  sass::PtxInst p;
  p.ptx_line = line;
  p.guarded = guarded;
  p.flow = flow;
  p.target = target;
  return p;
}

constexpr std::uint16_t kIsetp = 0x20c, kIadd3 = 0x210, kFfma = 0x223, kExit = 0x94d;

TEST(SassCounts, StraightLineFollowsItsPtxBlock) {
  // PTX: 2 instructions run by 8 warps, 200 lanes; machine code: 3 instructions and EXIT.
  const std::vector<sass::PtxInst> p = {ptx(10), ptx(11), ptx(12, false, sass::PtxInst::Flow::kExit)};
  const std::vector<std::uint64_t> warp = {8, 8, 8}, thread = {200, 200, 200};
  const auto f = function({inst(kIadd3, 10), inst(kFfma, 11), inst(kFfma, 11), inst(kExit, 12)});
  const sass::LaunchSassCounts c = sass::count_launch(f, p, warp, thread);
  EXPECT_TRUE(c.available);
  EXPECT_TRUE(c.exact);
  EXPECT_EQ(c.warp_instructions, 4u * 8);
  EXPECT_EQ(c.thread_instructions, 4u * 200);
  EXPECT_EQ(c.warp_of(sass::InstClass::kFp32), 16u);
  EXPECT_EQ(c.thread_of(sass::InstClass::kFp32), 400u);
  ASSERT_EQ(c.opcodes.size(), 3u);  // EXIT, FFMA, IADD3
  EXPECT_EQ(c.opcodes[1].mnemonic, "FFMA");
  EXPECT_EQ(c.opcodes[1].warp, 16u);
}

TEST(SassCounts, IfConvertedBodyRunsAsOftenAsTheBranch) {
  // PTX: setp; @p bra L; add; L: ret. 10 warps (320 lanes) run the branch, 4 warps (50 lanes)
  // the add. ptxas if-converts: ISETP; @P0 IADD3; EXIT in one block, run 10 times with 320
  // lanes each; the guarded IADD3's predicated-on lanes are the add's 50.
  const std::vector<sass::PtxInst> p = {ptx(10), ptx(11, true, sass::PtxInst::Flow::kBranch, 3), ptx(12),
                                        ptx(13, false, sass::PtxInst::Flow::kExit)};
  const std::vector<std::uint64_t> warp = {10, 10, 4, 10}, thread = {320, 100, 50, 320};
  const auto f = function({inst(kIsetp, 10), inst(kIadd3, 12, true), inst(kExit, 13)});
  const sass::LaunchSassCounts c = sass::count_launch(f, p, warp, thread);
  EXPECT_TRUE(c.exact);
  EXPECT_EQ(c.warp_instructions, 30u);
  EXPECT_EQ(c.thread_instructions, 960u);
  EXPECT_EQ(c.thread_pred_on, 320u + 50 + 320);
  ASSERT_EQ(c.instructions.size(), 3u);
  EXPECT_EQ(c.instructions[1].warp, 10u);
  EXPECT_EQ(c.instructions[1].ptx_pc, 2);
}

TEST(SassCounts, UnreachableCodeIsNotCounted) {
  // EXIT, then the BRA-to-itself and NOPs after it never run.
  sass::Inst bra = inst(0x947, 0);
  bra.kind = sass::Kind::kBranch;
  bra.target = 32;  // itself (offset 2 * 16)
  const std::vector<sass::PtxInst> p = {ptx(10), ptx(11, false, sass::PtxInst::Flow::kExit)};
  const std::vector<std::uint64_t> warp = {5, 5}, thread = {160, 160};
  const auto f = function({inst(kIadd3, 10), inst(kExit, 11), bra, inst(0x918, 0)});
  const sass::LaunchSassCounts c = sass::count_launch(f, p, warp, thread);
  EXPECT_TRUE(c.exact);
  EXPECT_EQ(c.warp_instructions, 10u);
  EXPECT_EQ(c.thread_instructions, 320u);
  EXPECT_EQ(c.instructions[2].warp, 0u);
}

}  // namespace
