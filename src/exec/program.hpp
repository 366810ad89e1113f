// The decoded program: what the interpreter runs. src/exec/decode.cpp turns a verified PTX IR
// kernel (and the .func it calls) into one KernelImage when the module is loaded; nothing is
// looked up by name or type at run time.
//
// Registers. A warp owns one register file of `num_slots` slots; slot s of lane l is
// regs[s * 32 + l] (lane-contiguous, so one warp instruction is one loop over 32 values). Every
// slot is 64 bits; narrower values sit in the low bits (integers zero- or sign-extended as the
// instruction that wrote them says; predicates are 0 or 1). Slots are, in order: the registers of
// each function of the kernel (each function has its own range), the carry flag, constant slots
// (an immediate or a symbol address broadcast to all lanes, written once per warp), and the
// special registers the kernel reads (%tid.x, %laneid, ...), written when the warp starts. So
// every source operand of every instruction is just a slot number.
//
// Instructions. An Inst holds the semantic function chosen at decode time for its opcode, types
// and modifiers (`fn`), the operand slots, and a control class `ctl`: kNone for instructions
// that only compute (the warp loop calls fn and goes on), anything else is handled by the warp's
// control logic (warp.cpp).
#pragma once

#include <cstdint>
#include <deque>
#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "common/access.hpp"
#include "exec/memory.hpp"
#include "ptx/ir.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::exec {

inline constexpr std::uint32_t kLanes = 32;
inline constexpr std::uint32_t kFullMask = 0xffffffffu;
inline constexpr std::uint32_t kNoSlot = 0xffffffffu;
inline constexpr std::uint32_t kNoPc = 0xffffffffu;

struct Inst;
struct Ctx;
class MemcheckLog;
class RaceChecker;
class SanitizerLog;
class ObjectTable;
struct JitSlot;  // exec/segments.hpp
/// A semantic function: executes `in` for the lanes set in `mask` (never 0).
using ExecFn = void (*)(const Inst& in, Ctx& x, std::uint32_t mask);

/// How the warp loop treats an instruction.
enum class Ctl : std::uint8_t {
  kNone,     // compute only: call fn, go to the next instruction
  kBra,      // target; aux = immediate post-dominator (reconvergence pc)
  kCall,     // aux = index into KernelImage::calls
  kRet,
  kExit,
  kTrap,
  kBar,      // bar.sync / barrier.sync / bar.arrive / bar.red: aux = BarKind
  kYield,    // nanosleep: lets the other warps of the CTA run
  kWarpSync, // shfl/vote/match/redux/elect/bar.warp.sync with a membermask (operand e): the warp
             // loop checks the masks, forms the lane groups (Ctx::groups), may wait for named
             // lanes that run elsewhere, then calls fn (warp_sync.cpp); aux = 1: bar.warp.sync
             // (lanes meet at any bar.warp.sync, not only at the same instruction)
  kPoll,     // a load or atomic that may observe other CTAs (ld.volatile/.relaxed/.acquire or .cv,
             // atom on global memory): computes like kNone; in a cooperative launch the warp
             // loop compares its result with the warp's previous one to detect a spin (coop.cpp)
  kCluster,  // barrier.cluster.arrive (aux 0) / .wait (aux 1): the warp loop counts arrivals and
             // keeps a waiting warp at the instruction until the cluster's phase completes
  kWait,     // mbarrier.test_wait / try_wait: computes like kNone (d: the lanes' results); when a
             // lane's phase is not complete the warp yields, and a wait on mbarriers that have not
             // changed since the warp's previous failed wait is a spin (cta_wait.cpp)
};

/// Control classes that only compute (what run_hooked may wrap, what compiled accesses anchor on).
inline bool computes_only(Ctl c) { return c == Ctl::kNone || c == Ctl::kPoll; }

enum class BarKind : std::uint8_t { kSync, kArrive, kRed };

