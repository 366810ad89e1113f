// Asynchronous copies (cp.async, its groups and cp.async.mbarrier.arrive; the cp.async.bulk copy
// from global memory to the CTA's shared memory with mbarrier completion) and the mbarrier
// instructions (PTX ISA 9.0, sections 9.7.9.25 and 9.7.13.15; docs/exec.md "Asynchronous copies
// and mbarriers").
//
// When the data moves. A copy is performed when the instruction is issued: every lane's source
// bytes are read and its destination written (zeros past src-size) before the next instruction.
// The ISA makes the writes visible to the issuing thread only after cp.async.wait_group /
// wait_all or an mbarrier wait that tracks the copy, and orders a copy with nothing else before
// then, so a program that reads the destination, or writes the source or the destination, before
// that point races with the copy and its result is undefined; a program that does not cannot
// tell an early copy from a late one. The groups are therefore complete when committed
// (commit_group and wait_group do nothing), and the arrive-on that cp.async.mbarrier.arrive
// triggers "upon the completion of all prior cp.async" happens at once.
//
// Lanes act in lane order: a warp's 32 arrive-on operations on one mbarrier are 32 atomic
// operations in that order (one of the orders the hardware may choose).
#include "exec/async.hpp"
#include "exec/dsmem_bulk.hpp"
#include "exec/mbarrier.hpp"
#include "exec/memaccess.hpp"
#include "exec/ops_common.hpp"
#include "exec/sanitize.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;

// Inst::aux of cp.async: what its fourth operand (Inst::e) is.
enum : std::uint32_t { kNoSrcOperand = 0, kSrcSize = 1, kIgnoreSrc = 2 };
// Inst::aux of the mbarrier instructions.
enum : std::uint32_t { kNoComplete = 1, kExpectTx = 2, kDrop = 4, kParity = 8, kNoinc = 16 };
// Inst::aux2: the mbarrier address is generic (else .shared); for cp.async.bulk the same for its
// mbarrier operand (v[0] + v[1]), whose 32-bit register wraps with kBulkBarAddr32; kClusterBar: a
// .shared::cluster address, which may name another CTA's mbarrier.
enum : std::uint32_t { kGenericBar = 1, kBulkGenericBar = 2, kBulkBarAddr32 = 4, kClusterBar = 8 };

constexpr std::uint64_t kRankOffsetMask = (std::uint64_t{1} << kClusterRankShift) - 1;

/// An mbarrier's location ("key"): its offset in the executing CTA's shared memory, or, for an
/// mbarrier of another CTA of the cluster reached through a .shared::cluster address, that address
/// ((rank + 1) << kClusterRankShift | offset, memory.hpp).
std::string bar_text(const Ctx& x, std::uint64_t key) {
  const std::uint64_t tag = key >> kClusterRankShift;
  if (tag == 0) return fmt::format("the mbarrier at shared offset 0x{:x}", key);
  return fmt::format("the mbarrier at shared offset 0x{:x} of cluster rank {} (this block is rank {})", key & kRankOffsetMask,
                     tag - 1, x.cluster_rank);
}

/// Faults of the ISA's "undefined" kind, naming the mbarrier.
[[noreturn]] void mbar_fault(const Ctx& x, const Inst& in, unsigned lane, std::uint64_t off, const std::string& why) {
  lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane, fmt::format("{} ({})", why, bar_text(x, off)));
}

