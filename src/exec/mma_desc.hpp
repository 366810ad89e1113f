// What decode_mma (ops_mma.cpp) keeps of a matrix instruction for its semantic functions: a
// descriptor in KernelImage::operand_lists at Inst::aux2, followed by its fragments' register
// slots. Shared by ops_mma.cpp (decode, mma, movmatrix) and ops_mma_mem.cpp (wmma.load/store,
// ldmatrix/stmatrix).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "exec/decode.hpp"
#include "exec/memaccess.hpp"
#include "exec/mma_fragments.hpp"
#include "exec/program.hpp"
#include "ptx/ir.hpp"

namespace warpscope::exec {

struct MmaDesc {
  enum class Kind : std::uint8_t { kWmmaLoad, kWmmaStore, kWmmaMma, kMma, kLdmatrix, kStmatrix, kMovmatrix };
  Kind kind = Kind::kMma;
  std::uint16_t m = 0, n = 0, k = 0;
  ptx::MmaType a = ptx::MmaType::kNone, b = ptx::MmaType::kNone, c = ptx::MmaType::kNone, d = ptx::MmaType::kNone;
  char matrix = 0;             // wmma.load/store: 'a', 'b', 'c', 'd'
  bool col = false;            // wmma.load/store: .col storage
  bool a_col = false, b_col = true;
  std::uint8_t num = 0;        // ldmatrix/stmatrix matrices
  bool trans = false;
  std::uint8_t bitop = 0;
  bool satfinite = false;
  bool wide = false;           // 64-bit fragment registers
  bool fp8 = false;            // .e4m3/.e5m2 (mma.sync only; mma_math::fp8_dot)
  ptx::Rounding rnd = ptx::Rounding::kNone;
  MemSpace space = MemSpace::kGeneric;
  std::uint32_t stride_slot = kNoSlot;  // wmma.load/store stride operand (kNoSlot: the default)
  std::uint8_t regs[4] = {0, 0, 0, 0};  // registers of each fragment operand, in operand order
  const FragmentLayout* layout[4] = {nullptr, nullptr, nullptr, nullptr};
};
inline constexpr std::uint32_t kMmaDescWords = (sizeof(MmaDesc) + 3) / 4;
static_assert(std::is_trivially_copyable_v<MmaDesc>);

inline MmaDesc mma_desc(const Ctx& x, const Inst& in) {
  MmaDesc d;
  std::memcpy(static_cast<void*>(&d), x.kernel->operand_lists.data() + in.aux2, sizeof d);
  return d;
}
/// Slot of register r of fragment operand `op` (operand order): the slots follow the descriptor.
inline std::uint32_t mma_slot(const Ctx& x, const Inst& in, const MmaDesc& d, unsigned op, unsigned r) {
  unsigned at = in.aux2 + kMmaDescWords;
  for (unsigned i = 0; i < op; ++i) at += d.regs[i];
  return x.kernel->operand_lists[at + r];
}

/// Every thread of the warp must execute a .sync.aligned matrix instruction together (PTX ISA);
/// otherwise kUndefined naming the lanes.
void require_full_warp(const Ctx& x, const Inst& in, std::uint32_t mask, const char* what);

// ops_mma_mem.cpp
void exec_wmma_load(const Inst& in, Ctx& x, std::uint32_t mask);
void exec_wmma_store(const Inst& in, Ctx& x, std::uint32_t mask);
void exec_ldmatrix(const Inst& in, Ctx& x, std::uint32_t mask);
void exec_stmatrix(const Inst& in, Ctx& x, std::uint32_t mask);

}  // namespace warpscope::exec
