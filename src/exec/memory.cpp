#include "exec/memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstring>

#include "common/error.hpp"

namespace warpscope::exec {

namespace {

/// What an allocation of `bytes` takes: 512-byte steps below 2 MiB, whole granules from there.
std::uint64_t rounded_size(std::uint64_t bytes) {
  const std::uint64_t unit = bytes >= kGranule ? kGranule : kAllocAlign;
  return (bytes + unit - 1) / unit * unit;
}

// Where the host mirror of the heap is asked to go: far from the device's own address range
// (src/runtime reserves [kHeapBase, ...) in the process for mapped host memory), which the kernel
// would otherwise pick for a mapping this large.
constexpr std::uintptr_t kMirrorHint = 0x1000'0000'0000ull;

}  // namespace

GlobalMemory::GlobalMemory(std::uint64_t capacity) : capacity_(capacity) {
  if (capacity_ > kHeapLimit - kHeapBase) capacity_ = kHeapLimit - kHeapBase;
  // Room for fragmentation: twice the capacity, in whole granules. Reserved without access (no
  // memory is committed); granules are made accessible as allocations map them.
  span_ = std::min<std::uint64_t>(kHeapLimit - kHeapBase, (capacity_ * 2 + kGranule - 1) / kGranule * kGranule);
  span_ = std::max<std::uint64_t>(span_, kGranule);
  // Several devices (tests) each have their own: the first free slot from kMirrorHint up, then
  // anywhere the kernel likes outside the device range.
  void* p = MAP_FAILED;
  const std::uint64_t stride = (span_ + (1ull << 40) - 1) & ~((1ull << 40) - 1);
  for (std::uint64_t k = 0; k < 32 && p == MAP_FAILED; ++k) {
    void* want = reinterpret_cast<void*>(kMirrorHint + k * stride);
    p = mmap(want, span_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != MAP_FAILED && p != want) {  // a kernel that ignores MAP_FIXED_NOREPLACE
      munmap(p, span_);
      p = MAP_FAILED;
    }
  }
  if (p == MAP_FAILED) p = mmap(nullptr, span_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) fail(ErrorKind::kUsage, "cannot reserve {} bytes of host address space for device memory", span_);
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  if (at < kLocalWindow + kWindowBytes && at + span_ > kHeapBase) {
    munmap(p, span_);
    fail(ErrorKind::kInternal, "the host mirror of device memory landed inside the device address range");
  }
  host_ = static_cast<std::uint8_t*>(p);
  granule_refs_.assign(span_ / kGranule, 0);
  // The driver's memory below the first allocation: mapped, not counted as used, no allocation.
  if (span_ > 2 * kDriverBytes) {
    map_granules(kHeapBase, kDriverBytes);
    reserved_.emplace(kHeapBase, kDriverBytes);
  }
}

GlobalMemory::~GlobalMemory() { munmap(host_, span_); }

void GlobalMemory::map_granules(std::uint64_t base, std::uint64_t rounded) {
  const std::uint64_t first = (base - kHeapBase) / kGranule, last = (base + rounded - 1 - kHeapBase) / kGranule;
  for (std::uint64_t g = first; g <= last; ++g) {
    std::uint8_t* const granule = host_ + g * kGranule;
    if (granule_refs_[g]++ == 0) {
      if (mprotect(granule, kGranule, PROT_READ | PROT_WRITE) != 0) {
        --granule_refs_[g];
        for (std::uint64_t u = first; u < g; ++u) --granule_refs_[u];
        fail(ErrorKind::kUsage, "out of host memory mapping device memory at 0x{:x}", kHeapBase + g * kGranule);
      }
    } else {
      // Already mapped: what a freed allocation left there is cleared (allocations read as zero).
      const std::uint64_t lo = std::max(base, kHeapBase + g * kGranule);
      const std::uint64_t hi = std::min(base + rounded, kHeapBase + (g + 1) * kGranule);
      std::memset(host_ + (lo - kHeapBase), 0, hi - lo);
    }
  }
}

void GlobalMemory::unmap_granules(std::uint64_t base, std::uint64_t rounded) {
  const std::uint64_t first = (base - kHeapBase) / kGranule, last = (base + rounded - 1 - kHeapBase) / kGranule;
  for (std::uint64_t g = first; g <= last; ++g) {
    if (--granule_refs_[g] != 0) continue;
    std::uint8_t* const granule = host_ + g * kGranule;
    madvise(granule, kGranule, MADV_DONTNEED);  // the bytes go; a later mapping reads zeros
    mprotect(granule, kGranule, PROT_NONE);
  }
}

std::uint64_t GlobalMemory::place(std::uint64_t rounded) const {
  // First fit over the gaps between live allocations and reservations (addresses are reused
  // after free, as cudaMalloc's are). Heap blocks lie inside their reservation.
  // Allocations of 2 MiB and more start on a granule of their own.
  const std::uint64_t align = rounded >= kGranule ? kGranule : kAllocAlign;
  std::uint64_t candidate = kHeapBase;
  for (;;) {
    candidate = (candidate + align - 1) / align * align;
    if (candidate + rounded > kHeapBase + span_ || candidate + rounded < candidate) {
      fail(ErrorKind::kUsage, "device address space exhausted");
    }
    std::uint64_t end = candidate;
    auto it = regions_.lower_bound(candidate + rounded);
    while (it != regions_.begin()) {  // heap blocks do not count: their reservation does
      --it;
      if (it->second.heap_block) continue;
      end = std::max(end, it->first + rounded_size(it->second.size));
      break;
    }
    if (auto r = reserved_.lower_bound(candidate + rounded); r != reserved_.begin()) {
      --r;
      end = std::max(end, r->first + r->second);
    }
    if (end <= candidate) return candidate;
    candidate = end;
  }
}

std::uint64_t GlobalMemory::allocate(std::uint64_t bytes, std::string label, bool constant) {
  if (bytes == 0) bytes = 1;
  const std::uint64_t rounded = rounded_size(bytes);
  if (rounded < bytes || used_ + rounded > capacity_ || used_ + rounded < used_) {
    fail(ErrorKind::kUsage, "out of device memory: cannot allocate {} bytes ({} of {} bytes in use)",
         bytes, used_, capacity_);
  }
  const std::uint64_t candidate = place(rounded);
  map_granules(candidate, rounded);
  Region r{candidate, bytes, host_ + (candidate - kHeapBase), std::move(label)};
  r.constant = constant;
  regions_.emplace(candidate, std::move(r));
  used_ += rounded;
  return candidate;
}

std::uint64_t GlobalMemory::reserve(std::uint64_t bytes, std::uint8_t** host) {
  const std::uint64_t rounded = rounded_size(std::max<std::uint64_t>(bytes, 1));
  if (rounded < bytes || used_ + rounded > capacity_ || used_ + rounded < used_) {
    fail(ErrorKind::kUsage, "out of device memory: cannot reserve {} bytes ({} of {} bytes in use)", bytes, used_,
         capacity_);
  }
  const std::uint64_t base = place(rounded);
  map_granules(base, rounded);
  reserved_.emplace(base, rounded);
  used_ += rounded;
  *host = host_ + (base - kHeapBase);
  return base;
}

void GlobalMemory::add_block(std::uint64_t addr, std::uint64_t bytes, std::uint8_t* host, std::string label) {
  Region r{addr, bytes, host, std::move(label)};
  r.heap_block = true;
  regions_.emplace(addr, std::move(r));
}

void GlobalMemory::add_external(std::uint64_t addr, std::uint64_t bytes, std::uint8_t* host) {
  if (bytes == 0 || addr + bytes < addr) fail(ErrorKind::kUsage, "host memory at 0x{:x}: an empty or wrapping range", addr);
  // Host memory inside the device's address range (the process mapped it before the runtime could
  // reserve the range: ASLR may put libraries and mappings there) is taken as it is, unless it
  // overlaps a device allocation (below) or a reservation: place() leaves its addresses alone as it
  // leaves allocations'.
  if (addr < kHeapBase + span_ && addr + bytes > kHeapBase) {
    auto r = reserved_.lower_bound(addr + bytes);
    if (r != reserved_.begin() && std::prev(r)->first + std::prev(r)->second > addr)
      fail(ErrorKind::kUsage, "host memory [0x{:x}, 0x{:x}) overlaps device memory reserved at [0x{:x}, 0x{:x})", addr,
           addr + bytes, std::prev(r)->first, std::prev(r)->first + std::prev(r)->second);
  }
  // The parameter, shared and local windows of generic addresses (and function addresses) lie
  // at the top of the address space, where a thread's stack is: such host memory cannot be told
  // from them.
  if (addr + bytes > kHeapLimit)
    fail(ErrorKind::kUsage,
         "host memory [0x{:x}, 0x{:x}) lies at or above 0x{:x}, where warpscope's generic shared, local and "
         "parameter windows are (a stack array?); register heap memory (malloc, new) instead",
         addr, addr + bytes, kHeapLimit);
  auto it = regions_.lower_bound(addr + bytes);
  if (it != regions_.begin()) {
    const Region& prev = std::prev(it)->second;
    if (prev.base + std::max<std::uint64_t>(prev.size, 1) > addr)
      fail(ErrorKind::kUsage, "host memory [0x{:x}, 0x{:x}) overlaps [0x{:x}, 0x{:x}), already mapped", addr,
           addr + bytes, prev.base, prev.base + prev.size);
  }
  Region r{addr, bytes, host, "host memory (cudaHostRegister)"};
  r.external = true;
  regions_.emplace(addr, std::move(r));
}

bool GlobalMemory::remove_external(std::uint64_t addr) {
  auto it = regions_.find(addr);
  if (it == regions_.end() || !it->second.external) return false;
  regions_.erase(it);
  return true;
}

bool GlobalMemory::remove_block(std::uint64_t addr) {
  auto it = regions_.find(addr);
  if (it == regions_.end() || !it->second.heap_block) return false;
  regions_.erase(it);
  return true;
}

void GlobalMemory::release(std::uint64_t base) {
  auto it = regions_.find(base);
  if (it == regions_.end()) {
    fail(ErrorKind::kUsage, "free of 0x{:x}, which is not the start of a device allocation", base);
  }
  if (it->second.heap_block) {
    fail(ErrorKind::kUsage, "free of 0x{:x}, which was allocated by device-side malloc (free it in a kernel)", base);
  }
  if (it->second.external) {
    fail(ErrorKind::kUsage, "free of 0x{:x}, which is registered host memory (cudaHostUnregister it)", base);
  }
  const std::uint64_t rounded = rounded_size(it->second.size);
  used_ -= rounded;
  regions_.erase(it);
  unmap_granules(base, rounded);
}

const Region* GlobalMemory::find(std::uint64_t addr, std::uint64_t bytes) const {
  auto it = regions_.upper_bound(addr);
  if (it == regions_.begin()) return nullptr;
  --it;
  return it->second.contains(addr, bytes) ? &it->second : nullptr;
}

std::uint8_t* GlobalMemory::mapped(std::uint64_t addr, std::uint64_t bytes) const {
  if (addr < kHeapBase || bytes == 0 || addr - kHeapBase >= span_ || span_ - (addr - kHeapBase) < bytes) return nullptr;
  const std::uint64_t first = (addr - kHeapBase) / kGranule, last = (addr + bytes - 1 - kHeapBase) / kGranule;
  for (std::uint64_t g = first; g <= last; ++g)
    if (granule_refs_[g] == 0) return nullptr;
  return host_ + (addr - kHeapBase);
}

const Region* GlobalMemory::nearest(std::uint64_t addr) const {
  if (regions_.empty()) return nullptr;
  auto it = regions_.upper_bound(addr);
  if (it == regions_.begin()) return &it->second;
  auto prev = std::prev(it);
  if (it == regions_.end()) return &prev->second;
  const std::uint64_t d_prev = addr - (prev->second.base + prev->second.size);
  const std::uint64_t d_next = it->second.base - addr;
  return d_prev <= d_next ? &prev->second : &it->second;
}

std::uint8_t* GlobalMemory::host_range(std::uint64_t addr, std::uint64_t bytes,
                                       const char* what) const {
  if (bytes == 0) {
    const Region* r = find(addr, 0);
    if (r == nullptr) return nullptr;
    return r->host + (addr - r->base);
  }
  const Region* r = find(addr, bytes);
  if (r == nullptr) {
    fail(ErrorKind::kOutOfBounds, "{}: [0x{:x}, 0x{:x}) is not inside one device allocation", what,
         addr, addr + bytes);
  }
  return r->host + (addr - r->base);
}

}  // namespace warpscope::exec