/// The location of an mbarrier operand, checked: in the shared window, 8-byte aligned, inside the
/// CTA's shared memory. `cluster` (the operand is a .shared::cluster address: mbarrier.arrive,
/// arrive_drop, expect_tx, complete_tx with .shared::cluster, and a bulk copy's mbarrier) lets
/// it name another CTA of the cluster (a mapa result); its own CTA's address comes back as a plain
/// offset.
std::uint64_t bar_offset(const Ctx& x, const Inst& in, unsigned lane, std::uint64_t addr, bool generic, bool addr32,
                         bool cluster = false) {
  std::uint64_t off = addr;
  if (generic) {
    if (classify_generic(addr, off) != GenericSpace::kShared)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
                 fmt::format("the mbarrier address 0x{:x} is not in shared memory", addr));
  } else if (addr32) {
    off &= 0xffffffffu;
  }
  const std::uint64_t tag = off >> kClusterRankShift;
  if (tag != 0 && cluster && !generic) {
    // A shared::cluster address of rank tag - 1 (ops_cluster.cpp, mapa). Elsewhere such an address
    // is past the CTA's shared memory: the out-of-bounds fault below.
    const std::uint64_t rank = tag - 1;
    const std::uint64_t o = off & kRankOffsetMask;
    if (rank >= x.cluster_ctas)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
                 fmt::format("the mbarrier address 0x{:x} names cluster rank {}, but the cluster has {} block{}", off, rank,
                             x.cluster_ctas, x.cluster_ctas == 1 ? "" : "s"));
    if (o & 7)
      memory_fault(x, in, ErrorKind::kMisaligned, lane, off, 8, Space::kShared, Op::kAtomic, false,
                   " (an mbarrier object is 8 bytes, aligned to 8)");
    if (o > x.shared_size || x.shared_size - o < 8)
      memory_fault(x, in, ErrorKind::kOutOfBounds, lane, off, 8, Space::kShared, Op::kAtomic, false,
                   " (an mbarrier object of a block of the cluster)");
    if (rank == x.cluster_rank) return o;
    if (x.cluster_shared == nullptr || x.cluster_shared[rank] == nullptr)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
                 fmt::format("an mbarrier operation on the mbarrier at shared offset 0x{:x} of cluster rank {}, whose "
                             "block has exited (the PTX ISA leaves an access to the shared memory of an exited block "
                             "of the cluster undefined)",
                             o, rank));
    return off;
  }
  if (off & 7)
    memory_fault(x, in, ErrorKind::kMisaligned, lane, generic ? addr : off, 8, Space::kShared, Op::kAtomic, generic,
                 " (an mbarrier object is 8 bytes, aligned to 8)");
  if (off > x.shared_size || x.shared_size - off < 8)
    memory_fault(x, in, ErrorKind::kOutOfBounds, lane, generic ? addr : off, 8, Space::kShared, Op::kAtomic, generic,
                 " (an mbarrier object)");
  return off;
}

std::uint64_t lane_bar(const Ctx& x, const Inst& in, unsigned lane) {
  const std::uint64_t addr = x.reg(in.a)[lane] + static_cast<std::uint64_t>(in.imm);
  return bar_offset(x, in, lane, addr, (in.aux2 & kGenericBar) != 0, (in.flags & kFlagAddr32) != 0,
                    (in.aux2 & kClusterBar) != 0);
}

/// The 8 bytes of the mbarrier at `key` (checked by bar_offset).
std::uint8_t* bar_bytes(const Ctx& x, std::uint64_t key) {
  const std::uint64_t tag = key >> kClusterRankShift;
  if (tag == 0) return x.shared + key;
  return x.cluster_shared[tag - 1] + (key & kRankOffsetMask);
}

std::uint64_t load_word(const Ctx& x, std::uint64_t off) {
  std::uint64_t w;
  std::memcpy(&w, bar_bytes(x, off), 8);
  return w;
}
void store_word(Ctx& x, std::uint64_t off, std::uint64_t w) { std::memcpy(bar_bytes(x, off), &w, 8); }

mbar::State live_state(const Ctx& x, const Inst& in, unsigned lane, std::uint64_t off) {
  const std::optional<mbar::State> s = mbar::decode(load_word(x, off));
  if (!s) mbar_fault(x, in, lane, off, "an mbarrier operation on an object that mbarrier.init has not initialized");
  return *s;
}

void apply(Ctx& x, const Inst& in, unsigned lane, std::uint64_t off, const mbar::Result& r) {
  if (!r.error.empty()) mbar_fault(x, in, lane, off, r.error);
  store_word(x, off, mbar::encode(r.state));
  if (r.completed && x.race != nullptr) x.race->mbar_complete(off);  // racecheck: bulk copies (sanitize.hpp)
}

