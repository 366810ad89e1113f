// The parts of the HTML pages that issue 35 ("the first hour of an Nsight Compute user") asked
// for, on the hand-written report of sample_report.hpp: the index's predicted duration, limiter
// and sortable columns with Nsight Compute's labels, the launch page's Speed Of Light bars on one
// axis and its log-log roofline, shared-memory accesses on the 32 banks, and the side-by-side
// page's opening summary with units. Expected values follow from the sample's numbers by the
// rules the pages state (docs/report.md, "HTML"), worked out by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "html_test_util.hpp"
#include "report/access_svg.hpp"
#include "report/bank_svg.hpp"
#include "report/html.hpp"
#include "report/html_common.hpp"
#include "sample_report.hpp"

namespace warpscope::report {
namespace {

using nlohmann::json;

TEST(report_html, DurationsCarryTheirUnit) {
  EXPECT_EQ(html::duration_text(850), "850 ns");
  EXPECT_EQ(html::duration_text(1500), "1.50 \u00b5s");
  EXPECT_EQ(html::duration_text(27.9e6), "27.90 ms");
  EXPECT_EQ(html::duration_text(1.2e9), "1.20 s");
  EXPECT_STREQ(html::duration_unit(4200).first, "\u00b5s");
  EXPECT_EQ(html::duration_unit(4200).second, 1e3);
}

TEST(report_html, IndexHasPredictedTimeLimiterAndSortableColumns) {
  json r = test::sample_report();
  std::string index = html_index_page(r);
  std::string table = element(index, "table", "launches");
  ASSERT_NE(index.find("<table id=\"launches\" class=\"sortable\">"), std::string::npos);
  std::vector<std::string> columns;
  for (auto& th : tags(table.substr(0, table.find("</thead>")), "<th ")) columns.push_back(th["data-col"]);
  EXPECT_EQ(columns, (std::vector<std::string>{"index", "kernel", "grid", "block", "registers", "duration", "limiter",
                                                "global_requests", "global_sectors_per_request",
                                                "global_bus_utilization_pct", "l1_hit_rate_global_ld_pct",
                                                "l2_hit_rate_pct", "local_bytes", "shared", "advice"}));
  // Launch 0: 1,500 ns = 1.50 us, limited by latency; launch 2: 850 ns, l2; launch 1 has no
  // prediction and launch 3's is unavailable: dashes without a sort key.
  auto cells = tags(table, "<td class=\"num time\"");
  ASSERT_EQ(cells.size(), 4u);
  EXPECT_EQ(cells[0]["data-sort"], "1500");
  EXPECT_EQ(cells[0]["data-ns"], "1500");
  EXPECT_EQ(cells[1]["data-sort"], "");
  EXPECT_EQ(cells[2]["data-sort"], "850");
  EXPECT_EQ(cells[3]["data-sort"], "");
  EXPECT_NE(table.find("data-ns=\"1500\">1.50 \u00b5s</td><td class=\"limiter\" data-sort=\"latency\">latency</td>"),
            std::string::npos);
  EXPECT_NE(table.find("data-ns=\"850\">850 ns</td><td class=\"limiter\" data-sort=\"l2\">l2</td>"), std::string::npos);
  EXPECT_EQ(count(table, "<td class=\"num time\" data-sort=\"\">\u2014</td><td class=\"limiter\" data-sort=\"\">\u2014</td>"),
            2u);
  // Labels in Nsight Compute's words, each meaning one thing: "L2 Hit Rate" is every L2 sector.
  EXPECT_NE(table.find("title=\"lts__t_sector_hit_rate: L2 sector hits / all L2 sector lookups (reads, writes, "
                       "atomics, reductions)\">L2 Hit Rate %</th>"),
            std::string::npos);
  EXPECT_NE(table.find(">L1 Hit Rate % (global loads)</th>"), std::string::npos);
  EXPECT_EQ(index.find("L2 hit %"), std::string::npos);
  // The sorter: inline, after the table, for tables of class "sortable"; rows keep their first
  // order on ties and cells without a key sort last.
  EXPECT_LT(index.find("</table>"), index.find("<script>"));
  EXPECT_NE(index.find("document.querySelectorAll('table.sortable')"), std::string::npos);
  EXPECT_NE(index.find("aria-sort"), std::string::npos);
  EXPECT_NE(element(index, "p", "sort-note").find("Click a column"), std::string::npos);
}

TEST(report_html, LaunchPageSpeedOfLightBarsShareOneAxis) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  std::string sol = element(page, "svg", "sol");
  ASSERT_FALSE(sol.empty());
  // The predicted duration with its unit, before the memory chart.
  EXPECT_NE(page.find("<p id=\"predicted-time\"><span class=\"duration\" data-ns=\"1500\">1.50 \u00b5s</span>"),
            std::string::npos);
  EXPECT_NE(page.find("<strong id=\"limiter\">latency</strong>"), std::string::npos);
  EXPECT_LT(page.find("id=\"time-heading\""), page.find("id=\"memory-chart\""));
  // Every bar starts at x = 180 and 100 % is 320 pixels: its width is 3.2 x its percentage.
  auto bars = tags(sol, "<g class=\"sol-bar\"");
  std::vector<std::string> ids;
  for (auto& b : bars) ids.push_back(b["id"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"sol-sm", "sol-memory", "sol-l1", "sol-l2", "sol-dram", "sol-occupancy"}));
  auto tracks = tags(sol, "<rect class=\"sol-track\"");
  auto fills = tags(sol, "<rect class=\"sol-fill\"");
  ASSERT_EQ(tracks.size(), 6u);
  ASSERT_EQ(fills.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(tracks[i]["x"], "180");
    EXPECT_EQ(tracks[i]["width"], "320");
    EXPECT_EQ(fills[i]["x"], "180");
  }
  std::vector<std::string> widths;
  for (auto& f : fills) widths.push_back(f["width"]);
  // 2.55, 35, 35, 11.1, 22.79 and 82.5 %.
  EXPECT_EQ(widths, (std::vector<std::string>{"8.2", "112.0", "112.0", "35.5", "72.9", "264.0"}));
  for (const char* label : {">Compute (SM) Throughput<", ">Memory Throughput<", ">L1/TEX Cache Throughput<",
                            ">L2 Cache Throughput<", ">DRAM Throughput<", ">Achieved Occupancy<", ">0 %<", ">50 %<",
                            ">100 %<", ">22.8 %<"})
    EXPECT_NE(sol.find(label), std::string::npos) << label;
}

