#include "report/bank_svg.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "report/html.hpp"

namespace warpscope::report {
namespace {

constexpr std::uint32_t kBanks = 32, kBankBytes = 4, kPassBytes = 128;

// Layout: row labels on the left, a column per bank, a row per wavefront.
constexpr double kLeft = 104, kCol = 34, kRow = 22, kGridTop = 78, kPhaseLabel = 18;

/// "5", "5,9", "5+3" (the first lane and how many more).
std::string lanes_text(const std::vector<unsigned>& lanes) {
  if (lanes.size() == 1) return fmt::format("{}", lanes[0]);
  if (lanes.size() == 2) return fmt::format("{},{}", lanes[0], lanes[1]);
  return fmt::format("{}+{}", lanes[0], lanes.size() - 1);
}

std::string plural(std::uint64_t n, const char* word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

}  // namespace

BankView bank_view(const AccessPicture& p, std::uint32_t lanes_per_phase) {
  BankView v;
  v.lanes_per_phase = std::clamp<std::uint32_t>(lanes_per_phase, 1, 32);
  const std::uint64_t width = std::max<std::uint32_t>(p.width, 1);
  std::set<std::uint32_t> busiest;
  std::uint32_t row = 0;
  for (unsigned first = 0; first < 32; first += v.lanes_per_phase) {
    const unsigned last = std::min(32u, first + v.lanes_per_phase) - 1;
    // bank -> word -> lanes, for the phase's active lanes.
    std::map<std::uint32_t, std::map<std::uint64_t, std::vector<unsigned>>> banks;
    std::set<std::uint64_t> bytes;
    for (unsigned lane = first; lane <= last; ++lane) {
      if (!p.active.test(lane)) continue;
      const std::uint64_t a = p.addr[lane];
      for (std::uint64_t w = a / kBankBytes; w <= (a + width - 1) / kBankBytes; ++w)
        banks[static_cast<std::uint32_t>(w % kBanks)][w].push_back(lane);
      for (std::uint64_t b = a; b < a + width; ++b) bytes.insert(b);
    }
    if (banks.empty()) continue;
    BankPhase phase{first, last, row, 0, 0};
    for (const auto& [bank, words] : banks)
      phase.wavefronts = std::max(phase.wavefronts, static_cast<std::uint32_t>(words.size()));
    phase.ideal_wavefronts =
        std::max<std::uint32_t>(1, static_cast<std::uint32_t>((bytes.size() + kPassBytes - 1) / kPassBytes));
    for (const auto& [bank, words] : banks) {
      std::uint32_t k = 0;
      for (const auto& [word, lanes] : words) v.words.push_back({bank, row + k++, word, lanes, words.size() > 1});
      if (words.size() > v.ways) v.ways = static_cast<std::uint32_t>(words.size()), busiest.clear();
      if (words.size() == v.ways) busiest.insert(bank);
    }
    v.wavefronts += phase.wavefronts;
    v.ideal_wavefronts += phase.ideal_wavefronts;
    row += phase.wavefronts;
    v.phases.push_back(phase);
  }
  v.busiest.assign(busiest.begin(), busiest.end());
  return v;
}

BankView chosen_bank_view(const AccessPicture& p) {
  const std::uint32_t word = std::max<std::uint32_t>(p.width, kBankBytes);
  const std::uint32_t narrow = std::min<std::uint32_t>(32, kPassBytes / word);
  const std::uint32_t wide = std::min<std::uint32_t>(32, 2 * kPassBytes / word);
  BankView v = bank_view(p, narrow);
  if (p.wavefronts != 0 && v.wavefronts != p.wavefronts && wide != narrow) {
    BankView w = bank_view(p, wide);
    if (w.wavefronts == p.wavefronts) return w;
  }
  return v;
}

std::string render_shared_banks_svg(const AccessPicture& p) {
  const BankView v = chosen_bank_view(p);
  const bool phase_labels = v.phases.size() > 1 || v.lanes_per_phase < 32;
  // Rows' tops: a phase label row before each phase's wavefronts where there are several phases.
  std::vector<double> row_top(v.wavefronts);
  double y = kGridTop;
  std::vector<double> phase_top;
  for (const BankPhase& ph : v.phases) {
    phase_top.push_back(y);
    if (phase_labels) y += kPhaseLabel;
    for (std::uint32_t r = 0; r < ph.wavefronts; ++r, y += kRow) row_top[ph.first_row + r] = y;
  }
  const double grid_bottom = y, width = kLeft + kBanks * kCol + 16, height = grid_bottom + 70;
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"shared-banks\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "viewBox=\"0 0 {0:.0f} {1:.0f}\" font-family=\"sans-serif\" font-size=\"11\" data-banks=\"{2}\" "
      "data-lanes-per-phase=\"{3}\" data-wavefronts=\"{4}\" data-ideal-wavefronts=\"{5}\" data-conflicts=\"{6}\" "
      "data-ways=\"{7}\">\n",
      width, height, kBanks, v.lanes_per_phase, v.wavefronts, v.ideal_wavefronts, v.bank_conflicts(), v.ways);
  s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s += fmt::format("<text x=\"16\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{}</text>\n", html_escape(p.title));
  s += "<text x=\"16\" y=\"42\" fill=\"#444\">Shared memory: 32 banks of 4-byte words. Each row is one wavefront; "
       "each cell is a distinct word its bank delivers, with the lanes that ask for it (lanes asking for one word "
       "share it).</text>\n";
  // Bank numbers.
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"end\" fill=\"#555\">bank</text>\n", kLeft - 8, kGridTop - 8);
  for (std::uint32_t b = 0; b < kBanks; ++b)
    s += fmt::format("<text class=\"bank-number\" x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     kLeft + b * kCol + kCol / 2, kGridTop - 8, b);
  // Row backgrounds and labels, phase labels.
  for (std::size_t i = 0; i < v.phases.size(); ++i) {
    const BankPhase& ph = v.phases[i];
    if (phase_labels)
      s += fmt::format(
          "<text class=\"phase\" x=\"{}\" y=\"{:.1f}\" fill=\"#333\" font-weight=\"600\">lanes {}\u2013{}: {} (ideal "
          "{})</text>\n",
          kLeft, phase_top[i] + 13, ph.first_lane, ph.last_lane, plural(ph.wavefronts, "wavefront"),
          ph.ideal_wavefronts);
    for (std::uint32_t r = 0; r < ph.wavefronts; ++r) {
      const double top = row_top[ph.first_row + r];
      s += fmt::format(
          "<rect class=\"wavefront-row\" x=\"{}\" y=\"{:.1f}\" width=\"{:.0f}\" height=\"{}\" fill=\"{}\"/>"
          "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">wavefront {}</text>\n",
          kLeft, top, kBanks * kCol, kRow, r % 2 ? "#f4f4f4" : "#fafafa", kLeft - 8, top + 15, ph.first_row + r + 1);
    }
  }
  for (std::uint32_t b = 0; b <= kBanks; ++b)
    s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"#ddd\"/>\n",
                     kLeft + b * kCol, kGridTop, grid_bottom);
  // The words.
  for (const BankWord& w : v.words) {
    const double x = kLeft + w.bank * kCol, top = row_top[w.row];
    std::vector<std::string> lanes;
    for (unsigned l : w.lanes) lanes.push_back(fmt::format("{}", l));
    s += fmt::format(
        "<g class=\"bank-word\" data-bank=\"{0}\" data-wavefront=\"{1}\" data-lanes=\"{2}\">"
        "<rect class=\"bank-cell{3}\" x=\"{4:.1f}\" y=\"{5:.1f}\" width=\"{6:.0f}\" height=\"{7:.0f}\" rx=\"2\" fill=\"{8}\" "
        "stroke=\"#333\" stroke-width=\"0.8\"/><text x=\"{9:.1f}\" y=\"{10:.1f}\" text-anchor=\"middle\" "
        "font-size=\"10\">{11}</text><title>bank {0}, word at byte {12}: lane{13} {14}{15}</title></g>\n",
        w.bank, w.row + 1, fmt::join(lanes, " "), w.conflict ? " conflict" : "", x + 2, top + 2, kCol - 4, kRow - 4,
        w.conflict ? "#fdae6b" : "#9ecae1", x + kCol / 2, top + 15, lanes_text(w.lanes), w.word * kBankBytes,
        w.lanes.size() == 1 ? "" : "s", fmt::join(lanes, ", "), w.lanes.size() > 1 ? " (broadcast)" : "");
  }
  // Summary: wavefronts, ideal, conflicts, the busiest bank.
  std::set<std::uint64_t> distinct;
  std::set<std::uint32_t> used;
  for (const BankWord& w : v.words) distinct.insert(w.word), used.insert(w.bank);
  const unsigned lanes = static_cast<unsigned>(std::popcount(p.active.bits()));
  std::string line1 = fmt::format("{} for {} (ideal {}): ", plural(v.wavefronts, "wavefront"), plural(lanes, "lane"),
                                  v.ideal_wavefronts);
  if (v.bank_conflicts() == 0) {
    line1 += "no bank conflicts";
  } else {
    std::vector<std::uint32_t> shown(v.busiest.begin(), v.busiest.begin() + std::min<std::size_t>(4, v.busiest.size()));
    line1 += fmt::format("{}; bank{} {}{} {} {} distinct words in one phase: a {}-way bank conflict",
                         plural(v.bank_conflicts(), "bank conflict"), v.busiest.size() == 1 ? "" : "s",
                         fmt::join(shown, ", "), v.busiest.size() > shown.size() ? ", ..." : "",
                         v.busiest.size() == 1 ? "holds" : "hold", v.ways, v.ways);
  }
  std::string line2 = fmt::format("{} distinct 4-byte words in {} of the 32 banks; {} lanes per phase",
                                  distinct.size(), used.size(), v.lanes_per_phase);
  if (p.wavefronts != 0 && p.wavefronts != v.wavefronts)
    line2 += fmt::format(" (the model counted {} for this profile)", plural(p.wavefronts, "wavefront"));
  s += fmt::format("<text class=\"summary\" x=\"16\" y=\"{:.1f}\" font-size=\"13\">{}</text>\n", grid_bottom + 28,
                   html_escape(line1));
  s += fmt::format("<text class=\"summary-detail\" x=\"16\" y=\"{:.1f}\" fill=\"#444\">{}</text>\n", grid_bottom + 48,
                   html_escape(line2));
  return s + "</svg>\n";
}

}  // namespace warpscope::report
