// Per-lane address translation with bounds and alignment checks, shared by the load/store
// (ops_mem.cpp) and atomic (ops_atom.cpp) semantic functions, and the access records they emit.
#pragma once

#include <cstdint>
#include <cstring>

#include "exec/decode.hpp"
#include "exec/fault.hpp"
#include "exec/memcheck.hpp"
#include "exec/program.hpp"

namespace warpscope::exec {

/// Where a memory instruction's address points.
enum class MemSpace : std::uint8_t {
  kGlobal,      // .global: the global address space
  kConst,       // .const: module constants live in the global space; records say kConst
  kShared,      // .shared: offsets into the CTA's shared memory
  kLocal,       // .local: offsets into the lane's private stack
  kGeneric,     // no space: resolved per lane through the generic windows
  kKparam,      // .param of a kernel: the launch's parameter buffer (no record)
  kFrameParam,  // .param of a call sequence or .func: the lane's stack (no record)
};

/// Decodes the space and address operand of ld/st/atom/red into out.a / out.imm / out.flags /
/// out.space (ops_mem.cpp).
MemSpace resolve_space(DecodeCtx& dc, const ptx::Instruction& ins, const ptx::Operand& addr, Inst& out);

/// Thread-block clusters (cluster.cpp): the host pointer for a shared::cluster address `off` =
/// (rank << kClusterRankShift) + offset when it names a byte range of a CTA of the cluster;
/// `space` becomes kDsmem for another CTA's memory, kShared (and `space_addr` the offset) for the
/// CTA's own. nullptr when it names none. A CTA that has exited: Error(kUndefined).
std::uint8_t* cluster_shared(Ctx& x, const Inst& in, unsigned lane, std::uint64_t off, unsigned w, Op op,
                             std::uint64_t shown, bool generic, Space& space, std::uint64_t& space_addr);

/// Host pointer for one lane's access of `w` bytes at `addr`; throws the launch's fault
/// (kMisaligned before kOutOfBounds) otherwise. For kGeneric, `space` and `space_addr` say where
/// it landed.
template <MemSpace S>
inline std::uint8_t* translate(Ctx& x, const Inst& in, unsigned lane, std::uint64_t addr,
                               unsigned w, Op op, Space& space, std::uint64_t& space_addr) {
  auto global = [&](Space rec, bool generic) -> std::uint8_t* {
    space = rec;
    space_addr = addr;
    if (addr & (w - 1)) memory_fault(x, in, ErrorKind::kMisaligned, lane, addr, w, rec, op, generic);
    const Region* r = x.gcache;
    if (r == nullptr || !r->contains(addr, w)) {
      r = x.global->find(addr, w);
      if (r == nullptr) return unallocated_global(x, in, lane, addr, w, rec, op, generic);
      x.gcache = r;
    }
    return r->host + (addr - r->base);
  };
  auto shared = [&](std::uint64_t off, bool generic) -> std::uint8_t* {
    space = Space::kShared;
    space_addr = off;
    if (off & (w - 1)) memory_fault(x, in, ErrorKind::kMisaligned, lane, generic ? addr : off, w, Space::kShared, op, generic);
    if (off > x.shared_size || x.shared_size - off < w) {
      // A shared::cluster address (mapa): the shared memory of a CTA of the cluster (cluster.cpp).
      if (std::uint8_t* p = cluster_shared(x, in, lane, off, w, op, generic ? addr : off, generic, space, space_addr))
        return p;
      if (x.faults != nullptr) return window_out_of_bounds(x, in, lane, off, w, Space::kShared, op);
      memory_fault(x, in, ErrorKind::kOutOfBounds, lane, generic ? addr : off, w, Space::kShared, op, generic);
    }
    return x.shared + off;
  };
  auto local = [&](std::uint64_t off, bool generic) -> std::uint8_t* {
    space = Space::kLocal;
    space_addr = off;
    if (off & (w - 1)) memory_fault(x, in, ErrorKind::kMisaligned, lane, generic ? addr : off, w, Space::kLocal, op, generic);
    if (off > x.local_frame || x.local_frame - off < w) [[unlikely]] {
      // Memory alloca gave the lane (ops_stack.cpp): [stack pointer, top of the window).
      if (const std::uint32_t sp = x.kernel->sp_slot; sp != kNoSlot) {
        const std::uint64_t used = x.reg(sp)[lane];
        if (off <= x.local_stride && x.local_stride - off >= w && off >= x.local_stride - used)
          return x.local + std::size_t(lane) * x.local_stride + off;
      }
      // Past the frame: inside the stack window the GPU runs it (memcheck reports it), beyond it
      // (or under --memcheck strict) the launch faults.
      if (off > x.local_stride || x.local_stride - off < w || x.memcheck == nullptr) {
        if (x.faults != nullptr) return window_out_of_bounds(x, in, lane, off, w, Space::kLocal, op);
        memory_fault(x, in, ErrorKind::kOutOfBounds, lane, generic ? addr : off, w, Space::kLocal, op, generic);
      }
      x.memcheck->record(x, in, lane, off, w, Space::kLocal, op);
      if (x.local_overrun != nullptr) *x.local_overrun = true;
    }
    return x.local + std::size_t(lane) * x.local_stride + off;
  };
  if constexpr (S == MemSpace::kGlobal) return global(Space::kGlobal, false);
  if constexpr (S == MemSpace::kConst) return global(Space::kConst, false);
  if constexpr (S == MemSpace::kShared || S == MemSpace::kLocal) {
    if (in.flags & kFlagAddr32) addr &= 0xffffffffu;
  }
  if constexpr (S == MemSpace::kShared) return shared(addr, false);
  if constexpr (S == MemSpace::kLocal || S == MemSpace::kFrameParam) return local(addr, false);
  if constexpr (S == MemSpace::kKparam) {
    space = Space::kConst;
    space_addr = addr;
    if (addr > x.kparam_size || x.kparam_size - addr < w) {
      memory_fault(x, in, ErrorKind::kOutOfBounds, lane, addr, w, Space::kConst, op, false);
    }
    return const_cast<std::uint8_t*>(x.kparams) + addr;
  }
  if constexpr (S == MemSpace::kGeneric) {
    std::uint64_t off = 0;
    switch (classify_generic(addr, off)) {
      case GenericSpace::kShared: return shared(off, true);
      case GenericSpace::kLocal: return local(off, true);
      case GenericSpace::kGlobal: break;
    }
    return global(Space::kGlobal, true);
  }
  return nullptr;
}

/// Emits the record(s) of one warp memory instruction: one per space its lanes touched.
inline void emit_records(Ctx& x, const Inst& in, std::uint32_t mask, const Space* spaces,
                         const std::uint64_t* addrs, unsigned width, Op op, bool mixed,
                         bool compare_swap = false) {
  WarpAccess rec;
  rec.compare_swap = compare_swap;
  rec.pc = x.pc_of(in);
  rec.cta = x.cta_linear;
  rec.warp = x.warp_index;
  rec.op = op;
  rec.cache = in.cache;
  rec.width = static_cast<std::uint8_t>(width);
  if (!mixed) {
    rec.space = spaces[__builtin_ctz(mask)];
    rec.active = LaneMask(mask);
    for_lanes(mask, [&](unsigned l) { rec.addr[l] = addrs[l]; });
    x.sink->on_access(rec);
    return;
  }
  for (Space s : {Space::kGlobal, Space::kLocal, Space::kShared, Space::kConst, Space::kDsmem}) {
    std::uint32_t sub = 0;
    for_lanes(mask, [&](unsigned l) {
      if (spaces[l] == s) sub |= 1u << l;
    });
    if (sub == 0) continue;
    rec.space = s;
    rec.active = LaneMask(sub);
    rec.addr.fill(0);
    for_lanes(sub, [&](unsigned l) { rec.addr[l] = addrs[l]; });
    x.sink->on_access(rec);
  }
}

}  // namespace warpscope::exec
