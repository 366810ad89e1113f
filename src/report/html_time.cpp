#include "report/html_time.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <utility>

#include <fmt/format.h>

#include "report/html.hpp"
#include "report/html_common.hpp"

namespace warpscope::report::html {
namespace {

// ---- Speed Of Light: one SVG, every bar on the same axis. ----

// Bars start at kBarX and 100 % is kBarWidth pixels for every row, so bars compare by eye.
constexpr double kBarX = 180, kBarWidth = 320, kRow = 24, kBarHeight = 15, kSolTop = 6;

struct SolRow {
  const char* id;     // sol-ID
  const char* label;  // Nsight Compute's name in its GPU Speed Of Light and Occupancy sections
  const char* key;    // in time.sol
};
constexpr SolRow kSolRows[] = {
    {"sm", "Compute (SM) Throughput", "sm_pct"},   {"memory", "Memory Throughput", "memory_pct"},
    {"l1", "L1/TEX Cache Throughput", "l1_pct"},   {"l2", "L2 Cache Throughput", "l2_pct"},
    {"dram", "DRAM Throughput", "dram_pct"},       {"occupancy", "Achieved Occupancy", "occupancy_pct"},
};

std::string sol_chart(const json& sol) {
  const std::size_t rows = std::size(kSolRows);
  // The occupancy row is not a throughput: a gap sets it apart.
  auto row_y = [&](std::size_t i) { return kSolTop + kRow * double(i) + (i + 1 == rows ? 8.0 : 0.0); };
  const double bottom = row_y(rows - 1) + kRow, height = bottom + 22, width = kBarX + kBarWidth + 58;
  std::string s = fmt::format(
      "<svg class=\"sol-chart\" id=\"sol\" viewBox=\"0 0 {0:.0f} {1:.0f}\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"12\" role=\"img\" aria-label=\"Speed Of Light, percent of peak\" "
      "data-x=\"{2:.0f}\" data-scale=\"{3:.0f}\">\n",
      width, height, kBarX, kBarWidth);
  // The shared axis: a grid line and a label every 25 %.
  for (int pct = 0; pct <= 100; pct += 25) {
    double x = kBarX + kBarWidth * pct / 100.0;
    s += fmt::format(
        "<line class=\"sol-grid\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" stroke=\"{3}\"/>"
        "<text class=\"sol-tick\" x=\"{0:.1f}\" y=\"{4:.1f}\" text-anchor=\"middle\" fill=\"#555\" "
        "font-size=\"11\">{5} %</text>\n",
        x, kSolTop - 2, bottom, pct == 0 ? "#777" : "#ddd", bottom + 14, pct);
  }
  for (std::size_t i = 0; i < rows; ++i) {
    const SolRow& r = kSolRows[i];
    const double pct = number_field(sol, r.key), w = kBarWidth * std::clamp(pct, 0.0, 100.0) / 100.0;
    const double y = row_y(i);
    s += fmt::format(
        "<g class=\"sol-bar\" id=\"sol-{0}\" data-pct=\"{1}\"><title>{2}: {3:.1f} % of peak</title>"
        "<text x=\"{4:.0f}\" y=\"{5:.1f}\" text-anchor=\"end\">{2}</text>"
        "<rect class=\"sol-track\" x=\"{6:.0f}\" y=\"{7:.1f}\" width=\"{8:.0f}\" height=\"{9:.0f}\" fill=\"#f0f0f0\"/>"
        "<rect class=\"sol-fill\" x=\"{6:.0f}\" y=\"{7:.1f}\" width=\"{10:.1f}\" height=\"{9:.0f}\" fill=\"{11}\"/>"
        "<text class=\"sol-value\" x=\"{12:.1f}\" y=\"{5:.1f}\">{3:.1f} %</text></g>\n",
        r.id, raw(field(sol, r.key)), r.label, pct, kBarX - 10, y + kBarHeight - 3, kBarX, y, kBarWidth,
        kBarHeight, w, i + 1 == rows ? "#5b9a68" : "#4a7ebb", kBarX + w + 5);
  }
  return s + "</svg>\n";
}

// ---- Roofline. ----

/// Three significant digits without an exponent in the range people read (0.001 .. 99,999).
std::string number3(double v) {
  const double a = std::fabs(v);
  if (a == 0) return "0";
  if (a >= 1e5 || a < 1e-3) return fmt::format("{:.2e}", v);
  if (a >= 100) return grouped(static_cast<std::uint64_t>(std::llround(a)));
  if (a >= 10) return fmt::format("{:.1f}", v);
  if (a >= 1) return fmt::format("{:.2f}", v);
  return fmt::format("{:.3g}", v);
}

/// A rate with an SI prefix: "1.05 T", "3.07 T", "850 M" (the unit follows it).
std::string si(double v) {
  static constexpr std::pair<double, const char*> kPrefixes[] = {{1e15, "P"}, {1e12, "T"}, {1e9, "G"},
                                                                 {1e6, "M"},  {1e3, "k"}};
  for (auto [size, prefix] : kPrefixes)
    if (std::fabs(v) >= size) return fmt::format("{:.3g} {}", v / size, prefix);
  return fmt::format("{:.3g}", v);
}

/// "10<tspan>k</tspan>": a decade label.
std::string decade(int k) {
  return fmt::format("10<tspan dy=\"-5\" font-size=\"8\">{}</tspan>", k);
}

// The plot area inside the SVG.
constexpr double kLeft = 66, kRight = 580, kTop = 16, kBottom = 320, kWidth = 600, kHeight = 372;

struct Axes {
  double x_lo, x_hi, y_lo, y_hi;  // decades
  double px(double v) const {
    return std::clamp(kLeft + (std::log10(v) - x_lo) / (x_hi - x_lo) * (kRight - kLeft), kLeft, kRight);
  }
  double py(double v) const {
    return std::clamp(kBottom - (std::log10(v) - y_lo) / (y_hi - y_lo) * (kBottom - kTop), kTop, kBottom);
  }
};

/// Decades holding every value with some room, at least `least` wide and at most `most`.
std::pair<double, double> decades(double lo, double hi, double least, double most, double keep_lo, double keep_hi) {
  double a = std::floor(std::log10(lo) - 0.15), b = std::ceil(std::log10(hi) + 0.15);
  // Too wide: keep the roofs' part (keep_lo .. keep_hi) and as much around it as fits.
  a = std::max(a, std::floor(std::log10(keep_lo)) - (most - 1));
  b = std::min(b, std::ceil(std::log10(keep_hi)) + (most - 1));
  if (b - a > most) a = b - most;
  while (b - a < least) {
    a -= 1;
    if (b - a < least) b += 1;
  }
  return {a, b};
}

std::string diamond(double x, double y, double r, const char* fill, double opacity, const std::string& attrs) {
  return fmt::format(
      "<path{} d=\"M{:.1f},{:.1f} L{:.1f},{:.1f} L{:.1f},{:.1f} L{:.1f},{:.1f} z\" fill=\"{}\" fill-opacity=\"{}\" "
      "stroke=\"{}\" stroke-width=\"{}\"",
      attrs, x, y - r, x + r, y, x, y + r, x - r, y, fill, opacity, opacity < 1 ? "none" : "#fff", opacity < 1 ? 0 : 1);
}

constexpr const char *kDramColour = "#c0392b", *kL2Colour = "#d68910", *kRoofColour = "#333";

std::string roofline(const json& t, const json& launch, const json* others) {
  const json* c = field(t, "components");
  if (!c) return "";
  const double peak = number_field(*c, "peak_warp_inst_per_s");
  const double dram_bw = number_field(*c, "dram_bytes_per_s"), l2_bw = number_field(*c, "l2_bytes_per_s");
  RooflinePoint me;
  if (peak <= 0 || dram_bw <= 0 || l2_bw <= 0 || !roofline_point(launch, me)) return "";
  std::vector<RooflinePoint> rest;
  if (others && others->is_array())
    for (const json& l : *others) {
      RooflinePoint p;
      if (&l != &launch && roofline_point(l, p)) rest.push_back(p);
    }

  // Axis ranges: the ridge points and every point, in whole decades.
  const double ridge_dram = peak / dram_bw, ridge_l2 = peak / l2_bw;
  double x_min = std::min(ridge_dram, ridge_l2), x_max = std::max(ridge_dram, ridge_l2), y_min = peak, y_max = peak;
  auto take = [&](const RooflinePoint& p) {
    for (double x : {p.dram_intensity, p.l2_intensity})
      if (x > 0) x_min = std::min(x_min, x), x_max = std::max(x_max, x);
    y_min = std::min(y_min, p.inst_per_s);
    y_max = std::max(y_max, p.inst_per_s);
  };
  take(me);
  for (const RooflinePoint& p : rest) take(p);
  auto [x_lo, x_hi] = decades(x_min, x_max, 4, 9, std::min(ridge_dram, ridge_l2), std::max(ridge_dram, ridge_l2));
  auto [y_lo, y_hi] = decades(y_min, y_max, 4, 8, peak, peak);
  const Axes ax{x_lo, x_hi, y_lo, y_hi};

  std::string s = fmt::format(
      "<svg class=\"roofline\" id=\"roofline\" viewBox=\"0 0 {0:.0f} {1:.0f}\" width=\"{0:.0f}\" height=\"{1:.0f}\" "
      "font-family=\"sans-serif\" font-size=\"11\" role=\"img\" aria-label=\"instruction roofline, log-log\" "
      "data-x-decades=\"{2:.0f} {3:.0f}\" data-y-decades=\"{4:.0f} {5:.0f}\">\n",
      kWidth, kHeight, x_lo, x_hi, y_lo, y_hi);
  s += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"#fcfcfc\" stroke=\"#999\"/>\n", kLeft, kTop,
                   kRight - kLeft, kBottom - kTop);
  // Decade grid lines and labels on both axes.
  for (int k = int(x_lo); k <= int(x_hi); ++k) {
    double x = ax.px(std::pow(10.0, k));
    s += fmt::format(
        "<line class=\"grid\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e3e3e3\"/>"
        "<text class=\"x-tick\" x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
        x, kTop, kBottom, kBottom + 16, decade(k));
  }
  for (int k = int(y_lo); k <= int(y_hi); ++k) {
    double y = ax.py(std::pow(10.0, k));
    s += fmt::format(
        "<line class=\"grid\" x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#e3e3e3\"/>"
        "<text class=\"y-tick\" x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5}</text>\n",
        kLeft, y, kRight, kLeft - 6, y + 4, decade(k));
  }
  s += fmt::format(
      "<text x=\"{:.0f}\" y=\"{:.0f}\" text-anchor=\"middle\">warp instructions per byte "
      "(<tspan fill=\"{}\">&#9679; DRAM bytes</tspan>, <tspan fill=\"{}\">&#9670; L2 bytes</tspan>)</text>\n",
      (kLeft + kRight) / 2, kHeight - 18, kDramColour, kL2Colour);
  s += fmt::format(
      "<text x=\"14\" y=\"{0:.0f}\" text-anchor=\"middle\" transform=\"rotate(-90 14 {0:.0f})\">warp instructions "
      "per second</text>\n",
      (kTop + kBottom) / 2);

