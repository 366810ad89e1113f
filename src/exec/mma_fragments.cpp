#include "exec/mma_fragments.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <tuple>

#include "ptx/mma.hpp"

namespace warpscope::exec {
namespace {

using ptx::MmaType;
using Pos = FragmentLayout::Pos;

unsigned elems_per_reg(MmaType t) {
  const unsigned b = ptx::mma_type_bits(t);
  return b >= 32 ? 1 : 32 / b;
}

// The mma.sync tile formulas (header comment). `rowblocks` = rows / 8 of the A tile.
Pos a_tile(unsigned lane, unsigned j, unsigned e, unsigned w, unsigned rowblocks) {
  const unsigned g = lane / 4, t = lane % 4;
  return {static_cast<std::uint16_t>(g + 8 * (j % rowblocks)), static_cast<std::uint16_t>((j / rowblocks) * 4 * w + t * w + e)};
}
Pos b_tile(unsigned lane, unsigned j, unsigned e, unsigned w) {
  const unsigned g = lane / 4, t = lane % 4;
  return {static_cast<std::uint16_t>(j * 4 * w + t * w + e), static_cast<std::uint16_t>(g)};
}
Pos c_tile(unsigned lane, unsigned i) {
  const unsigned g = lane / 4, t = lane % 4;
  return {static_cast<std::uint16_t>(g + 8 * (i / 2)), static_cast<std::uint16_t>(2 * t + i % 2)};
}

FragmentLayout make(unsigned rows, unsigned cols, unsigned regs, MmaType t) {
  FragmentLayout f;
  f.rows = rows;
  f.cols = cols;
  f.regs = regs;
  f.bits = ptx::mma_type_bits(t);
  f.per_reg = elems_per_reg(t);
  f.repeats.assign(regs, -1);
  f.pos.resize(std::size_t(32) * regs * f.per_reg);
  return f;
}
Pos& at(FragmentLayout& f, unsigned lane, unsigned reg, unsigned e) {
  return f.pos[(std::size_t(lane) * f.regs + reg) * f.per_reg + e];
}
Pos flip(Pos p) { return {p.col, p.row}; }

/// Registers [used, regs) repeat [0, used) cyclically (.f16 wmma multiplicands).
void repeat(FragmentLayout& f, unsigned used) {
  for (unsigned r = used; r < f.regs; ++r) {
    f.repeats[r] = static_cast<int>(r % used);
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned e = 0; e < f.per_reg; ++e) at(f, l, r, e) = at(f, l, r % used, e);
  }
}

// Accumulator of an m x n wmma tile or an mma tile made of m16n8 / m8n8 pieces.
FragmentLayout accumulator(unsigned m, unsigned n, MmaType t, bool wmma) {
  const unsigned elems = m * n / 32;
  const unsigned per = elems_per_reg(t);
  FragmentLayout f = make(m, n, (elems + per - 1) / per, t);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned i = 0; i < elems; ++i) {
      Pos p;
      if (!wmma || (m == 8 && n == 8)) {
        p = c_tile(l, i);  // m16n8 (4 elements) or m8n8 (2)
      } else if (m == 16 && n == 16) {
        p = c_tile(l, i % 4);
        p.col = static_cast<std::uint16_t>(p.col + 8 * (i / 4));
      } else if (m == 32 && n == 8) {
        p = c_tile(l, i % 4);
        p.row = static_cast<std::uint16_t>(p.row + 16 * (i / 4));
      } else {  // m8n32: the transposed m32n8
        p = c_tile(l, i % 4);
        p.row = static_cast<std::uint16_t>(p.row + 16 * (i / 4));
        p = flip(p);
      }
      at(f, l, i / per, i % per) = p;
    }
  return f;
}

// A (m x k) of mma.sync: 8-row tiles.
FragmentLayout mma_a(unsigned m, unsigned k, MmaType t) {
  const unsigned w = elems_per_reg(t);
  const unsigned regs = t == MmaType::kF64 ? m * k / 32 : m * k * ptx::mma_type_bits(t) / 1024;
  FragmentLayout f = make(m, k, regs, t);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned j = 0; j < regs; ++j)
      for (unsigned e = 0; e < w; ++e) at(f, l, j, e) = a_tile(l, j, e, w, m / 8);
  return f;
}
FragmentLayout mma_b(unsigned k, unsigned n, MmaType t) {
  const unsigned w = elems_per_reg(t);
  const unsigned regs = t == MmaType::kF64 ? k * n / 32 : k * n * ptx::mma_type_bits(t) / 1024;
  FragmentLayout f = make(k, n, regs, t);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned j = 0; j < regs; ++j)
      for (unsigned e = 0; e < w; ++e) at(f, l, j, e) = b_tile(l, j, e, w);
  return f;
}

