// Warpgroup matrix instructions (PTX ISA 9.0, 9.7.15): wgmma.mma_async, wgmma.fence,
// wgmma.commit_group, wgmma.wait_group.
//
// A warpgroup is four consecutive warps (warp 4g .. 4g+3 of the CTA); all 128 threads execute a
// wgmma together (.sync.aligned). D's rows 16w .. 16w+15 live in warp w's registers (w = warp
// % 4), laid out as the mma.m16n8 accumulator fragment repeated over N/8 column tiles; A from
// registers is warp w's rows as the mma.m16n8kK A fragment. So each warp computes its own 16
// rows: from its A rows (registers, or shared memory through the A descriptor) and all of B
// (shared memory through the B descriptor; wgmma_layout.hpp decodes the descriptors).
//
// Asynchrony: the ISA writes D when the wgmma-group completes (wgmma.wait_group) and leaves
// reading or writing D, A's registers or the operands' shared memory before that undefined.
// warpscope completes each wgmma when it is issued; a program that keeps to the ISA cannot tell
// this from completion at its commit_group or wait_group (the undefined accesses are not
// detected). wgmma.fence, commit_group and wait_group check that the whole warp executes them.
//
// Arithmetic (mma_numerics): .f16/.bf16/.tf32 as one HMMA group over all K of the instruction,
// integers exact (.satfinite saturating), .b1 .and.popc; the H100 gives these bits on every
// element of the probe's tests (tests/hw/data/h100/wgmma). .e4m3/.e5m2 (QGMMA, wgmma_fp8.hpp):
// C and the 32 products aligned to the largest exponent e, each truncated toward zero to
// 2^(e-13), summed exactly, the sum truncated to 13 fraction bits for .f32 D or rounded to nearest
// even .f16; this too gives every element of the probe's .e4m3/.e5m2 tests (mma.sync .e4m3/.e5m2
// keeps all 23 fraction bits: it is ptxas's emulation with .f16 HMMAs, mma_numerics fp8_dot).
// imm-scale-a/b = -1 negate A/B (flip the sign bit); scale-d false drops C (C = +0).
#include <array>
#include <cstring>
#include <vector>

#include "exec/fault.hpp"
#include "exec/mma_desc.hpp"
#include "exec/mma_numerics.hpp"
#include "exec/ops_common.hpp"
#include "exec/wgmma_fp8.hpp"
#include "exec/wgmma_layout.hpp"
#include "ptx/mma.hpp"

namespace warpscope::exec {

using ptx::MmaType;
using ptx::Opcode;

namespace {

struct WgmmaDesc {
  std::uint16_t n = 0, k = 0;
  MmaType d = MmaType::kNone, a = MmaType::kNone, b = MmaType::kNone;
  bool a_regs = false, tnsp_a = false, tnsp_b = false, satfinite = false, scale_d_neg = false;
  std::int8_t scale_a = 1, scale_b = 1;
  std::uint8_t nd = 0;           // accumulator registers
  std::uint32_t a_slot[4] = {kNoSlot, kNoSlot, kNoSlot, kNoSlot};  // A registers, or [0] = descriptor
  std::uint32_t b_slot = kNoSlot, scale_d = kNoSlot;
  const FragmentLayout* a_layout = nullptr;  // A in registers: the mma.m16n8kK A fragment
};
constexpr std::uint32_t kWgmmaDescWords = (sizeof(WgmmaDesc) + 3) / 4;
static_assert(std::is_trivially_copyable_v<WgmmaDesc>);

WgmmaDesc wgmma_desc(const Ctx& x, const Inst& in) {
  WgmmaDesc d;
  std::memcpy(static_cast<void*>(&d), x.kernel->operand_lists.data() + in.aux2, sizeof d);
  return d;
}

/// The four warps of the executing warp's warpgroup must exist in the CTA.
void require_warpgroup(const Ctx& x, const Inst& in, const char* what) {
  const std::uint64_t threads = std::uint64_t{x.ntid.x} * x.ntid.y * x.ntid.z;
  const std::uint32_t first = x.warp_index / 4 * 4;
  if (threads >= (std::uint64_t{first} + 4) * kLanes) return;
  lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, 0,
             fmt::format("{} by warp {}: a warpgroup is four warps (here warps {}-{}, threads {}-{}) and all of "
                         "them execute it, but the block has {} threads",
                         what, x.warp_index, first, first + 3, first * kLanes, (first + 4) * kLanes - 1, threads));
}

/// A warp-uniform 64-bit operand (a descriptor): every lane must hold the same value.
std::uint64_t uniform(const Ctx& x, const Inst& in, std::uint32_t slot, const char* what) {
  const std::uint64_t* v = x.reg(slot);
  for (unsigned l = 1; l < kLanes; ++l)
    if (v[l] != v[0])
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
                 fmt::format("wgmma.mma_async: the {} differs between lanes (lane 0: {:#x}, lane {}: {:#x}); the "
                             "warpgroup shares one",
                             what, v[0], l, v[l]));
  return v[0];
}

