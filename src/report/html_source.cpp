#include "report/html_source.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

#include "report/access_svg.hpp"
#include "report/matrix_svg.hpp"
#include "report/tma_svg.hpp"
#include "report/html.hpp"

namespace warpscope::report::html {
namespace {

/// A counter column of the source view: its key in a line, its group, heading and tooltip.
struct Column {
  const char* key;
  const char* group;
  const char* heading;
  const char* tip;
};
constexpr Column kColumns[] = {
    {"executions", "", "exec", "warp-level instructions executed"},
    {"global_requests", "global", "req", "global load/store requests"},
    {"global_sectors", "global", "sectors", "global sectors (or lines/segments) moved"},
    {"global_ideal_sectors", "global", "ideal", "fewest sectors that could hold the bytes asked for"},
    {"global_excessive_sectors", "global", "excess", "sectors - ideal sectors"},
    {"global_bytes_moved", "global", "bytes", "bytes the transactions moved"},
    {"texture_requests", "texture", "req", "texture and surface requests (TEX pipe)"},
    {"texture_sectors", "texture", "sectors", "texture and surface sectors (TEX pipe)"},
    {"l1_hit_sectors", "hits", "L1", "sectors that hit in L1"},
    {"l2_hit_sectors", "hits", "L2", "sectors that hit in L2"},
    {"local_requests", "local", "req", "local-memory requests"},
    {"local_sectors", "local", "sectors", "local-memory sectors"},
    {"shared_wavefronts", "shared", "wavefr.", "shared-memory wavefronts"},
    {"shared_ideal_wavefronts", "shared", "ideal", "wavefronts without bank conflicts"},
    {"shared_excess_wavefronts", "shared", "excess", "wavefronts - ideal wavefronts (bank conflicts)"},
};
constexpr std::size_t kColumnCount = std::size(kColumns);

/// An instruction's counters under the line's columns: the global ones for a global access, the
/// local ones for a local access, the shared ones for a shared access.
std::vector<json> instruction_values(const json& insn) {
  std::vector<json> cells(kColumnCount);
  auto put = [&](const char* column, const json* v) {
    for (std::size_t i = 0; i < kColumnCount; ++i)
      if (std::string_view(kColumns[i].key) == column && v) cells[i] = *v;
  };
  put("executions", field(insn, "executions"));
  if (field(insn, "l1_hit_sectors") && number_field(insn, "l1_hit_sectors") != 0)
    put("l1_hit_sectors", field(insn, "l1_hit_sectors"));
  if (field(insn, "l2_hit_sectors") && number_field(insn, "l2_hit_sectors") != 0)
    put("l2_hit_sectors", field(insn, "l2_hit_sectors"));
  std::string space = string_field(insn, "space");
  if (space == "global") {
    put("global_requests", field(insn, "requests"));
    put("global_sectors", field(insn, "sectors"));
    put("global_ideal_sectors", field(insn, "ideal_sectors"));
    put("global_excessive_sectors", field(insn, "excessive_sectors"));
    put("global_bytes_moved", field(insn, "bytes_moved"));
  } else if (space == "texture" || space == "surface") {
    put("texture_requests", field(insn, "requests"));
    put("texture_sectors", field(insn, "sectors"));
  } else if (space == "local") {
    put("local_requests", field(insn, "requests"));
    put("local_sectors", field(insn, "sectors"));
  } else if (space == "shared") {
    put("shared_wavefronts", field(insn, "wavefronts"));
    put("shared_ideal_wavefronts", field(insn, "ideal_wavefronts"));
    if (field(insn, "wavefronts") && field(insn, "ideal_wavefronts")) {
      json excess = std::max(0.0, number_field(insn, "wavefronts") - number_field(insn, "ideal_wavefronts"));
      put("shared_excess_wavefronts", &excess);
    }
  }
  return cells;
}

/// A line's value of column i: its own field, or for the texture columns (lines have none) the
/// sum over its texture and surface instructions.
json line_value(const json& line, std::size_t i) {
  std::string_view key = kColumns[i].key;
  if (!key.starts_with("texture_")) {
    const json* v = field(line, kColumns[i].key);
    return v ? *v : json();
  }
  std::uint64_t sum = 0;
  bool any = false;
  for (const json& insn : array_field(line, "instructions")) {
    std::string space = string_field(insn, "space");
    if (space != "texture" && space != "surface") continue;
    any = true;
    sum += u64_field(insn, key == "texture_requests" ? "requests" : "sectors");
  }
  return any ? json(sum) : json(0);
}

/// The columns to show: "exec" always, the others where some line or instruction is not zero.
std::vector<std::size_t> shown_columns(const FileGroups& groups) {
  std::vector<bool> used(kColumnCount, false);
  used[0] = true;
  auto note = [&](std::size_t i, const json* v) {
    if (v && !(v->is_number() && v->get<double>() == 0)) used[i] = true;
  };
  for (const auto& [file, lines] : groups)
    for (const json* line : lines) {
      for (std::size_t i = 0; i < kColumnCount; ++i) {
        json v = line_value(*line, i);
        note(i, v.is_null() ? nullptr : &v);
      }
      for (const json& insn : array_field(*line, "instructions")) {
        std::vector<json> cells = instruction_values(insn);
        for (std::size_t i = 0; i < kColumnCount; ++i) note(i, cells[i].is_null() ? nullptr : &cells[i]);
      }
    }
  std::vector<std::size_t> shown;
  for (std::size_t i = 0; i < kColumnCount; ++i)
    if (used[i]) shown.push_back(i);
  return shown;
}

std::string table_head(const std::vector<std::size_t>& shown) {
  // Two rows: the unit over its columns, then the columns.
  std::string top = "<tr><th rowspan=\"2\" class=\"num\">line</th><th rowspan=\"2\">source</th>";
  std::string bottom = "<tr>";
  for (std::size_t k = 0; k < shown.size();) {
    const char* group = kColumns[shown[k]].group;
    std::size_t span = 1;
    while (k + span < shown.size() && std::string_view(kColumns[shown[k + span]].group) == group && *group) ++span;
    if (*group)
      top += fmt::format("<th class=\"group\" colspan=\"{}\">{}</th>", span, group);
    else
      top += fmt::format("<th rowspan=\"2\" class=\"num\" title=\"{}\">{}</th>", html_escape(kColumns[shown[k]].tip),
                         kColumns[shown[k]].heading);
    for (std::size_t j = k; j < k + span; ++j)
      if (*kColumns[shown[j]].group)
        bottom += fmt::format("<th class=\"num\" title=\"{}\">{}</th>", html_escape(kColumns[shown[j]].tip),
                              kColumns[shown[j]].heading);
    k += span;
  }
  return "<thead>" + top + "</tr>\n" + bottom + "</tr></thead>\n";
}

std::string instruction_summary(const std::string& file, const json& line, const json& insn) {
  std::string where = fmt::format("{}:{} pc {} <code>{}</code> ({} {})", html_escape(basename_of(file_label(file))),
                                  html_escape(raw(field(line, "line"))), html_escape(raw(field(insn, "pc"))),
                                  h(field(insn, "ptx")), h(field(insn, "space")), h(field(insn, "op")));
  // Shared memory in its own words (wavefronts, bank conflicts); the others in sectors.
  if (string_field(insn, "space") == "shared") {
    json conflicts = std::max(0.0, number_field(insn, "wavefronts") - number_field(insn, "ideal_wavefronts"));
    return where + fmt::format(": {} wavefronts (ideal {}), {} bank conflicts", h(field(insn, "wavefronts")),
                               h(field(insn, "ideal_wavefronts")), h(conflicts));
  }
  std::string s = where + fmt::format(": {} excessive sectors", h(field(insn, "excessive_sectors")));
  if (number_field(insn, "wavefronts") > 0)
    s += fmt::format(", {} wavefronts (ideal {})", h(field(insn, "wavefronts")), h(field(insn, "ideal_wavefronts")));
  return s;
}

/// One warp access of an instruction's sample as the picture wants it.
AccessPicture picture_of(const json& line, const json& insn, const json& sample) {
  AccessPicture pic;
  pic.width = static_cast<std::uint32_t>(u64_field(sample, "width", u64_field(insn, "width", 4)));
  if (pic.width == 0) pic.width = 4;
  const json& addresses = array_field(sample, "addresses");
  for (std::size_t lane = 0; lane < addresses.size() && lane < kMaxWarpSize; ++lane)
    if (addresses[lane].is_number()) {
      pic.addr[lane] = to_u64(addresses[lane]);
      pic.active.set(static_cast<unsigned>(lane));
    }
  for (const json& t : array_field(sample, "transactions"))
    if (t.is_array() && t.size() >= 2 && t[0].is_number() && t[1].is_number())
      pic.transactions.push_back({to_u64(t[0]), static_cast<std::uint32_t>(to_u64(t[1]))});
  pic.unit_name = string_field(sample, "unit", "sector");
  pic.bytes_requested = u64_field(sample, "bytes_requested");
  pic.bytes_moved = u64_field(sample, "bytes_moved");
  pic.wavefronts = static_cast<std::uint32_t>(u64_field(sample, "wavefronts"));
  pic.title = fmt::format("line {}: {}, cta {} warp {}", raw(field(line, "line")), string_field(insn, "ptx"),
                          raw(field(sample, "cta")), raw(field(sample, "warp")));
  return pic;
}

bool is_matrix(const json& insn) {
  const json* m = field(insn, "matrix");
  return m != nullptr && m->is_boolean() && m->get<bool>();
}

/// An ldmatrix/stmatrix sample (its instruction has "matrix"): its active lanes, 8 per matrix, as
/// the matrices' rows on the banks.
MatrixBanksPicture matrix_picture_of(const json& line, const json& insn, const json& sample) {
  MatrixBanksPicture pic;
  std::vector<std::uint64_t> rows;
  for (const json& a : array_field(sample, "addresses"))
    if (a.is_number()) rows.push_back(to_u64(a));
  for (std::size_t i = 0; i + 8 <= rows.size(); i += 8) {
    std::array<std::uint64_t, 8> m{};
    std::copy(rows.begin() + static_cast<std::ptrdiff_t>(i), rows.begin() + static_cast<std::ptrdiff_t>(i + 8), m.begin());
    pic.matrices.push_back(m);
  }
  pic.title = fmt::format("line {}: {}, cta {} warp {}: 8x8 matrices on the 32 banks", raw(field(line, "line")),
                          string_field(insn, "ptx"), raw(field(sample, "cta")), raw(field(sample, "warp")));
  return pic;
}

struct Located {
  std::string file;
  const json* line;
};

/// Where an instruction of `groups` is (its file, line and file number).
Located locate(const FileGroups& groups, const json* insn) {
  for (const auto& [file, lines] : groups)
    for (const json* line : lines)
      for (const json& i : array_field(*line, "instructions"))
        if (&i == insn) return {file, line};
  return {"", nullptr};
}

}  // namespace

std::vector<const json*> worst_instructions(const FileGroups& groups) {
  struct Candidate {
    double excess;
    const json* insn;
  };
  std::vector<Candidate> candidates;
  for (const auto& [file, lines] : groups)
    for (const json* line : lines)
      for (const json& insn : array_field(*line, "instructions"))
        if (const json* sample = field(insn, "sample"); sample && sample->is_object())
          candidates.push_back({instruction_excess(insn), &insn});
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.excess > b.excess; });
  constexpr std::size_t kPictures = 5;
  std::vector<const json*> worst;
  for (std::size_t i = 0; i < candidates.size() && i < kPictures; ++i) worst.push_back(candidates[i].insn);
  return worst;
}

