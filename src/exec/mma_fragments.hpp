// Which matrix element each lane's fragment registers hold, for the matrix instructions
// (ops_mma.cpp):
//  - mma.sync: the PTX ISA 9.0's layouts (9.7.14.5.1-13). Every shape but m8n8k4 .f16 is built
//    from 8-row tiles: register j of A holds, in lane l (g = l / 4, t = l % 4), the w = 32/bits
//    elements (one for 32- and 64-bit types) of row g + 8 * (j mod rows/8) starting at column
//    (j div rows/8) * 4w + t * w; register j of B the w elements of column g starting at row
//    j * 4w + t * w; accumulator element i is (g + 8 * (i div 2), 2t + i mod 2).
//  - wmma: the PTX ISA leaves the layout unspecified; these are the H100's
//    (tests/hw/data/h100/tensor/wmma_fragments.txt): the same for .row and .col storage, built
//    from the mma fragments above (README there), .f16 multiplicand registers beyond the
//    fragment repeating it.
// Layouts are computed once and shared (fragment_layout returns a pointer that stays valid).
#pragma once

#include <cstdint>
#include <vector>

#include "ptx/ir.hpp"

namespace warpscope::exec {

struct FragmentLayout {
  std::uint32_t rows = 0, cols = 0;  // the logical matrix (A: m x k, B: k x n, C/D: m x n)
  std::uint32_t regs = 0;            // registers per lane
  std::uint32_t per_reg = 1;         // elements per register
  std::uint32_t bits = 0;            // bits per element
  /// For register r: -1, or the register it repeats (the copy mma does not read).
  std::vector<int> repeats;
  /// (row, col) of element e of register r of lane l: at [(l * regs + r) * per_reg + e]; for a
  /// repeated register, the element it repeats.
  struct Pos {
    std::uint16_t row = 0, col = 0;
  };
  std::vector<Pos> pos;
  const Pos& at(unsigned lane, unsigned reg, unsigned e) const { return pos[(std::size_t(lane) * regs + reg) * per_reg + e]; }
};

/// `matrix`: 'a', 'b', 'c' (C or D). `t`: the element type. For mma.sync, `mma884` selects the
/// m8n8k4 .f16 quad-pair layouts, with `col` the A (.col) / B (.row transposed) storage and `t`
/// the accumulator's own type.
const FragmentLayout* wmma_fragment(char matrix, unsigned m, unsigned n, unsigned k, ptx::MmaType t);
const FragmentLayout* mma_fragment(char matrix, unsigned m, unsigned n, unsigned k, ptx::MmaType t,
                                   bool a_col = false, bool b_row = false);

/// ldmatrix/stmatrix/movmatrix: lane l holds row l / 4, columns 2 (l % 4) and + 1 of an 8x8
/// matrix of 16-bit elements (9.7.14.5.15); with .trans the transposed matrix.
inline unsigned ldsm_row(unsigned lane) { return lane / 4; }
inline unsigned ldsm_col(unsigned lane, unsigned e) { return 2 * (lane % 4) + e; }

}  // namespace warpscope::exec
