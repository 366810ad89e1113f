// Bulk copies and bulk reductions from the executing CTA's shared memory into the shared memory
// of a CTA of its cluster, completed on the destination CTA's mbarrier (PTX ISA 9.0, sections
// 9.7.9.25.4.1 and 9.7.9.25.4.2; docs/exec.md "Bulk copies into a peer's shared memory"):
//   cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]
//   cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.op.type  (same)
// As for every asynchronous copy (ops_async.cpp), the bytes move when the instruction is issued.
// Counted as the H100 counts them (tests/hw/data/h100/dsmem_bulk): one Space::kDsmem record per
// 16-byte piece group (Op::kBulkCopy / kBulkRed) whose lanes are the destination's CTA-relative
// offsets; the statistics count the distinct 32-byte sectors (src/stats/collector_shard.hpp).
#include <string>

#include "exec/async.hpp"
#include "exec/bulk_reduce.hpp"
#include "exec/dsmem_bulk.hpp"
#include "exec/memaccess.hpp"
#include "exec/ops_common.hpp"
#include "exec/sanitize.hpp"

namespace warpscope::exec {
namespace {

// Inst slots: a = destination (.shared::cluster, + imm), b = source (.shared::cta), c = its
// offset (a constant slot), e = size, v[0] + v[1] = the mbarrier (.shared::cluster). aux: 1 for a
// reduction, with its ptx::ReduceOp in aux2's low byte and its bulkred::Elem in the next;
// flags kFlagAddr32 for a 32-bit destination register; aux2 bit 16/17: 32-bit source / mbarrier.
enum : std::uint32_t { kIsReduce = 1 };
enum : std::uint32_t { kSrc32 = 1u << 16, kBar32 = 1u << 17 };

/// The PTX ISA's (op, type) pairs for a reduction into shared::cluster: .and/.or/.xor .b32,
/// .add/.min/.max/.inc/.dec .u32, .add/.min/.max .s32, .add .u64.
bool valid_into_cluster(ptx::ReduceOp op, bulkred::Elem e) {
  using bulkred::Elem;
  switch (op) {
    case ptx::ReduceOp::kAnd: case ptx::ReduceOp::kOr: case ptx::ReduceOp::kXor: return e == Elem::kB32;
    case ptx::ReduceOp::kAdd: return e == Elem::kU32 || e == Elem::kS32 || e == Elem::kU64;
    case ptx::ReduceOp::kMin: case ptx::ReduceOp::kMax: return e == Elem::kU32 || e == Elem::kS32;
    case ptx::ReduceOp::kInc: case ptx::ReduceOp::kDec: return e == Elem::kU32;
    default: return false;
  }
}

/// The destination side of one lane's copy or reduction, for the memory statistics: records of up
/// to 32 lanes x 16 bytes, split at 512-byte boundaries of the offset so that no 32-byte sector
/// spans two records (`part` 0 is the instruction's first).
void emit_dsmem(Ctx& x, const Inst& in, Op op, std::uint64_t off, std::uint64_t n) {
  WarpAccess rec;
  rec.pc = x.pc_of(in);
  rec.cta = x.cta_linear;
  rec.warp = x.warp_index;
  rec.space = Space::kDsmem;
  rec.op = op;
  rec.width = 16;
  std::uint64_t part = 0;
  for (std::uint64_t at = off, end = off + n; at < end; ++part) {
    const std::uint64_t stop = std::min(end, (at / 512 + 1) * 512);
    rec.part = static_cast<std::uint8_t>(std::min<std::uint64_t>(part, 255));
    rec.addr.fill(0);
    unsigned lanes = 0;
    for (; at < stop; at += 16) rec.addr[lanes++] = at;
    rec.active = LaneMask(lanes >= 32 ? kFullMask : (1u << lanes) - 1u);
    x.sink->on_access(rec);
  }
}

void dsmem_bulk(const Inst& in, Ctx& x, std::uint32_t m) {
  const bool reduce = (in.aux & kIsReduce) != 0;
  const char* what = reduce ? "cp.reduce.async.bulk" : "cp.async.bulk";
  const std::string where = fmt::format(" ({} into a peer's shared memory)", what);
  for_lanes(m, [&](unsigned l) {
    std::uint64_t d = x.reg(in.a)[l] + static_cast<std::uint64_t>(in.imm);
    if (in.flags & kFlagAddr32) d &= 0xffffffffu;
    std::uint64_t s = x.reg(in.b)[l] + x.reg(in.c)[l];
    if (in.aux2 & kSrc32) s &= 0xffffffffu;
    std::uint64_t bar = x.reg(in.v[0])[l] + x.reg(in.v[1])[l];
    if (in.aux2 & kBar32) bar &= 0xffffffffu;
    const std::uint64_t n = x.reg(in.e)[l] & 0xffffffffu;
    if (n % 16 != 0) lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l, fmt::format("{} of {} bytes (a multiple of 16 is required)", what, n));
    if (s % 16 != 0) memory_fault(x, in, ErrorKind::kMisaligned, l, s, 16, Space::kShared, Op::kLoad, false, where.c_str());
    if (s > x.shared_size || x.shared_size - s < n)
      memory_fault(x, in, ErrorKind::kOutOfBounds, l, s, 16, Space::kShared, Op::kLoad, false, where.c_str());
    std::uint64_t off = 0;
    BulkDest to[16];
    bulk_destinations(x, in, l, d, bar, true, nullptr, off, to);
    if (off % 16 != 0) memory_fault(x, in, ErrorKind::kMisaligned, l, d, 16, Space::kShared, Op::kStore, false, where.c_str());
    if (off > x.shared_size || x.shared_size - off < n)
      memory_fault(x, in, ErrorKind::kOutOfBounds, l, d, static_cast<unsigned>(n), Space::kShared, Op::kStore, false, where.c_str());
    if (n != 0) {
      if (reduce)
        bulkred::reduce(static_cast<ptx::ReduceOp>(in.aux2 & 0xff), static_cast<bulkred::Elem>((in.aux2 >> 8) & 0xff),
                        to[0].shared + off, x.shared + s, n, false);
      else
        std::memmove(to[0].shared + off, x.shared + s, n);
      if (x.sink != nullptr) emit_dsmem(x, in, reduce ? Op::kBulkRed : Op::kBulkCopy, off, n);
      if (x.race != nullptr) {
        // racecheck: the source is read and the destination written until the peer's mbarrier
        // phase completes (sanitize.hpp).
        x.race->bulk_read(x.warp_index, l, x.pc_of(in), s, n, to[0].bar);
        x.race->bulk_write(x.warp_index, l, x.pc_of(in), to[0].bar, off, n, reduce);
      }
    }
    bulk_complete_tx(x, in, l, to[0].bar, static_cast<std::uint32_t>(n));
  });
}

}  // namespace