TEST(report_html, LaunchPageRooflineHasLogAxesRidgesAndTheOtherLaunches) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  std::string roof = element(page, "svg", "roofline");
  ASSERT_FALSE(roof.empty());
  // Ridge points: 1.04544e12 warp instructions/s over 3.0739e12 B/s (DRAM) and 7.2129e12 B/s (L2).
  auto ridges = tags(roof, "<g class=\"ridge\"");
  ASSERT_EQ(ridges.size(), 2u);
  EXPECT_EQ(ridges[0]["id"], "ridge-l2");
  EXPECT_EQ(ridges[0]["data-x"], "0.1449");
  EXPECT_EQ(ridges[1]["id"], "ridge-dram");
  EXPECT_EQ(ridges[1]["data-x"], "0.3401");
  EXPECT_NE(roof.find(">L2 ridge 0.145 inst/B<"), std::string::npos);
  EXPECT_NE(roof.find(">DRAM ridge 0.34 inst/B<"), std::string::npos);
  // Log axes in whole decades: x from 40,000 / 1,201,152 = 0.0333 to the DRAM ridge 0.340, with
  // 0.15 decade of room and at least 4 decades: 10^-3 .. 10^1; y from launch 2's 2,048 / 850 ns =
  // 2.41e9 to the peak 1.05e12: 10^9 .. 10^13.
  EXPECT_NE(roof.find("data-x-decades=\"-3 1\" data-y-decades=\"9 13\""), std::string::npos);
  EXPECT_EQ(count(roof, "class=\"x-tick\""), 5u);
  EXPECT_EQ(count(roof, "class=\"y-tick\""), 5u);
  EXPECT_EQ(count(roof, "<line class=\"roof "), 3u);  // L2 slope, DRAM slope, issue peak
  // Each slope's label runs along it: a decade right is 514 / 4 = 128.5 pixels, a decade up
  // 304 / 4 = 76, so the roofs rise at atan(76 / 128.5) = 30.6 degrees.
  EXPECT_EQ(count(roof, "transform=\"rotate(-30.6 "), 2u);
  EXPECT_NE(roof.find(">L2 7.21 TB/s<"), std::string::npos);
  EXPECT_NE(roof.find(">DRAM 3.07 TB/s<"), std::string::npos);
  // This launch: a point per level, at 40,000 / 1,051,008 and 40,000 / 1,201,152 warp
  // instructions per byte, 40,000 / 1.5 us = 2.667e10 per second.
  auto me = tags(roof, "<circle class=\"point this dram\"");
  ASSERT_EQ(me.size(), 1u);
  EXPECT_EQ(me[0]["id"], "roofline-point");
  EXPECT_EQ(me[0]["data-x"], "0.03806");
  EXPECT_EQ(me[0]["data-y"], "2.667e+10");
  auto me_l2 = tags(roof, "<path class=\"point this l2\"");
  ASSERT_EQ(me_l2.size(), 1u);
  EXPECT_EQ(me_l2[0]["id"], "roofline-point-l2");
  EXPECT_EQ(me_l2[0]["data-x"], "0.0333");
  // The program's other launches with a prediction (launch 2 only), faint: its DRAM and L2 points.
  EXPECT_EQ(count(roof, "class=\"point other dram\""), 1u);
  EXPECT_EQ(count(roof, "class=\"point other l2\""), 1u);
  EXPECT_NE(roof.find("fill-opacity=\"0.3\"><title>launch 2: sample(unsigned long long, float*)</title>"),
            std::string::npos);
  EXPECT_NE(roof.find(">the program's other launches (1)<"), std::string::npos);
  // 2.667e10 of 1.04544e12: 2.6 % of the issue peak.
  EXPECT_NE(element(page, "p", "roofline-caption").find("0.0381 warp instructions per DRAM byte, 0.0333 per L2 byte, "
                                                        "26.7 G warp instructions/s (2.6 % of the issue peak)"),
            std::string::npos);
  // No prediction, no section.
  EXPECT_EQ(html_launch_page(r, 1).find("id=\"time\""), std::string::npos);
  EXPECT_EQ(html_launch_page(r, 3).find("id=\"time\""), std::string::npos);
}

