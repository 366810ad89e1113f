// st.async and red.async (PTX ISA 9.0, sm_90; docs/exec.md "Stores and reductions into a peer's
// shared memory"): a store or reduction of one register (or a .v2/.v4 vector) into the shared memory
// of a CTA of the cluster, completed on that CTA's mbarrier with a complete-tx of the bytes written:
//   st.async{.weak}{.shared::cluster}.mbarrier::complete_tx::bytes{.v2,.v4}.type [a], b, [mbar]
//   red.async.relaxed.cluster{.shared::cluster}.mbarrier::complete_tx::bytes.op.type [a], b, [mbar]
// As the bulk copies into a peer (ops_dsmem_bulk.cpp), the bytes move when the instruction is issued
// and the mbarrier must be in the destination's CTA (bulk_destinations, ops_async.cpp). The H200
// agrees on every value and on the bytes counted (tests/hw/data/h200/ptxops, "cluster").
#include <cstring>
#include <optional>
#include <string>

#include "exec/async.hpp"
#include "exec/bulk_reduce.hpp"
#include "exec/memaccess.hpp"
#include "exec/memory.hpp"
#include "exec/ops_common.hpp"
#include "exec/sanitize.hpp"

namespace warpscope::exec {
namespace {

// Inst: a (+ imm) the destination, v[0..vec) the values, b (+ c, a constant) the mbarrier; width =
// bytes per lane; aux bit 0 a reduction (aux2: its ptx::ReduceOp, then its bulkred::Elem << 8), bit 1
// generic addresses; flags kFlagAddr32 a 32-bit destination / mbarrier register.
enum : std::uint32_t { kReduce = 1, kGeneric = 2 };

std::uint64_t cluster_address(Ctx& x, const Inst& in, unsigned l, std::uint64_t v, const char* what) {
  if (in.flags & kFlagAddr32) v &= 0xffffffffu;
  if ((in.aux & kGeneric) == 0) return v;
  std::uint64_t off = 0;
  if (classify_generic(v, off) != GenericSpace::kShared)
    lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
               fmt::format("{} with the generic address 0x{:x}, which is not one of shared::cluster", what, v));
  return off;
}

void async_store(const Inst& in, Ctx& x, std::uint32_t m) {
  const bool reduce = (in.aux & kReduce) != 0;
  const char* what = reduce ? "red.async" : "st.async";
  const std::string where = fmt::format(" ({} into a peer's shared memory)", what);
  const unsigned n = in.width, vec = in.vec, esize = n / vec;
  WarpAccess rec;
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t d = cluster_address(x, in, l, x.reg(in.a)[l] + static_cast<std::uint64_t>(in.imm), what);
    const std::uint64_t bar = cluster_address(x, in, l, x.reg(in.b)[l] + x.reg(in.c)[l], what);
    std::uint64_t off = 0;
    BulkDest to[16];
    bulk_destinations(x, in, l, d, bar, true, nullptr, off, to);
    if (off % n != 0) memory_fault(x, in, ErrorKind::kMisaligned, l, d, n, Space::kShared, Op::kStore, false, where.c_str());
    if (off > x.shared_size || x.shared_size - off < n)
      memory_fault(x, in, ErrorKind::kOutOfBounds, l, d, n, Space::kShared, Op::kStore, false, where.c_str());
    std::uint8_t bytes[32];
    for (unsigned i = 0; i < vec; ++i) {
      const std::uint64_t v = x.reg(in.v[i])[l];
      std::memcpy(bytes + i * esize, &v, esize);  // little-endian: the register's low bytes
    }
    if (reduce)
      bulkred::reduce(static_cast<ptx::ReduceOp>(in.aux2 & 0xff), static_cast<bulkred::Elem>((in.aux2 >> 8) & 0xff),
                      to[0].shared + off, bytes, n, false);
    else
      std::memcpy(to[0].shared + off, bytes, n);
    rec.addr[l] = off;
    // racecheck: written until the peer's mbarrier phase completes, as a bulk copy's bytes.
    if (x.race != nullptr) x.race->bulk_write(x.warp_index, l, x.pc_of(in), to[0].bar, off, n, reduce);
    bulk_complete_tx(x, in, l, to[0].bar, n);
  });
  if (x.sink != nullptr && m != 0) {
    // Counted with the bulk copies into a peer's shared memory (the H200's counters for st.async
    // and red.async were not measured: docs/exec.md).
    rec.pc = x.pc_of(in);
    rec.cta = x.cta_linear;
    rec.warp = x.warp_index;
    rec.space = Space::kDsmem;
    rec.op = reduce ? Op::kBulkRed : Op::kBulkCopy;
    rec.width = static_cast<std::uint8_t>(n);
    rec.active = LaneMask(m);
    x.sink->on_access(rec);
  }
}

