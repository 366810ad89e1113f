// The HTML report on the hand-written report of sample_report.hpp: escaping, ids and classes,
// links, the order of a launch page, the memory chart's numbers, the metric table grouped by unit,
// line order and shading, the pictures, the not-profiled launches, the side-by-side page, and the
// errors of write_html_report. Expected values follow from the hand-written counters by the rules
// the pages state (bytes = sectors x 32, hit rate = hits / sectors), not from running the code.
#include "report/html.hpp"
#include "report/matrix_svg.hpp"
#include "report/memory_chart.hpp"
#include "report/metric_groups.hpp"

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include "html_test_util.hpp"
#include "sample_report.hpp"
#include "warpscope/error.hpp"

namespace warpscope::report {
namespace {

using nlohmann::json;

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
  std::string compare = html_compare_page(r, 0);
  EXPECT_NE(compare.find("128-byte lines &lt;cached&gt;"), std::string::npos);
  EXPECT_EQ(compare.find("<cached>"), std::string::npos);
  EXPECT_NE(compare.find("void scale&lt;float&gt;(float&amp;, float const*)"), std::string::npos);
  EXPECT_EQ(page.find("<shared>"), std::string::npos);
}

TEST(report_html, PagesWorkOffline) {
  // Self-contained: no script but the index's inline sorter, no linked style sheets or fonts,
  // nothing with a network address but the SVG namespace (a name, never fetched).
  json r = test::sample_report();
  std::string index = html_index_page(r);
  EXPECT_EQ(count(index, "<script"), 1u);
  EXPECT_EQ(count(index, "<script>"), 1u);  // inline: no src
  std::vector<std::string> pages{index, html_compare_page(r, 0)};
  for (std::size_t i = 0; i < r["launches"].size(); ++i) pages.push_back(html_launch_page(r, i));
  for (const std::string& p : pages) {
    EXPECT_EQ(p.rfind("<!DOCTYPE html>", 0), 0u);
    if (&p != &pages[0]) {
      EXPECT_EQ(p.find("<script"), std::string::npos);
    }
    for (const char* banned : {"<script src", "<link", "@import", "url(", "<img", "<iframe", "@font-face", "fetch("})
      EXPECT_EQ(p.find(banned), std::string::npos) << banned;
    std::size_t addresses = count(p, "http:") + count(p, "https:") + count(p, "//cdn") + count(p, "src=\"/");
    EXPECT_EQ(addresses, count(p, "xmlns=\"http://www.w3.org/2000/svg\""));
  }
}

TEST(report_html, IndexListsLaunchesInOrderWithLinks) {
  json r = test::sample_report();
  std::string index = html_index_page(r);
  std::string table = element(index, "table", "launches");
  ASSERT_FALSE(table.empty());
  auto rows = tags(table, "<tr class=\"launch");
  ASSERT_EQ(rows.size(), 4u);
  for (std::size_t i = 0; i < rows.size(); ++i) EXPECT_EQ(rows[i]["data-index"], std::to_string(i));
  EXPECT_EQ(rows[0]["class"], "launch");
  EXPECT_EQ(rows[1]["class"], "launch faulted");
  EXPECT_EQ(rows[3]["class"], "launch not-profiled");
  EXPECT_LT(table.find("href=\"launch_0.html\""), table.find("href=\"launch_1.html\""));
  EXPECT_LT(table.find("href=\"launch_1.html\""), table.find("href=\"launch_3.html\""));
  // The columns of the first launch: grid, block, registers, predicted duration, limiter,
  // requests, sectors/request, bus utilization, hit rates, local bytes, shared wavefronts /
  // conflicts, advice count; each with the plain number to sort by.
  std::string row0 = table.substr(table.find("data-index=\"0\""), table.find("data-index=\"1\"") - table.find("data-index=\"0\""));
  for (const char* cell : {"<td class=\"dim\" data-sort=\"391\">391 &times; 1 &times; 1</td>",
                           "<td class=\"dim\" data-sort=\"256\">256 &times; 1 &times; 1</td>",
                           "<td class=\"num\" data-sort=\"16\">16</td>", "<td class=\"num\" data-sort=\"3128\">3,128</td>",
                           "data-sort=\"12\">12<", "data-sort=\"33.33\">33.33<", "data-sort=\"12.5\">12.50<",
                           "<td class=\"num\" data-sort=\"96\">96 / 48</td>", "<td class=\"num\" data-sort=\"2\">2</td>"})
    EXPECT_NE(row0.find(cell), std::string::npos) << cell;
  // Unknown registers show a dash and sort last (no key).
  EXPECT_NE(table.find("<td class=\"num\" data-sort=\"\">\u2014</td>"), std::string::npos);
  EXPECT_NE(element(index, "dd", "arch").find("hopper"), std::string::npos);
  EXPECT_NE(element(index, "dd", "compare-archs").find("kepler"), std::string::npos);
  EXPECT_NE(element(index, "p", "timing-note").find("emulator wall time"), std::string::npos);
  EXPECT_NE(index.find("cudaErrorIllegalAddress"), std::string::npos);
  // The comparison has its page, linked from the launch's row.
  EXPECT_NE(row0.find("href=\"launch_0_compare.html\""), std::string::npos);
  EXPECT_EQ(count(table, "_compare.html"), 1u);
}

TEST(report_html, IndexMarksLaunchesThatWereNotProfiled) {
  json r = test::sample_report();
  std::string index = html_index_page(r);
  std::string table = element(index, "table", "launches");
  std::string row3 = table.substr(table.find("data-index=\"3\""));
  row3 = row3.substr(0, row3.find("</tr>"));
  EXPECT_NE(row3.find("<span class=\"badge not-profiled\" title=\"--launch-count 3 profiles only the first 3 "
                      "matching launches\">not profiled</span>"),
            std::string::npos)
      << row3;
  EXPECT_EQ(count(table, "badge not-profiled"), 1u);
  // No advice count for a launch whose advice was never looked for.
  EXPECT_TRUE(row3.ends_with("<td class=\"num\" data-sort=\"\">\u2014 / \u2014</td><td class=\"num\" data-sort=\"\">\u2014</td>"))
      << row3;
  EXPECT_NE(index.find("<h2>Launches (4, 3 profiled)</h2>"), std::string::npos);
  EXPECT_NE(element(index, "dd", "launch-filter").find("--launch-count 3"), std::string::npos);
}

TEST(report_html, LaunchPageOpensWithWhatMatters) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  EXPECT_NE(page.find("href=\"index.html\""), std::string::npos);
  EXPECT_NE(element(page, "dd", "grid").find("391 &times; 1 &times; 1"), std::string::npos);
  EXPECT_NE(element(page, "dd", "block").find("256 &times; 1 &times; 1"), std::string::npos);
  EXPECT_EQ(element(page, "dd", "registers"), "<dd id=\"registers\">16");
  EXPECT_EQ(element(page, "dd", "occupancy"), "<dd id=\"occupancy\">100 % (limited by warps)");
  // Top to bottom: the kernel, the worst lines, the advice, the memory chart, the source, the
  // pictures, then every metric behind a disclosure element.
  std::vector<std::string> order{"id=\"kernel-name\"", "id=\"worst-lines\"", "id=\"advice\"",  "id=\"memory-chart\"",
                                 "id=\"source-heading\"", "id=\"accesses-heading\"", "<details id=\"all-metrics\">"};
  for (std::size_t i = 0; i < order.size(); ++i) {
    ASSERT_NE(page.find(order[i]), std::string::npos) << order[i];
    if (i) {
      EXPECT_LT(page.find(order[i - 1]), page.find(order[i])) << order[i - 1] << " before " << order[i];
    }
  }
  EXPECT_NE(page.find("emulator wall time"), std::string::npos);
  // The side-by-side page is a link away.
  EXPECT_NE(page.find("<a id=\"compare-link\" href=\"launch_0_compare.html\">side by side with kepler</a>"),
            std::string::npos);
  EXPECT_EQ(html_launch_page(r, 2).find("compare-link"), std::string::npos);
}

