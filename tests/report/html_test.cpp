// The HTML report on the hand-written report of sample_report.hpp: escaping, ids and classes,
// links, line order and shading, the estimated markers, the comparison table, the pictures, and
// the errors of write_html_report.
#include "report/html.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "sample_report.hpp"
#include "warpscope/error.hpp"

namespace warpscope::report {
namespace {

using nlohmann::json;

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

/// The attributes of every opening tag that starts with `tag_start` (e.g. `<tr class="src-line"`).
std::vector<std::map<std::string, std::string>> tags(const std::string& html, const std::string& tag_start) {
  std::vector<std::map<std::string, std::string>> out;
  static const std::regex attr(R"re(([a-z-]+)="([^"]*)")re");
  for (auto at = html.find(tag_start); at != std::string::npos; at = html.find(tag_start, at + 1)) {
    std::string tag = html.substr(at, html.find('>', at) - at);
    std::map<std::string, std::string> attrs;
    for (std::sregex_iterator it(tag.begin(), tag.end(), attr), end; it != end; ++it)
      attrs[(*it)[1].str()] = (*it)[2].str();
    out.push_back(attrs);
  }
  return out;
}

/// The text from `<tag ... id="id"` to the matching closing tag (no nesting of the same tag).
std::string element(const std::string& html, const std::string& tag, const std::string& id) {
  auto at = html.find(" id=\"" + id + "\"");
  if (at == std::string::npos) return "";
  auto start = html.rfind("<" + tag + " ", at);
  if (start == std::string::npos || html.find('>', start) < at) return "";
  auto end = html.find("</" + tag + ">", start);
  return html.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(report_html, EscapesTheFiveCharacters) {
  EXPECT_EQ(html_escape("a<b>&\"c\"'d'"), "a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;");
  EXPECT_EQ(html_escape("plain text"), "plain text");
}

TEST(report_html, PagesEscapeNamesSourceAndMessages) {
  json r = test::sample_report();
  std::string index = html_index_page(r);
  std::string page = html_launch_page(r, 0);
  EXPECT_NE(index.find("void scale&lt;float&gt;(float&amp;, float const*)"), std::string::npos);
  EXPECT_EQ(index.find("scale<float>"), std::string::npos);
  EXPECT_NE(page.find("void scale&lt;float&gt;(float&amp;, float const*)"), std::string::npos);
  EXPECT_NE(page.find("  if (i &lt; n &amp;&amp; x[i] &gt; 0) y[i] = x[i] &amp; mask;"), std::string::npos);
  EXPECT_EQ(page.find("i < n"), std::string::npos);
  EXPECT_NE(page.find("template &lt;class T&gt;"), std::string::npos);
  EXPECT_NE(page.find("(x[i] &lt; 3 words)"), std::string::npos);
  EXPECT_NE(page.find("lanes 2 words apart &amp; same bank"), std::string::npos);
  EXPECT_NE(page.find("128-byte lines &lt;cached&gt;"), std::string::npos);
  EXPECT_EQ(page.find("<cached>"), std::string::npos);
  EXPECT_EQ(page.find("<shared>"), std::string::npos);
  // Self-contained: no scripts, no external resources.
  for (const std::string& p : {index, page}) {
    EXPECT_EQ(p.find("<script"), std::string::npos);
    EXPECT_EQ(p.find("<link"), std::string::npos);
    EXPECT_EQ(p.find("src=\"http"), std::string::npos);
    EXPECT_EQ(p.rfind("<!DOCTYPE html>", 0), 0u);
  }
}

TEST(report_html, IndexListsLaunchesInOrderWithLinks) {
  json r = test::sample_report();
  std::string index = html_index_page(r);
  std::string table = element(index, "table", "launches");
  ASSERT_FALSE(table.empty());
  auto rows = tags(table, "<tr class=\"launch");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["data-index"], "0");
  EXPECT_EQ(rows[1]["data-index"], "1");
  EXPECT_EQ(rows[1]["class"], "launch faulted");
  EXPECT_LT(table.find("href=\"launch_0.html\""), table.find("href=\"launch_1.html\""));
  // The columns of the first launch: grid, block, registers, requests, sectors/request, bus
  // utilization, hit rates, local bytes, shared wavefronts / conflicts, advice count.
  std::string row0 = table.substr(table.find("data-index=\"0\""), table.find("data-index=\"1\"") - table.find("data-index=\"0\""));
  for (const char* cell : {"<td class=\"dim\">391 &times; 1 &times; 1</td>", "<td class=\"dim\">256 &times; 1 &times; 1</td>", ">16<", ">3128<",
                           ">12<", ">33.33<", ">12.50<", ">96 / 48<", "<td class=\"num\">2</td>"})
    EXPECT_NE(row0.find(cell), std::string::npos) << cell;
  // Unknown registers show a dash.
  EXPECT_NE(table.find("<td class=\"num\">\u2014</td>"), std::string::npos);
  EXPECT_NE(element(index, "dd", "arch").find("hopper"), std::string::npos);
  EXPECT_NE(element(index, "dd", "compare-archs").find("kepler"), std::string::npos);
  EXPECT_NE(element(index, "p", "timing-note").find("emulator wall time"), std::string::npos);
  EXPECT_NE(index.find("cudaErrorIllegalAddress"), std::string::npos);
}

TEST(report_html, LaunchPageHeaderMetricsAndEstimatedMarkers) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  EXPECT_NE(page.find("href=\"index.html\""), std::string::npos);
  EXPECT_NE(element(page, "dd", "grid").find("391 &times; 1 &times; 1"), std::string::npos);
  EXPECT_NE(element(page, "dd", "block").find("256 &times; 1 &times; 1"), std::string::npos);
  std::string metrics = element(page, "table", "metrics");
  ASSERT_FALSE(metrics.empty());
  auto rows = tags(metrics, "<tr class=\"metric");
  EXPECT_EQ(rows.size(), r["launches"][0]["metrics"].size());
  for (const auto& row : rows) {
    bool estimated = row.at("data-metric") == "dram__bytes_read.sum" || row.at("data-metric") == "l2_hit_rate_pct";
    EXPECT_EQ(row.at("class").find("is-estimated") != std::string::npos, estimated) << row.at("data-metric");
  }
  auto dram = metrics.find("data-metric=\"dram__bytes_read.sum\"");
  EXPECT_NE(metrics.substr(dram, metrics.find("</tr>", dram) - dram).find("class=\"estimated\""), std::string::npos);
  EXPECT_NE(page.find("emulator wall time"), std::string::npos);
}

TEST(report_html, AdviceItemsLinkToTheirLines) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  auto items = tags(page, "<li class=\"advice\"");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0]["data-rule"], "aos");
  EXPECT_EQ(items[1]["data-rule"], "bank_conflict");
  EXPECT_NE(page.find("<span class=\"ev-key\">stride_bytes</span> 12</span>"), std::string::npos);
  // The comparison architecture's advice is listed apart, not as this launch's advice.
  EXPECT_EQ(count(page, "<li class=\"compare-advice\""), 1u);
  // Links to the line rows exist as ids.
  std::smatch m;
  std::string first = page.substr(page.find("<li class=\"advice\""));
  ASSERT_TRUE(std::regex_search(first, m, std::regex("href=\"#(src-[0-9]+-19)\"")));
  EXPECT_NE(page.find("id=\"" + m[1].str() + "\""), std::string::npos);
  EXPECT_EQ(count(html_launch_page(r, 1), "class=\"advice\""), 0u);
}

