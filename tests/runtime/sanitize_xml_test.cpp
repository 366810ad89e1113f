// `warpscope sanitize --xml --save FILE` (docs/sanitize.md "XML output"; tools/sanitize_xml.hpp).
// The expected documents are compute-sanitizer's own, captured on the H200 for
// tests/hw/sanitize/sanitize_probe.cu (tests/hw/data/h200/sanitize/xml), with what differs by
// machine or build masked on both sides:
//  - hex values (addresses, pcs: machine code there, PTX indices and host offsets here) -> 0x?;
//  - a source path -> its file name (the checkouts differ), a frame's module path -> "/?";
//  - host frames warpscope does not have (docs/sanitize.md): those below main, those in shared
//    libraries (libcuda.so, libc.so.6) or without a name, and NVIDIA's static runtime's frames in the
//    H200's program (`libcudart_static_*`, its API entries `cuda*`); the program here runs on
//    warpscope's libcudart.so.13.
// The kinds the samples do not show follow the documented layout.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>

#include "harness.hpp"
#include "sanitize_xml.hpp"

namespace {

using rt_test::prog;

std::string sample(const std::string& name) {
  return rt_test::slurp(std::string(WARPSCOPE_HW_DATA_DIR) + "/h200/sanitize/xml/" + name);
}

/// Whether a host frame (its lines) is one both builds have: a named frame of the program that
/// is not NVIDIA's static runtime.
bool common_frame(const std::string& frame) {
  std::smatch m;
  if (!std::regex_search(frame, m, std::regex("<func>([^<]*)</func>"))) return false;
  const std::string func = m[1].str();
  if (func.rfind("libcudart_static_", 0) == 0) return false;
  if (std::regex_match(func, std::regex("cuda[A-Z][A-Za-z_0-9]*"))) return false;  // cudaMalloc, cudaLaunchKernel
  return !std::regex_search(frame, std::regex(R"(<module>[^<]*\.so(\.[0-9]+)*</module>)"));
}

std::string normalized(const std::string& xml) {
  std::istringstream in(xml);
  std::string out, frame;
  bool in_frame = false, past_main = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "      <frame>") in_frame = true;
    if (in_frame) {
      frame += line + "\n";
      if (line == "      </frame>") {
        if (!past_main && common_frame(frame)) out += frame;
        past_main = past_main || frame.find("<func>main</func>") != std::string::npos;
        frame.clear();
        in_frame = false;
      }
      continue;
    }
    if (line == "    </hostStack>") past_main = false;
    out += line + "\n";
  }
  out = std::regex_replace(out, std::regex("0x[0-9a-f]+"), "0x?");
  out = std::regex_replace(out, std::regex("<path>/[^<]*/([^/<]+)</path>"), "<path>$1</path>");
  return std::regex_replace(out, std::regex("<module>/[^<]*</module>"), "<module>/?</module>");
}

class SanitizeXml : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
  }
  /// warpscope sanitize's XML for `program` (host backtraces on).
  std::string xml(const std::string& options, const std::string& program) {
    // One file per test and call: ctest runs the tests of this file in parallel processes.
    const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    const std::string file = prog("sanitize_xml_" + test + "_" + std::to_string(counter_++) + ".xml");
    const auto r = rt_test::run_shell(exe_ + " sanitize --threads 1 --show-backtrace yes " + options + " --xml --save " +
                                      file + " -- " + prog(program));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const std::string x = rt_test::slurp(file);
    std::filesystem::remove(file);
    return x;
  }
  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
  int counter_ = 0;
};

TEST_F(SanitizeXml, ApiErrorAsTheH200Writes) {
  EXPECT_EQ(normalized(xml("--tool memcheck", "sanitize_probe api_error")), normalized(sample("xml_api_error.xml")));
}

TEST_F(SanitizeXml, LeakAsTheH200Writes) {
  EXPECT_EQ(normalized(xml("--tool memcheck --leak-check full", "sanitize_probe leak")),
            normalized(sample("xml_leak.xml")));
}

TEST_F(SanitizeXml, RaceAnalysisAsTheH200Writes) {
  EXPECT_EQ(normalized(xml("--tool racecheck", "sanitize_probe raw")), normalized(sample("xml_raw.xml")));
}

TEST_F(SanitizeXml, UninitializedReadsAsTheH200Writes) {
  EXPECT_EQ(normalized(xml("--tool initcheck", "sanitize_probe uninit")), normalized(sample("xml_uninit.xml")));
}

TEST_F(SanitizeXml, NoReportsIsAnEmptyRoot) {
  // The H200's oob_global run reported nothing; a clean run here reports nothing either.
  EXPECT_EQ(xml("--tool memcheck", "sanitize_probe clean"), sample("xml_oob_global.xml"));
}