TEST(report_html, RooflineDrawsAtMost400FaintMarks) {
  // 600 more launches like launch 2, their instruction counts 10^(k/10) times its 2,048 (k =
  // 0..19) and their durations 10^(j/10) times its 850 ns (j = 0..29): 600 points a tenth of a
  // decade apart on each axis, so 1,200 distinct marks (DRAM and L2); 400 are drawn.
  json r = test::sample_report();
  json more = r["launches"][2];
  for (int i = 0; i < 600; ++i) {
    more["index"] = 4 + i;
    more["time"]["mix"]["total"] = 2048 * std::pow(10.0, (i % 20) / 10.0);
    more["time"]["duration_ns"] = 850 * std::pow(10.0, (i / 20) / 10.0);
    r["launches"].push_back(more);
  }
  std::string roof = element(html_launch_page(r, 0), "svg", "roofline");
  EXPECT_EQ(count(roof, "class=\"point other "), 400u);
  EXPECT_NE(roof.find(">the program's other launches (601)<"), std::string::npos);
}

TEST(report_html, SharedAccessIsDrawnOnTheBanks) {
  json r = test::sample_report();
  std::string page = html_launch_page(r, 0);
  auto at = page.find("id=\"access-1\"");
  ASSERT_NE(at, std::string::npos);
  std::string fig = page.substr(at, page.find("</figure>", at) - at);
  // 32 lanes 8 bytes apart: words 0, 2, ..., 62, so lanes l and l + 16 share bank 2l mod 32:
  // 2 wavefronts, ideal 1 (128 distinct bytes), 1 bank conflict, 2-way, in the 16 even banks.
  auto svg = tags(fig, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"shared-banks\"");
  ASSERT_EQ(svg.size(), 1u);
  EXPECT_EQ(svg[0]["data-banks"], "32");
  EXPECT_EQ(svg[0]["data-lanes-per-phase"], "32");
  EXPECT_EQ(svg[0]["data-wavefronts"], "2");
  EXPECT_EQ(svg[0]["data-ideal-wavefronts"], "1");
  EXPECT_EQ(svg[0]["data-conflicts"], "1");
  EXPECT_EQ(svg[0]["data-ways"], "2");
  EXPECT_EQ(count(fig, "<rect class=\"bank-cell conflict\""), 32u);
  EXPECT_EQ(count(fig, "class=\"wavefront-row\""), 2u);
  EXPECT_EQ(count(fig, "class=\"bank-number\""), 32u);
  EXPECT_NE(fig.find("data-bank=\"0\" data-wavefront=\"1\" data-lanes=\"0\""), std::string::npos);
  EXPECT_NE(fig.find("data-bank=\"0\" data-wavefront=\"2\" data-lanes=\"16\""), std::string::npos);
  EXPECT_NE(fig.find("data-bank=\"30\" data-wavefront=\"2\" data-lanes=\"31\""), std::string::npos);
  EXPECT_EQ(fig.find("data-bank=\"1\""), std::string::npos);
  EXPECT_NE(fig.find(">2 wavefronts for 32 lanes (ideal 1): 1 bank conflict; banks 0, 2, 4, 6, ... hold 2 distinct "
                     "words in one phase: a 2-way bank conflict<"),
            std::string::npos)
      << fig;
  EXPECT_NE(fig.find(">32 distinct 4-byte words in 16 of the 32 banks; 32 lanes per phase<"), std::string::npos);
  // Shared memory's words only: no transactions, bytes moved or bus utilization.
  for (const char* global : {"bytes moved", "bus utilization", "Memory addresses", "class=\"transaction\""})
    EXPECT_EQ(fig.find(global), std::string::npos) << global;
  // The caption counts the instruction's wavefronts and conflicts (96 for 48 ideal).
  EXPECT_NE(fig.find("(shared store): 96 wavefronts (ideal 48), 48 bank conflicts"), std::string::npos) << fig;
}