TEST(report_html, SourceLinesSortedByFileThenLineAndShadedByExcess) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  auto rows = tags(page, "<tr class=\"src-line\"");
  ASSERT_EQ(rows.size(), 4u);
  std::vector<std::pair<std::string, std::string>> order;
  for (auto& row : rows) order.emplace_back(row["data-file"], row["data-line"]);
  std::vector<std::pair<std::string, std::string>> expected{
      {"/src/common.cuh", "7"}, {"/src/scale.cu", "12"}, {"/src/scale.cu", "19"}, {"/src/scale.cu", "25"}};
  EXPECT_EQ(order, expected);
  // Files in two tables, each with its heading.
  EXPECT_EQ(count(page, "<table class=\"src\""), 2u);
  EXPECT_LT(page.find("<code>/src/common.cuh</code>"), page.find("<code>/src/scale.cu</code>"));

  // Shading: line 19 (25024 excessive sectors) is the darkest, line 25 (48 excess wavefronts)
  // lighter but shaded, lines without excess are not shaded at all.
  std::map<std::string, double> shade;
  for (auto& row : rows) {
    shade[row["data-line"]] = std::stod(row["data-shade"]);
    if (std::stod(row["data-excess"]) > 0) {
      std::string alpha = row["style"].substr(row["style"].rfind(',') + 1);
      EXPECT_NEAR(std::stod(alpha), shade[row["data-line"]], 1e-9) << row["style"];
    } else {
      EXPECT_EQ(row.count("style"), 0u);
    }
  }
  EXPECT_DOUBLE_EQ(shade["19"], 0.75);
  EXPECT_GT(shade["19"], shade["25"]);
  EXPECT_GT(shade["25"], 0.0);
  EXPECT_EQ(shade["12"], 0.0);
  EXPECT_EQ(shade["7"], 0.0);
  EXPECT_EQ(rows[2]["data-excess"], "25024");
  EXPECT_EQ(rows[3]["data-excess"], "48");

  // The per-line counters are in columns; the instruction rows sit under their line.
  auto line19 = page.find("data-line=\"19\"");
  std::string row19 = page.substr(line19, page.find("</tr>", line19) - line19);
  for (const char* cell : {">3128<", ">100096<", ">37536<", ">12512<", ">25024<", ">400384<", ">1201152<", ">4692<"})
    EXPECT_NE(row19.find(cell), std::string::npos) << cell;
  auto insn = tags(page, "<tr class=\"src-insn\"");
  ASSERT_EQ(insn.size(), 2u);
  EXPECT_EQ(insn[0]["data-line"], "19");
  EXPECT_EQ(insn[0]["data-pc"], "12");
  EXPECT_LT(page.find("ld.global.f32 %f1, [%rd8];"), page.find("data-line=\"25\""));
}

