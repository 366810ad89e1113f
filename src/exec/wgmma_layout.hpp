// The shared-memory matrix descriptor of wgmma.mma_async and the layouts it describes (PTX ISA
// 9.0, "9.7.15.5.1 Matrix Descriptor Format" and "Shared Memory Matrix Layout"), as the H100
// reads them (tests/hw/data/h100/wgmma, README there):
//  - bits 0-13: start address >> 4; 16-29: leading dimension byte offset (LBO) >> 4; 32-45:
//    stride dimension byte offset (SBO) >> 4; 49-51: matrix base offset; 62-63: swizzle mode
//    (0 none, 1 128-byte, 2 64-byte, 3 32-byte).
//  - The unit is the core matrix: 8 rows of 16 bytes. K-major (no transpose) operands: row mn of
//    the operand (a row of A, a column of B) holds its K elements contiguously. Without swizzle
//    core matrix (mn/8, kb/16) is 128 contiguous bytes at (mn/8)*SBO + (kb/16)*LBO (kb: byte
//    offset along K); with a W-byte swizzle rows are W bytes apart, groups of 8 rows SBO apart,
//    and LBO is not used (one wgmma's K is 32 bytes, within a row).
//  - MN-major (transposed, 16-bit types): the MN elements are contiguous. Without swizzle, 16-byte
//    MN chunk c of K row k is at c*SBO + (k%8)*16 + (k/8)*LBO; with a W-byte swizzle W-byte MN
//    atoms are LBO apart, K rows W bytes apart, groups of 8 K rows SBO apart.
//  - Swizzle: the 16-byte chunk index (address bits 4..) is XORed with the 128-byte row index
//    (bits 7..), 1, 2 or 3 bits for the 32-, 64- and 128-byte modes, on the shared address.
// The measured layouts are those with base offset 0; a non-zero base offset is refused.
#pragma once

#include <cstdint>

namespace warpscope::exec {

struct MatrixDesc {
  std::uint32_t start = 0, lbo = 0, sbo = 0;  // bytes
  std::uint32_t base_offset = 0;
  std::uint32_t swizzle = 0;  // bytes: 0, 32, 64, 128
};

inline MatrixDesc decode_matrix_desc(std::uint64_t d) {
  MatrixDesc m;
  m.start = static_cast<std::uint32_t>(d & 0x3fff) << 4;
  m.lbo = static_cast<std::uint32_t>((d >> 16) & 0x3fff) << 4;
  m.sbo = static_cast<std::uint32_t>((d >> 32) & 0x3fff) << 4;
  m.base_offset = static_cast<std::uint32_t>((d >> 49) & 7);
  static constexpr std::uint32_t kSwizzle[4] = {0, 128, 64, 32};
  m.swizzle = kSwizzle[d >> 62];
  return m;
}

/// Shared address of element (mn, k) of an operand of `bits`-bit elements; `bit` gets the bit
/// within the byte (.b1).
inline std::uint64_t matrix_element_addr(const MatrixDesc& d, bool mn_major, unsigned mn, unsigned k, unsigned bits,
                                         unsigned& bit) {
  std::uint64_t a;
  if (!mn_major) {
    const std::uint64_t kbit = std::uint64_t{k} * bits, kb = kbit / 8;
    bit = static_cast<unsigned>(kbit % 8);
    if (d.swizzle == 0) a = d.start + (mn % 8) * 16 + (mn / 8) * std::uint64_t{d.sbo} + (kb / 16) * d.lbo + kb % 16;
    else a = d.start + (mn % 8) * std::uint64_t{d.swizzle} + (mn / 8) * std::uint64_t{d.sbo} + kb;
  } else {
    const std::uint64_t mb = std::uint64_t{mn} * bits / 8;
    bit = 0;
    if (d.swizzle == 0) a = d.start + mb % 16 + (mb / 16) * d.sbo + (k % 8) * 16 + (k / 8) * std::uint64_t{d.lbo};
    else a = d.start + mb % d.swizzle + (mb / d.swizzle) * d.lbo + (k % 8) * d.swizzle + (k / 8) * std::uint64_t{d.sbo};
  }
  if (d.swizzle != 0) {
    const std::uint64_t mask = d.swizzle / 16 - 1;
    a ^= ((a >> 7) & mask) << 4;
  }
  return a;
}

}  // namespace warpscope::exec
