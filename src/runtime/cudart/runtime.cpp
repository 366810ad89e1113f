// The runtime's device state and its one launch path (Runtime::launch, which calls the profiler),
// the error a fault maps to (map_error), device reset and fork handling; its host-side memory
// (pointer kinds, copies, host-visible allocations) is runtime_memory.cpp.
#include "runtime/cudart/runtime.hpp"

#include <cxxabi.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <utility>

#include <fmt/format.h>

#include "common/error.hpp"
#include "stats/collector.hpp"
#include "stats/report_json.hpp"
#include "analysis/advice.hpp"
#include "analysis/launch_resources.hpp"
#include "analysis/local_index.hpp"
#include "analysis/ptxas.hpp"
#include "analysis/sass.hpp"
#include "runtime/cudart/closed_library.hpp"
#include "runtime/cudart/graph.hpp"
#include "profile/profile.hpp"

// Marks a program linked with libwarpscope_cudart_static.a, so that `warpscope run` can tell it
// from one linked with NVIDIA's static runtime (whose calls cannot be replaced).
extern "C" __attribute__((used)) const char warpscope_cudart_static_marker[] = "warpscope CUDA runtime";

namespace warpscope::cudart {
namespace fatbin = warpscope::runtime::fatbin;
namespace {

/// The kernel's CodeFacts for its current instruction list, made on first use.
const KernelRec::CodeFacts& code_facts(KernelRec& k) {
  const std::vector<InstructionInfo>& code = k.module->module->instructions(k.name);
  KernelRec::CodeFacts& f = k.code_facts;
  if (f.code != &code || f.sass != k.sass) {
    f.code = &code;
    f.sass = k.sass;
    f.dynamic_local_index = analysis::dynamic_local_index(code);
    f.float_atomic_pcs = float_atomic_pcs(code);
    f.aggregated_atomic_pcs = aggregated_atomic_pcs(code, k.sass);
  }
  return f;
}

/// A launch's kernel and shape, for the predicted duration of launches the filter leaves out.
std::string shape_key(const std::string& kernel, const Dim3& grid, const Dim3& block, std::size_t shmem) {
  return fmt::format("{}|{},{},{}|{},{},{}|{}", kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z, shmem);
}


// fork() without exec after CUDA was initialised (the device made): the child's calls fail.
std::atomic<bool> g_device_made{false};
std::atomic<bool> g_forked{false};
extern "C" void warpscope_runtime_after_fork_in_child() {
  if (g_device_made.load()) g_forked.store(true);
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr ? std::string() : std::string(v);
}

/// A launch's "memcheck" object (docs/report.md): the mode, the number of lane accesses outside
/// every allocation that proceeded, and each instruction's first one.
nlohmann::json memcheck_json(const LaunchStats& stats, const std::string& mode) {
  nlohmann::json first = nlohmann::json::array();
  for (const MemcheckError& e : stats.memcheck) {
    first.push_back({{"pc", e.pc}, {"kernel", e.kernel}, {"file", e.file}, {"line", e.line}, {"ptx", e.ptx},
                     {"block", {e.block.x, e.block.y, e.block.z}}, {"thread", {e.thread.x, e.thread.y, e.thread.z}},
                     {"address", e.address}, {"size", e.size}, {"access", e.access}, {"space", e.space},
                     {"allocation", {{"base", e.allocation_base}, {"size", e.allocation_size}, {"label", e.allocation_label}}},
                     {"before", e.before}, {"distance", e.distance}, {"relation", e.relation}, {"count", e.count},
                     {"message", e.message}});
  }
  return {{"mode", mode}, {"errors", stats.memcheck_errors}, {"first", std::move(first)}};
}
}  // namespace

std::string demangle(const std::string& mangled) {
  int status = 0;
  char* d = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
  if (status != 0 || d == nullptr) return mangled;
  std::string out(d);
  std::free(d);
  return out;
}

cudaError_t& last_error() {
  thread_local cudaError_t e = kSuccess;
  return e;
}

Runtime& Runtime::get() {
  // Never destroyed: programs call the runtime from their own static destructors and atexit
  // handlers (__cudaUnregisterFatBinary), after ours would have run. The report is written by an
  // atexit handler registered on first use.
  static Runtime* r = new Runtime();
  return *r;
}

Runtime::Runtime() {
  arch_file_ = env("WARPSCOPE_ARCH_FILE");
  arch_name_ = env("WARPSCOPE_ARCH");
  compare_names_ = env("WARPSCOPE_COMPARE_ARCH");
  quiet = !env("WARPSCOPE_QUIET").empty();
  no_stats = !env("WARPSCOPE_NO_STATS").empty();
  any_ptx = !env("WARPSCOPE_ANY_PTX").empty();
  if (const std::string f = env("WARPSCOPE_SAMPLE_CTAS"); !f.empty()) {
    const double v = std::atof(f.c_str());
    if (v > 0 && v <= 1) {
      sample_ctas = v;
    } else {
      std::fprintf(stderr, "warpscope: WARPSCOPE_SAMPLE_CTAS=%s is not a fraction in (0, 1]; sampling every CTA\n",
                   f.c_str());
    }
  }
  if (const std::string t = env("WARPSCOPE_EVENT_TIME"); !t.empty()) {
    if (t == "wall" || t == "predicted") {
      event_time_wall = t == "wall";
    } else {
      std::fprintf(stderr, "warpscope: WARPSCOPE_EVENT_TIME=%s is not predicted or wall; using predicted\n", t.c_str());
    }
  }
  if (const std::string m = env("WARPSCOPE_MEMCHECK"); !m.empty()) {
    if (m == "report" || m == "strict" || m == "off") {
      memcheck = m;
    } else {
      std::fprintf(stderr, "warpscope: WARPSCOPE_MEMCHECK=%s is not report, off or strict; using report\n", m.c_str());
    }
  }
  configure_sanitizer();  // sanitize.cpp
  const std::string threads = env("WARPSCOPE_THREADS");
  if (!threads.empty()) host_threads = static_cast<unsigned>(std::max(1, std::atoi(threads.c_str())));
  launch_filter = launch_filter_from_environment();
  configure_report();
  pthread_atfork(nullptr, nullptr, warpscope_runtime_after_fork_in_child);
  double timeout = 0;
  if (const std::string t = env("WARPSCOPE_TIMEOUT"); !t.empty()) {
    timeout = std::atof(t.c_str());
    if (!(timeout > 0)) {
      std::fprintf(stderr, "warpscope: WARPSCOPE_TIMEOUT=%s is not a number of seconds > 0; no timeout\n", t.c_str());
      timeout = 0;
    }
  }
  // SIGINT/SIGTERM, --timeout and the progress line (monitor.hpp). A signal that arrives while no
  // launch runs ends the run from the watcher thread, once no API call holds the lock.
  Monitor::get().start(timeout, !quiet && isatty(2) == 1, [](int sig) {
    Runtime& rt = Runtime::get();
    std::lock_guard lock(rt.mu);
    rt.finish_stopped(sig);
  });
  std::atexit([] {
    Runtime& rt = Runtime::get();
    std::lock_guard lock(rt.mu);
    rt.write_report();
  });
}

Runtime::~Runtime() = default;

const arch::Profile& Runtime::profile() {
  if (!profile_) {
    try {
      profile_ = !arch_file_.empty()
                     ? arch::load_profile_file(arch_file_)
                     : arch::builtin_profile(arch_name_.empty() ? arch::kDefaultProfile : arch_name_);
    } catch (const Error& e) {
      std::fprintf(stderr, "warpscope: %s; using the %s profile\n", e.what(),
                   std::string(arch::kDefaultProfile).c_str());
      profile_ = arch::builtin_profile(arch::kDefaultProfile);
    }
  }
  return *profile_;
}

const std::vector<arch::Profile>& Runtime::compare_profiles() {
  if (!compare_profiles_) {
    compare_profiles_.emplace();
    std::size_t start = 0;
    while (start <= compare_names_.size()) {
      std::size_t end = compare_names_.find(',', start);
      if (end == std::string::npos) end = compare_names_.size();
      const std::string name = compare_names_.substr(start, end - start);
      start = end + 1;
      if (name.empty() || name == profile().name) continue;
      try {
        compare_profiles_->push_back(arch::builtin_profile(name));
      } catch (const Error& e) {
        std::fprintf(stderr, "warpscope: --compare-arch: %s\n", e.what());
      }
    }
  }
  return *compare_profiles_;
}

void Runtime::note(const std::string& text) const {
  if (!quiet) std::fprintf(stderr, "warpscope: %s\n", text.c_str());
}

Device& Runtime::device() {
  if (!device_) {
    DeviceOptions o;
    // The H100's measured totalGlobalMem for the default profile; others use the profile's DRAM.
    o.global_memory_bytes = profile().name == "hopper" ? 85017493504ull : profile().dram_bytes;
    if (o.global_memory_bytes == 0) o.global_memory_bytes = 1ull << 32;
    o.host_threads = host_threads;
    o.memcheck = memcheck == "strict" ? MemcheckMode::kStrict : MemcheckMode::kReport;
    o.sanitize.racecheck = sanitize_tool == "racecheck";
    o.sanitize.synccheck = sanitize_tool == "synccheck";
    o.sanitize.racecheck_global = o.sanitize.racecheck && env("WARPSCOPE_RACECHECK_MEMORY") == "all";
    o.sanitize.initcheck = sanitize_tool == "initcheck";
    o.sanitize.initcheck_shared = o.sanitize.initcheck && env("WARPSCOPE_INITCHECK_MEMORY") == "all";
    o.sanitize.memcheck = sanitize_tool == "memcheck";
    o.printf_fifo_bytes = limit_printf_fifo;
    o.malloc_heap_bytes = limit_malloc_heap;
    device_ = std::make_unique<Device>(o);
    device_memory_bytes_ = o.global_memory_bytes;
    g_device_made.store(true);
    reserve_address_space();
  }
  return *device_;
}

void Runtime::reserve_address_space() {
  if (reserved_base_ != nullptr) return;
  // Where the device puts its allocations: probe with one.
  const DevicePtr probe = device_->malloc(1);
  device_->free(probe);
  const std::uint64_t base = probe & ~((1ull << 30) - 1);
  // The device's whole range (src/exec/memory.cpp: twice its memory, for fragmentation, and the
  // GiB the probe rounds down over) must be reserved, or the process's own mappings can land in
  // it and cannot be registered as host memory (cudaHostRegister: "overlaps the device's address
  // range"); smaller reservations are a last resort.
  const std::size_t whole_gib = static_cast<std::size_t>((2 * device_memory_bytes_ + (1ull << 30) - 1) >> 30) + 1;
  for (std::size_t gib : {std::size_t{512}, whole_gib, std::size_t{128}, std::size_t{32}, std::size_t{8}, std::size_t{2}}) {
    const std::size_t bytes = gib << 30;
    void* p = mmap(reinterpret_cast<void*>(base), bytes, PROT_NONE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p == MAP_FAILED) continue;
    if (p != reinterpret_cast<void*>(base)) {  // an old kernel that ignores NOREPLACE
      munmap(p, bytes);
      continue;
    }
    reserved_base_ = p;
    reserved_bytes_ = bytes;
    device_lo_ = base;
    device_hi_ = base + bytes;
    return;
  }
}

void Runtime::reset_device() {
  for (auto& [key, h] : host_allocs) {
    if (h.map_base != nullptr) {
      munmap(h.map_base, h.map_bytes);
      if (reserved_base_ != nullptr) {
        mmap(h.map_base, h.map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
      }
    } else {
      std::free(h.ptr);
    }
  }
  host_allocs.clear();
  note_leaks();  // cudaDeviceReset: what the context still held leaked
  allocations.clear();
  symbol_ranges.clear();
  vmm_ranges.clear();  // the new device has none of them mapped (drv_vmm.cpp maps again at cuMemSetAccess)
  reset_captures();
  for (auto* s : streams) delete s;
  streams.clear();
  for (auto* e : events) delete e;
  events.clear();
  for (auto& m : modules) {
    m->module.reset();
    m->state = ModuleRec::State::kRegistered;
    m->load_error = kSuccess;
  }
  device_.reset();
  limit_printf_fifo = kDefaultPrintfFifo;  // limits are the context's: back to their defaults
  limit_malloc_heap = kDefaultMallocHeap;
  sticky = kSuccess;
  sticky_message.clear();
}

cudaError_t map_error(const Error& e, bool* sticky) {
  *sticky = false;
  switch (e.kind()) {
    case ErrorKind::kOutOfBounds: *sticky = true; return kErrIllegalAddress;
    case ErrorKind::kMisaligned: *sticky = true; return kErrMisalignedAddress;
    case ErrorKind::kDeadlock: *sticky = true; return kErrLaunchFailure;
    // The faults the H200 was measured to stop with cudaErrorIllegalInstruction have a kind of
    // their own (named-barrier counts, warp.cpp). Other faults, the TMA's that mention an illegal
    // instruction too, are kUndefined: the H100 returned cudaErrorLaunchFailure for those.
    case ErrorKind::kIllegalInstruction: *sticky = true; return kErrIllegalInstruction;
    case ErrorKind::kUndefined: *sticky = true; return kErrLaunchFailure;
    case ErrorKind::kTrap: {
      *sticky = true;
      std::string what = e.what();
      std::transform(what.begin(), what.end(), what.begin(), [](unsigned char c) { return std::tolower(c); });
      return what.find("assert") != std::string::npos ? kErrAssert : kErrLaunchFailure;
    }
    case ErrorKind::kUsage: return kErrInvalidValue;
    // A launch a signal or --timeout stopped: the run ends (finish_stopped), the code is for the record.
    case ErrorKind::kInterrupted: return kErrLaunchTimeout;
    case ErrorKind::kUnsupported: return kErrNotSupported;
    case ErrorKind::kParse: return kErrInvalidPtx;
    case ErrorKind::kProfile:
    case ErrorKind::kIo:
    case ErrorKind::kInternal: return kErrUnknown;
  }
  return kErrUnknown;
}

cudaError_t Runtime::check_stream(const void* stream) const {
  const auto v = reinterpret_cast<std::uintptr_t>(stream);
  if (v == 0 || v == kStreamLegacy || v == kStreamPerThread) return kSuccess;
  return streams.count(static_cast<Stream*>(const_cast<void*>(stream))) ? kSuccess : kErrInvalidResourceHandle;
}

cudaError_t Runtime::launch(const void* func, Dim3 grid, Dim3 block, void** args, std::size_t shmem,
                            const void* stream, bool cooperative, const Dim3* cluster) {
  KernelRec* k = find_kernel(func);
  if (k == nullptr) {
    note(fmt::format("launch of {} which is not a registered kernel", func));
    return kErrInvalidDeviceFunction;
  }
  if (cudaError_t e = check_stream(stream); e != kSuccess) return e;
  if (cudaError_t e = ensure_loaded(*k->module); e != kSuccess) return e;
  if (k->part == kNoPart) {
    note(fmt::format("launch of {}: its translation unit in {} has no PTX", demangle(k->name), k->module->origin));
    return kErrNoKernelImageForDevice;
  }
  const auto& p = profile();
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || threads == 0 || threads > p.max_threads_per_block ||
      block.x > 1024 || block.y > 1024 || block.z > 64 || grid.x > 2147483647u || grid.y > 65535 ||
      grid.z > 65535) {
    note(fmt::format("launch of {}: invalid configuration grid ({},{},{}) block ({},{},{})",
                     demangle(k->name), grid.x, grid.y, grid.z, block.x, block.y, block.z));
    // CUDA 13 on an H100 reports a bad grid or block as cudaErrorInvalidValue (measured), not
    // cudaErrorInvalidConfiguration as older runtimes did.
    return kErrInvalidValue;
  }
  const std::uint64_t static_shared = resources(*k).static_shared;
  const std::uint64_t dyn_limit =
      k->max_dynamic_shared >= 0 ? static_cast<std::uint64_t>(k->max_dynamic_shared)
                                 : (48u * 1024u > static_shared ? 48u * 1024u - static_shared : 0);
  if (shmem > dyn_limit || static_shared + shmem > p.shared_bytes_per_block) {
    note(fmt::format("launch of {}: {} bytes of dynamic shared memory exceed the kernel's limit of {} "
                     "(raise it with cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize, n))",
                     demangle(k->name), shmem, dyn_limit));
    return kErrInvalidValue;
  }
  if (cooperative) {
    const std::uint64_t limit = cooperative_limit(*k, block, shmem);
    if (std::uint64_t{grid.x} * grid.y * grid.z > limit) {
      note(fmt::format("cooperative launch of {}: {} blocks, but only {} fit on the device at once", demangle(k->name),
                       std::uint64_t{grid.x} * grid.y * grid.z, limit));
      return kErrCooperativeLaunchTooLarge;
    }
  }
  Dim3 cluster_dims{1, 1, 1};
  bool cluster_named = false;
  if (cudaError_t e = launch_cluster(*k, grid, cluster, false, &cluster_dims, &cluster_named); e != kSuccess) return e;
  if (args == nullptr && !k->params.empty()) return kErrInvalidValue;
  std::vector<KernelArg> kargs;
  kargs.reserve(k->params.size());
  for (std::size_t i = 0; i < k->params.size(); ++i) kargs.push_back(KernelArg{args[i], k->params[i].size});

  // -k/-s/-c: a launch the filter leaves out runs without the memory model, as under --no-stats.
  // --nvtx-include/-exclude: the calling thread's NVTX ranges decide first (nvtx.hpp); a launch
  // they leave out is not counted by the other filters, as ncu applies them together.
  const NvtxStacks nvtx = nvtx_stacks();
  KernelFilter::Decision chosen;
  if (std::string why = nvtx_filter_reason(nvtx); !why.empty()) {
    chosen.profiled = false;
    chosen.reason = std::move(why);
  } else if (launch_filter) {
    chosen = launch_filter->select(k->name);
  }
  // A left-out launch of a kernel and shape with no prediction yet still goes through the memory
  // model, for its predicted time alone (cudaEventElapsedTime around it); its report keeps the
  // left-out form. Later left-out launches of the shape take that time (predicted_shapes).
  const std::string shape = shape_key(k->name, grid, block, shmem);
  const bool time_only = !no_stats && !chosen.profiled && predicted_shapes.count(shape) == 0;
  const bool model = !no_stats && (chosen.profiled || time_only);
  LaunchRecord rec;
  rec.host_stack = host_stack();  // warpscope sanitize: "at kernel launch time"
  rec.profiled = chosen.profiled;
  rec.not_profiled = chosen.reason;
  if (nvtx_injected()) rec.nvtx = nvtx_json(nvtx);
  rec.launched_from_device = std::exchange(device_parent, nullptr);
  rec.kernel = k->name;
  rec.name = demangle(k->name);
  rec.grid = warpscope::Dim3{grid.x, grid.y, grid.z};
  rec.block = warpscope::Dim3{block.x, block.y, block.z};
  rec.dynamic_shared = shmem;
  rec.registers = resources(*k).registers;
  rec.module = k->module->origin;
  const auto sv = reinterpret_cast<std::uintptr_t>(stream);
  rec.stream = (sv == 0 || sv == kStreamLegacy || sv == kStreamPerThread) ? 0 : static_cast<const Stream*>(stream)->id;

  std::vector<const arch::Profile*> models{&profile()};
  for (const arch::Profile& other : compare_profiles()) models.push_back(&other);
  stats::LaunchCollector metrics(std::move(models));
  install_machine_code(*k);
  const KernelResources& res = resources(*k);
  // The local frame: the PTX's depot, or ptxas's stack frame when spill accesses use it.
  metrics.set_local_frame_bytes(res.spill_accesses != 0 ? std::max(res.local_bytes, res.stack_frame_bytes)
                                                        : res.local_bytes);
  // ptxas kept every PTX local array in registers: those accesses are not memory traffic.
  metrics.set_local_in_registers(res.from_ptxas && res.stack_frame_bytes == 0);
  {
    // The CTAs one SM holds, for the block scheduler's placement (src/stats/cta_placement.hpp).
    const int block_threads = static_cast<int>(std::uint64_t(block.x) * block.y * block.z);
    std::vector<std::uint32_t> per_sm{static_cast<std::uint32_t>(occupancy_blocks(profile(), block_threads, res.static_shared + shmem, res.registers))};
    for (const arch::Profile& other : compare_profiles())
      per_sm.push_back(static_cast<std::uint32_t>(occupancy_blocks(other, block_threads, res.static_shared + shmem, res.registers)));
    metrics.set_blocks_per_sm(per_sm);
  }
  // --sample-ctas: every k-th CTA feeds the memory model, k = round(1 / fraction).
  const std::uint64_t total_ctas = std::uint64_t(grid.x) * grid.y * grid.z;
  metrics.set_launch_ctas(total_ctas);
  const auto every = static_cast<std::uint32_t>(std::max<long>(1, std::lround(1.0 / sample_ctas)));
  const std::uint64_t sampled_ctas = every > 1 ? (total_ctas + every - 1) / every : total_ctas;
  metrics.set_cta_sample_stride(every);
  if (model) {
    const KernelRec::CodeFacts& facts = code_facts(*k);
    metrics.set_float_atomic_pcs(facts.float_atomic_pcs);
    metrics.set_aggregated_atomic_pcs(facts.aggregated_atomic_pcs);
    stats::AddressRanges mapped;  // zero-copy memory: the same address on both sides
    for (const auto& [at, h] : host_allocs)
      if (h.device_base != 0 && !h.managed) mapped.emplace_back(at, at + h.bytes);
    metrics.set_host_mapped(std::move(mapped));
  }
  Device& dev = device();
  sync_managed_to_device();
  dev.set_access_sink(model ? &metrics : nullptr);
  const auto t0 = std::chrono::steady_clock::now();
  cudaError_t result = kSuccess;
  LaunchStats stats;
  Monitor& monitor = Monitor::get();
  LaunchProgress progress;
  bool interrupted = false;  // a signal or --timeout stopped it: the run ends after it is recorded
  auto fault = [&](const Error& e) {
    bool is_sticky = false;
    result = map_error(e, &is_sticky);
    rec.error = fmt::format("{}: {}", error_name(result), e.what());
    const std::string msg = fmt::format("kernel {} (launch #{}, grid ({},{},{}) block ({},{},{})) failed: {}: {}",
                                        rec.name, launches.size(), grid.x, grid.y, grid.z, block.x,
                                        block.y, block.z, error_string(result), e.what());
    std::fprintf(stderr, "warpscope: %s\n", msg.c_str());
    if (is_sticky) {
      sticky = result;
      sticky_message = msg;
    }
  };
  monitor.launch_begins(rec.name, std::uint64_t{grid.x} * grid.y * grid.z, &progress);
  struct EndWatch {  // the progress line is erased before any message, however the launch ends
    Monitor& m;
    ~EndWatch() { m.launch_ends(); }
  } end_watch{monitor};
  try {
    LaunchOptions options;
    options.dynamic_shared_bytes = shmem;
    options.cooperative = cooperative;
    if (cluster != nullptr) {
      options.cluster = warpscope::Dim3{cluster->x, cluster->y, cluster->z};
      options.explicit_cluster = true;
    }
    options.stop = monitor.stop_flag();
    options.progress = &progress;
    options.sink_cta_every = every;
    if (!sanitize_tool.empty()) options.sanitizer_findings = &stats.sanitizer;
    stats = dev.launch(*k->module->module, k->name, rec.grid, rec.block, kargs, options);
    monitor.launch_ends();
    if (stats.printf_dropped != 0) {
      note(fmt::format("kernel {} (launch #{}): {} printf calls dropped: the printf FIFO of {} bytes is full "
                       "(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, ...) before the first launch enlarges it)",
                       rec.name, launches.size(), stats.printf_dropped, dev.printf_fifo_size()));
    }
  } catch (const LaunchStopped& e) {
    monitor.launch_ends();
    // What ran before the stop is reported, marked incomplete with where the warps were.
    stats = e.stop().partial;
    std::string message = e.what();
    if (e.kind() == ErrorKind::kInterrupted) {
      interrupted = true;
      const int code = e.stop().code;
      message = (code == Monitor::kStopTimeout
                     ? fmt::format("launch #{} timed out after {:.1f} s (--timeout {}): ", launches.size(),
                                   monitor.launch_seconds(), monitor.timeout_seconds())
                     : fmt::format("launch #{} interrupted by {} after {:.1f} s: ", launches.size(),
                                   Monitor::signal_name(code), monitor.launch_seconds())) +
                message;
      std::fprintf(stderr, "warpscope: %s\n", message.c_str());
    } else {
      fault(e);
    }
    rec.incomplete = incomplete_json(e.stop(), k->module->module->instructions(k->name), message);
  } catch (const Error& e) {
    monitor.launch_ends();
    fault(e);
  }
  monitor.launch_ends();
  const auto t1 = std::chrono::steady_clock::now();
  rec.memcheck = memcheck_json(stats, memcheck);
  if (!sanitize_tool.empty()) rec.sanitizer = sanitizer_findings_json(stats);
  if (memcheck == "report") {
    for (const MemcheckError& e : stats.memcheck) {
      std::fprintf(stderr, "warpscope: memcheck: %s (launch #%zu: %llu such lane access%s by this instruction; the GPU maps "
                   "this address, so the access proceeded)\n", e.message.c_str(), launches.size(),
                   static_cast<unsigned long long>(e.count), e.count == 1 ? "" : "es");
    }
  }
  dev.set_access_sink(nullptr);
  if (sticky == kSuccess) sync_managed_to_host();
  rec.wall_ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  // The machine code's instruction counts (sm_90 profiles), from the interpreter's per-PTX counts.
  rec.sass_counts = sass_counts(k->sass, k->sass_ptx, stats);
  if (!model) {
    // --no-stats, or a launch the filter left out: the interpreter's counts only; nothing here
    // pretends to be a memory counter.
    rec.metrics = {{"smsp__inst_executed.sum", stats.warp_instructions},
                   {"smsp__thread_inst_executed.sum", stats.thread_instructions}};
    rec.estimated = nlohmann::json::array();
    rec.lines = nlohmann::json::array();
    if (rec.sass_counts) {
      // --no-stats keeps two metrics: the machine code's counts when there are some.
      rec.metrics["smsp__inst_executed.sum"] = rec.sass_counts->warp_instructions;
      rec.metrics["smsp__thread_inst_executed.sum"] = rec.sass_counts->thread_instructions;
    }
    rec.advice = nlohmann::json::array();
    rec.extra = nlohmann::json::object();
    rec.compare = nlohmann::json::array();
    // A launch the filter left out takes the predicted duration of a profiled launch of the same
    // kernel and shape (the common -s/-c case: one profiled launch, its repeats not); without one
    // it has no prediction, as under --no-stats.
    const auto twin = no_stats ? predicted_shapes.end() : predicted_shapes.find(shape);
    if (twin != predicted_shapes.end() && rec.incomplete.is_null() && rec.error.empty()) {
      gpu_ns += twin->second.first;
      rec.extra["event_time_ns"] = twin->second.first;
      rec.extra["event_time_from_launch"] = twin->second.second;
    } else {
      ++unpredicted_launches;  // no memory model: the time model has nothing to read
    }
    record_launch(std::move(rec));
    if (interrupted || monitor.stop_code() != 0) finish_stopped(monitor.stop_code());
    return sticky != kSuccess ? kSuccess : result;
  }
  const std::vector<InstructionInfo>& code = k->module->module->instructions(k->name);
  std::vector<stats::ModelResult> results = metrics.finish();
  const std::vector<bool>& dynamic_index = code_facts(*k).dynamic_local_index;
  double primary_ns = -1;  // the primary profile's predicted duration (-1: none)
  for (std::size_t i = 0; i < results.size(); ++i) {
    nlohmann::json m = stats::metrics_json(results[i], stats);
    nlohmann::json est = stats::estimated_json(results[i]);
    nlohmann::json lines = stats::lines_json(results[i], stats, code, sources_);
    nlohmann::json adv = analysis::advise(results[i], stats, code, lines, sampled_ctas);
    nlohmann::json sampling = nullptr;
    if (sampled_ctas < total_ctas) {
      const double scale = static_cast<double>(total_ctas) / static_cast<double>(sampled_ctas);
      stats::scale_sampled(m, est, lines, scale);
      sampling = {{"fraction", sample_ctas}, {"every", every}, {"ctas_sampled", sampled_ctas},
                  {"ctas_total", total_ctas}, {"scale", scale},
                  {"note", "memory counters are the sampled CTAs' scaled by ctas_total / ctas_sampled (estimated); "
                           "lines[].instructions are the sampled CTAs' own counts"}};
    }
    analysis::KernelFacts facts;
    facts.registers = res.registers;
    facts.from_ptxas = res.from_ptxas;
    facts.stack_frame_bytes = res.stack_frame_bytes;
    facts.spill_store_bytes = res.spill_store_bytes;
    facts.spill_load_bytes = res.spill_load_bytes;
    facts.static_shared_bytes = res.static_shared;
    facts.ptx_local_bytes = res.local_bytes;
    facts.cluster = cluster_named ? warpscope::Dim3{cluster_dims.x, cluster_dims.y, cluster_dims.z} : warpscope::Dim3{0, 0, 0};
    facts.non_portable_cluster = k->non_portable_cluster != 0;
    for (const auto& [pc, text] : res.lane_groupings) {
      if (pc < code.size()) facts.lane_groupings.push_back({pc, code[pc].file, code[pc].line, text});
    }
    for (std::size_t pc = 0; pc < code.size() && pc < results[i].per_pc.size(); ++pc) {
      if (!code[pc].compiled) continue;
      ++facts.machine_spills;
      facts.machine_spill_requests += results[i].per_pc[pc].requests;
      facts.machine_spill_sectors += results[i].per_pc[pc].sectors;
    }
    nlohmann::json extra =
        analysis::launch_resources(*results[i].profile, facts, rec.grid, rec.block, shmem, m, est, adv);
    extra["local_arrays"] = stats::local_arrays_json(results[i], code, dynamic_index);
    extra["math_to_memory"] = analysis::math_to_memory(results[i], stats, code);
    extra["unit_extremes"] = stats::unit_extremes_json(results[i]);
    extra["sampling"] = sampling;
    if (i == 0 && rec.sass_counts) {
      apply_sass_counts(*rec.sass_counts, code, m, est, lines);
      extra["sass"] = sass_json(*rec.sass_counts);
      if (k->sass != nullptr && k->cubin != nullptr && !k->cubin->empty()) {
        // What Nsight Compute's Source page shows (-o NAME.ncu-rep): the cubin, once per report.
        add_source_correlation(extra["sass"], *rec.sass_counts, *k->sass, lines);
        const std::string key = cubin_key(*k->cubin);
        extra["sass"]["cubin_key"] = key;
        if (rec.profiled && cubins_in_report.insert(key).second) extra["sass"]["cubin_base64"] = base64(*k->cubin);
      }
    }
    double predicted_ns = -1;
    extra["time"] = predict_launch_time(*results[i].profile, code, stats, rec.grid, rec.block, extra["occupancy"], m,
                                        est, &predicted_ns, i == 0 && rec.sass_counts ? &*rec.sass_counts : nullptr,
                                        k->sass, results[i].atomics, results[i].host_mapped,
                                        static_cast<double>(total_ctas) / static_cast<double>(std::max<std::uint64_t>(1, sampled_ctas)),
                                        results[i].per_pc, results[i].const_lines);
    if (i == 0) primary_ns = predicted_ns;
    // After the sampling scale (a launch reads its code and constants once, however many CTAs)
    // and after the time model, whose launch overhead already holds the fetch's cost.
    const nlohmann::json fetch =
        add_launch_fetch(*results[i].profile, k->sass, code.size(), results[i].launch_const_lines, m);
    if (!fetch.is_null()) extra["launch_fetch"] = fetch;
    if (i == 0) {
      rec.metrics = std::move(m);
      rec.estimated = std::move(est);
      rec.lines = std::move(lines);
      rec.advice = std::move(adv);
      rec.extra = std::move(extra);
      rec.compare = nlohmann::json::array();
    } else {
      nlohmann::json c = {{"arch", results[i].profile->name}, {"metrics", std::move(m)}, {"estimated", std::move(est)},
                          {"lines", std::move(lines)}, {"advice", std::move(adv)},
                          {"transaction_unit", transaction_unit(*results[i].profile)}};
      c.update(extra);
      rec.compare.push_back(std::move(c));
    }
  }
  if (primary_ns >= 0 && rec.incomplete.is_null()) {
    gpu_ns += primary_ns;
    // A profiled launch's prediction replaces a time-only one of the same shape.
    if (rec.profiled || predicted_shapes.count(shape) == 0)
      predicted_shapes.insert_or_assign(shape, std::make_pair(primary_ns, launches.size()));
  } else {
    ++unpredicted_launches;
  }
  if (time_only) {
    // The left-out form (as under --no-stats): the instruction counts, and the predicted time.
    const nlohmann::json m = rec.metrics;
    rec.metrics = {{"smsp__inst_executed.sum", m.value("smsp__inst_executed.sum", 0.0)},
                   {"smsp__thread_inst_executed.sum", m.value("smsp__thread_inst_executed.sum", 0.0)}};
    rec.estimated = nlohmann::json::array();
    rec.lines = nlohmann::json::array();
    rec.advice = nlohmann::json::array();
    rec.compare = nlohmann::json::array();
    rec.extra = nlohmann::json::object();
    if (primary_ns >= 0 && rec.incomplete.is_null()) {
      rec.extra["event_time_ns"] = primary_ns;
      rec.extra["event_time_from_launch"] = launches.size();
    }
  }
  const std::size_t launch_index = launches.size();
  record_launch(std::move(rec));
  if (interrupted || monitor.stop_code() != 0) finish_stopped(monitor.stop_code());
  // Dynamic parallelism: the grids its threads launched run now that it has ended (runtime_cdp.cpp).
  if (result == kSuccess && sticky == kSuccess && !stats.device_launches.empty())
    run_device_launches(*k, launch_index, std::move(stats.device_launches), stream);
  // A faulting kernel, as on the hardware, does not fail the (asynchronous) launch call itself;
  // the error is sticky and every later call reports it.
  return sticky != kSuccess ? kSuccess : result;
}

bool forked_child() { return g_forked.load(); }

}  // namespace warpscope::cudart
