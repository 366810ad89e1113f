// The memory side of the matrix instructions: wmma.load/store and ldmatrix/stmatrix.
//
// Data moves element by element (each lane's fragment elements at (row, column) of the matrix,
// row- or column-major with the leading dimension `stride`, mma_fragments.hpp). Records follow the
// machine code ptxas makes, as read off the H100 (tests/hw/data/h100/tensor, wmma_traffic and the
// cuobjdump listings; README there):
//  - a multiplicand register of 16-bit elements, or of 8/4/1-bit elements stored along K, is one
//    4-byte access per lane: lane l reads the word at line l/4, word l%4 of the 8-line block the
//    register covers (for .f16 column-major A this is the transposed block, which ptxas then
//    transposes with MOVM); 8-bit elements stored across K are one byte access each; 32- and
//    64-bit elements one access each; repeated (.f16 copy) registers are not read again;
//  - accumulators: two neighbouring elements adjacent in memory are one access (8 bytes for .f32,
//    16 for .f64, 4 for .f16), otherwise one access per element;
//  - from shared memory, the .f16, 8-bit (along K), .s4/.u4 and .b1 multiplicand blocks are LDSM:
//    matrix records (WarpAccess::matrix), up to four per instruction; everything else LDS/STS.
// .f16 accumulators follow the block rule too (one 4-byte access per register, transposed for
// column-major storage). LDSM: one instruction per 16 rows (A) or columns (B) of the fragment.
// Each access is checked (alignment to its width, bounds) before any register or memory changes.
// ldmatrix/stmatrix: lanes 8i..8i+7 give the row addresses of matrix i; one matrix record each.
// stmatrix lanes that write the same bytes: the lowest lane's value remains (measured).
#include <array>
#include <vector>

#include "exec/fault.hpp"
#include "exec/mma_desc.hpp"
#include "exec/ops_common.hpp"
#include "ptx/mma.hpp"

namespace warpscope::exec {
namespace {

using ptx::MmaType;

std::uint8_t* xlate(Ctx& x, const Inst& in, MemSpace s, unsigned lane, std::uint64_t addr, unsigned w, Op op,
                    Space& sp, std::uint64_t& sa) {
  std::uint8_t* p = nullptr;
  switch (s) {
    case MemSpace::kGlobal: p = translate<MemSpace::kGlobal>(x, in, lane, addr, w, op, sp, sa); break;
    case MemSpace::kShared: p = translate<MemSpace::kShared>(x, in, lane, addr, w, op, sp, sa); break;
    default: p = translate<MemSpace::kGeneric>(x, in, lane, addr, w, op, sp, sa); break;
  }
  end_window_faults(x, in);  // memcheck: the first lane outside its window ends the launch
  return p;
}

/// One machine-code access of a warp: `width` bytes at addr[lane] for the lanes in `lanes`.
struct Access {
  unsigned width = 4;
  std::uint32_t lanes = kFullMask;
  std::array<std::uint64_t, kLanes> addr{};
};

struct Plan {
  std::vector<Access> plain;               // LDG/STG/LDS/STS
  std::vector<std::array<std::uint64_t, 8>> blocks;  // LDSM: 8 line addresses per 8x8 block
};

class WmmaMem {
 public:
  WmmaMem(const Inst& in, Ctx& x) : in_(in), x_(x), d_(mma_desc(x, in)), f_(*d_.layout[0]) {
    const std::uint64_t* a = x.reg(in.a);
    const std::uint64_t off = static_cast<std::uint64_t>(in.imm) + ((in.flags & kFlagFrameRel) ? x.frame_base : 0);
    // The default stride is the leading dimension (9.7.14.4.2): columns for row-major storage.
    const std::uint32_t def = d_.col ? f_.rows : f_.cols;
    for (unsigned l = 0; l < kLanes; ++l) {
      base_[l] = a[l] + off;
      ld_[l] = d_.stride_slot == kNoSlot ? def : static_cast<std::uint32_t>(x.reg(d_.stride_slot)[l]);
    }
  }

