// The examples' memory counters against Nsight Compute on an H100 (tests/hw/data/h100/examples,
// captured by tests/hw/capture_examples.sh with the arguments used here): per launch, global load
// and store requests and sectors exactly; per CUDA line, the sectors and ideal sectors of the
// Source page ("L2 Theoretical Sectors Global" and "... Ideal") exactly.
//
// Where the compiled code and the hardware's attribution differ, the test says so:
//  - saxpy3: nvcc hoists the loads of x[i] and y[i] above the if/else and marks them `.loc 1 0 0`
//    in the PTX (no source line). warpscope reports them on line 0 with their PTX; Nsight Compute
//    puts the SASS on line 30 (`if (i < N)`). The numbers are the same.
//  - local memory: ptxas decides which PTX local arrays stay in registers, so local counters are
//    the registers issue's (tests/analysis); instruction counts are PTX's, not SASS's.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "../hw/ncu_csv.hpp"

namespace {

using rt_test::prog;
using rt_test::run_under_warpscope;

using ncu_csv::number;
std::vector<std::string> csv_fields(const std::string& line) { return ncu_csv::fields(line); }

std::string data_file(const std::string& name) {
  return std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h100/examples/" + name;
}

/// ncu --csv --page raw of an example: one row per launch.
std::vector<ncu_csv::Row> ncu_launches(const std::string& example) {
  return ncu_csv::launches(data_file(example + "_metrics.csv"));
}

struct LineCounts {
  double sectors = 0, ideal = 0;
  bool operator==(const LineCounts&) const = default;
};

/// The Source page: one block per launch ("Function Name"), CUDA line rows with a line number.
std::vector<std::map<int, LineCounts>> ncu_lines(const std::string& example) {
  std::ifstream in(data_file(example + "_source.csv"));
  std::vector<std::map<int, LineCounts>> blocks;
  std::vector<std::string> header;
  for (std::string line; std::getline(in, line);) {
    auto f = csv_fields(line);
    if (f.size() == 2 && f[0] == "Function Name") {
      blocks.emplace_back();
      continue;
    }
    if (!f.empty() && f[0] == "Line No") {
      header = f;
      continue;
    }
    if (blocks.empty() || header.empty() || f.size() != header.size() || f[0].empty()) continue;
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < f.size(); ++i) row.emplace(header[i], f[i]);
    const std::string s = row["L2 Theoretical Sectors Global"], id = row["L2 Theoretical Sectors Global Ideal"];
    if (s.empty() || s == "-" || s == "0") continue;
    blocks.back()[std::stoi(f[0])] = LineCounts{number(s), number(id)};
  }
  return blocks;
}

struct Example {
  const char* name;
  const char* args;
};

class ExamplesVsNcu : public ::testing::TestWithParam<Example> {};

