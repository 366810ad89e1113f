#include "report/access_svg.hpp"

#include "report/bank_svg.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace warpscope::report {
namespace {

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Address runs that are drawn, in address order; everything between two runs is cut out.
struct Run {
  std::uint64_t begin = 0, end = 0;  // [begin, end)
  double x = 0;                      // where `begin` is drawn
};

constexpr double kLeft = 40, kLaneWidth = 30, kLaneTop = 60, kLaneHeight = 24;
constexpr double kMemTop = 220, kMemHeight = 40, kGap = 36, kMaxMemWidth = 1100;

}  // namespace

std::string render_access_svg(const AccessPicture& p) {
  // Shared memory has banks and wavefronts, not transactions over an address axis (a report's
  // sample lists one 128-byte "transaction" per wavefront; the banks show what they mean).
  if (p.unit_name == "wavefront") return render_shared_banks_svg(p);
  // 1. The address runs to draw: every transaction, plus every requested word (so that a word
  //    outside all transactions, which should not happen, is still visible).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> spans;
  for (const PictureBlock& b : p.transactions) spans.emplace_back(b.addr, b.addr + b.bytes);
  p.active.for_each([&](unsigned lane) { spans.emplace_back(p.addr[lane], p.addr[lane] + p.width); });
  std::sort(spans.begin(), spans.end());
  std::vector<Run> runs;
  for (auto [b, e] : spans) {
    // Widen to 32-byte grid so the axis ticks line up with sectors.
    b = b / 32 * 32;
    e = (e + 31) / 32 * 32;
    if (!runs.empty() && b <= runs.back().end) runs.back().end = std::max(runs.back().end, e);
    else runs.push_back(Run{b, e, 0});
  }
  std::uint64_t shown = 0;
  for (const Run& r : runs) shown += r.end - r.begin;
  double gaps = runs.empty() ? 0 : kGap * static_cast<double>(runs.size() - 1);
  double px_per_byte =
      shown == 0 ? 1.0 : std::clamp((kMaxMemWidth - gaps) / static_cast<double>(shown), 0.05, 6.0);
  double x = kLeft;
  for (Run& r : runs) {
    r.x = x;
    x += static_cast<double>(r.end - r.begin) * px_per_byte + kGap;
  }
  double mem_right = runs.empty() ? kLeft : x - kGap;
  auto x_of = [&](std::uint64_t a) {
    for (const Run& r : runs)
      if (a >= r.begin && a <= r.end) return r.x + static_cast<double>(a - r.begin) * px_per_byte;
    return kLeft;
  };

  double lanes_right = kLeft + 32 * kLaneWidth;
  double width = std::max(lanes_right, mem_right) + kLeft;
  double height = kMemTop + kMemHeight + 110;
  std::string s;
  s += fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"warp-access\" width=\"{:.0f}\" height=\"{:.0f}\" "
      "viewBox=\"0 0 {:.0f} {:.0f}\" font-family=\"sans-serif\" font-size=\"11\">\n",
      width, height, width, height);
  s += fmt::format("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
  s += fmt::format("<text x=\"{}\" y=\"22\" font-size=\"14\" font-weight=\"bold\">{}</text>\n", kLeft,
                   escape(p.title));
  s += fmt::format("<text x=\"{}\" y=\"{}\">Addresses from a warp</text>\n", kLeft, kLaneTop - 8);

  // 2. Lanes.
  for (unsigned lane = 0; lane < 32; ++lane) {
    double lx = kLeft + lane * kLaneWidth;
    bool on = p.active.test(lane);
    s += fmt::format(
        "<g class=\"lane{}\"><rect x=\"{:.1f}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" stroke=\"#333\"/>"
        "<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text></g>\n",
        on ? "" : " inactive", lx, kLaneTop, kLaneWidth - 4, kLaneHeight, on ? "#9ecae1" : "#eeeeee",
        lx + (kLaneWidth - 4) / 2, kLaneTop + 16, lane);
  }

  // 3. Transactions, then the requested bytes inside them, then the axis.
  s += fmt::format("<text x=\"{}\" y=\"{}\">Memory addresses ({} outlined: {} moved, {} requested)</text>\n",
                     kLeft, kMemTop - 10, p.unit_name + "s", p.bytes_moved, p.bytes_requested);
  for (const PictureBlock& b : p.transactions) {
    double bx = x_of(b.addr), bw = static_cast<double>(b.bytes) * px_per_byte;
    s += fmt::format(
        "<rect class=\"transaction\" x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\" fill=\"#fdd0a2\" "
        "stroke=\"#d94801\" stroke-width=\"2\"><title>{} at 0x{:x}, {} bytes</title></rect>\n",
        bx, kMemTop, bw, kMemHeight, p.unit_name, b.addr, b.bytes);
  }
  p.active.for_each([&](unsigned lane) {
    double wx = x_of(p.addr[lane]);
    s += fmt::format(
        "<rect class=\"requested\" x=\"{:.1f}\" y=\"{}\" width=\"{:.2f}\" height=\"{}\" fill=\"#2171b5\" "
        "fill-opacity=\"0.8\"><title>lane {}: 0x{:x}</title></rect>\n",
        wx + 0.5, kMemTop + 8, std::max(1.0, p.width * px_per_byte - 1.0), kMemHeight - 16, lane, p.addr[lane]);
    double lx = kLeft + lane * kLaneWidth + (kLaneWidth - 4) / 2;
    s += fmt::format(
        "<line class=\"arrow\" x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#555\" stroke-width=\"0.8\"/>\n",
        lx, kLaneTop + kLaneHeight, wx + p.width * px_per_byte / 2, kMemTop);
  });
  double axis_y = kMemTop + kMemHeight + 18;
  const bool large = !runs.empty() && runs.back().end > 0x10000;
  double base_label_end = 0;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const Run& r = runs[i];
    double step_bytes = 32;
    while (step_bytes * px_per_byte < 34) step_bytes *= 2;
    for (std::uint64_t a = r.begin; a <= r.end; a += static_cast<std::uint64_t>(step_bytes)) {
      double tx = x_of(a);
      s += fmt::format("<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#999\"/>\n", tx,
                       kMemTop + kMemHeight, tx, kMemTop + kMemHeight + 6);
      // Small addresses are labelled as they are; large ones (real heap addresses) as offsets
      // from the run's first byte, whose address is written once below the axis.
      std::string label = large ? fmt::format("+{}", a - r.begin) : fmt::format("{}", a);
      s += fmt::format("<text class=\"tick\" x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", tx,
                       axis_y, label);
    }
    if (large && r.x >= base_label_end) {  // skipped where the previous run's label would overlap
      std::string base = fmt::format("+0 = 0x{:x}", r.begin);
      s += fmt::format("<text class=\"base\" x=\"{:.1f}\" y=\"{}\">{}</text>\n", r.x, axis_y + 14, base);
      base_label_end = r.x + 7.0 * static_cast<double>(base.size()) + 8;
    }
    if (i + 1 < runs.size())
      s += fmt::format("<text class=\"cut\" x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\" font-size=\"16\">&#8943;</text>\n",
                       r.x + static_cast<double>(r.end - r.begin) * px_per_byte + kGap / 2,
                       kMemTop + kMemHeight / 2 + 5);
  }
  double eff = p.bytes_moved ? 100.0 * static_cast<double>(p.bytes_requested) / static_cast<double>(p.bytes_moved) : 0;
  s += fmt::format("<text class=\"summary\" x=\"{}\" y=\"{}\" font-size=\"13\">{} {}s, {} bytes moved for {} requested: bus utilization {:.2f} %</text>\n",
                   kLeft, axis_y + 34, p.transactions.size(), p.unit_name, p.bytes_moved, p.bytes_requested, eff);
  s += "</svg>\n";
  return s;
}

}  // namespace warpscope::report