  void load() {
    const Plan p = plan();
    check(p, Op::kLoad);
    // Read every element before writing a register (the address may be in the fragment).
    std::vector<std::uint64_t> words(std::size_t(f_.regs) * kLanes, 0);
    for (unsigned r = 0; r < f_.regs; ++r)
      for (unsigned l = 0; l < kLanes; ++l) {
        std::uint64_t w = 0;
        for (unsigned e = 0; e < f_.per_reg; ++e) w |= read_elem(l, f_.at(l, r, e)) << (e * f_.bits % 64);
        words[r * kLanes + l] = w;
      }
    for (unsigned r = 0; r < f_.regs; ++r) {
      std::uint64_t* reg = x_.reg(mma_slot(x_, in_, d_, 0, r));
      for (unsigned l = 0; l < kLanes; ++l) reg[l] = words[r * kLanes + l];
    }
    emit(p, Op::kLoad);
  }

  void store() {
    const Plan p = plan();
    check(p, Op::kStore);
    for (unsigned r = 0; r < f_.regs; ++r) {
      const std::uint64_t* reg = x_.reg(mma_slot(x_, in_, d_, 0, r));
      for (unsigned l = 0; l < kLanes; ++l)
        for (unsigned e = 0; e < f_.per_reg; ++e) {
          const std::uint64_t v = f_.bits >= 64 ? reg[l] : (reg[l] >> (e * f_.bits)) & ((std::uint64_t{1} << f_.bits) - 1);
          write_elem(l, f_.at(l, r, e), v);
        }
    }
    emit(p, Op::kStore);
  }

 private:
  // Storage coordinates of (row, col): the line (row for row-major) and the offset in it.
  std::uint64_t line_of(const FragmentLayout::Pos& p) const { return d_.col ? p.col : p.row; }
  std::uint64_t off_of(const FragmentLayout::Pos& p) const { return d_.col ? p.row : p.col; }
  std::uint64_t bit_addr(unsigned l, std::uint64_t line, std::uint64_t off) const {
    return (line * ld_[l] + off) * f_.bits;
  }
  std::uint64_t elem_addr(unsigned l, const FragmentLayout::Pos& p) const {
    return base_[l] + bit_addr(l, line_of(p), off_of(p)) / 8;
  }

  bool multiplicand() const { return d_.matrix == 'a' || d_.matrix == 'b'; }
  bool along_k() const { return (d_.matrix == 'a') != d_.col; }  // A row-major / B column-major

  /// One 4-byte access per register of 16-bit elements (or of 8/4/1-bit ones stored along K):
  /// lane l reads word l % 4 of line l / 4 of the 8-line block the register covers.
  Access block_access(unsigned r) const {
    std::uint64_t l0 = ~0ull, o0 = ~0ull;
    for (unsigned l = 0; l < kLanes; ++l)
      for (unsigned e = 0; e < f_.per_reg; ++e) {
        l0 = std::min(l0, line_of(f_.at(l, r, e)));
        o0 = std::min(o0, off_of(f_.at(l, r, e)));
      }
    const unsigned per_word = 32 / f_.bits;
    Access a;
    for (unsigned l = 0; l < kLanes; ++l) a.addr[l] = base_[l] + bit_addr(l, l0 + l / 4, o0 + (l % 4) * per_word) / 8;
    return a;
  }

