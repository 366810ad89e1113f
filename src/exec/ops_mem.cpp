// ld, ldu, st (every state space, scalar and .v2/.v4) and prefetch.
//
// Every lane's address is translated and checked before any register or memory is changed, so a
// faulting instruction has no effect. A vector access is one record whose width is the element
// size times the vector length. Loads from kernel parameters and call-sequence .param variables
// emit no record; .const loads emit a kConst one.
#include "exec/memaccess.hpp"
#include "exec/ops_common.hpp"
#include "exec/segments.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;
using ptx::Type;

template <unsigned E, bool Sx>
inline std::uint64_t load_elem(const std::uint8_t* p) {
  if constexpr (E == 1) {
    std::uint8_t v = *p;
    return Sx ? static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int8_t>(v))) : v;
  } else if constexpr (E == 2) {
    std::uint16_t v;
    std::memcpy(&v, p, 2);
    return Sx ? static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int16_t>(v))) : v;
  } else if constexpr (E == 4) {
    std::uint32_t v;
    std::memcpy(&v, p, 4);
    return Sx ? static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(v))) : v;
  } else {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
}

constexpr bool records(MemSpace s) { return s != MemSpace::kKparam && s != MemSpace::kFrameParam; }
constexpr bool is_global(MemSpace s) {
  return s == MemSpace::kGlobal || s == MemSpace::kConst || s == MemSpace::kGeneric;
}

/// Shared memory: the whole warp's offsets (summarized in `s`) aligned and inside the window.
inline bool whole_warp_shared(const Ctx& x, const AddressSummary& s, unsigned w) {
  return x.shared_size >= w && (s.ored & (w - 1)) == 0 && s.hi <= x.shared_size - w;
}

/// The fast path of a full-warp global access: when every lane's address is aligned and inside
/// the last allocation used, that allocation (checked with one min/max pass, no per-lane lookup);
/// nullptr otherwise (the per-lane path then checks and reports each lane).
inline const Region* whole_warp_region(Ctx& x, const AddressSummary& s, unsigned w) {
  const std::uint64_t lo = s.lo, hi = s.hi;
  if ((s.ored & (w - 1)) != 0 || hi >= kHeapLimit) return nullptr;
  auto covers = [&](const Region* r) { return r != nullptr && lo >= r->base && r->size >= w && hi - r->base <= r->size - w; };
  if (covers(x.gcache)) return x.gcache;
  // Kernels alternate between a few arrays: keep the last two allocations.
  if (covers(x.gcache2)) {
    std::swap(x.gcache, x.gcache2);
    return x.gcache;
  }
  const Region* r = x.global->find(lo, w);
  if (!covers(r)) return nullptr;
  x.gcache2 = x.gcache;
  x.gcache = r;
  return r;
}

/// The low E bytes of v at p.
template <unsigned E>
inline void store_elem(std::uint8_t* p, std::uint64_t v) {
  if constexpr (E == 1) {
    *p = static_cast<std::uint8_t>(v);
  } else if constexpr (E == 2) {
    const auto t = static_cast<std::uint16_t>(v);
    std::memcpy(p, &t, 2);
  } else if constexpr (E == 4) {
    const auto t = static_cast<std::uint32_t>(v);
    std::memcpy(p, &t, 4);
  } else {
    std::memcpy(p, &v, 8);
  }
}

/// A full warp's loads, lane l's element i at host + (a[l] + bias) + i * E. Two common shapes get
/// loops without per-lane addresses: every lane on one address (a broadcast: one load) and lane l
/// at a[0] + l * w (consecutive: loads the compiler vectorizes). The shape is taken from `a`
/// before any destination register is written.
template <unsigned E, bool Sx>
inline void load_whole_warp(const Inst& in, Ctx& x, const std::uint8_t* host, const std::uint64_t* a,
                            std::uint64_t bias, unsigned w, const AddressSummary& s) {
  const unsigned n = in.vec;
  const std::uint8_t* const first = host + (a[0] + bias);
  if (s.affine && s.stride == 0) {
    for (unsigned i = 0; i < n; ++i) {
      const std::uint64_t v = load_elem<E, Sx>(first + i * E);
      std::uint64_t* d = x.reg(in.v[i]);
      for (unsigned l = 0; l < kLanes; ++l) d[l] = v;
    }
  } else if (s.affine && s.stride == static_cast<std::int64_t>(w)) {
    for (unsigned i = 0; i < n; ++i) {
      std::uint64_t* d = x.reg(in.v[i]);
      for (unsigned l = 0; l < kLanes; ++l) d[l] = load_elem<E, Sx>(first + std::size_t(l) * w + i * E);
    }
  } else {
    for (unsigned i = 0; i < n; ++i) {
      std::uint64_t* d = x.reg(in.v[i]);
      for (unsigned l = 0; l < kLanes; ++l) d[l] = load_elem<E, Sx>(host + (a[l] + bias) + i * E);
    }
  }
}