std::string worst_lines_table(const FileGroups& groups) {
  struct Row {
    double excess;
    std::string file;
    const json* line;
  };
  std::vector<Row> rows;
  for (const auto& [file, lines] : groups)
    for (const json* line : lines)
      if (line_excess(*line) > 0) rows.push_back({line_excess(*line), file, line});
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.excess > b.excess; });
  if (rows.empty())
    return "<p class=\"note\" id=\"no-worst-lines\">No line has excessive global sectors or excess shared "
           "wavefronts.</p>\n";
  if (rows.size() > 5) rows.resize(5);
  std::string s =
      "<table id=\"worst-lines\">\n<colgroup><col class=\"where\"><col class=\"n\"><col class=\"n\"><col class=\"n\">"
      "<col></colgroup>\n<thead><tr><th>line</th><th class=\"num\" title=\"global sectors beyond the ideal\">excess "
      "sectors</th><th class=\"num\" title=\"shared wavefronts beyond the conflict-free count\">excess wavefronts</th>"
      "<th class=\"num\">sectors / request</th><th>source</th></tr></thead>\n<tbody>\n";
  for (const Row& r : rows) {
    const json* number = field(*r.line, "line");
    double requests = number_field(*r.line, "global_requests");
    json spr = requests > 0 ? json(number_field(*r.line, "global_sectors") / requests) : json();
    std::string label = html_escape(fmt::format("{}:{}", basename_of(file_label(r.file)), raw(number)));
    s += fmt::format(
        "<tr class=\"worst-line\" data-file=\"{}\" data-line=\"{}\"><td><a href=\"#{}\">{}</a></td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"code\">{}</td></tr>\n",
        html_escape(r.file), html_escape(raw(number)), line_anchor(groups, r.file, number), label,
        h(field(*r.line, "global_excessive_sectors")), h(field(*r.line, "shared_excess_wavefronts")), h(spr),
        html_escape(string_field(*r.line, "text")));
  }
  return s + "</tbody>\n</table>\n";
}

