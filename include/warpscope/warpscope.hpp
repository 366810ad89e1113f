// The public C++ API of warpscope: load PTX, manage device memory, launch kernels on the
// emulated GPU, read results back. This is what the test corpus, the benchmarks and the CUDA
// runtime replacement (src/runtime) build on.
//
// Contract:
//  - Every call either succeeds or throws warpscope::Error (include/warpscope/error.hpp) whose
//    message names the kernel, source line, block, thread and address where they apply.
//  - A faulting launch (out of bounds, misaligned, deadlock, trap) throws and leaves the host
//    process and the device's other allocations intact.
//  - Device addresses are 64-bit numbers in the emulated global address space; allocations are
//    placed as cudaMalloc's are (512-byte steps below 2 MiB, 2 MiB granules from there).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "warpscope/error.hpp"

namespace warpscope {

class AccessSink;  // src/common/access.hpp: receives one record per warp memory operation
struct Image;      // warpscope/texture.hpp
struct Sampler;

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
};

using DevicePtr = std::uint64_t;

/// One kernel argument: the bytes of the value, as cudaLaunchKernel's args[i] points to them.
struct KernelArg {
  const void* data = nullptr;
  std::size_t size = 0;
};

/// Makes a KernelArg that points at `value` (which must outlive the launch call).
template <class T>
KernelArg arg(const T& value) {
  return KernelArg{&value, sizeof(T)};
}

/// A kernel's parameter as the PTX declares it.
struct ParamInfo {
  std::string name;
  std::size_t size = 0;
  std::size_t align = 1;
};

/// Where an instruction of a kernel comes from. WarpAccess::pc of a launch indexes the list
/// Module::instructions(kernel) returns: the kernel's own PTX instructions first (so pc is the
/// PTX instruction index there), then those of each non-inlined .func it calls, then one
/// implicit `ret` per function.
struct InstructionInfo {
  std::string function;    // PTX function (mangled) the instruction belongs to
  std::uint32_t index = 0; // index in that function's PTX instruction list
  std::uint32_t ptx_line = 0;
  std::string file;        // CUDA source file (outermost inlining call site), "" without .loc
  std::uint32_t line = 0;  // CUDA source line, 0 without .loc
  std::string text;        // the PTX instruction, e.g. "ld.global.f32 %f2, [%rd6];"
  std::int64_t branch_target = -1;  // for a branch: the pc it jumps to (a loop when <= its own pc)
  bool compiled = false;   // a CompiledAccess (listed after the PTX instructions), not PTX
  bool guarded = false;    // has an `@p` guard
  bool plain = false;      // no control flow (not a branch, call, return, exit, trap or barrier)
  bool exits = false;      // ret, exit or trap
  bool local_access = false;  // a memory instruction on the .local space
};

/// A local-memory access the compiled machine code makes where the PTX has none: a register
/// spill (src/analysis/sass.hpp finds them in ptxas's cubin). Each time a warp runs instruction
/// `anchor` (a pc of Module::instructions) it also makes this access, for the lanes that ran the
/// anchor, at `frame_offset` bytes into each thread's stack frame. Its records carry
/// pc = (number of instructions) + (its index), and Module::instructions lists it there with
/// `text` and the anchor's source line.
struct CompiledAccess {
  std::uint32_t anchor = 0;
  bool store = false;
  std::uint8_t width = 4;  // 1, 2, 4, 8 or 16
  std::uint32_t frame_offset = 0;
  std::string text;        // e.g. "STL [R1+0x34]"
};

