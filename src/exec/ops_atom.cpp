// atom and red on .global, .shared and generic addresses: and, or, xor, exch, cas, add, inc, dec,
// min, max on 16/32/64-bit integers, add on f32/f64 and the half types.
//
// Lanes execute one after another in lane order (the order a GPU serializes conflicting atomics
// of one instruction in is unspecified; lane order is deterministic). When other CTAs run on other
// host threads, global atomics use host atomic read-modify-write, so they stay atomic; shared
// memory is private to the CTA's host thread. atom.add.f32 on global memory flushes subnormal
// inputs and results, as the PTX ISA says the hardware does; on shared memory it does not.
#include <atomic>

#include "exec/memaccess.hpp"
#include "exec/ops_common.hpp"
#include "exec/smallfloat.hpp"

namespace warpscope::exec {
namespace {

using ptx::ReduceOp;
using ptx::Type;

enum class AK : std::uint8_t { kAnd, kOr, kXor, kExch, kCas, kAdd, kInc, kDec, kMin, kMax };
enum class VK : std::uint8_t { kInt, kF32, kF64, kF16, kBF16, kF16x2, kBF16x2 };

template <class B, VK V, AK K>
inline B apply(B old, B b, B c, bool global) {
  if constexpr (K == AK::kAnd) return old & b;
  if constexpr (K == AK::kOr) return old | b;
  if constexpr (K == AK::kXor) return old ^ b;
  if constexpr (K == AK::kExch) return b;
  if constexpr (K == AK::kCas) return old == b ? c : old;
  if constexpr (V == VK::kInt) {
    if constexpr (K == AK::kAdd) return static_cast<B>(old + b);
    if constexpr (K == AK::kInc) return old >= b ? B(0) : static_cast<B>(old + 1);
    if constexpr (K == AK::kDec) return (old == 0 || old > b) ? b : static_cast<B>(old - 1);
    if constexpr (K == AK::kMin) return old < b ? old : b;
    if constexpr (K == AK::kMax) return old > b ? old : b;
  }
  if constexpr (V == VK::kF32) {
    float a = std::bit_cast<float>(static_cast<std::uint32_t>(old)), v = std::bit_cast<float>(static_cast<std::uint32_t>(b));
    if (global) { a = ftz(a); v = ftz(v); }
    float r = a + v;
    if (global) r = ftz(r);
    return static_cast<B>(std::bit_cast<std::uint32_t>(canon(r)));
  }
  if constexpr (V == VK::kF64) {
    return static_cast<B>(std::bit_cast<std::uint64_t>(canon(std::bit_cast<double>(static_cast<std::uint64_t>(old)) +
                                                             std::bit_cast<double>(static_cast<std::uint64_t>(b)))));
  }
  if constexpr (V == VK::kF16 || V == VK::kBF16) {
    const FloatFormat f = V == VK::kF16 ? kF16 : kBF16;
    return static_cast<B>(encode_small(decode_small(old, f) + decode_small(b, f), f, Round::kNearestEven));
  }
  if constexpr (V == VK::kF16x2 || V == VK::kBF16x2) {
    const FloatFormat f = V == VK::kF16x2 ? kF16 : kBF16;
    const std::uint32_t lo = encode_small(decode_small(old & 0xffff, f) + decode_small(b & 0xffff, f), f, Round::kNearestEven);
    const std::uint32_t hi = encode_small(decode_small(old >> 16, f) + decode_small(b >> 16, f), f, Round::kNearestEven);
    return static_cast<B>(lo | (hi << 16));
  }
  return old;
}

/// B: the storage type (signedness matters for min/max); U: the unsigned type of the same size.
template <MemSpace S, class B, VK V, AK K, bool Red>
void atom(const Inst& in, Ctx& x, std::uint32_t m) {
  using UB = std::make_unsigned_t<B>;
  constexpr unsigned w = sizeof(B);
  const Op op = Red ? Op::kReduction : Op::kAtomic;
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = in.c == kNoSlot ? b : x.reg(in.c);
  std::uint64_t* d = Red ? nullptr : x.reg(in.d);
  std::uint8_t* ptr[kLanes];
  Space spaces[kLanes];
  std::uint64_t addrs[kLanes];
  bool mixed = false;
  const std::uint64_t off = static_cast<std::uint64_t>(in.imm);
  for_lanes(m, [&](unsigned l) {
    ptr[l] = translate<S>(x, in, l, a[l] + off, w, op, spaces[l], addrs[l]);
    if constexpr (S == MemSpace::kGeneric || S == MemSpace::kShared) mixed |= spaces[l] != spaces[__builtin_ctz(m)];
  });
  end_window_faults(x, in);
  for_lanes(m, [&](unsigned l) {
    const B vb = static_cast<B>(b[l]), vc = static_cast<B>(c[l]);
    const bool global = spaces[l] == Space::kGlobal;
    B old;
    if (global && x.atomic_global) {
      std::atomic_ref<UB> ref(*reinterpret_cast<UB*>(ptr[l]));
      UB cur = ref.load(std::memory_order_relaxed);
      for (;;) {
        const UB nv = static_cast<UB>(apply<B, V, K>(static_cast<B>(cur), vb, vc, true));
        if (ref.compare_exchange_weak(cur, nv, std::memory_order_relaxed)) break;
      }
      old = static_cast<B>(cur);
    } else {
      std::memcpy(&old, ptr[l], w);
      const B nv = apply<B, V, K>(old, vb, vc, global);
      std::memcpy(ptr[l], &nv, w);
    }
    if constexpr (!Red) {
      if constexpr (std::is_signed_v<B>) d[l] = static_cast<std::uint64_t>(static_cast<std::int64_t>(old));
      else d[l] = static_cast<std::uint64_t>(old);
    }
  });
  if (x.sink != nullptr) emit_records(x, in, m, spaces, addrs, w, op, mixed, K == AK::kCas);
}

template <class B, VK V, AK K, bool Red>
ExecFn by_space(MemSpace s) {
  switch (s) {
    case MemSpace::kGlobal: return &atom<MemSpace::kGlobal, B, V, K, Red>;
    case MemSpace::kShared: return &atom<MemSpace::kShared, B, V, K, Red>;
    case MemSpace::kGeneric: return &atom<MemSpace::kGeneric, B, V, K, Red>;
    default: return nullptr;
  }
}

template <bool Red>
ExecFn pick(MemSpace s, ReduceOp op, Type t) {
  const unsigned bits = ptx::type_bits(t);
  const bool sgn = ptx::is_signed_int(t);
  const bool integer = sgn || ptx::is_unsigned_int(t) || ptx::is_bits(t);
#define WS_BITS(K)                                                                  \
  if (bits == 32) return by_space<std::uint32_t, VK::kInt, K, Red>(s);              \
  if (bits == 64) return by_space<std::uint64_t, VK::kInt, K, Red>(s);              \
  if (bits == 16 && K == AK::kCas) return by_space<std::uint16_t, VK::kInt, K, Red>(s); \
  return nullptr;
  switch (op) {
    case ReduceOp::kAnd: WS_BITS(AK::kAnd)
    case ReduceOp::kOr: WS_BITS(AK::kOr)
    case ReduceOp::kXor: WS_BITS(AK::kXor)
    case ReduceOp::kExch: WS_BITS(AK::kExch)
    case ReduceOp::kCas: WS_BITS(AK::kCas)
    case ReduceOp::kAdd:
      switch (t) {
        case Type::kF32: return by_space<std::uint32_t, VK::kF32, AK::kAdd, Red>(s);
        case Type::kF64: return by_space<std::uint64_t, VK::kF64, AK::kAdd, Red>(s);
        case Type::kF16: return by_space<std::uint16_t, VK::kF16, AK::kAdd, Red>(s);
        case Type::kBF16: return by_space<std::uint16_t, VK::kBF16, AK::kAdd, Red>(s);
        case Type::kF16x2: return by_space<std::uint32_t, VK::kF16x2, AK::kAdd, Red>(s);
        case Type::kBF16x2: return by_space<std::uint32_t, VK::kBF16x2, AK::kAdd, Red>(s);
        default: break;
      }
      if (!integer) return nullptr;
      if (bits == 32) return by_space<std::uint32_t, VK::kInt, AK::kAdd, Red>(s);
      if (bits == 64) return by_space<std::uint64_t, VK::kInt, AK::kAdd, Red>(s);
      return nullptr;
    case ReduceOp::kInc:
      if (integer && bits == 32) return by_space<std::uint32_t, VK::kInt, AK::kInc, Red>(s);
      return nullptr;
    case ReduceOp::kDec:
      if (integer && bits == 32) return by_space<std::uint32_t, VK::kInt, AK::kDec, Red>(s);
      return nullptr;
    case ReduceOp::kMin:
    case ReduceOp::kMax: {
      const bool mx = op == ReduceOp::kMax;
      if (!integer) return nullptr;
      if (bits == 32) {
        if (sgn) return mx ? by_space<std::int32_t, VK::kInt, AK::kMax, Red>(s) : by_space<std::int32_t, VK::kInt, AK::kMin, Red>(s);
        return mx ? by_space<std::uint32_t, VK::kInt, AK::kMax, Red>(s) : by_space<std::uint32_t, VK::kInt, AK::kMin, Red>(s);
      }
      if (bits == 64) {
        if (sgn) return mx ? by_space<std::int64_t, VK::kInt, AK::kMax, Red>(s) : by_space<std::int64_t, VK::kInt, AK::kMin, Red>(s);
        return mx ? by_space<std::uint64_t, VK::kInt, AK::kMax, Red>(s) : by_space<std::uint64_t, VK::kInt, AK::kMin, Red>(s);
      }
      return nullptr;
    }
    default: return nullptr;
  }
#undef WS_BITS
}

/// Whether register r appears in an instruction of f other than `self` (read or written: a
/// conservative test that `self`'s result is never read).
bool appears_elsewhere(const ptx::Function& f, const ptx::Instruction& self, ptx::RegId r) {
  auto in = [&](const ptx::Operand& o, auto&& rec) -> bool {
    if (o.reg == r && (o.kind == ptx::OperandKind::kReg || o.addr_base == ptx::AddressBase::kReg)) return true;
    for (const ptx::Operand& e : o.elements)
      if (rec(e, rec)) return true;
    return false;
  };
  for (const ptx::Instruction& i : f.instructions) {
    if (&i == &self) continue;
    if (i.guard && i.guard->reg == r) return true;
    for (const ptx::Operand& o : i.operands)
      if (in(o, in)) return true;
  }
  return false;
}

}  // namespace

bool decode_atom(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  if (ins.op != ptx::Opcode::kAtom && ins.op != ptx::Opcode::kRed) return false;
  bool red = ins.op == ptx::Opcode::kRed;
  const auto& ops = ins.operands;
  if (ins.vec != 1) dc.unsupported("vector atomics");
  const Type t = ins.type;
  const ptx::Operand& addr = red ? ops[0] : ops[1];
  const MemSpace ms = resolve_space(dc, ins, addr, out);
  if (ms != MemSpace::kGlobal && ms != MemSpace::kShared && ms != MemSpace::kGeneric) {
    dc.unsupported(fmt::format("{} on .{}", red ? "red" : "atom", ptx::to_string(ins.space)));
  }
  // A global atom whose result is never read is a reduction: ptxas makes it RED (REDG), and
  // Nsight Compute counts it under op_red (histogram.cu's `atomicAdd(&hist[b], 1u)`). The result
  // register is then not written, which nothing can observe.
  if (!red && ms == MemSpace::kGlobal && ins.reduce != ReduceOp::kCas && ins.reduce != ReduceOp::kExch &&
      ops[0].kind == ptx::OperandKind::kReg && !appears_elsewhere(dc.function(), ins, ops[0].reg)) {
    red = true;
  }
  out.mem_op = red ? Op::kReduction : Op::kAtomic;
  out.width = static_cast<std::uint8_t>(ptx::type_bytes(t));
  if (ins.op != ptx::Opcode::kRed && !red) out.d = dc.dst(ops[0]);
  const std::size_t first = ins.op == ptx::Opcode::kRed ? 1 : 2;
  out.b = dc.src(ops[first], t);
  if (ins.reduce == ReduceOp::kCas) {
    if (ops.size() <= first + 1) dc.unsupported("cas without a new value");
    out.c = dc.src(ops[first + 1], t);
  }
  out.fn = red ? pick<true>(ms, ins.reduce, t) : pick<false>(ms, ins.reduce, t);
  if (out.fn == nullptr) {
    dc.unsupported(fmt::format("{}.{}.{}", red ? "red" : "atom", ptx::to_string(ins.reduce), ptx::to_string(t)));
  }
  return true;
}

}  // namespace warpscope::exec
