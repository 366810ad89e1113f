// Warp-level instructions: shfl.sync, vote.sync, activemask, match.sync, redux.sync, elect.sync,
// bar.warp.sync, and the ones that are no-ops for a warp that executes in lock step (membar,
// fence).
//
// The instructions with a membermask are Ctl::kWarpSync: before fn runs, the warp loop
// (warp_sync.cpp) has checked every executing lane's membermask against the PTX ISA's rules and
// split the executing lanes into groups (Ctx::groups), one per distinct membermask, as
// cg::labeled_partition / tiled_partition / coalesced_threads make them. Each group computes on
// its own lanes only. A shuffle whose source lane is not executing reads that lane's register as
// it is (the PTX ISA leaves the value undefined; this one is deterministic).
#include "exec/ops_common.hpp"
#include "exec/sanitize.hpp"

namespace warpscope::exec {
namespace {

using ptx::Opcode;
using ptx::Type;

/// Calls f(group) for every lane group of the instruction.
template <class F>
inline void for_groups(const Ctx& x, F&& f) {
  for (std::uint32_t i = 0; i < x.ngroups; ++i) f(x.groups[i]);
}

template <ptx::ShflMode Mode>
void shfl(const Inst& in, Ctx& x, std::uint32_t m) {
  const std::uint64_t* a = x.reg(in.a);
  const std::uint64_t* b = x.reg(in.b);
  const std::uint64_t* c = x.reg(in.c);
  std::uint64_t src[kLanes];
  for (unsigned l = 0; l < kLanes; ++l) src[l] = a[l];
  std::uint64_t* d = x.reg(in.d);
  std::uint64_t* p = in.d2 == kNoSlot ? nullptr : x.reg(in.d2);
  for_lanes(m, [&](unsigned lane) {
    const unsigned bval = static_cast<unsigned>(b[lane]) & 31;
    const unsigned cval = static_cast<unsigned>(c[lane]) & 31;
    const unsigned mask = (static_cast<unsigned>(c[lane]) >> 8) & 31;
    const unsigned max_lane = (lane & mask) | (cval & ~mask);
    const unsigned min_lane = lane & mask;
    int j = 0;
    bool pval = false;
    switch (Mode) {
      case ptx::ShflMode::kUp: j = int(lane) - int(bval); pval = j >= int(max_lane); break;
      case ptx::ShflMode::kDown: j = int(lane + bval); pval = j <= int(max_lane); break;
      case ptx::ShflMode::kBfly: j = int(lane ^ bval); pval = j <= int(max_lane); break;
      case ptx::ShflMode::kIdx: j = int(min_lane | (bval & ~mask)); pval = j <= int(max_lane); break;
      case ptx::ShflMode::kNone: break;
    }
    if (!pval) j = int(lane);
    d[lane] = src[j] & 0xffffffffu;
    if (p) p[lane] = pval ? 1 : 0;
  });
}

template <ptx::VoteMode Mode>
void vote(const Inst& in, Ctx& x, std::uint32_t) {
  std::uint32_t all_preds = pred_mask(x.reg(in.a));
  if (in.flags & kFlagNegA) all_preds = ~all_preds;
  std::uint64_t* d = x.reg(in.d);
  for_groups(x, [&](std::uint32_t set) {
    const std::uint32_t preds = all_preds & set;
    std::uint64_t r = 0;
    switch (Mode) {
      case ptx::VoteMode::kAll: r = preds == set; break;
      case ptx::VoteMode::kAny: r = preds != 0; break;
      case ptx::VoteMode::kUni: r = preds == 0 || preds == set; break;
      case ptx::VoteMode::kBallot: r = preds; break;
      case ptx::VoteMode::kNone: break;
    }
    for_lanes(set, [&](unsigned l) { d[l] = r; });
  });
}

void activemask(const Inst& in, Ctx& x, std::uint32_t m) {
  std::uint64_t* d = x.reg(in.d);
  for_lanes(m, [&](unsigned l) { d[l] = m; });
}

template <bool All, unsigned Bits>
void match(const Inst& in, Ctx& x, std::uint32_t) {
  const std::uint64_t vmask = Bits == 64 ? ~0ull : 0xffffffffull;
  const std::uint64_t* a = x.reg(in.a);
  std::uint64_t vals[kLanes];
  for (unsigned l = 0; l < kLanes; ++l) vals[l] = a[l] & vmask;
  std::uint64_t* d = x.reg(in.d);
  std::uint64_t* p = in.d2 == kNoSlot ? nullptr : x.reg(in.d2);
  for_groups(x, [&](std::uint32_t set) {
    if constexpr (All) {
      bool same = true;
      const std::uint64_t first = vals[__builtin_ctz(set)];
      for_lanes(set, [&](unsigned l) { same &= vals[l] == first; });
      for_lanes(set, [&](unsigned l) {
        d[l] = same ? set : 0;
        if (p) p[l] = same ? 1 : 0;
      });
    } else {
      std::uint32_t res[kLanes];
      for_lanes(set, [&](unsigned l) {
        std::uint32_t r = 0;
        for_lanes(set, [&](unsigned k) {
          if (vals[k] == vals[l]) r |= 1u << k;
        });
        res[l] = r;
      });
      for_lanes(set, [&](unsigned l) { d[l] = res[l]; });
    }
  });
}

template <ptx::ReduceOp Op, bool Signed>
void redux(const Inst& in, Ctx& x, std::uint32_t) {
  const std::uint64_t* a = x.reg(in.a);
  std::uint64_t* d = x.reg(in.d);
  for_groups(x, [&](std::uint32_t set) {
    std::uint32_t acc = static_cast<std::uint32_t>(a[__builtin_ctz(set)]);
    for (std::uint32_t rest = set & (set - 1); rest != 0; rest &= rest - 1) {
      const std::uint32_t v = static_cast<std::uint32_t>(a[__builtin_ctz(rest)]);
      switch (Op) {
        case ptx::ReduceOp::kAdd: acc += v; break;
        case ptx::ReduceOp::kAnd: acc &= v; break;
        case ptx::ReduceOp::kOr: acc |= v; break;
        case ptx::ReduceOp::kXor: acc ^= v; break;
        case ptx::ReduceOp::kMin:
          if (Signed) acc = std::int32_t(v) < std::int32_t(acc) ? v : acc;
          else acc = v < acc ? v : acc;
          break;
        case ptx::ReduceOp::kMax:
          if (Signed) acc = std::int32_t(v) > std::int32_t(acc) ? v : acc;
          else acc = v > acc ? v : acc;
          break;
        default: break;
      }
    }
    for_lanes(set, [&](unsigned l) { d[l] = acc; });
  });
}

/// elect.sync: the lowest lane of each group is elected; d gets its lane number, p is true for it.
void elect(const Inst& in, Ctx& x, std::uint32_t) {
  std::uint64_t* d = in.d == kNoSlot ? nullptr : x.reg(in.d);
  std::uint64_t* p = in.d2 == kNoSlot ? nullptr : x.reg(in.d2);
  for_groups(x, [&](std::uint32_t set) {
    const unsigned leader = static_cast<unsigned>(__builtin_ctz(set));
    for_lanes(set, [&](unsigned l) {
      if (d) d[l] = leader;
      if (p) p[l] = l == leader ? 1 : 0;
    });
  });
}

void nop(const Inst&, Ctx&, std::uint32_t) {}

/// bar.warp.sync: orders its lanes' shared accesses for racecheck (sanitize.hpp).
void bar_warp_sync(const Inst&, Ctx& x, std::uint32_t m) {
  if (x.race != nullptr) x.race->sync_warp(x.warp_index, m);
}

}  // namespace

bool decode_warp(DecodeCtx& dc, const ptx::Instruction& ins, Inst& out) {
  const auto& ops = ins.operands;
  switch (ins.op) {
    case Opcode::kShfl: {
      if (!ins.sync) dc.unsupported("shfl without .sync (removed after sm_6x)");
      out.d = dc.dst(ops[0]);
      if (ins.dest2.kind != ptx::OperandKind::kNone) out.d2 = dc.dst(ins.dest2);
      out.a = dc.src(ops[1], Type::kB32);
      out.b = dc.src(ops[2], Type::kU32);
      out.c = dc.src(ops[3], Type::kU32);
      if (ops.size() > 4) out.e = dc.src(ops[4], Type::kU32);
      out.ctl = Ctl::kWarpSync;
      if (ptx::type_bits(ins.type) != 32) dc.unsupported("shfl of a type other than .b32");
      switch (ins.shfl) {
        case ptx::ShflMode::kUp: out.fn = &shfl<ptx::ShflMode::kUp>; break;
        case ptx::ShflMode::kDown: out.fn = &shfl<ptx::ShflMode::kDown>; break;
        case ptx::ShflMode::kBfly: out.fn = &shfl<ptx::ShflMode::kBfly>; break;
        case ptx::ShflMode::kIdx: out.fn = &shfl<ptx::ShflMode::kIdx>; break;
        case ptx::ShflMode::kNone: dc.unsupported("shfl without a mode");
      }
      return true;
    }
    case Opcode::kVote: {
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], Type::kPred);
      if (ops[1].negate) out.flags |= kFlagNegA;
      if (ops.size() > 2) out.e = dc.src(ops[2], Type::kU32);
      out.ctl = Ctl::kWarpSync;
      switch (ins.vote) {
        case ptx::VoteMode::kAll: out.fn = &vote<ptx::VoteMode::kAll>; break;
        case ptx::VoteMode::kAny: out.fn = &vote<ptx::VoteMode::kAny>; break;
        case ptx::VoteMode::kUni: out.fn = &vote<ptx::VoteMode::kUni>; break;
        case ptx::VoteMode::kBallot: out.fn = &vote<ptx::VoteMode::kBallot>; break;
        case ptx::VoteMode::kNone: dc.unsupported("vote without a mode");
      }
      return true;
    }
    case Opcode::kActivemask:
      out.d = dc.dst(ops[0]);
      out.fn = &activemask;
      return true;
    case Opcode::kMatch: {
      out.d = dc.dst(ops[0]);
      if (ins.dest2.kind != ptx::OperandKind::kNone) out.d2 = dc.dst(ins.dest2);
      out.a = dc.src(ops[1], ins.type);
      if (ops.size() > 2) out.e = dc.src(ops[2], Type::kU32);
      out.ctl = Ctl::kWarpSync;
      const bool b64 = ptx::type_bits(ins.type) == 64;
      if (ins.vote == ptx::VoteMode::kAll) out.fn = b64 ? &match<true, 64> : &match<true, 32>;
      else out.fn = b64 ? &match<false, 64> : &match<false, 32>;
      return true;
    }
    case Opcode::kRedux: {
      out.d = dc.dst(ops[0]);
      out.a = dc.src(ops[1], ins.type);
      if (ops.size() > 2) out.e = dc.src(ops[2], Type::kU32);
      out.ctl = Ctl::kWarpSync;
      const bool s = ins.type == Type::kS32;
      if (ptx::type_bits(ins.type) != 32 || ptx::is_float(ins.type)) dc.unsupported(fmt::format("redux.sync.{}", ptx::to_string(ins.type)));
      switch (ins.reduce) {
        case ptx::ReduceOp::kAdd: out.fn = &redux<ptx::ReduceOp::kAdd, false>; break;
        case ptx::ReduceOp::kAnd: out.fn = &redux<ptx::ReduceOp::kAnd, false>; break;
        case ptx::ReduceOp::kOr: out.fn = &redux<ptx::ReduceOp::kOr, false>; break;
        case ptx::ReduceOp::kXor: out.fn = &redux<ptx::ReduceOp::kXor, false>; break;
        case ptx::ReduceOp::kMin: out.fn = s ? &redux<ptx::ReduceOp::kMin, true> : &redux<ptx::ReduceOp::kMin, false>; break;
        case ptx::ReduceOp::kMax: out.fn = s ? &redux<ptx::ReduceOp::kMax, true> : &redux<ptx::ReduceOp::kMax, false>; break;
        default: dc.unsupported(fmt::format("redux.sync.{}", ptx::to_string(ins.reduce)));
      }
      return true;
    }
    case Opcode::kElect:
      if (ops[0].kind != ptx::OperandKind::kSink) out.d = dc.dst(ops[0]);
      if (ins.dest2.kind != ptx::OperandKind::kNone) out.d2 = dc.dst(ins.dest2);
      if (ops.size() > 1) out.e = dc.src(ops[1], Type::kU32);
      out.ctl = Ctl::kWarpSync;
      out.fn = &elect;
      return true;
    case Opcode::kBarWarpSync:
      if (ops.empty()) dc.unsupported("bar.warp.sync without a membermask");
      out.e = dc.src(ops[0], Type::kU32);
      out.ctl = Ctl::kWarpSync;
      out.aux = 1;  // lanes meet at any bar.warp.sync
      out.fn = &bar_warp_sync;
      return true;
    case Opcode::kMembar:
    case Opcode::kFence:
      out.fn = &nop;
      return true;
    default: return false;
  }
}

}  // namespace warpscope::exec