TEST(report_html, WorstLinesRankedByExcess) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  std::string table = element(page, "table", "worst-lines");
  auto rows = tags(table, "<tr class=\"worst-line\"");
  // Line 19 (25,024 excessive sectors), then line 25 (48 excess wavefronts); lines 12 and 7 have
  // no excess and are not listed.
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0]["data-line"], "19");
  EXPECT_EQ(rows[1]["data-line"], "25");
  std::string row19 = table.substr(table.find("data-line=\"19\""));
  row19 = row19.substr(0, row19.find("</tr>"));
  // 37,536 sectors for 3,128 requests: 12 per request.
  for (const char* cell : {"href=\"#src-1-19\"", ">scale.cu:19<", ">25,024<", ">0<", ">12<",
                           "if (i &lt; n &amp;&amp; x[i] &gt; 0)"})
    EXPECT_NE(row19.find(cell), std::string::npos) << cell << "\n" << row19;
  EXPECT_NE(html_launch_page(r, 2).find("id=\"no-worst-lines\""), std::string::npos);
}

TEST(report_html, MetricUnitsByName) {
  std::vector<std::pair<std::string, std::string>> expected{
      {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global"},
      {"l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum", "global"},
      {"smsp__sass_inst_executed_op_global_red.sum", "global"},
      {"global_sectors_per_request", "global"},
      {"l1_hit_rate_global_ld_pct", "global"},
      {"l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", "local"},
      {"local_bytes", "local"},
      {"smsp__sass_inst_executed_op_local_st.sum", "local"},
      {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "shared"},
      {"shared_wavefronts", "shared"},
      {"l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum", "texture"},
      {"l1tex__t_requests_pipe_tex_mem_surface_op_red.sum", "texture"},
      {"smsp__sass_inst_executed_op_surface_st.sum", "texture"},
      {"lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", "l2"},
      {"l2_hit_rate_pct", "l2"},
      {"dram__bytes_write.sum", "dram"},
      {"smsp__inst_executed.sum", "instructions"},
      {"smsp__thread_inst_executed.sum", "instructions"},
      {"const_instructions", "instructions"},
      {"launch__registers_per_thread", "launch"},
      {"sm__maximum_warps_per_active_cycle_pct", "launch"},
      {"kepler_only_metric", "other"}};
  for (const auto& [name, unit] : expected) EXPECT_EQ(metric_unit_of(name), unit) << name;
  std::vector<std::string> keys;
  for (const MetricUnit& u : metric_units()) keys.push_back(u.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"global", "local", "shared", "texture", "l2", "dram", "instructions",
                                             "launch", "other"}));
}

