// Native segments: what the interpreter's warp loop needs from a compiler of straight-line runs
// (src/jit; docs/exec.md, "Native segments"), and what that compiler may learn about decoded
// instructions. Nothing here depends on the compiler: a build without it leaves the table empty
// and the warp loop interprets every instruction.
//
// A segment is a run [begin, end) of instructions that only compute (Ctl::kNone), compiled into
// one function that does, for the warp's active lanes, what the warp loop would do calling each
// instruction's semantic function in turn: guards, the per-pc thread-count corrections of guarded
// instructions, and the lanes each instruction ran. Instructions the compiler does not turn into
// native code are calls to their semantic function, so every run can be compiled.
//
// The warp loop runs a segment when the warp's reconvergence point is not inside the run and its
// instruction budget outlasts it; otherwise it interprets, so instruction counts, pc counts and
// the clock stay those of the interpreter. With an access sink (a profiled launch: SegFrame::
// traced) every load and store calls its semantic function, which makes the records the
// interpreter makes; with the sanitizer on, the warp loop interprets.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <vector>

#include "exec/program.hpp"

namespace warpscope::exec {

/// What a segment function gets and gives back. A plain struct: compiled code reads and writes
/// its fields at their offsets (offsetof).
struct SegFrame;
/// How compiled code calls an instruction's semantic function: sets the warp's instruction count
/// (what %clock reads) to `count`, calls in->fn for `mask`, and returns 0, or 1 with the fault it
/// threw in frame->error (exceptions never unwind through compiled code).
using SegCallFn = std::uint32_t (*)(const Inst* in, SegFrame* frame, std::uint32_t mask, std::uint64_t count);
std::uint32_t segment_call(const Inst* in, SegFrame* frame, std::uint32_t mask, std::uint64_t count) noexcept;

struct SegFrame {
  Ctx* x = nullptr;
  const Inst* code = nullptr;           // KernelImage::code.data(): compiled code holds no addresses
  SegCallFn call = &segment_call;
  std::uint64_t* regs = nullptr;        // the warp's register file (Ctx::regs)
  std::uint64_t* pc_thread = nullptr;   // the per-pc thread-count differences (warp.cpp)
  std::uint64_t count = 0;              // the warp's instruction count before the segment
  std::uint64_t lanes = 0;              // out: sum over the instructions run of their active lanes
  std::uint32_t active = 0;             // the split's active lanes (never 0)
  std::uint32_t run_lanes = 0;          // popcount of the run's lanes (warp.cpp's run_lanes)
  std::uint32_t traced = 0;             // nonzero: records go to an access sink, so loads and
                                        // stores call their semantic function (run_hooked too)
  std::exception_ptr error;             // a semantic function's fault, rethrown by the warp loop
};

/// Runs a segment; returns 0 when it ran to its end, i + 1 when its i-th instruction faulted
/// (SegFrame::error; `lanes` then counts instructions 0..i), or kSegNotRun when it did nothing
/// (a segment compiled for full warps only, entered by a split warp: the warp loop interprets).
inline constexpr std::uint32_t kSegNotRun = 0xffffffffu;
using SegFn = std::uint32_t (*)(SegFrame* frame);

struct Segment {
  SegFn fn = nullptr;
  std::uint32_t end = 0;  // one past its last instruction
};

/// A kernel's segments, indexed by the pc they begin at (fn == nullptr: none begins there).
struct SegmentTable {
  std::vector<Segment> at;
  const Inst* code = nullptr;  // KernelImage::code.data() when compiled (checked before use)
  std::shared_ptr<void> owner; // keeps the compiled code alive
};

/// A KernelImage's lazily compiled segments (KernelImage::jit).
struct JitSlot {
  static constexpr int kNone = 0, kCompiling = 1, kDone = 2;
  std::atomic<int> state{kNone};               // kDone: `table` is set (null: nothing compiled)
  std::unique_ptr<SegmentTable> table;
  std::atomic<std::uint64_t> traced_insts{0};  // warp instructions its profiled CTAs ran so far
};

/// Compiles a kernel's segments (src/jit installs one).
class SegmentCompiler {
 public:
  virtual ~SegmentCompiler() = default;
  /// nullptr when nothing could be compiled (the kernel is then interpreted).
  virtual std::unique_ptr<SegmentTable> compile(const KernelImage& kernel) = 0;
};

/// Installs the process's segment compiler (nullptr: none). Not thread-safe with launches.
void set_segment_compiler(SegmentCompiler* compiler);
/// Native segments on or off for later launches (default on; WARPSCOPE_JIT=0 in the environment
/// turns them off). Without a compiler they are off whatever this says.
void set_jit_enabled(bool on);
bool jit_enabled();
/// Whether a compiler is installed (the build has the JIT).
bool jit_available();
/// The kernel's segments, compiled on the first call (thread-safe); nullptr when the JIT is off,
/// absent, or compiled nothing, and while another thread compiles them: then *pending (if given)
/// is set and the caller interprets meanwhile and asks again later (so the other host threads
/// of a launch keep running CTAs during the compile; the counts are the same either way).
const SegmentTable* segments_for(const KernelImage& kernel, bool* pending = nullptr);
/// Profiled launches (an access sink, no sanitizer) run a kernel's segments once it has been
/// compiled (by a launch without statistics) or its profiled CTAs have run this many warp
/// instructions interpreted: a short profiled run does not pay for compiling (a few tenths of a
/// second per kernel). Default kJitTracedAfter; WARPSCOPE_JIT_TRACED_AFTER=N in the environment.
/// The counters are the same either way (docs/exec.md, "Native segments").
inline constexpr std::uint64_t kJitTracedAfter = std::uint64_t{1} << 26;
void set_jit_traced_after(std::uint64_t warp_instructions);
/// Whether a profiled CTA of `kernel` should look up its segments (segments_for) now.
bool traced_segments_due(const KernelImage& kernel);

// --- what the compiler may know about an instruction -------------------------------------------

/// An instruction's semantic function described, for the ones whose semantics the compiler
/// reproduces bit for bit (each described by the file that defines the function). kNone: call it.
enum class JitOp : std::uint8_t {
  kNone,
  kMov,      // d = a & mask(bits)
  kAdd,      // integers of `bits`, wrapping; result zero-extended to 64 bits
  kSub,
  kMulLo,
  kMadLo,    // d = a * b + c
  kMulWide,  // d = ext(a) * ext(b), 2 * bits wide (sign-extended when `sgn`)
  kAnd,
  kOr,
  kXor,
  kShl,      // b (u32) >= bits: 0
  kShr,      // b >= bits: 0, or the sign for signed types (arithmetic)
  kSetp,     // d = cmp(a, b) ? 1 : 0 (no second destination, no combining predicate, no .ftz)
  kSelp,     // d = (c & 1) ? a : b (64 bits)
  kFAdd,     // f32, round to nearest, no .ftz/.sat; NaN results canonical (0x7fffffff)
  kFSub,
  kFMul,
  kFFma,
  kFDiv,
  kFRcp,     // 1 / a
  kFSqrt,
  kFRsqrt,   // 1 / sqrt(a), two roundings
  kLd,       // ld of `space` (0 global, 1 shared), element `elem` bytes (sign-extended when `sgn`), Inst::vec elements
  kSt,
  kMin,      // integers of `bits` (signed when `sgn`), no .relu; zero-extended
  kMax,
  kAbs,      // signed integers of `bits`, wrapping (abs(min) = min); zero-extended
  kCvtInt,   // cvt between integers, no .sat: a's low `src_bits` extended by `src_sgn` or truncated to
             // `bits`, then sign-extended (`sgn`) or zero-extended to 64 bits
  kCvtIF,    // cvt.rn from an integer (`src_bits`, `src_sgn`) to f32/f64 (`bits`), no other modifier
  kCvtFF,    // cvt between f32/f64 (`src_bits` to `bits`), no .ftz/.sat/.rz/.rm/.rp: rounded to an
             // integral value by `rnd` (0: not), then to nearest; NaN results canonical
  kCvtFI,    // cvt from f32/f64 (`src_bits`) to an integer (`bits`, `sgn`), no .ftz/.sat: rounded by
             // `rnd` (1 rni, 2 rzi, 3 rmi, 4 rpi), clamped to the range, NaN -> 0; extended as kCvtInt
  kDAdd,     // f64, round to nearest; NaN results canonical (0x7fffffffffffffff)
  kDSub,
  kDMul,
  kDDiv,
  kDFma,
  kFAbs,     // f32 (`bits` 32, no .ftz) or f64: the sign bit cleared (NaNs keep their payload)
  kFNeg,     // the sign bit flipped
  kFMin,     // f32 (no .ftz, no .NaN) or f64: a NaN operand gives the other, -0 < +0; NaN results canonical
  kFMax,
};

struct JitDesc {
  JitOp op = JitOp::kNone;
  std::uint8_t bits = 0;   // integer width (kSetp with flt, kFAbs..kFMax: the float's)
  bool sgn = false;        // signed integer type / sign-extending load
  bool flt = false;        // kSetp: float comparison (f32 or f64 by `bits`)
  std::uint8_t cmp = 0;    // kSetp: ptx::CmpOp
  std::uint8_t space = 0;  // kLd/kSt: 0 global, 1 shared
  std::uint8_t elem = 0;   // kLd/kSt: bytes per element
  std::uint8_t src_bits = 0;  // kCvtInt: the source's width
  bool src_sgn = false;       // kCvtInt, kCvtIF: the source is signed
  std::uint8_t rnd = 0;       // kCvtFF, kCvtFI: 0 none, 1 rni, 2 rzi, 3 rmi, 4 rpi
};

/// The description of instruction pc of `kernel` (JitOp::kNone when its function is not one of
/// those). A load or store with compiled accesses or record widths (run_hooked) is described by
/// its own function: its native code runs only without an access sink (SegFrame::traced), where
/// run_hooked only calls that function. Any other hooked instruction (the anchor of compiled
/// accesses) is kNone: a call of run_hooked, which makes its records in profiled launches.
JitDesc describe(const KernelImage& kernel, std::uint32_t pc);
/// The semantic function run_hooked calls for pc, or the instruction's own (compiled.cpp).
ExecFn unhooked_fn(const KernelImage& kernel, std::uint32_t pc);

// Per file (each compares with its own functions' addresses).
bool describe_int(ExecFn f, JitDesc& d);    // ops_int.cpp
bool describe_move(ExecFn f, JitDesc& d);   // ops_move.cpp
bool describe_f32_rn(ExecFn f, JitDesc& d); // ops_float_rn.cpp
bool describe_mem(ExecFn f, JitDesc& d);    // ops_mem.cpp
bool describe_float(ExecFn f, JitDesc& d);  // ops_float.cpp: f64 round-to-nearest, abs/neg/min/max
bool describe_cvt(ExecFn f, std::uint32_t aux, JitDesc& d);  // ops_cvt.cpp (aux: Inst::aux, cvt's modifiers)

}  // namespace warpscope::exec
