// The kernels of tests/hw/ptx/ptxops.cu, the program tests/hw/capture_ptxops.sh ran on an H200,
// run by the interpreter with the same inputs and compared with what the H200 wrote
// (tests/hw/data/h200/ptxops/ptxops.txt, hints.txt):
//  - getctarank, st.async and red.async in a cluster of 4 (every value is also the PTX ISA's: the
//    initial words and each reduction's result are listed in the kernel);
//  - cvt.pack.sat.{u4,s4,u2,s2}.s32.b32 over a grid of a, b and c;
//  - applypriority and discard: no record, and the data stays (discard's line becomes undefined:
//    keeping it is one of the outcomes the PTX ISA allows).
#include <gmock/gmock.h>

#include <cstdint>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "exec_test_util.hpp"

namespace warpscope::exec::test {
namespace {

std::vector<std::string> capture_lines(const std::string& prefix) {
  std::ifstream f(std::string(WARPSCOPE_H200_DATA) + "/ptxops/ptxops.txt");
  std::vector<std::string> out;
  std::string line;
  while (std::getline(f, line))
    if (line.starts_with(prefix)) out.push_back(line);
  return out;
}

constexpr unsigned kWords = 32;  // k_cluster's shared words (ptxops.cu)

TEST(Cluster, GetctarankStAsyncAndRedAsyncAreTheH200s) {
  WS_LOAD_PTX(ptx, "ptxops");
  const auto lines = capture_lines("cluster rank ");
  ASSERT_EQ(lines.size(), 8u) << "tests/hw/data/h200/ptxops/ptxops.txt";
  Device dev;
  Module m = dev.load_ptx(ptx, "ptxops.ptx");
  const DevicePtr out = dev.malloc(4 * (kWords + 4) * 4), ranks = dev.malloc(32 * 4);
  dev.memset(out, 0xee, 4 * (kWords + 4) * 4);
  dev.memset(ranks, 0xee, 32 * 4);
  const KernelArg args[] = {arg(out), arg(ranks)};
  dev.launch(m, "_Z9k_clusterPjS_", {4}, {64}, args);  // __cluster_dims__(4, 1, 1)
  const auto o = download<unsigned>(dev, out, 4 * (kWords + 4));
  const auto r = download<unsigned>(dev, ranks, 32);
  const std::regex rank_line(
      R"(cluster rank (\d) getctarank peer=(\d+) own=(\d+) generic_peer=(\d+) generic_own=(\d+) peer_u64=(\d+) window_delta=0x([0-9a-f]+))");
  const std::regex word_line(R"(cluster rank (\d) mbarrier_completed=(\d) state=0x([0-9a-f]+) words((?: [0-9a-f]{8}){32}))");
  unsigned seen = 0;
  for (const std::string& line : lines) {
    std::smatch s;
    if (std::regex_match(line, s, rank_line)) {
      const unsigned c = std::stoul(s[1].str());
      SCOPED_TRACE("rank " + std::to_string(c));
      for (unsigned k = 0; k < 5; ++k) EXPECT_EQ(r[c * 8 + k], std::stoul(s[2 + k].str())) << "getctarank " << k;
      // The peer's address minus the CTA's own: 0x1000000 on the H200 except from rank 3 to rank 0
      // (its own addresses carry its rank); warpscope's own addresses are plain offsets and rank r's
      // tag is r + 1 (docs/exec.md "Distributed shared memory"), so the difference is always
      // (peer + 1) << 24.
      EXPECT_EQ(r[c * 8 + 5], ((c + 1) % 4 + 1) << 24) << "the H200's: 0x" << s[7].str();
      ++seen;
    } else if (std::regex_match(line, s, word_line)) {
      const unsigned c = std::stoul(s[1].str());
      SCOPED_TRACE("rank " + std::to_string(c));
      const unsigned* w = o.data() + c * (kWords + 4);
      EXPECT_EQ(w[kWords], std::stoul(s[2].str())) << "the mbarrier's phase completed (120 bytes)";
      // s[3]: the mbarrier's word read by an ordinary load (0 on the H200): the object is opaque and
      // the GPU keeps a live mbarrier elsewhere (src/exec/mbarrier.hpp), so it is not compared.
      const std::string words = s[4].str();
      for (unsigned i = 0; i < kWords; ++i)
        EXPECT_EQ(w[i], std::stoul(words.substr(9 * i + 1, 8), nullptr, 16)) << "word " << i;
      ++seen;
    }
  }
  EXPECT_EQ(seen, 8u);
}

TEST(PtxForms, CvtPackSubByteFormsAreTheH200s) {
  WS_LOAD_PTX(ptx, "ptxops");
  const auto lines = capture_lines("pack ");
  const std::vector<int> av = {-100, -9, -8, -3, -2, -1, 0, 1, 2, 3, 4, 7, 8, 15, 16, 100};  // ptxops.cu run_pack
  const std::vector<unsigned> cv = {0, 0xffffffffu, 0x12345678u};
  const unsigned na = 16, nc = 3, n = na * na * nc;
  ASSERT_EQ(lines.size(), 4u * n);
  Device dev;
  Module m = dev.load_ptx(ptx, "ptxops.ptx");
  const DevicePtr da = upload(dev, av), dc = upload(dev, cv), dout = dev.malloc(4 * n * 4);
  const int ina = static_cast<int>(na), inc = static_cast<int>(nc);
  const KernelArg args[] = {arg(da), arg(ina), arg(dc), arg(inc), arg(dout)};
  dev.launch(m, "_Z6k_packPKiiPKjiPj", {(n + 127) / 128}, {128}, args);
  const auto out = download<unsigned>(dev, dout, 4 * n);
  const std::regex re(R"(pack (u4|s4|u2|s2) a=(-?\d+) b=(-?\d+) c=0x([0-9a-f]+) = 0x([0-9a-f]+))");
  for (unsigned i = 0; i < 4 * n; ++i) {
    std::smatch s;
    ASSERT_TRUE(std::regex_match(lines[i], s, re)) << lines[i];
    EXPECT_EQ(out[i], std::stoul(s[5].str(), nullptr, 16)) << lines[i] << std::hex << ": got 0x" << out[i];
  }
}

// applypriority and discard make no record and change no data (the H200: "524288 of 524288 words
// kept their values" after applypriority, discard and prefetch.global.L2, hints.txt).
TEST(PtxForms, ApplypriorityAndDiscardChangeNothingAndMakeNoRecord) {
  WS_LOAD_PTX(ptx, "ptxops");
  Device dev;
  RecordingSink sink;
  dev.set_access_sink(&sink);
  Module m = dev.load_ptx(ptx, "ptxops.ptx");
  const unsigned blocks = 4;
  const std::size_t bytes = 128ull * 256 * blocks;
  std::vector<unsigned> h(bytes / 4);
  for (std::size_t i = 0; i < h.size(); ++i) h[i] = static_cast<unsigned>(i * 2654435761u);
  const DevicePtr p = upload(dev, h);
  const KernelArg args[] = {arg(p)};
  for (const char* k : {"_Z15k_applypriorityPc", "_Z9k_discardPc", "_Z14k_discard_samePc", "_Z20k_applypriority_samePc"})
    dev.launch(m, k, {blocks}, {256}, args);
  EXPECT_TRUE(sink.records.empty()) << sink.records.size() << " records";
  EXPECT_EQ(download<unsigned>(dev, p, h.size()), h);
}

}  // namespace
}  // namespace warpscope::exec::test
