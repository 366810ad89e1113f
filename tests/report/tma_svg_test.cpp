// The TMA box picture (tma_svg.hpp) and its section on a launch page (html_source.hpp). The
// expected placements are the H100's swizzle (tests/hw/data/h100/tma: 16-byte chunk bits [4, 7)
// XOR bits [7, 10) under the 128-byte swizzle) and the sector rule (distinct 32-byte sectors).
#include "report/html.hpp"
#include "report/tma_svg.hpp"

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "sample_report.hpp"

namespace warpscope::report {
namespace {

using nlohmann::json;

std::size_t count(const std::string& s, const std::string& what) {
  std::size_t n = 0;
  for (auto at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
  return n;
}

std::string hex(std::uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

/// `rows` box rows of `bytes` bytes, `stride` bytes apart in global memory from `global`, one
/// after the other (pitch = bytes) in shared memory from 0.
TmaBoxPicture box(unsigned rows, std::uint32_t bytes, std::uint64_t global, std::uint64_t stride, std::uint32_t swizzle) {
  TmaBoxPicture p;
  p.swizzle_bytes = swizzle;
  for (unsigned r = 0; r < rows; ++r) p.rows.push_back({global + r * stride, bytes, r * bytes});
  return p;
}

TEST(report_html, TmaSwizzleSectorsAndColumnWavefronts) {
  // 128-byte swizzle: chunk 0 of row 3 (shared 384) lands in chunk 3; chunk 5 of row 9 at 9 * 128
  // + 80 moves to chunk 5 ^ 1 = 4; no swizzle leaves it.
  EXPECT_EQ(tma_swizzled(384, 128), 384u + 48u);
  EXPECT_EQ(tma_swizzled(9 * 128 + 80, 128), 9u * 128u + 64u);
  EXPECT_EQ(tma_swizzled(9 * 128 + 80, 0), 9u * 128u + 80u);
  // 64-byte swizzle: bits [4, 6) XOR bits [7, 9): address 128 + 16 -> chunk 1 ^ 1 = 0.
  EXPECT_EQ(tma_swizzled(144, 64), 128u);
  // A 128-byte row at an aligned address: 4 sectors, 1 line; at +16: 5 sectors over 2 lines (the
  // probe's case 4 row, tests/hw/data/h100/tma).
  EXPECT_EQ(tma_row_sectors({0x1000, 128, 0}, 32), 4u);
  EXPECT_EQ(tma_row_lines({0x1000, 128, 0}, 128), 1u);
  EXPECT_EQ(tma_row_sectors({0x1010, 128, 0}, 32), 5u);
  EXPECT_EQ(tma_row_lines({0x1010, 128, 0}, 128), 2u);
  // Rows of 128 bytes: a chunk column of 8 rows in one bank group without swizzle (8 wavefronts,
  // as tma_banks measured: 32 per LDS.128 of 4 phases), in 8 groups with the 128-byte swizzle (1).
  EXPECT_EQ(tma_column_wavefronts(box(32, 128, 0x10000, 512, 0)), 8u);
  EXPECT_EQ(tma_column_wavefronts(box(32, 128, 0x10000, 512, 128)), 1u);
  // Rows of 64 bytes, two per 128-byte line: without swizzle chunk 0 of 8 rows is in groups 0 and
  // 4, four rows each (4); the 64-byte swizzle XORs the chunk with (r / 2) % 4: groups 0, 4, 1,
  // 5, 2, 6, 3, 7 (1).
  EXPECT_EQ(tma_column_wavefronts(box(8, 64, 0, 256, 0)), 4u);
  EXPECT_EQ(tma_column_wavefronts(box(8, 64, 0, 256, 64)), 1u);
}

TEST(report_html, TmaBoxPicture) {
  TmaBoxPicture p = box(8, 128, 0x10010, 512, 128);
  p.title = "a <box>";
  const std::string svg = render_tma_box_svg(p);
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tma-box\""), std::string::npos);
  EXPECT_NE(svg.find("data-swizzle=\"128\" data-rows=\"8\" data-column-wavefronts=\"1\""), std::string::npos);
  EXPECT_NE(svg.find("a &lt;box&gt;"), std::string::npos);
  // Each row at 16 bytes past a line: 5 sectors touched of its 2 lines' 8.
  EXPECT_EQ(count(svg, "data-sectors=\"5\" data-lines=\"2\""), 8u);
  EXPECT_EQ(count(svg, "<rect class=\"sector touched\""), 40u);
  EXPECT_EQ(count(svg, "<rect class=\"sector\""), 24u);
  // 8 chunks a row; chunk 0 of row r in group r.
  EXPECT_EQ(count(svg, "<rect class=\"chunk\""), 64u);
  for (unsigned r = 0; r < 8; ++r)
    EXPECT_NE(svg.find("row " + std::to_string(r) + " chunk 0: shared " + hex(r * 128 + r * 16)), std::string::npos) << r;
  EXPECT_NE(svg.find("1 wavefront per 8 lanes (every row's chunk in its own bank group)"), std::string::npos);
  // Without swizzle every chunk 0 is in group 0: 8 wavefronts.
  const std::string plain = render_tma_box_svg(box(8, 128, 0x10000, 512, 0));
  EXPECT_EQ(count(plain, "data-chunk=\"0\" data-group=\"0\""), 8u);
  EXPECT_NE(plain.find("8 wavefronts per 8 lanes (8-way bank conflict"), std::string::npos);
}

// An instruction with a "tma_box" gets a figure in the TMA boxes section; without one there is no
// section.
TEST(report_html, TmaBoxSection) {
  json r = test::sample_report();
  EXPECT_EQ(html_launch_page(r, 0).find("id=\"tma-heading\""), std::string::npos);
  for (auto& line : r["launches"][0]["lines"])
    for (auto& insn : line["instructions"]) {
      if (insn["pc"] != 30) continue;
      json rows = json::array();
      for (unsigned i = 0; i < 4; ++i) rows.push_back({0x20000 + i * 256, 128, i * 128});
      insn["tma_box"] = {{"cta", 0}, {"warp", 0}, {"swizzle_bytes", 0}, {"rows", rows}, {"truncated", false}};
    }
  const std::string page = html_launch_page(r, 0);
  ASSERT_NE(page.find("id=\"tma-heading\""), std::string::npos);
  const auto at = page.find("<figure class=\"tma-svg\" id=\"tma-0\"");
  ASSERT_NE(at, std::string::npos);
  const std::string fig = page.substr(at, page.find("</figure>", at) - at);
  EXPECT_NE(fig.find("data-pc=\"30\""), std::string::npos);
  EXPECT_NE(fig.find("data-swizzle=\"0\" data-rows=\"4\" data-column-wavefronts=\"4\""), std::string::npos);
  EXPECT_EQ(count(fig, "<g class=\"box-row\""), 4u);
}

}  // namespace
}  // namespace warpscope::report
