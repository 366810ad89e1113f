// The predicted-time parts of the reports (docs/time.md): the text table with --compare-arch
// side by side, the event-time note, and the launch page's Speed Of Light bars and roofline point,
// on a hand-written report.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "report/html_time.hpp"
#include "report/time_text.hpp"

namespace warpscope::report {
namespace {

nlohmann::json time(double ns, const char* limiter) {
  return {{"available", true},
          {"duration_ns", ns},
          {"limiter", limiter},
          {"sol", {{"sm_pct", 67.5}, {"memory_pct", 22.0}, {"l1_pct", 22.0}, {"l2_pct", 0.5}, {"dram_pct", 0.0},
                   {"occupancy_pct", 41.0}}},
          {"mix", {{"total", 1e9}}},
          {"components", {{"peak_warp_inst_per_s", 132 * 4 * 1.98e9}, {"dram_bytes", 0.0}, {"dram_bytes_per_s", 3.0e12},
                          {"l2_bytes", 1e6}, {"l2_bytes_per_s", 7.2e12}}}};
}

nlohmann::json sample() {
  nlohmann::json launch = {{"index", 0}, {"name", "integrate"}, {"time", time(27.9e6, "issue")}};
  launch["compare"] = nlohmann::json::array({{{"arch", "kepler"}, {"time", time(1.2e9, "fp32")}}});
  return {{"arch", "hopper"}, {"event_time", "predicted"}, {"launches", nlohmann::json::array({launch})}};
}

TEST(TimeText, TableShowsTimeLimiterAndComparedArchitectures) {
  const std::string t = time_table(sample());
  EXPECT_NE(t.find("predicted GPU time on hopper"), std::string::npos) << t;
  EXPECT_NE(t.find("27.900 ms"), std::string::npos) << t;
  EXPECT_NE(t.find("issue"), std::string::npos) << t;
  EXPECT_NE(t.find("kepler"), std::string::npos) << t;
  EXPECT_NE(t.find("1200.000 ms"), std::string::npos) << t;
  EXPECT_NE(t.find("67.5"), std::string::npos) << t;
}

TEST(TimeText, NoPredictionNoTable) {
  nlohmann::json r = sample();
  r["launches"][0]["time"] = {{"available", false}, {"reason", "no constants"}};
  EXPECT_EQ(time_table(r), "");
}

TEST(TimeText, EventTimeNoteSaysWhich) {
  EXPECT_NE(event_time_note(sample()).find("predicted GPU time"), std::string::npos);
  EXPECT_NE(event_time_note({{"event_time", "wall"}}).find("wall time"), std::string::npos);
}

TEST(TimeHtml, SpeedOfLightBarsAndARooflinePoint) {
  const std::string s = html::time_section(sample()["launches"][0]);
  // 27.9e6 ns: in milliseconds.
  EXPECT_NE(s.find("id=\"predicted-time\"><span class=\"duration\" data-ns=\"27900000\">27.90 ms</span>"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("<strong id=\"limiter\">issue</strong>"), std::string::npos);
  for (const char* id : {"sol-sm", "sol-memory", "sol-l1", "sol-l2", "sol-dram", "sol-occupancy"})
    EXPECT_NE(s.find("id=\"" + std::string(id) + "\""), std::string::npos) << id;
  // The SM bar: 67.5 % of the 320-pixel axis.
  EXPECT_NE(s.find("<rect class=\"sol-fill\" x=\"180\" y=\"6.0\" width=\"216.0\""), std::string::npos) << s;
  // No DRAM traffic: one point, at the L2 bytes (1e9 instructions / 1e6 bytes = 1,000 per byte).
  EXPECT_NE(s.find("<path class=\"point this l2\" id=\"roofline-point\" data-x=\"1000\""), std::string::npos) << s;
  EXPECT_EQ(s.find("class=\"point this dram\""), std::string::npos);
  EXPECT_NE(s.find("This launch: no DRAM bytes, 1,000 per L2 byte, "), std::string::npos) << s;
  EXPECT_EQ(html::time_section(nlohmann::json::object()), "");
}

}  // namespace
}  // namespace warpscope::report
