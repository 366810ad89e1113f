// Whole workloads through the public API (warpscope::Device), with memory statistics off (no
// sink) and on (stats::LaunchCollector, the sink `warpscope run` uses, hopper profile), on 1 and N
// host threads. Kernels: bench/workloads.cu, compiled to PTX by nvcc at build time.
//
// Every configuration runs in a child process of its own (this binary again, with --one), so
// that each one's peak memory (getrusage's ru_maxrss of that child) is its own. The driver prints
// per configuration: seconds in the launches, warp- and thread-instructions per second, peak
// memory and the memory over the device allocations and the benchmark's host buffers, and each
// figure's ratio to the 1-thread, statistics-off run of the same workload; then whether outputs
// and statistics are bit-identical across thread counts.
//
//   build/bin/workload_bench                          all workloads, threads 1 and nproc
//   build/bin/workload_bench --threads 2 nbody4096    one workload
//   build/bin/workload_bench --reps 5 ...             best of 5 runs per configuration (default 3)
//   build/bin/workload_bench --one nbody4096 1 2      one configuration (stats 1, 2 threads): one JSON line
//   build/bin/workload_bench --time-cost [--reps N] [--threads N] [workloads]
//       the time model's cost: in this one process, each workload with statistics alone and with
//       statistics and the time model (the runtime's predict_launch_time, as `warpscope run` calls
//       it per launch), alternated N times (default 5); prints the best time of each and the ratio
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/occupancy.hpp"
#include "arch/profile.hpp"
#include "profile/launch_time.hpp"
#include "stats/collector.hpp"
#include "stats/report_json.hpp"
#include "warpscope/warpscope.hpp"