// --- mbarrier --------------------------------------------------------------------------------

void mbar_init(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t* count = x.reg(in.b);
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t off = lane_bar(x, in, l);
    apply(x, in, l, off, mbar::init(static_cast<std::uint32_t>(count[l])));
  });
}

void mbar_arrive(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* b = in.b == kNoSlot ? nullptr : x.reg(in.b);
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t off = lane_bar(x, in, l);
    mbar::State s = live_state(x, in, l, off);
    std::uint32_t count = 1;
    if (in.aux & kExpectTx) {
      const mbar::Result e = mbar::expect_tx(s, static_cast<std::uint32_t>(b[l]));
      apply(x, in, l, off, e);
      s = e.state;
    } else if (b != nullptr) {
      count = static_cast<std::uint32_t>(b[l]);
    }
    const std::uint64_t token = mbar::encode(s);
    apply(x, in, l, off, mbar::arrive(s, count, (in.aux & kDrop) != 0, (in.aux & kNoComplete) != 0));
    d[l] = token;
    if (x.race != nullptr) x.race->mbar_arrive(x.warp_index, l, off, false, x.pc_of(in));  // racecheck (sanitize.hpp)
  });
}

template <bool Complete>
void mbar_tx(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t* n = x.reg(in.b);
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t off = lane_bar(x, in, l);
    const mbar::State s = live_state(x, in, l, off);
    const auto c = static_cast<std::uint32_t>(n[l]);
    apply(x, in, l, off, Complete ? mbar::complete_tx(s, c) : mbar::expect_tx(s, c));
  });
}

void mbar_wait(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* b = x.reg(in.b);
  const bool parity = (in.aux & kParity) != 0;
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t off = lane_bar(x, in, l);
    live_state(x, in, l, off);
    const std::uint64_t w = load_word(x, off);
    d[l] = (parity ? mbar::parity_done(w, b[l]) : mbar::phase_done(w, b[l])) ? 1 : 0;
    if (d[l] != 0 && x.race != nullptr) x.race->mbar_wait(x.warp_index, l, off, x.pc_of(in));  // racecheck
  });
}

void mbar_pending(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  const std::uint64_t* s = x.reg(in.a);
  for_lanes(m, [&](unsigned l) { d[l] = mbar::pending_count(s[l]); });
}

void mbar_inval(const Inst& in, Ctx& x, std::uint32_t m) {
  // The H100 writes the object's state back to its word (tests/hw/data/h100/async); the word here
  // always holds it. Later mbarrier operations on it, other than init, are undefined and not
  // detected.
  for_lanes(m, [&](unsigned l) { lane_bar(x, in, l); });
}

/// cp.async.mbarrier.arrive: the arrive-on is triggered when the thread's earlier copies have
/// completed, which they have (see the top of this file). Without .noinc the pending count is
/// raised by one first, so the pair changes nothing.
void cp_mbar_arrive(const Inst& in, Ctx& x, std::uint32_t m) {
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t off = lane_bar(x, in, l);
    mbar::State s = live_state(x, in, l, off);
    if (!(in.aux & kNoinc)) {
      if (s.pending >= mbar::kMaxCount)
        mbar_fault(x, in, l, off, "cp.async.mbarrier.arrive raises the pending count past its maximum");
      s.pending += 1;
    }
    apply(x, in, l, off, mbar::arrive(s, 1, false, false));
    if (x.race != nullptr) x.race->mbar_arrive(x.warp_index, l, off, true, x.pc_of(in));  // racecheck
  });
}

/// cp.async.commit_group, wait_group N and wait_all (commit, then wait 0): the copies are done
/// already (the top of this file); racecheck follows the groups (sanitize.hpp).
void cp_async_commit(const Inst&, Ctx& x, std::uint32_t m) {
  if (x.race != nullptr) x.race->async_commit(x.warp_index, m);
}
void cp_async_wait(const Inst& in, Ctx& x, std::uint32_t m) {
  if (x.race == nullptr) return;
  if (in.aux != 0) x.race->async_commit(x.warp_index, m);
  x.race->async_wait(x.warp_index, m, static_cast<std::uint32_t>(in.imm));
}