/// getctarank{.shared::cluster}.u32/.u64 d, a: the rank of the CTA whose shared memory a names.
void getctarank(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t* a = x.reg(in.a);
  std::uint64_t* d = x.reg(in.d);
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t off = cluster_address(x, in, l, a[l], "getctarank");
    const std::uint64_t tag = off >> kClusterRankShift;
    const std::uint64_t rank = tag == 0 ? x.cluster_rank : tag - 1;
    if (rank >= x.cluster_ctas)
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
                 fmt::format("getctarank of shared::cluster address 0x{:x}: rank {}, but the cluster has {} block{}", off,
                             rank, x.cluster_ctas, x.cluster_ctas == 1 ? "" : "s"));
    d[l] = rank;
  });
}

/// The PTX ISA's (op, type) pairs of red.async (the front end checked them: ptx/opcodes.cpp).
bulkred::Elem elem_of(DecodeCtx& dc, ptx::Type t) {
  const std::optional<bulkred::Elem> e = bulkred::from_ptx(t);
  if (!e) dc.unsupported(fmt::format("red.async.{}", ptx::to_string(t)));
  return *e;
}

}  // namespace

bool decode_dsmem_async(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const auto& ops = ins.operands;
  const bool generic = ins.space == ptx::StateSpace::kGeneric;
  if (ins.op == ptx::Opcode::kGetctarank) {
    const bool u32 = ptx::type_bits(ins.type) == 32;
    if (generic && u32) dc.unsupported("getctarank.u32 of a generic address (a generic address is 64 bits)");
    if (ptx::type_bits(ins.type) != 32 && ptx::type_bits(ins.type) != 64) dc.unsupported("getctarank takes .u32 or .u64");
    out.d = dc.dst(ops[0]);
    out.a = dc.src(ops[1], u32 ? ptx::Type::kU32 : ptx::Type::kU64);
    if (u32) out.flags |= kFlagAddr32;
    if (generic) out.aux |= kGeneric;
    out.fn = &getctarank;
    return true;
  }
  if (ins.op != ptx::Opcode::kStAsync && ins.op != ptx::Opcode::kRedAsync) return false;
  const bool reduce = ins.op == ptx::Opcode::kRedAsync;
  const ptx::StateSpace s = generic ? ptx::StateSpace::kGeneric : ptx::StateSpace::kShared;
  const AddrOperand d = dc.address(ops[0], s);
  const AddrOperand b = dc.address(ops[2], s);
  if (d.mode != AddrOperand::Mode::kPlain || b.mode != AddrOperand::Mode::kPlain || d.reg32 != b.reg32)
    dc.unsupported(fmt::format("{} between these operands", ins.text));
  out.a = d.slot;
  out.imm = d.imm;
  out.b = b.slot;
  out.c = dc.constant(static_cast<std::uint64_t>(b.imm));
  if (d.reg32) out.flags |= kFlagAddr32;
  if (generic) out.aux |= kGeneric;
  const unsigned esize = ptx::type_bits(ins.type) / 8;
  out.vec = static_cast<std::uint8_t>(ins.vec);
  out.width = static_cast<std::uint8_t>(esize * ins.vec);
  const ptx::Operand& val = ops[1];
  if (val.kind == ptx::OperandKind::kVector) {
    for (unsigned i = 0; i < ins.vec; ++i) out.v[i] = dc.src(val.elements[i], ins.type);
  } else {
    out.v[0] = dc.src(val, ins.type);
  }
  if (reduce) {
    out.aux |= kReduce;
    out.aux2 = static_cast<std::uint32_t>(ins.reduce) | (static_cast<std::uint32_t>(elem_of(dc, ins.type)) << 8);
  }
  out.fn = &async_store;
  return true;
}

}  // namespace warpscope::exec