TEST(report_html, PicturesOfTheWorstAccesses) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  auto figures = tags(page, "<figure class=\"access-svg\"");
  ASSERT_EQ(figures.size(), 2u);
  // Worst first: the strided global load (25024 excessive sectors), then the conflicting store.
  EXPECT_EQ(figures[0]["id"], "access-0");
  EXPECT_EQ(figures[0]["data-line"], "19");
  EXPECT_EQ(figures[1]["id"], "access-1");
  EXPECT_EQ(figures[1]["data-line"], "25");
  for (std::size_t i = 0; i < figures.size(); ++i) {
    auto at = page.find("<figure class=\"access-svg\" id=\"access-" + std::to_string(i));
    std::string fig = page.substr(at, page.find("</figure>", at) - at);
    EXPECT_NE(fig.find("<svg"), std::string::npos);
    EXPECT_NE(fig.find("</svg>"), std::string::npos);
  }
  EXPECT_NE(page.find("line 19: ld.global.f32 %f1, [%rd8];, cta 0 warp 3"), std::string::npos);
  EXPECT_NE(page.find("line 25: st.shared.f32 [%r9], %f2;, cta 1 warp 0"), std::string::npos);
  // 12 sectors outlined for the strided load, 16 inactive lanes in the shared store.
  auto at = page.find("id=\"access-0\"");
  std::string fig0 = page.substr(at, page.find("</figure>", at) - at);
  EXPECT_EQ(count(fig0, "class=\"transaction\""), 12u);
  EXPECT_EQ(count(fig0, "lane inactive"), 0u);
  at = page.find("id=\"access-1\"");
  std::string fig1 = page.substr(at, page.find("</figure>", at) - at);
  EXPECT_EQ(count(fig1, "lane inactive"), 16u);
  EXPECT_EQ(count(fig1, "class=\"requested\""), 16u);
}

TEST(report_html, PictureOfHeapAddressesLabelsOffsets) {
  json r = test::sample_report();
  json& sample = r["launches"][0]["lines"][0]["instructions"][0]["sample"];
  const std::uint64_t base = 0x7f0000000000;
  for (json& a : sample["addresses"]) a = base + (a.get<std::uint64_t>() - 4096);
  for (json& t : sample["transactions"]) t[0] = base + (t[0].get<std::uint64_t>() - 4096);
  std::string page = html_launch_page(r, 0);
  auto at = page.find("id=\"access-0\"");
  std::string fig = page.substr(at, page.find("</figure>", at) - at);
  EXPECT_NE(fig.find(">+0 = 0x7f0000000000<"), std::string::npos);
  EXPECT_NE(fig.find(">+32<"), std::string::npos);
  EXPECT_EQ(count(fig, "class=\"transaction\""), 12u);
}

TEST(report_html, AtMostFivePictures) {
  json r = test::sample_report();
  json& lines = r["launches"][0]["lines"];
  json line = lines[0];
  for (int i = 0; i < 6; ++i) {
    line["line"] = 100 + i;
    line["instructions"][0]["excessive_sectors"] = 10 + i;
    lines.push_back(line);
  }
  std::string page = html_launch_page(r, 0);
  auto figures = tags(page, "<figure class=\"access-svg\"");
  ASSERT_EQ(figures.size(), 5u);
  std::vector<std::string> drawn;
  for (auto& f : figures) drawn.push_back(f["data-line"]);
  // In page order (file, line); the worst five are line 19 (25024), line 25 (48 excess
  // wavefronts) and lines 105, 104, 103; figures are numbered worst first.
  EXPECT_EQ(drawn, (std::vector<std::string>{"19", "25", "103", "104", "105"}));
  EXPECT_NE(page.find("<figure class=\"access-svg\" id=\"access-0\" data-line=\"19\""), std::string::npos);
  EXPECT_NE(page.find("<figure class=\"access-svg\" id=\"access-1\" data-line=\"25\""), std::string::npos);
  EXPECT_NE(page.find("<figure class=\"access-svg\" id=\"access-2\" data-line=\"105\""), std::string::npos);
  EXPECT_NE(page.find("<figure class=\"access-svg\" id=\"access-4\" data-line=\"103\""), std::string::npos);
}