TEST(report_html, AllMetricsGroupedByUnitWithZerosFolded) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  std::string all = page.substr(page.find("<details id=\"all-metrics\">"));
  all = all.substr(0, all.find("</details>\n<p class=\"note timing-note\""));
  // Every metric once, in its unit's section; sections in unit order.
  const json& metrics = r["launches"][0]["metrics"];
  auto rows = tags(all, "<tr class=\"metric");
  EXPECT_EQ(rows.size(), metrics.size());
  std::vector<std::string> sections;
  for (auto& sec : tags(all, "<section class=\"metric-group\"")) sections.push_back(sec["id"]);
  EXPECT_EQ(sections, (std::vector<std::string>{"metrics-global", "metrics-local", "metrics-shared", "metrics-l2",
                                                 "metrics-dram", "metrics-instructions"}));
  for (auto& row : rows) {
    std::string name = row.at("data-metric");
    auto at = all.find("data-metric=\"" + name + "\"");
    auto section = all.rfind("<section class=\"metric-group\" id=\"metrics-", at);
    EXPECT_EQ(all.substr(section + 42, all.find('"', section + 42) - section - 42), metric_unit_of(name)) << name;
    bool estimated = name == "dram__bytes_read.sum" || name == "l2_hit_rate_pct";
    EXPECT_EQ(row.at("class").find("is-estimated") != std::string::npos, estimated) << name;
    // Zeros sit in the folded table of their section, the others before it.
    bool zero = metrics[name].get<double>() == 0;
    EXPECT_EQ(row.at("class").find("zero") != std::string::npos, zero) << name;
    auto fold = all.find("<details class=\"zeros\">", section);
    auto next = all.find("</section>", section);
    EXPECT_EQ(fold < next && at > fold, zero) << name;
  }
  // The local section holds nothing but its one zero (local_bytes), folded.
  std::string local = element(all, "section", "metrics-local");
  EXPECT_EQ(local.find("<table class=\"metrics\">\n<thead>"), std::string::npos);
  EXPECT_NE(local.find("<summary>1 zero metric</summary>"), std::string::npos);
  auto dram = all.find("data-metric=\"dram__bytes_read.sum\"");
  EXPECT_NE(all.substr(dram, all.find("</tr>", dram) - dram).find("class=\"estimated\""), std::string::npos);
  EXPECT_NE(all.find("<summary>All metrics by unit (25; 8 are zero and folded away)</summary>"), std::string::npos);
}

