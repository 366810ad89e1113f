// The state behind warpscope's CUDA runtime replacement: the registered fatbinaries and their
// kernels and variables, the emulated device, allocations, streams, events, errors and the
// per-launch report. One process-wide instance, guarded by one mutex; every C entry point
// (api_*.cpp) takes the lock through call().
//
// Memory. Device memory lives in warpscope::Device's address space. Managed memory and mapped
// pinned memory must be reachable by the same pointer from host and kernel, so they are host pages
// mapped at the very address of a device allocation; the host copy is the valid one between
// launches and is copied in before and out after each launch. To keep host pointers out of the
// device's address range, the range is reserved (PROT_NONE) in the process when the device is
// created. cudaMemcpy and friends classify each pointer: device, managed (host-accessible) or host.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/sass_counts.hpp"
#include "arch/profile.hpp"
#include "common/kernel_filter.hpp"
#include "profile/profile.hpp"
#include "runtime/cudart/abi.hpp"
#include "runtime/fatbin.hpp"
#include "stats/report_json.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::cudart {

// The profiler (src/profile/profile.hpp) as the fronts name it.
using profiling::add_launch_fetch;
using profiling::aggregated_atomic_pcs;
using profiling::apply_sass_counts;
using profiling::float_atomic_pcs;
using profiling::incomplete_json;
using profiling::launch_filter_from_environment;
using profiling::LaunchRecord;
using profiling::Monitor;
using profiling::monotonic_ns;
using profiling::NvtxStacks;
using profiling::nvtx_filter_reason;
using profiling::nvtx_injected;
using profiling::nvtx_json;
using profiling::nvtx_stacks;
using profiling::predict_launch_time;
using profiling::sass_counts;
using profiling::sass_json;
using profiling::add_source_correlation;
using profiling::base64;
using profiling::cubin_key;
using profiling::transaction_unit;

struct ModuleRec;

/// Resources of a compiled kernel (Runtime::resources). With ptxas (src/analysis/ptxas.hpp, run
/// once per module on its PTX for the profile's ptx_target) registers, static shared memory, the
/// stack frame and spills are ptxas's; without it (from_ptxas false) registers are unknown and the
/// rest is read from the PTX text. local_bytes is always the PTX's .local depot per thread: the
/// frame the interpreter's local addresses live in (the memory model's local layout), which need
/// not equal ptxas's stack frame (ptxas may keep a PTX local array in registers).
struct KernelResources {
  int registers = -1;              // -1: unknown
  std::uint64_t static_shared = 0;
  std::uint64_t local_bytes = 0;   // the PTX .local depot
  std::uint64_t const_bytes = 0;   // the module's __constant__ bytes (.const declarations)
  bool from_ptxas = false;
  // ptxas -v, when from_ptxas:
  std::uint64_t stack_frame_bytes = 0;  // cudaFuncGetAttributes' localSizeBytes
  std::uint64_t spill_store_bytes = 0;
  std::uint64_t spill_load_bytes = 0;
  int barriers = 0;
  // From ptxas's machine code (sm_90; src/analysis/sass.hpp), once installed at the first launch:
  bool spills_from_sass = false;        // the machine code was read for this kernel
  std::size_t spill_accesses = 0;       // spill loads/stores installed as compiled accesses
  std::uint32_t spills_unplaced = 0;    // spill instructions with no PTX block to follow
  std::size_t merged_shared_loads = 0;  // ld.shared (st.shared) groups the machine code makes one LDS (STS)
  std::vector<std::pair<std::uint32_t, std::string>> lane_groupings;  // pc, text: ld.local grouped as the machine code's copies
};

struct KernelRec {
  ModuleRec* module = nullptr;
  std::string name;       // mangled device name
  const void* stub = nullptr;
  std::vector<ParamInfo> params;  // filled when the module is loaded
  int max_dynamic_shared = -1;    // cudaFuncAttributeMaxDynamicSharedMemorySize; -1: default
  int carveout = -1;
  int non_portable_cluster = 0;   // cudaFuncAttributeNonPortableClusterSizeAllowed
  std::optional<KernelResources> resources;
  bool spills_installed = false;  // Runtime::install_spills ran
  std::size_t part = 0;           // the ModuleRec::parts entry whose PTX defines it, or kNoPart
  // Its sm_90 machine code (install_machine_code; null without one) and what count_launch needs
  // of its PTX instructions: each launch's machine-code instruction counts (sass_counts.hpp).
  const analysis::sass::Function* sass = nullptr;
  std::vector<analysis::sass::PtxInst> sass_ptx;
  const std::vector<std::uint8_t>* cubin = nullptr;  // the cubin `sass` was read from (ptxas's)
  // What launches read of its instructions and that depends on them alone, made once for the
  // Module::instructions list `code` (a new list, after spills are installed, is a new address).
  struct CodeFacts {
    const std::vector<InstructionInfo>* code = nullptr;
    const analysis::sass::Function* sass = nullptr;  // KernelRec::sass when they were made
    std::vector<bool> dynamic_local_index;  // analysis::dynamic_local_index
    std::vector<bool> float_atomic_pcs;     // launch_time.hpp
    std::vector<bool> aggregated_atomic_pcs;
  };
  CodeFacts code_facts;
};
/// KernelRec::part of a kernel whose translation unit has no PTX (a device link's machine-code-only unit).
inline constexpr std::size_t kNoPart = static_cast<std::size_t>(-1);

