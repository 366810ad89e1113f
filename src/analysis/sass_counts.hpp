// Instruction counts as the sm_90 machine code executes them (issue 19): ptxas's cubin (sass.hpp)
// split into basic blocks, each block tied to the PTX block its instructions' PTX lines fall in,
// and its executions taken from the interpreter's per-PTX-instruction counts
// (LaunchStats::pc_instructions / pc_thread_instructions). The result is what Nsight Compute calls
// smsp__inst_executed.sum, smsp__thread_inst_executed.sum and smsp__sass_inst_executed_op_*,
// per opcode and per machine-code instruction (for the per-line table).
//
// Contract:
//  - count_launch() never runs the machine code: a block's warp executions are the executions of
//    the PTX block it follows (docs/analysis.md, "Instruction counts from the machine code").
//    `exact` is false when some executed block could not be tied to one PTX block with certainty
//    (ptxas unrolled or restructured a loop, or a block has no PTX line); `notes` say which blocks.
//  - Thread executions are the active lanes of the warp when the instruction issues, including
//    lanes whose guard predicate is false (smsp__thread_inst_executed counts those too);
//    `thread_pred_on` counts only the lanes whose guard is true, which the machine code's own
//    predicates decide: it is exact for unguarded instructions and for guarded ones whose PTX
//    instruction has the same guard or `@!PT` (0), else estimated (the PTX's predicated-on lanes).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/sass.hpp"

namespace warpscope::analysis::sass {

/// What kind of work an opcode is, for the time model: which pipe issues it. Derived from the
/// mnemonic (opcode_info); names follow Nsight Compute's instruction classes.
enum class InstClass : std::uint8_t {
  kFp32,         // FADD, FMUL, FFMA, FMNMX, FSETP, FSEL, FCHK ... (fma/fmaheavy pipe)
  kFp64,         // DADD, DMUL, DFMA, DSETP
  kFp16,         // HADD2, HMUL2, HFMA2, HSETP2
  kInteger,      // IADD3, IMAD, LOP3, ISETP, SHF, LEA, SEL, PRMT, VIADD ... (alu/fma pipe)
  kConversion,   // F2I, I2F, F2F, I2FP, FRND
  kMufu,         // MUFU (transcendentals: the XU pipe)
  kMove,         // MOV, S2R, CS2R, LDC (constant loads), SHFL is kInterThread
  kUniform,      // U* instructions (the uniform datapath: ULDC, UIADD3, S2UR, R2UR ...)
  kInterThread,  // SHFL, VOTE, REDUX, MATCH
  kLoadGlobal,   // LDG
  kStoreGlobal,  // STG
  kAtomicGlobal, // ATOMG, REDG, ATOM (generic)
  kLoadLocal,    // LDL
  kStoreLocal,   // STL
  kLoadShared,   // LDS, LDSM
  kStoreShared,  // STS, STSM
  kAtomicShared, // ATOMS
  kLoadGeneric,  // LD (generic address)
  kStoreGeneric, // ST
  kAsyncCopy,    // LDGSTS, LDGDEPBAR, UBLKCP, UTMA*
  kTexture,      // TEX, TLD, TLD4, TXQ, SULD, SUST, SURED
  kTensor,       // HMMA, IMMA, HGMMA, DMMA
  kBranch,       // BRA, BRX, JMP, CALL, RET, EXIT, BSSY, BSYNC, WARPSYNC, BREAK, YIELD
  kBarrier,      // BAR, MEMBAR, DEPBAR, ERRBAR, CCTL, SYNCS (mbarrier)
  kNop,          // NOP
  kOther,        // anything else, and opcodes this table does not know
};
std::string_view to_string(InstClass c);

/// The mnemonic and class of an sm_90 opcode (Inst::opcode, bits 0..11): read off the
/// cuobjdump listings of H100 builds (tests/hw/data/h100/**/*.sass). Unknown opcodes are
/// "OP_0x<hex>" of class kOther.
struct OpcodeInfo {
  std::string_view mnemonic;
  InstClass cls = InstClass::kOther;
};
OpcodeInfo opcode_info(std::uint16_t opcode);

/// One opcode's executions in a launch (all of its variants: IMAD.WIDE and IMAD.SHL are IMAD).
struct OpcodeCount {
  std::string mnemonic;               // "FFMA", "LDG", "OP_0x2a7" when unknown
  InstClass cls = InstClass::kOther;
  std::uint64_t warp = 0;             // warp-level executions (its share of smsp__inst_executed)
  std::uint64_t thread = 0;           // active lanes summed (its share of smsp__thread_inst_executed)
  std::uint64_t thread_pred_on = 0;   // lanes whose guard was true (see the contract)
};

/// One machine-code instruction's executions, for the per-line table and listings.
struct InstCount {
  std::uint32_t offset = 0;           // in the function's .text
  std::uint16_t opcode = 0;
  std::int64_t ptx_pc = -1;           // the PTX instruction its PTX line names (Module::instructions; the
                                      // function's first instruction: the first after its line); -1: none
  std::uint64_t warp = 0;
  std::uint64_t thread = 0;
  std::uint64_t thread_pred_on = 0;
};

/// Per launch: the machine code's executed instructions. This is what the time model reads.
struct LaunchSassCounts {
  bool available = false;             // false: no cubin (not sm_90, no ptxas, WARPSCOPE_SASS=none)
  bool exact = false;                 // every executed block tied to one PTX block
  std::vector<std::string> notes;     // why not exact, one line per block ("block at 0x1a0: ...")
  std::uint64_t warp_instructions = 0;    // smsp__inst_executed.sum
  std::uint64_t thread_instructions = 0;  // smsp__thread_inst_executed.sum
  std::uint64_t thread_pred_on = 0;       // smsp__thread_inst_executed_pred_on.sum
  std::vector<OpcodeCount> opcodes;   // executed opcodes, by mnemonic
  std::vector<InstCount> instructions;  // every instruction of the function, in code order

  /// Sum of `warp` over the opcodes of class `c` (0 when none).
  std::uint64_t warp_of(InstClass c) const;
  std::uint64_t thread_of(InstClass c) const;
};

/// Derives the machine code's counts of one launch of `sass` from the interpreter's per-PTX-
/// instruction counts. `ptx` describes the kernel's PTX instructions (as for plan_spills);
/// `pc_warp` / `pc_thread` are LaunchStats::pc_instructions / pc_thread_instructions (compiled
/// accesses past ptx.size() are ignored).
LaunchSassCounts count_launch(const Function& sass, std::span<const PtxInst> ptx, std::span<const std::uint64_t> pc_warp,
                              std::span<const std::uint64_t> pc_thread);

}  // namespace warpscope::analysis::sass