std::string source_section(const FileGroups& groups, const std::vector<const json*>& pictured) {
  std::string s = "<h2 id=\"source-heading\">Source</h2>\n";
  if (groups.empty()) return s + "<p class=\"note\">No source lines were recorded for this launch.</p>\n";
  double worst = 0;
  for (const auto& [file, lines] : groups)
    for (const json* line : lines) worst = std::max(worst, line_excess(*line));
  std::vector<std::size_t> shown = shown_columns(groups);
  s += "<p class=\"note\">Each CUDA source line with an executed instruction, its memory instructions (PTX) "
       "below it; counters that are zero on every line are left out. A line's shade "
       "<span class=\"legend-swatch\"></span> is its excess traffic (excessive global sectors plus shared excess "
       "wavefronts) relative to the worst line of this launch.</p>\n";
  std::string head = table_head(shown);
  std::size_t file_number = 0;
  for (const auto& [file, lines] : groups) {
    s += fmt::format("<h3 class=\"src-file\" id=\"file-{}\"><code>{}</code></h3>\n", file_number,
                     html_escape(file_label(file)));
    s += fmt::format("<div class=\"src-wrap\">\n<table class=\"src\" data-file=\"{}\">\n{}<tbody>\n", html_escape(file),
                     head);
    for (const json* line : lines) {
      double excess = line_excess(*line);
      json excess_value = excess;
      double shade = worst > 0 ? 0.75 * excess / worst : 0;
      std::string style = shade > 0 ? fmt::format(" style=\"background-color: rgba(215, 48, 39, {:.3f})\"", shade) : "";
      std::string number = html_escape(raw(field(*line, "line")));
      std::string cells;
      for (std::size_t i : shown) {
        json v = line_value(*line, i);
        cells += fmt::format("<td class=\"num\">{}</td>", v.is_null() ? h(nullptr) : h(v));
      }
      s += fmt::format(
          "<tr class=\"src-line\" id=\"src-{}-{}\" data-file=\"{}\" data-line=\"{}\" "
          "data-excess=\"{}\" data-shade=\"{:.3f}\"{}><td class=\"ln\">{}</td><td class=\"code\">{}</td>"
          "{}</tr>\n",
          file_number, number, html_escape(file), number, html_escape(raw(&excess_value)), shade, style, number,
          html_escape(string_field(*line, "text")), cells);
      for (const json& insn : array_field(*line, "instructions")) {
        std::vector<json> values = instruction_values(insn);
        std::string insn_cells;
        for (std::size_t i : shown)
          insn_cells += fmt::format("<td class=\"num\">{}</td>", values[i].is_null() ? "" : h(values[i]));
        auto it = std::find(pictured.begin(), pictured.end(), &insn);
        std::string link = it == pictured.end() ? ""
                                                : fmt::format("<a class=\"pic\" href=\"#access-{0}\">picture {1}</a>",
                                                              it - pictured.begin(), it - pictured.begin() + 1);
        s += fmt::format(
            "<tr class=\"src-insn\" data-line=\"{}\" data-pc=\"{}\"><td class=\"ln\"></td>"
            "<td class=\"code\">{}<span class=\"space\">{} {}</span>{}</td>{}</tr>\n",
            number, html_escape(raw(field(insn, "pc"))), h(field(insn, "ptx")), h(field(insn, "space")),
            h(field(insn, "op")), link, insn_cells);
      }
    }
    s += "</tbody>\n</table>\n</div>\n";
    ++file_number;
  }
  return s;
}

