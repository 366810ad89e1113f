// `warpscope sanitize` on device-heap misuse and grid.sync() outside a cooperative launch
// (tests/hw/sanitize/heap_probe.cu), against compute-sanitizer's reports on the H200
// (tests/hw/data/h200/sanitize/heap/heap_sanitize.txt, its README says what each run shows).
// Both sides' lines are compared with what differs by machine masked (docs/sanitize_h200.md "The
// device heap and grid.sync()"): instruction offsets (+0x...: machine code there, PTX indices here),
// addresses, the host frames other than `main` (kernel stubs and runtime frames differ) and the
// H200's device frames (warpscope prints none). The tool's lines and the program's own lines are
// compared apart: compute-sanitizer prints a kernel's reports as it ends, warpscope after the
// program exits.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "harness.hpp"

namespace {

using rt_test::prog;

struct Lines {
  std::vector<std::string> tool;     // "=========" lines
  std::vector<std::string> program;  // the program's own
};

Lines split(const std::string& text) {
  Lines out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("=========", 0) != 0) {
      out.program.push_back(line);
      continue;
    }
    if (line.find("Device Frame:") != std::string::npos) continue;
    if (line.find("Host Frame:") != std::string::npos && line.find("Host Frame: main [") == std::string::npos) continue;
    line = std::regex_replace(line, std::regex(R"(\+0x[0-9a-f]+)"), "+0x?");
    line = std::regex_replace(line, std::regex(R"(0x[0-9a-f]+)"), "0x?");
    out.tool.push_back(line);
  }
  return out;
}

class SanitizeHeap : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(exe_)) GTEST_SKIP() << exe_ << " not built";
    gpu_ = rt_test::slurp(std::string(WARPSCOPE_HW_DATA_DIR) + "/h200/sanitize/heap/heap_sanitize.txt");
    ASSERT_FALSE(gpu_.empty());
  }
  /// The H200's output of the run under `head` ("## MODE TOOL OPTIONS").
  std::string h200(const std::string& head) const {
    const std::size_t at = gpu_.find(head + "\n");
    if (at == std::string::npos) return {};
    const std::size_t from = at + head.size() + 1;
    return gpu_.substr(from, gpu_.find("\nrc=", from) - from);
  }
  rt_test::Result sanitize(const std::string& options, const std::string& mode, unsigned threads = 1) {
    return rt_test::run_shell(exe_ + " sanitize --threads " + std::to_string(threads) + " --show-backtrace yes " +
                              options + " -- " + prog("heap_probe " + mode));
  }
  std::string exe_ = std::string(WARPSCOPE_BINARY_DIR) + "/bin/warpscope";
  std::string gpu_;
};

// Every run whose lines equal the H200's once masked: each bad free (double, inside a block, a
// cudaMalloc pointer, a local and a shared address; a warp of 4 double frees: 4 reports), each
// overrun of a 100-byte block by 1 byte and by 1 int, a read after free (each "located in the
// device heap", then the launch fails with cudaErrorLaunchFailure and 4 API errors), the leaks with
// and without --leak-check full (with or without cudaDeviceReset), the correct kernel, and the
// other tools on the double free and on grid.sync() (nothing reported; the launch fails).
TEST_F(SanitizeHeap, HeapErrorsAsTheH200Reports) {
  const struct {
    const char* mode;
    const char* tool;
    const char* extra;
  } cases[] = {
      {"double_free", "memcheck", ""},      {"double_free_warp", "memcheck", ""},
      {"free_offset", "memcheck", ""},      {"free_cudamalloc", "memcheck", ""},
      {"free_local", "memcheck", ""},       {"free_shared", "memcheck", ""},
      {"write_byte", "memcheck", ""},       {"read_byte", "memcheck", ""},
      {"write_elem", "memcheck", ""},       {"read_elem", "memcheck", ""},
      {"use_after_free", "memcheck", ""},   {"leak", "memcheck", ""},
      {"leak", "memcheck", "--leak-check full"}, {"leak_reset", "memcheck", ""},
      {"leak_reset", "memcheck", "--leak-check full"}, {"ok", "memcheck", ""},
      {"ok", "memcheck", "--leak-check full"}, {"grid_sync", "synccheck", ""},
      {"grid_sync", "racecheck", ""},       {"grid_sync", "initcheck", ""},
      {"double_free", "racecheck", ""},     {"double_free", "initcheck", ""},
      {"double_free", "synccheck", ""},
  };
  for (const auto& c : cases) {
    const std::string head = std::string("## ") + c.mode + " " + c.tool + " " + c.extra;
    const std::string want = h200(head);
    ASSERT_FALSE(want.empty()) << head;
    const auto r = sanitize(std::string("--tool ") + c.tool + " " + c.extra, c.mode);
    EXPECT_EQ(r.exit_code, 0) << head << "\n" << r.out << r.err;
    EXPECT_EQ(split(r.out).tool, split(want).tool) << head << "\n" << r.out;
    EXPECT_EQ(split(r.out).program, split(want).program) << head << "\n" << r.out;
  }
}

