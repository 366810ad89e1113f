// Profiled launches (statistics on: stats::LaunchCollector, the sink `warpscope run` uses, hopper
// profile) interpreted and with native segments (src/jit), in one process: bench/workloads.cu's
// N-body (4096 bodies), saxpy (2^22), transpose (2048), reduction (2^22) and 16x16-tiled matrix
// product (640) through the public API. For each workload and mode: the best of REPS launches'
// CPU seconds of the process (CLOCK_PROCESS_CPUTIME_ID: on a machine shared with other work the
// wall clock measures the others too; with THREADS > 1 it is the sum over the threads), the
// collector's finish and the metrics JSON included, warp instructions per CPU second,
// and whether the metrics JSON and the output equal the interpreter's byte for byte (the program
// exits 1 otherwise); last, the same launch with the JIT and no statistics (what the memory model
// and the records cost). The JIT's compile is done by a launch before the timed ones (reported apart).
// With PROFILED_BENCH_METRICS=DIR in the environment, each workload's metrics JSON (the
// interpreter's last launch), its per-SM extremes and every instruction's row are also written
// to DIR/<kernel>.json (untimed), so that two builds' counters can be compared byte for byte
// (docs/benchmarks.md, "Profiled launches: the memory model's cost").
// PROFILED_BENCH_ONLY=KERNEL[,KERNEL...] runs only those workloads (by kernel name: nbody_forces,
// saxpy, transpose, reduce, matmul).
//
//   cmake --build build --target profiled_bench && build/bin/profiled_bench [REPS [THREADS]]
#include <algorithm>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "arch/profile.hpp"
#include "exec/segments.hpp"
#include "jit/jit.hpp"
#include "stats/collector.hpp"
#include "stats/report_json.hpp"
#include "warpscope/warpscope.hpp"