std::string accesses_section(const FileGroups& groups, const std::vector<const json*>& pictured) {
  if (pictured.empty()) return "";
  std::string s =
      "<h2 id=\"accesses-heading\">Warp accesses</h2>\n<p class=\"note\">The instructions with the most excess "
      "traffic, worst first; each picture is the warp access of the instruction with the most excess: for "
      "global and local memory the lanes on top and the transactions they cause below, for shared memory the "
      "lanes stacked in the 32 banks, a row per wavefront.</p>\n";
  for (std::size_t k = 0; k < pictured.size(); ++k) {
    const json& insn = *pictured[k];
    Located at = locate(groups, &insn);
    if (!at.line) continue;
    const json& sample = *field(insn, "sample");
    std::string anchor = line_anchor(groups, at.file, field(*at.line, "line"));
    std::string caption =
        fmt::format("<a href=\"#{}\">Access {}</a>: {}", anchor, k + 1, instruction_summary(at.file, *at.line, insn));
    if (number_field(sample, "wavefronts") > 0)
      caption += fmt::format(" ({} wavefronts in the access drawn)", h(field(sample, "wavefronts")));
    s += fmt::format(
        "<figure class=\"access-svg\" id=\"access-{}\" data-line=\"{}\" data-pc=\"{}\">\n"
        "<figcaption>{}</figcaption>\n{}</figure>\n",
        k, html_escape(raw(field(*at.line, "line"))), html_escape(raw(field(insn, "pc"))), caption,
        render_access_svg(picture_of(*at.line, insn, sample)) +
            (is_matrix(insn) ? render_matrix_banks_svg(matrix_picture_of(*at.line, insn, sample)) : ""));
  }
  return s;
}