// --- cp.async ----------------------------------------------------------------------------------

template <unsigned W>
void cp_async(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t* dst = x.reg(in.a);
  const std::uint64_t* src = x.reg(in.b);
  const std::uint64_t* src_off = x.reg(in.c);
  const std::uint64_t* opt = in.e == kNoSlot ? nullptr : x.reg(in.e);
  const bool neg = (in.flags & kFlagNegA) != 0;
  std::uint64_t saddr[kLanes], daddr[kLanes];
  const std::uint8_t* sptr[kLanes] = {};
  unsigned nread[kLanes];
  std::uint32_t fill = 0, none = 0;
  // Every lane is checked before any byte moves.
  for_lanes(m, [&](unsigned l) {
    std::uint64_t d = dst[l] + static_cast<std::uint64_t>(in.imm);
    if (in.flags & kFlagAddr32) d &= 0xffffffffu;
    daddr[l] = d;
    if (d & (W - 1)) memory_fault(x, in, ErrorKind::kMisaligned, l, d, W, Space::kShared, Op::kLdgsts);
    if (d > x.shared_size || x.shared_size - d < W)
      memory_fault(x, in, ErrorKind::kOutOfBounds, l, d, W, Space::kShared, Op::kLdgsts);
    const std::uint64_t s = src[l] + src_off[l];
    saddr[l] = s;
    unsigned n = W;
    if (in.aux == kSrcSize) {
      if (opt[l] > W)
        lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
                   fmt::format("cp.async with a src-size of {} bytes, larger than its cp-size of {}", opt[l], W));
      n = static_cast<unsigned>(opt[l]);
    } else if (in.aux == kIgnoreSrc && ((opt[l] & 1) != 0) != neg) {
      n = 0;
    }
    nread[l] = n;
    if (n < W) fill |= 1u << l;
    if (n == 0) {
      none |= 1u << l;
      return;
    }
    if (s & (W - 1)) memory_fault(x, in, ErrorKind::kMisaligned, l, s, W, Space::kGlobal, Op::kLdgsts);
    Space sp;
    std::uint64_t sa;
    // Only the src-size bytes are read (a copy of a buffer's last bytes may end there).
    sptr[l] = translate<MemSpace::kGlobal>(x, in, l, s, n, Op::kLdgsts, sp, sa);
  });
  for_lanes(m, [&](unsigned l) {
    std::uint8_t* p = x.shared + daddr[l];
    if (nread[l] != 0) std::memcpy(p, sptr[l], nread[l]);
    if (nread[l] < W) std::memset(p + nread[l], 0, W - nread[l]);
  });
  if (x.sink == nullptr) return;
  WarpAccess rec;
  rec.pc = x.pc_of(in);
  rec.cta = x.cta_linear;
  rec.warp = x.warp_index;
  rec.op = Op::kLdgsts;
  rec.cache = in.cache;
  rec.width = static_cast<std::uint8_t>(W);
  rec.active = LaneMask(m);
  rec.fill_lanes = fill;
  rec.no_read_lanes = none;
  rec.space = Space::kGlobal;
  for_lanes(m, [&](unsigned l) { rec.addr[l] = saddr[l]; });
  x.sink->on_access(rec);
  rec.space = Space::kShared;
  rec.part = 1;
  for_lanes(m, [&](unsigned l) { rec.addr[l] = daddr[l]; });
  x.sink->on_access(rec);
}