namespace {

using namespace warpscope;

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

std::string read_ptx() {
  std::ifstream f(WARPSCOPE_WORKLOADS_PTX);
  if (!f) throw std::runtime_error("missing " + std::string(WARPSCOPE_WORKLOADS_PTX) + " (built with nvcc)");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

float input(std::uint64_t i, unsigned salt) { return float(int((i * 2654435761u + salt) % 17) - 8) * 0.25f; }

struct Launch {
  const char* name;
  const char* kernel;
  Dim3 grid, block;
  std::vector<KernelArg> args;
  DevicePtr out = 0;
  std::size_t out_bytes = 0;
};

struct Outcome {
  double seconds = 0;
  std::uint64_t warp = 0;
  std::string metrics;
  std::string rows;  // unit extremes and every instruction's row (PROFILED_BENCH_METRICS)
  std::vector<unsigned char> output;
};

/// One profiled launch: a fresh collector, the launch, finish() and the metrics JSON. `profile`
/// null: the launch without statistics (no access sink), for the last column.
Outcome profiled(Device& dev, const Module& m, const Launch& l, const arch::Profile* profile) {
  Outcome o;
  const double t0 = cpu_seconds();
  if (profile == nullptr) {
    o.warp = dev.launch(m, l.kernel, l.grid, l.block, l.args).warp_instructions;
    o.seconds = cpu_seconds() - t0;
    return o;
  }
  stats::LaunchCollector collector({profile});
  dev.set_access_sink(&collector);
  const LaunchStats s = dev.launch(m, l.kernel, l.grid, l.block, l.args);
  dev.set_access_sink(nullptr);
  const std::vector<stats::ModelResult> r = collector.finish();
  o.metrics = stats::metrics_json(r.front(), s).dump();
  o.seconds = cpu_seconds() - t0;
  if (std::getenv("PROFILED_BENCH_METRICS") != nullptr) {
    nlohmann::json rows = nlohmann::json::array();
    const std::vector<stats::InstructionStats>& per_pc = r.front().per_pc;
    for (std::size_t pc = 0; pc < per_pc.size(); ++pc)
      if (per_pc[pc].seen) rows.push_back(stats::instruction_json(per_pc[pc], std::uint32_t(pc), nullptr));
    o.rows = nlohmann::json{{"unit_extremes", stats::unit_extremes_json(r.front())}, {"instructions", rows}}.dump(1);
  }
  o.warp = s.warp_instructions;
  o.output.resize(l.out_bytes);
  dev.copy_to_host(o.output.data(), l.out, l.out_bytes);
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 3;
  const unsigned threads = argc > 2 ? static_cast<unsigned>(std::max(1, std::atoi(argv[2]))) : 1;
  if (!jit::install()) {
    std::printf("profiled_bench: this build has no JIT\n");
    return 1;
  }
  exec::set_jit_traced_after(0);  // segments from the first profiled launch on (the threshold is timed apart)
  DeviceOptions opts;
  opts.host_threads = threads;
  Device dev(opts);
  const Module m = dev.load_ptx(read_ptx(), "workloads.ptx");
  const arch::Profile& profile = arch::builtin_profile("hopper");
  auto upload = [&](const std::vector<float>& h) {
    const DevicePtr d = dev.malloc(h.size() * 4);
    dev.copy_to_device(d, h.data(), h.size() * 4);
    return d;
  };
  auto filled = [](std::size_t n, unsigned salt) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = input(i, salt);
    return v;
  };
  // The arguments' values live as long as the launches (KernelArg points at them).
  std::deque<std::uint64_t> values;
  auto val = [&](auto v) {
    static_assert(sizeof v <= sizeof(std::uint64_t));
    std::uint64_t& slot = values.emplace_back(0);
    std::memcpy(&slot, &v, sizeof v);
    return KernelArg{&slot, sizeof v};
  };
  std::vector<Launch> launches;
  {
    const int n = 4096;
    std::vector<float> pos = filled(std::size_t(n) * 4, 1);
    for (int i = 0; i < n; ++i) pos[i * 4 + 3] = 1.0f + 0.25f * float(i % 3);
    const DevicePtr dp = upload(pos), da = dev.malloc(pos.size() * 4);
    launches.push_back({"nbody 4096", "nbody_forces", {n / 256}, {256}, {val(dp), val(da), val(n), val(0.01f)}, da,
                        pos.size() * 4});
  }
  {
    const int n = 1 << 22;
    const DevicePtr dx = upload(filled(n, 4)), dy = upload(filled(n, 5));
    launches.push_back({"saxpy 2^22", "saxpy", {unsigned(n / 256)}, {256}, {val(n), val(2.0f), val(dx), val(dy)}, dy,
                        std::size_t(n) * 4});
  }
  {
    const int n = 2048;
    const DevicePtr din = upload(filled(std::size_t(n) * n, 6)), dout = dev.malloc(std::size_t(n) * n * 4);
    launches.push_back({"transpose 2048", "transpose", {unsigned(n / 32), unsigned(n / 32)}, {32, 8},
                        {val(din), val(dout), val(n)}, dout, std::size_t(n) * n * 4});
  }
  {
    const unsigned n = 1u << 22;
    const DevicePtr din = upload(filled(n, 7)), dout = dev.malloc(std::size_t(n / 512) * 4);
    launches.push_back({"reduce 2^22", "reduce", {n / 512}, {256}, {val(din), val(dout), val(n)}, dout,
                        std::size_t(n / 512) * 4});
  }
  {
    const int n = 640;
    const DevicePtr da = upload(filled(std::size_t(n) * n, 8)), db = upload(filled(std::size_t(n) * n, 9));
    const DevicePtr dc = dev.malloc(std::size_t(n) * n * 4);
    launches.push_back({"matmul 640", "matmul", {unsigned(n / 16), unsigned(n / 16)}, {16, 16},
                        {val(da), val(db), val(dc), val(n)}, dc, std::size_t(n) * n * 4});
  }

  std::printf("profiled launches (LaunchCollector, hopper), %u host thread(s), best of %d\n", threads, reps);
  std::printf("%-15s %12s %10s %10s %10s %12s %12s %8s %6s %14s\n", "workload", "warp insts", "interp s", "jit s",
              "compile s", "interp Mi/s", "jit Mi/s", "speedup", "same", "no-stats jit s");
  bool ok = true;
  const char* only = std::getenv("PROFILED_BENCH_ONLY");
  for (const Launch& l : launches) {
    if (only != nullptr && ("," + std::string(only) + ",").find("," + std::string(l.kernel) + ",") == std::string::npos)
      continue;
    // The launches rewrite their outputs from the same inputs (saxpy: y = a*x + y, so each mode
    // starts from the output the previous launch left; the comparison is between consecutive
    // launches of the two modes, which see the same input).
    Outcome interp, jit;
    double ti = 1e30, tj = 1e30, tn = 1e30;
    exec::set_jit_enabled(true);
    const double before = jit::stats().compile_seconds;
    (void)profiled(dev, m, l, &profile);  // compiles the kernel
    const double compile = jit::stats().compile_seconds - before;
    bool same = true;
    for (int r = 0; r < reps; ++r) {
      exec::set_jit_enabled(false);
      interp = profiled(dev, m, l, &profile);
      ti = std::min(ti, interp.seconds);
      exec::set_jit_enabled(true);
      jit = profiled(dev, m, l, &profile);
      tj = std::min(tj, jit.seconds);
      tn = std::min(tn, profiled(dev, m, l, nullptr).seconds);
      same = same && interp.metrics == jit.metrics && interp.warp == jit.warp &&
             (std::string(l.kernel) == "saxpy" || interp.output == jit.output);
    }
    ok = ok && same;
    if (const char* dir = std::getenv("PROFILED_BENCH_METRICS")) {
      const std::string path = std::string(dir) + "/" + l.kernel + ".json";
      std::ofstream f(path);
      f << interp.metrics << "\n" << interp.rows << "\n";
      if (!f) {
        std::printf("profiled_bench: cannot write %s\n", path.c_str());
        ok = false;
      }
    }
    std::printf("%-15s %12llu %10.4f %10.4f %10.3f %12.1f %12.1f %8.2f %6s %14.4f\n", l.name,
                static_cast<unsigned long long>(interp.warp), ti, tj, compile, double(interp.warp) / ti / 1e6,
                double(jit.warp) / tj / 1e6, ti / tj, same ? "yes" : "NO", tn);
  }
  return ok ? 0 : 1;
}