struct VarRec {
  ModuleRec* module = nullptr;
  std::string name;
  std::size_t size = 0;
  bool constant = false;
  bool managed = false;
  void** managed_host_slot = nullptr;  // __cudaRegisterManagedVar's host pointer variable
};

/// The PTX of one translation unit, kept for resource queries (ptxas).
struct PtxPart {
  std::string ptx;
  int ptx_arch = 0;
  std::string origin;  // "fatbinary 0, translation unit 1 (b.cu, compute_90 PTX, zstd)"
};

/// One registered fatbinary. A version-2 wrapper of a device link (-rdc=true) is a link unit:
/// its translation units' PTX (fatbin::prelinked_fatbins) are linked into one program
/// (Device::link_ptx, docs/runtime.md "Relocatable device code"), and every kernel and variable
/// registered against its handle, from any translation unit, lives in that program.
struct ModuleRec {
  const void* wrapper = nullptr;
  int wrapper_version = 0;
  std::string origin;   // for messages: "module 2 (compute_90 PTX, zstd)"
  enum class State { kRegistered, kLoaded, kFailed } state = State::kRegistered;
  std::optional<Module> module;
  std::vector<PtxPart> parts;  // one, or a link unit's translation units in link order
  bool linked = false;         // a device link's translation units
  int ptx_arch = 0;            // the highest of the parts'
  cudaError_t load_error = kSuccess;
  std::string load_message;
  std::vector<KernelRec*> kernels;
  std::vector<VarRec*> vars;
};

/// A cudaLaunchAttributeValue (64 bytes), as cudaStreamSetAttribute / cudaGraphKernelNodeSetAttribute store it.
using LaunchAttrValue = std::array<std::uint8_t, 64>;

struct Stream {
  unsigned flags = 0;
  int priority = 0;
  std::uint64_t id = 0;
  std::map<int, LaunchAttrValue> attributes;  // cudaStreamSetAttribute's (api_attr.cpp)
};

struct Event {
  unsigned flags = 0;
  bool recorded = false;
  std::chrono::steady_clock::time_point when{};
  double gpu_ns = 0;  // the predicted GPU clock (Runtime::gpu_ns) when recorded
};

/// A host-visible allocation: managed memory or mapped pinned memory (the same address in
/// host and device spaces), or plain pinned host memory.
struct HostAlloc {
  void* ptr = nullptr;        // what the program sees
  std::size_t bytes = 0;
  DevicePtr device_base = 0;  // the device allocation behind it (0 for unmapped pinned memory)
  void* map_base = nullptr;   // page-aligned mapping, when mapped
  std::size_t map_bytes = 0;
  unsigned flags = 0;
  bool managed = false;
};

class Runtime {
 public:
  static Runtime& get();

  std::recursive_mutex mu;