TEST(report_html, BankViewRule) {
  auto picture = [](std::uint32_t width, auto address) {
    AccessPicture p;
    p.width = width;
    p.unit_name = "wavefront";
    for (unsigned l = 0; l < 32; ++l) {
      p.active.set(l);
      p.addr[l] = address(l);
    }
    return p;
  };
  // 128 bytes apart: every lane in bank 0, 32 distinct words: 32 wavefronts, ideal 1.
  BankView v = bank_view(picture(4, [](unsigned l) { return l * 128ull; }), 32);
  EXPECT_EQ(v.wavefronts, 32u);
  EXPECT_EQ(v.ideal_wavefronts, 1u);
  EXPECT_EQ(v.bank_conflicts(), 31u);
  EXPECT_EQ(v.ways, 32u);
  EXPECT_EQ(v.busiest, (std::vector<std::uint32_t>{0}));
  std::string svg = render_access_svg(picture(4, [](unsigned l) { return l * 128ull; }));
  EXPECT_NE(svg.find("class=\"shared-banks\""), std::string::npos);
  EXPECT_EQ(count(svg, "class=\"wavefront-row\""), 32u);
  EXPECT_NE(svg.find("a 32-way bank conflict"), std::string::npos);
  // One address for all: a broadcast, one cell of 32 lanes, 1 wavefront.
  v = bank_view(picture(4, [](unsigned) { return 64ull; }), 32);
  EXPECT_EQ(v.wavefronts, 1u);
  EXPECT_EQ(v.bank_conflicts(), 0u);
  ASSERT_EQ(v.words.size(), 1u);
  EXPECT_EQ(v.words[0].bank, 16u);
  EXPECT_EQ(v.words[0].lanes.size(), 32u);
  EXPECT_NE(render_shared_banks_svg(picture(4, [](unsigned) { return 64ull; })).find(">0+31<"), std::string::npos);
  // 8-byte words, consecutive: 128-byte phases of 16 lanes, one wavefront each, no conflict.
  AccessPicture wide = picture(8, [](unsigned l) { return l * 8ull; });
  v = chosen_bank_view(wide);
  EXPECT_EQ(v.lanes_per_phase, 16u);
  ASSERT_EQ(v.phases.size(), 2u);
  EXPECT_EQ(v.phases[1].first_lane, 16u);
  EXPECT_EQ(v.wavefronts, 2u);
  EXPECT_EQ(v.ideal_wavefronts, 2u);
  EXPECT_EQ(v.words.size(), 64u);  // each lane's two words
  // Two half-warps reading the same 128 bytes: 2 wavefronts in 128-byte phases, 1 in 256-byte ones
  // (the H100's loads); the model's count picks the phases.
  AccessPicture twice = picture(8, [](unsigned l) { return (l % 16) * 8ull; });
  twice.wavefronts = 1;
  v = chosen_bank_view(twice);
  EXPECT_EQ(v.lanes_per_phase, 32u);
  EXPECT_EQ(v.wavefronts, 1u);
  twice.wavefronts = 2;
  EXPECT_EQ(chosen_bank_view(twice).lanes_per_phase, 16u);
  // A count neither rule gives is stated next to the drawing's.
  twice.wavefronts = 5;
  EXPECT_NE(render_shared_banks_svg(twice).find("(the model counted 5 wavefronts for this profile)"), std::string::npos);
}