FragmentLayout build_wmma(char matrix, unsigned m, unsigned n, unsigned k, MmaType t) {
  if (matrix == 'c' || matrix == 'd') return accumulator(m, n, t, true);
  const unsigned w = elems_per_reg(t);
  const bool f16 = t == MmaType::kF16;
  if (matrix == 'a') {
    const unsigned used = t == MmaType::kF64 ? m * k / 32 : m * k * ptx::mma_type_bits(t) / 1024;
    FragmentLayout f = make(m, k, f16 ? 8 : used, t);
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned j = 0; j < used; ++j)
        for (unsigned e = 0; e < w; ++e) {
          Pos p;
          if (m == 8) {
            p = flip(b_tile(l, j, e, w));  // m8n32k16 and the m8n8 shapes: B of the transposed problem
          } else {
            const unsigned per16 = used / (m / 16);  // registers per 16-row tile
            p = a_tile(l, j % per16, e, w, 2);
            p.row = static_cast<std::uint16_t>(p.row + 16 * (j / per16));
          }
          at(f, l, j, e) = p;
        }
    repeat(f, used);
    return f;
  }
  // B (k x n)
  const unsigned used = t == MmaType::kF64 ? k * n / 32 : k * n * ptx::mma_type_bits(t) / 1024;
  FragmentLayout f = make(k, n, f16 ? 8 : used, t);
  for (unsigned l = 0; l < 32; ++l)
    for (unsigned j = 0; j < used; ++j)
      for (unsigned e = 0; e < w; ++e) {
        Pos p;
        if (n == 32) {  // m8n32k16: A of the transposed problem (32 x k, 16-row tiles)
          const unsigned per16 = used / 2;
          p = a_tile(l, j % per16, e, w, 2);
          p.row = static_cast<std::uint16_t>(p.row + 16 * (j / per16));
          p = flip(p);
        } else {  // 8-column tiles
          const unsigned per8 = used / (n / 8);
          p = b_tile(l, j % per8, e, w);
          p.col = static_cast<std::uint16_t>(p.col + 8 * (j / per8));
        }
        at(f, l, j, e) = p;
      }
  repeat(f, used);
  return f;
}

// m8n8k4 .f16 (9.7.14.5.1): lanes 0-3 / 16-19 compute MMA 0, and so on; rows/columns here are
// those of each MMA's own 8x8x4 problem.
FragmentLayout build_884(char matrix, MmaType t, bool a_col, bool b_row) {
  if (matrix == 'a') {
    FragmentLayout f = make(8, 4, 2, MmaType::kF16);
    for (unsigned l = 0; l < 32; ++l) {
      const unsigned hi = l >= 16 ? 4 : 0;
      for (unsigned i = 0; i < 4; ++i)
        at(f, l, i / 2, i % 2) = a_col ? Pos{static_cast<std::uint16_t>(i % 4 + hi), static_cast<std::uint16_t>(l % 4)}
                                       : Pos{static_cast<std::uint16_t>(l % 4 + hi), static_cast<std::uint16_t>(i)};
    }
    return f;
  }
  if (matrix == 'b') {
    FragmentLayout f = make(4, 8, 2, MmaType::kF16);
    for (unsigned l = 0; l < 32; ++l) {
      const unsigned hi = l >= 16 ? 4 : 0;
      for (unsigned i = 0; i < 4; ++i)
        at(f, l, i / 2, i % 2) = b_row ? Pos{static_cast<std::uint16_t>(l % 4), static_cast<std::uint16_t>(i + hi)}
                                       : Pos{static_cast<std::uint16_t>(i), static_cast<std::uint16_t>(l % 4 + hi)};
    }
    return f;
  }
  const unsigned per = elems_per_reg(t);
  FragmentLayout f = make(8, 8, 8 / per, t);
  for (unsigned l = 0; l < 32; ++l) {
    const unsigned hi = l >= 16 ? 4 : 0;
    for (unsigned i = 0; i < 8; ++i) {
      Pos p;
      if (t == MmaType::kF16) {
        p = {static_cast<std::uint16_t>(l % 4 + hi), static_cast<std::uint16_t>(i)};
      } else {
        const unsigned x = (l & 1) + (i & 2);
        p = {static_cast<std::uint16_t>(x + hi), static_cast<std::uint16_t>((i & 4) + (l & 2) + (i & 1))};
      }
      at(f, l, i / per, i % per) = p;
    }
  }
  return f;
}

std::mutex g_mutex;
std::map<std::tuple<int, char, unsigned, unsigned, unsigned, MmaType, bool, bool>, std::unique_ptr<FragmentLayout>> g_cache;

template <class Make>
const FragmentLayout* cached(std::tuple<int, char, unsigned, unsigned, unsigned, MmaType, bool, bool> key, Make make_it) {
  std::lock_guard<std::mutex> lock(g_mutex);
  auto& slot = g_cache[key];
  if (!slot) slot = std::make_unique<FragmentLayout>(make_it());
  return slot.get();
}

}  // namespace

const FragmentLayout* wmma_fragment(char matrix, unsigned m, unsigned n, unsigned k, MmaType t) {
  if (matrix == 'd') matrix = 'c';
  return cached({0, matrix, m, n, k, t, false, false}, [&] { return build_wmma(matrix, m, n, k, t); });
}

const FragmentLayout* mma_fragment(char matrix, unsigned m, unsigned n, unsigned k, MmaType t, bool a_col, bool b_row) {
  if (matrix == 'd') matrix = 'c';
  const bool q884 = m == 8 && n == 8 && k == 4 && t != MmaType::kF64 && (matrix != 'c' || t == MmaType::kF16 || t == MmaType::kF32);
  if (q884 && (matrix == 'c' || t == MmaType::kF16))
    return cached({2, matrix, m, n, k, t, a_col, b_row}, [&] { return build_884(matrix, t, a_col, b_row); });
  return cached({1, matrix, m, n, k, t, false, false}, [&] {
    if (matrix == 'a') return mma_a(m, k, t);
    if (matrix == 'b') return mma_b(k, n, t);
    return accumulator(m, n, t, false);
  });
}

}  // namespace warpscope::exec