bool decode_dsmem_bulk(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const auto& ops = ins.operands;
  const bool reduce = ins.op == ptx::Opcode::kCpReduceAsyncBulk;
  const char* what = reduce ? "cp.reduce.async.bulk" : "cp.async.bulk";
  if (!ins.complete_tx) dc.unsupported(fmt::format("{}.shared::cluster.shared::cta without .mbarrier::complete_tx::bytes", what));
  if (ins.multicast) dc.unsupported(fmt::format("{}.shared::cluster.shared::cta with .multicast::cluster (not in the PTX ISA)", what));
  if (ops.size() != 4) dc.unsupported(fmt::format("{}.shared::cluster.shared::cta without [dst], [src], size, [mbar]", what));
  const AddrOperand d = dc.address(ops[0], ptx::StateSpace::kShared);
  const AddrOperand s = dc.address(ops[1], ptx::StateSpace::kShared);
  const AddrOperand b = dc.address(ops[3], ptx::StateSpace::kShared);
  if (d.mode != AddrOperand::Mode::kPlain || s.mode != AddrOperand::Mode::kPlain || b.mode != AddrOperand::Mode::kPlain)
    dc.unsupported(fmt::format("{} between these operands", what));
  out.a = d.slot;
  out.imm = d.imm;
  if (d.reg32) out.flags |= kFlagAddr32;
  out.b = s.slot;
  out.c = dc.constant(static_cast<std::uint64_t>(s.imm));
  if (s.reg32) out.aux2 |= kSrc32;
  out.e = dc.src(ops[2], ptx::Type::kU32);
  out.v[0] = b.slot;
  out.v[1] = dc.constant(static_cast<std::uint64_t>(b.imm));
  if (b.reg32) out.aux2 |= kBar32;
  if (reduce) {
    const std::optional<bulkred::Elem> e = bulkred::from_ptx(ins.type);
    if (!e || !valid_into_cluster(ins.reduce, *e))
      dc.unsupported(fmt::format("cp.reduce.async.bulk.shared::cluster .{}.{} (not a combination the PTX ISA lists for a "
                                 "shared::cluster destination)",
                                 ptx::to_string(ins.reduce), ptx::to_string(ins.type)));
    out.aux = kIsReduce;
    out.aux2 |= static_cast<std::uint32_t>(ins.reduce) | (static_cast<std::uint32_t>(*e) << 8);
  }
  out.fn = &dsmem_bulk;
  return true;
}

}  // namespace warpscope::exec