/// The record of a full-warp access that stayed in one space.
inline void emit_whole_warp(Ctx& x, const Inst& in, Space space, const std::uint64_t* a, std::uint64_t off,
                            unsigned w, Op op, const AddressSummary& s) {
  // The context's record, reused: every field is written (no 256-byte zeroing per access).
  WarpAccess& rec = x.record;
  rec.pc = x.pc_of(in);
  rec.cta = x.cta_linear;
  rec.warp = x.warp_index;
  rec.space = space;
  rec.op = op;
  rec.cache = in.cache;
  rec.width = static_cast<std::uint8_t>(w);
  rec.active = LaneMask(kFullMask);
  for (unsigned l = 0; l < kLanes; ++l) rec.addr[l] = a[l] + off;
  rec.summary = s;
  rec.summarized = true;
  x.sink->on_access(rec);
}

// The slow path of ld and st: translates every active lane's address (faulting on a bad one) and,
// when tracing, keeps each lane's space and address for the records. Returns whether a generic
// access touched more than one space.
template <MemSpace S, bool Trace>
inline bool translate_lanes(Ctx& x, const Inst& in, std::uint32_t m, const std::uint64_t* a, std::uint64_t off,
                            unsigned w, Op op, std::uint8_t** ptr, Space* spaces, std::uint64_t* addrs) {
  bool mixed = false;
  for_lanes(m, [&](unsigned l) {
    Space sp;
    std::uint64_t sa;
    ptr[l] = translate<S>(x, in, l, a[l] + off, w, op, sp, sa);
    if constexpr (Trace) {
      spaces[l] = sp;
      addrs[l] = sa;
      if constexpr (S == MemSpace::kGeneric || S == MemSpace::kShared) mixed |= sp != spaces[__builtin_ctz(m)];
    }
  });
  end_window_faults(x, in);
  return mixed;
}

template <MemSpace S, unsigned E, bool Sx, bool Trace>
inline void ld_impl(const Inst& in, Ctx& x, std::uint32_t m) {
  const unsigned n = in.vec;
  const unsigned w = E * n;
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t off = static_cast<std::uint64_t>(in.imm) + ((in.flags & kFlagFrameRel) ? x.frame_base : 0);
  Space spaces[kLanes];
  std::uint64_t addrs[kLanes];
  if constexpr (is_global(S) || S == MemSpace::kShared) {
    if (m == kFullMask) {
      const AddressSummary sum = summarize32(a, off);
      if constexpr (is_global(S)) {
        if (const Region* r = whole_warp_region(x, sum, w)) {
          // Lane l's bytes start at host + a[l] + bias. The record is made before the registers
          // change (a destination may be the address register).
          if constexpr (Trace)
            emit_whole_warp(x, in, S == MemSpace::kConst ? Space::kConst : Space::kGlobal, a, off, w, Op::kLoad, sum);
          load_whole_warp<E, Sx>(in, x, r->host, a, off - r->base, w, sum);
          return;
        }
      } else {
        if (whole_warp_shared(x, sum, w)) {
          if constexpr (Trace) emit_whole_warp(x, in, Space::kShared, a, off, w, Op::kLoad, sum);
          load_whole_warp<E, Sx>(in, x, x.shared, a, off, w, sum);
          return;
        }
      }
    }
  }
  std::uint8_t* ptr[kLanes];
  const bool mixed = translate_lanes<S, Trace>(x, in, m, a, off, w, Op::kLoad, ptr, spaces, addrs);
  for (unsigned i = 0; i < n; ++i) {
    std::uint64_t* d = x.reg(in.v[i]);
    for_lanes(m, [&](unsigned l) { d[l] = load_elem<E, Sx>(ptr[l] + i * E); });
  }
  if constexpr (Trace) emit_records(x, in, m, spaces, addrs, w, Op::kLoad, mixed);
}

