#include "exec/heap.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

namespace warpscope::exec {

DeviceHeap::DeviceHeap(GlobalMemory& memory, std::uint64_t bytes) : memory_(memory) {
  size_ = bytes / kMinAlign * kMinAlign;
  base_ = memory_.reserve(std::max<std::uint64_t>(size_, 1), &host_);
  if (size_ != 0) free_.emplace(0, size_);
}

DeviceHeap::~DeviceHeap() {
  for (const auto& [addr, bytes] : live_) memory_.remove_block(addr);
}

std::uint64_t DeviceHeap::allocate(std::uint64_t bytes, std::uint64_t align) {
  if (align < kMinAlign) align = kMinAlign;
  if (!std::has_single_bit(align) || align > size_) return 0;
  const std::uint64_t want = bytes == 0 ? kMinAlign : (bytes + kMinAlign - 1) / kMinAlign * kMinAlign;
  if (want < bytes || want > size_) return 0;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const std::uint64_t off = it->first, len = it->second;
    const std::uint64_t start = ((base_ + off + align - 1) & ~(align - 1)) - base_;
    if (start - off > len || len - (start - off) < want) continue;
    free_.erase(it);
    if (start > off) free_.emplace(off, start - off);
    if (start + want < off + len) free_.emplace(start + want, off + len - (start + want));
    const std::uint64_t addr = base_ + start;
    std::memset(host_ + start, 0, want);  // freshly zeroed, so that results do not depend on reuse
    live_.emplace(addr, want);
    asked_.emplace(addr, bytes);
    freed_.erase(addr);
    memory_.add_block(addr, bytes == 0 ? kMinAlign : bytes, host_ + start, "device malloc");
    used_ += want;
    return addr;
  }
  return 0;
}

bool DeviceHeap::release(std::uint64_t addr) {
  auto it = live_.find(addr);
  if (it == live_.end()) return false;
  std::uint64_t off = addr - base_, len = it->second;
  live_.erase(it);
  asked_.erase(addr);
  freed_.insert(addr);
  memory_.remove_block(addr);
  used_ -= len;
  // Coalesce with the free neighbours.
  auto next = free_.lower_bound(off);
  if (next != free_.end() && next->first == off + len) {
    len += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == off) {
      off = prev->first;
      len += prev->second;
      free_.erase(prev);
    }
  }
  free_.emplace(off, len);
  return true;
}

std::vector<std::pair<std::uint64_t, std::uint64_t>> DeviceHeap::blocks() const {
  return {asked_.begin(), asked_.end()};
}

}  // namespace warpscope::exec