/// How the machine code groups the lanes of one PTX local load into requests
/// (src/analysis/sass.hpp, plan_lane_groups). ptxas may copy a load of a loop into several places
/// (an unrolled body and remainder blocks after it); which lanes then load together depends on how
/// many times each lane runs the load, not on the PTX's iterations. A lane that runs instruction
/// `pc` n times takes the machine-code steps paths[n] in order; a step is one visit of a block of
/// the machine code, in which the lane makes steps[s].copies of its consecutive accesses (one per
/// copy of the load there). Each copy of each step is one record, holding every lane whose path
/// has that step. The interpreter holds the instruction's records of a warp until the warp has
/// exited and then makes them this way, in an order that keeps every lane's path (ties: the lower
/// `order` first). Where some lane's count has no unique path (n past the end of paths, or
/// paths[n] empty), the warp's records stay as the PTX made them.
struct LaneGrouping {
  std::uint32_t pc = 0;
  struct Step {
    std::uint32_t copies = 1;
    std::uint32_t order = 0;  // e.g. the machine-code offset of the block
  };
  std::vector<Step> steps;
  std::vector<std::vector<std::uint32_t>> paths;  // indices into steps; empty: no unique path
  std::string text;  // what the machine code does, for reports
};

/// A global access outside every allocation that the GPU does not trap, because the address lies
/// in a mapped 2 MiB granule (docs/exec.md, "Out-of-bounds accesses"): the access proceeds on
/// the memory there, and memcheck reports it as compute-sanitizer would. One per instruction: the
/// first such lane access in CTA order, with the count of all of them.
struct MemcheckError {
  std::uint32_t pc = 0;        // as WarpAccess::pc / Module::instructions
  std::string kernel;          // mangled
  std::string file;            // CUDA source ("" without .loc)
  std::uint32_t line = 0;
  std::string ptx;             // the PTX instruction
  Dim3 block, thread;
  std::uint64_t address = 0;
  std::uint32_t size = 0;      // bytes of the access
  std::string access;          // "read", "write", "atomic" or "reduction"
  std::string space;           // "global" or "const" (generic accesses are global)
  // The nearest allocation and how far outside it the address is: `distance` bytes before its
  // start (before = true) or after its end (base + size).
  std::uint64_t allocation_base = 0;
  std::uint64_t allocation_size = 0;
  std::string allocation_label;  // the module variable's name, "" for cudaMalloc'ed memory
  bool before = false;
  std::uint64_t distance = 0;
  std::string relation;        // "4096 bytes before the 1048576-byte allocation at 0x7f0000100000"
  std::string message;         // one line naming all of the above
  std::uint64_t count = 0;     // lane accesses of this instruction outside every allocation
};

/// One side of a sanitizer finding (SanitizerFinding): the instruction and the thread.
struct SanitizerSite {
  std::uint32_t pc = 0;    // as WarpAccess::pc / Module::instructions
  std::string file;        // CUDA source ("" without .loc)
  std::uint32_t line = 0;
  Dim3 thread;
  std::string access;      // racecheck: "Read" or "Write"; synccheck: ""
};

/// A finding of `warpscope sanitize`'s racecheck or synccheck (docs/sanitize.md): one per kind
/// and pair of instructions, the first in CTA order (then execution order), with the count of
/// all of them. The same for any host thread count.
struct SanitizerFinding {
  std::string tool;        // "racecheck", "synccheck", "initcheck" or "memcheck"
  // racecheck: "RAW", "WAR" or "WAW"; synccheck: "divergent_block", "divergent_warp" or
  // "invalid_arguments"; initcheck: "uninitialized_read" (one per thread access); memcheck
  // (one per thread, SanitizeChecks::memcheck): "double_free", "invalid_free" (a device-side free
  // of a pointer malloc did not return), "heap_out_of_bounds" (an access of the device heap
  // outside its live blocks), "trap"
  std::string kind;
  bool warning = false;    // racecheck: between threads of one warp in different instructions
  std::string kernel;      // mangled
  Dim3 block;
  std::uint64_t address = 0;  // racecheck: the shared-memory offset (global: address) of the first byte found;
                              // initcheck: the global address read (space "shared": the shared-memory
                              // offset, or a peer's shared::cluster address); memcheck: the address freed or accessed
  // racecheck: "shared" (between threads of `block`), "global" (--racecheck-memory all:
  // between threads of two CTAs, the earlier side's in `first_block`), or "cluster" (distributed
  // shared memory: `block`'s shared memory, a thread of another CTA of its cluster on one side or
  // both; the sides' blocks in `first_block` and `second_block`); initcheck: "global", or "shared"
  // (--initcheck-memory all: a read of shared memory no thread of the CTA wrote before)
  std::string space = "shared";
  Dim3 first_block;
  Dim3 second_block;
  std::uint32_t size = 0;     // initcheck, memcheck: bytes of the access
  SanitizerSite first;     // racecheck: the earlier access; synccheck: where it was detected
  SanitizerSite second;    // racecheck: the later access; memcheck: its pc is the lane (one finding per thread)
  std::string detail;      // synccheck: the masks or lanes involved; memcheck heap_out_of_bounds: "read", "write", ...
  std::uint64_t count = 0; // racecheck: hazards (bytes x thread pairs found); synccheck: warps;
                           // initcheck: 1
};

