// The .ncu-rep writer and reader (src/export/ncu_rep.hpp). Expected values come from the report
// below and the documented layout (docs/report.md "Nsight Compute's report file"): the framing is
// checked byte by byte with a protobuf field scanner written here, not with the code under test.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <map>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "export/ncu_rep.hpp"

namespace warpscope::ncurep {
namespace {

namespace fs = std::filesystem;

// Two profiled launches of saxpy1 (the second on a created stream) and one the filter left out,
// with a --compare-arch kepler entry on each profiled launch.
const nlohmann::json& sample() {
  static const nlohmann::json j = nlohmann::json::parse(R"json({
    "tool": {"name": "warpscope", "version": "0.2.0"},
    "arch": "hopper", "compare_archs": ["kepler"], "gpu": "NVIDIA H100 80GB HBM3 (modelled)",
    "launches": [
      {"index": 0, "kernel": "_Z6saxpy1PfS_fm", "grid": [391, 1, 1], "block": [256, 1, 1],
       "dynamic_shared_bytes": 0, "stream": 0, "module": "m", "profiled": true,
       "metrics": {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 12336,
                   "gpu__time_duration.sum": 86492.3, "global_requests": 7},
       "compare": [{"arch": "kepler", "metrics": {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 3084,
                                                  "gpu__time_duration.sum": 120000.5}}]},
      {"index": 1, "kernel": "_Z6saxpy1PfS_fm", "grid": [2, 1, 1], "block": [32, 1, 1],
       "dynamic_shared_bytes": 0, "stream": 0, "profiled": false,
       "metrics": {"smsp__inst_executed.sum": 10}},
      {"index": 2, "kernel": "_Z6saxpy1PfS_fm", "grid": [4, 2, 1], "block": [64, 2, 1],
       "dynamic_shared_bytes": 128, "stream": 2, "module": "m", "profiled": true,
       "metrics": {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 64, "gpu__time_duration.sum": 2000},
       "compare": [{"arch": "kepler", "metrics": {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum": 16}}]}
    ]})json");
  return j;
}

std::vector<ExportProfile> profiles() {
  ExportProfile h;
  h.name = "hopper";
  h.gpu = "NVIDIA H100 80GB HBM3 (modelled)";
  h.cc_major = 9;
  h.cc_minor = 0;
  h.device_attributes = {{"device__attribute_multiprocessor_count", 132}};
  ExportProfile k;
  k.name = "kepler";
  k.gpu = "NVIDIA Tesla K20c (modelled)";
  k.cc_major = 3;
  k.cc_minor = 5;
  return {h, k};
}

ExportContext context() {
  ExportContext c;
  c.pid = 4242;
  c.process = "saxpy";
  c.executable = "/tmp/saxpy";
  c.creation_time_ns = 1700000000000000000ull;
  return c;
}

std::vector<std::uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

std::uint32_t u32_at(const std::string& s, std::size_t at) {
  return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 8 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 16 |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 3])) << 24;
}

/// The varint fields (wire type 0) of one protobuf message, by field number; other wire types
/// skipped (protobuf's encoding: a key varint of number << 3 | wire type).
std::map<std::uint32_t, std::uint64_t> varint_fields(const std::string& m) {
  std::map<std::uint32_t, std::uint64_t> out;
  std::size_t i = 0;
  auto varint = [&] {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const auto b = static_cast<unsigned char>(m.at(i++));
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if ((b & 0x80) == 0) return v;
    }
  };
  while (i < m.size()) {
    const std::uint64_t key = varint();
    const auto field = static_cast<std::uint32_t>(key >> 3);
    switch (key & 7) {
      case 0: out[field] = varint(); break;
      case 1: i += 8; break;
      case 2: i += varint(); break;
      case 5: i += 4; break;
      default: ADD_FAILURE() << "wire type " << (key & 7); return out;
    }
  }
  return out;
}

TEST(NcuRep, ReportPathAppendsTheExtensionOnce) {
  EXPECT_EQ(report_path("saxpy"), "saxpy.ncu-rep");
  EXPECT_EQ(report_path("out/saxpy.ncu-rep"), "out/saxpy.ncu-rep");
  EXPECT_EQ(report_path("a.ncu"), "a.ncu.ncu-rep");
}

TEST(NcuRep, FramingIsMagicHeaderThenBlocksOfSizedMessages) {
  const std::string f = write_report(sample(), profiles(), context());
  ASSERT_GE(f.size(), 10u);
  EXPECT_EQ(f.substr(0, 4), std::string("NVR\0", 4));
  // FileHeader {Version = 7}: key 0x08 (field 1, varint), then 7.
  EXPECT_EQ(u32_at(f, 4), 2u);
  EXPECT_EQ(static_cast<unsigned char>(f[8]), 0x08);
  EXPECT_EQ(static_cast<unsigned char>(f[9]), 0x07);
  std::size_t at = 10;
  std::vector<std::uint64_t> results_per_block;
  while (at < f.size()) {
    const std::uint32_t header_size = u32_at(f, at);
    const auto header = varint_fields(f.substr(at + 4, header_size));
    at += 4 + header_size;
    EXPECT_EQ(header.at(1), 0u);  // NumSources
    const std::uint64_t payload = header.at(5);
    std::size_t p = 0, results = 0;
    while (p < payload) {
      const std::uint32_t n = u32_at(f, at + p);
      const auto r = varint_fields(f.substr(at + p + 4, n));
      EXPECT_EQ(r.at(1), 4242u);  // ThreadID: the program's main thread
      EXPECT_EQ(r.at(8), 3u);     // WorkDimensions
      p += 4 + n;
      ++results;
    }
    EXPECT_EQ(p, payload);
    EXPECT_EQ(header.at(2), results);  // NumResults
    results_per_block.push_back(results);
    at += payload;
  }
  EXPECT_EQ(at, f.size());
  // One block per profile, one result per profiled launch (launch 1 was left out by the filter).
  EXPECT_EQ(results_per_block, (std::vector<std::uint64_t>{2, 2}));
}

TEST(NcuRep, ReadsBackNamesShapesStreamsAndMetrics) {
  const Report r = read_report(bytes_of(write_report(sample(), profiles(), context())), "sample");
  EXPECT_EQ(r.version, kFileVersion);
  EXPECT_EQ(r.blocks, 2u);
  ASSERT_EQ(r.results.size(), 4u);
  const Result& a = r.results[0];
  EXPECT_EQ(a.mangled, "_Z6saxpy1PfS_fm");
  EXPECT_EQ(a.function, "saxpy1");
  EXPECT_EQ(a.demangled, "saxpy1(float *, float *, float, unsigned long)");
  EXPECT_EQ(a.grid, (std::array<std::uint64_t, 3>{391, 1, 1}));
  EXPECT_EQ(a.block_size, (std::array<std::uint64_t, 3>{256, 1, 1}));
  EXPECT_EQ(a.stream, 7u);  // the legacy default stream, as ncu numbers it
  EXPECT_EQ(a.context, 1u);
  EXPECT_EQ(a.pid, 4242u);
  EXPECT_EQ(a.process, "saxpy");
  ASSERT_NE(a.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), nullptr);
  EXPECT_EQ(a.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")->kind, Value::Kind::kUint64);
  EXPECT_EQ(a.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")->number, 12336);
  EXPECT_EQ(a.find("gpu__time_duration.sum")->kind, Value::Kind::kDouble);
  EXPECT_DOUBLE_EQ(a.find("gpu__time_duration.sum")->number, 86492.3);
  EXPECT_EQ(a.find("global_requests"), nullptr);  // warpscope's own figures have no ncu name
  EXPECT_EQ(a.find("launch__grid_size")->number, 391);
  EXPECT_EQ(a.find("launch__thread_count")->number, 391 * 256);
  EXPECT_EQ(a.find("device__attribute_display_name")->text, "NVIDIA H100 80GB HBM3 (modelled)");
  EXPECT_EQ(a.find("device__attribute_compute_capability_major")->number, 9);
  EXPECT_EQ(a.find("device__attribute_multiprocessor_count")->number, 132);
  EXPECT_EQ(a.find("warpscope_profile")->text, "hopper");
  EXPECT_NE(a.comments.find("predicted"), std::string::npos);
  EXPECT_NE(std::find(a.sections.begin(), a.sections.end(), "SpeedOfLight"), a.sections.end());

  const Result& b = r.results[1];  // launch 2, on the program's first created stream
  EXPECT_EQ(b.grid, (std::array<std::uint64_t, 3>{4, 2, 1}));
  EXPECT_EQ(b.block_size, (std::array<std::uint64_t, 3>{64, 2, 1}));
  EXPECT_EQ(b.stream, 14u);
  EXPECT_EQ(b.find("launch__shared_mem_per_block_dynamic")->number, 128);

  const Result& k = r.results[2];  // the kepler block: the compare entry's numbers
  EXPECT_EQ(k.block, 1u);
  EXPECT_EQ(k.find("warpscope_profile")->text, "kepler");
  EXPECT_EQ(k.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")->number, 3084);
  EXPECT_DOUBLE_EQ(k.find("gpu__time_duration.sum")->number, 120000.5);
  EXPECT_EQ(k.find("device__attribute_device_index")->number, 1);
  EXPECT_EQ(k.find("device__attribute_compute_capability_minor")->number, 5);
  EXPECT_EQ(r.results[3].find("gpu__time_duration.sum"), nullptr);  // kepler has no time for launch 2

  ASSERT_EQ(r.devices.size(), 2u);
  EXPECT_EQ(r.devices[1].name, "NVIDIA Tesla K20c (modelled)");
  ASSERT_EQ(r.tools.size(), 1u);
  EXPECT_EQ(r.tools[0], (std::pair<std::string, std::string>{"warpscope", "0.2.0"}));
}

// Source counters: a launch's lines (and their memory instructions) become instanced metrics,
// keyed "FILE:LINE" per line and by the PTX instruction's pc per instruction; the compared
// profile's block takes the compare entry's lines. The numbers are a hand-made launch's.
TEST(NcuRep, WritesSourceCountersAsInstancedMetrics) {
  const auto j = nlohmann::json::parse(R"json({
    "tool": {"name": "warpscope", "version": "0.2.0"}, "arch": "hopper", "compare_archs": ["kepler"],
    "launches": [{"index": 0, "kernel": "_Z1kPf", "grid": [1, 1, 1], "block": [64, 1, 1], "stream": 0,
      "profiled": true, "metrics": {"smsp__inst_executed.sum": 12},
      "lines": [
        {"file": "/k.cu", "line": 3, "executions": 4, "thread_executions": 128},
        {"file": "/k.cu", "line": 4, "executions": 8, "thread_executions": 256, "global_requests": 2,
         "global_sectors": 10, "global_ideal_sectors": 8, "global_excessive_sectors": 2,
         "shared_wavefronts": 4, "shared_ideal_wavefronts": 2, "shared_excess_wavefronts": 2,
         "instructions": [
           {"pc": 7, "space": "global", "executions": 2, "active_lanes": 64, "requests": 2, "sectors": 10,
            "ideal_sectors": 8, "excessive_sectors": 2, "l1_tag_requests": 3},
           {"pc": 9, "space": "shared", "executions": 2, "active_lanes": 64, "wavefronts": 4,
            "ideal_wavefronts": 2},
           {"pc": 11, "space": "local", "executions": 2, "active_lanes": 64, "requests": 2, "sectors": 8}]}],
      "compare": [{"arch": "kepler", "metrics": {},
                   "lines": [{"file": "/k.cu", "line": 4, "executions": 8, "global_sectors": 20}]}]}]})json");
  const Report r = read_report(bytes_of(write_report(j, profiles(), context())), "lines");
  ASSERT_EQ(r.results.size(), 2u);
  const Result& h = r.results[0];
  using Pairs = std::vector<std::pair<std::string, double>>;
  auto pairs = [](const Result& res, const std::string& name) {
    Pairs out;
    if (const auto* list = res.find_instances(name))
      for (const auto& [k, v] : *list)
        out.emplace_back(k.kind == Value::Kind::kString ? k.text : std::to_string(static_cast<long>(k.number)),
                         v.number);
    return out;
  };
  EXPECT_EQ(pairs(h, "warpscope__line_inst_executed"), (Pairs{{"/k.cu:3", 4}, {"/k.cu:4", 8}}));
  EXPECT_EQ(pairs(h, "warpscope__line_thread_inst_executed"), (Pairs{{"/k.cu:3", 128}, {"/k.cu:4", 256}}));
  EXPECT_EQ(pairs(h, "warpscope__line_requests_global"), (Pairs{{"/k.cu:3", 0}, {"/k.cu:4", 2}}));
  EXPECT_EQ(pairs(h, "warpscope__line_sectors_global"), (Pairs{{"/k.cu:3", 0}, {"/k.cu:4", 10}}));
  EXPECT_EQ(pairs(h, "warpscope__line_sectors_global_excessive"), (Pairs{{"/k.cu:3", 0}, {"/k.cu:4", 2}}));
  EXPECT_EQ(pairs(h, "warpscope__line_wavefronts_shared"), (Pairs{{"/k.cu:3", 0}, {"/k.cu:4", 4}}));
  EXPECT_EQ(pairs(h, "warpscope__line_wavefronts_shared_excessive"), (Pairs{{"/k.cu:3", 0}, {"/k.cu:4", 2}}));
  EXPECT_EQ(pairs(h, "inst_executed"), (Pairs{{"7", 2}, {"9", 2}, {"11", 2}}));
  EXPECT_EQ(pairs(h, "thread_inst_executed"), (Pairs{{"7", 64}, {"9", 64}, {"11", 64}}));
  EXPECT_EQ(pairs(h, "memory_l1_tag_requests_global"), (Pairs{{"7", 3}}));  // the lines, not the requests
  EXPECT_EQ(pairs(h, "memory_l2_theoretical_sectors_global"), (Pairs{{"7", 10}}));
  EXPECT_EQ(pairs(h, "memory_l2_theoretical_sectors_global_ideal"), (Pairs{{"7", 8}}));
  EXPECT_EQ(pairs(h, "derived__memory_l2_theoretical_sectors_global_excessive"), (Pairs{{"7", 2}}));
  EXPECT_EQ(pairs(h, "memory_l2_theoretical_sectors_local"), (Pairs{{"11", 8}}));
  EXPECT_EQ(pairs(h, "memory_l1_wavefronts_shared"), (Pairs{{"9", 4}}));
  EXPECT_EQ(pairs(h, "memory_l1_wavefronts_shared_ideal"), (Pairs{{"9", 2}}));
  EXPECT_EQ(pairs(h, "derived__memory_l1_wavefronts_shared_excessive"), (Pairs{{"9", 2}}));
  EXPECT_EQ(h.find("inst_executed"), nullptr);  // not a launch metric
  EXPECT_EQ(raw_csv(r).find("warpscope__line"), std::string::npos);
  EXPECT_EQ(report_json(r)["results"][0]["instances"]["memory_l2_theoretical_sectors_global"],
            nlohmann::json::parse("[[7, 10]]"));
  // kepler: its own lines; counters that are zero on every line are left out.
  const Result& k = r.results[1];
  EXPECT_EQ(pairs(k, "warpscope__line_sectors_global"), (Pairs{{"/k.cu:4", 20}}));
  EXPECT_EQ(k.find_instances("warpscope__line_requests_global"), nullptr);
  EXPECT_EQ(k.find_instances("inst_executed"), nullptr);
}

TEST(NcuRep, RawCsvPrintsTheValuesAsRunCsvDoes) {
  const Report r = read_report(bytes_of(write_report(sample(), profiles(), context())), "sample");
  const std::string csv = raw_csv(r);
  const std::string first = csv.substr(0, csv.find('\n'));
  EXPECT_EQ(first.rfind("\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
                        "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",",
                        0),
            0u);
  // ncu_number: thousands separators, two decimals for a fraction.
  EXPECT_NE(csv.find("\"0\",\"4242\",\"saxpy\",\"127.0.0.1\",\"saxpy1(float *, float *, float, unsigned long)\",\"1\","
                     "\"7\",\"(256, 1, 1)\",\"(391, 1, 1)\",\"0\",\"9.0\""),
            std::string::npos);
  EXPECT_NE(csv.find("\"86,492.30\""), std::string::npos);
  EXPECT_NE(csv.find("\"12,336\""), std::string::npos);
  EXPECT_NE(csv.find("\"2\",\"4242\",\"saxpy\",\"127.0.0.1\",\"saxpy1(float *, float *, float, unsigned long)\",\"1\","
                     "\"7\",\"(256, 1, 1)\",\"(391, 1, 1)\",\"1\",\"3.5\""),
            std::string::npos);
}

TEST(NcuRep, CompareSetsMeasuredBesidePredicted) {
  // A "measured" report: the same launches with other numbers.
  nlohmann::json gpu = sample();
  gpu["launches"][0]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] = 24672;
  gpu["launches"][0]["metrics"]["gpu__time_duration.sum"] = 100000;
  gpu["compare_archs"] = nlohmann::json::array();
  const Report measured = read_report(bytes_of(write_report(gpu, {profiles()[0]}, context())), "gpu");
  const std::string csv = compare_text(measured, sample(), {}, true);
  EXPECT_NE(csv.find("\"0\",\"saxpy1(float *, float *, float, unsigned long)\",\"(256, 1, 1)\",\"(391, 1, 1)\","
                     "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"sector\",\"24,672\",\"12,336\",\"0.500\""),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\"gpu__time_duration.sum\",\"ns\",\"100,000\",\"86,492.30\",\"0.865\""), std::string::npos) << csv;
  // Launch 2 pairs with the second result of the kernel (launch 1 was not profiled).
  EXPECT_NE(csv.find("\"1\",\"saxpy1(float *, float *, float, unsigned long)\",\"(64, 2, 1)\",\"(4, 2, 1)\","
                     "\"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum\",\"sector\",\"64\",\"64\",\"1.000\""),
            std::string::npos)
      << csv;
}