// The device heap (tests/hw/sanitize/heap_probe.cu; tests/hw/data/h200/sanitize/heap): a double
// free (a Syscall record, then the 4 API errors of the sticky cudaErrorLaunchFailure), an int
// written past a 100-byte block (Precise), the 4 leaked blocks (Leak, type deviceheap, no host
// stack), and synccheck on grid.sync() outside a cooperative launch (no record).
TEST_F(SanitizeXml, DeviceHeapAsTheH200Writes) {
  auto heap = [](const std::string& name) {
    return rt_test::slurp(std::string(WARPSCOPE_HW_DATA_DIR) + "/h200/sanitize/heap/" + name);
  };
  EXPECT_EQ(normalized(xml("--tool memcheck", "heap_probe double_free")), normalized(heap("xml_double_free.xml")));
  EXPECT_EQ(normalized(xml("--tool memcheck", "heap_probe write_elem")), normalized(heap("xml_write_elem.xml")));
  EXPECT_EQ(normalized(xml("--tool memcheck --leak-check full", "heap_probe leak_reset")), normalized(heap("xml_leak.xml")));
  EXPECT_EQ(xml("--tool synccheck", "heap_probe grid_sync"), heap("xml_grid_sync.xml"));
}

// memcheck's invalid access outside the heap: the H200's Precise layout (heap/xml_write_elem.xml).
// oob.cu: thread 3 of block 0 reads 4 bytes at 4096 bytes before an allocation, line 9, in read_before.
TEST_F(SanitizeXml, InvalidAccessHasTheH200sPreciseLayout) {
  const std::string x = normalized(xml("--tool memcheck", "oob"));
  EXPECT_EQ(x.substr(0, x.find("    <hostStack>")),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            "<ComputeSanitizerOutput>\n"
            "  <record>\n"
            "    <kind>Precise</kind>\n"
            "    <level>Error</level>\n"
            "    <who>\n"
            "      <threadIdx>\n"
            "        <x>3</x>\n"
            "        <y>0</y>\n"
            "        <z>0</z>\n"
            "      </threadIdx>\n"
            "      <blockIdx>\n"
            "        <x>0</x>\n"
            "        <y>0</y>\n"
            "        <z>0</z>\n"
            "      </blockIdx>\n"
            "    </who>\n"
            "    <what>\n"
            "      <text>Invalid __global__ read of size 4 bytes is out of bounds</text>\n"
            "      <space>__global__</space>\n"
            "      <size>4</size>\n"
            "      <direction>read</direction>\n"
            "      <error>out of bounds</error>\n"
            "      <address>0x?</address>\n"
            "    </what>\n"
            "    <where>\n"
            "      <func>read_before</func>\n"
            "      <path>oob.cu</path>\n"
            "      <line>9</line>\n"
            "      <pc>0x?</pc>\n"
            "    </where>\n")
      << x;
  // The program's launch frames as in the H200's xml_uninit.xml: the launch helper, the stub
  // (_Z11read_beforePKixPi: read_before(const int*, long long, int*)), the host function, main.
  auto frame = [](const std::string& func) {
    return "      <frame>\n        <func>" + func + "</func>\n        <pc>0x?</pc>\n        <module>/?</module>\n"
           "      </frame>\n";
  };
  EXPECT_EQ(x.substr(x.find("    <hostStack>")),
            "    <hostStack>\n"
            "      <saveLocation>kernel launch time</saveLocation>\n" +
                frame("__cudaLaunchKernel_helper") + frame("__device_stub__Z11read_beforePKixPi") +
                frame("read_before") + frame("main") +
                "    </hostStack>\n"
                "  </record>\n"
                "</ComputeSanitizerOutput>\n")
      << x;
}

// The names as the samples give them: "raw(int *)" is written `raw`, the host frame
// "cudaError cudaMalloc<int>(int**, unsigned long)" `cudaError cudaMalloc<int>`.
TEST(SanitizeXmlNames, FunctionsLoseTheirParameterList) {
  using warpscope::cli::without_parameters;
  EXPECT_EQ(without_parameters("raw(int *)"), "raw");
  EXPECT_EQ(without_parameters("cudaError cudaMalloc<int>(int**, unsigned long)"), "cudaError cudaMalloc<int>");
  EXPECT_EQ(without_parameters("void k<int>(int *)"), "void k<int>");
  EXPECT_EQ(without_parameters("main"), "main");
  EXPECT_EQ(without_parameters("f(void (*)(int))"), "f");
  EXPECT_EQ(without_parameters("A::operator()(int) const"), "A::operator()");
}

TEST(SanitizeXmlNames, NoRecordsIsAnEmptyRoot) {
  EXPECT_EQ(warpscope::cli::sanitize_xml({}),
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<ComputeSanitizerOutput/>\n");
}

}  // namespace
