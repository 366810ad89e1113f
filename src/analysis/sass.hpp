// The machine code ptxas makes from a module's PTX, read back from the cubin: which of its
// instructions touch memory, how wide, at which offset, and which PTX line each came from. The
// interpreter runs PTX, so two things only the machine code shows would be missing from its
// counts: register spills (local loads and stores ptxas adds after register allocation) and
// accesses ptxas merges or copies. This header finds them: plan_spills, plan_merges (shared loads
// and stores made one wider instruction) and plan_lane_groups (a load copied into an unrolled loop and
// remainder blocks, whose lanes group as the copies run).
//
// Contract:
//  - decode_sm90() understands the sm_90 (Hopper) encoding of the instructions listed in Kind;
//    every other instruction is kOther. NVIDIA does not publish the encoding; the fields used
//    here were read off cuobjdump -sass listings of H100 builds (tests/hw/data/h100/**/*.sass,
//    which print each instruction's two 64-bit words), and tests/analysis/sass_test.cpp decodes
//    every instruction of those listings and compares it with cuobjdump's text:
//      opcode       bits 0..11 of the low word
//      guard        bits 12..14 predicate (7 = PT, no guard), bit 15 negates it
//      LDL/STL/LDS/STS/LDG/STG: address register bits 24..31 (255 = RZ), signed 24-bit offset
//                   bits 40..63; width code bits 9..11 of the high word (0 U8, 1 S8, 2 U16,
//                   3 S16, 4 32, 5 64, 6 128)
//      BRA/CALL     target = next + 4 * (bits 16..23) + 1024 * sext(bits 34..63 : high 0..17)
//      BSSY         target = next + sext(bits 32..63 : high 0..17)
//      control      high word bits 41..44 stall cycles, 45 yield, 46..48 write barrier, 49..51
//                   read barrier (7: none), 52..57 wait mask, 58..61 reuse: the layout Jia et
//                   al. 2018 ("Dissecting the NVIDIA Volta GPU Architecture via
//                   Microbenchmarking", section 2) publish for Volta; on the H100 listings a
//                   dependent FFMA chain carries stall 4 and an LDG's consumer waits on the LDG's
//                   write barrier (tests/analysis/sass_latency_test.cpp)
//  - read_cubin() reads a cubin made by `ptxas -lineinfo`: one Function per `.text.<name>`
//    section, and each instruction's PTX line from `.nv_debug_line_sass` (a DWARF line table
//    over the PTX text ptxas was given; its DW_LNE_set_address operands are relocated against the
//    section symbols, which is how a sequence names its function). ptx_line is 0 where the table
//    says nothing. A malformed file is Error(kParse); a cubin for another GPU is Error(kUnsupported).
//  - plan_spills() finds the spill loads and stores of one function (LDL/STL off the stack
//    pointer R1 whose PTX line is not a PTX local access) and the PTX instruction each should be
//    counted with (docs/analysis.md, "Spills from the machine code").
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/warpscope.hpp"

namespace warpscope::analysis::sass {

enum class Kind : std::uint8_t {
  kOther,
  kLoadLocal,    // LDL
  kStoreLocal,   // STL
  kLoadShared,   // LDS
  kStoreShared,  // STS
  kLoadGlobal,   // LDG
  kStoreGlobal,  // STG
  kBranch,       // BRA (relative)
  kCall,         // CALL.REL
  kExit,         // EXIT
  kReturn,       // RET
  kSyncPoint,    // BSSY: target is where the lanes meet again
};

inline constexpr std::uint8_t kNoGuard = 7;
inline constexpr std::uint8_t kNoBarrier = 7;
inline constexpr std::uint8_t kStackPointer = 1;  // R1, the ABI's stack pointer
inline constexpr std::uint8_t kRegZero = 255;     // RZ
inline constexpr std::uint8_t kNoConst = 255;     // Inst::const_bank of instructions without one

struct Inst {
  std::uint32_t offset = 0;   // in the function's .text section
  std::uint16_t opcode = 0;   // bits 0..11
  Kind kind = Kind::kOther;
  std::uint8_t guard = kNoGuard;  // predicate register, kNoGuard: unguarded
  bool guard_negated = false;
  std::uint8_t width = 0;     // memory kinds: bytes per thread
  std::uint8_t base = kRegZero;   // memory kinds: address register
  std::int32_t imm = 0;       // memory kinds: address offset
  std::int64_t target = -1;   // kBranch, kCall, kSyncPoint: byte offset of the target
  std::uint32_t ptx_line = 0; // from .nv_debug_line_sass; 0: unknown
  // LDC / ULDC: the constant operand c[const_bank][const_index + const_offset] (const_index
  // kRegZero: an immediate address); const_bank kNoConst for other instructions.
  std::uint8_t const_bank = kNoConst;
  std::uint8_t const_index = kRegZero;
  std::uint32_t const_offset = 0;
  // The control word (decode_sm90; sass_latency.hpp uses it): cycles to wait before the next
  // instruction issues, the yield hint, the scoreboard (dependency barrier, 0..5; kNoBarrier: none)
  // the instruction releases when its result is written and when its operands have been read, the
  // scoreboards it waits for before it issues (bit i: barrier i), and the operand reuse flags.
  std::uint8_t stall = 0;
  bool yield = false;
  std::uint8_t write_barrier = 7, read_barrier = 7;
  std::uint8_t wait_mask = 0;
  std::uint8_t reuse = 0;

