// Draws one box of a tensor copy (cp.async.bulk.tensor) as the TMA moved it: on the left, the
// box's rows over the tensor in global memory (per row, the 128-byte lines it spans, their four
// 32-byte sectors filled where the row touches them: the sectors the TMA reads or writes); on
// the right, each row in shared memory after the tensor map's swizzle, its 16-byte chunks (labelled
// with their place in the row) in the 16-byte bank groups they land in (group g = banks 4g..4g+3
// of a 128-byte shared line). Under the 128-byte swizzle chunk c of row r lands in group
// c ^ (r % 8); without swizzle every row puts chunk c in the same group, so threads reading one
// chunk column of 8 rows conflict 8 ways (docs/exec.md "Bulk copies and the TMA", docs/mem.md).
//
// Built from plain numbers, like access_svg.hpp and matrix_svg.hpp: the JSON's "tma_box".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpscope::report {

struct TmaBoxRow {
  std::uint64_t global = 0;  // first byte in global memory
  std::uint32_t bytes = 0;   // bytes (whole 16-byte chunks)
  std::uint32_t shared = 0;  // shared address of its first byte before the swizzle
};

struct TmaBoxPicture {
  std::string title;
  std::uint32_t swizzle_bytes = 0;  // 0 (none), 32, 64, 128
  std::vector<TmaBoxRow> rows;
  bool truncated = false;  // the box had more rows than were recorded
  std::uint32_t line_bytes = 128, sector_bytes = 32;
};

/// The shared address a 16-byte chunk at `addr` lands at under a swizzle span of 0/32/64/128
/// bytes: address bits [4, 4+k) XOR bits [7, 7+k), k = 1, 2, 3 (the H100's, tests/hw/data/h100/tma).
std::uint64_t tma_swizzled(std::uint64_t addr, std::uint32_t swizzle_bytes);
/// The 32-byte sectors and 128-byte lines a row touches in global memory.
std::uint32_t tma_row_sectors(const TmaBoxRow& row, std::uint32_t sector_bytes);
std::uint32_t tma_row_lines(const TmaBoxRow& row, std::uint32_t line_bytes);
/// The wavefronts 8 lanes take to read one 16-byte chunk column (chunk c of 8 consecutive rows,
/// in their swizzled places), the worst over the columns and groups of 8 rows: the most rows whose
/// chunk lands in one 16-byte bank group (1 = conflict-free, 8 = every row in the same banks).
std::uint32_t tma_column_wavefronts(const TmaBoxPicture& picture);

/// A standalone SVG document (class "tma-box"); at most 64 rows are drawn.
std::string render_tma_box_svg(const TmaBoxPicture& picture);

}  // namespace warpscope::report
