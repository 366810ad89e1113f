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
  EXPECT_NE(s.find("id=\"predicted-time\">27900.00 &micro;s"), std::string::npos) << s;
  EXPECT_NE(s.find("<strong id=\"limiter\">issue</strong>"), std::string::npos);
  for (const char* id : {"sol-sm", "sol-memory", "sol-l1", "sol-l2", "sol-dram", "sol-occupancy"})
    EXPECT_NE(s.find(id), std::string::npos) << id;
  // The SM bar: 67.5 % of 300 pixels.
  EXPECT_NE(s.find("width=\"202.5\""), std::string::npos);
  EXPECT_NE(s.find("id=\"roofline-point\""), std::string::npos);
  // No DRAM traffic: the roofline uses the L2 bytes (1e9 instructions / 1e6 bytes = 1000).
  EXPECT_NE(s.find("per L2 byte (this launch: 1e+03)"), std::string::npos) << s;
  EXPECT_EQ(html::time_section(nlohmann::json::object()), "");
}

}  // namespace
}  // namespace warpscope::report