/// What `warpscope sanitize --tool` checks in the interpreter (DeviceOptions::sanitize).
struct SanitizeChecks {
  bool racecheck = false;  // shared-memory hazards between threads of a CTA
  bool synccheck = false;  // barriers and warp-synchronous masks
  // --racecheck-memory all: global-memory hazards between CTAs of a launch (exec/global_race.hpp);
  // the launch's CTAs run on one host thread
  bool racecheck_global = false;
  bool initcheck = false;  // reads of global memory nothing wrote (src/exec/initcheck.hpp)
  // --initcheck-memory all: initcheck also reports reads of a CTA's shared memory that no thread
  // of the CTA wrote before (warpscope's addition; compute-sanitizer checks global memory only)
  bool initcheck_shared = false;
  // memcheck's device-side errors: a bad device-side free, an access of the device heap outside
  // its live blocks, a trap; each becomes a finding (tool "memcheck") and ends the launch as on
  // the H200 under compute-sanitizer (src/exec/memcheck.hpp). Not part of any(): no other check runs.
  bool memcheck = false;
  bool any() const { return racecheck || synccheck || racecheck_global || initcheck; }
};

/// What to do with a global access outside every allocation (DeviceOptions::memcheck).
enum class MemcheckMode : std::uint8_t {
  kReport,  // where the GPU maps the address: proceed and report (LaunchStats::memcheck); else fault
  kStrict,  // fault (Error kOutOfBounds) at the first one, mapped or not
};

/// What one launch did, counted by the interpreter.
/// A kernel launch made by device code (dynamic parallelism: cudaGetParameterBuffer and
/// cudaLaunchDevice of CUDA's device runtime, which `<<<>>>` in a kernel becomes). The launcher
/// runs it after its parent grid ends (docs/exec.md, "Dynamic parallelism").
struct DeviceLaunch {
  std::string kernel;  // the child kernel's PTX name (an .entry of the same module)
  Dim3 grid, block;
  std::uint32_t shared_bytes = 0;       // dynamic shared memory
  std::vector<std::uint8_t> params;     // the parameter buffer the parent filled, in the kernel's layout
  bool tail = false;                    // launched into cudaStreamTailLaunch
  std::uint32_t cta = 0;                // the launching thread's CTA (linear) and thread (linear in the CTA)
  std::uint32_t thread = 0;
};