  bool guarded() const { return guard != kNoGuard || guard_negated; }
  bool memory() const { return kind >= Kind::kLoadLocal && kind <= Kind::kStoreGlobal; }
  bool local() const { return kind == Kind::kLoadLocal || kind == Kind::kStoreLocal; }
};

/// Decodes one sm_90 instruction from its two 64-bit words.
Inst decode_sm90(std::uint64_t lo, std::uint64_t hi, std::uint32_t offset = 0);

/// "STL [R1+0x34]" style text for reports.
std::string describe(const Inst& inst);

struct Function {
  std::string name;  // the mangled name: the section is `.text.<name>`
  std::vector<Inst> code;
};

/// The functions of an sm_90 cubin. `origin` names the file in errors.
std::vector<Function> read_cubin(std::span<const std::uint8_t> cubin, std::string_view origin);

/// What plan_spills() needs of each PTX instruction of the function, indexed by pc
/// (Module::instructions order).
struct PtxInst {
  enum class Flow : std::uint8_t { kPlain, kBranch, kExit };  // kExit: ret, exit, trap
  Flow flow = Flow::kPlain;
  bool guarded = false;
  std::uint32_t target = 0;     // kBranch: target pc
  std::uint32_t ptx_line = 0;
  bool local_memory = false;    // a PTX ld/st/atom on .local (its own LDL/STL are not spills)
  bool anchor_ok = false;       // may carry spills: an unguarded instruction that only computes
  // ld.shared / st.shared (not atomic): its bytes per lane and its address, register + offset.
  bool shared_load = false;
  bool shared_store = false;
  bool local_load = false;      // ld.local (its width too)
  std::uint8_t width = 0;
  std::string address_register;
  std::int64_t address_offset = 0;
};

struct Spill {
  std::uint32_t anchor = 0;       // the PTX pc whose executions the spill access follows
  bool store = false;
  std::uint8_t width = 4;
  std::int32_t frame_offset = 0;  // bytes from the thread's stack pointer
  std::uint32_t sass_offset = 0;
  std::string text;               // describe() of the instruction
};

struct SpillPlan {
  std::vector<Spill> spills;      // in machine-code order
  std::uint32_t unplaced = 0;     // spill instructions with no PTX block to follow (not counted)
};

/// Shared loads (stores) the machine code merged: a group of PTX ld.shared (st.shared) of one
/// block, one register and consecutive offsets, whose bytes the machine code accesses with LDS
/// (STS) `width` bytes wide on the line of one of them, the others having none of their own.
/// `pc` is the group's lowest offset (its records become `width` wide), `absorbed` the others
/// (no records). E.g. ld.shared.f32 [%r7], [%r7+4], [%r7+8], [%r7+12] as one LDS.128 (on the
/// first one's line); st.shared.u32 [%r7], [%r7+4] as one STS.64 (on the second one's line).
/// A Merge whose width is the PTX access's own absorbs loads ptxas did not make at all: a later
/// ld.shared of the same register, offset and width in the same block, with no LDS of its own and
/// no st.shared, branch or barrier between, reads the register the first one's LDS filled.
struct Merge {
  std::uint32_t pc = 0;
  std::uint8_t width = 0;
  std::vector<std::uint32_t> absorbed;
};
std::vector<Merge> plan_merges(const Function& sass, std::span<const PtxInst> ptx);

/// The lane groupings of the PTX local loads ptxas copied into several places (warpscope.hpp,
/// LaneGrouping): a PTX ld.local that is the only local load of its PTX line, whose line has two or
/// more LDL of the same width, none guarded, in a function without calls or returns whose loops
/// are natural loops. A lane's path is a path of the machine code's control flow from its entry to
/// an EXIT; the loads it makes are the LDL of its line in the blocks it passes; a step is a block
/// visit, named by the block and the iteration of each loop around it that contains copies (so that
/// the lanes of one iteration share it). paths[n] is the one sequence of steps of all paths that
/// make n loads (n <= max_count), or empty where several sequences make n. Loads none of whose
/// counts has a unique path, and functions whose search exceeds its bounds, get no grouping.
std::vector<LaneGrouping> plan_lane_groups(const Function& sass, std::span<const PtxInst> ptx,
                                           unsigned max_count = 64);

/// Spills of `sass`, each anchored in the PTX block its machine-code block came from: the block
/// most of its instructions' PTX lines fall in, among blocks that are in a loop exactly when the
/// machine-code block is (ptxas moves a few instructions across a loop's edges; a loop stays a
/// loop). The anchor is that block's first instruction with anchor_ok.
SpillPlan plan_spills(const Function& sass, std::span<const PtxInst> ptx);

}  // namespace warpscope::analysis::sass