  // Roofs: each bandwidth's slope up to its ridge point, then the issue peak.
  const double y_floor = std::pow(10.0, y_lo), x_start = std::pow(10.0, x_lo);
  struct Roof {
    const char* id;
    const char* name;
    double bw, ridge;
    const char* colour;
  };
  for (const Roof& r : {Roof{"l2", "L2", l2_bw, ridge_l2, kL2Colour}, Roof{"dram", "DRAM", dram_bw, ridge_dram, kDramColour}}) {
    const double x0 = std::max(x_start, y_floor / r.bw);
    s += fmt::format(
        "<line class=\"roof {}\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" "
        "stroke-width=\"2\"/>\n",
        r.id, ax.px(x0), ax.py(x0 * r.bw), ax.px(r.ridge), ax.py(peak), r.colour);
    // The slope's name along it, a quarter of the way up (in decades) from where it enters.
    const double lx = x0 * std::pow(r.ridge / x0, 0.25);
    // The slope on screen: a decade up per decade right, in each axis's pixels per decade.
    const double angle =
        std::atan2((kBottom - kTop) / (y_hi - y_lo), (kRight - kLeft) / (x_hi - x_lo)) * 180 / std::numbers::pi;
    const double dy = r.id[0] == 'l' ? -8 : 16;  // L2 above its line, DRAM below
    s += fmt::format(
        "<text class=\"roof-label\" x=\"{0:.1f}\" y=\"{1:.1f}\" fill=\"{2}\" transform=\"rotate({3:.1f} {0:.1f} "
        "{1:.1f})\">{4} {5}B/s</text>\n",
        ax.px(lx), ax.py(lx * r.bw) + dy, r.colour, -angle, r.name, si(r.bw));
  }
  s += fmt::format(
      "<line class=\"roof peak\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"2\"/>"
      "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">issue peak {} warp inst/s</text>\n",
      ax.px(std::min(ridge_l2, ridge_dram)), ax.py(peak), kRight, ax.py(peak), kRoofColour, kRight - 4,
      ax.py(peak) + 14, si(peak));
  // Ridge points: the L2 one labelled to its left, the DRAM one to its right (the L2's is the
  // smaller intensity, its bandwidth being the larger).
  for (const Roof& r : {Roof{"l2", "L2", l2_bw, ridge_l2, kL2Colour}, Roof{"dram", "DRAM", dram_bw, ridge_dram, kDramColour}}) {
    const bool left = r.id[0] == 'l';
    s += fmt::format(
        "<g class=\"ridge\" id=\"ridge-{0}\" data-x=\"{1:.4g}\"><circle cx=\"{2:.1f}\" cy=\"{3:.1f}\" r=\"4\" "
        "fill=\"#fff\" stroke=\"{4}\" stroke-width=\"2\"/><text x=\"{5:.1f}\" y=\"{6:.1f}\" text-anchor=\"{7}\" "
        "fill=\"{4}\">{8} ridge {9} inst/B</text></g>\n",
        r.id, r.ridge, ax.px(r.ridge), ax.py(peak), r.colour, ax.px(r.ridge) + (left ? -6 : 6), ax.py(peak) - 7,
        left ? "end" : "start", r.name, number3(r.ridge));
  }