struct LaunchStats {
  std::uint64_t warp_instructions = 0;    // warp-level instructions issued
  std::uint64_t thread_instructions = 0;  // sum over instructions of active lanes
  /// Per instruction, indexed like Module::instructions (WarpAccess::pc): warp-level executions
  /// and the sum of their active lanes. Sums over CTAs, so the same for any host thread count.
  std::vector<std::uint64_t> pc_instructions;
  std::vector<std::uint64_t> pc_thread_instructions;
  /// Accesses outside every allocation that proceeded (MemcheckMode::kReport): one entry per
  /// instruction, ordered by where its first one happened (CTA order, then execution order), and
  /// their total number of lane accesses. The same for any host thread count.
  std::vector<MemcheckError> memcheck;
  std::uint64_t memcheck_errors = 0;
  /// racecheck and synccheck findings (DeviceOptions::sanitize), ordered by where their first
  /// one happened (CTA order, then execution order).
  std::vector<SanitizerFinding> sanitizer;
  /// initcheck findings past the ones kept in `sanitizer` (the first 1000 in CTA order): counted only.
  std::uint64_t sanitizer_unkept = 0;
  /// What the launch's end needs of those to drop reads another CTA writes (exec/initcheck.hpp):
  /// address, size and CTA of each, up to a cap; past it they are counted in sanitizer_unkept
  /// and sanitizer_unkept_unchecked (not checked against the other CTAs' writes).
  struct UnkeptRead {
    std::uint64_t address = 0;
    std::uint32_t size = 0;
    std::uint32_t cta = 0;
  };
  std::vector<UnkeptRead> sanitizer_unkept_reads;
  std::uint64_t sanitizer_unkept_unchecked = 0;
  /// Device printf calls whose output was dropped because the launch's printf FIFO was full.
  std::uint64_t printf_dropped = 0;
  /// Cycles the warps' %clock reads ran ahead of their instruction counts when they ended (the
  /// clock skew of polling loops, docs/exec.md): time a warp spun on the clock. The sum over
  /// the launch's warps, and the largest one warp's. The same for any host thread count.
  std::uint64_t clock_skew_sum = 0;
  std::uint64_t clock_skew_max = 0;
  /// The most warp instructions (PTX, as warp_instructions) one CTA executed: with
  /// warp_instructions / CTAs, how unevenly the CTAs share the work (the time model's busiest
  /// CTA, docs/time.md). The same for any host thread count.
  std::uint64_t cta_instructions_max = 0;
  /// Launches the kernel's threads made (dynamic parallelism), in the order they were made (CTA
  /// order, one host thread: such kernels use the device heap for the parameter buffers).
  std::vector<DeviceLaunch> device_launches;
};

/// One PTX module's text and the name messages give it (Device::link_ptx).
struct PtxSource {
  std::string_view text;
  std::string_view origin;
};

struct DeviceOptions {
  std::uint64_t global_memory_bytes = 80ull << 30;  // capacity reported and enforced
  std::ostream* printf_output = nullptr;            // device printf; nullptr: std::cout
  unsigned host_threads = 1;                        // CTAs run in parallel on this many threads
  MemcheckMode memcheck = MemcheckMode::kReport;    // accesses outside every allocation
  SanitizeChecks sanitize;                          // racecheck / synccheck (docs/sanitize.md)
  std::uint64_t printf_fifo_bytes = 1 << 20;        // cudaLimitPrintfFifoSize (see Device)
  std::uint64_t malloc_heap_bytes = 8 << 20;        // cudaLimitMallocHeapSize (see Device)
};

/// How far a running launch has got, for a progress display on another thread (LaunchOptions::
/// progress). Updated with relaxed stores as CTAs finish and every 2^16 warp instructions or so;
/// a reader sees values at most that far behind.
struct LaunchProgress {
  std::atomic<std::uint64_t> ctas_done{0};          // CTAs that ran to their end
  std::atomic<std::uint64_t> warp_instructions{0};  // warp instructions executed so far
};

/// How a kernel is launched (Device::launch).
struct LaunchOptions {
  std::size_t dynamic_shared_bytes = 0;
  /// A cooperative launch (cudaLaunchCooperativeKernel): every CTA is resident at once, so that
  /// cooperative_groups' grid.sync() works. The CTAs take turns on one host thread, each until
  /// all its warps wait (docs/exec.md, "Cooperative launches"); a grid where no CTA can make
  /// progress is Error(kDeadlock). Non-cooperative launches see a null grid workspace, so
  /// grid.sync() traps there, as CUDA's code does.
  bool cooperative = false;
  /// Stopping a launch from elsewhere (another thread, or a signal handler: a store to a
  /// lock-free atomic is async-signal-safe): when *stop becomes nonzero, the launch ends within
  /// about 2^20 warp instructions of each running warp and throws LaunchStopped (kInterrupted)
  /// with that value as LaunchStop::code. nullptr: not stoppable.
  const std::atomic<int>* stop = nullptr;
  /// Counters the launch updates while it runs (nullptr: none).
  LaunchProgress* progress = nullptr;
  /// CTA sampling (`--sample-ctas`): only CTAs whose linear index is a multiple of this feed the
  /// access sink; the others run without emitting records (1: every CTA feeds it).
  std::uint32_t sink_cta_every = 1;
  /// When set, receives LaunchStats::sanitizer also when the launch throws (a synccheck finding
  /// before the fault it leads to). Not for cooperative or cluster launches.
  std::vector<SanitizerFinding>* sanitizer_findings = nullptr;
  /// Thread-block clusters (cudaLaunchAttributeClusterDimension, `__cluster_dims__`): the CTAs of
  /// a cluster are co-scheduled (they take turns on one host thread, as a cooperative launch's
  /// do) and reach each other's shared memory (distributed shared memory, docs/exec.md). 1x1x1
  /// with `explicit_cluster` false: no cluster, unless the kernel declares `.reqnctapercluster`.
  /// The grid must be a multiple of the cluster in each dimension; at most 16 CTAs a cluster.
  Dim3 cluster{};
  bool explicit_cluster = false;  // %is_explicit_cluster (a launch attribute named the cluster)
};