TEST(report_html, MemoryChartNumbersFollowFromTheMetrics) {
  json r = test::sample_report();
  MemoryChart c = memory_chart(r["launches"][0]["metrics"]);
  // Global loads and stores always; no local, texture or surface traffic, so no such arrows.
  ASSERT_EQ(c.to_l1.size(), 2u);
  EXPECT_EQ(c.to_l1[0].key, "global_ld");
  EXPECT_EQ(c.to_l1[0].instructions, 3128u);
  EXPECT_EQ(c.to_l1[0].requests, 3128u);
  EXPECT_EQ(c.to_l1[0].sectors, 37536u);
  EXPECT_EQ(c.to_l1[0].bytes, 37536u * 32);
  EXPECT_EQ(c.to_l1[0].hit_pct(), 0.0);
  EXPECT_EQ(c.to_l1[1].key, "global_st");
  EXPECT_EQ(c.to_l1[1].sectors, 0u);
  EXPECT_FALSE(c.to_l1[1].hits.has_value());  // no lookup-hit counter: no rate, not 0 %
  EXPECT_FALSE(c.to_l1[1].hit_pct().has_value());
  ASSERT_EQ(c.to_shared.size(), 1u);
  EXPECT_EQ(c.to_shared[0].key, "shared_st");
  EXPECT_EQ(c.to_shared[0].wavefronts, 96u);
  EXPECT_EQ(c.to_shared[0].conflicts, 48u);
  ASSERT_EQ(c.to_l2.size(), 2u);
  EXPECT_EQ(c.to_l2[0].key, "l2_read");
  EXPECT_EQ(c.to_l2[0].bytes, 37536u * 32);
  EXPECT_DOUBLE_EQ(*c.to_l2[0].hit_pct(), 12.5);  // 4,692 of 37,536
  EXPECT_EQ(c.to_l2[1].key, "l2_write");
  ASSERT_EQ(c.to_dram.size(), 2u);
  EXPECT_EQ(c.to_dram[0].bytes, 1051008u);  // the 32,844 read misses x 32
  EXPECT_EQ(c.to_dram[1].bytes, 0u);
  EXPECT_EQ(c.l1_hit_pct, 0.0);
  EXPECT_EQ(c.l2_hit_pct, 12.5);

  // The texture launch: its TEX-pipe traffic is an arrow of its own.
  MemoryChart t = memory_chart(r["launches"][2]["metrics"]);
  ASSERT_EQ(t.to_l1.size(), 3u);
  EXPECT_EQ(t.to_l1[2].key, "texture");
  EXPECT_EQ(t.to_l1[2].label, "Texture");
  EXPECT_EQ(t.to_l1[2].instructions, 256u);
  EXPECT_EQ(t.to_l1[2].requests, 1024u);
  EXPECT_EQ(t.to_l1[2].bytes, 2048u * 32);
  EXPECT_DOUBLE_EQ(*t.to_l1[2].hit_pct(), 75.0);  // 1,536 of 2,048
  // L1 as a whole: 1,536 hits in 1,024 store + 2,048 texture sectors (no load sectors).
  EXPECT_DOUBLE_EQ(*t.l1_hit_pct, 50.0);
  EXPECT_TRUE(t.to_shared.empty());
  EXPECT_DOUBLE_EQ(*t.to_l2[1].hit_pct(), 100.0);

  // Surface and local traffic appear when they are there.
  json m = r["launches"][0]["metrics"];
  m["l1tex__t_requests_pipe_tex_mem_surface_op_st.sum"] = 8;
  m["l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum"] = 32;
  m["l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"] = 4;
  std::vector<std::string> keys;
  for (const ChartFlow& f : memory_chart(m).to_l1) keys.push_back(f.key);
  EXPECT_EQ(keys, (std::vector<std::string>{"global_ld", "global_st", "local_ld", "surface_st"}));
  EXPECT_FALSE(has_memory_metrics(r["launches"][3]["metrics"]));
  EXPECT_TRUE(has_memory_metrics(r["launches"][2]["metrics"]));
}