/// Inst::flags bits.
enum : std::uint8_t {
  kFlagFrameRel = 1,   // address operand is relative to the current local frame base
  kFlagAligned = 2,    // barrier with .aligned semantics (bar.sync, barrier.sync.aligned)
  kFlagNegC = 4,       // predicate operand c is negated (setp/bar.red/vote)
  kFlagNegA = 8,       // predicate operand a is negated
  kFlagAddr32 = 16,    // .shared/.local address in a 32-bit register: wraps modulo 2^32
};

struct Inst {
  ExecFn fn = nullptr;
  Ctl ctl = Ctl::kNone;
  std::uint8_t guard_neg = 0;
  std::uint8_t flags = 0;
  std::uint8_t vec = 1;                        // ld/st/atom vector length
  std::uint32_t guard = kNoSlot;               // predicate slot of `@p`
  std::uint32_t d = kNoSlot, d2 = kNoSlot;     // destinations
  std::uint32_t a = kNoSlot, b = kNoSlot, c = kNoSlot, e = kNoSlot;  // sources
  std::uint32_t v[4] = {kNoSlot, kNoSlot, kNoSlot, kNoSlot};         // vector elements
  std::int64_t imm = 0;                        // address offset, or an immediate parameter
  std::uint32_t target = kNoPc;                // branch target
  std::uint32_t aux = 0;                       // per-class extra (ipdom, call index, ...)
  std::uint32_t aux2 = 0;
  Space space = Space::kGlobal;                // memory instructions: the record's space
  Op mem_op = Op::kLoad;
  CacheOp cache = CacheOp::kDefault;
  std::uint8_t width = 0;                      // bytes per lane of a memory access
};

/// Where an instruction came from.
struct InstSource {
  std::uint32_t func = 0;   // index into KernelImage::funcs
  std::uint32_t index = 0;  // index in the PTX function's instruction list
};

struct FuncImage {
  std::string name;
  std::uint32_t ir_index = 0;       // index into ptx::Module::functions
  std::uint32_t begin = 0, end = 0; // its instructions in KernelImage::code
  std::uint32_t reg_base = 0, reg_count = 0;
  std::uint64_t frame_bytes = 0;    // its local frame: .local variables, call-site .param
                                    // variables, own parameters and return values
  std::vector<std::uint64_t> param_offsets;   // own params, frame-relative
  std::vector<std::uint64_t> return_offsets;  // own return values, frame-relative
};

/// A call: copy arguments into the callee's frame, run it, copy results back.
struct CallInfo {
  // kMalloc: malloc(size); kAlignedMalloc: __cuda_syscall_aligned_malloc(size, align) (behind
  // __nv_aligned_device_malloc); kFree: free(ptr). operator new/delete are PTX functions that call
  // malloc/free.
  enum class Builtin : std::uint8_t {
    kNone, kVprintf, kAssertFail, kMalloc, kAlignedMalloc, kFree, kSetConditional,
    kCdpParamBuffer, kCdpParamBufferV1, kCdpLaunch, kCdpLaunchV1, kCdpNoError, kCdpStreamCreate, kCdpGetDevice
  };
  Builtin builtin = Builtin::kNone;
  std::uint32_t callee = 0;  // index into KernelImage::funcs
  struct Copy {
    std::uint64_t caller_off = 0;  // frame-relative, in the caller's frame
    std::uint32_t caller_slot = kNoSlot;  // or a register (for .reg parameters / arguments)
    std::uint64_t callee_off = 0;  // frame-relative, in the callee's frame
    std::uint32_t callee_slot = kNoSlot;
    std::uint32_t bytes = 0;
  };
  std::vector<Copy> args;
  std::vector<Copy> results;
  // An indirect call (`call %rd, (...), prototype`): the target address is in register slot
  // Inst::a; `targets` maps each function whose address the module takes and whose parameters
  // match the call (PTX function index) to the CallInfo of a direct call to it.
  bool indirect = false;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> targets;
};
/// The dynamic-parallelism builtins (cdp.cpp).
bool is_cdp_builtin(CallInfo::Builtin builtin);

