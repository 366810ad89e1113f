#include "stats/instruction_merge.hpp"

#include <algorithm>
#include <utility>

namespace warpscope::stats {

void merge_row(InstructionStats& into, InstructionStats&& from, std::uint64_t seq_base) {
  if (!into.seen) {
    into.seen = true;
    into.space = from.space;
    into.op = from.op;
    into.cache = from.cache;
    into.width = from.width;
    into.matrix = from.matrix;
  }
  if (into.executions == 0 && into.in_registers == 0 && (from.executions != 0 || from.in_registers != 0))
    into.first_seen = seq_base + from.first_seen;
  into.executions += from.executions;
  into.active_lanes += from.active_lanes;
  into.requests += from.requests;
  into.sectors += from.sectors;
  into.ideal_sectors += from.ideal_sectors;
  into.l1_tag_requests += from.l1_tag_requests;
  into.theoretical_sectors += from.theoretical_sectors;
  into.multicast_sectors += from.multicast_sectors;
  into.bytes_requested += from.bytes_requested;
  into.bytes_moved += from.bytes_moved;
  into.l1_hit_sectors += from.l1_hit_sectors;
  into.l2_hit_sectors += from.l2_hit_sectors;
  into.l1_foreign_hit_sectors += from.l1_foreign_hit_sectors;
  into.wavefronts += from.wavefronts;
  into.ideal_wavefronts += from.ideal_wavefronts;
  into.partial_executions += from.partial_executions;
  into.uniform_executions += from.uniform_executions;
  if (from.strided_executions != 0) {
    if (into.strided_executions == 0) {
      into.stride = from.stride;
    } else if (into.stride != from.stride) {
      into.stride_varies = true;
    }
    into.stride_varies = into.stride_varies || from.stride_varies;
    into.strided_executions += from.strided_executions;
  }
  if (from.misaligned_executions != 0) {
    if (into.misaligned_executions == 0) {
      into.misalign_min = from.misalign_min;
      into.misalign_max = from.misalign_max;
    } else {
      into.misalign_min = std::min(into.misalign_min, from.misalign_min);
      into.misalign_max = std::max(into.misalign_max, from.misalign_max);
    }
    into.misaligned_executions += from.misaligned_executions;
  }
  if (from.sample && (!into.sample || from.sample_excess > into.sample_excess)) {
    into.sample = std::move(from.sample);
    into.sample_excess = from.sample_excess;
  }
  if (from.local_end != 0) {
    if (from.offset_varies ||
        (into.local_end != 0 && (into.local_min != from.local_min || into.local_end != from.local_end)))
      into.offset_varies = true;
    into.local_min = std::min(into.local_min, from.local_min);
    into.local_end = std::max(into.local_end, from.local_end);
  }
  into.in_registers += from.in_registers;
  into.widenable_executions += from.widenable_executions;
  into.tensor = into.tensor || from.tensor;
  if (!into.box && from.box) into.box = std::move(from.box);  // parts come in CTA order: the first box wins
}

}  // namespace warpscope::stats
