// Decoding: PTX IR -> KernelImage (program.hpp), once per kernel when a module is loaded.
//
// decode.cpp walks the kernel and every .func it calls, assigns register, constant and
// special-register slots, lays out shared memory and each function's local frame, computes
// reconvergence points (cfg.hpp), and hands each instruction to the decoder of its opcode group.
// Those live next to their semantics, one file per group (ops_*.cpp), and pick the semantic
// function for the instruction's types and modifiers. An instruction nobody can decode throws
// Error(kUnsupported) naming the opcode and the line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "exec/program.hpp"
#include "ptx/ir.hpp"

namespace warpscope::exec {

/// How an address operand is formed: slot value (per lane) + imm, in a given space.
struct AddrOperand {
  enum class Mode : std::uint8_t {
    kPlain,   // slot + imm is the address in the instruction's space
    kFrame,   // slot + imm + current frame base: a frame-relative local/param address
    kKparam,  // slot + imm is an offset into the launch's kernel parameter buffer
  };
  std::uint32_t slot = kNoSlot;
  std::int64_t imm = 0;
  Mode mode = Mode::kPlain;
  bool reg32 = false;  // the base is a 32-bit register: a .shared/.local address wraps modulo 2^32
};

/// What the per-group decoders see: the instruction's function and operand resolution.
class DecodeCtx {
 public:
  virtual ~DecodeCtx() = default;
  const ptx::Module& module() const { return *module_; }
  const ptx::Function& function() const { return *function_; }
  bool in_kernel() const { return in_kernel_; }

  /// Slot of a source operand read as type t: a register, an immediate (materialized for t),
  /// a special register, or a symbol's address. Throws kUnsupported for anything else.
  virtual std::uint32_t src(const ptx::Operand& o, ptx::Type t) = 0;
  /// Slot of a destination register; `_` gets a scratch slot.
  virtual std::uint32_t dst(const ptx::Operand& o) = 0;
  /// Resolves an address operand (`[%rd1+8]`, `[sym]`, `[sym+4]`, `[%r2]`) for `space`.
  virtual AddrOperand address(const ptx::Operand& o, ptx::StateSpace space) = 0;
  /// The symbol's value as an operand of `mov`: true with the slot when it is a constant, false
  /// with a frame-relative offset in `frame_off` (locals and .func params).
  virtual bool symbol_value(const ptx::Operand& o, std::uint32_t& slot,
                            std::int64_t& frame_off) = 0;
  /// The carry-flag slot (add.cc / addc).
  virtual std::uint32_t cc_slot() = 0;
  /// The slot of the lanes' dynamic stack pointers (alloca, stacksave, stackrestore; ops_stack.cpp).
  virtual std::uint32_t sp_slot() = 0;
  /// A constant slot holding `value` in every lane.
  virtual std::uint32_t constant(std::uint64_t value) = 0;
  /// Extra per-instruction data for calls.
  virtual std::uint32_t add_call(CallInfo info) = 0;
  /// Appends words to KernelImage::operand_lists; returns the offset of the first.
  virtual std::uint32_t add_operand_list(const std::vector<std::uint32_t>& words) = 0;
  /// Index of a callee in the image, decoding it if needed (for call).
  virtual std::uint32_t callee(std::uint32_t ir_function_index) = 0;
  /// Frame-relative offset and size of a call-site .param variable or own param/return symbol,
  /// or a register slot for .reg ones.
  struct ParamRef {
    std::uint64_t frame_off = 0;
    std::uint32_t slot = kNoSlot;
    std::uint32_t bytes = 0;
  };
  virtual ParamRef param_ref(const ptx::Operand& o) = 0;
  virtual ParamRef callee_param(std::uint32_t func, bool is_return, std::uint32_t index) = 0;

  [[noreturn]] void unsupported(const std::string& what) const;
  const ptx::Instruction& instruction() const { return *inst_; }

 protected:
  const ptx::Module* module_ = nullptr;
  const ptx::Function* function_ = nullptr;
  const ptx::Instruction* inst_ = nullptr;
  bool in_kernel_ = true;
};

/// Materializes an immediate for a source of type t (integer literal, 0fXXXXXXXX, 0dXXXX...).
std::uint64_t immediate_bits(const ptx::Operand& o, ptx::Type t);

// One decoder per opcode group; each returns false when the opcode is not its own, and throws
// kUnsupported for a combination of types and modifiers it does not implement.
bool decode_int(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);     // ops_int.cpp
bool decode_float(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);   // ops_float.cpp
bool decode_half(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);    // ops_half.cpp
/// set.cmp[.bool][.ftz].dtype.stype with a half-precision stype (.f16 .bf16 .f16x2 .bf16x2):
/// nullptr for another stype. aux = cmp, aux2 = bool op | ftz << 8, imm = the value of "true"
/// per element (ops_half.cpp).
ExecFn half_set_fn(ptx::Type stype);
bool decode_cvt(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);     // ops_cvt.cpp
bool decode_move(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);    // ops_move.cpp
bool decode_mem(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);     // ops_mem.cpp
bool decode_atom(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);    // ops_atom.cpp
bool decode_warp(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);    // ops_warp.cpp
bool decode_tex(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);     // ops_tex.cpp
bool decode_async(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);   // ops_async.cpp
bool decode_tma(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);     // ops_tma.cpp
bool decode_cluster(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out); // ops_cluster.cpp
bool decode_mma(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);     // ops_mma.cpp
bool decode_wgmma(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);   // ops_wgmma.cpp
bool decode_video(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);   // ops_video.cpp
bool decode_stack(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);   // ops_stack.cpp
bool decode_hint(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);    // ops_hint.cpp
bool decode_dsmem_async(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out);  // ops_dsmem_async.cpp

/// Decodes one kernel of a verified module. `variable_addresses[i]` is the device address of
/// module variable i when it is .global or .const. Throws kUnsupported (opcode and line) for an
/// instruction the interpreter does not implement.
std::unique_ptr<KernelImage> decode_kernel(const ptx::Module& module, std::uint32_t function_index,
                                           const std::vector<std::uint64_t>& variable_addresses);

}  // namespace warpscope::exec
