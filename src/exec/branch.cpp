#include "exec/branch.hpp"

#include <fmt/format.h>

#include "exec/fault.hpp"
#include "exec/machine.hpp"

namespace warpscope::exec {

unsigned brx_groups(const Ctx& x, const KernelImage& k, const Inst& in, std::uint32_t pc, std::uint32_t m,
                    const std::uint64_t* regs, std::uint32_t (&group_pc)[kLanes], std::uint32_t (&group_mask)[kLanes]) {
  // decode.cpp: the targets are an operand list, Inst::imm = its offset << 32 | its length.
  const std::uint32_t* list = k.operand_lists.data() + (static_cast<std::uint64_t>(in.imm) >> 32);
  const auto n = static_cast<std::uint32_t>(in.imm);
  const std::uint64_t* idx = regs + std::size_t(in.a) * kLanes;
  unsigned groups = 0;
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t i = idx[l] & 0xffffffffu;
    if (i >= n)
      lane_fault(x, pc, ErrorKind::kUndefined, l,
                 fmt::format("brx.idx with index {}, but its .branchtargets list has {} label{} (the PTX ISA leaves "
                             "an index outside the list undefined)",
                             i, n, n == 1 ? "" : "s"));
    unsigned g = 0;
    while (g < groups && group_pc[g] != list[i]) ++g;
    if (g == groups) {
      group_pc[groups] = list[i];
      group_mask[groups++] = 0;
    }
    group_mask[g] |= 1u << l;
  });
  return groups;
}

void brx_push(Split& s, std::uint32_t r, std::uint32_t next, std::uint32_t fall, unsigned groups,
              const std::uint32_t (&group_pc)[kLanes], const std::uint32_t (&group_mask)[kLanes]) {
  auto push = [&](std::uint32_t pc, std::uint32_t mask) {
    if (pc == r) return;
    Entry e;
    e.pc = pc;
    e.rpc = r;
    e.mask = mask;
    s.stack.push_back(e);
  };
  for (unsigned g = groups; g-- > 0;) push(group_pc[g], group_mask[g]);
  if (fall != 0) push(next, fall);
}

}  // namespace warpscope::exec