TEST(report_html, MemoryChartDrawsItsNumbers) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 2);
  std::string chart = element(page, "figure", "memory-chart");
  ASSERT_FALSE(chart.empty());
  EXPECT_NE(chart.find("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"memory-chart\""), std::string::npos);
  for (const char* box : {"box kernel", "box l1", "box shared", "box l2", "box dram"})
    EXPECT_EQ(count(chart, std::string("<g class=\"") + box + "\""), 1u) << box;
  auto flows = tags(chart, "<g class=\"flow");
  std::vector<std::string> keys;
  for (auto& f : flows) keys.push_back(f["data-flow"]);
  EXPECT_EQ(keys, (std::vector<std::string>{"global_ld", "global_st", "texture", "l2_read", "l2_write", "dram_read",
                                             "dram_write"}));
  EXPECT_EQ(flows[2]["data-requests"], "1024");
  EXPECT_EQ(flows[2]["data-sectors"], "2048");
  EXPECT_EQ(flows[2]["data-bytes"], "65536");
  EXPECT_EQ(flows[2]["data-hit-pct"], "75.00");
  EXPECT_EQ(flows[0]["class"], "flow zero");  // no global loads: a dashed arrow
  EXPECT_NE(chart.find(">1,024 req \u00b7 2,048 sectors<"), std::string::npos);
  EXPECT_NE(chart.find(">65,536 B \u00b7 hit 75.0 %<"), std::string::npos);
  EXPECT_NE(chart.find(">Hit Rate 50.0 %<"), std::string::npos);  // L1/TEX
  EXPECT_NE(chart.find(">Hit Rate 66.7 %<"), std::string::npos);  // L2: every sector (l2_hit_rate_pct)
  EXPECT_NE(chart.find(">16,384 B<"), std::string::npos);     // DRAM reads
  EXPECT_NE(chart.find(">no accesses<"), std::string::npos);  // shared memory
  // The metric names behind an arrow are its tooltip.
  EXPECT_NE(chart.find("l1tex__t_requests_pipe_tex_mem_texture.sum"), std::string::npos);
  // The first launch's shared stores.
  std::string first = element(html_launch_page(r, 0), "figure", "memory-chart");
  EXPECT_NE(first.find("data-flow=\"shared_st\" data-instructions=\"48\" data-wavefronts=\"96\" data-conflicts=\"48\""),
            std::string::npos);
  EXPECT_NE(first.find(">96 wavefronts, 48 conflicts<"), std::string::npos);
}

TEST(report_html, NotProfiledLaunchHasNoMemoryChart) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 3);
  EXPECT_EQ(page.find("id=\"memory-chart\""), std::string::npos);
  EXPECT_EQ(page.find("<svg"), std::string::npos);
  EXPECT_NE(page.find("id=\"no-memory-chart\""), std::string::npos);
  // Nor lines, advice or pictures to look for.
  for (const char* part : {"id=\"worst-heading\"", "id=\"advice-heading\"", "id=\"source-heading\""})
    EXPECT_EQ(page.find(part), std::string::npos) << part;
  EXPECT_NE(element(page, "p", "not-profiled").find("--launch-count 3 profiles only the first 3 matching launches"),
            std::string::npos);
  // Its instruction counts are still there.
  EXPECT_NE(page.find("data-metric=\"smsp__inst_executed.sum\""), std::string::npos);
  // A profiled launch without memory counters (--no-stats) says why it has no chart.
  json bare = json::parse(R"({"arch": "hopper", "launches": [{"index": 0, "kernel": "k",
                             "metrics": {"smsp__inst_executed.sum": 5}}]})");
  EXPECT_NE(html_launch_page(bare, 0).find("No memory counters for this launch"), std::string::npos);
}

TEST(report_html, AdviceItemsLinkToTheirLines) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  auto items = tags(page, "<li class=\"advice\"");
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0]["data-rule"], "aos");
  EXPECT_EQ(items[1]["data-rule"], "bank_conflict");
  EXPECT_NE(page.find("<span class=\"ev-key\">stride_bytes</span> 12</span>"), std::string::npos);
  // The comparison architecture's advice is on the side-by-side page, not here.
  EXPECT_EQ(count(page, "<li class=\"compare-advice\""), 0u);
  // Links to the line rows exist as ids.
  std::smatch m;
  std::string first = page.substr(page.find("<li class=\"advice\""));
  ASSERT_TRUE(std::regex_search(first, m, std::regex("href=\"#(src-[0-9]+-19)\"")));
  EXPECT_NE(page.find("id=\"" + m[1].str() + "\""), std::string::npos);
  EXPECT_EQ(count(html_launch_page(r, 1), "class=\"advice\""), 0u);
}

