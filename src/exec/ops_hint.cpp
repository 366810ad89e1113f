// L2 cache policies and hints (docs/exec.md "Cache policies and hints"): createpolicy computes the
// 64-bit policy the H200 computes; applypriority and discard change no architectural state and
// make no access record (the measurements behind that: tests/hw/data/h200/ptxops).
#include <bit>
#include <cmath>

#include <fmt/format.h>

#include "exec/decode.hpp"
#include "exec/fault.hpp"
#include "exec/ops_common.hpp"
#include "exec/policy.hpp"

namespace warpscope::exec {

namespace {

using ptx::Eviction;
using ptx::Opcode;
using ptx::Type;

// The priorities' codes in the policy's top byte (measured: tests/hw/data/h200/ptxops/ptxops.txt).
unsigned primary_code(Eviction e) {
  switch (e) {
    case Eviction::kUnchanged: return 0;
    case Eviction::kFirst: return 1;
    case Eviction::kLast: return 2;
    default: return 3;  // kNormal (the decoder admits no other)
  }
}

// Inst::aux: bits 0-1 the primary priority's code, bit 2 a secondary .L2::evict_first.
std::uint32_t priorities(const ptx::Instruction& ins) {
  return primary_code(ins.l2_eviction) | (ins.l2_secondary == Eviction::kFirst ? 4u : 0u);
}

void fractional(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* f = in.a == kNoSlot ? nullptr : x.reg(in.a);
  for_lanes(m, [&](unsigned l) {
    const float v = f == nullptr ? 1.0f : get<float>(f[l]);
    if (!(v >= 0.0f && v <= 1.0f)) {
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
                 fmt::format("createpolicy.fractional with the fraction {} (0x{:08x}): the PTX ISA allows (0, 1] "
                             "and the H200's policy was measured on [0, 1] only",
                             v, std::bit_cast<std::uint32_t>(v)));
    }
    d[l] = fractional_policy(in.aux & 3u, (in.aux & 4u) != 0, v);
  });
}

void range(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* p = x.reg(in.b);
  const std::uint64_t* t = x.reg(in.c);
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t addr = a[l] + static_cast<std::uint64_t>(in.imm);
    d[l] = range_policy(in.aux & 3u, (in.aux & 4u) != 0, addr, static_cast<std::uint32_t>(p[l]),
                        static_cast<std::uint32_t>(t[l]));
  });
}

void nop(const Inst&, Ctx&, std::uint32_t) {}

}  // namespace

std::uint64_t fractional_policy(unsigned primary, bool secondary_first, float fraction) {
  // ptxas's code for a register fraction (FMUL by 15.99, F2I.U32.TRUNC); immediate fractions give
  // the same bits (all 14 measured forms).
  const auto n = static_cast<std::uint64_t>(static_cast<std::uint32_t>(fraction * 15.99f) & 0xfu);
  const std::uint64_t top = 0x10u | (primary << 1) | (secondary_first ? 1u : 0u);
  return top << 56 | n << 52;
}

std::uint64_t range_policy(unsigned primary, bool secondary_first, std::uint64_t a, std::uint32_t primary_size,
                           std::uint32_t total_size) {
  if (total_size == 0) return std::uint64_t{0x18} << 56;
  // The granule: 2^s bytes with s = max(ceil(log2(total)) - 7, 12), the total converted to f32 first
  // (I2FP.F32.U32, then MUFU.LG2 and F2I.U32.CEIL in ptxas's code): 128 granules cover the total.
  const std::uint32_t tb = std::bit_cast<std::uint32_t>(static_cast<float>(total_size));
  const int lg = static_cast<int>((tb >> 23) & 0xffu) - 127 + ((tb & 0x7fffffu) != 0 ? 1 : 0);
  const int s = lg - 7 > 12 ? lg - 7 : 12;
  const std::uint64_t start = a >> s;
  // The end is a + primary-size rounded up to a granule, the size and rounding summed in 32 bits.
  const std::uint32_t span = primary_size + (std::uint32_t{1} << s) - 1u;
  const std::uint64_t end = (a + span) >> s;
  const std::uint64_t count = end - start < 0x7f ? end - start : 0x7f;
  const std::uint64_t top = 0x18u | (primary << 1) | (secondary_first ? 1u : 0u);
  return top << 56 | static_cast<std::uint64_t>(s - 12) << 52 | (start & 0x7f) << 44 | (count & 0x7f) << 37;
}

bool decode_hint(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const auto& ops = ins.operands;
  switch (ins.op) {
    case Opcode::kCreatepolicy:
      out.d = dc.dst(ops[0]);
      out.aux = priorities(ins);
      switch (ins.policy_kind) {
        case ptx::PolicyKind::kFractional:
          if (ops.size() > 1) out.a = dc.src(ops[1], Type::kF32);
          out.fn = &fractional;
          return true;
        case ptx::PolicyKind::kRange: {
          const AddrOperand g = dc.address(ops[1], ptx::StateSpace::kGlobal);
          if (g.mode != AddrOperand::Mode::kPlain) dc.unsupported("createpolicy.range with this address operand");
          out.a = g.slot;
          out.imm = g.imm;
          out.b = dc.src(ops[2], Type::kU32);
          out.c = dc.src(ops[3], Type::kU32);
          out.fn = &range;
          return true;
        }
        default:
          dc.unsupported(
              "createpolicy.cvt (converts a CUDA access property, whose encoding is not documented and was not "
              "measured)");
      }
    case Opcode::kApplypriority:
    case Opcode::kDiscard: {
      // No architectural effect (discard may leave the line's old contents: the ISA makes them
      // undefined, and keeping them is one of the allowed outcomes). No record: docs/exec.md.
      const AddrOperand g = dc.address(ops[0], ptx::StateSpace::kGlobal);
      if (g.mode != AddrOperand::Mode::kPlain) dc.unsupported(fmt::format("{} with this address operand", ins.text));
      out.fn = &nop;
      return true;
    }
    default: return false;
  }
}

}  // namespace warpscope::exec