/// The global reads of a bulk copy of `n` bytes at `s`: records of 32 lanes x 16 bytes (Op::kBulkCopy,
/// `part` 0, 1, ... of the copy), the last one with the lanes the remaining bytes need.
void emit_bulk(Ctx& x, const Inst& in, std::uint64_t s, std::uint64_t n, unsigned destinations) {
  WarpAccess rec;
  rec.pc = x.pc_of(in);
  rec.cta = x.cta_linear;
  rec.warp = x.warp_index;
  rec.space = Space::kGlobal;
  rec.op = Op::kBulkCopy;
  rec.cache = CacheOp::kCg;
  rec.width = 16;
  rec.destinations = static_cast<std::uint8_t>(destinations);
  for (std::uint64_t done = 0, part = 0; done < n; done += 32 * 16, ++part) {
    const std::uint64_t lanes = std::min<std::uint64_t>(32, (n - done) / 16);
    rec.part = static_cast<std::uint8_t>(std::min<std::uint64_t>(part, 255));
    rec.active = LaneMask(lanes >= 32 ? kFullMask : (1u << lanes) - 1u);
    rec.addr.fill(0);
    for (unsigned l = 0; l < lanes; ++l) rec.addr[l] = s + done + 16 * l;
    x.sink->on_access(rec);
  }
}

/// cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes{.multicast::cluster}: each
/// executing lane copies `size` bytes (a multiple of 16, both addresses 16-byte aligned) into the
/// shared memory of the destination CTA (its own, a peer's through a mapa address, or every CTA of
/// the ctaMask at the same offset) and performs complete-tx of `size` on each destination's
/// mbarrier (bulk_destinations). The Tensor Memory Accelerator reads the bytes from L2 once:
/// Op::kBulkCopy records with `destinations` (docs/mem.md); the shared side is not modelled (racecheck
/// is told of it: RaceChecker::bulk_write).
void cp_async_bulk(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t* dst = x.reg(in.a);
  const std::uint64_t* src = x.reg(in.b);
  const std::uint64_t* src_off = x.reg(in.c);
  const std::uint64_t* size = x.reg(in.e);
  const std::uint64_t* mask = in.v[2] == kNoSlot ? nullptr : x.reg(in.v[2]);
  const bool cluster = (in.aux2 & kClusterBar) != 0;
  for_lanes(m, [&](unsigned l) {
    std::uint64_t d = dst[l] + static_cast<std::uint64_t>(in.imm);
    if (in.flags & kFlagAddr32) d &= 0xffffffffu;
    const std::uint64_t s = src[l] + src_off[l];
    const std::uint64_t n = size[l] & 0xffffffffu;
    if (n % 16 != 0)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l, fmt::format("cp.async.bulk of {} bytes (a multiple of 16 is required)", n));
    std::uint64_t bar_addr = x.reg(in.v[0])[l] + x.reg(in.v[1])[l];
    if (in.aux2 & kBulkBarAddr32) bar_addr &= 0xffffffffu;
    std::uint64_t off = 0;
    BulkDest to[16];
    const unsigned count = bulk_destinations(x, in, l, d, bar_addr, cluster, mask == nullptr ? nullptr : mask + l, off, to);
    if (off % 16 != 0) memory_fault(x, in, ErrorKind::kMisaligned, l, d, 16, Space::kShared, Op::kLoad, false, " (cp.async.bulk)");
    if (s % 16 != 0) memory_fault(x, in, ErrorKind::kMisaligned, l, s, 16, Space::kGlobal, Op::kLoad, false, " (cp.async.bulk)");
    if (off > x.shared_size || x.shared_size - off < n)
      memory_fault(x, in, ErrorKind::kOutOfBounds, l, d, static_cast<unsigned>(n), Space::kShared, Op::kStore, false, " (cp.async.bulk)");
    if (n != 0) {
      Space sp;
      std::uint64_t sa;
      const std::uint8_t* p = translate<MemSpace::kGlobal>(x, in, l, s, static_cast<unsigned>(n), Op::kLoad, sp, sa);
      for (unsigned k = 0; k < count; ++k) std::memmove(to[k].shared + off, p, n);
      if (x.sink != nullptr) emit_bulk(x, in, s, n, count);
      if (x.race != nullptr)
        for (unsigned k = 0; k < count; ++k) x.race->bulk_write(x.warp_index, l, x.pc_of(in), to[k].bar, off, n, false);
    }
    for (unsigned k = 0; k < count; ++k) bulk_complete_tx(x, in, l, to[k].bar, static_cast<std::uint32_t>(n));
  });
}