  // Configuration (environment, read once). The profile is loaded on first use, not while the
  // program's static constructors register their fatbinaries: in a statically linked program the
  // embedded profile data may not be initialised yet then.
  const arch::Profile& profile();
  /// The profiles of WARPSCOPE_COMPARE_ARCH (comma-separated names), besides the primary one.
  const std::vector<arch::Profile>& compare_profiles();
  unsigned host_threads = 1;
  bool quiet = false;
  bool no_stats = false;  // WARPSCOPE_NO_STATS: no memory model, instruction counts only
  bool any_ptx = false;  // WARPSCOPE_ANY_PTX: accept PTX newer than the profile
  double sample_ctas = 1.0;  // WARPSCOPE_SAMPLE_CTAS: fraction of CTAs that feed the memory model
  // cudaEventElapsedTime: the predicted GPU time between the records (default), or the emulator's
  // wall time (WARPSCOPE_EVENT_TIME=wall, `--event-time wall`). docs/time.md.
  bool event_time_wall = false;
  double gpu_ns = 0;  // predicted GPU time of every launch so far (the time model, primary profile)
  // The predicted duration of each profiled kernel and shape (name, grid, block, dynamic shared
  // memory) and its launch index: a launch the filter leaves out advances the predicted clock by
  // its twin's duration (cudaEventElapsedTime around it), docs/time.md.
  std::map<std::string, std::pair<double, std::size_t>> predicted_shapes;
  // The cubins whose bytes a profiled launch's `sass` already carries (profiling::cubin_key): the
  // report holds each once (docs/report.md "Source counters").
  std::set<std::string> cubins_in_report;
  std::uint64_t unpredicted_launches = 0;  // launches the time model could not predict (add 0 ns)
  // WARPSCOPE_MEMCHECK: global accesses outside every allocation. "report" (default): where the
  // GPU maps the address they proceed, each instruction's first one is printed and all are counted
  // in the report; "off": the same without the stderr lines (still counted); "strict": the launch
  // faults at the first one (cudaErrorIllegalAddress), as warpscope did before.
  std::string memcheck = "report";
  // `warpscope sanitize` (sanitize.cpp, docs/sanitize.md): WARPSCOPE_SANITIZE names the tool
  // (memcheck, racecheck, synccheck, initcheck; "" outside sanitize), WARPSCOPE_LEAK_CHECK=full
  // reports device allocations never freed. API errors and leaks go into the report's
  // "sanitizer" object, each launch's findings into its "sanitizer" array.
  std::string sanitize_tool;
  bool leak_check = false;
  bool track_unused = false;  // WARPSCOPE_TRACK_UNUSED=1: initcheck's --track-unused-memory
  nlohmann::json api_errors = nlohmann::json::array();
  nlohmann::json leaks = nlohmann::json::array();
  nlohmann::json unused = nlohmann::json::array();
  // WARPSCOPE_HOST_BACKTRACE=1 (--show-backtrace yes|host): the host stack of each API error,
  // launch and (for leaks and unused memory) allocation; WARPSCOPE_CHECK_API_MEMORY_ACCESS=no
  // (initcheck): no check of device-to-host copies of unwritten bytes.
  bool host_backtrace = false;
  bool check_api_memory_access = true;
  const char* current_api = "";  // the runtime call being made (call())
  std::map<std::uint64_t, nlohmann::json> allocation_stacks;  // by base, while host_backtrace
  nlohmann::json api_accesses = nlohmann::json::array();  // initcheck's host API memory access errors
  /// Reads the sanitizer's environment (the constructor).
  void configure_sanitizer();
  /// The host frames of the current call as the report's JSON, or null (not host_backtrace).
  nlohmann::json host_stack() const;
  /// Notes a new device allocation's host stack (for --leak-check full, --track-unused-memory).
  void note_allocation(std::uint64_t base);
  /// initcheck: a copy of `bytes` at device address `src` to the host; notes each 32-byte sector
  /// with bytes nothing wrote (compute-sanitizer's "Host API memory access error").
  void check_host_copy(std::uint64_t src, std::size_t bytes);
  /// initcheck --track-unused-memory: notes the bytes of the allocation at `base` that nothing
  /// wrote (at cudaFree, and at exit for those still held).
  void note_unused(std::uint64_t base, std::uint64_t bytes);
  /// Notes an API call that returned an error (call()).
  void note_api_error(const char* api, cudaError_t e);
  /// Notes the live device allocations as leaks (at exit and at cudaDeviceReset).
  void note_leaks();
  /// The report's "sanitizer" object; null outside sanitize.
  nlohmann::json sanitizer_json() const;
  // -k/--kernel-name, -s/--launch-skip, -c/--launch-count (launch_selection.hpp).
  std::optional<KernelFilter> launch_filter;

  // Registration.
  std::vector<std::unique_ptr<ModuleRec>> modules;
  std::unordered_map<const void*, ModuleRec*> module_by_handle;
  std::vector<std::unique_ptr<KernelRec>> kernels;
  std::unordered_map<const void*, KernelRec*> kernel_by_stub;
  std::vector<std::unique_ptr<VarRec>> vars;
  std::unordered_map<const void*, VarRec*> var_by_shadow;

  // Errors.
  cudaError_t sticky = kSuccess;
  std::string sticky_message;

