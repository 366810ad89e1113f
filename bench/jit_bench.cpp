// The JIT (src/jit) against the interpreter and native C++, side by side in one process: the
// N-body kernel (4096 bodies, 256-thread CTAs with shared-memory tiles) and the 16x16-tiled
// matrix product (640 x 640) of bench/workloads.cu, each launched without statistics on every
// core, interpreted and with native segments; and the same arithmetic as C++ compiled with -O3
// -march=native -fopenmp (jit_native.cpp) on every core. Prints the best of REPS runs of each,
// the JIT's compile time (its first launch), and whether the JIT's outputs equal the
// interpreter's bit for bit. Then each kernel's first launch with the disk cache (src/jit/cache.hpp)
// in an empty directory (cold: LLVM compiles, the object is stored) and again by a new compiler
// over the same directory (warm: the object is loaded), beside one interpreted launch. The table
// above uses a compiler without the cache, so its "compile s" is always LLVM's.
//
//   cmake --build build --target jit_bench && build/bin/jit_bench [REPS [jit]]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <vector>

#include <stdlib.h>

#include "exec/segments.hpp"
#include "jit/jit.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::bench {
void native_nbody(const float* pos, float* acc, int n, float eps2);
void native_matmul(const float* a, const float* b, float* c, int n);
}  // namespace warpscope::bench