TEST_P(ExamplesVsNcu, GlobalRequestsAndSectorsPerLaunchAndLine) {
  const Example& e = GetParam();
  const std::string report = std::string(WARPSCOPE_RT_PROGRAMS_DIR) + "/ncu_" + e.name + ".json";
  const auto r = run_under_warpscope(prog(e.name) + " " + e.args, report, "WARPSCOPE_QUIET=1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(rt_test::slurp(report));
  const auto& launches = j["launches"];
  const auto hw = ncu_launches(e.name);
  ASSERT_EQ(launches.size(), hw.size()) << "launches in " << e.name << "_metrics.csv";
  const char* kMetrics[] = {
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"};
  for (std::size_t i = 0; i < hw.size(); ++i) {
    for (const char* m : kMetrics) {
      ASSERT_TRUE(hw[i].count(m)) << m;
      EXPECT_EQ(launches[i]["metrics"][m].get<double>(), number(hw[i].at(m)))
          << e.name << " launch " << i << " (" << launches[i]["name"] << "): " << m;
    }
  }
  const auto hw_lines = ncu_lines(e.name);
  ASSERT_EQ(hw_lines.size(), launches.size()) << "launch blocks in " << e.name << "_source.csv";
  for (std::size_t i = 0; i < hw_lines.size(); ++i) {
    std::map<int, LineCounts> ours;
    for (const auto& ln : launches[i]["lines"]) {
      if (ln["global_sectors"].get<double>() == 0) continue;
      ours[ln["line"].get<int>()] = LineCounts{ln["global_sectors"].get<double>(), ln["global_ideal_sectors"].get<double>()};
    }
    std::map<int, LineCounts> want = hw_lines[i];
    if (std::string(e.name) == "saxpy" && i == 2) {
      // The hoisted loads: line 0 in the PTX, line 30 on the Source page (see the top).
      ASSERT_TRUE(want.count(30));
      want[0] = want[30];
      want.erase(30);
    }
    EXPECT_EQ(ours.size(), want.size()) << e.name << " launch " << i;
    for (const auto& [line, c] : want) {
      ASSERT_TRUE(ours.count(line)) << e.name << " launch " << i << " line " << line;
      EXPECT_EQ(ours[line].sectors, c.sectors) << e.name << " launch " << i << " line " << line;
      EXPECT_EQ(ours[line].ideal, c.ideal) << e.name << " launch " << i << " line " << line;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    H100, ExamplesVsNcu,
    ::testing::Values(Example{"nbody", "all 512 1"}, Example{"saxpy", "100003"}, Example{"local_arrays", "8192"},
                      Example{"aos_soa", "65536"}, Example{"padding2d", "1000 300"},
                      Example{"misaligned_copy", "65536"}),
    [](const ::testing::TestParamInfo<Example>& p) { return std::string(p.param.name); });

}  // namespace

// ---- Registers and local memory (seeds 000 and 001) ------------------------------------------
namespace {

nlohmann::json report_of(const std::string& program, const std::string& args, const std::string& tag) {
  const std::string report = std::string(WARPSCOPE_RT_PROGRAMS_DIR) + "/local_" + tag + ".json";
  const auto r = run_under_warpscope(prog(program) + " " + args, report, "WARPSCOPE_QUIET=1");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  return nlohmann::json::parse(rt_test::slurp(report));
}

const nlohmann::json& launch_named(const nlohmann::json& j, const std::string& prefix) {
  for (const auto& l : j["launches"])
    if (l["name"].get<std::string>().rfind(prefix, 0) == 0) return l;
  static const nlohmann::json none;
  ADD_FAILURE() << "no launch of " << prefix;
  return none;
}

double metric(const nlohmann::json& l, const char* name) { return l["metrics"][name].get<double>(); }

TEST(LocalArrays, RegistersStackAndLocalTrafficAsPtxasAndTheH100Say) {
  const nlohmann::json j = report_of("local_arrays", "8192", "arrays");
  const auto hw = ncu_launches("local_arrays");  // launch order: kernel1..4, lap
  ASSERT_EQ(hw.size(), 5u);
  // Registers: tests/hw/data/h100/examples/local_arrays_ptxas.txt (ptxas 13.0.88 on the H100 machine).
  const std::pair<const char*, int> regs[] = {{"kernel1", 10}, {"kernel2", 9}, {"kernel3", 31}, {"kernel4", 14}, {"lap", 16}};
  for (const auto& [k, n] : regs) EXPECT_EQ(launch_named(j, k)["resources"]["registers"], n) << k;
  // Static indices, the unrolled loop and the 3-element array: no local memory at all (H100: 0).
  for (const char* k : {"kernel1", "kernel2", "lap"}) {
    const auto& l = launch_named(j, k);
    EXPECT_EQ(l["resources"]["stack_frame_bytes"], 0) << k;
    EXPECT_TRUE(l["local_arrays"].empty()) << k;
    EXPECT_EQ(metric(l, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum"), 0) << k;
    EXPECT_EQ(metric(l, "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"), 0) << k;
  }
  // kernel3, the uniform index: the H100's local requests and sectors exactly.
  const auto& k3 = launch_named(j, "kernel3");
  for (const char* m : {"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
                        "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"})
    EXPECT_EQ(metric(k3, m), number(hw[2].at(m))) << "kernel3 " << m;
  EXPECT_EQ(k3["resources"]["stack_frame_bytes"], 24);
  ASSERT_EQ(k3["local_arrays"].size(), 1u);
  const auto& a3 = k3["local_arrays"][0];
  EXPECT_EQ(a3["bytes"], 24);  // float a[6]
  EXPECT_EQ(a3["depot_offset"], 0);
  EXPECT_EQ(a3["line"], 39);  // `for (...) a[i] = buf[tid] * (i + 1);` first writes it
  ASSERT_FALSE(a3["dynamic_accesses"].empty());
  for (const auto& d : a3["dynamic_accesses"]) {
    EXPECT_EQ(d["line"], 41);  // `sum += a[i]` with i from start_index
    EXPECT_EQ(d["index"], "uniform");
    EXPECT_EQ(d["sectors_per_request"], 4.0);  // seed 000: coalesced, 4 sectors for 4-byte words
  }
  // kernel4, the per-thread index: the H100's local requests and sectors exactly. ptxas unrolls
  // the loop by 4 with 2- and 1-wide blocks after it, so the loads are the machine code's (lane
  // groupings): 1792 requests of 9.7 sectors, where the PTX loop makes 1536 of 12.
  const auto& k4 = launch_named(j, "kernel4");
  for (const char* m : {"l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
                        "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"})
    EXPECT_EQ(metric(k4, m), number(hw[3].at(m))) << "kernel4 " << m;
  ASSERT_EQ(k4["local_arrays"].size(), 1u);
  const auto& d4 = k4["local_arrays"][0]["dynamic_accesses"];
  ASSERT_EQ(d4.size(), 1u);
  EXPECT_EQ(d4[0]["line"], 51);
  EXPECT_EQ(d4[0]["index"], "per-thread");
  EXPECT_GT(d4[0]["sectors_per_request"].get<double>(), 4.0);
  bool advised = false;
  for (const auto& a : k4["advice"])
    if (a["rule"] == "local_memory" && a["line"] == 51) advised = true;
  EXPECT_TRUE(advised) << k4["advice"];
  // Math to memory: the kernel's memory instructions are its global and local ones; kernel3's
  // summing loop (line 41) executes all of its local loads.
  for (const auto& l : j["launches"]) {
    double mem = 0;
    for (const char* sp : {"global", "local"})
      for (const char* op : {"ld", "st", "atom", "red"}) {
        const std::string m = std::string("smsp__sass_inst_executed_op_") + sp + "_" + op + ".sum";
        if (l["metrics"].contains(m)) mem += l["metrics"][m].get<double>();
      }
    EXPECT_EQ(l["math_to_memory"]["kernel"]["memory_instructions"].get<double>(), mem) << l["name"];
    // PTX counts (smsp__inst_executed.sum counts the machine code: docs/analysis.md).
    EXPECT_EQ(l["math_to_memory"]["kernel"]["instructions"], l["metrics"]["ptx_instructions"]) << l["name"];
    // The per-line counts add up to the launch's (every executed instruction has a line entry).
    double warp = 0, thread = 0;
    for (const auto& line : l["lines"]) {
      warp += line["executions"].get<double>();
      thread += line["thread_executions"].get<double>();
    }
    EXPECT_EQ(warp, l["metrics"]["ptx_instructions"].get<double>()) << l["name"];
    EXPECT_EQ(thread, l["metrics"]["ptx_thread_instructions"].get<double>()) << l["name"];
  }
  bool loop41 = false;
  for (const auto& loop : k3["math_to_memory"]["loops"])
    if (loop["line"] == 41)
      loop41 = loop["memory_instructions"] == k3["metrics"]["smsp__sass_inst_executed_op_local_ld.sum"];
  EXPECT_TRUE(loop41) << k3["math_to_memory"];
}

TEST(LocalArrays, SpillingKernelReportsPtxasFiguresAndEstimatedTraffic) {
  const nlohmann::json j = report_of("spill", "8192", "spill");
  // ptxas -v for examples/spill.cu (sm_90, nvcc 13.0): spill: 32 registers, 512 bytes stack frame,
  // 1048 bytes spill stores, 1048 bytes spill loads; no_spill: 128 registers, no stack.
  const auto& s = launch_named(j, "spill");
  EXPECT_EQ(s["resources"]["registers"], 32);
  EXPECT_EQ(s["resources"]["stack_frame_bytes"], 512);
  EXPECT_EQ(s["resources"]["spill_store_bytes"], 1048);
  EXPECT_EQ(s["resources"]["spill_load_bytes"], 1048);
  EXPECT_EQ(metric(s, "local_spill_store_bytes_estimated"), 8192.0 * 1048);
  EXPECT_EQ(metric(s, "local_spill_load_sectors_estimated"), 8192.0 * 1048 / 32);
  bool estimated = false;
  for (const auto& e : s["estimated"]) estimated = estimated || e == "local_spill_store_bytes_estimated";
  EXPECT_TRUE(estimated);
  bool advised = false;
  for (const auto& a : s["advice"]) advised = advised || a["rule"] == "spill";
  EXPECT_TRUE(advised);
  // The spill instructions read from ptxas's machine code (src/analysis/sass.hpp) are ptxas's own
  // figures: their widths add up to its 1048 bytes of spill stores and 1048 of spill loads per
  // thread. The PTX has no local memory here, so they are all of the launch's local requests.
  std::map<std::string, std::uint64_t> spill_bytes;
  std::uint64_t spill_requests = 0;
  for (const auto& line : s["lines"]) {
    for (const auto& in : line["instructions"]) {
      if (in["ptx"].get<std::string>().find("// register spill") == std::string::npos) continue;
      spill_bytes[in["op"].get<std::string>()] += in["width"].get<std::uint64_t>();
      spill_requests += in["requests"].get<std::uint64_t>();
    }
  }
  EXPECT_EQ(spill_bytes, (std::map<std::string, std::uint64_t>{{"load", 1048}, {"store", 1048}}));
  EXPECT_EQ(static_cast<double>(spill_requests), metric(s, "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum") +
                                metric(s, "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"));
  EXPECT_GT(spill_requests, 0u);
  const auto& n = launch_named(j, "no_spill");
  EXPECT_EQ(n["resources"]["registers"], 128);
  EXPECT_EQ(n["resources"]["stack_frame_bytes"], 0);
  // Seed 001's arithmetic on the H100's 64K registers: 128 registers per thread hold 512 threads.
  EXPECT_EQ(n["occupancy"]["limited_by"], "registers");
  EXPECT_EQ(n["occupancy"]["occupancy_pct"], 25.0);
}

}  // namespace