std::string tma_boxes_section(const FileGroups& groups) {
  constexpr std::size_t kBoxes = 5;
  std::string figures;
  std::size_t k = 0;
  for (const auto& [file, lines] : groups)
    for (const json* line : lines)
      for (const json& insn : array_field(*line, "instructions")) {
        const json* box = field(insn, "tma_box");
        if (box == nullptr || !box->is_object() || k >= kBoxes) continue;
        TmaBoxPicture pic;
        pic.swizzle_bytes = static_cast<std::uint32_t>(u64_field(*box, "swizzle_bytes"));
        for (const json& r : array_field(*box, "rows"))
          if (r.is_array() && r.size() >= 3 && r[0].is_number() && r[1].is_number() && r[2].is_number())
            pic.rows.push_back({to_u64(r[0]), static_cast<std::uint32_t>(to_u64(r[1])), static_cast<std::uint32_t>(to_u64(r[2]))});
        const json* t = field(*box, "truncated");
        pic.truncated = t != nullptr && t->is_boolean() && t->get<bool>();
        pic.title = fmt::format("line {}: {}, cta {} warp {}: the box's rows", raw(field(*line, "line")),
                                string_field(insn, "ptx"), raw(field(*box, "cta")), raw(field(*box, "warp")));
        figures += fmt::format(
            "<figure class=\"tma-svg\" id=\"tma-{}\" data-line=\"{}\" data-pc=\"{}\">\n"
            "<figcaption><a href=\"#{}\">TMA box {}</a>: {}:{} pc {} <code>{}</code> ({} {}), {} sectors over {} executions"
            "</figcaption>\n{}</figure>\n",
            k, html_escape(raw(field(*line, "line"))), html_escape(raw(field(insn, "pc"))),
            line_anchor(groups, file, field(*line, "line")), k + 1, html_escape(basename_of(file_label(file))),
            html_escape(raw(field(*line, "line"))), html_escape(raw(field(insn, "pc"))), h(field(insn, "ptx")),
            h(field(insn, "space")), h(field(insn, "op")), h(field(insn, "sectors")), h(field(insn, "executions")),
            render_tma_box_svg(pic));
        ++k;
      }
  if (figures.empty()) return "";
  return "<h2 id=\"tma-heading\">TMA boxes</h2>\n<p class=\"note\">The first box each tensor copy moved: its rows over "
         "the tensor's 128-byte lines in global memory (the sectors the TMA reads or writes), and where the tensor map's "
         "swizzle puts each 16-byte chunk of a row in shared memory (its bank group).</p>\n" +
         figures;
}

}  // namespace warpscope::report::html
