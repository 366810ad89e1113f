#include "report/html_time.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "report/html.hpp"
#include "report/html_common.hpp"

namespace warpscope::report::html {
namespace {

std::string bar(const char* label, const char* id, double pct) {
  const double w = std::clamp(pct, 0.0, 100.0);
  return fmt::format(
      "<div class=\"sol-row\" id=\"sol-{}\"><span class=\"sol-label\">{}</span>"
      "<svg width=\"300\" height=\"14\" role=\"img\" aria-label=\"{} {:.1f} %\"><rect width=\"300\" height=\"14\" "
      "fill=\"#eee\"/><rect width=\"{:.1f}\" height=\"14\" fill=\"#4a7ebb\"/></svg> <span>{:.1f} %</span></div>\n",
      id, label, label, pct, 3.0 * w, pct);
}

/// Log-log roofline: x = warp instructions per DRAM byte (L2 bytes when DRAM moved none),
/// y = warp instructions per second; the roof is min(peak issue, x * bandwidth).
std::string roofline(const json& t) {
  const json* c = field(t, "components");
  const json* mix = field(t, "mix");
  if (!c || !mix) return "";
  const double peak = number_field(*c, "peak_warp_inst_per_s");
  double bytes = number_field(*c, "dram_bytes"), bw = number_field(*c, "dram_bytes_per_s");
  const char* level = "DRAM";
  if (bytes <= 0) {
    bytes = number_field(*c, "l2_bytes");
    bw = number_field(*c, "l2_bytes_per_s");
    level = "L2";
  }
  const double inst = number_field(*mix, "total"), ns = number_field(t, "duration_ns");
  if (peak <= 0 || bw <= 0 || bytes <= 0 || inst <= 0 || ns <= 0) return "";
  const double x = inst / bytes, y = inst / (ns * 1e-9);
  // Axes: 6 decades each, centred on the ridge point.
  const double ridge = peak / bw;
  const double x0 = std::log10(ridge) - 3, y0 = std::log10(peak) - 5;
  auto px = [&](double v) { return 40 + 60 * (std::log10(v) - x0); };
  auto py = [&](double v) { return 330 - 60 * (std::log10(v) - y0); };
  std::string s = "<svg id=\"roofline\" width=\"420\" height=\"360\" role=\"img\" aria-label=\"roofline\">";
  s += "<rect x=\"40\" y=\"30\" width=\"360\" height=\"300\" fill=\"none\" stroke=\"#999\"/>";
  const double xa = std::pow(10, x0), xb = std::pow(10, x0 + 6);
  s += fmt::format("<polyline fill=\"none\" stroke=\"#333\" stroke-width=\"2\" points=\"{:.1f},{:.1f} {:.1f},{:.1f} "
                   "{:.1f},{:.1f}\"/>",
                   px(xa), py(xa * bw), px(ridge), py(peak), px(xb), py(peak));
  const double cx = std::clamp(px(x), 40.0, 400.0), cy = std::clamp(py(y), 30.0, 330.0);
  s += fmt::format("<circle id=\"roofline-point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"5\" fill=\"#c33\"/>", cx, cy);
  s += fmt::format("<text x=\"220\" y=\"352\" text-anchor=\"middle\" font-size=\"11\">warp instructions per {} byte "
                   "(this launch: {:.3g})</text>",
                   level, x);
  s += fmt::format("<text x=\"44\" y=\"24\" font-size=\"11\">warp instructions/s (this launch {:.3g}; peak {:.3g})</text>",
                   y, peak);
  return s + "</svg>\n";
}

}  // namespace

std::string time_section(const json& launch) {
  const json* t = field(launch, "time");
  if (!t || !t->is_object() || !t->value("available", false)) return "";
  const json* sol = field(*t, "sol");
  std::string s = "<section id=\"time\">\n<h2 id=\"time-heading\">Predicted time " + estimated_marker() + "</h2>\n";
  s += fmt::format("<p id=\"predicted-time\">{:.2f} &micro;s, limited by <strong id=\"limiter\">{}</strong> "
                   "(the time model, docs/time.md)</p>\n",
                   number_field(*t, "duration_ns") / 1e3, html_escape(string_field(*t, "limiter", "?")));
  if (sol) {
    s += "<div class=\"sol\" id=\"sol\">\n";
    s += bar("Compute (SM)", "sm", number_field(*sol, "sm_pct"));
    s += bar("Memory", "memory", number_field(*sol, "memory_pct"));
    s += bar("L1/shared", "l1", number_field(*sol, "l1_pct"));
    s += bar("L2", "l2", number_field(*sol, "l2_pct"));
    s += bar("DRAM", "dram", number_field(*sol, "dram_pct"));
    s += bar("Achieved occupancy", "occupancy", number_field(*sol, "occupancy_pct"));
    s += "</div>\n";
  }
  s += roofline(*t);
  return s + "</section>\n";
}

}  // namespace warpscope::report::html