namespace {

using namespace warpscope;

std::string workloads_ptx() {
  const char* env = std::getenv("WARPSCOPE_WORKLOADS_PTX");
  const std::string path = env ? env : WARPSCOPE_WORKLOADS_PTX;
  std::ifstream f(path);
  if (!f) throw std::runtime_error("missing " + path + " (built with nvcc)");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Same inputs as bench/workloads.cu's host program.
float input(std::uint64_t i, unsigned salt) { return float(int((i * 2654435761u + salt) % 17) - 8) * 0.25f; }

std::uint64_t fnv(const void* p, std::size_t n, std::uint64_t h = 1469598103934665603ull) {
  for (std::size_t k = 0; k < n; ++k) h = (h ^ static_cast<const unsigned char*>(p)[k]) * 1099511628211ull;
  return h;
}

struct Result {
  double seconds = 0;
  std::uint64_t warp = 0, thread = 0;
  std::uint64_t device_bytes = 0, host_bytes = 0;
  std::uint64_t output_hash = 0, stats_hash = 0;
  double predicted_ns = 0;   // the time model's sum over the launches (--time-cost)
  double model_seconds = 0;  // spent in the time model (--time-cost)
  std::uint64_t launches = 0;
};

/// Runs one workload; `launch` is called for each kernel launch (it adds the statistics).
DeviceOptions options(unsigned threads) {
  DeviceOptions o;
  o.host_threads = threads;
  return o;
}

class Runner {
 public:
  Runner(bool stats, unsigned threads) : stats_(stats), dev_(options(threads)) {
    module_ = dev_.load_ptx(workloads_ptx(), "workloads.ptx");
  }

  /// With statistics: also predict each launch's time (--time-cost). `seconds` then includes the
  /// statistics' finish and JSON and the prediction, as `warpscope run` spends them per launch.
  void set_time_model(bool on) { time_model_ = on; }

  DevicePtr alloc(std::size_t bytes) {
    r.device_bytes += bytes;
    return dev_.malloc(bytes);
  }
  template <class T>
  DevicePtr upload(const std::vector<T>& h) {
    const DevicePtr d = alloc(h.size() * sizeof(T));
    dev_.copy_to_device(d, h.data(), h.size() * sizeof(T));
    return d;
  }
  template <class T>
  void download(DevicePtr d, std::size_t n) {
    std::vector<T> h(n);
    dev_.copy_to_host(h.data(), d, n * sizeof(T));
    r.output_hash = fnv(h.data(), n * sizeof(T), r.output_hash == 0 ? 1469598103934665603ull : r.output_hash);
  }
  void free(DevicePtr p) { dev_.free(p); }

  void launch(const char* kernel, Dim3 grid, Dim3 block, std::span<const KernelArg> args) {
    std::unique_ptr<stats::LaunchCollector> collector;
    if (stats_) {
      collector = std::make_unique<stats::LaunchCollector>(std::vector<const arch::Profile*>{&profile_});
      dev_.set_access_sink(collector.get());
    }
    // What the runtime has before the time model runs (not part of the model's cost): the
    // kernel's instruction list and its occupancy (registers unknown here: no ptxas, so 0).
    const std::vector<InstructionInfo>* code = nullptr;
    nlohmann::json occupancy;
    if (time_model_) {
      auto it = code_.find(kernel);
      if (it == code_.end()) it = code_.emplace(kernel, module_.instructions(kernel)).first;
      code = &it->second;
      const analysis::Occupancy occ = analysis::compute_occupancy(
          profile_, {.threads_per_block = block.x * block.y * block.z, .registers_per_thread = 0,
                     .static_shared_bytes = 0, .dynamic_shared_bytes = 0});
      occupancy = {{"blocks_per_sm", occ.blocks_per_sm}};
    }
    const auto t0 = std::chrono::steady_clock::now();
    const LaunchStats s = dev_.launch(module_, kernel, grid, block, args);
    r.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    r.warp += s.warp_instructions;
    r.thread += s.thread_instructions;
    ++r.launches;
    if (collector) {
      dev_.set_access_sink(nullptr);
      const std::vector<stats::ModelResult> m = collector->finish();
      nlohmann::json metrics = stats::metrics_json(m.front(), s);
      const std::string text = metrics.dump();
      r.stats_hash = fnv(text.data(), text.size(), r.stats_hash == 0 ? 1469598103934665603ull : r.stats_hash);
      if (code != nullptr) {
        nlohmann::json estimated = stats::estimated_json(m.front());
        const auto t1 = std::chrono::steady_clock::now();
        double ns = -1;
        const nlohmann::json t = profiling::predict_launch_time(profile_, *code, s, grid, block, occupancy, metrics,
                                                             estimated, &ns, nullptr, nullptr, m.front().atomics,
                                                             m.front().host_mapped, 1.0, m.front().per_pc,
                                                             m.front().const_lines);
        r.model_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
        if (!t.value("available", false)) throw std::runtime_error(std::string(kernel) + ": no time prediction");
        r.predicted_ns += ns;
      }
    }
  }

  Result r;

 private:
  bool stats_;
  bool time_model_ = false;
  std::map<std::string, std::vector<InstructionInfo>> code_;
  const arch::Profile& profile_ = arch::builtin_profile("hopper");
  Device dev_;
  Module module_;
};

void nbody(Runner& w, int n) {
  std::vector<float> pos(std::size_t(n) * 4);
  for (int i = 0; i < n; ++i) {
    pos[i * 4 + 0] = input(i, 1);
    pos[i * 4 + 1] = input(i, 2);
    pos[i * 4 + 2] = input(i, 3);
    pos[i * 4 + 3] = 1.0f + 0.25f * float(i % 3);
  }
  w.r.host_bytes = pos.size() * 4 * 2;
  const DevicePtr dp = w.upload(pos), da = w.alloc(pos.size() * 4);
  const float eps2 = 0.01f;
  const KernelArg args[] = {arg(dp), arg(da), arg(n), arg(eps2)};
  w.launch("nbody_forces", {unsigned(n / 256)}, {256}, args);
  w.download<float>(da, pos.size());
}

void saxpy(Runner& w, int n) {
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = input(i, 4), y[i] = input(i, 5);
  w.r.host_bytes = std::size_t(n) * 4 * 3;
  const DevicePtr dx = w.upload(x), dy = w.upload(y);
  const float a = 2.0f;
  const KernelArg args[] = {arg(n), arg(a), arg(dx), arg(dy)};
  w.launch("saxpy", {unsigned((n + 255) / 256)}, {256}, args);
  w.download<float>(dy, n);
}

void transpose(Runner& w, int n) {
  std::vector<float> a(std::size_t(n) * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = input(i, 6);
  w.r.host_bytes = a.size() * 4 * 2;
  const DevicePtr din = w.upload(a), dout = w.alloc(a.size() * 4);
  const KernelArg args[] = {arg(din), arg(dout), arg(n)};
  w.launch("transpose", {unsigned(n / 32), unsigned(n / 32)}, {32, 8}, args);
  w.download<float>(dout, a.size());
}

void reduce(Runner& w, unsigned n) {
  std::vector<float> a(n);
  for (unsigned i = 0; i < n; ++i) a[i] = input(i, 7);
  w.r.host_bytes = std::size_t(n) * 4;
  DevicePtr cur = w.upload(a);
  for (unsigned len = n; len > 1;) {
    const unsigned blocks = (len + 511) / 512;
    const DevicePtr next = w.alloc(std::size_t(blocks) * 4);
    const KernelArg args[] = {arg(cur), arg(next), arg(len)};
    w.launch("reduce", {blocks}, {256}, args);
    w.free(cur);
    cur = next;
    len = blocks;
  }
  w.download<float>(cur, 1);
}

void matmul(Runner& w, int n) {
  std::vector<float> a(std::size_t(n) * n), b(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = input(i, 8), b[i] = input(i, 9);
  w.r.host_bytes = a.size() * 4 * 3;
  const DevicePtr da = w.upload(a), db = w.upload(b), dc = w.alloc(a.size() * 4);
  const KernelArg args[] = {arg(da), arg(db), arg(dc), arg(n)};
  w.launch("matmul", {unsigned(n / 16), unsigned(n / 16)}, {16, 16}, args);
  w.download<float>(dc, a.size());
}

// Many small launches (one CTA of saxpy each): the per-launch costs dominate.
void launches(Runner& w, int count) {
  const int n = 256;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = input(i, 4), y[i] = input(i, 5);
  w.r.host_bytes = std::size_t(n) * 4 * 3;
  const DevicePtr dx = w.upload(x), dy = w.upload(y);
  const float a = 2.0f;
  const KernelArg args[] = {arg(n), arg(a), arg(dx), arg(dy)};
  for (int k = 0; k < count; ++k) w.launch("saxpy", {1}, {256}, args);
  w.download<float>(dy, n);
}

const std::map<std::string, std::function<void(Runner&)>>& workloads() {
  static const std::map<std::string, std::function<void(Runner&)>> all = {
      {"nbody4096", [](Runner& w) { nbody(w, 4096); }},
      {"nbody16384", [](Runner& w) { nbody(w, 16384); }},
      {"saxpy2^24", [](Runner& w) { saxpy(w, 1 << 24); }},
      {"transpose4096", [](Runner& w) { transpose(w, 4096); }},
      {"reduce2^24", [](Runner& w) { reduce(w, 1u << 24); }},
      {"matmul1024", [](Runner& w) { matmul(w, 1024); }},
      {"launches200", [](Runner& w) { launches(w, 200); }},
  };
  return all;
}
const char* const kOrder[] = {"nbody4096", "nbody16384", "saxpy2^24", "transpose4096", "reduce2^24", "matmul1024"};

int run_one(const std::string& name, bool stats, unsigned threads) {
  const auto it = workloads().find(name);
  if (it == workloads().end()) {
    std::fprintf(stderr, "unknown workload %s\n", name.c_str());
    return 2;
  }
  Runner w(stats, threads);
  it->second(w);
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  const nlohmann::json j = {{"seconds", w.r.seconds},          {"warp", w.r.warp},
                            {"thread", w.r.thread},            {"device_bytes", w.r.device_bytes},
                            {"host_bytes", w.r.host_bytes},    {"peak_bytes", std::uint64_t(ru.ru_maxrss) * 1024},
                            {"output_hash", w.r.output_hash},  {"stats_hash", w.r.stats_hash}};
  std::printf("%s\n", j.dump().c_str());
  return 0;
}

/// --time-cost: each workload with statistics, without and with the time model, alternated in
/// this process; best wall time of each (the whole workload: uploads, launches, statistics).
int time_cost(std::vector<std::string> names, unsigned threads, unsigned reps) {
  if (names.empty()) names = {"nbody4096", "saxpy2^24", "transpose4096", "reduce2^24", "launches200"};
  std::printf("%-14s %8s %12s %12s %7s %12s %9s\n", "workload", "launches", "stats s", "stats+time s", "ratio",
              "model s", "model %");
  for (const std::string& name : names) {
    double best[2] = {1e30, 1e30}, best_model = 1e30;
    std::uint64_t hash[2][2] = {}, count = 0;
    double predicted = 0;
    for (unsigned rep = 0; rep < reps; ++rep) {
      for (int k = 0; k < 2; ++k) {
        const int with_model = (rep % 2 == 0) ? k : 1 - k;  // alternate which goes first
        Runner w(true, threads);
        w.set_time_model(with_model == 1);
        const auto t0 = std::chrono::steady_clock::now();
        workloads().at(name)(w);
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best[with_model] = std::min(best[with_model], s);
        if (with_model) best_model = std::min(best_model, w.r.model_seconds), predicted = w.r.predicted_ns;
        if (rep > 0 && (hash[with_model][0] != w.r.output_hash || hash[with_model][1] != w.r.stats_hash))
          throw std::runtime_error(name + ": two runs of one configuration differ");
        hash[with_model][0] = w.r.output_hash;
        hash[with_model][1] = w.r.stats_hash;
        count = w.r.launches;
      }
    }
    if (hash[0][0] != hash[1][0] || hash[0][1] != hash[1][1])
      throw std::runtime_error(name + ": the time model changed the outputs or statistics");
    std::printf("%-14s %8llu %12.3f %12.3f %7.3f %12.6f %8.3f%%   (predicted %.1f us on hopper)\n", name.c_str(),
                static_cast<unsigned long long>(count), best[0], best[1], best[1] / best[0], best_model,
                100.0 * best_model / best[0], predicted / 1e3);
  }
  std::printf("best of %u alternated runs, %u host thread(s); ratio = stats+time / stats; model s = the least time "
              "spent in predict_launch_time over a run\n", reps, threads);
  return 0;
}

nlohmann::json run_child_once(const std::string& name, bool stats, unsigned threads) {
  int fds[2];
  if (pipe(fds) != 0) throw std::runtime_error("pipe failed");
  const pid_t pid = fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    const std::string s = stats ? "1" : "0", t = std::to_string(threads);
    execl("/proc/self/exe", "workload_bench", "--one", name.c_str(), s.c_str(), t.c_str(), nullptr);
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[4096];
  for (ssize_t k; (k = read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, std::size_t(k));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    throw std::runtime_error(name + ": configuration failed (stats " + std::to_string(stats) + ", threads " +
                             std::to_string(threads) + ")");
  return nlohmann::json::parse(out);
}

/// The best of `reps` runs: the shortest time; the largest peak memory (they hardly differ); the
/// hashes of the first run, which every other run must repeat.
nlohmann::json run_child(const std::string& name, bool stats, unsigned threads, unsigned reps) {
  nlohmann::json best = run_child_once(name, stats, threads);
  for (unsigned r = 1; r < reps; ++r) {
    const nlohmann::json j = run_child_once(name, stats, threads);
    if (j["output_hash"] != best["output_hash"] || j["stats_hash"] != best["stats_hash"])
      throw std::runtime_error(name + ": two runs of one configuration differ");
    if (j["seconds"].get<double>() < best["seconds"].get<double>()) best["seconds"] = j["seconds"];
    best["peak_bytes"] = std::max(best["peak_bytes"].get<std::uint64_t>(), j["peak_bytes"].get<std::uint64_t>());
  }
  return best;
}

double mib(std::uint64_t bytes) { return double(bytes) / (1024.0 * 1024.0); }

}  // namespace

int main(int argc, char** argv) try {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 4 && args[0] == "--one") return run_one(args[1], args[2] == "1", unsigned(std::stoul(args[3])));
  unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  unsigned reps = 3;
  bool cost = false;
  std::vector<std::string> names;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--time-cost") {
      cost = true;
    } else if (args[i] == "--threads" && i + 1 < args.size()) {
      threads = unsigned(std::stoul(args[++i]));
    } else if (args[i] == "--reps" && i + 1 < args.size()) {
      reps = std::max(1u, unsigned(std::stoul(args[++i])));
    } else if (workloads().count(args[i])) {
      names.push_back(args[i]);
    } else {
      std::fprintf(stderr, "usage: workload_bench [--time-cost] [--threads N] [--reps N] [%s ...]\n",
                   "nbody4096|nbody16384|saxpy2^24|transpose4096|reduce2^24|matmul1024|launches200");
      return 2;
    }
  }
  if (cost) return time_cost(names, threads, reps);
  if (names.empty()) names.assign(std::begin(kOrder), std::end(kOrder));
  std::printf("%-14s %5s %7s %9s %13s %13s %9s %10s %6s %6s\n", "workload", "stats", "threads", "seconds",
              "warp-inst/s", "thread-inst/s", "peak MiB", "over MiB", "x time", "x peak");
  bool all_identical = true;
  for (const std::string& name : names) {
    const nlohmann::json base = run_child(name, false, 1, reps);
    std::vector<nlohmann::json> runs;
    for (bool stats : {false, true})
      for (unsigned t : {1u, threads}) {
        if (t == threads && threads == 1 && !runs.empty() && runs.back()["threads"] == 1 &&
            runs.back()["stats"] == stats)
          continue;
        nlohmann::json j = (!stats && t == 1) ? base : run_child(name, stats, t, reps);
        j["stats"] = stats;
        j["threads"] = t;
        runs.push_back(j);
      }
    for (const nlohmann::json& j : runs) {
      const double s = j["seconds"], warp = j["warp"], thread = j["thread"];
      const std::uint64_t peak = j["peak_bytes"], dev = j["device_bytes"], host = j["host_bytes"];
      const double over = mib(peak) - mib(dev) - mib(host);
      std::printf("%-14s %5s %7u %9.3f %12.2fM %12.1fM %9.1f %10.1f %6.2f %6.2f\n", name.c_str(),
                  j["stats"].get<bool>() ? "on" : "off", j["threads"].get<unsigned>(), s, warp / s / 1e6,
                  thread / s / 1e6, mib(peak), over, s / base["seconds"].get<double>(),
                  double(peak) / base["peak_bytes"].get<double>());
    }
    bool identical = true;
    for (const nlohmann::json& j : runs) {
      identical = identical && j["output_hash"] == base["output_hash"] && j["warp"] == base["warp"] &&
                  j["thread"] == base["thread"];
      if (j["stats"].get<bool>()) identical = identical && j["stats_hash"] == runs.back()["stats_hash"];
    }
    std::printf("%-14s outputs, instruction counts and statistics identical across configurations: %s\n",
                name.c_str(), identical ? "yes" : "NO");
    all_identical = all_identical && identical;
  }
  std::printf("best of %u runs per configuration; over MiB = peak - device allocations - the benchmark's host "
              "buffers; x = ratio to stats off, 1 thread\n", reps);
  return all_identical ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "workload_bench: %s\n", e.what());
  return 1;
}