  // The program's other launches, faint; one mark per pixel position, and at most kMaxFaint marks
  // (a program of thousands of launches would otherwise repeat them on every page).
  constexpr std::size_t kMaxFaint = 400;
  std::set<std::pair<long, long>> drawn;
  for (const RooflinePoint& p : rest) {
    const double y = ax.py(p.inst_per_s);
    if (drawn.size() >= kMaxFaint) break;
    if (p.dram_intensity > 0 && drawn.size() < kMaxFaint && drawn.insert({std::lround(ax.px(p.dram_intensity)), std::lround(y) * 2}).second) {
      s += fmt::format(
          "<circle class=\"point other dram\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3.5\" fill=\"{}\" fill-opacity=\"0.3\">"
          "<title>{}</title></circle>\n",
          ax.px(p.dram_intensity), y, kDramColour, html_escape(p.label));
    }
    if (p.l2_intensity > 0 && drawn.size() < kMaxFaint && drawn.insert({std::lround(ax.px(p.l2_intensity)), std::lround(y) * 2 + 1}).second) {
      s += diamond(ax.px(p.l2_intensity), y, 4, kL2Colour, 0.3, " class=\"point other l2\"") +
           fmt::format("><title>{}</title></path>\n", html_escape(p.label));
    }
  }
  // This launch: a point per memory level at the same height.
  const double y = ax.py(me.inst_per_s);
  const bool has_dram = me.dram_intensity > 0;
  if (me.l2_intensity > 0)
    s += diamond(ax.px(me.l2_intensity), y, 7, kL2Colour, 1,
                 fmt::format(" class=\"point this l2\"{} data-x=\"{:.4g}\" data-y=\"{:.4g}\"",
                             has_dram ? " id=\"roofline-point-l2\"" : " id=\"roofline-point\"", me.l2_intensity,
                             me.inst_per_s)) +
         fmt::format("><title>this launch: {} warp instructions per L2 byte</title></path>\n", number3(me.l2_intensity));
  if (has_dram)
    s += fmt::format(
        "<circle class=\"point this dram\" id=\"roofline-point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"6\" fill=\"{}\" "
        "stroke=\"#fff\" data-x=\"{:.4g}\" data-y=\"{:.4g}\"><title>this launch: {} warp instructions per DRAM "
        "byte</title></circle>\n",
        ax.px(me.dram_intensity), y, kDramColour, me.dram_intensity, me.inst_per_s, number3(me.dram_intensity));
  // Legend, top left (above the slopes).
  s += fmt::format(
      "<g class=\"legend\" font-size=\"11\"><circle cx=\"{0}\" cy=\"{1}\" r=\"5\" fill=\"{2}\"/>"
      "<text x=\"{3}\" y=\"{4}\">this launch</text><circle cx=\"{0}\" cy=\"{5}\" r=\"3.5\" fill=\"{2}\" "
      "fill-opacity=\"0.3\"/><text x=\"{3}\" y=\"{6}\">the program's other launches ({7})</text></g>\n",
      kLeft + 12, kTop + 14, kDramColour, kLeft + 22, kTop + 18, kTop + 30, kTop + 34, rest.size());
  return s + "</svg>\n";
}

std::string roofline_caption(const json& t, const json& launch) {
  const json* c = field(t, "components");
  RooflinePoint me;
  if (!c || !roofline_point(launch, me)) return "";
  const double peak = number_field(*c, "peak_warp_inst_per_s");
  std::string levels;
  if (me.dram_intensity > 0) levels += fmt::format("{} warp instructions per DRAM byte, ", number3(me.dram_intensity));
  else levels += "no DRAM bytes, ";
  if (me.l2_intensity > 0) levels += fmt::format("{} per L2 byte, ", number3(me.l2_intensity));
  return fmt::format(
      "<p class=\"note\" id=\"roofline-caption\">This launch: {}{} warp instructions/s ({:.1f} % of the issue peak). "
      "Log-log axes. A roof is the issue peak (SMs &times; schedulers &times; clock) or a bandwidth &times; "
      "intensity, whichever is lower; a ridge point is where they meet (peak / bandwidth). A point under the "
      "sloped roof is bandwidth-bound at that level, under the flat roof issue-bound.</p>\n",
      levels, si(me.inst_per_s), peak > 0 ? 100.0 * me.inst_per_s / peak : 0.0);
}

}  // namespace