ExecFn pick_cp_async(std::uint64_t size) {
  switch (size) {
    case 4: return &cp_async<4>;
    case 8: return &cp_async<8>;
    case 16: return &cp_async<16>;
    default: return nullptr;
  }
}

/// The mbarrier address operand of an mbarrier instruction: Inst::a + imm, generic or .shared.
void bar_operand(DecodeCtx& dc, const ptx::Instruction& ins, const ptx::Operand& o, Inst& out) {
  const bool generic = ins.space == ptx::StateSpace::kGeneric;
  const AddrOperand ao = dc.address(o, generic ? ptx::StateSpace::kGeneric : ptx::StateSpace::kShared);
  if (ao.mode != AddrOperand::Mode::kPlain) dc.unsupported("an mbarrier that is not in shared memory");
  out.a = ao.slot;
  out.imm = ao.imm;
  if (generic) out.aux2 |= kGenericBar;
  if (ins.space == ptx::StateSpace::kSharedCluster) out.aux2 |= kClusterBar;
  if (ao.reg32 && !generic) out.flags |= kFlagAddr32;
}

}  // namespace

std::uint64_t mbarrier_offset(const Ctx& x, const Inst& in, unsigned lane) { return lane_bar(x, in, lane); }

void bulk_complete_tx(Ctx& x, const Inst& in, unsigned lane, std::uint64_t bar, std::uint32_t bytes) {
  apply(x, in, lane, bar, mbar::complete_tx(live_state(x, in, lane, bar), bytes));
}

std::uint64_t mbarrier_word(const Ctx& x, std::uint64_t offset) { return load_word(x, offset); }

unsigned bulk_destinations(const Ctx& x, const Inst& in, unsigned lane, std::uint64_t dst, std::uint64_t bar_addr,
                           bool cluster, const std::uint64_t* mask, std::uint64_t& off, BulkDest (&out)[16]) {
  auto shared_of_rank = [&](std::uint64_t rank) -> std::uint8_t* {
    if (rank == x.cluster_rank) return x.shared;
    std::uint8_t* p = x.cluster_shared == nullptr ? nullptr : x.cluster_shared[rank];
    if (p == nullptr)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
                 fmt::format("a bulk copy into the shared memory of cluster rank {}, whose block has exited (the PTX ISA "
                             "leaves an access to the shared memory of an exited block of the cluster undefined)",
                             rank));
    return p;
  };
  std::uint64_t rank = x.cluster_rank;
  off = dst;
  if (cluster && (dst >> kClusterRankShift) != 0) {
    rank = (dst >> kClusterRankShift) - 1;
    off = dst & kRankOffsetMask;
    if (rank >= x.cluster_ctas)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
                 fmt::format("a bulk copy to shared::cluster address 0x{:x} of cluster rank {}, but the cluster has {} "
                             "block{}",
                             dst, rank, x.cluster_ctas, x.cluster_ctas == 1 ? "" : "s"));
  }
  if (mask == nullptr) {
    const std::uint64_t key = bar_offset(x, in, lane, bar_addr, false, false, cluster);
    const std::uint64_t bar_rank = (key >> kClusterRankShift) == 0 ? x.cluster_rank : (key >> kClusterRankShift) - 1;
    if (bar_rank != rank)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
                 fmt::format("a bulk copy into the shared memory of cluster rank {} that names the mbarrier of rank {}: the "
                             "mbarrier must be in the destination's block; the H100 writes the bytes but never completes "
                             "that mbarrier, so a wait on it does not end (tests/hw/data/h100/tma_more/bar_elsewhere.txt)",
                             rank, bar_rank));
    live_state(x, in, lane, key);
    out[0] = BulkDest{shared_of_rank(rank), key};
    return 1;
  }
  // .multicast::cluster: the bytes and the complete-tx go to the same CTA-relative offsets in every
  // CTA of the mask (PTX ISA, cp.async.bulk; tests/hw/data/h100/tma_more, peer_probe cases 2, 3).
  const std::uint64_t m = *mask & 0xffffu;
  if (m == 0)
    lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane, "a .multicast::cluster bulk copy with a ctaMask of 0 (no destination)");
  if ((m >> x.cluster_ctas) != 0)
    lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
               fmt::format("a .multicast::cluster bulk copy with ctaMask 0x{:x}, which names ranks outside the cluster of {} "
                           "block{}",
                           m, x.cluster_ctas, x.cluster_ctas == 1 ? "" : "s"));
  const std::uint64_t bar_off = cluster ? bar_addr & kRankOffsetMask : bar_addr;
  unsigned n = 0;
  for (std::uint64_t r = 0; r < x.cluster_ctas; ++r) {
    if (((m >> r) & 1) == 0) continue;
    std::uint8_t* base = shared_of_rank(r);
    const std::uint64_t key = bar_offset(x, in, lane, ((r + 1) << kClusterRankShift) | bar_off, false, false, true);
    live_state(x, in, lane, key);
    out[n++] = BulkDest{base, key};
  }
  return n;
}