TEST(NcuRep, RejectsWhatIsNotTheFormat) {
  try {
    (void)read_report(bytes_of(std::string("PK\3\4rest", 8)), "x.zip");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not an Nsight Compute report"), std::string::npos);
  }
  const std::string f = write_report(sample(), profiles(), context());
  try {
    (void)read_report(bytes_of(f.substr(0, f.size() - 3)), "cut.ncu-rep");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kIo);
    EXPECT_NE(std::string(e.what()).find("the file ends inside the block payload"), std::string::npos) << e.what();
  }
}

// A real GPU's report: `ncu --set basic -c 3` of tests/hw/ncu_cli/ncu_cli_probe.cu on the H200 with
// Nsight Compute 2025.3 (tests/hw/data/h200/ncurep, capture_ncurep.sh). Its FileHeader version is 7,
// the one warpscope writes; its three results and their durations are ncu's own CSV of the same
// file (probe_raw.csv: 5.376, 19.232 and 9.152 us).
TEST(NcuRep, ImportsARealReport) {
  const fs::path file = fs::path(WARPSCOPE_SOURCE_DIR) / "tests/hw/data/h200/ncurep/probe.ncu-rep";
  const Report r = read_report_file(file.string());
  EXPECT_EQ(r.version, 7u);
  EXPECT_EQ(r.version, kFileVersion);
  ASSERT_EQ(r.results.size(), 3u);
  const char* names[] = {"_Z11copy_kernelPfPKfi", "_Z15transpose_naivePfPKfi", "_Z15transpose_tiledPfPKfi"};
  const double ns[] = {5376, 19232, 9152};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(r.results[i].mangled, names[i]) << i;
    const auto* t = r.results[i].find("gpu__time_duration.sum");
    ASSERT_NE(t, nullptr) << i;
    EXPECT_EQ(t->as_number(), ns[i]) << i;
  }
  EXPECT_EQ(r.results[0].grid[0], 4096u);
  EXPECT_EQ(r.results[1].grid[0], 32u);
  EXPECT_EQ(r.results[1].grid[1], 32u);
}

// Nsight Compute itself reads the file: its raw page has the kernel and the values.
TEST(NcuRep, NcuImportsIt) {
  if (std::system("command -v ncu >/dev/null 2>&1") != 0) GTEST_SKIP() << "ncu (Nsight Compute) is not installed";
  const fs::path file = fs::temp_directory_path() / ("warpscope_ncu_rep_test_" + std::to_string(getpid()) + ".ncu-rep");
  write_report_file(file.string(), sample(), profiles(), context());
  const std::string cmd = "ncu --import '" + file.string() + "' --page raw --csv 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  pclose(p);
  fs::remove(file);
  EXPECT_NE(out.find("saxpy1(float *, float *, float, unsigned long)"), std::string::npos) << out;
  EXPECT_NE(out.find("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"), std::string::npos) << out;
  // ncu 2025.3 separates thousands in CSV, 2022.3 does not.
  EXPECT_TRUE(out.find("\"86,492.30\"") != std::string::npos || out.find("\"86492.30\"") != std::string::npos) << out;
  EXPECT_TRUE(out.find("\"12,336\"") != std::string::npos || out.find("\"12336\"") != std::string::npos) << out;
}

}  // namespace
}  // namespace warpscope::ncurep