  Plan plan() const {
    Plan p;
    const bool shared = space_is_shared();
    if (!multiplicand() && f_.bits == 16) {  // .f16 accumulators: blocks too (LDS/STS, never LDSM)
      for (unsigned r = 0; r < f_.regs; ++r) p.plain.push_back(block_access(r));
      return p;
    }
    if (multiplicand()) {
      const MmaType t = d_.matrix == 'a' ? d_.a : d_.b;
      for (unsigned r = 0; r < f_.regs; ++r) {
        if (f_.repeats[r] >= 0) continue;
        if (f_.bits >= 32) {
          Access a;
          a.width = f_.bits / 8;
          for (unsigned l = 0; l < kLanes; ++l) a.addr[l] = elem_addr(l, f_.at(l, r, 0));
          p.plain.push_back(a);
        } else if (f_.bits == 16 || along_k()) {
          const Access a = block_access(r);
          const bool ldsm = shared && t != MmaType::kBF16;
          if (ldsm) {
            std::array<std::uint64_t, 8> lines{};
            for (unsigned c = 0; c < 8; ++c) lines[c] = a.addr[4 * c];
            p.blocks.push_back(lines);
          } else {
            p.plain.push_back(a);
          }
        } else {  // 8-bit elements across K: byte by byte
          for (unsigned e = 0; e < f_.per_reg; ++e) {
            Access a;
            a.width = 1;
            for (unsigned l = 0; l < kLanes; ++l) a.addr[l] = elem_addr(l, f_.at(l, r, e));
            p.plain.push_back(a);
          }
        }
      }
      return p;
    }
    // Accumulators: pairs of neighbouring elements that are adjacent in memory.
    const unsigned bytes = f_.bits / 8;
    const unsigned n = f_.regs * f_.per_reg;
    auto pos = [&](unsigned l, unsigned i) { return f_.at(l, i / f_.per_reg, i % f_.per_reg); };
    for (unsigned i = 0; i < n; i += 2) {
      bool pair = i + 1 < n;
      for (unsigned l = 0; l < kLanes && pair; ++l) pair = elem_addr(l, pos(l, i + 1)) == elem_addr(l, pos(l, i)) + bytes;
      for (unsigned h = 0; h < (pair ? 1u : 2u); ++h) {
        Access a;
        a.width = pair ? 2 * bytes : bytes;
        for (unsigned l = 0; l < kLanes; ++l) a.addr[l] = elem_addr(l, pos(l, i + h));
        p.plain.push_back(a);
      }
    }
    return p;
  }

  bool space_is_shared() const {
    if (d_.space == MemSpace::kShared) return true;
    if (d_.space == MemSpace::kGlobal) return false;
    std::uint64_t off = 0;
    return classify_generic(base_[0], off) == GenericSpace::kShared;
  }

  /// Checks every access (throws the fault of the first bad lane) and notes each lane's space.
  void check(const Plan& p, Op op) {
    auto one = [&](unsigned l, std::uint64_t addr, unsigned w) {
      Space sp;
      std::uint64_t sa;
      xlate(x_, in_, d_.space, l, addr, w, op, sp, sa);
      if (sp == Space::kLocal)
        lane_fault(x_, x_.pc_of(in_), ErrorKind::kUndefined, l,
                   fmt::format("wmma.{} of a generic address in local memory (0x{:x}): the PTX ISA allows global and "
                               "shared memory only", op == Op::kLoad ? "load" : "store", addr));
    };
    for (const Access& a : p.plain)
      for (unsigned l = 0; l < kLanes; ++l) one(l, a.addr[l], a.width);
    for (const auto& b : p.blocks)
      for (unsigned c = 0; c < 8; ++c) one(c, b[c], 16);
  }

  std::uint64_t read_elem(unsigned l, const FragmentLayout::Pos& p) {
    const std::uint64_t bit = bit_addr(l, line_of(p), off_of(p));
    const unsigned bytes = f_.bits >= 8 ? f_.bits / 8 : 1;
    Space sp;
    std::uint64_t sa;
    const std::uint8_t* h = xlate(x_, in_, d_.space, l, base_[l] + bit / 8, bytes, Op::kLoad, sp, sa);
    std::uint64_t v = 0;
    std::memcpy(&v, h, bytes);
    if (f_.bits < 8) v = (v >> (bit % 8)) & ((1u << f_.bits) - 1);
    return v;
  }
  void write_elem(unsigned l, const FragmentLayout::Pos& p, std::uint64_t v) {
    const std::uint64_t bit = bit_addr(l, line_of(p), off_of(p));
    Space sp;
    std::uint64_t sa;
    std::uint8_t* h = xlate(x_, in_, d_.space, l, base_[l] + bit / 8, f_.bits / 8, Op::kStore, sp, sa);
    std::memcpy(h, &v, f_.bits / 8);
  }