TEST(report_html, AdviceBeyondTheFirstThreeIsFolded) {
  json r = test::sample_report();
  json& advice = r["launches"][0]["advice"];
  for (int pc : {40, 41, 42}) {
    json more = advice[0];
    more["pc"] = pc;
    advice.push_back(more);
  }
  advice.push_back(advice[1]);
  std::string page = html_launch_page(r, 0);
  // aos, bank_conflict, aos in the list; aos, aos, bank_conflict folded, counted by rule.
  std::string shown = element(page, "ol", "advice");
  EXPECT_EQ(count(shown, "<li class=\"advice\""), 3u);
  std::string folded = element(page, "details", "more-advice");
  EXPECT_NE(folded.find("<summary>3 more advice items (aos 2, bank_conflict 1)</summary>"), std::string::npos) << folded;
  EXPECT_NE(folded.find("<ol class=\"advice-list\" start=\"4\">"), std::string::npos);
  EXPECT_EQ(count(folded, "<li class=\"advice\""), 3u);
  EXPECT_EQ(html_launch_page(test::sample_report(), 0).find("more-advice"), std::string::npos);
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
  auto line19 = page.find("id=\"src-1-19\"");
  std::string row19 = page.substr(line19, page.find("</tr>", line19) - line19);
  for (const char* cell : {">3,128<", ">37,536<", ">12,512<", ">25,024<", ">1,201,152<", ">4,692<"})
    EXPECT_NE(row19.find(cell), std::string::npos) << cell;
  auto insn = tags(page, "<tr class=\"src-insn\"");
  ASSERT_EQ(insn.size(), 2u);
  EXPECT_EQ(insn[0]["data-line"], "19");
  EXPECT_EQ(insn[0]["data-pc"], "12");
  EXPECT_LT(page.find("id=\"src-1-19\""), page.find("ld.global.f32 %f1, [%rd8];"));
  EXPECT_LT(page.find("ld.global.f32 %f1, [%rd8];"), page.find("id=\"src-1-25\""));
}

TEST(report_html, SourceColumnsZeroEverywhereAreLeftOut) {
  json r = test::sample_report();
  auto head = [](const std::string& page) {
    std::string table = page.substr(page.find("<table class=\"src\""));
    return table.substr(0, table.find("</thead>"));
  };
  // The first launch has global and shared traffic, hits in L2 only, no local or texture traffic.
  std::string first = head(html_launch_page(r, 0));
  for (const char* shown : {"<th class=\"group\" colspan=\"5\">global</th>", "<th class=\"group\" colspan=\"1\">hits</th>",
                            "<th class=\"group\" colspan=\"3\">shared</th>", ">exec<"})
    EXPECT_NE(first.find(shown), std::string::npos) << shown << "\n" << first;
  EXPECT_EQ(first.find(">local<"), std::string::npos);
  EXPECT_EQ(first.find(">texture<"), std::string::npos);
  EXPECT_EQ(first.find(">L1<"), std::string::npos);
  // The texture launch: its texture requests and sectors have columns, the line sums them.
  std::string page = html_launch_page(r, 2);
  EXPECT_NE(head(page).find("<th class=\"group\" colspan=\"2\">texture</th>"), std::string::npos);
  auto at = page.find("<tr class=\"src-line\"");
  std::string line = page.substr(at, page.find("</tr>", at) - at);
  EXPECT_NE(line.find("<td class=\"num\">1,024</td><td class=\"num\">2,048</td><td class=\"num\">1,536</td>"),
            std::string::npos)
      << line;
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
  // 12 sectors outlined for the strided load; the shared store on the banks instead, its 32 lanes
  // in 32 cells (no two lanes share a word).
  auto at = page.find("id=\"access-0\"");
  std::string fig0 = page.substr(at, page.find("</figure>", at) - at);
  EXPECT_EQ(count(fig0, "class=\"transaction\""), 12u);
  EXPECT_EQ(count(fig0, "lane inactive"), 0u);
  EXPECT_EQ(count(fig0, "class=\"shared-banks\""), 0u);
  at = page.find("id=\"access-1\"");
  std::string fig1 = page.substr(at, page.find("</figure>", at) - at);
  EXPECT_EQ(count(fig1, "class=\"shared-banks\""), 1u);
  EXPECT_EQ(count(fig1, "<g class=\"bank-word\""), 32u);
  EXPECT_EQ(count(fig1, "class=\"transaction\""), 0u);
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
  // Worst first: line 19 (25024), line 25 (48 excess wavefronts), then lines 105, 104, 103.
  EXPECT_EQ(drawn, (std::vector<std::string>{"19", "25", "105", "104", "103"}));
  EXPECT_NE(page.find("<figure class=\"access-svg\" id=\"access-0\" data-line=\"19\""), std::string::npos);
  EXPECT_NE(page.find("<figure class=\"access-svg\" id=\"access-1\" data-line=\"25\""), std::string::npos);
  EXPECT_NE(page.find("<figure class=\"access-svg\" id=\"access-2\" data-line=\"105\""), std::string::npos);
  EXPECT_NE(page.find("<figure class=\"access-svg\" id=\"access-4\" data-line=\"103\""), std::string::npos);
}

