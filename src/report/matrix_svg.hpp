// Draws the 8x8 matrices of an ldmatrix/stmatrix (LDSM/STSM) on the shared-memory banks: each
// matrix's 8 rows (16 bytes each: four 4-byte bank words) as a grid of 8 rows by 32 bank columns,
// the row's words filled in the banks they fall in. A bank that holds distinct words of two or
// more rows of one matrix is outlined: the matrix then takes as many wavefronts as the most
// distinct words in one bank (docs/mem.md, "Matrix loads and stores").
//
// Built from plain numbers, like access_svg.hpp: the rows' shared-memory addresses.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::report {

struct MatrixBanksPicture {
  std::string title;
  std::vector<std::array<std::uint64_t, 8>> matrices;  // each matrix's 8 row addresses
  std::uint32_t banks = 32, bank_bytes = 4;
};

/// Wavefronts of one matrix by the bank rule: the most distinct bank words in one bank.
std::uint32_t matrix_wavefronts(const std::array<std::uint64_t, 8>& rows, std::uint32_t banks, std::uint32_t bank_bytes);

/// A standalone SVG document (class "matrix-banks").
std::string render_matrix_banks_svg(const MatrixBanksPicture& picture);

}  // namespace warpscope::report
