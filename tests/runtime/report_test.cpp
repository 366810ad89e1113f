// The report of `warpscope run` on the seeds' examples: its JSON schema (docs/report.md), the
// slides' bus utilizations on --arch fermi (seed 003), --compare-arch, and the same numbers for
// any number of host threads. Expected values come from the coalescing rules of seed 003 and
// docs/mem.md, never from a previous run.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "harness.hpp"

namespace {

using rt_test::prog;
using rt_test::run_under_warpscope;

nlohmann::json report(const std::string& program, const std::string& args, const std::string& env,
                      const std::string& tag) {
  const std::string path = std::string(WARPSCOPE_RT_PROGRAMS_DIR) + "/report_" + tag + ".json";
  const auto r = run_under_warpscope(prog(program) + " " + args, path, "WARPSCOPE_QUIET=1 " + env);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return nlohmann::json::parse(rt_test::slurp(path));
}

double pct(const nlohmann::json& i) {
  return 100.0 * i["bytes_requested"].get<double>() / i["bytes_moved"].get<double>();
}

/// The global memory instructions of a launch, in pc order.
std::vector<nlohmann::json> global_instructions(const nlohmann::json& launch) {
  std::vector<nlohmann::json> out;
  for (const auto& l : launch["lines"])
    for (const auto& i : l["instructions"])
      if (i["space"] == "global") out.push_back(i);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a["pc"] < b["pc"]; });
  return out;
}

void expect_keys(const nlohmann::json& j, std::initializer_list<std::pair<const char*, nlohmann::json::value_t>> keys,
                 const std::string& where) {
  for (const auto& [k, t] : keys) {
    ASSERT_TRUE(j.contains(k)) << where << " lacks \"" << k << "\"";
    const auto v = j[k].type();
    const bool number_ok = (t == nlohmann::json::value_t::number_float || t == nlohmann::json::value_t::number_unsigned) &&
                           j[k].is_number();
    EXPECT_TRUE(v == t || number_ok) << where << "." << k << " has type " << j[k].type_name();
  }
}

using T = nlohmann::json::value_t;

TEST(Report, FollowsTheDocumentedSchema) {
  const auto j = report("saxpy", "100003", "", "schema");
  expect_keys(j, {{"tool", T::object}, {"schema_version", T::number_unsigned}, {"arch", T::string},
                  {"compare_archs", T::array}, {"gpu", T::string}, {"launches", T::array}, {"ptxas", T::object}},
              "report");
  EXPECT_EQ(j["tool"]["name"], "warpscope");
  ASSERT_EQ(j["launches"].size(), 5u);
  for (const auto& l : j["launches"]) {
    expect_keys(l, {{"index", T::number_unsigned}, {"kernel", T::string}, {"name", T::string}, {"grid", T::array},
                    {"block", T::array}, {"dynamic_shared_bytes", T::number_unsigned}, {"registers", T::number_unsigned},
                    {"metrics", T::object}, {"estimated", T::array}, {"lines", T::array}, {"advice", T::array},
                    {"compare", T::array}, {"resources", T::object}, {"occupancy", T::object},
                    {"local_arrays", T::array}, {"memcheck", T::object}},
                "launch");
    expect_keys(l["memcheck"], {{"mode", T::string}, {"errors", T::number_unsigned}, {"first", T::array}}, "memcheck");
    for (const char* m : {"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                          "lts__t_sectors_srcunit_tex_op_read.sum", "dram__bytes_read.sum", "smsp__inst_executed.sum",
                          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "launch__registers_per_thread"})
      EXPECT_TRUE(l["metrics"].contains(m)) << m;
    for (const auto& e : l["estimated"]) EXPECT_TRUE(l["metrics"].contains(e.get<std::string>())) << e;
    for (const auto& line : l["lines"]) {
      expect_keys(line, {{"file", T::string}, {"line", T::number_unsigned}, {"text", T::string},
                         {"executions", T::number_unsigned}, {"global_requests", T::number_unsigned},
                         {"global_sectors", T::number_unsigned}, {"global_ideal_sectors", T::number_unsigned},
                         {"global_excessive_sectors", T::number_unsigned}, {"l1_hit_sectors", T::number_unsigned},
                         {"shared_wavefronts", T::number_unsigned}, {"instructions", T::array}},
                  "line");
      for (const auto& i : line["instructions"]) {
        expect_keys(i, {{"pc", T::number_unsigned}, {"ptx", T::string}, {"space", T::string}, {"op", T::string},
                        {"requests", T::number_unsigned}, {"sectors", T::number_unsigned},
                        {"ideal_sectors", T::number_unsigned}, {"excessive_sectors", T::number_unsigned},
                        {"sample", T::object}},
                    "instruction");
        expect_keys(i["sample"], {{"active", T::string}, {"addresses", T::array}, {"transactions", T::array},
                                  {"unit", T::string}},
                    "sample");
        EXPECT_EQ(i["sample"]["addresses"].size(), 32u);
      }
    }
    for (const auto& a : l["advice"])
      expect_keys(a, {{"rule", T::string}, {"message", T::string}, {"evidence", T::object}}, "advice");
  }
  // The source text of saxpy1's line 19 comes with it.
  bool found = false;
  for (const auto& line : j["launches"][0]["lines"])
    if (line["line"] == 19) found = line["text"].get<std::string>().find("if (i < N) y[i] = y[i] + a * x[i];") != std::string::npos;
  EXPECT_TRUE(found);
}