/// A special register that lives in a slot, written when a warp starts.
struct SregSlot {
  std::uint32_t slot = 0;
  ptx::SpecialReg reg = ptx::SpecialReg::kNone;
  std::uint8_t component = 0;
};

struct KernelImage {
  std::string name;
  const ptx::Module* module = nullptr;
  std::uint32_t ir_index = 0;
  std::vector<Inst> code;
  std::vector<InstSource> source;  // parallel to code
  std::vector<FuncImage> funcs;    // funcs[0] is the kernel
  std::vector<CallInfo> calls;
  std::uint32_t num_slots = 0;
  std::uint32_t cc_slot = kNoSlot;
  // alloca/stacksave/stackrestore (ops_stack.cpp): each lane's bytes in use of the stack window
  // after the frames (0: none); saved at calls and restored at returns (warp.cpp).
  std::uint32_t sp_slot = kNoSlot;
  std::vector<std::pair<std::uint32_t, std::uint64_t>> consts;  // slot, value
  std::vector<SregSlot> sregs;
  std::uint64_t static_shared = 0;      // bytes of .shared variables
  std::uint64_t dynamic_shared_offset = 0;  // where the extern .shared array starts
  std::uint64_t local_bytes = 0;        // per-thread stack (deepest call chain's frames)
  bool recursive = false;
  bool uses_heap = false;       // calls malloc/free (device heap)
  bool order_dependent_atomics = false;  // global atom, or a floating-point red (decode.cpp)
  bool uses_printf = false;     // calls vprintf
  bool reads_workspace = false; // reads %envreg1/%envreg2: the cooperative grid workspace (this_grid())
  std::vector<ParamInfo> params;
  std::vector<std::uint64_t> param_offsets;
  std::uint64_t param_bytes = 0;
  // Compiled accesses (Module::set_compiled_accesses) and record widths (set_record_widths): a
  // hooked instruction's `fn` is run_hooked (compiled.cpp), which runs hooks[k].fn (the
  // instruction's own function), its records rewritten to `width` bytes (kNoWidth: as they are;
  // 0: none), and then records compiled accesses [first, first + count).
  static constexpr std::uint8_t kNoWidth = 0xff;
  // A lane grouping (Module::set_lane_groupings) makes run_hooked hold the instruction's records
  // in the warp's `held[grouping]` until the warp has exited (release_held).
  struct Hook {
    std::uint32_t pc = 0;
    ExecFn fn = nullptr;
    std::uint32_t first = 0, count = 0;
    std::uint8_t width = kNoWidth;
    std::uint32_t grouping = kNoPc;  // index into groupings
  };
  std::vector<CompiledAccess> compiled;  // sorted by anchor
  std::vector<Module::RecordWidth> widths;
  std::vector<LaneGrouping> groupings;
  std::vector<Hook> hooks;               // sorted by pc
  const Hook& hook(std::uint32_t pc) const;
  // Per-instruction data that does not fit an Inst (matrix instructions: a descriptor and their
  // fragments' slots, ops_mma.cpp), at the offset the instruction keeps in Inst::aux2.
  std::vector<std::uint32_t> operand_lists;
  // Native segments of the kernel (exec/segments.hpp), compiled at its first launch without an
  // access sink; null: never (a kernel image built by hand).
  std::shared_ptr<JitSlot> jit;

  const ptx::Function& ir_function(std::uint32_t func) const {
    return module->functions[funcs[func].ir_index];
  }
  const ptx::Instruction& ir_instruction(std::uint32_t pc) const {
    return ir_function(source[pc].func).instructions[source[pc].index];
  }
  /// "file.cu:12" (outermost inlining call site) or "module.ptx:345" when there is no .loc.
  std::string where(std::uint32_t pc) const;
  /// The CUDA source line of an instruction (0 when unknown).
  std::uint32_t line(std::uint32_t pc) const;
};

