#include "report/memory_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/html.hpp"
#include "report/html_common.hpp"

namespace warpscope::report {
namespace {

using html::grouped;
using nlohmann::json;

constexpr std::uint64_t kSectorBytes = 32;  // Nsight Compute's sector

std::optional<std::uint64_t> counter(const json& metrics, const std::string& name, ChartFlow& flow) {
  const json* v = html::field(metrics, name.c_str());
  if (!v || !v->is_number()) return std::nullopt;
  flow.sources.push_back(name);
  return html::to_u64(*v);
}

bool any_nonzero(const ChartFlow& f) {
  for (const auto& v : {f.instructions, f.requests, f.sectors, f.hits, f.bytes, f.wavefronts, f.conflicts})
    if (v && *v) return true;
  return false;
}

/// A flow through the L1/TEX cache: instructions, requests, sectors and lookup hits.
ChartFlow l1_flow(const json& m, const std::string& key, const std::string& label, const std::string& inst,
                  const std::string& pipe) {
  ChartFlow f{key, label, {}, {}, {}, {}, {}, {}, {}, {}};
  f.instructions = counter(m, inst, f);
  f.requests = counter(m, "l1tex__t_requests_" + pipe + ".sum", f);
  f.sectors = counter(m, "l1tex__t_sectors_" + pipe + ".sum", f);
  f.hits = counter(m, "l1tex__t_sectors_" + pipe + "_lookup_hit.sum", f);
  if (f.sectors) f.bytes = *f.sectors * kSectorBytes;
  return f;
}

}  // namespace

std::optional<double> ChartFlow::hit_pct() const {
  if (!hits || !sectors || *sectors == 0) return std::nullopt;
  return 100.0 * static_cast<double>(*hits) / static_cast<double>(*sectors);
}

bool has_memory_metrics(const json& metrics) {
  if (!metrics.is_object()) return false;
  for (const auto& [name, value] : metrics.items())
    if (name.starts_with("l1tex__") || name.starts_with("lts__") || name.starts_with("dram__")) return true;
  return false;
}

MemoryChart memory_chart(const json& m) {
  MemoryChart c;
  struct Op {
    const char* op;
    const char* label;
  };
  for (Op op : {Op{"ld", "load"}, Op{"st", "store"}, Op{"atom", "atomic"}, Op{"red", "reduction"}}) {
    ChartFlow f = l1_flow(m, fmt::format("global_{}", op.op), fmt::format("Global {}", op.label),
                          fmt::format("smsp__sass_inst_executed_op_global_{}.sum", op.op),
                          fmt::format("pipe_lsu_mem_global_op_{}", op.op));
    if (std::string_view(op.op) == "ld" || std::string_view(op.op) == "st" || any_nonzero(f)) c.to_l1.push_back(f);
  }
  for (Op op : {Op{"ld", "load"}, Op{"st", "store"}}) {
    ChartFlow f = l1_flow(m, fmt::format("local_{}", op.op), fmt::format("Local {}", op.label),
                          fmt::format("smsp__sass_inst_executed_op_local_{}.sum", op.op),
                          fmt::format("pipe_lsu_mem_local_op_{}", op.op));
    if (any_nonzero(f)) c.to_l1.push_back(f);
  }
  if (ChartFlow f = l1_flow(m, "texture", "Texture", "smsp__sass_inst_executed_op_texture.sum", "pipe_tex_mem_texture");
      any_nonzero(f))
    c.to_l1.push_back(f);
  for (Op op : {Op{"ld", "load"}, Op{"st", "store"}, Op{"red", "reduction"}}) {
    ChartFlow f = l1_flow(m, fmt::format("surface_{}", op.op), fmt::format("Surface {}", op.label),
                          fmt::format("smsp__sass_inst_executed_op_surface_{}.sum", op.op),
                          fmt::format("pipe_tex_mem_surface_op_{}", op.op));
    if (any_nonzero(f)) c.to_l1.push_back(f);
  }
  for (Op op : {Op{"ld", "load"}, Op{"st", "store"}, Op{"atom", "atomic"}}) {
    ChartFlow f{fmt::format("shared_{}", op.op), fmt::format("Shared {}", op.label), {}, {}, {}, {}, {}, {}, {}, {}};
    f.instructions = counter(m, fmt::format("smsp__sass_inst_executed_op_shared_{}.sum", op.op), f);
    f.wavefronts = counter(m, fmt::format("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{}.sum", op.op), f);
    f.conflicts = counter(m, fmt::format("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{}.sum", op.op), f);
    if (any_nonzero(f)) c.to_shared.push_back(f);
  }
  for (Op op : {Op{"read", "Read"}, Op{"write", "Write"}, Op{"atom", "Atomic"}, Op{"red", "Reduction"}}) {
    ChartFlow f{fmt::format("l2_{}", op.op), op.label, {}, {}, {}, {}, {}, {}, {}, {}};
    f.sectors = counter(m, fmt::format("lts__t_sectors_srcunit_tex_op_{}.sum", op.op), f);
    f.hits = counter(m, fmt::format("lts__t_sectors_srcunit_tex_op_{}_lookup_hit.sum", op.op), f);
    if (f.sectors) f.bytes = *f.sectors * kSectorBytes;
    std::string_view name(op.op);
    if (name == "read" || name == "write" || any_nonzero(f)) c.to_l2.push_back(f);
  }
  for (Op op : {Op{"read", "Read"}, Op{"write", "Write"}}) {
    ChartFlow f{fmt::format("dram_{}", op.op), op.label, {}, {}, {}, {}, {}, {}, {}, {}};
    f.bytes = counter(m, fmt::format("dram__bytes_{}.sum", op.op), f);
    c.to_dram.push_back(f);
  }
  std::uint64_t hits = 0, sectors = 0;
  for (const ChartFlow& f : c.to_l1)
    if (f.hits && f.sectors) hits += *f.hits, sectors += *f.sectors;
  if (sectors) c.l1_hit_pct = 100.0 * static_cast<double>(hits) / static_cast<double>(sectors);
  if (const json* v = html::field(m, "l2_hit_rate_pct"); v && v->is_number()) c.l2_hit_pct = v->get<double>();
  return c;
}

// ---- Drawing. ----

namespace {

// Columns (x, width) of the boxes; arrows fill the space between them.
constexpr double kKernelX = 10, kKernelW = 160, kL1X = 460, kL1W = 165, kL2X = 825, kL2W = 140, kDramX = 1065,
                 kDramW = 105, kWidth = 1180;
constexpr double kTop = 10, kHeader = 40, kRow = 64, kGap = 16;

constexpr const char *kLsu = "#2b6cb0", *kTex = "#8e44ad", *kLocal = "#b7791f", *kShared = "#2f855a",
                     *kDram = "#c05621", *kZero = "#b8b8b8";

std::string n(const std::optional<std::uint64_t>& v) { return v ? grouped(*v) : "\u2014"; }

std::string pct(const std::optional<double>& v) { return v ? fmt::format("{:.1f} %", *v) : "\u2014"; }

std::string attrs(const ChartFlow& f) {
  std::string s = fmt::format(" data-flow=\"{}\"", f.key);
  auto put = [&](const char* name, const std::optional<std::uint64_t>& v) {
    if (v) s += fmt::format(" data-{}=\"{}\"", name, *v);
  };
  put("instructions", f.instructions);
  put("requests", f.requests);
  put("sectors", f.sectors);
  put("hits", f.hits);
  put("bytes", f.bytes);
  put("wavefronts", f.wavefronts);
  put("conflicts", f.conflicts);
  if (auto p = f.hit_pct()) s += fmt::format(" data-hit-pct=\"{:.2f}\"", *p);
  return s;
}

std::string tooltip(const ChartFlow& f) {
  std::string t = f.label + ":";
  for (const std::string& name : f.sources) t += "\n" + name;
  return html_escape(t);
}

struct Style {
  const char* colour;
  double width;
  bool zero;
};

Style arrow_style(const ChartFlow& f, std::uint64_t largest, const char* colour) {
  std::uint64_t amount = f.bytes.value_or(f.wavefronts.value_or(0) * 128);
  if (amount == 0) return {kZero, 1.2, true};
  double share = largest ? std::sqrt(static_cast<double>(amount) / static_cast<double>(largest)) : 1.0;
  return {colour, 1.6 + 6.0 * std::min(1.0, share), false};
}

/// A horizontal arrow from x1 to x2 at y with a label above and one below, in its flow's group.
std::string arrow(const ChartFlow& f, double x1, double x2, double y, const Style& st, const std::string& above,
                  const std::string& below) {
  double mid = (x1 + x2) / 2, head = std::max(9.0, 2.2 * st.width), half = std::max(4.5, 1.4 * st.width);
  double tip = x2 - 3;
  return fmt::format(
      "<g class=\"flow{}\"{}><title>{}</title>"
      "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\" stroke-width=\"{:.1f}\"{}/>"
      "<path d=\"M{:.1f},{:.1f} L{:.1f},{:.1f} L{:.1f},{:.1f} z\" fill=\"{}\"/>"
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" class=\"above\">{}</text>"
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" class=\"below\" fill=\"#444\">{}</text></g>\n",
      st.zero ? " zero" : "", attrs(f), tooltip(f), x1 + 2, y, tip - head + 1, y, st.colour, st.width,
      st.zero ? " stroke-dasharray=\"4 3\"" : "", tip - head, y - half, tip, y, tip - head, y + half, st.colour, mid,
      y - 4 - std::max(half, st.width / 2), html_escape(above), mid, y + 12 + std::max(half, st.width / 2),
      html_escape(below));
}

std::string box(double x, double y, double w, double h, const std::string& cls, const std::string& title,
                const std::string& figure) {
  return fmt::format(
      "<g class=\"box {}\"><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" rx=\"6\" "
      "fill=\"#f3f5f9\" "
      "stroke=\"#4a5568\" stroke-width=\"1.2\"/>"
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" font-weight=\"bold\" font-size=\"13\">{}</text>"
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" fill=\"#444\" class=\"figure\">{}</text></g>\n",
      cls, x, y, w, h, x + w / 2, y + 17, html_escape(title), x + w / 2, y + 32, html_escape(figure));
}

/// The row label inside the kernel box: the kind of access and its instruction count.
std::string kernel_row(const ChartFlow& f, double y) {
  return fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" font-weight=\"600\">{}</text>"
      "<text x=\"{:.1f}\" y=\"{:.1f}\" fill=\"#555\" font-size=\"10.5\">{} inst</text>\n",
      kKernelX + 10, y - 3, html_escape(f.label), kKernelX + 10, y + 11, n(f.instructions));
}

}  // namespace

