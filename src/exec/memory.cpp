#include "exec/memory.hpp"

#include <algorithm>
#include <cstdlib>

#include "common/error.hpp"

namespace warpscope::exec {

GlobalMemory::GlobalMemory(std::uint64_t capacity) : capacity_(capacity) {
  if (capacity_ > kHeapLimit - kHeapBase) capacity_ = kHeapLimit - kHeapBase;
}

GlobalMemory::~GlobalMemory() {
  for (auto& [base, r] : regions_) {
    if (!r.heap_block) std::free(r.host);
  }
  for (auto& [base, r] : reserved_) std::free(r.host);
}

namespace {
std::uint64_t round_alloc(std::uint64_t bytes) { return (bytes + kAllocAlign - 1) / kAllocAlign * kAllocAlign; }
}  // namespace

std::uint64_t GlobalMemory::place(std::uint64_t rounded) const {
  // First fit over the gaps between live allocations and reservations (addresses are reused
  // after free, as cudaMalloc's are). Heap blocks lie inside their reservation.
  std::uint64_t candidate = kHeapBase;
  for (;;) {
    std::uint64_t end = candidate;
    auto overlap = [&](auto& map, auto size_of) {
      auto it = map.lower_bound(candidate + rounded);
      if (it == map.begin()) return;
      --it;
      const std::uint64_t e = it->first + round_alloc(size_of(it->second));
      if (e > candidate) end = std::max(end, e);
    };
    overlap(regions_, [](const Region& r) { return r.heap_block ? 0 : r.size; });
    overlap(reserved_, [](const Reservation& r) { return r.bytes; });
    if (end == candidate) return candidate;
    candidate = end;
    if (candidate + rounded > kHeapLimit || candidate + rounded < candidate) {
      fail(ErrorKind::kUsage, "device address space exhausted");
    }
  }
}

std::uint64_t GlobalMemory::allocate(std::uint64_t bytes, std::string label) {
  if (bytes == 0) bytes = 1;
  const std::uint64_t rounded = (bytes + kAllocAlign - 1) / kAllocAlign * kAllocAlign;
  if (rounded < bytes || used_ + rounded > capacity_ || used_ + rounded < used_) {
    fail(ErrorKind::kUsage, "out of device memory: cannot allocate {} bytes ({} of {} bytes in use)",
         bytes, used_, capacity_);
  }
  const std::uint64_t candidate = place(rounded);
  auto* host = static_cast<std::uint8_t*>(std::calloc(rounded, 1));
  if (host == nullptr) fail(ErrorKind::kUsage, "host memory exhausted allocating {} bytes", bytes);
  regions_.emplace(candidate, Region{candidate, bytes, host, std::move(label)});
  used_ += rounded;
  return candidate;
}

std::uint64_t GlobalMemory::reserve(std::uint64_t bytes, std::uint8_t** host) {
  const std::uint64_t rounded = round_alloc(std::max<std::uint64_t>(bytes, 1));
  if (rounded < bytes || used_ + rounded > capacity_ || used_ + rounded < used_) {
    fail(ErrorKind::kUsage, "out of device memory: cannot reserve {} bytes ({} of {} bytes in use)", bytes, used_,
         capacity_);
  }
  const std::uint64_t base = place(rounded);
  auto* mem = static_cast<std::uint8_t*>(std::calloc(rounded, 1));
  if (mem == nullptr) fail(ErrorKind::kUsage, "host memory exhausted reserving {} bytes", bytes);
  reserved_.emplace(base, Reservation{rounded, mem});
  used_ += rounded;
  *host = mem;
  return base;
}

void GlobalMemory::add_block(std::uint64_t addr, std::uint64_t bytes, std::uint8_t* host, std::string label) {
  Region r{addr, bytes, host, std::move(label)};
  r.heap_block = true;
  regions_.emplace(addr, std::move(r));
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
  used_ -= (it->second.size + kAllocAlign - 1) / kAllocAlign * kAllocAlign;
  std::free(it->second.host);
  regions_.erase(it);
}

const Region* GlobalMemory::find(std::uint64_t addr, std::uint64_t bytes) const {
  auto it = regions_.upper_bound(addr);
  if (it == regions_.begin()) return nullptr;
  --it;
  return it->second.contains(addr, bytes) ? &it->second : nullptr;
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