  // Device state.
  Device& device();
  bool has_device() const { return device_ != nullptr; }
  void reset_device();
  std::map<DevicePtr, std::size_t> allocations;  // plain device allocations, by base
  std::map<std::uintptr_t, HostAlloc> host_allocs;  // managed and pinned, by program pointer
  std::map<DevicePtr, std::size_t> symbol_ranges;    // module variables of loaded modules
  std::map<DevicePtr, std::size_t> graph_allocations;  // the memory of graph allocation nodes (mem_pools.hpp)
  std::map<std::uintptr_t, std::size_t> registered;  // cudaHostRegister'ed ranges, by start
  // The driver's virtual memory management (drv_vmm.cpp): ranges mapped by cuMemMap whose access
  // cuMemSetAccess granted (device memory to copies and pointer attributes; kernels reach them
  // through Device::map_host_memory), by start, and the bytes of every live cuMemCreate handle.
  std::map<std::uintptr_t, std::size_t> vmm_ranges;
  std::size_t vmm_physical_bytes = 0;
  std::set<Stream*> streams;
  std::set<Event*> events;
  std::uint64_t next_stream_id = 1;
  int current_device = 0;
  unsigned device_flags = 0;
  // cudaDeviceSetLimit: printf FIFO and device heap sizes are the Device's (set while no kernel
  // that uses them has been launched); these are the values for the next Device.
  // The H100's defaults (tests/hw/data/h100/runtime_gt/limits.csv): an 8.25 MiB printf FIFO, an
  // 8 MiB device heap.
  static constexpr std::size_t kDefaultPrintfFifo = 8650752, kDefaultMallocHeap = 8 << 20;
  std::size_t limit_stack = 1024, limit_printf_fifo = kDefaultPrintfFifo, limit_malloc_heap = kDefaultMallocHeap;

  // Report.
  std::vector<LaunchRecord> launches;

  /// Loads the module's PTX (once); returns kSuccess or the load error (message printed once).
  cudaError_t ensure_loaded(ModuleRec& m);
  KernelRec* find_kernel(const void* func);
  VarRec* find_var(const void* symbol);
  const KernelResources& resources(KernelRec& k);
  /// Installs what ptxas's machine code says of the kernel (spills, merged loads, lane
  /// groupings; src/analysis/sass.hpp) before its first launch (loading.cpp).
  void install_machine_code(KernelRec& k);
  /// The PTX of a fatbin (one translation unit) the profile runs, nullptr with `why` when none.
  const runtime::fatbin::Entry* choose_part_ptx(const runtime::fatbin::Fatbin& fb, const std::string& origin,
                                                std::string* why);

  /// Launches a kernel: validates, marshals `args` by the PTX parameter sizes, runs, records.
  /// A cooperative launch (api_launch.cpp) must fit on the device at once:
  /// cudaErrorCooperativeLaunchTooLarge otherwise.
  cudaError_t launch(const void* func, Dim3 grid, Dim3 block, void** args, std::size_t shmem,
                     const void* stream, bool cooperative = false, const Dim3* cluster = nullptr);
  /// The clusters a launch of `k` on `grid` runs in: `cluster` (the launch's attribute; null: none)
  /// or the kernel's __cluster_dims__, else 1x1x1 (`*named` false). As the H100 answers
  /// (tests/hw/data/h100/cluster_sched): a dimension of 0, a cluster other than the kernel's
  /// __cluster_dims__, more than 8 blocks without cudaFuncAttributeNonPortableClusterSizeAllowed,
  /// more than 16 (unless `query`: cudaOccupancyMaxActiveClusters answers for any size) or a grid
  /// that is not a multiple of it is cudaErrorInvalidClusterSize, with a note naming the kernel.
  cudaError_t launch_cluster(KernelRec& k, Dim3 grid, const Dim3* cluster, bool query, Dim3* dims, bool* named);
  /// The most blocks of a cooperative launch of `k` with this block and dynamic shared memory:
  /// blocks per SM (the occupancy calculator, with ptxas's registers) times the SMs.
  std::uint64_t cooperative_limit(KernelRec& k, Dim3 block, std::size_t shmem);

  /// Pointer classification for copies.
  enum class Where { kDevice, kHostVisible, kHost };
  Where classify(const void* p, std::size_t bytes) const;
  /// Whether [ptr, ptr + bytes) lies inside one device allocation, symbol or host-visible block.
  bool within_allocation(const void* ptr, std::size_t bytes) const;
  /// Copies `bytes` from src to dst as `kind` says; kinds must agree with the pointers.
  cudaError_t copy(void* dst, const void* src, std::size_t bytes, int kind);
  cudaError_t set(void* dst, int value, std::size_t bytes);
  cudaError_t check_stream(const void* stream) const;