TEST(report_html, ComparePageHasAColumnPerProfileAndHighlightsDifferences) {
  json r = test::sample_report();
  std::string page = html_compare_page(r, 0);
  std::string table = element(page, "table", "compare");
  ASSERT_FALSE(table.empty());
  auto archs = tags(table, "<th class=\"num arch\"");
  ASSERT_EQ(archs.size(), 2u);
  EXPECT_EQ(archs[0]["data-arch"], "hopper");
  EXPECT_EQ(archs[1]["data-arch"], "kepler");
  auto row_of = [&](const std::string& metric) {
    auto at = table.find("data-metric=\"" + metric + "\"");
    if (at == std::string::npos) return std::string();
    at = table.rfind("<tr", at);
    return table.substr(at, table.find("</tr>", at) - at);
  };
  // 12 sectors per request on hopper, 3 on kepler: 75 % fewer.
  std::string spr = row_of("global_sectors_per_request");
  EXPECT_EQ(spr.rfind("<tr class=\"metric differs\"", 0), 0u) << spr;
  EXPECT_NE(spr.find("<td class=\"num\">12</td><td class=\"num diff\">3<span class=\"delta\">\u221275.0 %</span></td>"),
            std::string::npos)
      << spr;
  // Equal values are not highlighted.
  std::string requests = row_of("global_requests");
  EXPECT_EQ(requests.rfind("<tr class=\"metric\"", 0), 0u) << requests;
  EXPECT_EQ(requests.find("diff"), std::string::npos);
  // 1,051,008 -> 1,601,536 DRAM bytes: +52.4 %, estimated on both.
  std::string dram = row_of("dram__bytes_read.sum");
  EXPECT_NE(dram.find("1,601,536<span class=\"delta\">+52.4 %</span>"), std::string::npos) << dram;
  EXPECT_EQ(count(dram, "class=\"estimated\""), 2u);
  // A metric only kepler has: a dash for hopper, highlighted.
  std::string only = row_of("kepler_only_metric");
  EXPECT_NE(only.find("<td class=\"num\">\u2014</td><td class=\"num diff\">7</td>"), std::string::npos) << only;
  // Rows grouped by unit, launch and occupancy first; rows zero on every profile folded away.
  std::vector<std::string> groups;
  for (auto& g : tags(table, "<tr class=\"group\"")) groups.push_back(g["id"]);
  EXPECT_EQ(groups, (std::vector<std::string>{"compare-launch", "compare-global", "compare-shared", "compare-l2",
                                               "compare-dram", "compare-instructions", "compare-other"}));
  EXPECT_NE(row_of("occupancy.occupancy_pct"), "");
  EXPECT_EQ(row_of("local_bytes"), "");
  EXPECT_NE(element(page, "details", "compare-zeros").find("<code>local_bytes</code>"), std::string::npos);
  // Advice: a column per profile.
  std::string advice = element(page, "table", "compare-advice");
  EXPECT_EQ(count(advice, "<td data-arch="), 2u);
  std::string kepler = advice.substr(advice.find("<td data-arch=\"kepler\">"));
  EXPECT_EQ(count(kepler, "<li class=\"compare-advice\""), 1u);
  EXPECT_NE(kepler.find("128-byte lines &lt;cached&gt;"), std::string::npos);
  EXPECT_EQ(count(advice, "<li class=\"compare-advice\""), 3u);
  // Links back.
  EXPECT_NE(page.find("href=\"launch_0.html\""), std::string::npos);
  EXPECT_NE(page.find("href=\"index.html\""), std::string::npos);
}