std::uint32_t read_element(const Ctx& x, const Inst& in, std::uint64_t addr, unsigned bit, unsigned bits,
                           const char* which) {
  const unsigned bytes = bits < 8 ? 1 : bits / 8;
  if (addr + bytes > x.shared_size || addr + bytes < addr)
    lane_fault(x, x.pc_of(in), ErrorKind::kOutOfBounds, 0,
               fmt::format("wgmma.mma_async reads {} at shared address {:#x} (from its descriptor), outside the "
                           "block's {} bytes of shared memory",
                           which, addr, x.shared_size));
  std::uint32_t v = 0;
  std::memcpy(&v, x.shared + addr, bytes);
  if (bits < 8) v = (v >> bit) & ((1u << bits) - 1);
  return v;
}

std::uint32_t negate(MmaType t, std::uint32_t v) {
  switch (t) {
    case MmaType::kF16: case MmaType::kBF16: return v ^ 0x8000u;
    case MmaType::kTF32: return v ^ 0x80000000u;
    case MmaType::kE4M3: case MmaType::kE5M2: return v ^ 0x80u;
    default: return v;
  }
}

/// The shared-memory blocks an operand's read covers: its core matrices (8 rows of 16 bytes),
/// each as the addresses of its 8 rows. K-major: rows are MN indices, the 16 bytes run along K;
/// MN-major: rows are K indices, the 16 bytes run along MN. Appended to `out`.
void operand_blocks(const MatrixDesc& md, bool mn_major, unsigned mn_count, unsigned k, unsigned bits,
                    std::vector<std::array<std::uint64_t, 8>>& out) {
  const unsigned per_chunk = 128 / bits;  // elements in 16 bytes
  const unsigned groups = mn_major ? k / 8 : mn_count / 8;
  const unsigned chunks = mn_major ? mn_count / per_chunk : k / per_chunk;
  unsigned bit;
  for (unsigned g = 0; g < groups; ++g)
    for (unsigned c = 0; c < chunks; ++c) {
      std::array<std::uint64_t, 8> rows{};
      for (unsigned r = 0; r < 8; ++r)
        rows[r] = mn_major ? matrix_element_addr(md, true, c * per_chunk, g * 8 + r, bits, bit)
                           : matrix_element_addr(md, false, g * 8 + r, c * per_chunk, bits, bit);
      out.push_back(rows);
    }
}

/// The wgmma's operand reads as records (Op::kGmma, common/access.hpp): block i of the
/// warpgroup's (A's from a descriptor, then B's) goes to warp i % 4, one record per block, so
/// that the four warps' records together are the instruction's reads; a warp with no block sends
/// an empty record, which counts its instruction.
void emit_operand_records(Ctx& x, const Inst& in, const std::vector<std::array<std::uint64_t, 8>>& blocks) {
  if (x.sink == nullptr) return;
  WarpAccess rec;
  rec.pc = x.pc_of(in);
  rec.cta = x.cta_linear;
  rec.warp = x.warp_index;
  rec.space = Space::kShared;
  rec.op = Op::kGmma;
  rec.width = 16;
  unsigned part = 0;
  for (std::size_t i = x.warp_index % 4; i < blocks.size(); i += 4) {
    rec.part = static_cast<std::uint8_t>(part++);
    rec.active = LaneMask(0xffu);
    for (unsigned r = 0; r < 8; ++r) rec.addr[r] = blocks[i][r];
    x.sink->on_access(rec);
  }
  if (part == 0) {
    rec.active = LaneMask(0u);
    x.sink->on_access(rec);
  }
}