std::string render_memory_chart(const MemoryChart& c) {
  std::uint64_t largest = 1;
  for (const auto* flows : {&c.to_l1, &c.to_shared, &c.to_l2, &c.to_dram})
    for (const ChartFlow& f : *flows) largest = std::max(largest, f.bytes.value_or(f.wavefronts.value_or(0) * 128));

  // Rows: the L1 flows, then (in a box of its own under the L1) the shared-memory flows.
  double y = kTop + kHeader;
  std::vector<double> l1_rows, shared_rows;
  for (std::size_t i = 0; i < c.to_l1.size(); ++i, y += kRow) l1_rows.push_back(y + kRow / 2);
  double l1_bottom = y + 4;
  double shared_top = l1_bottom + kGap;
  y = shared_top + kHeader;
  for (std::size_t i = 0; i < c.to_shared.size(); ++i, y += kRow) shared_rows.push_back(y + kRow / 2);
  double shared_bottom = y + 4;
  std::vector<double> l2_rows;
  for (std::size_t i = 0; i < c.to_l2.size(); ++i) l2_rows.push_back(kTop + kHeader + kRow / 2 + kRow * double(i));
  double l2_bottom = std::max(l1_bottom, kTop + kHeader + kRow * double(c.to_l2.size()) + 4);
  double height = std::max(shared_bottom, l2_bottom) + kTop;

  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"memory-chart\" viewBox=\"0 0 {:.0f} {:.0f}\" width=\"{:.0f}\" "
      "height=\"{:.0f}\" font-family=\"sans-serif\" font-size=\"11.5\" role=\"img\" "
      "aria-label=\"memory chart: kernel, L1/TEX cache, shared memory, L2 cache, DRAM\">\n",
      kWidth, height, kWidth, height);

  // Boxes.
  std::uint64_t wavefronts = 0, conflicts = 0;
  for (const ChartFlow& f : c.to_shared) wavefronts += f.wavefronts.value_or(0), conflicts += f.conflicts.value_or(0);
  std::uint64_t dram_bytes = 0;
  bool dram_known = false;
  for (const ChartFlow& f : c.to_dram)
    if (f.bytes) dram_bytes += *f.bytes, dram_known = true;
  s += box(kKernelX, kTop, kKernelW, shared_bottom - kTop, "kernel", "Kernel", "");
  s += box(kL1X, kTop, kL1W, l1_bottom - kTop, "l1", "L1/TEX cache", "Hit Rate " + pct(c.l1_hit_pct));
  s += box(kL1X, shared_top, kL1W, shared_bottom - shared_top, "shared", "Shared memory",
           c.to_shared.empty() ? "no accesses"
                               : fmt::format("{} wavefronts, {} conflicts", grouped(wavefronts), grouped(conflicts)));
  s += box(kL2X, kTop, kL2W, l2_bottom - kTop, "l2", "L2 cache", "Hit Rate " + pct(c.l2_hit_pct));
  s += box(kDramX, kTop, kDramW, l2_bottom - kTop, "dram", "DRAM",
           dram_known ? fmt::format("{} B", grouped(dram_bytes)) : "\u2014");

  // Kernel -> L1/TEX.
  for (std::size_t i = 0; i < c.to_l1.size(); ++i) {
    const ChartFlow& f = c.to_l1[i];
    const char* colour = f.key.starts_with("texture") || f.key.starts_with("surface") ? kTex
                         : f.key.starts_with("local")                                 ? kLocal
                                                                                      : kLsu;
    s += kernel_row(f, l1_rows[i]);
    s += arrow(f, kKernelX + kKernelW, kL1X, l1_rows[i], arrow_style(f, largest, colour),
               fmt::format("{} req \u00b7 {} sectors", n(f.requests), n(f.sectors)),
               fmt::format("{} B \u00b7 hit {}", n(f.bytes), pct(f.hit_pct())));
  }
  // Kernel -> shared memory.
  for (std::size_t i = 0; i < c.to_shared.size(); ++i) {
    const ChartFlow& f = c.to_shared[i];
    s += kernel_row(f, shared_rows[i]);
    s += arrow(f, kKernelX + kKernelW, kL1X, shared_rows[i], arrow_style(f, largest, kShared),
               fmt::format("{} wavefronts", n(f.wavefronts)), fmt::format("{} bank conflicts", n(f.conflicts)));
  }
  // L1 -> L2 and L2 -> DRAM.
  for (std::size_t i = 0; i < c.to_l2.size(); ++i) {
    const ChartFlow& f = c.to_l2[i];
    s += arrow(
        f, kL1X + kL1W, kL2X, l2_rows[i], arrow_style(f, largest, kLsu),
        fmt::format("{}: {} sectors", f.label, n(f.sectors)),
        f.hits ? fmt::format("{} B \u00b7 hit {}", n(f.bytes), pct(f.hit_pct())) : fmt::format("{} B", n(f.bytes)));
  }
  for (std::size_t i = 0; i < c.to_dram.size(); ++i) {
    const ChartFlow& f = c.to_dram[i];
    s += arrow(f, kL2X + kL2W, kDramX, l2_rows.size() > i ? l2_rows[i] : kTop + kHeader + kRow / 2 + kRow * double(i),
               arrow_style(f, largest, kDram), f.label, fmt::format("{} B", n(f.bytes)));
  }
  return s + "</svg>\n";
}

}  // namespace warpscope::report