std::string describe_wait(const Ctx& x, const Inst& in, unsigned lane) {
  const std::uint64_t off = lane_bar(x, in, lane);
  const std::uint64_t want = x.reg(in.b)[lane];
  const std::optional<mbar::State> s = mbar::decode(load_word(x, off));
  const Dim3 t = x.thread_of(lane);
  return fmt::format("lane {} (thread ({},{},{})) waits at {} for {} of the mbarrier at shared offset 0x{:x}, {}", lane, t.x,
                     t.y, t.z, x.kernel->where(x.pc_of(in)),
                     (in.aux & kParity) ? fmt::format("the phase of parity {}", want & 1)
                                        : fmt::format("the phase of its state token (parity {})", want >> 63),
                     off, s ? "now in " + mbar::describe(*s) : std::string("which is not initialized"));
}

bool decode_async(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const auto& ops = ins.operands;
  switch (ins.op) {
    case Opcode::kCpAsync: {
      const AddrOperand d = dc.address(ops[0], ptx::StateSpace::kShared);
      const AddrOperand s = dc.address(ops[1], ptx::StateSpace::kGlobal);
      if (d.mode != AddrOperand::Mode::kPlain || s.mode != AddrOperand::Mode::kPlain)
        dc.unsupported("cp.async between these operands");
      out.a = d.slot;
      out.imm = d.imm;
      if (d.reg32) out.flags |= kFlagAddr32;
      out.b = s.slot;
      out.c = dc.constant(static_cast<std::uint64_t>(s.imm));
      out.width = static_cast<std::uint8_t>(ops[2].imm);
      out.mem_op = Op::kLdgsts;
      out.space = Space::kGlobal;
      out.cache = ins.cache == ptx::CacheOperator::kCg ? CacheOp::kCg : CacheOp::kCa;
      const std::size_t extra = ops.size() - 3 - (ins.l2_cache_hint ? 1 : 0);  // the cache policy is a hint
      if (extra == 1) {
        const ptx::Operand& o = ops[3];
        const bool pred = o.kind == ptx::OperandKind::kReg &&
                          dc.function().registers[o.reg].type == ptx::Type::kPred;
        out.aux = pred ? kIgnoreSrc : kSrcSize;
        out.e = dc.src(o, pred ? ptx::Type::kPred : ptx::Type::kU32);
        if (pred && o.negate) out.flags |= kFlagNegA;
      }
      out.fn = pick_cp_async(ops[2].imm);
      if (out.fn == nullptr) dc.unsupported("a cp-size other than 4, 8 or 16");
      return true;
    }
    case Opcode::kCpAsyncCommitGroup:
      out.fn = &cp_async_commit;
      return true;
    case Opcode::kCpAsyncWaitGroup:
      out.imm = ops.empty() ? 0 : static_cast<std::int64_t>(ops[0].imm);
      out.fn = &cp_async_wait;
      return true;
    case Opcode::kCpAsyncWaitAll:
      out.aux = 1;  // commit first
      out.fn = &cp_async_wait;
      return true;
    case Opcode::kCpAsyncMbarrierArrive:
      bar_operand(dc, ins, ops[0], out);
      if (ins.noinc) out.aux |= kNoinc;
      out.fn = &cp_mbar_arrive;
      return true;
    case Opcode::kCpAsyncBulk: {
      if (ins.bulk_group) return false;  // the store to global memory: ops_tma.cpp
      if (ins.space != ptx::StateSpace::kSharedCluster && ins.space != ptx::StateSpace::kShared)
        dc.unsupported("cp.async.bulk with an mbarrier into a space other than shared memory");
      if (ins.src_space == ptx::StateSpace::kShared && ins.space == ptx::StateSpace::kSharedCluster)
        return decode_dsmem_bulk(dc, ins, out);
      if (ins.src_space != ptx::StateSpace::kGlobal) dc.unsupported("cp.async.bulk from this state space into shared memory");
      const AddrOperand d = dc.address(ops[0], ptx::StateSpace::kShared);
      const AddrOperand s = dc.address(ops[1], ptx::StateSpace::kGlobal);
      const AddrOperand b = dc.address(ops[3], ptx::StateSpace::kShared);
      if (d.mode != AddrOperand::Mode::kPlain || s.mode != AddrOperand::Mode::kPlain || b.mode != AddrOperand::Mode::kPlain)
        dc.unsupported("cp.async.bulk between these operands");
      out.a = d.slot;
      out.imm = d.imm;
      if (d.reg32) out.flags |= kFlagAddr32;
      out.b = s.slot;
      out.c = dc.constant(static_cast<std::uint64_t>(s.imm));
      out.e = dc.src(ops[2], ptx::Type::kU32);
      out.v[0] = b.slot;
      out.v[1] = dc.constant(static_cast<std::uint64_t>(b.imm));
      if (b.reg32) out.aux2 |= kBulkBarAddr32;
      if (ins.space == ptx::StateSpace::kSharedCluster) out.aux2 |= kClusterBar;
      if (ins.multicast) {
        if (ops.size() < 5) dc.unsupported(".multicast::cluster without a ctaMask operand");
        out.v[2] = dc.src(ops[4], ptx::Type::kU16);
      }
      out.fn = &cp_async_bulk;
      return true;
    }
    case Opcode::kMbarrierInit:
      bar_operand(dc, ins, ops[0], out);
      out.b = dc.src(ops[1], ptx::Type::kU32);
      out.fn = &mbar_init;
      return true;
    case Opcode::kMbarrierArrive:
    case Opcode::kMbarrierArriveDrop:
      out.d = dc.dst(ops[0]);
      bar_operand(dc, ins, ops[1], out);
      if (ops.size() == 3) out.b = dc.src(ops[2], ptx::Type::kU32);
      if (ins.op == Opcode::kMbarrierArriveDrop) out.aux |= kDrop;
      if (ins.no_complete) out.aux |= kNoComplete;
      if (ins.expect_tx) out.aux |= kExpectTx;
      out.fn = &mbar_arrive;
      return true;
    case Opcode::kMbarrierExpectTx:
    case Opcode::kMbarrierCompleteTx:
      bar_operand(dc, ins, ops[0], out);
      out.b = dc.src(ops[1], ptx::Type::kU32);
      out.fn = ins.op == Opcode::kMbarrierCompleteTx ? &mbar_tx<true> : &mbar_tx<false>;
      return true;
    case Opcode::kMbarrierTestWait:
    case Opcode::kMbarrierTryWait:
      out.d = dc.dst(ops[0]);
      bar_operand(dc, ins, ops[1], out);
      out.b = dc.src(ops[2], ins.parity ? ptx::Type::kU32 : ptx::Type::kB64);
      if (ins.parity) out.aux |= kParity;
      out.fn = &mbar_wait;
      out.ctl = Ctl::kWait;
      return true;
    case Opcode::kMbarrierPendingCount:
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], ptx::Type::kB64);
      out.fn = &mbar_pending;
      return true;
    case Opcode::kMbarrierInval:
      bar_operand(dc, ins, ops[0], out);
      out.fn = &mbar_inval;
      return true;
    default: return false;
  }
}

}  // namespace warpscope::exec