// Accumulator element i of a lane (row within the warp's 16, column).
inline unsigned acc_row(unsigned lane, unsigned i) { return lane / 4 + 8 * ((i / 2) % 2); }
inline unsigned acc_col(unsigned lane, unsigned i) { return 8 * (i / 4) + 2 * (lane % 4) + i % 2; }

void exec_wgmma(const Inst& in, Ctx& x, std::uint32_t mask) {
  const WgmmaDesc d = wgmma_desc(x, in);
  require_full_warp(x, in, mask, "wgmma.mma_async");
  require_warpgroup(x, in, "wgmma.mma_async");
  const unsigned n = d.n, k = d.k, abits = ptx::mma_type_bits(d.a), bbits = ptx::mma_type_bits(d.b);
  const unsigned row0 = 16 * (x.warp_index % 4);
  std::vector<std::uint32_t> A(16 * k), B(std::size_t(k) * n);
  if (d.a_regs) {
    const FragmentLayout& f = *d.a_layout;
    for (unsigned r = 0; r < f.regs; ++r) {
      const std::uint64_t* v = x.reg(d.a_slot[r]);
      for (unsigned l = 0; l < kLanes; ++l)
        for (unsigned e = 0; e < f.per_reg; ++e) {
          const FragmentLayout::Pos& p = f.at(l, r, e);
          A[p.row * k + p.col] = static_cast<std::uint32_t>((v[l] >> (e * f.bits)) & ((std::uint64_t{1} << f.bits) - 1));
        }
    }
  } else {
    const MatrixDesc md = decode_matrix_desc(uniform(x, in, d.a_slot[0], "A descriptor"));
    if (md.base_offset != 0)
      lane_fault(x, x.pc_of(in), ErrorKind::kUnsupported, 0,
                 fmt::format("wgmma.mma_async: the A descriptor's matrix base offset is {}; only 0 (swizzle atoms "
                             "aligned to their size) is modelled",
                             md.base_offset));
    for (unsigned r = 0; r < 16; ++r)
      for (unsigned kk = 0; kk < k; ++kk) {
        unsigned bit;
        const std::uint64_t at = matrix_element_addr(md, d.tnsp_a, row0 + r, kk, abits, bit);
        A[r * k + kk] = read_element(x, in, at, bit, abits, "an element of A");
      }
  }
  std::vector<std::array<std::uint64_t, 8>> blocks;
  if (!d.a_regs)
    operand_blocks(decode_matrix_desc(x.reg(d.a_slot[0])[0]), d.tnsp_a, 64, k, abits, blocks);
  const MatrixDesc mb = decode_matrix_desc(uniform(x, in, d.b_slot, "B descriptor"));
  if (mb.base_offset != 0)
    lane_fault(x, x.pc_of(in), ErrorKind::kUnsupported, 0,
               fmt::format("wgmma.mma_async: the B descriptor's matrix base offset is {}; only 0 is modelled", mb.base_offset));
  for (unsigned c = 0; c < n; ++c)
    for (unsigned kk = 0; kk < k; ++kk) {
      unsigned bit;
      const std::uint64_t at = matrix_element_addr(mb, d.tnsp_b, c, kk, bbits, bit);
      B[kk * n + c] = read_element(x, in, at, bit, bbits, "an element of B");
    }
  operand_blocks(mb, d.tnsp_b, n, k, bbits, blocks);
  emit_operand_records(x, in, blocks);
  if (d.scale_a < 0)
    for (auto& v : A) v = negate(d.a, v);
  if (d.scale_b < 0)
    for (auto& v : B) v = negate(d.b, v);
  bool scale_d = (x.reg(d.scale_d)[0] & 1) != 0;
  if (d.scale_d_neg) scale_d = !scale_d;
  const std::uint64_t* sdv = x.reg(d.scale_d);
  for (unsigned l = 1; l < kLanes; ++l)
    if ((sdv[l] & 1) != (sdv[0] & 1))
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l, "wgmma.mma_async: scale-d differs between lanes");

  const unsigned per = d.d == MmaType::kF16 ? 2 : 1, ebits = 32 / per;
  std::vector<std::uint32_t> col(k);
  for (unsigned r = 0; r < d.nd; ++r) {
    std::uint64_t* reg = x.reg(x.kernel->operand_lists[in.aux2 + kWgmmaDescWords + r]);
    for (unsigned l = 0; l < kLanes; ++l) {
      std::uint64_t w = 0;
      for (unsigned e = 0; e < per; ++e) {
        const unsigned i = r * per + e, row = acc_row(l, i), cn = acc_col(l, i);
        const std::uint32_t c =
            scale_d ? static_cast<std::uint32_t>((reg[l] >> (e * ebits)) & (per == 2 ? 0xffffu : 0xffffffffu)) : 0u;
        for (unsigned kk = 0; kk < k; ++kk) col[kk] = B[kk * n + cn];
        const std::uint32_t* arow = A.data() + row * k;
        std::uint32_t v;
        if (d.a == MmaType::kF16 || d.a == MmaType::kBF16 || d.a == MmaType::kTF32)
          v = mma_math::fused_dot(d.a, arow, col.data(), k, k, d.d, c, d.d);
        else if (d.a == MmaType::kE4M3 || d.a == MmaType::kE5M2)
          v = mma_math::qgmma_dot(d.a, d.b, arow, col.data(), k, c, d.d);
        else
          v = mma_math::int_dot(d.a, d.b, arow, col.data(), k, c, d.satfinite, d.a == MmaType::kB1 ? 2 : 0);
        w |= std::uint64_t{v} << (e * ebits);
      }
      reg[l] = w;
    }
  }
}