TEST(Report, SaxpyOnFermiGivesTheSlidesBusUtilization) {
  // Seed 003: 100 %, 50 % (even threads only), 50 % (if/else), 100 % (loads before the branch),
  // 100 % for whole warps and 50 % for the one warp that straddles N/2. N = 100000 is a whole
  // number of warps, so no warp is cut short by the end of the array.
  const auto j = report("saxpy", "100000", "WARPSCOPE_ARCH=fermi WARPSCOPE_ANY_PTX=1", "fermi_saxpy");
  const auto& L = j["launches"];
  ASSERT_EQ(L.size(), 5u);
  EXPECT_DOUBLE_EQ(L[0]["metrics"]["global_bus_utilization_pct"].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(L[1]["metrics"]["global_bus_utilization_pct"].get<double>(), 50.0);
  // saxpy3: nvcc 13 hoists both loads above the if/else (they carry `.loc 1 0 0`), so they are
  // whole-warp loads at 100 %; the two stores keep the slide's 50 %. Overall (2 x 100 + 2 x 50) / 4.
  const auto s3 = global_instructions(L[2]);
  ASSERT_EQ(s3.size(), 4u);
  EXPECT_EQ(s3[0]["op"], "load");
  EXPECT_DOUBLE_EQ(pct(s3[0]), 100.0);
  EXPECT_DOUBLE_EQ(pct(s3[1]), 100.0);
  EXPECT_EQ(s3[2]["op"], "store");
  EXPECT_DOUBLE_EQ(pct(s3[2]), 50.0);
  EXPECT_DOUBLE_EQ(pct(s3[3]), 50.0);
  EXPECT_DOUBLE_EQ(L[2]["metrics"]["global_bus_utilization_pct"].get<double>(), 75.0);
  EXPECT_DOUBLE_EQ(L[3]["metrics"]["global_bus_utilization_pct"].get<double>(), 100.0);
  // saxpy5: each of its six global instructions (a load of y, of x and a store on each side of
  // i < N/2) runs with a partial warp exactly once: warp 1562 (threads 49984..50015), 16 lanes on
  // each side, half of each 128-byte line used; every other warp runs whole on one side.
  EXPECT_GT(L[4]["metrics"]["global_bus_utilization_pct"].get<double>(), 99.9);
  const auto s5 = global_instructions(L[4]);
  ASSERT_EQ(s5.size(), 6u);
  for (const auto& i : s5) EXPECT_EQ(i["partial_executions"], 1) << i["ptx"];
}

TEST(Report, AosSoaAndMisalignedCopiesOnFermi) {
  // A 16-byte point {x, y, z, w}, one float of it per lane: 25 % (seed 003, AoS); SoA: 100 %.
  const auto a = report("aos_soa", "65536", "WARPSCOPE_ARCH=fermi WARPSCOPE_ANY_PTX=1", "fermi_aos");
  EXPECT_DOUBLE_EQ(a["launches"][0]["metrics"]["global_bus_utilization_pct"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(a["launches"][1]["metrics"]["global_bus_utilization_pct"].get<double>(), 100.0);
  bool aos = false;
  for (const auto& adv : a["launches"][0]["advice"]) aos = aos || adv["rule"] == "aos";
  EXPECT_TRUE(aos);
  // Copies shifted by one float: a cached load takes 2 lines for 128 bytes (50 %), a store 5
  // segments (80 %); shifted by 8 floats (32 bytes) the store is aligned to its segments again.
  const auto m = report("misaligned_copy", "65536", "WARPSCOPE_ARCH=fermi WARPSCOPE_ANY_PTX=1", "fermi_copy");
  const auto shifted = global_instructions(m["launches"][1]);
  ASSERT_EQ(shifted.size(), 2u);
  EXPECT_DOUBLE_EQ(pct(shifted[0]), 50.0);
  EXPECT_EQ(shifted[0]["bytes_moved"].get<double>() / shifted[0]["requests"].get<double>(), 256.0);
  EXPECT_DOUBLE_EQ(pct(shifted[1]), 80.0);
  EXPECT_DOUBLE_EQ(pct(global_instructions(m["launches"][0])[0]), 100.0);
  bool misaligned = false;
  for (const auto& adv : m["launches"][1]["advice"]) misaligned = misaligned || adv["rule"] == "misaligned";
  EXPECT_TRUE(misaligned);
}

TEST(Report, UnpaddedRowsOnFermi) {
  // Seed 002: rows of 1000 floats (4000 bytes, 32 bytes past a 128-byte multiple) put each row's
  // warps off the 128-byte lines; rows padded to a multiple of 32 floats, or cudaMallocPitch's
  // pitch, keep every row aligned. The advice names the cause and the cure.
  const auto j = report("padding2d", "1000 300", "WARPSCOPE_ARCH=fermi WARPSCOPE_ANY_PTX=1", "fermi_pad");
  const auto& L = j["launches"];
  ASSERT_EQ(L.size(), 3u);
  const double unpadded = L[0]["metrics"]["global_bus_utilization_pct"].get<double>();
  bool advised = false;
  for (const auto& a : L[0]["advice"])
    advised = advised || (a["rule"] == "misaligned" &&
                          a["message"].get<std::string>().find("cudaMallocPitch") != std::string::npos);
  EXPECT_TRUE(advised) << L[0]["advice"];
  for (int i : {1, 2}) {
    EXPECT_GT(L[i]["metrics"]["global_bus_utilization_pct"].get<double>(), unpadded);
    for (const auto& a : L[i]["advice"]) EXPECT_NE(a["rule"], "misaligned") << i;
    // Every row starts on a 128-byte line: the only partial lines are the rows' ends
    // (1000 floats = 7 full lines and 104 bytes), so nothing moved is wasted but that tail.
    EXPECT_EQ(L[i]["metrics"]["global_excessive_sectors"], 0) << i;
  }
}

TEST(Report, CompareArchShowsFloat3AgainstFloat4OnKeplerAndHopper) {
  const auto j = report("nbody", "all 512 1", "WARPSCOPE_COMPARE_ARCH=kepler", "compare");
  ASSERT_EQ(j["compare_archs"], nlohmann::json::array({"kepler"}));
  const auto& L = j["launches"];
  ASSERT_EQ(L.size(), 5u);  // body12, float3, body16, float4, float4 + shared tiles
  for (const auto& l : L) {
    ASSERT_EQ(l["compare"].size(), 1u);
    EXPECT_EQ(l["compare"][0]["arch"], "kepler");
    // Kepler does not cache global loads in L1 (its profile, seed 003): no L1 hits at all.
    EXPECT_EQ(l["compare"][0]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"], 0);
  }
  // Line 33, `coord body_pos = p[index];`, in float3 (launch 1) and float4 (launch 3).
  auto line33 = [](const nlohmann::json& lines) {
    for (const auto& l : lines)
      if (l["line"] == 33) return l;
    ADD_FAILURE() << "no line 33";
    return nlohmann::json();
  };
  const auto h3 = line33(L[1]["lines"]), k3 = line33(L[1]["compare"][0]["lines"]);
  const auto h4 = line33(L[3]["lines"]), k4 = line33(L[3]["compare"][0]["lines"]);
  // float3: three 4-byte loads 12 bytes apart, a third of every 32-byte unit used, on both.
  EXPECT_GT(h3["global_excessive_sectors"].get<double>(), 0);
  EXPECT_GT(k3["global_excessive_sectors"].get<double>(), 0);
  EXPECT_EQ(h3["global_sectors"].get<double>(), 3 * h3["global_ideal_sectors"].get<double>());
  EXPECT_EQ(k3["global_sectors"].get<double>(), 3 * k3["global_ideal_sectors"].get<double>());
  // float4: one 16-byte load, every byte used, on both; Kepler serves 16-byte words per quarter
  // warp (4 requests per warp instruction), the H100 in one request.
  EXPECT_EQ(h4["global_excessive_sectors"], 0);
  EXPECT_EQ(k4["global_excessive_sectors"], 0);
  EXPECT_EQ(k4["global_requests"].get<double>(), 4 * h4["global_requests"].get<double>());
}

TEST(Report, SampledCtasAreScaledAndLabelled) {
  // saxpy1 on 1,000,000 elements: 3907 CTAs of 256 threads; every 10th feeds the model (391).
  // Each full CTA makes 8 warps x 3 requests; the scale is 3907 / 391.
  const auto full = report("saxpy", "1000000", "", "sample_full");
  const auto part = report("saxpy", "1000000", "WARPSCOPE_SAMPLE_CTAS=0.1", "sample_part");
  const auto& s = part["launches"][0]["sampling"];
  ASSERT_TRUE(s.is_object());
  EXPECT_EQ(s["every"], 10);
  EXPECT_EQ(s["ctas_total"], 3907);
  EXPECT_EQ(s["ctas_sampled"], 391);
  EXPECT_TRUE(full["launches"][0]["sampling"].is_null());
  const char* req = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
  const double f = full["launches"][0]["metrics"][req].get<double>(), p = part["launches"][0]["metrics"][req].get<double>();
  EXPECT_NEAR(p, f, 0.01 * f);
  bool labelled = false;
  for (const auto& e : part["launches"][0]["estimated"]) labelled = labelled || e == req;
  EXPECT_TRUE(labelled);
  // The interpreter still ran every CTA: instruction counts are the full run's.
  EXPECT_EQ(part["launches"][0]["metrics"]["smsp__inst_executed.sum"], full["launches"][0]["metrics"]["smsp__inst_executed.sum"]);
}

TEST(Report, SameNumbersForAnyHostThreadCount) {
  // Shared memory and L1 reuse (nbody), local arrays (local_arrays), misaligned global copies
  // over many CTAs (misaligned_copy): every number of the report is the same on 1, 2 and 3 threads.
  const std::pair<const char*, const char*> programs[] = {
      {"nbody", "all 512 1"}, {"local_arrays", "4096"}, {"misaligned_copy", ""}};
  for (const auto& [program, args] : programs) {
    const auto one = report(program, args, "WARPSCOPE_THREADS=1", std::string(program) + "_threads1");
    for (const char* threads : {"2", "3"}) {
      const auto many = report(program, args, std::string("WARPSCOPE_THREADS=") + threads,
                               std::string(program) + "_threads" + threads);
      ASSERT_EQ(one["launches"].size(), many["launches"].size()) << program;
      for (std::size_t i = 0; i < one["launches"].size(); ++i) {
        for (const char* key : {"metrics", "lines", "advice", "local_arrays", "compare"})
          EXPECT_EQ(one["launches"][i][key], many["launches"][i][key]) << program << " launch " << i << " " << key
                                                                        << " threads " << threads;
      }
    }
  }
}

}  // namespace
