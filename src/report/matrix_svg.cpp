#include "report/matrix_svg.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "report/html.hpp"

namespace warpscope::report {
namespace {

constexpr double kLeft = 70, kTop = 40, kCell = 22, kRowHeight = 18, kBlockGap = 46;
constexpr unsigned kRowBytes = 16;
const char* const kRowColour[8] = {"#c6dbef", "#9ecae1", "#6baed6", "#4292c6",
                                   "#c7e9c0", "#a1d99b", "#74c476", "#41ab5d"};

}  // namespace

std::uint32_t matrix_wavefronts(const std::array<std::uint64_t, 8>& rows, std::uint32_t banks, std::uint32_t bank_bytes) {
  if (banks == 0 || bank_bytes == 0) return 0;
  std::vector<std::set<std::uint64_t>> words(banks);
  for (std::uint64_t a : rows)
    for (std::uint64_t w = a / bank_bytes; w <= (a + kRowBytes - 1) / bank_bytes; ++w) words[w % banks].insert(w);
  std::size_t most = 0;
  for (const auto& b : words) most = std::max(most, b.size());
  return static_cast<std::uint32_t>(most);
}

std::string render_matrix_banks_svg(const MatrixBanksPicture& p) {
  const unsigned banks = p.banks == 0 ? 32 : p.banks;
  const std::uint32_t bb = p.bank_bytes == 0 ? 4 : p.bank_bytes;
  const double block_height = 8 * kRowHeight + kBlockGap;
  const double width = kLeft + banks * kCell + 20;
  const double height = kTop + 20 + static_cast<double>(p.matrices.size()) * block_height + 10;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"matrix-banks\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "viewBox=\"0 0 {:.0f} {:.0f}\" font-family=\"sans-serif\" font-size=\"11\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      "<text x=\"10\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
      width, height, width, height, html_escape(p.title));
  for (unsigned b = 0; b < banks; ++b)
    s += fmt::format("<text class=\"bank\" x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     kLeft + (b + 0.5) * kCell, kTop + 8, b);
  double y = kTop + 20;
  for (std::size_t m = 0; m < p.matrices.size(); ++m) {
    const auto& rows = p.matrices[m];
    // Distinct words per bank, to outline the banks that several rows share.
    std::vector<std::set<std::uint64_t>> words(banks);
    for (std::uint64_t a : rows)
      for (std::uint64_t w = a / bb; w <= (a + kRowBytes - 1) / bb; ++w) words[w % banks].insert(w);
    const std::uint32_t wf = matrix_wavefronts(rows, banks, bb);
    s += fmt::format("<g class=\"matrix\" data-matrix=\"{}\" data-wavefronts=\"{}\">\n", m, wf);
    for (unsigned r = 0; r < 8; ++r) {
      const double ry = y + r * kRowHeight;
      s += fmt::format("<text x=\"10\" y=\"{:.1f}\">{}row {}</text>\n", ry + 13, r == 0 ? fmt::format("m{} ", m) : "   ", r);
      for (std::uint64_t w = rows[r] / bb; w <= (rows[r] + kRowBytes - 1) / bb; ++w) {
        const unsigned bank = static_cast<unsigned>(w % banks);
        const bool shared = words[bank].size() > 1;
        s += fmt::format(
            "<rect class=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"{}\" "
            "stroke-width=\"{}\"><title>matrix {} row {}: 0x{:x}, bank {}</title></rect>\n",
            shared ? "word conflict" : "word", kLeft + bank * kCell, ry, kCell - 2, kRowHeight - 2, kRowColour[r],
            shared ? "#cb181d" : "#555", shared ? 2 : 0.5, m, r, w * bb, bank);
      }
    }
    s += fmt::format("<text class=\"summary\" x=\"{}\" y=\"{:.1f}\" font-size=\"12\">matrix {}: {} wavefront{}{}</text>\n",
                     kLeft, y + 8 * kRowHeight + 16, m, wf, wf == 1 ? "" : "s",
                     wf > 1 ? fmt::format(" ({}-way bank conflict: outlined banks hold words of several rows)", wf)
                            : " (every row in its own four banks)");
    s += "</g>\n";
    y += block_height;
  }
  s += "</svg>\n";
  return s;
}

}  // namespace warpscope::report