TEST(report_html, ComparePageOnlyWhenThereIsAComparison) {
  json r = test::sample_report();
  std::string page = html_compare_page(r, 1);
  EXPECT_EQ(element(page, "table", "compare"), "");
  EXPECT_NE(page.find("not compared with another architecture"), std::string::npos);
  EXPECT_EQ(html_compare_file(r["launches"][0], 0), "launch_0_compare.html");
  EXPECT_THROW(html_compare_page(r, 4), Error);
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
  EXPECT_NE(html_compare_page(r, 0).find("id=\"kernel-name\""), std::string::npos);
  EXPECT_THROW(html_launch_page(r, 1), Error);
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
  EXPECT_EQ(read(dir / "launch_3.html"), html_launch_page(r, 3));
  EXPECT_EQ(read(dir / "launch_0_compare.html"), html_compare_page(r, 0));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 6u);  // index, four launches, one comparison
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


// The 8x8 matrices of an ldmatrix/stmatrix on the banks (matrix_svg.hpp). The expected
// wavefronts are the bank rule's for one matrix, as the H100 counts it
// (tests/hw/data/h100/tensor/ldsm_banks.csv; docs/mem.md): rows 16 bytes apart 1, rows 64 bytes
// apart 4 (even rows in banks 0-3, odd in 16-19: four words per bank), rows 128 bytes apart 8.
TEST(report_html, MatrixOnTheBanks) {
  auto rows = [](std::uint64_t base, std::uint64_t stride) {
    std::array<std::uint64_t, 8> r{};
    for (unsigned i = 0; i < 8; ++i) r[i] = base + i * stride;
    return r;
  };
  EXPECT_EQ(matrix_wavefronts(rows(0, 16), 32, 4), 1u);
  EXPECT_EQ(matrix_wavefronts(rows(256, 64), 32, 4), 4u);
  EXPECT_EQ(matrix_wavefronts(rows(0, 128), 32, 4), 8u);
  MatrixBanksPicture p;
  p.title = "a <title>";
  p.matrices = {rows(0, 16), rows(1024, 128)};
  const std::string svg = render_matrix_banks_svg(p);
  EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"matrix-banks\""), std::string::npos);
  EXPECT_NE(svg.find("a &lt;title&gt;"), std::string::npos);
  // 8 rows x 4 words per matrix; the second's every word is in a bank it shares with 7 others.
  EXPECT_EQ(count(svg, "<rect class=\"word"), 64u);
  EXPECT_EQ(count(svg, "<rect class=\"word conflict\""), 32u);
  EXPECT_NE(svg.find("data-matrix=\"0\" data-wavefronts=\"1\""), std::string::npos);
  EXPECT_NE(svg.find("data-matrix=\"1\" data-wavefronts=\"8\""), std::string::npos);
  EXPECT_NE(svg.find("matrix 1: 8 wavefronts (8-way bank conflict"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

// An instruction marked "matrix" (ldmatrix/stmatrix) gets the bank picture of its sample next to
// the warp access; other instructions do not.
TEST(report_html, LdmatrixSampleIsDrawnOnTheBanks) {
  json r = test::sample_report();
  std::string plain = html_launch_page(r, 0);
  EXPECT_EQ(plain.find("class=\"matrix-banks\""), std::string::npos);
  for (auto& line : r["launches"][0]["lines"])
    for (auto& insn : line["instructions"]) {
      if (insn["pc"] != 30) continue;
      insn["matrix"] = true;
      insn["width"] = 16;
      json addrs = json::array();
      for (unsigned l = 0; l < 32; ++l) addrs.push_back(l < 8 ? json(l * 128) : json(nullptr));
      insn["sample"]["addresses"] = addrs;
      insn["sample"]["width"] = 16;
      insn["sample"]["active"] = "0x000000ff";
    }
  std::string page = html_launch_page(r, 0);
  auto at = page.find("id=\"access-1\"");
  ASSERT_NE(at, std::string::npos);
  std::string fig = page.substr(at, page.find("</figure>", at) - at);
  EXPECT_NE(fig.find("class=\"matrix-banks\""), std::string::npos);
  EXPECT_NE(fig.find("data-matrix=\"0\" data-wavefronts=\"8\""), std::string::npos);
  EXPECT_EQ(count(fig, "<rect class=\"word conflict\""), 32u);
}


}  // namespace
}  // namespace warpscope::report
