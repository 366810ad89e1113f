// The texture pipe's counters against the H100: the probes texture_traffic.cu and
// texture_requests.cu (tests/hw/texture) under warpscope, launch by launch, against Nsight
// Compute's captures (tests/hw/data/h100/texture/texture_traffic.csv, texture_requests.csv;
// README there). Requests and sectors of textures and surfaces must be equal in every launch:
// they follow from the request rule (mem::texture_request_lanes: 8 lanes for TLD and surfaces,
// 4 for 16-byte TLD texels, a quad for TEX/TLD4) and the texel addresses (block-linear layout of
// CUDA arrays). L1 hits are compared where the hits come from one instruction's requests or from
// the warps of one CTA (one SM); where warps of different CTAs share sectors, hits depend on
// which SM runs which CTA when, and the list below says so.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "../hw/ncu_csv.hpp"

namespace {

using rt_test::prog;
using rt_test::run_under_warpscope;

const char* kCounted[] = {
    "l1tex__t_requests_pipe_tex_mem_texture.sum",        "l1tex__t_sectors_pipe_tex_mem_texture.sum",
    "l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum",  "l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum",
    "l1tex__t_requests_pipe_tex_mem_surface_op_st.sum",  "l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum",
};
const char* kHits[] = {"l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum",
                       "l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_hit.sum"};

// Kernels whose warps share sectors (hits not compared), and why.
const std::map<std::string, std::string> kSharedAcrossWarps = {
    {"fetch_stride", "index i*stride mod n: 32 (or 2) warps read each sector"},
    {"tex2d_rows", "the H100 reports 256 hits of 262,144 sectors that no warp shares (0 here)"},
    {"tex2d_cols", "the H100 reports 1,856 hits of 524,288 sectors that no warp shares (0 here)"},
    {"tex2d_linear", "bilinear rows y-1 and y: the warp of row y-1 read half of the sectors"},
    {"surf_rows", "the H100 reports 96 hits of 262,144 sectors that no warp shares (0 here)"},
    {"l_f32_same", "every warp of a CTA reads one float; neighbouring warps share its sector"},
    {"a_f32_same", "as l_f32_same"},
    {"a1d_f32", "x = i mod 8192: four warps read each texel"},
    {"a1d_f32_linear", "as a1d_f32"},
    {"s1d_f32", "as a1d_f32"},
    {"a_f32_gather", "rows y and y+1: the next row's warp reads half of the sectors again"},
};

std::string base_name(const std::string& kernel) {  // "void l_rows<float>(unsigned long long)" -> "l_rows"
  std::string s = kernel.substr(0, kernel.find_first_of("(<"));
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  return s;
}

void compare(const std::string& probe) {
  const std::string report = prog(probe) + "_tex.json";
  const auto r = run_under_warpscope(prog(probe), report, "WARPSCOPE_QUIET=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_NE(r.out.find(probe + " done"), std::string::npos) << r.out;
  const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
  const auto& launches = j["launches"];
  const auto hw = ncu_csv::launches(std::string(WARPSCOPE_HW_DATA_DIR) + "/h100/texture/" + probe + ".csv");
  ASSERT_EQ(launches.size(), hw.size());
  unsigned hits_compared = 0;
  for (std::size_t i = 0; i < hw.size(); ++i) {
    const std::string name = base_name(hw[i].at("Kernel Name"));
    ASSERT_EQ(base_name(launches[i]["name"].get<std::string>()), name) << "launch " << i;
    const auto& m = launches[i]["metrics"];
    auto ours = [&](const char* metric) { return m.contains(metric) ? m[metric].get<double>() : 0.0; };
    for (const char* metric : kCounted)
      EXPECT_EQ(ours(metric), ncu_csv::number(hw[i].at(metric))) << probe << " launch " << i << " " << name << ": " << metric;
    if (kSharedAcrossWarps.count(name) != 0) continue;
    for (const char* metric : kHits) {
      if (hw[i].count(metric) == 0) continue;
      EXPECT_EQ(ours(metric), ncu_csv::number(hw[i].at(metric))) << probe << " launch " << i << " " << name << ": " << metric;
      ++hits_compared;
    }
  }
  EXPECT_GT(hits_compared, 5u);
}

TEST(TextureTrafficVsH100, TextureTrafficProbe) { compare("texture_traffic"); }
TEST(TextureTrafficVsH100, TextureRequestsProbe) { compare("texture_requests"); }

}  // namespace