template <MemSpace S, unsigned E, bool Sx>
void ld(const Inst& in, Ctx& x, std::uint32_t m) {
  if constexpr (records(S)) {
    if (x.sink != nullptr) {
      ld_impl<S, E, Sx, true>(in, x, m);
      return;
    }
  }
  ld_impl<S, E, Sx, false>(in, x, m);
}

template <MemSpace S, unsigned E, bool Trace>
inline void st_impl(const Inst& in, Ctx& x, std::uint32_t m) {
  const unsigned n = in.vec;
  const unsigned w = E * n;
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t off = static_cast<std::uint64_t>(in.imm) + ((in.flags & kFlagFrameRel) ? x.frame_base : 0);
  Space spaces[kLanes];
  std::uint64_t addrs[kLanes];
  AddressSummary sum;
  if constexpr (is_global(S) || S == MemSpace::kShared) {
    if (m == kFullMask) sum = summarize32(a, off);
  }
  if constexpr (is_global(S)) {
    const Region* r = m == kFullMask ? whole_warp_region(x, sum, w) : nullptr;
    if (r != nullptr) {
      std::uint8_t* host = r->host;
      const std::uint64_t bias = off - r->base;
      if (n == 1 && sum.affine && sum.stride == static_cast<std::int64_t>(w)) {
        // Lane l's word at host + a[0] + bias + l * E: a loop the compiler vectorizes.
        std::uint8_t* const first = host + (a[0] + bias);
        const std::uint64_t* v = x.reg(in.v[0]);
        for (unsigned l = 0; l < kLanes; ++l) store_elem<E>(first + std::size_t(l) * E, v[l]);
      } else {
        for (unsigned l = 0; l < kLanes; ++l) {
          for (unsigned i = 0; i < n; ++i) {
            const std::uint64_t v = x.reg(in.v[i])[l];
            std::memcpy(host + (a[l] + bias) + i * E, &v, E);
          }
        }
      }
      if constexpr (Trace) emit_whole_warp(x, in, Space::kGlobal, a, off, w, Op::kStore, sum);
      return;
    }
  }
  if constexpr (S == MemSpace::kShared) {
    if (m == kFullMask && whole_warp_shared(x, sum, w)) {
      for (unsigned l = 0; l < kLanes; ++l) {
        for (unsigned i = 0; i < n; ++i) {
          const std::uint64_t v = x.reg(in.v[i])[l];
          std::memcpy(x.shared + (a[l] + off) + i * E, &v, E);
        }
      }
      if constexpr (Trace) emit_whole_warp(x, in, Space::kShared, a, off, w, Op::kStore, sum);
      return;
    }
  }
  std::uint8_t* ptr[kLanes];
  const bool mixed = translate_lanes<S, Trace>(x, in, m, a, off, w, Op::kStore, ptr, spaces, addrs);
  // Lane order: when lanes store to the same address, the highest lane's value remains.
  for_lanes(m, [&](unsigned l) {
    for (unsigned i = 0; i < n; ++i) {
      const std::uint64_t v = x.reg(in.v[i])[l];
      std::memcpy(ptr[l] + i * E, &v, E);
    }
  });
  if constexpr (Trace) emit_records(x, in, m, spaces, addrs, w, Op::kStore, mixed);
}

template <MemSpace S, unsigned E>
void st(const Inst& in, Ctx& x, std::uint32_t m) {
  if constexpr (records(S)) {
    if (x.sink != nullptr) {
      st_impl<S, E, true>(in, x, m);
      return;
    }
  }
  st_impl<S, E, false>(in, x, m);
}

