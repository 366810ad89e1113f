// mip_probe (tests/hw/texture) under warpscope against the H200's fetches from mipmapped textures,
// bit for bit (tests/hw/data/h200/texture_mip/mip_samples.csv.gz), and the forms warpscope refuses
// with a message naming them (docs/ptx.md: tex.grad, unnormalized coordinates).
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "harness.hpp"

using rt_test::prog;
using rt_test::run_under_warpscope;

namespace {

// case -> rows (everything after the case name), in order
std::map<std::string, std::vector<std::string>> parse(const std::string& text) {
  std::map<std::string, std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto comma = line.find(',');
    if (line.empty() || line.rfind("case,", 0) == 0 || comma == std::string::npos) continue;
    rows[line.substr(0, comma)].push_back(line.substr(comma + 1));
  }
  return rows;
}

// The cases warpscope reproduces (mip_probe runs only those named; '*' ends a name prefix).
const std::vector<std::string> kModelled = {
    "v2d_point_point_norm", "v2d_point_linear_norm", "v2d_linear_point_norm", "v2d_linear_linear_norm*",
    "bias_*", "clamp_*", "npot_*", "v1d_*", "lay_*", "w_even_point", "w_odd_point", "w_even_linear",
    "w_odd_linear", "w_even_linear_notriopt", "w_odd_linear_notriopt", "v3d_*", "cube_*"};

bool modelled(const std::string& name) {
  for (const auto& p : kModelled)
    if (p.back() == '*' ? name.rfind(p.substr(0, p.size() - 1), 0) == 0 : name == p) return true;
  return false;
}

}  // namespace

TEST(TextureMipGroundTruth, MipProbeMatchesH200) {
  const auto gt_text = rt_test::run_shell("gzip -dc '" + std::string(WARPSCOPE_HW_DATA_DIR) +
                                          "/h200/texture_mip/mip_samples.csv.gz'");
  ASSERT_EQ(gt_text.exit_code, 0) << gt_text.err;
  const auto gt = parse(gt_text.out);
  ASSERT_EQ(gt.size(), 48u);
  std::string args;
  for (const auto& p : kModelled) args += " '" + p + "'";
  const auto r = run_under_warpscope(prog("mip_probe") + args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto ours = parse(r.out);
  std::size_t cases = 0, rows_compared = 0;
  for (const auto& [name, rows] : gt) {
    if (!modelled(name)) {
      EXPECT_EQ(ours.count(name), 0u) << name;
      continue;
    }
    ++cases;
    const auto it = ours.find(name);
    ASSERT_NE(it, ours.end()) << name << ": no samples from warpscope";
    ASSERT_EQ(it->second.size(), rows.size()) << name;
    std::size_t match = 0;
    std::string first;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (it->second[i] == rows[i]) ++match;
      else if (first.empty()) first = "H200 " + rows[i] + " warpscope " + it->second[i];
    }
    rows_compared += rows.size();
    EXPECT_EQ(match, rows.size()) << name << ": " << match << "/" << rows.size() << " match; first: " << first;
  }
  // the CSV's row counts: 5 v2d, 9 bias/clamp, 2 npot, 4 v1d, 6 weight, 4 layered, 4 3-D and 2
  // cubemap cases
  EXPECT_EQ(cases, 36u);
  EXPECT_EQ(rows_compared, 5u * 405 + 9 * 243 + 2 * 261 + 4 * 637 + 6 * 5177 + 4 * 285 + 4 * 171 + 2 * 114);
}

// The forms the H200 data do not pin down are refused, naming the form (and no sample is made up).
TEST(TextureMipGroundTruth, UnmodelledFormsAreRefusedByName) {
  const std::pair<const char*, const char*> cases[] = {
      {"g_v2d_linear_linear", "tex.grad"},
      {"g1d_linear_linear", "tex.grad"},
      {"g_w_even_linear", "tex.grad"},
      {"v2d_linear_linear_unnorm", "tex.level with unnormalized coordinates"},
      {"w_even_linear_unnorm", "tex.level with unnormalized coordinates"},
  };
  for (const auto& [name, form] : cases) {
    const auto r = run_under_warpscope(prog("mip_probe") + " " + name);
    EXPECT_NE(r.exit_code, 0) << name;
    EXPECT_NE(r.err.find("unsupported on a mipmapped texture"), std::string::npos) << name << ": " << r.err;
    EXPECT_NE(r.err.find(form), std::string::npos) << name << ": " << r.err;
    EXPECT_EQ(parse(r.out).count(name), 0u) << name;
  }
}
