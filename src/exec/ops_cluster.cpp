// Thread-block cluster and launch-control instructions (issue 18): mapa, barrier.cluster
// (decoded here, executed by the warp loop: cluster.cpp), setmaxnreg and griddepcontrol.
#include <fmt/format.h>

#include "exec/decode.hpp"
#include "exec/fault.hpp"
#include "exec/memory.hpp"
#include "exec/ops_common.hpp"

namespace warpscope::exec {

namespace {

using ptx::Opcode;
using ptx::Type;

constexpr std::uint64_t kRankOffsetMask = (std::uint64_t{1} << kClusterRankShift) - 1;

[[noreturn]] void bad_rank(Ctx& x, const Inst& in, unsigned lane, std::uint64_t rank) {
  lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, lane,
             fmt::format("mapa to cluster rank {}, but the cluster has {} block{} (the PTX ISA leaves a rank outside "
                         "the cluster undefined)",
                         rank, x.cluster_ctas, x.cluster_ctas == 1 ? "" : "s"));
}

/// mapa.shared::cluster.u32 d, a, b: the shared::cluster address of a's variable in CTA rank b.
void mapa_cluster(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  std::uint64_t* d = x.reg(in.d);
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t rank = b[l] & 0xffffffffu;
    if (rank >= x.cluster_ctas) bad_rank(x, in, l, rank);
    d[l] = ((rank + 1) << kClusterRankShift) | (a[l] & kRankOffsetMask);
  });
}

/// mapa.u64 d, a, b: the generic address of the same variable in CTA rank b (a must be a generic
/// address of shared memory).
void mapa_generic(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  std::uint64_t* d = x.reg(in.d);
  for_lanes(m, [&](unsigned l) {
    std::uint64_t off = 0;
    if (classify_generic(a[l], off) != GenericSpace::kShared) {
      lane_fault(x, x.pc_of(in), ErrorKind::kUndefined, l,
                 fmt::format("mapa of generic address 0x{:x}, which is not an address of shared memory", a[l]));
    }
    const std::uint64_t rank = b[l] & 0xffffffffu;
    if (rank >= x.cluster_ctas) bad_rank(x, in, l, rank);
    d[l] = kSharedWindow + (((rank + 1) << kClusterRankShift) | (off & kRankOffsetMask));
  });
}

void nop(const Inst&, Ctx&, std::uint32_t) {}

}  // namespace

bool decode_cluster(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const auto& ops = ins.operands;
  switch (ins.op) {
    case Opcode::kMapa: {
      const bool u32 = ptx::type_bits(ins.type) == 32;
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], u32 ? Type::kU32 : Type::kU64);
      out.b = dc.src(ops[2], Type::kU32);
      if (ins.space == ptx::StateSpace::kSharedCluster && u32) {
        out.fn = &mapa_cluster;
      } else if (ins.space == ptx::StateSpace::kGeneric && !u32) {
        out.fn = &mapa_generic;
      } else {
        dc.unsupported("mapa forms other than mapa.shared::cluster.u32 and mapa.u64");
      }
      return true;
    }
    case Opcode::kBarrierClusterArrive:
    case Opcode::kBarrierClusterWait:
      out.ctl = Ctl::kCluster;
      out.aux = ins.op == Opcode::kBarrierClusterWait ? 1 : 0;
      out.fn = &nop;
      return true;
    case Opcode::kSetmaxnregInc:
    case Opcode::kSetmaxnregDec: {
      // A hint to the register allocator of a warpgroup: no functional effect (docs/exec.md).
      const std::int64_t n =
          ops.empty() || ops[0].kind != ptx::OperandKind::kImm ? -1 : static_cast<std::int64_t>(ops[0].imm);
      if (n < 24 || n > 256 || n % 8 != 0) {
        dc.unsupported(fmt::format("setmaxnreg with register count {}: the PTX ISA requires 24 to 256, a multiple of 8", n));
      }
      out.fn = &nop;
      return true;
    }
    case Opcode::kGriddepLaunchDependents:
    case Opcode::kGriddepWait:
      // Launches run one after another: the prior grid has completed before this one starts, so
      // .wait returns at once and .launch_dependents changes nothing (docs/exec.md).
      out.fn = &nop;
      return true;
    default: return false;
  }
}

}  // namespace warpscope::exec