bool roofline_point(const json& launch, RooflinePoint& point) {
  const json* t = prediction(launch);
  if (!t) return false;
  const json* c = field(*t, "components");
  const json* mix = field(*t, "mix");
  if (!c || !mix) return false;
  const double inst = number_field(*mix, "total"), ns = number_field(*t, "duration_ns");
  const double dram = number_field(*c, "dram_bytes"), l2 = number_field(*c, "l2_bytes");
  if (inst <= 0 || ns <= 0 || (dram <= 0 && l2 <= 0)) return false;
  point.dram_intensity = dram > 0 ? inst / dram : 0;
  point.l2_intensity = l2 > 0 ? inst / l2 : 0;
  point.inst_per_s = inst / (ns * 1e-9);
  point.label = fmt::format("launch {}: {}", raw(field(launch, "index")), kernel_name(launch));
  return true;
}

std::string time_section(const json& launch, const json* others) {
  const json* t = prediction(launch);
  if (!t) return "";
  const json* sol = field(*t, "sol");
  std::string s = "<section id=\"time\">\n<h2 id=\"time-heading\">Predicted time " + estimated_marker() + "</h2>\n";
  s += fmt::format(
      "<p id=\"predicted-time\"><span class=\"duration\" data-ns=\"{}\">{}</span> (predicted gpu__time_duration), "
      "limited by <strong id=\"limiter\">{}</strong> (the time model, docs/time.md)</p>\n",
      raw(field(*t, "duration_ns")), html_escape(duration_text(number_field(*t, "duration_ns"))),
      html_escape(string_field(*t, "limiter", "?")));
  s += "<div class=\"time-figures\">\n";
  if (sol && sol->is_object())
    s += "<figure class=\"sol\">\n<figcaption>Speed Of Light: % of each unit's peak, one scale for every bar"
         "</figcaption>\n" +
         sol_chart(*sol) + "</figure>\n";
  if (std::string r = roofline(*t, launch, others); !r.empty())
    s += "<figure class=\"roofline\">\n<figcaption>Instruction roofline</figcaption>\n" + r + "</figure>\n";
  s += "</div>\n" + roofline_caption(*t, launch);
  return s + "</section>\n";
}

}  // namespace warpscope::report::html
