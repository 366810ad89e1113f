// Global accesses outside every allocation that the GPU does not trap (docs/exec.md,
// "Out-of-bounds accesses"). translate() (memaccess.hpp) calls unallocated_global() when no
// allocation holds a lane's address; in MemcheckMode::kReport an address in a mapped granule
// (GlobalMemory::mapped) proceeds and is noted in the CTA runner's MemcheckLog, anything else
// faults as before.
//
// Determinism: each CtaRunner has its own log; a runner runs its CTAs in increasing order, so the
// first error it notes for an instruction is its lowest CTA's. merge() keeps, per instruction, the
// one of the lowest CTA (then the earliest in that CTA's execution), so the result is the same
// for any number of host threads.
#pragma once

#include <cstdint>
#include <map>
#include <string_view>

#include "exec/program.hpp"
#include "warpscope/warpscope.hpp"

namespace warpscope::exec {

class MemcheckLog {
 public:
  /// Notes lane `lane`'s access of `width` bytes at `addr`, which no allocation holds.
  void record(const Ctx& x, const Inst& in, unsigned lane, std::uint64_t addr, unsigned width, Space space, Op op);
  void merge(const MemcheckLog& other);
  /// Fills stats.memcheck (ordered by first occurrence) and stats.memcheck_errors.
  void finish(LaunchStats& stats) const;
  bool empty() const { return by_pc_.empty(); }

 private:
  struct Item {
    MemcheckError error;
    std::uint32_t cta = 0;
    std::uint64_t seq = 0;  // order of notes in this runner (within a CTA: execution order)
  };
  std::map<std::uint32_t, Item> by_pc_;
  std::uint64_t seq_ = 0;
};

/// memcheck's device-side errors (SanitizeChecks::memcheck, x.faults set): lane `lane`'s finding
/// of `kind` ("double_free", "invalid_free", "heap_out_of_bounds", "trap"; SanitizerFinding) at
/// instruction `pc`, one per thread. The caller then ends the launch (ErrorKind::kTrap:
/// cudaErrorLaunchFailure), as compute-sanitizer's memcheck stops a kernel at such an error on the
/// H200 (tests/hw/data/h200/sanitize/heap).
void note_device_error(const Ctx& x, std::uint32_t pc, unsigned lane, const char* kind, std::uint64_t address,
                       unsigned size = 0, std::string_view access = {});

/// Device-side free() of ptrs[l] for each lane l of `m` at instruction `pc`, in lane order; NULL
/// does nothing. A pointer that starts no live block: under SanitizeChecks::memcheck a finding for
/// every such lane ("double_free" for a freed block's start, else "invalid_free"), then a trap;
/// otherwise the first such lane faults (kTrap inside the heap, kOutOfBounds outside it, as the H100
/// does: tests/hw/data/h100/runtime_gt/checks/coop_heap_probe.out).
void device_free(Ctx& x, std::uint32_t pc, std::uint32_t m, const std::uint64_t* ptrs);

/// The host bytes of lane `lane`'s global access at `addr`, which no allocation holds: in
/// MemcheckMode::kReport (x.memcheck set) when the GPU maps the address, noted in x.memcheck;
/// otherwise memory_fault (kOutOfBounds). Under SanitizeChecks::memcheck an address in the device
/// heap (past a block's end, a freed block) is a "heap_out_of_bounds" finding and ends the launch.
[[gnu::cold, gnu::noinline]] std::uint8_t* unallocated_global(Ctx& x, const Inst& in, unsigned lane,
                                                              std::uint64_t addr, unsigned width, Space space,
                                                              Op op, bool generic);

/// Under SanitizeChecks::memcheck (x.faults set): lane `lane`'s access of `width` bytes at offset
/// `off` of the shared (`space` kShared) or local (kLocal) window, outside the CTA's shared
/// memory or the thread's local window. A "shared_out_of_bounds" / "local_out_of_bounds" finding
/// for the thread, as the H200's memcheck reports each thread of a write past a __shared__ array
/// (tests/hw/data/h200/sanitize/sanitize.txt, oob_shared); the instruction's first such lane is
/// kept in x.window_fault_*. Returns scratch bytes for the access: the caller translates its
/// other lanes, then end_window_faults() ends the launch before any byte moves.
[[gnu::cold, gnu::noinline]] std::uint8_t* window_out_of_bounds(Ctx& x, const Inst& in, unsigned lane,
                                                                std::uint64_t off, unsigned width, Space space,
                                                                Op op);

/// Ends the launch (ErrorKind::kTrap: cudaErrorLaunchFailure, as the H200's memcheck does) with
/// the first lane window_out_of_bounds noted.
[[noreturn, gnu::cold]] void window_fault(Ctx& x, const Inst& in);

/// After every lane of an instruction was translated: ends the launch when a lane's shared or
/// local access fell outside its window under memcheck.
inline void end_window_faults(Ctx& x, const Inst& in) {
  if (x.window_fault_lane != kLanes) [[unlikely]]
    window_fault(x, in);
}

}  // namespace warpscope::exec