/// ld.param of a kernel parameter at a fixed offset: one read, broadcast to the lanes.
template <unsigned E, bool Sx>
void ld_kparam_uniform(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t off = static_cast<std::uint64_t>(in.imm);
  const unsigned w = E * in.vec;
  if (off > x.kparam_size || x.kparam_size - off < w) {
    memory_fault(x, in, ErrorKind::kOutOfBounds, static_cast<unsigned>(__builtin_ctz(m)), off, w, Space::kConst,
                 Op::kLoad, false);
  }
  for (unsigned i = 0; i < in.vec; ++i) {
    const std::uint64_t v = load_elem<E, Sx>(x.kparams + off + i * E);
    std::uint64_t* d = x.reg(in.v[i]);
    for_lanes(m, [&](unsigned l) { d[l] = v; });
  }
}

void nop(const Inst&, Ctx&, std::uint32_t) {}

template <MemSpace S>
ExecFn pick_ld(unsigned e, bool sx) {
  switch (e) {
    case 1: return sx ? &ld<S, 1, true> : &ld<S, 1, false>;
    case 2: return sx ? &ld<S, 2, true> : &ld<S, 2, false>;
    case 4: return sx ? &ld<S, 4, true> : &ld<S, 4, false>;
    case 8: return &ld<S, 8, false>;
    default: return nullptr;
  }
}
template <MemSpace S>
ExecFn pick_st(unsigned e) {
  switch (e) {
    case 1: return &st<S, 1>;
    case 2: return &st<S, 2>;
    case 4: return &st<S, 4>;
    case 8: return &st<S, 8>;
    default: return nullptr;
  }
}
ExecFn pick(MemSpace s, bool store, unsigned e, bool sx) {
  switch (s) {
    case MemSpace::kGlobal: return store ? pick_st<MemSpace::kGlobal>(e) : pick_ld<MemSpace::kGlobal>(e, sx);
    case MemSpace::kConst: return store ? nullptr : pick_ld<MemSpace::kConst>(e, sx);
    case MemSpace::kShared: return store ? pick_st<MemSpace::kShared>(e) : pick_ld<MemSpace::kShared>(e, sx);
    case MemSpace::kLocal: return store ? pick_st<MemSpace::kLocal>(e) : pick_ld<MemSpace::kLocal>(e, sx);
    case MemSpace::kGeneric: return store ? pick_st<MemSpace::kGeneric>(e) : pick_ld<MemSpace::kGeneric>(e, sx);
    case MemSpace::kKparam: return store ? nullptr : pick_ld<MemSpace::kKparam>(e, sx);
    case MemSpace::kFrameParam: return store ? pick_st<MemSpace::kFrameParam>(e) : pick_ld<MemSpace::kFrameParam>(e, sx);
  }
  return nullptr;
}

CacheOp cache_of(const ptx::Instruction& ins) {
  switch (ins.cache) {
    case ptx::CacheOperator::kCa: return CacheOp::kCa;
    case ptx::CacheOperator::kCg: case ptx::CacheOperator::kCv: return CacheOp::kCg;
    default: return CacheOp::kDefault;
  }
}

}  // namespace

/// The memory space and address operand of ld/st/atom/red, shared with ops_atom.cpp.
MemSpace resolve_space(DecodeCtx& dc, const ptx::Instruction& ins, const ptx::Operand& addr, Inst& out) {
  ptx::StateSpace s = ins.space;
  const AddrOperand ao = dc.address(addr, s);
  out.a = ao.slot;
  out.imm = ao.imm;
  if (ao.mode == AddrOperand::Mode::kFrame) out.flags |= kFlagFrameRel;
  // 32-bit .shared and .local addresses wrap modulo 2^32 as on the GPU: nvcc may keep a shared
  // address as a "negative" base register plus an offset that brings it back ([r+68], r = s-64).
  if (ao.reg32 && (s == ptx::StateSpace::kShared || s == ptx::StateSpace::kSharedCluster || s == ptx::StateSpace::kLocal))
    out.flags |= kFlagAddr32;
  switch (s) {
    case ptx::StateSpace::kGlobal: out.space = Space::kGlobal; return MemSpace::kGlobal;
    case ptx::StateSpace::kConst: out.space = Space::kConst; return MemSpace::kConst;
    case ptx::StateSpace::kShared: out.space = Space::kShared; return MemSpace::kShared;
    // shared::cluster addresses: the CTA's own shared memory, or a peer's (cluster.cpp)
    case ptx::StateSpace::kSharedCluster: out.space = Space::kShared; return MemSpace::kShared;
    case ptx::StateSpace::kLocal: out.space = Space::kLocal; return MemSpace::kLocal;
    case ptx::StateSpace::kGeneric: out.space = Space::kGlobal; return MemSpace::kGeneric;
    case ptx::StateSpace::kParam:
      out.space = Space::kConst;
      return ao.mode == AddrOperand::Mode::kKparam ? MemSpace::kKparam : MemSpace::kFrameParam;
    default:
      dc.unsupported(fmt::format("memory access in state space .{}", ptx::to_string(s)));
  }
}

