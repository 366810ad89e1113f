// The runtime's host-side memory: which kind of memory a pointer is (classify, within_allocation),
// copies and memsets between host and device, host-visible (pinned, mapped and managed)
// allocations mapped at their device address, and keeping managed memory in step around launches.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <iterator>

#include <fmt/format.h>

#include "runtime/cudart/runtime.hpp"

namespace warpscope::cudart {
namespace {

std::size_t page_size() {
  static const std::size_t p = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

std::uint64_t round_up(std::uint64_t v, std::uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

Runtime::Where Runtime::classify(const void* ptr, std::size_t bytes) const {
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  auto h = host_allocs.upper_bound(p);
  if (h != host_allocs.begin()) {
    --h;
    if (p - h->first < std::max<std::size_t>(h->second.bytes, 1)) return Where::kHostVisible;
  }
  auto d = allocations.upper_bound(p);
  if (d != allocations.begin()) {
    --d;
    if (p - d->first < std::max<std::size_t>(d->second, 1)) return Where::kDevice;
  }
  (void)bytes;
  auto s = symbol_ranges.upper_bound(p);
  if (s != symbol_ranges.begin()) {
    --s;
    if (p - s->first < std::max<std::size_t>(s->second, 1)) return Where::kDevice;
  }
  // Anything else in the reserved device range (no host memory can be there).
  if (device_ != nullptr && p >= device_lo_ && p < device_hi_) return Where::kDevice;
  auto v = vmm_ranges.upper_bound(p);  // cuMemMap'ed memory, outside that range
  if (v != vmm_ranges.begin() && p - std::prev(v)->first < std::prev(v)->second) return Where::kDevice;
  return Where::kHost;
}

bool Runtime::within_allocation(const void* ptr, std::size_t bytes) const {
  const auto p = reinterpret_cast<std::uintptr_t>(ptr);
  auto inside = [&](const auto& map, auto size_of) {
    auto it = map.upper_bound(p);
    if (it == map.begin()) return false;
    --it;
    const std::size_t size = size_of(it->second);
    return p - it->first < std::max<std::size_t>(size, 1) && bytes <= size - (p - it->first);
  };
  return inside(allocations, [](std::size_t b) { return b; }) ||
         inside(symbol_ranges, [](std::size_t b) { return b; }) ||
         inside(graph_allocations, [](std::size_t b) { return b; }) ||
         inside(vmm_ranges, [](std::size_t b) { return b; }) ||
         inside(host_allocs, [](const auto& h) { return h.bytes; });
}

cudaError_t Runtime::copy(void* dst, const void* src, std::size_t bytes, int kind) {
  if (kind < kHostToHost || kind > kDefault) return kErrInvalidMemcpyDirection;
  if (bytes == 0) return kSuccess;
  if (dst == nullptr || src == nullptr) return kErrInvalidValue;
  const Where wd = classify(dst, bytes), ws = classify(src, bytes);
  const bool dst_dev_claim = kind == kHostToDevice || kind == kDeviceToDevice;
  const bool src_dev_claim = kind == kDeviceToHost || kind == kDeviceToDevice;
  if (kind != kDefault) {
    // A pointer the kind calls device memory must be device or managed memory; one it calls host
    // memory must not be plain device memory (the hardware reports invalid argument).
    if (dst_dev_claim && wd == Where::kHost) return kErrInvalidValue;
    if (src_dev_claim && ws == Where::kHost) return kErrInvalidValue;
    if (!dst_dev_claim && wd == Where::kDevice) return kErrInvalidValue;
    if (!src_dev_claim && ws == Where::kDevice) return kErrInvalidValue;
  }
  // A device range past its allocation: the H200 answers invalid argument, not sticky
  // (tests/hw/data/h200/runtime_gt/api_errors.txt, memcpy_*_past_end).
  if ((wd == Where::kDevice && !within_allocation(dst, bytes)) || (ws == Where::kDevice && !within_allocation(src, bytes)))
    return kErrInvalidValue;
  Device& dev = device();
  const auto dp = reinterpret_cast<DevicePtr>(dst);
  const auto sp = reinterpret_cast<DevicePtr>(src);
  if (wd == Where::kDevice && ws == Where::kDevice) dev.copy_on_device(dp, sp, bytes);
  else if (wd == Where::kDevice) dev.copy_to_device(dp, src, bytes);
  else if (ws == Where::kDevice) {
    check_host_copy(sp, bytes);  // initcheck (sanitize.cpp)
    dev.copy_to_host(dst, sp, bytes);
  }
  else std::memmove(dst, src, bytes);
  return kSuccess;
}

cudaError_t Runtime::set(void* dst, int value, std::size_t bytes) {
  if (bytes == 0) return kSuccess;
  const Where w = classify(dst, bytes);
  if (w == Where::kHost) return kErrInvalidValue;
  // Past the allocation: invalid argument on the H200 (api_errors.txt, memset_*past_end).
  if (!within_allocation(dst, bytes)) return kErrInvalidValue;
  if (w == Where::kHostVisible) {
    std::memset(dst, value, bytes);
    return kSuccess;
  }
  device().memset(reinterpret_cast<DevicePtr>(dst), value, bytes);
  return kSuccess;
}

void Runtime::sync_managed_to_device() {
  for (auto& [key, h] : host_allocs) {
    if (h.device_base != 0) device_->copy_to_device(reinterpret_cast<DevicePtr>(h.ptr), h.ptr, h.bytes);
  }
}

void Runtime::sync_managed_to_host() {
  for (auto& [key, h] : host_allocs) {
    if (h.device_base != 0) device_->copy_to_host(h.ptr, reinterpret_cast<DevicePtr>(h.ptr), h.bytes);
  }
}

void* Runtime::allocate_host_visible(std::size_t bytes, bool managed, unsigned flags) {
  Device& dev = device();
  const std::size_t pg = page_size();
  const std::size_t map_bytes = round_up(std::max<std::size_t>(bytes, 1), pg);
  const DevicePtr base = dev.malloc(map_bytes + pg);
  const std::uint64_t aligned = round_up(base, pg);
  void* want = reinterpret_cast<void*>(aligned);
  const bool in_reservation = reserved_base_ != nullptr && aligned >= reinterpret_cast<std::uintptr_t>(reserved_base_) &&
                              aligned + map_bytes <= reinterpret_cast<std::uintptr_t>(reserved_base_) + reserved_bytes_;
  void* p = mmap(want, map_bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | (in_reservation ? MAP_FIXED : MAP_FIXED_NOREPLACE), -1, 0);
  if (p == MAP_FAILED || p != want) {
    if (p != MAP_FAILED) munmap(p, map_bytes);
    dev.free(base);
    note(fmt::format("cannot map {} host-visible bytes at device address 0x{:x}: the range is in use by the "
                     "process", bytes, aligned));
    return nullptr;
  }
  HostAlloc h;
  h.ptr = p;
  h.bytes = bytes;
  h.device_base = base;
  h.map_base = p;
  h.map_bytes = map_bytes;
  h.flags = flags;
  h.managed = managed;
  host_allocs[reinterpret_cast<std::uintptr_t>(p)] = h;
  return p;
}

cudaError_t Runtime::free_host_visible(std::uintptr_t key) {
  auto it = host_allocs.find(key);
  if (it == host_allocs.end()) return kErrInvalidValue;
  HostAlloc& h = it->second;
  if (h.map_base != nullptr) {
    const bool in_reservation = reserved_base_ != nullptr;
    if (in_reservation) {
      mmap(h.map_base, h.map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    } else {
      munmap(h.map_base, h.map_bytes);
    }
    if (device_ != nullptr) device_->free(h.device_base);
  } else {
    std::free(h.ptr);
  }
  host_allocs.erase(it);
  return kSuccess;
}

}  // namespace warpscope::cudart