void exec_wgmma_sync(const Inst& in, Ctx& x, std::uint32_t mask) {
  static constexpr const char* kWhat[] = {"wgmma.fence", "wgmma.commit_group", "wgmma.wait_group"};
  require_full_warp(x, in, mask, kWhat[in.aux]);
  require_warpgroup(x, in, kWhat[in.aux]);
}

}  // namespace

bool decode_wgmma(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  switch (ins.op) {
    case Opcode::kWgmmaFence: out.aux = 0; break;
    case Opcode::kWgmmaCommit: out.aux = 1; break;
    case Opcode::kWgmmaWait: out.aux = 2; break;
    case Opcode::kWgmmaMma: break;
    default: return false;
  }
  out.ctl = Ctl::kNone;
  if (ins.op != Opcode::kWgmmaMma) {
    out.fn = &exec_wgmma_sync;
    return true;
  }
  const ptx::MmaForm f = ptx::mma_form(ins, dc.module().text_origin(dc.function()));
  const auto& ops = ins.operands;
  WgmmaDesc d;
  d.n = f.n;
  d.k = f.k;
  d.d = f.d;
  d.a = f.a;
  d.b = f.b;
  d.nd = f.regs[0];
  d.satfinite = ins.satfinite;
  d.a_regs = ops[1].kind == ptx::OperandKind::kVector;
  if (d.a_regs) {
    for (unsigned i = 0; i < 4; ++i) d.a_slot[i] = dc.src(ops[1].elements[i], ptx::Type::kB32);
    d.a_layout = mma_fragment('a', 16, 8, f.k, f.a);
  } else {
    d.a_slot[0] = dc.src(ops[1], ptx::Type::kB64);
  }
  d.b_slot = dc.src(ops[2], ptx::Type::kB64);
  const bool pred = ops[3].kind == ptx::OperandKind::kReg;
  d.scale_d = dc.src(ops[3], pred ? ptx::Type::kPred : ptx::Type::kU32);
  d.scale_d_neg = pred && ops[3].negate;
  // Immediates: imm-scale-a, imm-scale-b, then imm-trans-a (A from a descriptor), imm-trans-b.
  std::size_t i = 4;
  auto imm = [&](std::int64_t dflt) { return i < ops.size() ? static_cast<std::int64_t>(ops[i++].imm) : dflt; };
  if (f.imms >= 2) {
    d.scale_a = static_cast<std::int8_t>(imm(1));
    d.scale_b = static_cast<std::int8_t>(imm(1));
  }
  if (f.imms == 4) {
    if (!d.a_regs) d.tnsp_a = imm(0) != 0;
    d.tnsp_b = imm(0) != 0;
  }
  std::vector<std::uint32_t> words(kWgmmaDescWords, 0);
  std::memcpy(words.data(), static_cast<const void*>(&d), sizeof d);
  for (const ptx::Operand& e : ops[0].elements) words.push_back(dc.dst(e));
  out.aux2 = dc.add_operand_list(words);
  out.fn = &exec_wgmma;
  return true;
}

}  // namespace warpscope::exec
