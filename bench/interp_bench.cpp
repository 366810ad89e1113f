// Interpreter throughput: warp instructions per second (the `warp_inst/s` counter) on a
// compute-bound kernel (all-pairs N-body, 4096 bodies, shared-memory tiles) and a memory-bound
// one (saxpy, 2^22 elements), without an access sink (the fast path) and with a sink that only
// counts what it is given. One host thread.
//
//   cmake --build build --target interp_bench && ./build/bin/interp_bench
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "common/access.hpp"
#include "warpscope/warpscope.hpp"

namespace {

using namespace warpscope;

std::string bench_ptx() {
  // WARPSCOPE_INTERP_BENCH_PTX in the environment overrides the path the build wrote it to.
  const char* env = std::getenv("WARPSCOPE_INTERP_BENCH_PTX");
  const std::string path = env ? env : WARPSCOPE_INTERP_BENCH_PTX;
  std::ifstream f(path);
  if (!f) throw std::runtime_error("missing " + path + " (built with nvcc)");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class CountingSink final : public AccessSink {
 public:
  void on_access(const WarpAccess& a) override {
    ++records;
    lanes += a.active.count();
  }
  std::uint64_t records = 0, lanes = 0;
};

void run(benchmark::State& state, bool nbody) {
  const bool with_sink = state.range(0) != 0;
  Device dev;
  Module m = dev.load_ptx(bench_ptx(), "bench.ptx");
  CountingSink sink;
  if (with_sink) dev.set_access_sink(&sink);
  std::uint64_t warp_insts = 0;
  if (nbody) {
    const int n = 4096;
    std::vector<float> pos(n * 4);
    for (int i = 0; i < n; ++i) {
      pos[i * 4 + 0] = std::sin(0.1f * float(i));
      pos[i * 4 + 1] = std::cos(0.37f * float(i));
      pos[i * 4 + 2] = 0.001f * float(i);
      pos[i * 4 + 3] = 1.0f;
    }
    const DevicePtr dp = dev.malloc(pos.size() * 4), da = dev.malloc(pos.size() * 4);
    dev.copy_to_device(dp, pos.data(), pos.size() * 4);
    const float eps2 = 0.01f;
    const KernelArg args[] = {arg(dp), arg(da), arg(n), arg(eps2)};
    for (auto _ : state) warp_insts += dev.launch(m, "nbody_forces", {n / 256}, {256}, args).warp_instructions;
  } else {
    const int n = 1 << 22;
    const DevicePtr x = dev.malloc(std::size_t(n) * 4), y = dev.malloc(std::size_t(n) * 4);
    dev.memset(x, 0, std::size_t(n) * 4);
    dev.memset(y, 0, std::size_t(n) * 4);
    const float a = 2.0f;
    const KernelArg args[] = {arg(n), arg(a), arg(x), arg(y)};
    for (auto _ : state) warp_insts += dev.launch(m, "saxpy", {n / 256}, {256}, args).warp_instructions;
  }
  state.counters["warp_inst/s"] = benchmark::Counter(double(warp_insts), benchmark::Counter::kIsRate);
  state.counters["warp_inst"] = benchmark::Counter(double(warp_insts) / double(state.iterations()));
  if (with_sink) state.counters["records"] = benchmark::Counter(double(sink.records) / double(state.iterations()));
}

void BM_NBody4096(benchmark::State& state) { run(state, true); }
void BM_Saxpy4M(benchmark::State& state) { run(state, false); }

BENCHMARK(BM_NBody4096)->ArgName("sink")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(2.0);
BENCHMARK(BM_Saxpy4M)->ArgName("sink")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace

BENCHMARK_MAIN();