/// Where some warps of a launch that did not end were (LaunchStop::places): warps in the same
/// state at the same instruction, over all the CTAs that were running.
struct WarpPlace {
  enum class State : std::uint8_t {
    kRunning,   // executing; pc is the next instruction
    kSpinning,  // its last poll (a volatile/acquire load or atomic) returned what it returned before
    kBarrier,   // waiting at the barrier at pc
    kWarpSync,  // waiting at the warp-synchronous instruction at pc for lanes that run elsewhere
  };
  State state = State::kRunning;
  std::uint32_t pc = 0;  // as Module::instructions numbers them
  // The innermost loop around pc: the backward branch at loop_last that jumps to loop_first
  // (pcs); -1 when pc is in no loop.
  std::int64_t loop_first = -1, loop_last = -1;
  std::uint64_t warps = 0;      // how many warps
  std::uint64_t ctas = 0;       // in how many CTAs
  std::uint32_t first_cta = 0;  // the lowest linear CTA index among them
};

/// A launch that did not run to its end (LaunchStopped::stop).
struct LaunchStop {
  enum class Reason : std::uint8_t {
    kRequested,  // *LaunchOptions::stop became nonzero (ErrorKind::kInterrupted)
    kHang,       // every live warp of a CTA (or of a cooperative grid) spins on memory that no
                 // running thread can change (ErrorKind::kDeadlock)
  };
  Reason reason = Reason::kRequested;
  int code = 0;  // the value *LaunchOptions::stop held (kRequested)
  std::uint64_t ctas_total = 0, ctas_done = 0;
  std::vector<WarpPlace> places;  // by first CTA, then pc
  /// What ran before the stop: instruction counts of the finished CTAs and of the stopped ones
  /// up to the stop, memcheck of the same.
  LaunchStats partial;
};

/// Thrown by Device::launch for a launch that stopped before its end (LaunchStop); the message
/// names the kernel, the CTAs done of the total and, per place, the source line and loop.
class LaunchStopped : public Error {
 public:
  LaunchStopped(ErrorKind kind, const std::string& message, LaunchStop stop)
      : Error(kind, message), stop_(std::make_shared<const LaunchStop>(std::move(stop))) {}
  const LaunchStop& stop() const { return *stop_; }

 private:
  std::shared_ptr<const LaunchStop> stop_;  // shared: copying an exception must not throw
};

