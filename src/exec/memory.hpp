// Functional device memory: the global address space (allocations, module variables) and the
// generic-address windows of the per-CTA shared and per-thread local spaces.
//
// Contract:
//  - Global allocations are placed as the CUDA driver places them (tests/hw/data/h100/runtime_gt,
//    tests/hw/data/h200/issue32): below 2 MiB, in 512-byte steps, first fit (1, 256 and 257 bytes
//    each take 512); from 2 MiB, whole 2 MiB granules of their own. They live in
//    [kHeapBase + kDriverBytes, kHeapLimit). find() says which allocation holds an address;
//    address 0 and everything outside an allocation are not in one.
//  - The driver's own memory lies below the first allocation: on the H200 reads down to 64 MiB
//    below it return zeros without a fault (1 GiB below faults). [kHeapBase, kHeapBase +
//    kDriverBytes) is mapped, reads as zero and holds no allocation (memcheck reports accesses
//    there; they do not fault).
//  - The GPU maps device memory in 2 MiB granules (kGranule, from kHeapBase): a granule that holds
//    part of a live allocation (its bytes rounded up to 256) is mapped, and any address in it can
//    be read and written without a trap, although it belongs to no allocation (padding, freed
//    memory, the rest of the granule); mapped() gives its host bytes. Device memory is one host
//    reservation mirroring the heap, so that such an access sees what the memory holds: another
//    allocation's bytes, or what a freed allocation left. A granule that no live allocation
//    touches is unmapped again (its bytes are dropped). New allocations read as zero.
//  - Shared and local state-space addresses are offsets (shared: from the start of the CTA's shared
//    memory; local: from the start of the thread's private stack). A generic address maps to them
//    through two windows, [kSharedWindow, +kWindowBytes) and [kLocalWindow, +kWindowBytes); any
//    other generic address is a global one (the identity map, as on the hardware).
//  - The allocation table is changed only between launches (malloc/free are host calls), so
//    launches read it from several threads without locking. The one exception is the device heap
//    (heap.hpp): a range reserved once, whose blocks (device-side malloc) become allocations and
//    stop being ones while a launch runs; launches of kernels that use it run on one host thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace warpscope::exec {

inline constexpr std::uint64_t kHeapBase = 0x7f00'0000'0000ull;
inline constexpr std::uint64_t kSharedWindow = 0x7ffe'0000'0000ull;
inline constexpr std::uint64_t kLocalWindow = 0x7fff'0000'0000ull;
inline constexpr std::uint64_t kWindowBytes = 0x1'0000'0000ull;  // 4 GiB each
inline constexpr std::uint64_t kHeapLimit = 0x7ffd'0000'0000ull;
// cvta.param of a kernel parameter (a __grid_constant__ tensor map): kParamWindow + its offset in
// the parameter buffer. Only the TMA instructions read through it (ops_tma.cpp); other generic
// accesses there fault as unallocated global memory.
inline constexpr std::uint64_t kParamWindow = kHeapLimit;
inline constexpr std::uint64_t kAllocAlign = 512;                // allocations below 2 MiB
inline constexpr std::uint64_t kDriverBytes = 64ull << 20;        // mapped below the first allocation
inline constexpr std::uint64_t kGranule = 2ull << 20;  // the GPU's mapping unit (docs/exec.md)
/// A function's address (in vtables, function pointers): kFunctionAddressBase + 16 x its index in
/// the PTX module's function list. No memory lies there.
inline constexpr std::uint64_t kFunctionAddressBase = 0x7ffd'0000'0000ull;

/// shared::cluster addresses (thread-block clusters, mapa): the shared memory of the CTA of
/// cluster rank r at ((r + 1) << kClusterRankShift) + offset; a generic address is kSharedWindow +
/// that. The H100 puts r itself there (tests/hw/data/h100/cluster: mapa.shared::cluster of offset
/// 0x4ac for rank 2 is 0x20004ac), but its own shared::cta addresses carry the CTA's rank in the
/// same bits; warpscope's own addresses are plain offsets, so rank 0 needs a tag of its own.
inline constexpr unsigned kClusterRankShift = 24;

enum class GenericSpace : std::uint8_t { kGlobal, kShared, kLocal };