bool decode_mem(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const auto& ops = ins.operands;
  switch (ins.op) {
    case Opcode::kPrefetch:
    case Opcode::kPrefetchu:
      out.fn = &nop;
      return true;
    case Opcode::kLd:
    case Opcode::kLdu:
    case Opcode::kSt: {
      const bool store = ins.op == Opcode::kSt;
      const Type t = ins.type;
      const unsigned e = ptx::type_bytes(t);
      if (ins.vec != 1 && ins.vec != 2 && ins.vec != 4) dc.unsupported(fmt::format(".v{} access", ins.vec));
      if (e == 16 || t == Type::kB128) dc.unsupported("128-bit element access");
      out.vec = static_cast<std::uint8_t>(ins.vec);
      out.width = static_cast<std::uint8_t>(e * ins.vec);
      out.mem_op = store ? Op::kStore : Op::kLoad;
      out.cache = cache_of(ins);
      const ptx::Operand& addr = store ? ops[0] : ops[1];
      const ptx::Operand& val = store ? ops[1] : ops[0];
      const MemSpace ms = resolve_space(dc, ins, addr, out);
      if (val.kind == ptx::OperandKind::kVector) {
        if (val.elements.size() != ins.vec) dc.unsupported("vector operand length differs from .vN");
        for (unsigned i = 0; i < ins.vec; ++i) {
          out.v[i] = store ? dc.src(val.elements[i], t) : dc.dst(val.elements[i]);
        }
      } else {
        if (ins.vec != 1) dc.unsupported("vector access with a scalar operand");
        out.v[0] = store ? dc.src(val, t) : dc.dst(val);
      }
      out.fn = pick(ms, store, e, ptx::is_signed_int(t));
      if (ms == MemSpace::kKparam && !store && addr.kind == ptx::OperandKind::kAddress &&
          addr.addr_base != ptx::AddressBase::kReg) {
        const bool sx = ptx::is_signed_int(t);
        switch (e) {
          case 1: out.fn = sx ? &ld_kparam_uniform<1, true> : &ld_kparam_uniform<1, false>; break;
          case 2: out.fn = sx ? &ld_kparam_uniform<2, true> : &ld_kparam_uniform<2, false>; break;
          case 4: out.fn = sx ? &ld_kparam_uniform<4, true> : &ld_kparam_uniform<4, false>; break;
          case 8: out.fn = &ld_kparam_uniform<8, false>; break;
          default: break;
        }
      }
      if (out.fn == nullptr) {
        dc.unsupported(fmt::format("{}.{}.{}", store ? "st" : "ld", ptx::to_string(ins.space), ptx::to_string(t)));
      }
      return true;
    }
    default: return false;
  }
}

bool describe_mem(ExecFn f, JitDesc& d) {
  for (unsigned e : {1u, 2u, 4u, 8u}) {
    for (bool sx : {false, true}) {
      if (e == 8 && sx) continue;
      for (std::uint8_t space : {std::uint8_t{0}, std::uint8_t{1}}) {
        const MemSpace ms = space == 0 ? MemSpace::kGlobal : MemSpace::kShared;
        const bool is_ld = f == pick(ms, false, e, sx);
        const bool is_st = !sx && f == pick(ms, true, e, false);
        if (is_ld || is_st) {
          d.op = is_ld ? JitOp::kLd : JitOp::kSt;
          d.space = space;
          d.elem = static_cast<std::uint8_t>(e);
          d.sgn = sx;
          return true;
        }
      }
    }
  }
  return false;
}

}  // namespace warpscope::exec
