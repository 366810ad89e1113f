#include "report/tma_svg.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "report/html.hpp"

namespace warpscope::report {
namespace {

constexpr double kLeft = 150, kTop = 84, kCell = 12, kChunk = 26, kRowHeight = 16, kGap = 40;
constexpr std::size_t kMaxDrawn = 64;
constexpr unsigned kChunkBytes = 16;
const char* const kChunkColour[8] = {"#c6dbef", "#9ecae1", "#6baed6", "#4292c6",
                                     "#c7e9c0", "#a1d99b", "#74c476", "#41ab5d"};

unsigned swizzle_bits(std::uint32_t span) { return span == 32 ? 1 : span == 64 ? 2 : span == 128 ? 3 : 0; }

}  // namespace

std::uint64_t tma_swizzled(std::uint64_t addr, std::uint32_t swizzle_bytes) {
  const unsigned k = swizzle_bits(swizzle_bytes);
  if (k == 0) return addr;
  const std::uint64_t mask = ((std::uint64_t{1} << k) - 1u) << 4;
  return addr ^ ((addr >> 3) & mask);
}

std::uint32_t tma_row_sectors(const TmaBoxRow& row, std::uint32_t sector_bytes) {
  if (row.bytes == 0 || sector_bytes == 0) return 0;
  return static_cast<std::uint32_t>((row.global + row.bytes - 1) / sector_bytes - row.global / sector_bytes + 1);
}

std::uint32_t tma_row_lines(const TmaBoxRow& row, std::uint32_t line_bytes) { return tma_row_sectors(row, line_bytes); }

std::uint32_t tma_column_wavefronts(const TmaBoxPicture& p) {
  std::uint32_t worst = 0;
  for (std::size_t r0 = 0; r0 < p.rows.size(); r0 += 8) {
    const std::size_t r1 = std::min(p.rows.size(), r0 + 8);
    std::uint32_t chunks = 0;
    for (std::size_t r = r0; r < r1; ++r) chunks = std::max(chunks, p.rows[r].bytes / kChunkBytes);
    for (std::uint32_t c = 0; c < chunks; ++c) {
      std::map<std::uint64_t, std::uint32_t> per_group;  // 16-byte bank group -> rows
      for (std::size_t r = r0; r < r1; ++r) {
        if (c >= p.rows[r].bytes / kChunkBytes) continue;
        const std::uint64_t a = tma_swizzled(p.rows[r].shared + std::uint64_t{c} * kChunkBytes, p.swizzle_bytes);
        worst = std::max(worst, ++per_group[(a % 128) / kChunkBytes]);
      }
    }
  }
  return worst;
}

std::string render_tma_box_svg(const TmaBoxPicture& p) {
  const std::uint32_t lb = p.line_bytes == 0 ? 128 : p.line_bytes, sb = p.sector_bytes == 0 ? 32 : p.sector_bytes;
  const std::uint32_t sectors_per_line = std::max<std::uint32_t>(1, lb / sb);
  const std::size_t drawn = std::min(p.rows.size(), kMaxDrawn);
  std::uint32_t most_lines = 1, most_shared_lines = 1;
  for (std::size_t r = 0; r < drawn; ++r) {
    most_lines = std::max(most_lines, tma_row_lines(p.rows[r], lb));
    most_shared_lines = std::max<std::uint32_t>(most_shared_lines, (p.rows[r].bytes + 127) / 128);
  }
  const double global_width = most_lines * (sectors_per_line * kCell + 6) + 90;
  const double shared_left = kLeft + global_width + kGap;
  const double width = std::max(shared_left + most_shared_lines * (8 * kChunk + 6) + 20, 860.0);
  const double height = kTop + 20 + static_cast<double>(drawn) * kRowHeight + 50;
  const std::uint32_t column_wf = tma_column_wavefronts(p);
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tma-box\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "viewBox=\"0 0 {:.0f} {:.0f}\" font-family=\"sans-serif\" font-size=\"11\" data-swizzle=\"{}\" data-rows=\"{}\" "
      "data-column-wavefronts=\"{}\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"10\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{}</text>\n"
      "<text x=\"10\" y=\"{}\">left, global memory: each row's {}-byte lines, the {}-byte sectors it touches filled</text>\n"
      "<text x=\"10\" y=\"{}\">right, shared memory ({}): the row's 16-byte chunks in their bank groups (group g = banks "
      "4g..4g+3)</text>\n",
      width, height, width, height, p.swizzle_bytes, p.rows.size(), column_wf, html_escape(p.title), kTop - 46, lb, sb,
      kTop - 30, p.swizzle_bytes == 0 ? "no swizzle" : fmt::format("{}-byte swizzle", p.swizzle_bytes));
  for (unsigned g = 0; g < 8; ++g)
    s += fmt::format("<text class=\"group\" x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     shared_left + (g + 0.5) * kChunk, kTop - 6, g);
  for (std::size_t r = 0; r < drawn; ++r) {
    const TmaBoxRow& row = p.rows[r];
    const double y = kTop + r * kRowHeight;
    const std::uint32_t sectors = tma_row_sectors(row, sb), lines = tma_row_lines(row, lb);
    s += fmt::format("<g class=\"box-row\" data-row=\"{}\" data-global=\"0x{:x}\" data-sectors=\"{}\" data-lines=\"{}\">\n", r,
                     row.global, sectors, lines);
    s += fmt::format("<text x=\"10\" y=\"{:.1f}\">row {} 0x{:x}</text>\n", y + 12, r, row.global);
    const std::uint64_t first_line = row.global / lb;
    for (std::uint32_t k = 0; k < lines; ++k) {
      for (std::uint32_t q = 0; q < sectors_per_line; ++q) {
        const std::uint64_t lo = (first_line + k) * lb + std::uint64_t{q} * sb;
        const bool touched = row.bytes != 0 && lo < row.global + row.bytes && lo + sb > row.global;
        s += fmt::format(
            "<rect class=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#555\" "
            "stroke-width=\"0.5\"><title>sector 0x{:x}{}</title></rect>\n",
            touched ? "sector touched" : "sector", kLeft + k * (sectors_per_line * kCell + 6) + q * kCell, y, kCell - 1,
            kRowHeight - 3, touched ? "#fd8d3c" : "#f0f0f0", lo, touched ? "" : " (not touched)");
      }
    }
    s += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\">{} sector{}, {} line{}</text>\n",
                     kLeft + lines * (sectors_per_line * kCell + 6) + 4, y + 12, sectors, sectors == 1 ? "" : "s", lines,
                     lines == 1 ? "" : "s");
    const std::uint64_t base_line = tma_swizzled(row.shared, p.swizzle_bytes) / 128;
    for (std::uint32_t c = 0; c < row.bytes / kChunkBytes; ++c) {
      const std::uint64_t a = tma_swizzled(row.shared + std::uint64_t{c} * kChunkBytes, p.swizzle_bytes);
      const unsigned group = static_cast<unsigned>((a % 128) / kChunkBytes);
      const std::uint64_t sub = a / 128 >= base_line ? a / 128 - base_line : 0;
      s += fmt::format(
          "<rect class=\"chunk\" data-chunk=\"{}\" data-group=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" "
          "fill=\"{}\" stroke=\"#555\" stroke-width=\"0.5\"><title>row {} chunk {}: shared 0x{:x}, banks {}-{}</title></rect>\n"
          "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-size=\"9\">{}</text>\n",
          c, group, shared_left + sub * (8 * kChunk + 6) + group * kChunk, y, kChunk - 2, kRowHeight - 3, kChunkColour[c % 8], r,
          c, a, group * 4, group * 4 + 3, shared_left + sub * (8 * kChunk + 6) + (group + 0.5) * kChunk, y + 10, c);
    }
    s += "</g>\n";
  }
  const double ys = kTop + drawn * kRowHeight + 22;
  std::string note = p.rows.size() > drawn ? fmt::format(" (the first {} of {} rows drawn)", drawn, p.rows.size()) : "";
  if (p.truncated) note += " (the box has more rows than were recorded)";
  s += fmt::format("<text class=\"summary\" x=\"10\" y=\"{:.1f}\" font-size=\"12\">reading one 16-byte chunk column of 8 "
                   "rows: {} wavefront{} per 8 lanes{}{}</text>\n",
                   ys, column_wf, column_wf == 1 ? "" : "s",
                   column_wf > 1 ? fmt::format(" ({}-way bank conflict: the rows' chunks share bank groups)", column_wf)
                                 : " (every row's chunk in its own bank group)",
                   note);
  s += "</svg>\n";
  return s;
}

}  // namespace warpscope::report
