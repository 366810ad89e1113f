// The device heap behind device-side malloc/free (and operator new/delete, which nvcc compiles to
// calls of malloc/free): a range of the global address space of cudaLimitMallocHeapSize bytes,
// reserved in GlobalMemory when the first kernel that uses it is launched, as CUDA sizes the heap
// then and refuses to resize it afterwards.
//
// Contract:
//  - allocate(n, align) returns the lowest address in the heap where n bytes fit, aligned to
//    `align` (at least 16, a GPU's malloc alignment), or 0 when nothing fits (heap exhausted):
//    first fit by address. malloc(0) returns a distinct 16-byte block.
//  - Every live block is an allocation of GlobalMemory (Region::heap_block), so the interpreter's
//    bounds checks apply to it: an access past the end of a block or to a freed block faults.
//  - release(p) frees the block that starts at p; false when p starts no live block.
//  - freed_start(p): p started a block that was freed and no live block starts there now (a
//    second free of it is compute-sanitizer's "double free"; any other bad pointer is an
//    "invalid pointer", tests/hw/data/h200/sanitize/heap).
//  - blocks(): the live blocks in address order, each with the bytes malloc was asked for
//    (memcheck's device-heap leaks).
//  - The bookkeeping is on the host, not in device memory: the memory model sees no allocator
//    traffic (a GPU's allocator makes some, and its addresses are not reproducible anyway).
//  - Not thread-safe: launches of kernels that use the heap run their CTAs on one host thread
//    (launch.cpp), so blocks are handed out in CTA order, then warp order, then lane order, and
//    every address is the same for any --threads.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "exec/memory.hpp"

namespace warpscope::exec {

class DeviceHeap {
 public:
  static constexpr std::uint64_t kMinAlign = 16;

  /// Reserves `bytes` in `memory` (which must outlive the heap).
  DeviceHeap(GlobalMemory& memory, std::uint64_t bytes);
  ~DeviceHeap();
  DeviceHeap(const DeviceHeap&) = delete;
  DeviceHeap& operator=(const DeviceHeap&) = delete;

  std::uint64_t allocate(std::uint64_t bytes, std::uint64_t align = kMinAlign);
  bool release(std::uint64_t addr);
  bool freed_start(std::uint64_t addr) const { return freed_.count(addr) != 0 && live_.count(addr) == 0; }
  /// (address, requested bytes) of each live block, in address order.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> blocks() const;

  std::uint64_t base() const { return base_; }
  std::uint64_t size() const { return size_; }
  std::uint64_t used() const { return used_; }
  std::size_t live_blocks() const { return live_.size(); }

 private:
  GlobalMemory& memory_;
  std::uint64_t base_ = 0, size_ = 0, used_ = 0;
  std::uint8_t* host_ = nullptr;
  std::map<std::uint64_t, std::uint64_t> free_;  // offset -> bytes, coalesced
  std::map<std::uint64_t, std::uint64_t> live_;  // address -> bytes taken (whole 16-byte units)
  std::map<std::uint64_t, std::uint64_t> asked_;  // address -> bytes malloc was asked for (live blocks)
  std::set<std::uint64_t> freed_;                 // starts of freed blocks
};

}  // namespace warpscope::exec