/// Installs a kernel's compiled accesses and record widths (compiled.cpp; Module::set_compiled_accesses,
/// Module::set_record_widths).
void set_compiled_accesses(KernelImage& kernel, std::vector<CompiledAccess> accesses);
void set_record_widths(KernelImage& kernel, std::vector<Module::RecordWidth> widths);
void set_lane_groupings(KernelImage& kernel, std::vector<LaneGrouping> groupings);

/// Records of a warp's instructions with lane groupings, held until the warp has exited: one list
/// per grouping (KernelImage::groupings), in the order the interpreter made them. A list that
/// grows past 32 times the longest count with a path cannot be regrouped (some lane's count has
/// no path): it is sent on at once, and the rest of the warp's records pass (`passing`).
struct Held {
  std::vector<WarpAccess> records;
  bool passing = false;
};
using HeldRecords = std::vector<Held>;
/// Sends a warp's held records to `sink` regrouped as the machine code runs them (LaneGrouping),
/// or as they are where some lane's count has no path, and empties the lists.
void release_held(const KernelImage& kernel, HeldRecords& held, AccessSink& sink);

/// How a warp's %clock/%clock64/%globaltimer advance (ops_move.cpp, mov_clock; docs/exec.md):
/// the clock is the warp's instruction count plus `skew`, which grows while the warp polls the
/// clock in a tight loop.
struct ClockState {
  std::uint64_t skew = 0;        // cycles added to the instruction count
  std::uint32_t last_pc = kNoPc;  // the previous read
  std::uint64_t last_count = 0;  // instruction count at the previous read
  std::uint32_t streak = 0;      // consecutive polls (same pc, few instructions apart)
  std::uint64_t streak_start = 0;  // clock value when the streak began
};

class DeviceHeap;

/// Device printf output of a CTA (or a chunk of CTAs): the text, and per printf call where its
/// text ends and how many bytes of the printf FIFO it takes. launch.cpp delivers the calls in CTA
/// order and drops those that no longer fit the FIFO (cudaLimitPrintfFifoSize), as a GPU does.
struct PrintfText {
  struct Call {
    std::size_t end = 0;        // offset in text just past this call's output
    std::uint64_t fifo_bytes = 0;
  };
  std::string text;
  std::vector<Call> calls;
  void clear() {
    text.clear();
    calls.clear();
  }
};

/// The printf FIFO of one launch. It is circular (CUDA Programming Guide, "Formatted Output"; on
/// the H100, tests/hw/data/h100/runtime_gt/heap.csv): when a launch's calls outgrow it, the oldest
/// are overwritten, so the host prints the newest calls that fit, in order. deliver() queues a
/// CTA's calls (CTAs in order); flush() prints what the FIFO holds at the end of the launch (also
/// when the launch faults: the destructor flushes).
struct PrintfFifo {
  std::uint64_t limit = 0;    // bytes (cudaLimitPrintfFifoSize)
  std::uint64_t used = 0;     // bytes of the calls held
  std::uint64_t dropped = 0;  // printf calls overwritten by newer ones
  PrintfFifo() = default;
  PrintfFifo(const PrintfFifo&) = delete;
  PrintfFifo& operator=(const PrintfFifo&) = delete;
  ~PrintfFifo();
  /// Queues the calls of `t` for `out`, dropping the oldest calls held while they do not fit.
  void deliver(std::ostream& out, const PrintfText& t);
  /// Writes the calls held to the stream deliver() was given, in order, and empties the FIFO.
  void flush();

 private:
  struct Held {
    std::string text;
    std::uint64_t bytes = 0;
  };
  std::deque<Held> held_;
  std::ostream* out_ = nullptr;
};

/// What a warp's instructions see while they run. One per worker thread; the warp loop points it
/// at the current warp's register file and frame.
struct Ctx {
  std::uint64_t* regs = nullptr;
  std::uint64_t* reg(std::uint32_t slot) const { return regs + std::size_t(slot) * kLanes; }

