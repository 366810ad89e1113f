// The forms of the sm_90 instructions issue 29 added to the decoder (opcodes.cpp): createpolicy,
// applypriority and discard (L2 cache policies and hints), st.async and red.async.
#include "ptx/opcode_forms.hpp"

#include <fmt/format.h>

namespace warpscope::ptx {

// createpolicy, applypriority and discard: the forms the PTX ISA 9.0 defines (their operands:
// the verifier).
void check_cache_hint(const Instruction& inst, const Refuse& refuse) {
  if (inst.space != StateSpace::kGeneric && inst.space != StateSpace::kGlobal)
    refuse(to_string(inst.space), "only .global addresses take a cache hint");
  if (inst.op == Opcode::kDiscard) {
    if (inst.level != CacheLevel::kL2) refuse("discard", "discard needs .L2");
    return;
  }
  if (inst.op == Opcode::kApplypriority) {
    if (inst.l2_eviction != Eviction::kNormal)
      refuse("applypriority", "applypriority needs .L2::evict_normal (the only priority the PTX ISA gives)");
    return;
  }
  const PolicyKind k = inst.policy_kind;
  if (k == PolicyKind::kNone) refuse("createpolicy", "createpolicy needs .fractional, .range or .cvt");
  if (inst.type != Type::kB64) refuse("createpolicy", "createpolicy needs .b64");
  if (inst.src_type != Type::kNone) refuse(to_string(inst.src_type), "createpolicy takes one type");
  if (k == PolicyKind::kCvt) {
    if (inst.level != CacheLevel::kL2 || inst.l2_eviction != Eviction::kNone)
      refuse("cvt", "createpolicy.cvt takes .L2 and no priority");
    return;
  }
  if (inst.level != CacheLevel::kNone) refuse("L2", "only createpolicy.cvt takes .L2");
  if (k == PolicyKind::kFractional && inst.space != StateSpace::kGeneric)
    refuse("global", "createpolicy.fractional takes no state space");
  const Eviction p = inst.l2_eviction, s = inst.l2_secondary;
  if (p == Eviction::kNone || p == Eviction::kNoAllocate)
    refuse("createpolicy", "the primary priority is .L2::evict_last, _normal, _first or _unchanged");
  if (s != Eviction::kNone && s != Eviction::kFirst && s != Eviction::kUnchanged)
    refuse(to_string(s), "the secondary priority is .L2::evict_first or .L2::evict_unchanged");
}

// st.async and red.async: the forms of the PTX ISA 9.0 for sm_90 (stores and reductions into a
// cluster CTA's shared memory, completed on its mbarrier).
void check_async_store(const Instruction& inst, const Refuse& refuse) {
  const bool st = inst.op == Opcode::kStAsync;
  const std::string_view name = st ? "st.async" : "red.async";
  if (!inst.complete_tx)
    refuse(name, "only the form with .mbarrier::complete_tx::bytes (into shared::cluster) is implemented");
  if (inst.space != StateSpace::kGeneric && inst.space != StateSpace::kSharedCluster)
    refuse(to_string(inst.space), "st.async/red.async write .shared::cluster");
  if (inst.scope != Scope::kNone && inst.scope != Scope::kCluster)
    refuse(to_string(inst.scope), "the scope is .cluster");
  const Type t = inst.type;
  if (st) {
    if (inst.order != MemOrder::kNone && inst.order != MemOrder::kWeak)
      refuse(to_string(inst.order), "st.async is .weak");
    const bool ok = t == Type::kB32 || t == Type::kB64 || t == Type::kU32 || t == Type::kS32 || t == Type::kF32 ||
                    t == Type::kU64 || t == Type::kS64 || t == Type::kF64;
    if (!ok) refuse(to_string(t), "st.async stores .b32 .b64 .u32 .s32 .f32 .u64 .s64 .f64");
    if (inst.vec == 8 || (inst.vec == 4 && type_bits(t) != 32))
      refuse(fmt::format("v{}", inst.vec), "st.async takes .v2, or .v4 of 32-bit types");
    return;
  }
  if (inst.order != MemOrder::kRelaxed || inst.scope != Scope::kCluster)
    refuse(name, "red.async needs .relaxed.cluster");
  const ReduceOp r = inst.reduce;
  bool ok = false;
  switch (r) {
    case ReduceOp::kInc: case ReduceOp::kDec: ok = t == Type::kU32; break;
    case ReduceOp::kMin: case ReduceOp::kMax: ok = t == Type::kU32 || t == Type::kS32; break;
    case ReduceOp::kAnd: case ReduceOp::kOr: case ReduceOp::kXor: ok = t == Type::kB32; break;
    case ReduceOp::kAdd: ok = t == Type::kU32 || t == Type::kS32 || t == Type::kU64; break;
    default: break;
  }
  if (!ok)
    refuse(r == ReduceOp::kNone ? std::string_view("red.async") : to_string(r),
                "red.async takes .inc/.dec .u32, .min/.max .u32/.s32, .and/.or/.xor .b32, .add .u32/.s32/.u64");
}

}  // namespace warpscope::ptx