TEST(report_html, CompareTableOnlyWhenThereIsAComparison) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  std::string table = element(page, "table", "compare");
  ASSERT_FALSE(table.empty());
  EXPECT_NE(table.find("<th class=\"num arch\">hopper</th><th class=\"num arch\">kepler</th>"), std::string::npos);
  auto rows = tags(table, "<tr class=\"metric");
  // The primary's 14 metrics and the one only kepler has.
  EXPECT_EQ(rows.size(), 15u);
  EXPECT_NE(table.find("data-metric=\"kepler_only_metric\""), std::string::npos);
  auto spr = table.find("data-metric=\"global_sectors_per_request\"");
  std::string row = table.substr(spr, table.find("</tr>", spr) - spr);
  EXPECT_NE(row.find("<td class=\"num\">12</td><td class=\"num\">3</td>"), std::string::npos) << row;
  EXPECT_EQ(element(html_launch_page(r, 1), "table", "compare"), "");
}

TEST(report_html, AdviceWithoutLineInformationHasNoLocation) {
  json r = test::sample_report();
  r["launches"][0]["advice"].push_back(
      {{"rule", "low_math_ratio"}, {"file", ""}, {"line", 0}, {"pc", 0}, {"message", "few math instructions"},
       {"evidence", {{"ratio", 2.12}}}});
  std::string page = html_launch_page(r, 0);
  auto at = page.find("<li class=\"advice\" data-rule=\"low_math_ratio\"");
  ASSERT_NE(at, std::string::npos);
  std::string item = page.substr(at, page.find("</li>", at) - at);
  EXPECT_EQ(item.find(":0"), std::string::npos) << item;
  EXPECT_NE(item.find("few math instructions"), std::string::npos);
  EXPECT_NE(item.find("<span class=\"ev-key\">ratio</span> 2.12</span>"), std::string::npos) << item;
}

TEST(report_html, FaultedLaunchShowsItsError) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 1);
  EXPECT_NE(page.find("out-of-bounds global store at 0x10 (lane 0)"), std::string::npos);
  EXPECT_NE(page.find("No source lines"), std::string::npos);
}

TEST(report_html, ToleratesAMinimalDocument) {
  json r = json::parse(R"({"arch": "hopper", "launches": [{"index": 0, "kernel": "k"}]})");
  EXPECT_NE(html_index_page(r).find("href=\"launch_0.html\""), std::string::npos);
  EXPECT_NE(html_launch_page(r, 0).find("<h1 class=\"kernel-name\" id=\"kernel-name\">k</h1>"), std::string::npos);
  EXPECT_NE(html_index_page(json::object()).find("id=\"launches\""), std::string::npos);
}

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("warpscope_html_test_" + std::to_string(::getpid()) + "_" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

TEST(report_html, WritesIndexAndOnePagePerLaunch) {
  TempDir tmp;
  std::filesystem::path dir = tmp.path() / "a" / "b";
  json r = test::sample_report();
  write_html_report(r, dir.string());
  EXPECT_EQ(read(dir / "index.html"), html_index_page(r));
  EXPECT_EQ(read(dir / "launch_0.html"), html_launch_page(r, 0));
  EXPECT_EQ(read(dir / "launch_1.html"), html_launch_page(r, 1));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 3u);
  // Writing again over an existing report is fine.
  EXPECT_NO_THROW(write_html_report(r, dir.string()));
}

TEST(report_html, IoErrorsNameThePath) {
  TempDir tmp;
  std::filesystem::create_directories(tmp.path());
  std::filesystem::path file = tmp.path() / "not_a_dir";
  std::ofstream(file) << "x";
  std::string dir = (file / "html").string();
  try {
    write_html_report(test::sample_report(), dir);
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kIo);
    EXPECT_NE(std::string(e.what()).find(dir), std::string::npos) << e.what();
  }
  // A directory where index.html should be: the file cannot be written.
  std::filesystem::path out = tmp.path() / "out";
  std::filesystem::create_directories(out / "index.html");
  try {
    write_html_report(test::sample_report(), out.string());
    FAIL() << "expected an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kIo);
    EXPECT_NE(std::string(e.what()).find((out / "index.html").string()), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace warpscope::report