  const KernelImage* kernel = nullptr;
  const GlobalMemory* global = nullptr;
  const ObjectTable* objects = nullptr;  // texture and surface objects (ops_tex.cpp)
  const Region* gcache = nullptr;   // last allocation hit (a lookup cache)
  const Region* gcache2 = nullptr;  // the one before
  std::uint8_t* shared = nullptr;
  std::uint64_t shared_size = 0;
  std::uint8_t* local = nullptr;   // lane l's stack starts at local + l * local_stride
  std::uint64_t local_stride = 0;  // the frame and the stack window after it (kStackWindowBytes)
  std::uint64_t local_frame = 0;   // the kernel's local bytes per thread (the PTX's frames)
  bool* local_overrun = nullptr;   // set when an access went past the frame (the window is dirty)
  std::uint64_t frame_base = 0;    // current function's frame, frame-relative addresses add it
  const std::uint8_t* kparams = nullptr;
  std::uint64_t kparam_size = 0;
  AccessSink* sink = nullptr;      // nullptr: no records are built
  bool atomic_global = false;      // other CTAs run concurrently: global atomics use host atomics
  std::uint32_t cta_linear = 0;
  std::uint32_t warp_index = 0;
  Dim3 ctaid, ntid, nctaid;
  std::uint64_t* clock = nullptr;  // the warp's instruction counter
  ClockState* clock_state = nullptr;  // the warp's clock reads (ops_move.cpp, mov_clock)
  PrintfText* printf_out = nullptr;
  DeviceHeap* heap = nullptr;      // device malloc/free (launches of kernels with uses_heap)
  std::uint32_t launch_id = 0;
  WarpAccess record;               // the whole-warp paths' record, reused (ops_mem.cpp)
  HeldRecords* held = nullptr;     // the current warp's held records (compiled.cpp)
  // A kWarpSync instruction's lane groups, set by the warp loop before it calls fn: `ngroups`
  // disjoint lane masks whose union is the mask fn gets; each group computes on its own lanes.
  std::uint32_t ngroups = 0;
  std::uint32_t groups[kLanes] = {};
  RaceChecker* race = nullptr;     // racecheck (sanitize.hpp): told of bar.warp.sync
  MemcheckLog* memcheck = nullptr; // MemcheckMode::kReport: unallocated mapped accesses go on (memcheck.hpp)
  SanitizerLog* faults = nullptr;  // SanitizeChecks::memcheck: device-side errors as findings (memcheck.hpp)
  // memcheck: the first lane of the current instruction whose shared or local access fell outside
  // its window (window_out_of_bounds, memcheck.hpp); kLanes when none. end_window_faults() ends
  // the launch after every lane was translated.
  std::uint32_t window_fault_lane = kLanes;
  std::uint64_t window_fault_addr = 0;
  std::uint32_t window_fault_width = 0;
  Space window_fault_space = Space::kShared;
  Op window_fault_op = Op::kLoad;
  // Thread-block clusters (cluster.cpp): the shared memory of each CTA of the cluster by rank
  // (each shared_size bytes), this CTA's rank, and how many CTAs the cluster has (1: none).
  std::uint8_t* const* cluster_shared = nullptr;
  std::uint32_t cluster_rank = 0;
  std::uint32_t cluster_ctas = 1;

  std::uint32_t pc_of(const Inst& in) const {
    return static_cast<std::uint32_t>(&in - kernel->code.data());
  }
  /// Thread index (x,y,z) of a lane of the current warp.
  Dim3 thread_of(unsigned lane) const;
};

/// Calls f(lane) for every lane of mask, a straight loop when all 32 are set.
template <class F>
inline void for_lanes(std::uint32_t mask, F&& f) {
  if (mask == kFullMask) {
    for (unsigned l = 0; l < kLanes; ++l) f(l);
  } else {
    for (std::uint32_t b = mask; b != 0; b &= b - 1) f(static_cast<unsigned>(__builtin_ctz(b)));
  }
}

}  // namespace warpscope::exec
