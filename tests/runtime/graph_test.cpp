// CUDA graphs and stream capture (docs/runtime.md "Graphs and stream capture"): programs built by
// nvcc that check CUDA's documented behaviour themselves (programs/graph_test.cu,
// programs/capture_test.cu), run under warpscope's libcudart.so.13, and the report they leave.
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "read_json.hpp"

using rt_test::prog;
using rt_test::read_json;
using rt_test::run_under_warpscope;

namespace {

int count_kernel(const nlohmann::json& report, const std::string& name) {
  int n = 0;
  for (const auto& l : report["launches"]) n += l["name"].get<std::string>().rfind(name, 0) == 0;
  return n;
}

}  // namespace

TEST(Graphs, NodeKindsOrderUpdateCloneAndChildGraphs) {
  const std::string report = prog("graph_test.json");
  const auto r = run_under_warpscope(prog("graph_test"), report);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("not ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("is not supported"), std::string::npos) << r.err;
  // Each kernel node run is a launch of the report: the diamond ran three times (2 kernels
  // each), the copy graph twice (table_to, and fill in its child graph).
  const auto j = read_json(report);
  EXPECT_EQ(count_kernel(j, "affine("), 6);
  EXPECT_EQ(count_kernel(j, "sum2("), 3);
  EXPECT_EQ(count_kernel(j, "table_to("), 2);
  EXPECT_EQ(count_kernel(j, "fill("), 2);
}

TEST(Graphs, DiamondRunsInDependencyOrder) {
  // Created D, C, B, A and linked A->B, A->C, B->D, C->D: the report lists B and C before D.
  const std::string report = prog("graph_order.json");
  const auto r = run_under_warpscope(prog("graph_test"), report);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = read_json(report);
  ASSERT_GE(j["launches"].size(), 3u);
  EXPECT_EQ(j["launches"][0]["name"].get<std::string>().rfind("affine(", 0), 0u);
  EXPECT_EQ(j["launches"][1]["name"].get<std::string>().rfind("affine(", 0), 0u);
  EXPECT_EQ(j["launches"][2]["name"].get<std::string>().rfind("sum2(", 0), 0u);
}

TEST(StreamCapture, ForkJoinCopiesHostFunctionsAndErrors) {
  const std::string report = prog("capture_test.json");
  const auto r = run_under_warpscope(prog("capture_test"), report);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("not ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
  // Nothing ran while capturing: 3 kernels per launch of the captured graph, launched twice.
  const auto j = read_json(report);
  EXPECT_EQ(count_kernel(j, "scale("), 4);
  EXPECT_EQ(count_kernel(j, "add_arrays("), 2);
  // The captured kernels ran on the stream the graph was launched on.
  for (const auto& l : j["launches"]) EXPECT_NE(l["stream"], 0) << l["name"];
  // Why a capture was invalidated is said on stderr.
  EXPECT_NE(r.err.find("cudaStreamSynchronize on a capturing stream"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cudaMalloc is not permitted while a stream is capturing"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("was not joined back"), std::string::npos) << r.err;
}

TEST(StreamCapture, PerThreadDefaultStreamBuild) {
  // The same program with per-thread default streams (the _ptsz entry points) behaves the same.
  const auto r = run_under_warpscope(prog("capture_test_ptsz"));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
}

TEST(RuntimeCalls, PoolsGraphMemoryConditionalsAttributesLibraries) {
  // programs/runtime_calls.cu checks each call against the runtime API reference's meanings and
  // CPU references; the while node's body is one kernel launch per iteration (5, then 2).
  const std::string report = prog("runtime_calls.json");
  const auto r = run_under_warpscope(prog("runtime_calls"), report);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("not ok"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\n0 failures"), std::string::npos) << r.out;
  EXPECT_EQ(r.err.find("is not supported"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("cudaIpcGetMemHandle: IPC between processes"), std::string::npos) << r.err;
  const auto j = read_json(report);
  EXPECT_EQ(count_kernel(j, "countdown("), 7);
  EXPECT_EQ(count_kernel(j, "put("), 2);
  EXPECT_EQ(count_kernel(j, "add1"), 1);
}