  void emit(const Plan& p, Op op) {
    if (x_.sink == nullptr) return;
    for (const Access& a : p.plain) {
      Space spaces[kLanes];
      std::uint64_t addrs[kLanes];
      bool mixed = false;
      for (unsigned l = 0; l < kLanes; ++l) {
        xlate(x_, in_, d_.space, l, a.addr[l], a.width, op, spaces[l], addrs[l]);
        mixed |= spaces[l] != spaces[0];
      }
      emit_records(x_, in_, a.lanes, spaces, addrs, a.width, op, mixed);
    }
    std::vector<std::array<std::uint64_t, 8>> offsets(p.blocks.size());
    for (std::size_t i = 0; i < p.blocks.size(); ++i)
      for (unsigned c = 0; c < 8; ++c) {
        Space sp;
        xlate(x_, in_, d_.space, c, p.blocks[i][c], 16, op, sp, offsets[i][c]);
      }
    // ptxas makes one LDSM per 16 rows (A) or columns (B) of the fragment: the blocks of 16 lines
    // of K (tests/hw/data/h100/tensor/tensor_extra.csv: m32n8k16 .s8 A is two LDSM.x2).
    const unsigned k = d_.matrix == 'a' ? f_.cols : f_.rows;
    emit_matrix_records(x_, in_, offsets, op, std::min<std::size_t>(4, std::max(1u, k * f_.bits / 64)));
  }

 public:
  /// LDSM/STSM records: up to four 8x8 blocks per instruction, block i on lanes 8i..8i+7, with
  /// the shared-memory offsets of its rows.
  static void emit_matrix_records(Ctx& x, const Inst& in, const std::vector<std::array<std::uint64_t, 8>>& blocks,
                                  Op op, std::size_t per_instruction = 4) {
    if (x.sink == nullptr) return;
    for (std::size_t first = 0; first < blocks.size(); first += per_instruction) {
      for (std::size_t i = first; i < std::min(blocks.size(), first + per_instruction); ++i) {
        WarpAccess rec;
        rec.pc = x.pc_of(in);
        rec.cta = x.cta_linear;
        rec.warp = x.warp_index;
        rec.space = Space::kShared;
        rec.op = op;
        rec.width = 16;
        rec.matrix = true;
        rec.part = static_cast<std::uint8_t>(i - first);
        const unsigned lane0 = static_cast<unsigned>(8 * (i - first));
        rec.active = LaneMask(0xffu << lane0);
        for (unsigned c = 0; c < 8; ++c) rec.addr[lane0 + c] = blocks[i][c];
        x.sink->on_access(rec);
      }
    }
  }