  void sync_managed_to_device();
  void sync_managed_to_host();
  /// Maps host pages at a new device allocation; returns the program's pointer or nullptr.
  void* allocate_host_visible(std::size_t bytes, bool managed, unsigned flags);
  cudaError_t free_host_visible(std::uintptr_t key);

  /// Writes the report document (report.cpp, through src/profile's ReportWriter): at exit, when a
  /// signal or --timeout stops the run, and again for a launch that ends after it was written.
  void write_report();
  /// Appends a finished launch to the report and, under warpscope run, to the process's launch
  /// stream on disk at once (report.cpp).
  void record_launch(LaunchRecord rec);
  /// Dynamic parallelism (runtime_cdp.cpp): runs the grids that launch `parent_index` (of kernel
  /// `parent`) made from the device, after it: those of the parent's streams in the order made,
  /// then its tail launches; each child's own launches right after it.
  void run_device_launches(KernelRec& parent, std::size_t parent_index, std::vector<DeviceLaunch> children,
                           const void* stream);
  nlohmann::json device_parent;  // the next launch's LaunchRecord::launched_from_device
  int device_depth = 0;          // nesting of run_device_launches
  /// The document's fields besides the launches and end-of-run totals (report.cpp).
  nlohmann::json header_json();
  /// Prints a one-line note to stderr unless WARPSCOPE_QUIET is set.
  void note(const std::string& text) const;

  /// Ends the run that a signal or --timeout stopped (report.cpp, with `mu` held): the report
  /// with the finished launches and the interrupted one, then the signal again with its default
  /// action (so the process ends as by the signal), or exit code 124 for a timeout.
  [[noreturn]] void finish_stopped(int stop_code);

 private:
  Runtime();
  ~Runtime();
  void reserve_address_space();
  std::unique_ptr<Device> device_;
  std::optional<arch::Profile> profile_;
  std::optional<std::vector<arch::Profile>> compare_profiles_;
  std::string compare_names_;
  std::string arch_name_, arch_file_;
  void* reserved_base_ = nullptr;
  std::uint64_t device_lo_ = 0, device_hi_ = 0;  // the device's allocation range
  std::size_t reserved_bytes_ = 0;
  std::uint64_t device_memory_bytes_ = 0;  // the device's capacity (DeviceOptions::global_memory_bytes)
  bool report_written_ = false;
  /// Reads WARPSCOPE_REPORT, WARPSCOPE_REPORT_DIR and --target-processes (report.cpp).
  void configure_report();
  profiling::ReportWriter report_;  // where the document and the launch stream go
  nlohmann::json stopped_;  // the report's "stopped": why the run ended early (finish_stopped)
  stats::SourceCache sources_;  // CUDA source text for the report's lines
};

/// Maps a warpscope::Error from the interpreter to a CUDA error code; `sticky` tells whether it
/// is a fault that poisons the context.
cudaError_t map_error(const Error& e, bool* sticky);

/// Blocks of `block_size` threads with `shared` bytes of shared memory (static + dynamic) and
/// `regs` registers per thread one SM holds (src/analysis/occupancy.hpp); 0 when none fits.
int occupancy_blocks(const arch::Profile& p, int block_size, std::uint64_t shared, int regs);

/// Whether this process is a child forked (without exec) from one whose CUDA was initialised:
/// its CUDA calls fail as on a GPU (cudaErrorInitializationError) and it writes no report.
bool forked_child();

/// Per-thread last error (cudaGetLastError/cudaPeekAtLastError).
cudaError_t& last_error();

/// Runs one API call under the runtime lock: returns the sticky error if there is one (unless
/// `ignore_sticky`), turns exceptions into error codes and records a failure as the last error.
cudaError_t call(const char* api, bool ignore_sticky, const std::function<cudaError_t(Runtime&)>& body);
inline cudaError_t call(const char* api, const std::function<cudaError_t(Runtime&)>& body) {
  return call(api, false, body);
}

/// A launch's racecheck and synccheck findings as the report's JSON (sanitize.cpp).
nlohmann::json sanitizer_findings_json(const LaunchStats& stats);
/// A runtime call on this thread: the driver API is initialised and, when the thread has no current
/// context, the primary context becomes current (drv_context.cpp).
void runtime_entered();

/// Prints "warpscope: NAME is not supported by warpscope's CUDA runtime" once per name.
cudaError_t not_supported(const char* name);
/// Prints "warpscope: NAME: WHY" once per name and returns `code` (also the last error): a call
/// refused as a GPU without the capability refuses it (api_interop.cpp, and host memory pools).
cudaError_t refuse_once(const char* name, const std::string& why, cudaError_t code);

std::string demangle(const std::string& mangled);

}  // namespace warpscope::cudart