TEST(report_html, ComparePageOpensWithDurationLimiterAndUnits) {
  json r = test::sample_report();
  std::string page = html_compare_page(r, 0);
  std::string summary = element(page, "table", "compare-summary");
  ASSERT_FALSE(summary.empty());
  EXPECT_LT(page.find("id=\"compare-summary\""), page.find("<table id=\"compare\">"));
  std::vector<std::string> rows;
  for (auto& row : tags(summary, "<tr class=\"quantity")) rows.push_back(row["id"]);
  EXPECT_EQ(rows, (std::vector<std::string>{"summary-duration", "summary-limiter", "summary-sm", "summary-memory",
                                             "summary-dram-throughput", "summary-achieved-occupancy",
                                             "summary-theoretical-occupancy", "summary-registers",
                                             "summary-global-requests", "summary-sectors-per-request", "summary-l1-hit",
                                             "summary-l2-hit", "summary-dram-read", "summary-dram-write",
                                             "summary-shared-wavefronts", "summary-bank-conflicts"}));
  auto row = [&](const std::string& id) {
    auto at = summary.find("id=\"summary-" + id + "\"");
    return at == std::string::npos ? std::string() : summary.substr(at, summary.find("</tr>", at) - at);
  };
  // 1,500 ns on hopper, 4,200 ns on kepler: in microseconds (the primary's unit), +180 %.
  EXPECT_NE(row("duration").find("<th>Duration (predicted)</th><td class=\"unit\">\u00b5s</td><td class=\"num\" "
                                 "data-ns=\"1500\">1.50</td><td class=\"num diff\" data-ns=\"4200\">4.20<span "
                                 "class=\"delta\">+180.0 %</span></td>"),
            std::string::npos)
      << row("duration");
  EXPECT_NE(row("limiter").find("<td class=\"num\">latency</td><td class=\"num diff\">dram</td>"), std::string::npos);
  EXPECT_NE(row("memory").find("<td class=\"unit\">%</td><td class=\"num\">35</td><td class=\"num diff\">68<span "
                               "class=\"delta\">+94.3 %</span></td>"),
            std::string::npos)
      << row("memory");
  EXPECT_NE(row("l2-hit").find("<th>L2 Hit Rate</th><td class=\"unit\">%</td><td class=\"num\">12.50</td><td "
                               "class=\"num diff\">0<span class=\"delta\">\u2212100.0 %</span></td>"),
            std::string::npos)
      << row("l2-hit");
  EXPECT_NE(row("dram-read").find("<td class=\"unit\">bytes</td><td class=\"num\">1,051,008</td>"), std::string::npos);
  EXPECT_NE(row("sectors-per-request").find("<td class=\"unit\">sectors / request</td><td class=\"num\">12</td>"),
            std::string::npos);
  // Equal values are not highlighted; a value kepler lacks is a dash.
  EXPECT_EQ(row("global-requests").rfind("id=\"summary-global-requests\"><th>", 0), 0u);
  EXPECT_NE(row("bank-conflicts").find("<td class=\"num\">48</td><td class=\"num diff\">\u2014</td>"), std::string::npos);
}

}  // namespace
}  // namespace warpscope::report

namespace warpscope::report {
namespace {

// A merged advice item (one per line and cause) lists its instructions' pcs, never their JSON.
TEST(report_html, MergedAdviceListsItsInstructionsByPc) {
  nlohmann::json r = warpscope::test::sample_report();
  auto& a = r["launches"][0]["advice"][1];
  a["pcs"] = {30, 34};
  a["evidence"]["instructions"] = nlohmann::json::array({{{"pc", 30}, {"evidence", {{"ways", 2}}}},
                                                          {{"pc", 34}, {"evidence", {{"ways", 2}}}}});
  const std::string page = html_launch_page(r, 0);
  EXPECT_NE(page.find("<span class=\"ev-key\">instructions</span> pc 30, 34</span>"), std::string::npos);
  EXPECT_EQ(page.find("&quot;evidence&quot;"), std::string::npos);
  EXPECT_EQ(page.find("{\"evidence\""), std::string::npos);
}

}  // namespace
}  // namespace warpscope::report