 private:
  const Inst& in_;
  Ctx& x_;
  MmaDesc d_;
  const FragmentLayout& f_;
  std::uint64_t base_[kLanes];
  std::uint32_t ld_[kLanes];
};

/// Row addresses of ldmatrix/stmatrix: lane 8i + r gives row r of matrix i; each must be a
/// 16-byte-aligned row in shared memory. Returns host pointers per (matrix, row).
std::vector<std::array<std::uint8_t*, 8>> matrix_rows(Ctx& x, const Inst& in, const MmaDesc& d, Op op,
                                                      std::vector<std::array<std::uint64_t, 8>>& offsets) {
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t imm = static_cast<std::uint64_t>(in.imm);
  std::vector<std::array<std::uint8_t*, 8>> rows(d.num);
  offsets.assign(d.num, {});
  for (unsigned i = 0; i < d.num; ++i)
    for (unsigned r = 0; r < 8; ++r) {
      const unsigned l = 8 * i + r;
      const std::uint64_t addr = a[l] + imm;
      Space sp;
      std::uint64_t sa;
      rows[i][r] = xlate(x, in, d.space, l, addr, 16, op, sp, sa);
      if (sp != Space::kShared)
        lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
                   fmt::format("{} row address 0x{:x} is not in shared memory (the PTX ISA leaves that undefined)",
                               op == Op::kLoad ? "ldmatrix" : "stmatrix", addr));
      offsets[i][r] = sa;
    }
  return rows;
}

}  // namespace

void exec_wmma_load(const Inst& in, Ctx& x, std::uint32_t mask) {
  require_full_warp(x, in, mask, "wmma.load");
  WmmaMem(in, x).load();
}

void exec_wmma_store(const Inst& in, Ctx& x, std::uint32_t mask) {
  require_full_warp(x, in, mask, "wmma.store");
  WmmaMem(in, x).store();
}

void exec_ldmatrix(const Inst& in, Ctx& x, std::uint32_t mask) {
  require_full_warp(x, in, mask, "ldmatrix");
  const MmaDesc d = mma_desc(x, in);
  std::vector<std::array<std::uint64_t, 8>> offsets;
  const auto rows = matrix_rows(x, in, d, Op::kLoad, offsets);
  // Lane l, register i: row l/4 of matrix i, columns 2(l%4) and +1; .trans: the transpose.
  std::vector<std::array<std::uint32_t, kLanes>> out(d.num);
  for (unsigned i = 0; i < d.num; ++i)
    for (unsigned l = 0; l < kLanes; ++l) {
      std::uint16_t h[2];
      for (unsigned e = 0; e < 2; ++e) {
        const std::uint8_t* p = d.trans ? rows[i][ldsm_col(l, e)] + 2 * ldsm_row(l) : rows[i][ldsm_row(l)] + 2 * ldsm_col(l, e);
        std::memcpy(&h[e], p, 2);
      }
      out[i][l] = std::uint32_t{h[0]} | (std::uint32_t{h[1]} << 16);
    }
  for (unsigned i = 0; i < d.num; ++i) {
    std::uint64_t* reg = x.reg(mma_slot(x, in, d, 0, i));
    for (unsigned l = 0; l < kLanes; ++l) reg[l] = out[i][l];
  }
  WmmaMem::emit_matrix_records(x, in, offsets, Op::kLoad);
}

void exec_stmatrix(const Inst& in, Ctx& x, std::uint32_t mask) {
  require_full_warp(x, in, mask, "stmatrix");
  const MmaDesc d = mma_desc(x, in);
  std::vector<std::array<std::uint64_t, 8>> offsets;
  const auto rows = matrix_rows(x, in, d, Op::kStore, offsets);
  // Where lanes write the same bytes, the lowest lane's value remains, and a later matrix's
  // over an earlier one's (tests/hw/data/h100/tensor/tensor_extra.txt, stsm_collide).
  for (unsigned i = 0; i < d.num; ++i) {
    const std::uint64_t* reg = x.reg(mma_slot(x, in, d, 0, i));
    for (unsigned l = kLanes; l-- > 0;)
      for (unsigned e = 0; e < 2; ++e) {
        const auto h = static_cast<std::uint16_t>(reg[l] >> (16 * e));
        std::uint8_t* p = d.trans ? rows[i][ldsm_col(l, e)] + 2 * ldsm_row(l) : rows[i][ldsm_row(l)] + 2 * ldsm_col(l, e);
        std::memcpy(p, &h, 2);
      }
  }
  WmmaMem::emit_matrix_records(x, in, offsets, Op::kStore);
}

}  // namespace warpscope::exec
