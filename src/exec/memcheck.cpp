#include "exec/memcheck.hpp"

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "exec/fault.hpp"
#include "exec/heap.hpp"
#include "exec/sanitize.hpp"
#include "ptx/ptx.hpp"

namespace warpscope::exec {

namespace {

/// compute-sanitizer's word for an access: "read" and "write" for loads and stores, else its kind.
std::string_view access_word(Op op) {
  if (op == Op::kLoad) return "read";
  if (op == Op::kStore) return "write";
  return describe(op);
}

}  // namespace

void MemcheckLog::record(const Ctx& x, const Inst& in, unsigned lane, std::uint64_t addr, unsigned width, Space space,
                         Op op) {
  const std::uint32_t pc = x.pc_of(in);
  auto [it, fresh] = by_pc_.try_emplace(pc);
  Item& item = it->second;
  ++item.error.count;
  if (!fresh) return;
  item.cta = x.cta_linear;
  item.seq = seq_++;
  MemcheckError& e = item.error;
  const KernelImage& k = *x.kernel;
  e.pc = pc;
  e.kernel = k.name;
  if (pc < k.source.size()) {
    const ptx::Instruction& ins = k.ir_instruction(pc);
    const ptx::SourceLoc loc = k.module->outermost(ins.loc);
    if (loc.valid()) {
      e.file = std::string(k.module->file_path(loc));
      e.line = loc.line;
    }
    e.ptx = ptx::format_instruction(*k.module, k.ir_function(k.source[pc].func), ins);
  }
  e.block = x.ctaid;
  e.thread = x.thread_of(lane);
  e.address = addr;
  e.size = width;
  e.access = std::string(access_word(op));
  e.space = space == Space::kConst ? "const" : space == Space::kLocal ? "local" : "global";
  if (space == Space::kLocal) {
    // Past the thread's frame, inside its stack window: the GPU reads and writes it.
    e.before = false;
    e.distance = addr + width - x.local_frame;
    e.relation = fmt::format("{} bytes past the end of the thread's {}-byte local frame (inside the {}-byte stack "
                             "after it)",
                             e.distance, x.local_frame, x.local_stride - x.local_frame);
  } else if (const Region* r = x.global->nearest(addr); r != nullptr) {
    e.allocation_base = r->base;
    e.allocation_size = r->size;
    e.allocation_label = r->label;
    e.before = addr < r->base;
    e.distance = e.before ? r->base - addr : addr - (r->base + r->size);
    e.relation = fmt::format("{} bytes {} the {}-byte allocation at 0x{:x}{}", e.distance,
                             e.before ? "before" : "after the end of", r->size, r->base,
                             r->label.empty() ? "" : " (" + r->label + ")");
  }
  e.message = fmt::format("invalid {} {} of {} bytes at address 0x{:x} in {}, block ({},{},{}), thread ({},{},{}): {}",
                          e.space, e.access, width, addr, describe_pc(k, pc), e.block.x, e.block.y, e.block.z,
                          e.thread.x, e.thread.y, e.thread.z, e.relation);
}

void MemcheckLog::merge(const MemcheckLog& other) {
  for (const auto& [pc, theirs] : other.by_pc_) {
    auto [it, fresh] = by_pc_.try_emplace(pc, theirs);
    if (fresh) continue;
    Item& mine = it->second;
    const std::uint64_t count = mine.error.count + theirs.error.count;
    if (theirs.cta < mine.cta) mine = theirs;
    mine.error.count = count;
  }
}

void MemcheckLog::finish(LaunchStats& stats) const {
  std::vector<const Item*> items;
  for (const auto& [pc, item] : by_pc_) items.push_back(&item);
  std::sort(items.begin(), items.end(),
            [](const Item* a, const Item* b) { return a->cta != b->cta ? a->cta < b->cta : a->seq < b->seq; });
  stats.memcheck.clear();
  stats.memcheck_errors = 0;
  for (const Item* i : items) {
    stats.memcheck.push_back(i->error);
    stats.memcheck_errors += i->error.count;
  }
}

void note_device_error(const Ctx& x, std::uint32_t pc, unsigned lane, const char* kind, std::uint64_t address,
                       unsigned size, std::string_view access) {
  if (x.faults == nullptr) return;
  SanitizerFinding f;
  f.tool = "memcheck";
  f.kind = kind;
  f.kernel = x.kernel->name;
  f.block = x.ctaid;
  f.address = address;
  f.size = size;
  f.detail = std::string(access);
  f.first = sanitizer_site(*x.kernel, pc, 0, x.ntid);
  f.first.thread = x.thread_of(lane);
  f.second.pc = lane;  // one finding per thread: the lane is part of the log's key
  x.faults->note(f, x.cta_linear);
}

void device_free(Ctx& x, std::uint32_t pc, std::uint32_t m, const std::uint64_t* ptrs) {
  unsigned bad_lane = kLanes;
  for_lanes(m, [&](unsigned l) {
    const std::uint64_t p = ptrs[l];
    if (p == 0) return;  // free(NULL) does nothing
    if (x.heap != nullptr && x.heap->release(p)) return;
    if (x.faults != nullptr) {
      // memcheck: a report per thread whose pointer is bad, then the launch ends, as the H200's
      // memcheck does (cudaErrorLaunchFailure; tests/hw/data/h200/sanitize/heap).
      note_device_error(x, pc, l, x.heap != nullptr && x.heap->freed_start(p) ? "double_free" : "invalid_free", p);
      if (bad_lane == kLanes) bad_lane = l;
      return;
    }
    const bool in_heap = x.heap != nullptr && p - x.heap->base() < x.heap->size();
    lane_fault(x, pc, in_heap ? ErrorKind::kTrap : ErrorKind::kOutOfBounds, l,
               fmt::format("free of 0x{:x}, which is not the start of a block allocated by device-side malloc/new{}", p,
                           in_heap ? " (freed already, or inside a block)" : " (outside the device heap)"));
  });
  // The freed blocks are no allocations any more: forget the lookup caches that may name them.
  x.gcache = nullptr;
  x.gcache2 = nullptr;
  if (bad_lane == kLanes) return;
  const std::uint64_t p = ptrs[bad_lane];
  lane_fault(x, pc, ErrorKind::kTrap, bad_lane,
             fmt::format("device-side free of 0x{:x}: {}; memcheck stops the launch there", p,
                         x.heap != nullptr && x.heap->freed_start(p)
                             ? "double free (the block was freed already)"
                             : "invalid pointer (not the start of a block allocated by device-side malloc/new)"));
}

std::uint8_t* unallocated_global(Ctx& x, const Inst& in, unsigned lane, std::uint64_t addr, unsigned width,
                                 Space space, Op op, bool generic) {
  if (x.faults != nullptr && x.heap != nullptr && addr - x.heap->base() < x.heap->size()) {
    // The device heap outside its live blocks (past a block's end, a freed block): the H200's
    // memcheck reports the thread's access "located in the device heap" and stops the kernel
    // (cudaErrorLaunchFailure; tests/hw/data/h200/sanitize/heap). A plain run goes on below.
    const std::uint32_t pc = x.pc_of(in);
    note_device_error(x, pc, lane, "heap_out_of_bounds", addr, width, access_word(op));
    lane_fault(x, pc, ErrorKind::kTrap, lane,
               fmt::format("invalid {} of {} bytes at 0x{:x}{}: in the device heap, outside every live block "
                           "(past the end of a malloc'd block, or a freed one); memcheck stops the launch there",
                           access_word(op), width, addr, generic ? " (generic)" : ""));
  }
  if (x.memcheck == nullptr) memory_fault(x, in, ErrorKind::kOutOfBounds, lane, addr, width, space, op, generic);
  std::uint8_t* p = x.global->mapped(addr, width);
  if (p == nullptr) {
    memory_fault(x, in, ErrorKind::kOutOfBounds, lane, addr, width, space, op, generic,
                 "; the GPU does not map this address either (no live allocation in its 2 MiB granule)");
  }
  x.memcheck->record(x, in, lane, addr, width, space, op);
  return p;
}

std::uint8_t* window_out_of_bounds(Ctx& x, const Inst& in, unsigned lane, std::uint64_t off, unsigned width,
                                   Space space, Op op) {
  // Where the access would land instead: a lane's bytes never reach memory (the launch ends
  // before the caller moves any), but the caller may read the bytes before it checks.
  alignas(64) static thread_local std::uint8_t scratch[256];
  const std::uint32_t pc = x.pc_of(in);
  const bool shared = space == Space::kShared;
  note_device_error(x, pc, lane, shared ? "shared_out_of_bounds" : "local_out_of_bounds", off, width,
                    access_word(op));
  if (x.window_fault_lane == kLanes) {
    x.window_fault_lane = lane;
    x.window_fault_addr = off;
    x.window_fault_width = width;
    x.window_fault_space = space;
    x.window_fault_op = op;
  }
  if (width > sizeof scratch) window_fault(x, in);
  return scratch;
}

void window_fault(Ctx& x, const Inst& in) {
  const unsigned lane = x.window_fault_lane;
  x.window_fault_lane = kLanes;
  const bool shared = x.window_fault_space == Space::kShared;
  lane_fault(x, x.pc_of(in), ErrorKind::kTrap, lane,
             fmt::format("invalid {} {} of {} bytes at offset 0x{:x}: outside the {} ({} bytes); memcheck stops the "
                         "launch there",
                         shared ? "shared" : "local", access_word(x.window_fault_op), x.window_fault_width,
                         x.window_fault_addr, shared ? "CTA's shared memory" : "thread's local window",
                         shared ? x.shared_size : x.local_stride));
}

}  // namespace warpscope::exec
