// cudaFuncGetAttributes under warpscope's libcudart.so.13 reports ptxas's figures
// (src/analysis/ptxas.hpp through Runtime::resources): numRegs = registers, localSizeBytes = stack
// frame, sharedSizeBytes = smem. Checked against ptxas -v run here on the PTX the program carries,
// and against the GPU's own answers (tests/hw/data/h200/func_attrs.csv, the occupancy section of
// tests/hw/data/h100/runtime_probe.csv) when the local ptxas is the version they were built with.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "analysis/ptxas.hpp"
#include "harness.hpp"
#include "common/elf_file.hpp"
#include "runtime/fatbin.hpp"

namespace ptxas = warpscope::analysis::ptxas;
namespace fb = warpscope::runtime::fatbin;
namespace fs = std::filesystem;
using rt_test::prog;
using rt_test::run_under_warpscope;

namespace {

/// The ptxas version the H100/H200 captures were built with (tests/hw/data/h100/versions.txt).
constexpr const char* kCaptureVersion = "V13.0.88";

std::vector<std::vector<std::string>> csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> f;
    std::stringstream ls(line);
    std::string cell;
    while (std::getline(ls, cell, ',')) f.push_back(cell);
    rows.push_back(f);
  }
  return rows;
}

/// The PTX warpscope runs for `program` (the profile hopper: compute_90).
std::string program_ptx(const std::string& program) {
  const auto bytes = warpscope::read_file_bytes(prog(program));
  warpscope::ElfFile elf(std::span<const std::uint8_t>(bytes), program);
  const auto sec = elf.section(".nv_fatbin");
  if (!sec) return "";
  const auto fatbins = fb::parse_all(elf.section_bytes(*sec), program);
  const fb::Entry* e = fb::choose_ptx(fatbins, 9, 0, nullptr);
  return e == nullptr ? "" : fb::contents(*e);
}

std::string ptxas_version(const std::string& path) {
  std::string out;
  if (FILE* p = ::popen((path + " --version").c_str(), "r")) {
    char buf[256];
    while (std::fgets(buf, sizeof buf, p)) out += buf;
    ::pclose(p);
  }
  return out;
}

/// The section of the runtime probe's output that starts with "# name".
std::string section(const std::string& text, const std::string& name) {
  const auto at = text.find("# " + name + "\n");
  if (at == std::string::npos) return "";
  const auto start = at + name.size() + 3;
  const auto end = text.find("\n# ", start);
  return text.substr(start, end == std::string::npos ? std::string::npos : end + 1 - start);
}

class FuncAttributes : public ::testing::Test {
 protected:
  void SetUp() override {
    const ptxas::Located found = ptxas::find_ptxas();
    if (!found.found()) GTEST_SKIP() << found.reason;
    ptxas_ = found.path;
    cache_ = fs::path(WARPSCOPE_RT_PROGRAMS_DIR) / (".ptxas_cache_" + std::to_string(getpid()));
    fs::remove_all(cache_);
  }
  void TearDown() override {
    if (!cache_.empty()) fs::remove_all(cache_);
  }
  std::string env() const { return "WARPSCOPE_CACHE_DIR=" + cache_.string(); }
  std::string ptxas_;
  fs::path cache_;
};

}  // namespace

TEST_F(FuncAttributes, AreWhatPtxasSays) {
  const auto r = run_under_warpscope(prog("func_attrs"), "", env());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto rows = csv(r.out);
  ASSERT_EQ(rows.size(), 6u) << r.out;
  ASSERT_EQ(rows[0][1], "numRegs");

  ptxas::Options o;
  o.use_cache = false;
  const ptxas::Result ref = ptxas::analyze(program_ptx("func_attrs"), "sm_90", o);
  ASSERT_TRUE(ref.available);
  const std::map<std::string, std::string> mangled = {{"uses_const", "_Z10uses_constPf"},
                                                      {"no_const", "_Z8no_constPf"},
                                                      {"local_dynamic", "_Z13local_dynamicPfi"},
                                                      {"calls", "_Z5callsPfi"},
                                                      {"spill", "_Z5spillPKfPfi"}};
  for (std::size_t i = 1; i < rows.size(); ++i) {
    const auto& f = rows[i];
    ASSERT_EQ(f.size(), 10u) << r.out;
    const ptxas::FunctionUsage* u = ref.usage.find(mangled.at(f[0]));
    ASSERT_NE(u, nullptr) << f[0];
    EXPECT_EQ(std::stoi(f[1]), u->registers) << f[0];
    EXPECT_EQ(std::stoull(f[2]), u->shared_bytes) << f[0];
    EXPECT_EQ(std::stoull(f[3]), u->stack_frame_bytes) << f[0];
    EXPECT_EQ(f[4], "656") << f[0];  // the module's __constant__ bytes, for every kernel
  }
  // The rows of a kernel with a run-time array index and of one that spills have local memory.
  EXPECT_NE(rows[3][3], "0");
  EXPECT_NE(rows[5][3], "0");

  // On the GPU itself (same nvcc): the whole table.
  if (ptxas_version(ptxas_).find(kCaptureVersion) != std::string::npos) {
    EXPECT_EQ(r.out, rt_test::slurp(std::string(WARPSCOPE_SOURCE_DIR) + "/tests/hw/data/h200/func_attrs.csv"));
  }
  // The second run reads ptxas's answer from the cache: one -v text and, for sm_90 (the default
  // profile's target), the machine code it keeps for the spill accesses.
  ASSERT_TRUE(fs::exists(cache_ / "ptxas"));
  std::map<std::string, int> kinds;
  for (const auto& e : fs::directory_iterator(cache_ / "ptxas")) ++kinds[e.path().extension().string()];
  EXPECT_EQ(kinds, (std::map<std::string, int>{{".cubin", 1}, {".txt", 1}}));
  const auto again = run_under_warpscope(prog("func_attrs"), "", env());
  EXPECT_EQ(again.out, r.out);
}