/// Which space a generic address falls in, and its offset there.
inline GenericSpace classify_generic(std::uint64_t addr, std::uint64_t& offset) {
  if (addr - kSharedWindow < kWindowBytes) {
    offset = addr - kSharedWindow;
    return GenericSpace::kShared;
  }
  if (addr - kLocalWindow < kWindowBytes) {
    offset = addr - kLocalWindow;
    return GenericSpace::kLocal;
  }
  offset = addr;
  return GenericSpace::kGlobal;
}

/// One allocation: [base, base + size) backed by `host`.
struct Region {
  std::uint64_t base = 0;
  std::uint64_t size = 0;
  std::uint8_t* host = nullptr;
  std::string label;  // "" for malloc'ed memory, the symbol name for module variables
  bool constant = false;  // a module's .const variable (isspacep.const)
  bool heap_block = false;  // a block of the device heap: its host memory is the heap's
  bool external = false;    // host memory at its own address (add_external)
  bool contains(std::uint64_t addr, std::uint64_t bytes) const {
    return addr >= base && addr - base <= size && size - (addr - base) >= bytes;
  }
};

class GlobalMemory {
 public:
  explicit GlobalMemory(std::uint64_t capacity);
  ~GlobalMemory();
  GlobalMemory(const GlobalMemory&) = delete;
  GlobalMemory& operator=(const GlobalMemory&) = delete;

  /// A zero-filled allocation of `bytes` (at least 1), placed as the driver places them. Throws kUsage when the
  /// capacity would be exceeded.
  std::uint64_t allocate(std::uint64_t bytes, std::string label = {}, bool constant = false);
  /// Frees an allocation by its base address; throws kUsage for anything else.
  void release(std::uint64_t base);

  /// Reserves `bytes` (rounded up to 256) of address space, zero-filled and mapped, counted as
  /// used, without making it an allocation: accesses to it are outside every allocation until
  /// add_block makes part of it one. Returns the base; `*host` gets the host memory. Throws as
  /// allocate().
  std::uint64_t reserve(std::uint64_t bytes, std::uint8_t** host);
  /// Makes [addr, addr+bytes) inside a reservation an allocation (a device heap block) backed by
  /// `host`; remove_block undoes it (false if addr starts no block). release() refuses blocks.
  void add_block(std::uint64_t addr, std::uint64_t bytes, std::uint8_t* host, std::string label);
  bool remove_block(std::uint64_t addr);
  /// Host memory kernels reach at its own address (Device::map_host_memory): an allocation
  /// labelled "host memory (cudaHostRegister)" outside the device's range. Throws kUsage when it
  /// overlaps the device range or another allocation.
  void add_external(std::uint64_t addr, std::uint64_t bytes, std::uint8_t* host);
  bool remove_external(std::uint64_t addr);

  /// The allocation holding [addr, addr+bytes), or nullptr.
  const Region* find(std::uint64_t addr, std::uint64_t bytes) const;
  /// The allocation nearest to addr (for error messages), or nullptr when there is none.
  const Region* nearest(std::uint64_t addr) const;
  /// Host pointer for [addr, addr+bytes); throws kOutOfBounds naming `what` if invalid.
  std::uint8_t* host_range(std::uint64_t addr, std::uint64_t bytes, const char* what) const;
  /// Host pointer for [addr, addr+bytes) when every byte lies in a mapped granule (whether or not
  /// an allocation holds it), else nullptr: what a GPU reads and writes without a trap.
  std::uint8_t* mapped(std::uint64_t addr, std::uint64_t bytes) const;

  std::uint64_t capacity() const { return capacity_; }
  /// The device address range the host reservation mirrors: [kHeapBase, kHeapBase + span()).
  std::uint64_t span() const { return span_; }
  std::uint64_t used() const { return used_; }

 private:
  void map_granules(std::uint64_t base, std::uint64_t rounded);
  void unmap_granules(std::uint64_t base, std::uint64_t rounded);

  std::map<std::uint64_t, Region> regions_;  // by base
  std::map<std::uint64_t, std::uint64_t> reserved_;  // reservations: base -> rounded bytes
  std::uint64_t place(std::uint64_t rounded) const;  // first fit over allocations and reservations
  std::uint64_t capacity_;
  std::uint64_t used_ = 0;
  std::uint8_t* host_ = nullptr;           // mirrors [kHeapBase, kHeapBase + span_)
  std::uint64_t span_ = 0;
  std::vector<std::uint32_t> granule_refs_;  // live allocations touching each granule
};

}  // namespace warpscope::exec
