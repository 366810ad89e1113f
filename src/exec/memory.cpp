#include "exec/memory.hpp"

#include <cstdlib>

#include "common/error.hpp"

namespace warpscope::exec {

GlobalMemory::GlobalMemory(std::uint64_t capacity) : capacity_(capacity) {
  if (capacity_ > kHeapLimit - kHeapBase) capacity_ = kHeapLimit - kHeapBase;
}

GlobalMemory::~GlobalMemory() {
  for (auto& [base, r] : regions_) std::free(r.host);
}

std::uint64_t GlobalMemory::allocate(std::uint64_t bytes, std::string label, bool constant) {
  if (bytes == 0) bytes = 1;
  const std::uint64_t rounded = (bytes + kAllocAlign - 1) / kAllocAlign * kAllocAlign;
  if (rounded < bytes || used_ + rounded > capacity_ || used_ + rounded < used_) {
    fail(ErrorKind::kUsage, "out of device memory: cannot allocate {} bytes ({} of {} bytes in use)",
         bytes, used_, capacity_);
  }
  // First fit over the gaps between live allocations (addresses are reused after free, as
  // cudaMalloc's are).
  std::uint64_t candidate = kHeapBase;
  for (const auto& [base, r] : regions_) {
    if (base - candidate >= rounded) break;
    const std::uint64_t end = r.base + (r.size + kAllocAlign - 1) / kAllocAlign * kAllocAlign;
    candidate = end;
  }
  if (candidate + rounded > kHeapLimit) fail(ErrorKind::kUsage, "device address space exhausted");
  auto* host = static_cast<std::uint8_t*>(std::calloc(rounded, 1));
  if (host == nullptr) fail(ErrorKind::kUsage, "host memory exhausted allocating {} bytes", bytes);
  regions_.emplace(candidate, Region{candidate, bytes, host, std::move(label), constant});
  used_ += rounded;
  return candidate;
}

void GlobalMemory::release(std::uint64_t base) {
  auto it = regions_.find(base);
  if (it == regions_.end()) {
    fail(ErrorKind::kUsage, "free of 0x{:x}, which is not the start of a device allocation", base);
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