TEST_F(FuncAttributes, RuntimeProbeOccupancyMatchesTheH100) {
  // Registers, static shared memory, local bytes, maxThreadsPerBlock and blocks per SM of the
  // probe's kernels (__maxnreg__ 16 ... 255: spills, 24-register floor, 102-register ceiling).
  const auto r = run_under_warpscope(prog("runtime_probe"), "", env());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string ours = section(r.out, "occupancy");
  ASSERT_FALSE(ours.empty()) << r.out;
  const std::string h100 = section(rt_test::slurp(std::string(WARPSCOPE_SOURCE_DIR) +
                                                  "/tests/hw/data/h100/runtime_probe.csv"),
                                   "occupancy");
  ASSERT_FALSE(h100.empty());

  ptxas::Options o;
  o.use_cache = false;
  const ptxas::Result ref = ptxas::analyze(program_ptx("runtime_probe"), "sm_90", o);
  ASSERT_TRUE(ref.available);
  std::size_t rows = 0;
  for (const auto& f : csv(ours)) {
    if (f.size() < 9 || f[0] == "kernel") continue;
    ++rows;
    // regs16 -> regs_kernel<16>, smem16k_regs32 -> regs_static_smem_kernel<32>
    const bool smem = f[0].rfind("smem16k_", 0) == 0;
    const std::string n = f[0].substr(f[0].find("regs") + 4);
    const std::string name = smem ? "_Z23regs_static_smem_kernelILi" + n + "EEvPKfPfi"
                                   : "_Z11regs_kernelILi" + n + "EEvPKfPfi";
    const ptxas::FunctionUsage* u = ref.usage.find(name);
    ASSERT_NE(u, nullptr) << name;
    EXPECT_EQ(std::stoi(f[1]), u->registers) << f[0];
    EXPECT_EQ(std::stoull(f[2]), u->shared_bytes) << f[0];
    EXPECT_EQ(std::stoull(f[3]), u->stack_frame_bytes) << f[0];
  }
  EXPECT_GT(rows, 100u);
  if (ptxas_version(ptxas_).find(kCaptureVersion) != std::string::npos) {
    EXPECT_EQ(ours, h100);
  }
}

TEST_F(FuncAttributes, WithoutPtxasThePlaceholdersRemain) {
  const auto r = run_under_warpscope(prog("func_attrs"), "", env() + " WARPSCOPE_PTXAS=none");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto rows = csv(r.out);
  ASSERT_EQ(rows.size(), 6u) << r.out;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][1], "32") << rows[i][0];   // the placeholder
    EXPECT_EQ(rows[i][4], "656") << rows[i][0];  // from the PTX either way
  }
  EXPECT_EQ(rows[3][3], "24");  // local_dynamic: the PTX's local depot (float[6])
  // Said once, not once per kernel.
  const auto first = r.err.find("WARPSCOPE_PTXAS=none");
  ASSERT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("WARPSCOPE_PTXAS=none", first + 1), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(cache_ / "ptxas"));
}

TEST_F(FuncAttributes, ReportCarriesRegisters) {
  // Every launch record of the JSON report names ptxas's registers instead of null.
  const std::string report = (cache_.parent_path() / (".fa_report_" + std::to_string(getpid()) + ".json")).string();
  const auto r = run_under_warpscope(prog("saxpy") + " 4096", report, env());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::ifstream in(report);
  nlohmann::json j;
  ASSERT_NO_THROW(in >> j);
  std::remove(report.c_str());
  std::vector<nlohmann::json> regs;
  auto walk = [&](auto&& self, const nlohmann::json& v) -> void {
    if (v.is_object()) {
      for (auto it = v.begin(); it != v.end(); ++it) {
        if (it.key() == "registers") regs.push_back(it.value());
        self(self, it.value());
      }
    } else if (v.is_array()) {
      for (const auto& e : v) self(self, e);
    }
  };
  walk(walk, j);
  ASSERT_FALSE(regs.empty()) << j.dump().substr(0, 2000);
  // saxpy's kernels use 10 registers on sm_90 (tests/hw/data/h100/examples/saxpy_ptxas.txt).
  const bool same_ptxas = ptxas_version(ptxas_).find(kCaptureVersion) != std::string::npos;
  for (const auto& v : regs) {
    EXPECT_TRUE(v.is_number_integer()) << v.dump();
    if (same_ptxas && v.is_number_integer()) {
      EXPECT_EQ(v.get<int>(), 10);
    }
  }
}