// An int written or read 4096 bytes past the 100-byte block: the H200's first blocks lie near the
// top of its heap, so the address fell past the heap's end ("2,181 bytes after the nearest
// allocation ... of size 8,388,864 bytes", the heap); warpscope's heap hands out blocks from its
// start (src/exec/heap.hpp), so the address is inside the heap, past the block: "located in the
// device heap". Every other line is the H200's.
TEST_F(SanitizeHeap, FarPastABlockIsInsideWarpscopesHeap) {
  for (const char* mode : {"write_far", "read_far"}) {
    const std::string head = std::string("## ") + mode + " memcheck ";
    std::vector<std::string> want = split(h200(head)).tool;
    ASSERT_GT(want.size(), 6u) << head;
    ASSERT_EQ(want[5], "=========     and is 2,181 bytes after the nearest allocation at 0x? of size 8,388,864 bytes");
    want[5] = "=========     and is located in the device heap";
    const auto r = sanitize("--tool memcheck", mode);
    EXPECT_EQ(split(r.out).tool, want) << mode << "\n" << r.out;
    EXPECT_EQ(split(r.out).program, split(h200(head)).program) << mode << "\n" << r.out;
  }
}

// grid.sync() in a <<<2, 32>>> launch traps (the grid workspace is null). The H200's memcheck
// reports a "Trace/breakpoint trap" for each of the 64 threads, at the cooperative-groups function
// inlined there (is_cta_master() in sync.h:65); warpscope reports the threads of the warp that
// trapped first, the launch's end (as for a device-side assert, docs/sanitize.md), at the kernel's
// line of the call (it reads no inlined functions from the PTX): threads 0-31 of block 0, then
// the same 4 API errors: 36 errors. The same for any --threads.
TEST_F(SanitizeHeap, GridSyncOutsideACooperativeLaunchIsATrapPerThread) {
  std::string want = "========= COMPUTE-SANITIZER\n";
  for (int t = 0; t < 32; ++t) {
    want += "========= Trace/breakpoint trap\n"
            "=========     at grid_sync(int *)+0x? in heap_probe.cu:115\n"
            "=========     by thread (" + std::to_string(t) + ",0,0) in block (0,0,0)\n"
            "========= \n";
  }
  for (const char* api : {"cudaDeviceSynchronize", "cudaMemcpy", "cudaFree", "cudaFree"}) {
    want += std::string("========= Program hit cudaErrorLaunchFailure (error 719) due to \"unspecified launch failure\" "
                        "on CUDA API call to ") + api + ".\n========= \n";
  }
  want += "========= ERROR SUMMARY: 36 errors\n";
  const std::vector<std::string> gpu = split(h200("## grid_sync memcheck ")).program;
  for (unsigned threads : {1u, 3u}) {
    const auto r = rt_test::run_shell(exe_ + " sanitize --show-backtrace no --threads " + std::to_string(threads) +
                                      " -- " + prog("heap_probe grid_sync"));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    Lines got = split(r.out);
    std::string tool;
    for (const std::string& l : got.tool) tool += l + "\n";
    EXPECT_EQ(tool, want) << r.out;
    EXPECT_EQ(got.program, gpu) << r.out;
  }
  // The H200's lines of the same reports, their at-line aside.
  const std::string gpu_text = h200("## grid_sync memcheck ");
  EXPECT_NE(gpu_text.find("========= Trace/breakpoint trap\n=========     at cooperative_groups::__v1::details::"
                          "is_cta_master()+0x100 in sync.h:65\n=========     by thread (31,0,0) in block (0,0,0)\n"),
            std::string::npos);
  EXPECT_NE(gpu_text.find("========= ERROR SUMMARY: 68 errors"), std::string::npos);
}

}  // namespace