class Module {
 public:
  /// Names of the kernels (.entry) in the module.
  std::vector<std::string> kernels() const;
  /// The handle of a module-scope texture reference (`.global .texref name;`, surface: `.surfref`)
  /// that the kernels' tex/tld4/txq (suld/sust/sured/suq) through the variable resolve at launch
  /// (Device::bind_texture_reference); 0 when the module has no such reference by that name.
  std::uint64_t reference(std::string_view name, bool surface) const;
  /// The parameters of a kernel, in order; throws if there is no such kernel.
  std::vector<ParamInfo> params(std::string_view kernel) const;
  /// The cluster the kernel requires (.reqnctapercluster, what __cluster_dims__ compiles to);
  /// 0x0x0 when it names none.
  Dim3 required_cluster(std::string_view kernel) const;
  /// The instructions of a kernel as the interpreter numbers them (WarpAccess::pc), then its
  /// compiled accesses.
  const std::vector<InstructionInfo>& instructions(std::string_view kernel) const;
  /// Replaces the kernel's compiled accesses (none at load). Each anchor must be an instruction
  /// that only computes and has no guard (Error(kUsage) otherwise), so that it runs exactly when
  /// its lanes reach it.
  void set_compiled_accesses(std::string_view kernel, std::vector<CompiledAccess> accesses);
  /// Replaces the kernel's record widths (none at load): the memory records of instruction `pc`
  /// carry `width` bytes per lane instead of the PTX's, or none at all when width is 0. This is
  /// how loads the machine code merged are counted (ptxas reads four consecutive ld.shared.f32 of
  /// a lane with one 16-byte LDS.128: the first PTX load's record becomes 16 bytes wide and the
  /// other three make none). What the instructions compute is unchanged.
  struct RecordWidth {
    std::uint32_t pc = 0;
    std::uint8_t width = 0;  // 0, 1, 2, 4, 8 or 16
  };
  void set_record_widths(std::string_view kernel, std::vector<RecordWidth> widths);
  /// Replaces the kernel's lane groupings (none at load). Each pc must be a load from .local
  /// (Error(kUsage) otherwise), and every path's steps must exist.
  void set_lane_groupings(std::string_view kernel, std::vector<LaneGrouping> groupings);

 private:
  friend class Device;
  struct Impl;
  std::shared_ptr<Impl> impl_;
};