namespace {

using namespace warpscope;
using Clock = std::chrono::steady_clock;
bool g_jit_only = false;  // a second argument `jit`: one run of the others (for profiling the JIT's)

std::string read_ptx() {
  std::ifstream f(WARPSCOPE_WORKLOADS_PTX);
  if (!f) throw std::runtime_error("missing " + std::string(WARPSCOPE_WORKLOADS_PTX) + " (built with nvcc)");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

double best_of(int reps, const std::function<void()>& f) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    f();
    best = std::min(best, std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return best;
}

struct Row {
  const char* name;
  double interp = 0, jit = 0, native = 0, compile = 0;
  double cold = 0, warm = 0;  // first launch's compile time with the disk cache: empty, filled
  std::uint64_t warp_insts = 0;
  bool same = false;
};

/// The compile time of `launch`'s kernel at its first launch in a module loaded anew, by a new
/// compiler with the disk cache in `dir` (`restore` the process's compiler again afterwards);
/// `loaded` says whether it came from the cache.
double first_compile(Device& dev, const std::string& ptx, const std::string& dir, exec::SegmentCompiler* restore,
                     const std::function<std::uint64_t(const Module&)>& launch, bool& loaded) {
  auto compiler = jit::make_compiler(jit::Options{true, dir});
  exec::set_segment_compiler(compiler.get());
  const Module m = dev.load_ptx(ptx, "workloads.ptx");
  const jit::Stats before = jit::stats();
  launch(m);
  const jit::Stats after = jit::stats();
  exec::set_segment_compiler(restore);
  loaded = after.cache_loads > before.cache_loads;
  return after.compile_seconds - before.compile_seconds;
}

/// Runs `launch` interpreted and with the JIT; returns the device output of each in `out`.
Row measure(const char* name, int reps, Device& dev, DevicePtr out, std::size_t bytes,
            const std::function<std::uint64_t()>& launch, const std::function<void()>& native) {
  Row row{name};
  std::vector<unsigned char> a(bytes), b(bytes);
  exec::set_jit_enabled(false);
  row.interp = best_of(g_jit_only ? 1 : reps, [&] { row.warp_insts = launch(); });
  dev.copy_to_host(a.data(), out, bytes);
  exec::set_jit_enabled(true);
  const double before = jit::stats().compile_seconds;
  launch();  // compiles the kernel
  row.compile = jit::stats().compile_seconds - before;
  row.jit = best_of(reps, [&] { launch(); });
  dev.copy_to_host(b.data(), out, bytes);
  row.same = a == b;
  row.native = best_of(g_jit_only ? 1 : reps, native);
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  g_jit_only = argc > 2 && std::strcmp(argv[2], "jit") == 0;
  if (!jit::install()) {
    std::printf("jit_bench: this build has no JIT\n");
    return 1;
  }
  // Without the disk cache: the first launch's compile time is LLVM's however often this ran.
  const auto uncached = jit::make_compiler(jit::Options{false, {}});
  exec::set_segment_compiler(uncached.get());
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  DeviceOptions opts;
  opts.host_threads = threads;
  Device dev(opts);
  const std::string ptx = read_ptx();
  const Module m = dev.load_ptx(ptx, "workloads.ptx");
  std::vector<Row> rows;
  // The disk cache: an empty directory, then a second compiler over it (per kernel: the kernels'
  // entries differ).
  std::string dir = "/tmp/warpscope-jit-bench-XXXXXX";
  if (::mkdtemp(dir.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  bool cache_ok = true;
  auto cache_times = [&](Row& row, const std::function<std::uint64_t(const Module&)>& launch) {
    bool loaded = false;
    row.cold = first_compile(dev, ptx, dir, uncached.get(), launch, loaded);
    cache_ok = cache_ok && !loaded;
    row.warm = first_compile(dev, ptx, dir, uncached.get(), launch, loaded);
    cache_ok = cache_ok && loaded;
  };

  {  // N-body
    const int n = 4096;
    std::vector<float> pos(std::size_t(n) * 4), acc(std::size_t(n) * 4);
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
    auto launch = [&](const Module& mod) { return dev.launch(mod, "nbody_forces", {n / 256}, {256}, args).warp_instructions; };
    rows.push_back(measure("nbody 4096", reps, dev, da, pos.size() * 4, [&] { return launch(m); },
                           [&] { bench::native_nbody(pos.data(), acc.data(), n, eps2); }));
    cache_times(rows.back(), launch);
  }
  {  // matmul
    const int n = 640;
    std::vector<float> a(std::size_t(n) * n), b(a.size()), c(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      a[i] = float(int(i * 7 % 13) - 6) / 8.0f;
      b[i] = float(int(i * 5 % 11) - 5) / 4.0f;
    }
    const DevicePtr da = dev.malloc(a.size() * 4), db = dev.malloc(a.size() * 4), dc = dev.malloc(a.size() * 4);
    dev.copy_to_device(da, a.data(), a.size() * 4);
    dev.copy_to_device(db, b.data(), b.size() * 4);
    const KernelArg args[] = {arg(da), arg(db), arg(dc), arg(n)};
    const Dim3 grid{std::uint32_t(n / 16), std::uint32_t(n / 16), 1};
    auto launch = [&](const Module& mod) { return dev.launch(mod, "matmul", grid, {16, 16, 1}, args).warp_instructions; };
    rows.push_back(measure("matmul 640", reps, dev, dc, a.size() * 4, [&] { return launch(m); },
                           [&] { bench::native_matmul(a.data(), b.data(), c.data(), n); }));
    cache_times(rows.back(), launch);
  }
  std::filesystem::remove_all(dir);

  std::printf("host threads: %u (the launches and OpenMP), best of %d\n", threads, reps);
  std::printf("%-12s %14s %10s %10s %10s %10s %12s %12s %6s\n", "workload", "warp insts", "interp s", "jit s",
              "native s", "compile s", "jit/native", "interp/jit", "same");
  for (const Row& r : rows) {
    std::printf("%-12s %14llu %10.4f %10.4f %10.4f %10.3f %12.2f %12.2f %6s\n", r.name,
                static_cast<unsigned long long>(r.warp_insts), r.interp, r.jit, r.native, r.compile, r.jit / r.native,
                r.interp / r.jit, r.same ? "yes" : "NO");
  }
  std::printf("\nfirst launch's compile time: no cache, an empty disk cache (compile and store), a filled one (load)\n");
  std::printf("%-12s %12s %12s %12s %14s %12s\n", "workload", "no cache s", "cold s", "warm s", "interp s", "cold/warm");
  for (const Row& r : rows) {
    std::printf("%-12s %12.4f %12.4f %12.4f %14.4f %12.1f\n", r.name, r.compile, r.cold, r.warm, r.interp, r.cold / r.warm);
  }
  if (!cache_ok) std::printf("the warm compilers did not load from the cache\n");
  const jit::Stats st = jit::stats();
  std::printf("jit: %llu kernels, %llu segments, %llu of their instructions native of %llu\n",
              static_cast<unsigned long long>(st.kernels), static_cast<unsigned long long>(st.segments),
              static_cast<unsigned long long>(st.native), static_cast<unsigned long long>(st.instructions));
  bool ok = true;
  for (const Row& r : rows) ok = ok && r.same;
  ok = ok && cache_ok;
  return ok ? 0 : 1;
}
