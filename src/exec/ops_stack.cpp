// alloca, stacksave, stackrestore: the thread's dynamic stack (PTX ISA 7.3+, "Stack Manipulation
// Instructions").
//
// The ISA's rules: alloca allocates `size` bytes on the stack frame of the current function with
// alignment max(immAlign, frame_align) (immAlign a power of 2, default 8, the minimum guaranteed
// alignment); the stack grows down, so the new stack pointer is the start of the allocation and
// is what alloca returns, a .local state-space address. The memory is freed when the function
// exits, or by stackrestore with a pointer stacksave returned earlier. stacksave reads the stack
// pointer, stackrestore sets it.
//
// The model: a lane's local memory is its frames (KernelImage::local_bytes) and the stack window
// after them (kStackWindowBytes, cudaLimitStackSize's default on the H100, machine.hpp). The
// dynamic stack starts at the top of that window (local offset local_stride) and grows down
// towards the frames; an allocation that would reach into them faults as a stack overflow (the
// GPU's behaviour there is undefined). The hidden slot KernelImage::sp_slot holds each lane's
// bytes in use (0 at the start), so the stack pointer is local_stride - used. A call saves it
// and the return restores it (warp.cpp: the function exit frees). frame_align is taken as 8
// (the ISA's minimum guaranteed alignment): alignments are counted on local offsets, whose 0 is
// aligned to any power of 2 on the GPU.
#include <algorithm>
#include <bit>

#include "exec/fault.hpp"
#include "exec/ops_common.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;
using ptx::Type;

constexpr std::uint64_t kFrameAlign = 8;

std::uint64_t stack_top(const Ctx& x) { return x.local_stride; }

void exec_alloca(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint32_t sp = x.kernel->sp_slot;
  const std::uint64_t align = static_cast<std::uint64_t>(in.imm);
  const std::uint64_t top = stack_top(x);
  const bool narrow = in.width == 4;
  std::uint64_t ptr[kLanes] = {};
  for_lanes(m, [&](unsigned l) {
    std::uint64_t size = x.reg(in.a)[l];
    if (narrow) size &= 0xffffffffu;
    const std::uint64_t cur = top - x.reg(sp)[l];
    // Room between the frames and the current stack pointer, then the aligned start below it.
    const std::uint64_t room = cur - x.local_frame;
    const std::uint64_t start = size > room ? 0 : (cur - size) & ~(align - 1);
    if (size > room || start < x.local_frame)
      lane_fault(x, x.pc_of(in), ErrorKind::kOutOfBounds, l,
                 fmt::format("stack overflow: alloca of {} bytes (alignment {}) with {} of the {} bytes of the thread's "
                             "stack window after its {} bytes of frames free (cudaLimitStackSize)",
                             size, align, room, top - x.local_frame, x.local_frame));
    ptr[l] = start;
  });
  std::uint64_t* d = x.reg(in.d);
  std::uint64_t* s = x.reg(sp);
  for_lanes(m, [&](unsigned l) {
    s[l] = top - ptr[l];
    d[l] = ptr[l];
  });
  // Memory past the frames is now in use: the next CTA of this warp starts from a zeroed window.
  if (m != 0 && x.local_overrun != nullptr) *x.local_overrun = true;
}

void exec_stacksave(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t* s = x.reg(x.kernel->sp_slot);
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t top = stack_top(x);
  for_lanes(m, [&](unsigned l) { d[l] = top - s[l]; });
}

void exec_stackrestore(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t top = stack_top(x);
  const bool narrow = in.width == 4;
  for_lanes(m, [&](unsigned l) {
    std::uint64_t a = x.reg(in.a)[l];
    if (narrow) a &= 0xffffffffu;
    // The ISA leaves any other value undefined ("may cause corruption of stack pointer").
    if (a < x.local_frame || a > top)
      lane_fault(x, x.pc_of(in), ErrorKind::kTrap, l,
                 fmt::format("stackrestore to 0x{:x}, which is not a stack pointer of this thread (the stack window is "
                             "[0x{:x}, 0x{:x}] in local memory)",
                             a, x.local_frame, top));
  });
  std::uint64_t* s = x.reg(x.kernel->sp_slot);
  for_lanes(m, [&](unsigned l) {
    std::uint64_t a = x.reg(in.a)[l];
    if (narrow) a &= 0xffffffffu;
    s[l] = top - a;
  });
}

}  // namespace

bool decode_stack(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  if (ins.op != Opcode::kAlloca && ins.op != Opcode::kStacksave && ins.op != Opcode::kStackrestore) return false;
  if (ins.type != Type::kU32 && ins.type != Type::kU64)
    dc.unsupported(fmt::format("`{}` takes .u32 or .u64", ptx::to_string(ins.op)));
  out.width = ins.type == Type::kU32 ? 4 : 8;
  const auto& ops = ins.operands;
  const std::uint32_t sp = dc.sp_slot();
  (void)sp;
  switch (ins.op) {
    case Opcode::kAlloca: {
      std::uint64_t align = 8;
      if (ops.size() == 3) {
        if (ops[2].kind != ptx::OperandKind::kImm) dc.unsupported("alloca's alignment must be an integer constant");
        align = immediate_bits(ops[2], Type::kU32);
        if (align == 0 || !std::has_single_bit(align) || align > (std::uint64_t{1} << 23))
          dc.unsupported(fmt::format("alloca's alignment {} is not a power of 2 up to 2^23", align));
      }
      out.imm = static_cast<std::int64_t>(std::max(align, kFrameAlign));
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], ins.type);
      out.fn = &exec_alloca;
      return true;
    }
    case Opcode::kStacksave:
      out.d = dc.dst(ops[0]);
      out.fn = &exec_stacksave;
      return true;
    default:
      out.a = dc.src(ops[0], ins.type);
      out.fn = &exec_stackrestore;
      return true;
  }
}

}  // namespace warpscope::exec