class Device {
 public:
  explicit Device(DeviceOptions options = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  /// Parses, verifies and loads a PTX module; `origin` names it in error messages. Its
  /// `.extern` variables must be defined in it (link_ptx with one module).
  Module load_ptx(std::string_view ptx_text, std::string_view origin = "module.ptx");
  /// Parses and verifies each PTX module and links them into one program, as nvlink links the
  /// translation units of relocatable device code (nvcc -rdc=true): `.extern` functions and
  /// variables resolve to the module that defines them, every kernel of every module is a kernel
  /// of the result, and each .global/.const variable exists once. An unresolved or twice-defined
  /// symbol throws Error(kParse) naming the symbol and the modules (src/ptx/link.hpp).
  Module link_ptx(std::span<const PtxSource> sources, std::string_view origin);

  DevicePtr malloc(std::size_t bytes);
  void free(DevicePtr ptr);
  /// Makes host memory [p, p + bytes) readable and writable by kernels at its own address, as
  /// cudaHostRegister'ed memory is under unified addressing (the kernels use the program's
  /// memory itself). Throws Error(kUsage) when the range overlaps device memory or another
  /// mapped range. unmap_host_memory undoes it; false if p starts no mapped range.
  void map_host_memory(void* p, std::size_t bytes);
  bool unmap_host_memory(void* p);
  void copy_to_device(DevicePtr dst, const void* src, std::size_t bytes);
  void copy_to_host(void* dst, DevicePtr src, std::size_t bytes);
  void copy_on_device(DevicePtr dst, DevicePtr src, std::size_t bytes);
  void memset(DevicePtr dst, int value, std::size_t bytes);
  /// initcheck (DeviceOptions::sanitize.initcheck): the runs of [p, p + bytes) that nothing has
  /// written since Device::malloc made them, as (offset from p, length); empty without initcheck.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> unwritten(DevicePtr p, std::size_t bytes) const;

  /// Module-scope variables (.global and .const): address, size, and host-side copies.
  DevicePtr symbol_address(const Module& module, std::string_view name) const;
  std::size_t symbol_size(const Module& module, std::string_view name) const;
  void copy_to_symbol(const Module& module, std::string_view name, const void* src,
                      std::size_t bytes, std::size_t offset = 0);
  void copy_from_symbol(void* dst, const Module& module, std::string_view name, std::size_t bytes,
                        std::size_t offset = 0);

  /// Runs a kernel to completion. Argument sizes are checked against the PTX parameters.
  LaunchStats launch(const Module& module, std::string_view kernel, Dim3 grid, Dim3 block,
                     std::span<const KernelArg> args, std::size_t dynamic_shared_bytes = 0);
  LaunchStats launch(const Module& module, std::string_view kernel, Dim3 grid, Dim3 block,
                     std::span<const KernelArg> args, const LaunchOptions& options);

  /// The device heap of device-side malloc/free/new/delete (cudaLimitMallocHeapSize). It is
  /// reserved in device memory at the first launch of a kernel that calls malloc or free; its
  /// size cannot change afterwards (Error(kUsage)), as CUDA refuses it. Exhaustion makes malloc
  /// return NULL; freeing a pointer that is not a live block is a fault of the launch.
  void set_malloc_heap_size(std::size_t bytes);
  std::size_t malloc_heap_size() const;
  bool heap_created() const;
  /// The device heap's live blocks, (address, bytes malloc was asked for) in address order;
  /// empty before the heap is created (memcheck --leak-check full, docs/sanitize.md).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> heap_blocks() const;
  /// The printf FIFO (cudaLimitPrintfFifoSize): output of one launch beyond it is dropped
  /// (LaunchStats::printf_dropped). Cannot change once a kernel that calls printf has been
  /// launched (Error(kUsage)), as CUDA refuses it.
  void set_printf_fifo_size(std::size_t bytes);
  std::size_t printf_fifo_size() const;
  bool printf_launched() const;

  /// Every warp memory operation of later launches goes to `sink` (nullptr: none). The sink
  /// must outlive the launches.
  void set_access_sink(AccessSink* sink);

  // Textures and surfaces (warpscope/texture.hpp). The image must lie inside one allocation
  // (else Error kUsage); handles are nonzero and never reused; a launch reads the objects that
  // exist when it starts.
  std::uint64_t create_texture(const Image& image, const Sampler& sampler);
  /// A mipmapped texture: levels[0] is the base level, each next one a level of detail further
  /// (their `levels` fields are ignored). At least one level.
  std::uint64_t create_texture(const std::vector<Image>& levels, const Sampler& sampler);
  std::uint64_t create_surface(const Image& image);
  /// Texture and surface references (Module::reference): what fetches through the reference read
  /// from the next launch on (levels: one image, or a mipmapped texture's levels as
  /// create_texture takes them). Unbound (unbind_reference, or never bound), a fetch through it
  /// faults, its message saying `why` when given. Throws kUsage for a handle that is no reference
  /// of that kind, or a bad image.
  void bind_texture_reference(std::uint64_t handle, const std::vector<Image>& levels, const Sampler& sampler);
  void bind_surface_reference(std::uint64_t handle, const Image& image);
  void unbind_reference(std::uint64_t handle, std::string_view why = {});
  /// Throws kUsage when `handle` is not a texture (surface) object.
  void destroy_texture(std::uint64_t handle);
  void destroy_surface(std::uint64_t handle);
  /// The image and sampler of an object; false when the handle names none of that kind.
  bool texture_info(std::uint64_t handle, Image& image, Sampler& sampler) const;
  bool surface_info(std::uint64_t handle, Image& image) const;
  /// Copies a box between host memory and an image: `x_bytes`/`width_bytes` in bytes along a
  /// row, `y`/`height` rows, `slice`/`slices` slices; host rows `host_pitch` bytes apart and
  /// host slices `host_slice_pitch` apart. Throws kUsage when the box leaves the image.
  struct ImageBox {
    std::uint64_t x_bytes = 0, width_bytes = 0;
    std::uint32_t y = 0, height = 1, slice = 0, slices = 1;
  };
  void copy_image_to_device(const Image& image, const ImageBox& box, const void* host, std::uint64_t host_pitch,
                            std::uint64_t host_slice_pitch);
  void copy_image_to_host(void* host, std::uint64_t host_pitch, std::uint64_t host_slice_pitch, const Image& image,
                          const ImageBox& box);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace warpscope
